"""Step 3, window scoring: the cube's own consistency picks the N x N
window of a lattice (stickers seen in every row and column, square, flat, no plastic, not
continued past its border).
"""

from __future__ import annotations

import numpy as np

from cubescan.scanner.grid._kernels import _nearest
from cubescan.scanner.grid._windows_kernels import _block_cells, _windows
from cubescan.scanner.grid.cells import _cell_samples, cell_statistics, three_of_four_hold
from cubescan.scanner.grid.continuation import _of_the_grids_kind, grid_continues
from cubescan.scanner.grid.face import _cell_confidence
from cubescan.scanner.grid.framing import (
    _well_shaped,
    corners_near,
    cut_at_a_corner,
    objects_beside_a_smaller_face,
)
from cubescan.scanner.grid.geometry import _face_of_lattice, _pitch, _polygon_area, warp_points
from cubescan.scanner.grid.params import (
    _MIN_PITCH,
    MAX_STICKER_SPREAD,
    MIN_FACE_SHARE,
    MIN_FLAT_SHARE,
    RING_SAME_COLOR,
)
from cubescan.scanner.grid.plastic import keys_with_gaps, on_the_plastic
from cubescan.scanner.grid.regions import Regions


def _best_window(coords, homography, regions, lab, size, best, smallest=2):
    """The best-scoring N x N window over the lattice (keeps ``best`` when none beats it).

    Windows rank by how well they cover the lattice's regions (the objective), then by
    their score; they are scored in the objective's order, so the search stops at the first
    objective below one that already gave a face. N runs from ``smallest`` (``size`` when
    given).
    """
    lo = coords.min(axis=0)
    extent = coords.max(axis=0) - lo + 1
    if extent.max() > 7 + 1:
        return best
    # Cells with a sticker seen: the lattice's regions, and merged same-colour blocks.
    blocks, middles = _merged_cells(homography, regions, lo - 7, lo + extent + 7, with_rows=True)
    sizes = np.array([size] if size else range(smallest, 7 + 1), np.int64)
    objectives, ns, origins, supports = _windows(coords, blocks, middles, lo, extent, sizes)
    windows = [
        (objective, n, ox, oy, supports[k, :n, :n])
        for k, (objective, n, (ox, oy)) in enumerate(
            zip(objectives.tolist(), ns.tolist(), origins.tolist(), strict=True)
        )
    ]
    windows.sort(key=lambda window: -window[0])
    for objective, n, ox, oy, support in windows:
        if best is not None and objective < best[0] - 1e-9 and not _one_of_four_unseen(best[1]):
            if best[1][2] != 2:
                break
            if n == 2 or not support.all():
                continue  # from here, only a larger window seen in every cell beats a 2x2
        shift = np.array([[1, 0, ox], [0, 1, oy], [0, 0, 1.0]])
        if n == 2 and leaves_out_its_own(coords - [ox, oy], homography @ shift, regions, lab):
            continue
        result = _score_window(homography @ shift, n, support, regions, lab)
        if result is not None and (best is None or _beats(objective, result, best)):
            best = (objective, result)
    return best


def leaves_out_its_own(
    coords: np.ndarray, homography: np.ndarray, regions: Regions, lab: np.ndarray
) -> bool:
    """True when a 2x2 window leaves out regions of its lattice that are more of its own
    grid. It may leave out one or two: objects that happen to lie on a face's lattice, of
    their own size. It is refused when

    - it leaves out two and either is the size of the window's stickers: the rest of a
      larger face (the window is its corner) or of a tiled floor;
    - it shows one or two colours and leaves out a region of one of them at its stickers'
      size: the next tile of a striped or one-colour floor. A face of three colours or
      four may have an object of one sticker's colour and size beside it.

    ``coords`` are the lattice's regions in the window's lattice coords (its cells are
    0..1), which ``homography`` maps to the working image ``lab``.

    Parameters
    ----------
    coords
        The window's cells in lattice coordinates (n*n, 2).
    homography
        Lattice homography into ``lab``.
    regions
        The lattice's regions.
    lab
        The working image, 8-bit Lab.

    Returns
    -------
    bool
        Whether the 2x2 window leaves out more of its own grid.

    Examples
    --------
    >>> import cv2
    >>> from cubescan.scanner.grid import detect_grid
    >>> from cubescan.synth.scenes import square_stickers_frame
    >>> frame = square_stickers_frame()
    >>> face = detect_grid(frame)
    >>> lab = cv2.cvtColor(frame, cv2.COLOR_BGR2Lab)
    >>> face_h = np.array([[40.0, 0, 97], [0, 40, 57], [0, 0, 1]])  # the face's cells, 40 px
    >>> from cubescan.scanner.grid.regions import find_regions
    >>> lattice_h = np.array([[40.0, 0, 117], [0, 40, 77], [0, 0, 1]])
    >>> window = np.array([[1, 1], [2, 1], [1, 2], [2, 2]], float)  # a 2x2 of the 3x3
    >>> leaves_out_its_own(window, lattice_h, find_regions(lab), lab)
    True
    """
    outside = ((coords < 0) | (coords > 1)).any(axis=1)
    if not outside.any():
        return False
    if not regions.true_areas:  # merged blocks cut apart: no region's size can be judged
        return outside.sum() > 1
    face_h = _face_of_lattice(homography)
    colors = cell_statistics(face_h, 2, lab).color.reshape(4, 3).astype(float)
    _, left_out = _nearest(warp_points(coords[outside].astype(float), homography), regions.centers)
    repeats, sized = _of_the_grids_kind(
        homography, 2, regions, lab, left_out, _pitch(homography), colors
    )
    if len(left_out) > 1:
        return bool(sized.any())
    same = np.linalg.norm(colors[:, None] - colors[None], axis=2) < RING_SAME_COLOR
    new_color = ~np.triu(same, 1).any(axis=0)  # a cell like no earlier one
    return bool(new_color.sum() <= 2 and (repeats & sized).any())


def _one_of_four_unseen(result) -> bool:
    """True for a 2x2 window (a :func:`_score_window` result) with one sticker unseen."""
    return result[2] == 2 and result[4].sum() == 3


def _fully_seen_over_2x2(result, other) -> bool:
    """True when ``result`` (a :func:`_score_window` result) is a window of 3x3 or more with
    a sticker seen in every cell, and ``other`` a 2x2 over the same lattice: a solved face's
    stickers merge into blocks whose cells count as seen but not towards the objective, and
    its four single stickers left alone make the best-covered window."""
    return result[2] > 2 and result[4].all() and other[2] == 2


def _beats(objective: float, result, best) -> bool:
    """True when a window (its objective and :func:`_score_window` result) is better than
    ``best`` (objective, result): by objective, then score. But a 2x2 with a sticker unseen
    is the weakest window: a larger one seeing more cells beats it (on a stickerless face,
    same-coloured stickers merge, and three single ones may be all a larger face shows).
    And a 2x2 never beats a larger window with a sticker seen in every cell, nor loses to
    one by objective (see :func:`_fully_seen_over_2x2`)."""
    if _one_of_four_unseen(best[1]) and result[2] > 2 and result[4].sum() > 3:
        return True
    if _fully_seen_over_2x2(result, best[1]):
        return True
    if _fully_seen_over_2x2(best[1], result):
        return False
    return (objective, result[0]) > (best[0], best[1][0])


def _merged_cells(
    homography: np.ndarray,
    regions: Regions,
    lo: np.ndarray,
    hi: np.ndarray,
    with_rows: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Lattice cells covered by a region spanning a block, for blocks centred in lo..hi.

    Neighbouring stickers of one colour on a stickerless cube merge into one region (the
    seam between them is lost); such a region is an a x b block in lattice units (cell
    centres at integers), centred on the block's middle. ``with_rows`` also looks at the
    regions too long for a sticker (a whole row of one colour, 1 x 3). Returns the cells
    (K, 2) and the middle of the block each belongs to (K, 2).
    """
    centers, whiten = regions.centers, regions.whiten
    if with_rows:
        centers = np.concatenate([centers, regions.row_centers])
        whiten = np.concatenate([whiten, regions.row_whiten])
    cells, middles = _block_cells(
        np.linalg.inv(homography),
        centers,
        whiten,
        np.asarray(lo, float),
        np.asarray(hi, float),
    )
    return cells, middles


def _score_window(
    homography: np.ndarray, n: int, support: np.ndarray, regions: Regions, lab: np.ndarray
):
    """Score an N x N window (lattice coords of its cells are 0..N-1) or None to reject it.

    ``support`` is the window's mask of cells where a sticker was seen.
    """
    face_h = _face_of_lattice(homography)
    quad = warp_points(np.array([[0, 0], [n, 0], [n, n], [0, n]], float), face_h)
    if not _well_shaped(quad) or objects_beside_a_smaller_face(face_h, n, support, lab.shape):
        return None
    if not corners_near(quad, lab.shape) and not cut_at_a_corner(quad, face_h, support, lab.shape):
        return None
    # Stickers smaller than this are texture, not a cube a camera could read; nor is a face
    # much smaller than the frame.
    face_side = np.sqrt(abs(_polygon_area(quad)))
    if face_side / n < _MIN_PITCH or face_side < MIN_FACE_SHARE * min(lab.shape[:2]):
        return None
    cell_stats = cell_statistics(face_h, n, lab)
    if grid_continues(homography, n, regions, lab, colors=cell_stats.color):
        return None
    spread, glared = cell_stats.spread, cell_stats.glared
    if on_the_plastic(face_h, n, lab, cell_stats, support) or keys_with_gaps(
        face_h, n, lab, cell_stats, support
    ):
        return None
    # Most cells are one flat colour, or one under a glare spot (a finger may spoil a few);
    # a window stretched over the background or the next face has textured cells.
    if np.mean((spread < MAX_STICKER_SPREAD) | glared) < MIN_FLAT_SHARE:
        return None
    if unseen_cells_are_surround(face_h, n, support, lab):
        return None
    if n == 2 and support.sum() == 3 and not three_of_four_hold(face_h, support, lab):
        return None
    confidence = _cell_confidence(support, spread)
    # Of two faces of one cube, the one turned towards the camera is the one being shown.
    sides = np.linalg.norm(quad[[1, 2, 3, 0]] - quad, axis=1)
    frontality = sides.min() / sides.max()
    score = float(confidence.mean() * support.mean() * np.sqrt(n * n) * (0.8 + 0.2 * frontality))
    return score, face_h, n, confidence, support


def unseen_cells_are_surround(
    face_h: np.ndarray, n: int, support: np.ndarray, lab: np.ndarray
) -> bool:
    """True when the window hangs past the face: each of its cells with no sticker seen lies
    on its edge and has the colour of the cell just beyond it, and two or more were judged.

    Two objects that happen to lie a pitch past a 2x2 face (a disc, a box) join its lattice,
    and the 3x3 window over all six leaves three cells of table unseen. A face's own unseen
    stickers (under glare or a finger, or as dark as the plastic) are stickers: the cell past
    a border one is the table, not more of the same. A textured table's patches differ by
    about what a sticker's pixels spread (``MAX_STICKER_SPREAD``). A cell is judged by its
    samples in the frame, when they are a quarter of them or more (a median needs a few).

    Parameters
    ----------
    face_h
        Face homography of the window into ``lab``.
    n
        The window's size N.
    support
        Which of its cells (n, n) show a sticker.
    lab
        The working image, 8-bit Lab.

    Returns
    -------
    bool
        Whether the window hangs past the face onto its surround.

    Examples
    --------
    >>> import cv2
    >>> from cubescan.scanner.grid import detect_grid
    >>> from cubescan.synth.scenes import square_stickers_frame
    >>> frame = square_stickers_frame()
    >>> face = detect_grid(frame)
    >>> lab = cv2.cvtColor(frame, cv2.COLOR_BGR2Lab)
    >>> face_h = np.array([[40.0, 0, 97], [0, 40, 57], [0, 0, 1]])  # the face's cells, 40 px
    >>> seen = np.ones((4, 4), bool)
    >>> seen[3], seen[:, 3] = False, False  # a 4x4 over the 3x3 and the table past two sides
    >>> unseen_cells_are_surround(face_h, 4, seen, lab)
    True
    >>> unseen_cells_are_surround(face_h, 3, np.ones((3, 3), bool), lab)
    False
    """
    rows, cols = np.nonzero(~support)
    if len(rows) < 2:
        return False
    on_edge = (rows == 0) | (rows == n - 1) | (cols == 0) | (cols == n - 1)
    if not on_edge.all():
        return False
    # The window and the ring of cells around it: cell (r, c) of the window is (r + 1, c + 1).
    samples, in_frame = _cell_samples(lab, face_h, n + 2, -1.0)
    samples = samples.reshape(n + 2, n + 2, -1, 3).astype(np.float32)
    in_frame = in_frame.reshape(n + 2, n + 2, -1)
    inside = in_frame.mean(axis=2) >= 0.25

    def color(cell: tuple[int, int]) -> np.ndarray:
        return np.median(samples[cell][in_frame[cell]], axis=0)

    judged = 0
    for row, col in zip(rows + 1, cols + 1, strict=True):
        beyond = [
            (r, c)
            for r, c, past in (
                (0, col, row == 1),
                (n + 1, col, row == n),
                (row, 0, col == 1),
                (row, n + 1, col == n),
            )
            if past and inside[r, c]
        ]
        if not inside[row, col] or not beyond:
            continue
        own = color((row, col))
        difference = min(np.linalg.norm(own - color(cell)) for cell in beyond)
        if difference >= MAX_STICKER_SPREAD:
            return False
        judged += 1
    return judged >= 2
