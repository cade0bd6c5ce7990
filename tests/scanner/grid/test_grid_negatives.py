"""No face on scenes without a cube: each rejection rule of the grid detector, on a rendered
scene of the class it is there for, and the rules leave real faces alone."""

from dataclasses import replace

import cv2
import numpy as np
import pytest
from grid_scenes import patch_grid

from cubescan.scanner.grid import FaceDetection, detect_grid
from cubescan.scanner.grid.cells import cell_statistics
from cubescan.scanner.grid.continuation import color_continues
from cubescan.scanner.grid.face import make_detection
from cubescan.scanner.grid.params import MIN_STICKER_SHARE
from cubescan.scanner.grid.plastic import keys_with_gaps
from cubescan.scanner.grid.quads import candidate_lattices, sticker_candidates
from cubescan.scanner.grid.rejection import (
    block_in_frame,
    edge_turns,
    edges_off_the_lines,
    few_stickers,
    is_board,
    ringed_lab,
    turned_in_cells,
)
from cubescan.synth.scenes import render_scene, seeded_clutter
from cubescan.synth.specs import random_scene_spec


@pytest.mark.parametrize(
    "seed",
    [
        # Two colours alternating with no seams between them, found by the second cue.
        pytest.param(3243, id="checkerboard"),
        pytest.param(1999, id="checkerboard-window-past-the-board"),
        pytest.param(2363, id="checkerboard-window-past-the-board-2"),
        # JPEG ringing dips beside each black square's edge: by a few percent of the step
        # from the light square, where a seam dips further.
        pytest.param(6286, id="checkerboard-with-ringing"),
        # Keys (or squares) of the grid's size and pitch lie further away on the same
        # lattice: the pattern repeats across a surface, where a face is one isolated block.
        pytest.param(1290, id="keyboard"),
        pytest.param(2234, id="keyboard-2"),
        pytest.param(3410, id="keyboard-3"),
        pytest.param(1330, id="scattered-squares"),
        # One-colour tiles: the tile past three sides of the grid is the same flat colour.
        pytest.param(1723, id="tiled-floor"),
        # Keys of a staggered row, or tiles whose grout is lost next to the grid, miss the
        # ring of cells around it, but a row of them lines up with its lattice one cell
        # further out.
        pytest.param(1135, id="staggered-keyboard"),
        pytest.param(2377, id="staggered-keyboard-2"),
        pytest.param(3703, id="striped-floor"),
        pytest.param(3153, id="striped-floor-2"),
        pytest.param(3596, id="striped-floor-3"),
        # A 2x2 window on such a floor: four centres fix its homography exactly, noise and
        # all, and its perspective misses the row two pitches out; the affine fit meets it.
        pytest.param(6099, id="striped-floor-two-pitches-past-a-2x2"),
        pytest.param(6667, id="striped-floor-two-pitches-past-a-2x2-2"),
        # A 2x2 window of one or two colours may leave a region of its lattice out (an
        # object beside a face), but not a tile of its own colour and size.
        pytest.param(7713, id="tile-left-out-of-a-2x2-on-a-striped-floor"),
        # A floor filling the frame: the window's ring is mostly out of the frame, and the
        # two tiles it shows lie along one side (two objects past two sides would not do).
        pytest.param(7068, id="tiles-past-one-side-of-a-window-filling-the-frame"),
        # Along one side, every cell past the grid repeats its neighbour's colour, and the
        # side holds two or more colours: stripes run on past the grid.
        pytest.param(4392, id="stripes-run-past-a-side"),
        pytest.param(4643, id="stripes-run-past-a-side-2"),
        # Found only by the finer pass, where the grout of the tiles around the window is
        # too faint to close them; the first pass's regions see the grid continue.
        pytest.param(6691, id="window-found-at-the-finer-scale"),
        pytest.param(4380, id="window-found-at-the-finer-scale-2"),
        # One colour's squares form a lattice turned 45 degrees to the board: each lies in
        # its cell as a diamond, leaving the corners of the cell's middle to the other colour.
        pytest.param(1351, id="checkerboard-along-its-diagonals"),
        pytest.param(2491, id="checkerboard-along-its-diagonals-2"),
        pytest.param(1009, id="checkerboard-along-its-diagonals-3"),
        # Scattered squares that happen to fit a lattice of rhombi: in its units they are
        # skewed, where a face's stickers are square (found by the second cue).
        pytest.param(7438, id="squares-skewed-in-their-lattice"),
        # Keys of one colour with some missing: the holes show the keyboard's dark grey body.
        pytest.param(6185, id="keyboard-with-missing-keys"),
        pytest.param(6598, id="keyboard-with-missing-keys-2"),
        pytest.param(7038, id="keyboard-with-missing-keys-3"),
        # ... at the keyboard's end, the window past it over the background or under an
        # object lying there: the keys' colour is judged where keys were seen, and one
        # missing key with keys on its four sides is enough.
        pytest.param(8115, id="keyboard-end-with-missing-keys"),
        pytest.param(8301, id="keyboard-end-with-missing-keys-2"),
        pytest.param(9937, id="keyboard-end-with-missing-keys-under-an-object"),
        # Keys of one colour in a sheared lattice, roughly square in its units only with a
        # small region's slack: a face found with that slack must show several colours.
        pytest.param(6390, id="sheared-keys-roughly-square"),
        pytest.param(6512, id="sheared-keys-roughly-square-2"),
        pytest.param(6922, id="sheared-keys-roughly-square-3"),
        # A grid the frame cuts hides its continuation there. It stands only when at most
        # a corner sticker or two are cut (not a row), its corners within a pitch of the
        # frame, it is larger than a 2x2, and every cell left in view shows a sticker.
        pytest.param(6362, id="cut-by-the-frame-along-a-row"),
        pytest.param(7298, id="cut-by-the-frame-far-past-a-corner"),
        pytest.param(6712, id="cut-by-the-frame-a-2x2"),
        pytest.param(6541, id="cut-by-the-frame-with-cells-not-seen"),
        pytest.param(6985, id="cut-by-the-frame-with-cells-not-seen-2"),
        pytest.param(7012, id="cut-by-the-frame-with-cells-not-seen-3"),
        # ... and, however close its corners, the frame cuts it at corner stickers and their
        # neighbours only: here it cuts a side's middle (a floor running out of the frame).
        pytest.param(8806, id="cut-by-the-frame-along-a-side"),
        pytest.param(11846, id="cut-by-the-frame-along-a-side-2"),
        pytest.param(15079, id="cut-by-the-frame-along-a-side-3"),
        # ... nor may it cut into a side's other stickers: here their middles are in view,
        # but the frame's edge runs through them.
        pytest.param(9707, id="cut-by-the-frame-through-a-side-row"),
        pytest.param(11035, id="cut-by-the-frame-through-a-side-row-2"),
        pytest.param(15686, id="cut-by-the-frame-through-a-side-row-3"),
        # A floor filling the frame: past the window's sides its next tiles show only in
        # part, cut by the frame's edge; what shows of them repeats the window's colours.
        pytest.param(6416, id="tiles-cut-by-the-frame-past-the-window"),
        pytest.param(6315, id="tiles-cut-by-the-frame-past-the-window-2"),
    ],
)
def test_no_cube_scenes_of_each_refused_class_give_no_face(seed):
    # One seeded scene per rejection rule's class; each fails without its rule.
    assert detect_grid(seeded_clutter(seed)) is None


SOLVED = "".join(letter * 9 for letter in "WRGYOB")


@pytest.mark.parametrize("style", ["stickered", "stickerless"])
def test_a_solved_face_does_not_continue_in_color(style):
    # A one-colour face is what the tile rule looks at; on a cube, the cells past its
    # border are plastic, background or stickers of other colours.
    for seed in range(3):
        spec = random_scene_spec(np.random.default_rng(seed), 3, resolution=(640, 480), hard=False)
        image = render_scene(replace(spec, colors=SOLVED, style=style))[0]
        detection = detect_grid(image)
        assert detection is not None and detection.size == 3
        assert not color_continues(image, detection, ringed_lab(image, detection))


def test_tiles_in_a_corner_of_the_frame_continue_in_color_on_both_sides_left():
    # A grid in the frame's corner has only two sides to judge: tiles repeat on both, a face
    # on a table of another colour on neither.
    tiles = np.full((240, 320, 3), (90, 90, 90), np.uint8)
    for row in range(6):
        for col in range(8):
            tiles[row * 40 + 3 : row * 40 + 37, col * 40 + 3 : col * 40 + 37] = (40, 40, 200)
    face = tiles.copy()
    face[120:, :] = (200, 160, 120)
    face[:, 120:] = (200, 160, 120)
    corner = make_detection(np.diag([40.0, 40.0, 1.0]), 3, np.ones((3, 3)))  # cells 0..2, 0..2
    assert color_continues(tiles, corner, ringed_lab(tiles, corner))
    assert not color_continues(face, corner, ringed_lab(face, corner))


def test_tiles_the_frame_cuts_past_a_window_continue_in_color(monkeypatch):
    # A floor filling the frame but for a table past the window's right side: past its top
    # and left sides the next tiles show only in part, cut by the frame's edge, and are
    # judged by what shows of them.
    tiles = np.full((240, 320, 3), (90, 90, 90), np.uint8)
    for row in range(7):
        for col in range(9):
            top, left = row * 40 - 20, col * 40 - 20
            tiles[max(0, top + 3) : top + 37, max(0, left + 3) : left + 37] = (40, 40, 200)
    tiles[:, 140:] = (200, 160, 120)
    window = make_detection(np.array([[40.0, 0, 20], [0, 40, 20], [0, 0, 1]]), 3, np.ones((3, 3)))
    assert color_continues(tiles, window, ringed_lab(tiles, window))
    patch_grid(monkeypatch, "MIN_SHOWN_SHARE", 1.0)  # only whole ring cells judged
    assert not color_continues(tiles, window, ringed_lab(tiles, window))


def test_stripes_running_past_one_side_continue_in_color():
    # Past each side of a face lies the plastic, the background or another sticker of the same
    # piece; a row of cells in two or more colours repeated cell for cell is a striped surface.
    colors = [(40, 40, 200), (60, 180, 60), (200, 160, 120)]
    stripes = np.full((240, 320, 3), (90, 90, 90), np.uint8)
    for row in range(6):
        for col in range(8):
            stripes[row * 40 + 3 : row * 40 + 37, col * 40 + 3 : col * 40 + 37] = colors[col % 3]
    window = make_detection(  # cells 2..4 across and down: pixels 80..200
        np.array([[40.0, 0, 80], [0, 40, 80], [0, 0, 1]]), 3, np.ones((3, 3))
    )
    assert color_continues(stripes, window, ringed_lab(stripes, window))
    # The same face on a grey table; and with its top row all blue, on a blue table.
    face = np.full_like(stripes, 120)
    face[80:200, 80:200] = stripes[80:200, 80:200]
    assert not color_continues(face, window, ringed_lab(face, window))
    blue_row = np.full_like(stripes, colors[0])
    blue_row[80:200, 80:200] = stripes[80:200, 80:200]
    for col in range(2, 5):
        blue_row[83:117, col * 40 + 3 : col * 40 + 37] = colors[0]
    assert not color_continues(blue_row, window, ringed_lab(blue_row, window))
    # Stripes past the bottom side only, with text over one of those cells: it counts neither
    # way, and the two cells left still repeat the border.
    texted = face.copy()
    texted[200:240, 80:200] = stripes[200:240, 80:200]
    texted[200:240, 120:160] = np.random.default_rng(0).integers(0, 256, (40, 40, 3))
    assert color_continues(texted, window, ringed_lab(texted, window))


def _keys(offset_per_row: int) -> np.ndarray:
    """Light square keys, 33 px at a 40 px pitch, 4 rows of 6 on a dark body; each row
    shifted right by ``offset_per_row`` px from the one above."""
    board = np.full((240, 360, 3), 30, np.uint8)
    for row in range(4):
        for col in range(6):
            x, y = 20 + col * 40 + row * offset_per_row, 30 + row * 40
            board[y : y + 33, x : x + 33] = (200, 210, 215)
    return board


def test_the_quad_cue_links_square_keys_only_in_a_lattice_of_squares():
    # Keys in straight rows form a lattice of squares: one lattice links all 24. Shifted
    # 0.3 of the pitch per row, they fit a lattice of rhombi, in whose units the keys are
    # skewed: no lattice may link two rows (within one row, the keys lie on a line).
    for offset, linked in ((0, 24), (12, 0)):
        image = _keys(offset)
        candidates = sticker_candidates(image)
        assert len(candidates) == 24
        row_of = [int(c.center[1] - 30) // 40 for c in candidates]
        most = 0
        for lattice in candidate_lattices(candidates):
            if len({row_of[i] for i in lattice.inliers}) > 1:
                most = max(most, len(lattice.inliers))
        assert most == linked


@pytest.mark.parametrize("style", ["stickered", "stickerless"])
def test_stickers_fill_the_corners_of_their_cells(style):
    # A face's stickers cover their cells' middles out to the corners; the same grid over
    # diamonds (a checkerboard turned 45 degrees to it) leaves those corners bare.
    for seed in range(4):
        spec = random_scene_spec(np.random.default_rng(seed), 3, resolution=(640, 480), hard=False)
        image = render_scene(replace(spec, style=style))[0]
        detection = detect_grid(image)
        assert detection is not None and detection.size == 3
        assert not turned_in_cells(image, detection, ringed_lab(image, detection))
    diamonds = np.full((240, 240, 3), (230, 230, 230), np.uint8)
    y, x = np.mgrid[0:240, 0:240]
    diamonds[(np.abs((x % 40) - 19.5) + np.abs((y % 40) - 19.5)) < 20] = (30, 30, 30)
    grid = make_detection(np.diag([40.0, 40.0, 1.0]), 3, np.ones((3, 3)))
    assert turned_in_cells(diamonds, grid, ringed_lab(diamonds, grid))


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_edges_in_a_face_run_along_its_grid_lines(n):
    for seed in range(3):
        for style in ("stickered", "stickerless"):
            spec = random_scene_spec(np.random.default_rng(seed), n, hard=False)
            image = render_scene(replace(spec, style=style))[0]
            detection = detect_grid(image)
            assert detection is not None and detection.size == n
            assert not edges_off_the_lines(image, detection)


@pytest.mark.parametrize(("margin", "in_frame"), [(30.0, True), (21.0, True), (20.0, False)])
def test_edge_directions_are_judged_in_the_frame_only(monkeypatch, margin, in_frame):
    # A 3x3 of 40 px cells ``margin`` px from a 200 px frame's right edge. Its block reaches
    # half a cell (20 px) past it, and its last pixel column 20 - 40 / 24 px: judged pixel
    # by pixel or, when the whole block lies a pixel or more in the frame, all at once.
    image = render_scene(random_scene_spec(np.random.default_rng(2), 3, hard=False))[0]
    image = cv2.resize(image, (200, 200))
    detection = _lattice(3, 0.0, 200 - 120 - margin, 40.0)
    assert block_in_frame(detection.homography, 3, image.shape) == in_frame
    turns = edge_turns(image, detection)
    patch_grid(monkeypatch, "block_in_frame", lambda *args: False)
    assert edge_turns(image, detection) == pytest.approx(turns, abs=1e-9)


@pytest.mark.parametrize("n", [2, 3])
def test_a_face_shows_flat_stickers_on_a_quarter_of_its_cells_or_more(n):
    # A finger on one sticker of a 2x2 and a glare spot over two more leave one flat. A grid
    # with fewer (light tiles, each crossed by dark grout, all taken for glare) is no face.
    spec = random_scene_spec(np.random.default_rng(4), n, resolution=(640, 480), hard=False)
    image = render_scene(spec)[0]
    detection = detect_grid(image)
    assert detection is not None and detection.size == n
    assert not few_stickers(detection)
    flat = int(np.ceil(n * n * MIN_STICKER_SHARE))  # one of a 2x2's four, three of nine
    spoiled = detection.confidence.copy()
    spoiled[flat:] = 0.0
    assert not few_stickers(replace(detection, confidence=spoiled))
    spoiled[flat - 1] = 0.0
    assert few_stickers(replace(detection, confidence=spoiled))


def _lattice(n: int, shear: float, left: float, top: float) -> FaceDetection:
    """An n x n grid of 40 px cells from (left, top), each row ``shear`` px right of the last."""
    homography = np.array([[40.0, shear, left], [0, 40, top], [0, 0, 1]])
    return make_detection(homography, n, np.ones((n, n)))


def test_keys_in_staggered_rows_have_edges_off_the_lines_of_the_lattice_through_them():
    # Keys in straight rows, and a 3x3 grid over them: their edges run along its lines.
    assert not edges_off_the_lines(_keys(0), _lattice(3, 0, 16.5, 26.5))
    # Rows shifted 0.3 of the pitch each: the lattice through the keys' middles is sheared,
    # and their upright sides cross its columns' lines at 17 degrees.
    assert edges_off_the_lines(_keys(12), _lattice(3, 12, 10.5, 26.5))


@pytest.mark.parametrize(
    ("turn", "off_the_lines"), [(0, False), (6, False), (20, True), (-35, True)]
)
def test_squares_turned_on_a_lattice_have_edges_off_its_lines(turn, off_the_lines):
    # Squares centred on a lattice, each turned by ``turn`` degrees: a lattice fitted through
    # a face's stickers may be a few degrees askew; squares lying about at random are not
    # lined up with the lattice their middles happen to fall on.
    image = np.full((200, 200, 3), (60, 90, 70), np.uint8)
    colors = [(40, 40, 200), (40, 200, 220), (200, 120, 30), (230, 230, 230)]
    for cell, color in enumerate(colors):
        middle = (60.0 + 40 * (cell % 2), 60.0 + 40 * (cell // 2))
        corners = cv2.boxPoints((middle, (26.0, 26.0), turn))
        cv2.fillPoly(image, [np.round(corners).astype(np.int32)], color, cv2.LINE_AA)
    assert edges_off_the_lines(image, _lattice(2, 0, 40, 40)) == off_the_lines


def test_ringing_beside_a_black_square_is_no_seam_but_a_seam_is():
    # A 4x4 checkerboard of cream and near-black squares, 40 px, drawn with the undershoot a
    # JPEG or a sharpened camera leaves in the black beside each edge (a two-pixel band 7
    # grey levels darker: 4% of the step); then with a seam (2 px, 18 levels darker).
    def board(band: int, depth: int) -> np.ndarray:
        image = np.zeros((160, 160, 3), np.uint8)
        y, x = np.mgrid[0:160, 0:160]
        light = ((x // 40) + (y // 40)) % 2 == 0
        image[light] = 200
        image[~light] = 26
        edge = (np.minimum(x % 40, 39 - x % 40) < band) | (np.minimum(y % 40, 39 - y % 40) < band)
        image[~light & edge] = 26 - depth
        return image

    grid = make_detection(np.diag([40.0, 40.0, 1.0]), 4, np.ones((4, 4)))
    ringing = board(2, 7)
    assert is_board(ringing, grid, ringed_lab(ringing, grid))
    seams = board(2, 18)
    assert not is_board(seams, grid, ringed_lab(seams, grid))


def _one_color_grid(body: tuple[int, int, int], holes: int, hole=None) -> np.ndarray:
    """Cream keys (33 px at a 40 px pitch) on a ``body`` (BGR), 5 x 5; the first ``holes``
    keys of the middle row missing, or painted ``hole`` when given."""
    board = np.full((200, 200, 3), body, np.uint8)
    for cell in range(25):
        row, col = divmod(cell, 5)
        color = (150, 225, 240)
        if row == 2 and col < holes:
            color = body if hole is None else hole
        board[row * 40 + 3 : row * 40 + 36, col * 40 + 3 : col * 40 + 36] = color
    return board


def _keys_rule(image: np.ndarray, seen: np.ndarray | None = None) -> bool:
    """:func:`keys_with_gaps` on a 5 x 5 window of 40 px cells from the image's corner."""
    grid = np.diag([40.0, 40.0, 1.0])
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab)
    seen = np.ones((5, 5), bool) if seen is None else seen
    return keys_with_gaps(grid, 5, lab, cell_statistics(grid, 5, lab), seen)


def _paint(image: np.ndarray, cells: list[tuple[int, int]], color) -> np.ndarray:
    """The image with the keys at ``cells`` (row, column) painted ``color`` (BGR)."""
    painted = image.copy()
    for row, col in cells:
        painted[row * 40 + 3 : row * 40 + 36, col * 40 + 3 : col * 40 + 36] = color
    return painted


def test_a_grid_of_one_color_with_holes_showing_its_body_is_keys_with_gaps():
    # Two keys missing show the body: grey, with a faint colour cast, or dark maroon.
    assert _keys_rule(_one_color_grid((35, 35, 35), holes=2))
    assert _keys_rule(_one_color_grid((45, 40, 38), holes=3))
    assert _keys_rule(_one_color_grid((30, 20, 60), holes=3))
    # One hole on the window's edge may be the background past a face's border.
    assert not _keys_rule(_one_color_grid((35, 35, 35), holes=1))
    # A nearly solved face's other stickers, however dark and grey in dim light, have the
    # plastic around them; a blue one keeps its colour.
    assert not _keys_rule(_one_color_grid((20, 20, 20), holes=3, hole=(55, 52, 50)))
    assert not _keys_rule(_one_color_grid((35, 35, 35), holes=3, hole=(90, 30, 20)))
    # Keys of two colours are no keyboard of this kind (nor a nearly solved face).
    every_other = [divmod(cell, 5) for cell in range(0, 25, 2) if cell // 5 != 2]
    two_colors = _paint(_one_color_grid((35, 35, 35), holes=2), every_other, (60, 170, 60))
    assert not _keys_rule(two_colors)


def test_one_hole_with_keys_on_its_four_sides_is_keys_with_gaps():
    # Inside the grid, a cell of the keyboard's body with no line between it and any of its
    # four neighbours is a missing key; a dark sticker has the plastic around it.
    keys = _one_color_grid((35, 35, 35), holes=0)
    assert _keys_rule(_paint(keys, [(2, 2)], (35, 35, 35)))
    assert not _keys_rule(_paint(keys, [(2, 2)], (80, 78, 75)))
    assert not _keys_rule(_paint(_one_color_grid((20, 20, 20), holes=0), [(2, 2)], (55, 52, 50)))


def test_keys_with_gaps_judge_the_color_on_the_cells_where_keys_were_seen():
    # The keyboard's end under an object (a column of its own colour) and the background
    # past it (a row of another): those cells show no key, and the keys are still of one
    # colour. Counted as keys, the two colours would make it no keyboard.
    keys = _one_color_grid((35, 35, 35), holes=2)
    covered = _paint(keys, [(row, 4) for row in range(5)], (150, 90, 200))
    covered = _paint(covered, [(4, col) for col in range(4)], (160, 150, 40))
    seen = np.ones((5, 5), bool)
    seen[:, 4] = seen[4, :] = False
    assert _keys_rule(covered, seen)
    assert not _keys_rule(covered)


@pytest.mark.parametrize("style", ["stickered", "stickerless"])
def test_a_nearly_solved_face_in_dim_light_is_a_face(style):
    # One turn from solved, a face shows one colour and a column of another; in dim light a
    # blue or green column is dark, but not the grey of a keyboard's missing keys.
    for seed in range(4):
        for column in "BG":
            spec = random_scene_spec(
                np.random.default_rng(seed), 3, resolution=(640, 480), face="U", hard=False
            )
            up = "".join("WW" + column for _ in range(3))
            image = render_scene(replace(spec, colors=up + SOLVED[9:], light="dim", style=style))[0]
            detection = detect_grid(image)
            assert detection is not None and detection.size == 3
