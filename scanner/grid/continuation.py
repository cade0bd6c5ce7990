""" "Not a face" tests on what lies past a window's border: a grid that
continues (tiles, keyboards, boards) in lattice, in shape or in colour is not a cube's face.
"""

from __future__ import annotations

import numpy as np

from cubescan.scanner.grid._continuation_kernels import ring_squares
from cubescan.scanner.grid._kernels import _nearest
from cubescan.scanner.grid.cells import (
    _cell_medians,
    _inner_patches,
    _one_plain_surface,
    _rectified_lab,
    cell_statistics,
)
from cubescan.scanner.grid.face import FaceDetection, _to_frame
from cubescan.scanner.grid.geometry import (
    _UNIT_SQUARE,
    _affine_fit,
    _cell_middles,
    _face_of_lattice,
    _in_frame,
    _lattice_of_face,
    _median,
    _pitch,
    rings,
    warp_points,
)
from cubescan.scanner.grid.params import (
    MAX_EXTRAPOLATED_ASPECT,
    MAX_FILL_DIFFERENCE,
    MAX_LATTICE_ASPECT,
    MAX_STICKER_SPREAD,
    MAX_TILE_AREA_RATIO,
    RING_SAME_COLOR,
)
from cubescan.scanner.grid.regions import Regions, _regions_at


def _not_continued(
    image: np.ndarray,
    faces: list[FaceDetection],
    first_lab: np.ndarray,
    first_regions: Regions,
    along_a_side: bool = False,
) -> list[FaceDetection]:
    """The faces found at another pass than the first that do not continue in the first
    pass's regions.

    A window found only at the finer scale may lie on a larger grid whose faint grout
    closes its tiles only at the first pass's scale: it is judged there too, but only by
    regions all around it. A row of regions along one side is weaker evidence: a cube may
    lie on floor tiles of its own sticker pitch. The coarse pass, which closes the grout
    less often, is judged by a row too (``along_a_side``).
    """
    return [
        face
        for face in faces
        if not _continues_at(image, face, first_lab, first_regions, along_a_side)
    ]


def _continues_at(
    image: np.ndarray,
    face: FaceDetection,
    lab: np.ndarray,
    regions: Regions,
    along_a_side: bool = True,
) -> bool:
    """:func:`grid_continues` for a face found in ``image``, over the regions of another
    pass (``lab`` is that pass's working image)."""
    if len(regions.areas) == 0:
        return False
    to_small = np.linalg.inv(_to_frame(lab.shape, image.shape))
    return grid_continues(
        _lattice_of_face(to_small @ face.homography), face.size, regions, lab, along_a_side
    )


def plain_surround(image: np.ndarray, detection: FaceDetection) -> np.ndarray:
    """Which cells of the ring around a face ((N+2, N+2), as :func:`ringed_lab` orders
    them; its corners are not judged) lie on one plain surface past the face's border:
    each runs into a neighbour along the ring with no line of any kind between (see
    :func:`_one_plain_surface`), but not into the face's cell beside it.

    Tiles show grout between them, darker or lighter than they are; a plain table shows
    none, whatever its colour. A cube's other faces, in view past a side, show stickers
    and plastic.

    Parameters
    ----------
    image
        The BGR frame.
    detection
        The grid found in it.

    Returns
    -------
    np.ndarray
        (N+2, N+2) bool: the ring cells on one plain surface (the face's cells False).

    Examples
    --------
    >>> from cubescan.scanner.grid import detect_grid
    >>> from cubescan.synth.scenes import square_stickers_frame
    >>> frame = square_stickers_frame()
    >>> face = detect_grid(frame)
    >>> ring = plain_surround(frame, face)
    >>> ring.shape, int(ring.sum())
    ((5, 5), 12)
    """
    n, cell_px = detection.size, 16
    m = n + 2
    lab = _rectified_lab(image, detection.homography, m, cell_px, -1.0)
    margin = cell_px // 4  # the cells' middle halves, as the ring's colours are sampled
    inner = _inner_patches(lab, m, margin)
    color = np.median(inner, axis=2)
    off_color = np.linalg.norm(inner - color[:, :, None], axis=3) > MAX_STICKER_SPREAD
    # Only those middles are read: they must lie in the frame.
    rows, cols = np.mgrid[:m, :m]
    inner_square = margin / cell_px + _UNIT_SQUARE * (1 - 2 * margin / cell_px)
    corners = np.stack([cols, rows], axis=-1).reshape(-1, 1, 2) - 1 + inner_square
    in_frame = _in_frame(
        warp_points(corners.reshape(-1, 2).astype(float), detection.homography), image.shape
    )
    flat = in_frame.reshape(m, m, 4).all(axis=2) & (off_color.mean(axis=2) <= 0.35)
    in_row, in_column = _one_plain_surface(lab, color, flat, margin)
    # Along the ring, and not into the face's cell beside it: a face's border stickers end
    # at its plastic or a seam; a window over the table itself runs on into the ring.
    plain = np.zeros((m, m), bool)
    plain[[0, -1], 1:-1] = (in_row & ~in_column)[[0, -1], 1:-1]  # top and bottom sides
    plain[1:-1, [0, -1]] = (in_column & ~in_row)[1:-1, [0, -1]]
    return plain


def grid_continues(
    homography: np.ndarray,
    n: int,
    regions: Regions,
    lab: np.ndarray,
    along_a_side: bool = True,
    colors: np.ndarray | None = None,
) -> bool:
    """True when lattice-like regions sit on the ring of cells just outside the window, or
    (when ``along_a_side``) line up along a side of the ring beyond it. ``lab`` is the
    working image the regions were found in; ``colors`` the window's cell colours in it
    (n, n, 3) when the caller has them.

    A 2x2's four centres fix its homography exactly, their noise included: two pitches
    out, a perspective that is only noise can miss a tile by most of a pitch. The ring
    beyond a 2x2 is also looked for where the affine fit to its four centres puts it (a
    real perspective, on a large face, is the homography's to follow).

    Parameters
    ----------
    homography
        Lattice homography of the window into ``lab`` (cell centres at integer coords).
    n
        The window's size N.
    regions
        The regions found in ``lab``.
    lab
        The working image, 8-bit Lab.
    along_a_side
        Also look along the sides of the ring beyond it.
    colors
        The window's cell colours, when the caller has them.

    Returns
    -------
    bool
        Whether the lattice goes on past the window.

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
    >>> regions = find_regions(lab)
    >>> lattice_h = np.array([[40.0, 0, 117], [0, 40, 77], [0, 0, 1]])
    >>> grid_continues(lattice_h, 3, regions, lab)
    False
    >>> grid_continues(lattice_h, 2, regions, lab)  # a 2x2 of the 3x3: its stickers go on
    True
    """
    if _lattice_continues(homography, n, regions, lab, along_a_side, colors):
        return True
    if n != 2 or not along_a_side:
        return False
    cells = _cell_middles(2) - 0.5
    affine = _affine_fit(cells, warp_points(cells, homography))
    return _lattice_continues(affine, n, regions, lab, True, colors, beyond_only=True)


def _lattice_continues(
    homography: np.ndarray,
    n: int,
    regions: Regions,
    lab: np.ndarray,
    along_a_side: bool,
    colors: np.ndarray | None,
    beyond_only: bool = False,
) -> bool:
    """:func:`grid_continues` for the window's lattice extended by one homography; only
    along the sides of the ring beyond the first when ``beyond_only``."""
    ring, first, sides = rings(n)
    predicted = warp_points(ring, homography)
    height, width = lab.shape[:2]
    inside = _in_frame(predicted, lab.shape)
    pitch = _pitch(homography)
    idx, near, similar = _regions_at(predicted, regions, pitch, pitch * pitch)
    close = near & ~(first & beyond_only)
    along = max(2, (n + 1) // 2)  # hits along one side that make a continuation
    if close[first].sum() < 2 and not (along_a_side and (sides @ close >= along).any()):
        return False  # too few regions near the rings for either rule below
    # Only count regions of about the lattice's cell size (``similar``: a cube's neighbour
    # face or a sheet of background texture is not a continuation) that are squares of the
    # lattice, unless the frame's edge may cut them: roughly square in it, not squashed
    # across the window's side, as the next face of the cube is where it bends away, and
    # lined up with it, as tiles and keys are (a square object turned against it fills its
    # bounding box unlike a cell of the lattice there does).
    square = ring_squares(
        ring,
        n,
        homography,
        regions.centers[idx],
        regions.whiten[idx],
        regions.box_fill[idx],
        MAX_EXTRAPOLATED_ASPECT,
        MAX_LATTICE_ASPECT,
        MAX_FILL_DIFFERENCE,
    )
    margin = 0.5 * pitch
    at_edge = (
        (predicted[:, 0] < margin)
        | (predicted[:, 0] > width - margin)
        | (predicted[:, 1] < margin)
        | (predicted[:, 1] > height - margin)
    )
    similar &= square | at_edge
    # Without true areas (merged blocks cut into stickers) the kind is not judged.
    repeats, sized = similar.copy(), similar.copy()
    if similar.any() and regions.true_areas:
        beside = idx[similar]
        repeats[similar], sized[similar] = _of_the_grids_kind(
            homography, n, regions, lab, beside, pitch, colors
        )
        similar &= repeats | sized
    # Ring cells outside the frame show nothing, unless a region cut by the frame's edge sits
    # there: a face filling the frame is judged by its own cells. Beside a face cut by the
    # frame, a quarter of the few ring cells left is two or less. Two objects of a sticker's
    # size lie a pitch past two sides of a face by chance often enough: two hits make a
    # continuation only along one side (a board's next row or column), or with more of the
    # lattice beyond them (a board in the frame's corner).
    hits = close & similar
    first_hits = hits[first].sum()
    board_like = first_hits > 2 or (sides[:4] @ hits).max() == first_hits or hits[~first].any()
    if first_hits > max(1, 0.25 * (inside | hits)[first].sum()) and board_like:
        return True
    # A board one row larger than the window continues along one side only. Keys of a
    # staggered keyboard and tiles past a gap or an object miss the next ring but line up
    # along the one beyond; past a cube face's side lie the plastic, the background, or the
    # next face, whose stickers are squashed in this face's lattice (and not counted).
    # The fewest hits that make a row must be alike: a board's next tiles share the kind
    # they have with the window (a colour of it, or its tiles' size: a 2x2 window on a tiling
    # of three colours lacks one). Past a window of three rows or more, a board's next tiles
    # are both, since its rows show the board's colours; two objects side by side, one of a
    # sticker's colour and one of its size, are not a row.
    if n == 2:
        alike = (sides @ (hits & repeats) >= along) | (sides @ (hits & sized) >= along)
    else:
        alike = sides @ (hits & repeats & sized) >= along
    return along_a_side and bool(((sides @ hits > along) | alike).any())


def _of_the_grids_kind(
    homography: np.ndarray,
    n: int,
    regions: Regions,
    lab: np.ndarray,
    beside: np.ndarray,
    pitch: float,
    colors: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Which regions ``beside`` the window (indices) could be more of the same grid: a
    board's or a floor's next tile repeats a colour of the window's cells (``colors``,
    measured here when None), or is the size of the window's own regions (a tiling of
    three colours or more shows ones the window lacks). Returns both masks: (repeats a
    colour, is of the size).

    An object lying beside a cube face is of its own colour and size: it matches neither,
    but by chance.
    """
    face_h = _face_of_lattice(homography)
    if colors is None:
        colors = cell_statistics(face_h, n, lab).color
    colors = np.asarray(colors, float).reshape(-1, 1, 3)
    at = np.rint(regions.centers[beside]).astype(int)
    at = np.clip(at, 0, [lab.shape[1] - 1, lab.shape[0] - 1])
    seen = lab[at[:, 1], at[:, 0]].astype(float)
    repeats = np.linalg.norm(seen[None] - colors, axis=2).min(axis=0) < 2 * RING_SAME_COLOR
    dist, own = _nearest(warp_points(_cell_middles(n), face_h), regions.centers)
    own = own[dist < 0.25 * pitch]
    if len(own) == 0:
        return repeats, np.zeros_like(repeats)
    ratio = regions.areas[beside] / _median(regions.areas[own])
    return repeats, (ratio < MAX_TILE_AREA_RATIO) & (ratio > 1 / MAX_TILE_AREA_RATIO)


def color_continues(
    image: np.ndarray, detection: FaceDetection, block: tuple[np.ndarray, np.ndarray]
) -> bool:
    """True when the cells just past three or more of the grid's sides repeat its colours.

    Across a cube face's border lies the plastic, the background, or another sticker of the
    same piece (an edge or a corner piece), and no piece has two stickers of one colour; on
    a tiled floor, the tile past the grid's border is another flat tile of the same colour.
    Two sides of a face may border faces that are in view, so three sides must repeat (both,
    when the frame's corner leaves only two to judge). A side past which a border of two or
    more colours repeats cell for cell is a striped surface: a background does not copy a row
    of stickers, and a piece's stickers all differ. It takes at least two repeating cells and
    half of the side's judged ones. A ring cell textured by text or an object over it never
    repeats, nor does one on a plain surface (a white table beside white stickers: see
    :func:`plain_surround`), but both are judged: left out, a real face filling the frame
    with white stickers against a white wall (rubyrizz WhatsApp-Image-2021-02-16-at-7-56-47)
    repeats past the two sides whose other cells are textured. Only ring cells that show in
    the frame are judged. ``block`` is :func:`ringed_lab`'s.

    Parameters
    ----------
    image
        The BGR frame.
    detection
        The grid found in it.
    block
        :func:`~cubescan.scanner.grid.rejection.ringed_lab` of the grid.

    Returns
    -------
    bool
        Whether the grid's colours go on past its border (tiles, stripes).

    Examples
    --------
    >>> from cubescan.scanner.grid import detect_grid
    >>> from cubescan.synth.scenes import square_stickers_frame
    >>> frame = square_stickers_frame()
    >>> face = detect_grid(frame)
    >>> from cubescan.scanner.grid.rejection import ringed_lab
    >>> color_continues(frame, face, ringed_lab(frame, face))
    False
    """
    n = detection.size
    lab, inside = block
    median = _cell_medians(lab, n)
    spread = (lab[:, 18] - lab[:, 6]).max(axis=1).reshape(n + 2, n + 2)  # ~interquartile
    inside = inside.reshape(n + 2, n + 2)
    middle = slice(1, n + 1)
    plain = None  # judged once a side has a cell that repeats
    repeated_sides = judged_sides = 0
    striped = False
    for ring, border in (
        ((0, middle), (1, middle)),
        ((n + 1, middle), (n, middle)),
        ((middle, 0), (middle, 1)),
        ((middle, n + 1), (middle, n)),
    ):
        judged = inside[ring]
        flat = judged & (spread[ring] < MAX_STICKER_SPREAD)
        difference = np.linalg.norm(median[ring] - median[border], axis=-1)
        same = flat & (difference < RING_SAME_COLOR)
        if same.any():
            plain = plain_surround(image, detection) if plain is None else plain
            same &= ~plain[ring]
        judged_sides += bool(judged.any())
        repeated_sides += bool(judged.any() and same.sum() >= max(1, judged.sum() / 2))
        colors = median[border][same]
        striped |= bool(
            same.sum() >= max(2, judged.sum() / 2)
            and same.sum() == flat.sum()
            and np.ptp(colors, axis=0).max() >= RING_SAME_COLOR
        )
    # In a corner of the frame only two sides can be judged: then both must repeat.
    return striped or repeated_sides >= min(3, max(2, judged_sides))
