"""The last "not a face" tests on a found grid: too few stickers, stickers
cut along a side, edges off the grid's lines, colours repeating past its sides, a board.
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

from cubescan.scanner.grid._rejection_kernels import _doubled_angle_sums
from cubescan.scanner.grid.cells import (
    _across_borders,
    _cell_medians,
    _cell_samples,
    _rectified_lab,
    _sample,
    _seam_dip,
)
from cubescan.scanner.grid.continuation import color_continues
from cubescan.scanner.grid.face import FaceDetection, _seen, cell_width
from cubescan.scanner.grid.framing import _sticker_corners, cut_along_a_side
from cubescan.scanner.grid.geometry import _in_frame_by_one, warp_points
from cubescan.scanner.grid.params import (
    CROSSING_DIP,
    CROSSING_SPOT,
    EDGE_CELL_PX,
    FLAT_CELL_CONFIDENCE,
    MAX_EDGE_TURN,
    MAX_STICKER_SPREAD,
    MIN_SEAM_SHARE,
    MIN_SHOWN_SHARE,
    MIN_STICKER_SHARE,
    RINGING_SHARE,
    SEAM_DIP,
)


def not_a_face(image: np.ndarray, detection: FaceDetection) -> bool:
    """True when a found grid shows too few stickers, or is a board or a tiled surface,
    checked at full resolution.

    Parameters
    ----------
    image
        The BGR frame.
    detection
        The grid found in it.

    Returns
    -------
    bool
        Whether the grid is refused.

    Examples
    --------
    >>> from cubescan.scanner.grid import detect_grid
    >>> from cubescan.synth.scenes import square_stickers_frame
    >>> frame = square_stickers_frame()
    >>> face = detect_grid(frame)
    >>> not_a_face(frame, face)
    False
    """
    if few_stickers(detection) or cut_along_a_side(detection, image.shape):
        return True
    block = ringed_lab(image, detection)  # the checks read the same samples
    return (
        is_board(image, detection, block)
        or color_continues(image, detection, block)
        or turned_in_cells(image, detection, block)
        or edges_off_the_lines(image, detection)
    )


def few_stickers(detection: FaceDetection) -> bool:
    """True when fewer than ``MIN_STICKER_SHARE`` of the grid's cells are flat: a face
    shows its stickers, each one colour (a 2x2 under a finger, with a glare spot over two of
    its stickers, still shows one).

    A window may count a cell with light patches for a glared sticker; over a floor of light
    tiles whose dark grout crosses every cell, it counts them all, and none is flat.

    Parameters
    ----------
    detection
        A grid found.

    Returns
    -------
    bool
        Whether too few of its cells are flat.

    Examples
    --------
    >>> from cubescan.scanner.grid import detect_grid
    >>> from cubescan.synth.scenes import square_stickers_frame
    >>> frame = square_stickers_frame()
    >>> face = detect_grid(frame)
    >>> from dataclasses import replace
    >>> few_stickers(face), few_stickers(replace(face, confidence=np.zeros(9)))
    (False, True)
    """
    return bool((detection.confidence >= FLAT_CELL_CONFIDENCE).mean() < MIN_STICKER_SHARE)


def turned_in_cells(
    image: np.ndarray, detection: FaceDetection, block: tuple[np.ndarray, np.ndarray]
) -> bool:
    """True when in most cells the pattern leaves all four corners of the cell's middle: a
    checkerboard's squares seen along its diagonals, each a diamond in its cell.

    A sticker covers its cell but for the gap around it (0.84 of the pitch or more, corners
    rounded a little), so the points ``STICKER_CORNER`` from the cell's middle along both
    axes show its colour, unless glare or a finger covers one. ``block`` is
    :func:`ringed_lab`'s.

    Parameters
    ----------
    image
        The BGR frame.
    detection
        The grid found in it.
    block
        :func:`ringed_lab` of the grid.

    Returns
    -------
    bool
        Whether the pattern is diamonds in their cells.

    Examples
    --------
    >>> from cubescan.scanner.grid import detect_grid
    >>> from cubescan.synth.scenes import square_stickers_frame
    >>> frame = square_stickers_frame()
    >>> face = detect_grid(frame)
    >>> turned_in_cells(frame, face, ringed_lab(frame, face))
    False
    """
    n = detection.size
    corners = _sample(image, warp_points(_sticker_corners(n), detection.homography)).reshape(
        -1, 1, 3
    )
    corners = cv2.cvtColor(corners, cv2.COLOR_BGR2Lab).astype(float).reshape(n * n, 4, 3)
    median = _cell_medians(block[0], n)[1:-1, 1:-1].reshape(n * n, 1, 3)
    off = np.linalg.norm(corners - median, axis=2) > MAX_STICKER_SPREAD
    return bool(off.all(axis=1).mean() > 0.5)


def edges_off_the_lines(image: np.ndarray, detection: FaceDetection) -> bool:
    """True when the edges in the grid's seen cells do not run along its lines: squares
    lying about at random turns whose middles happen to fall on a lattice, or a keyboard's
    keys in staggered rows (the lattice through their middles is sheared, their sides are
    not).

    Mapped into the face's grid, a sticker's sides run along the grid's lines at any tilt,
    so the edges in and around its cell fall into two families: across the columns and
    across the rows. Each family's mean direction (:func:`edge_turns`) must lie within
    ``MAX_EDGE_TURN`` of the grid's lines; a lattice fitted through a face's stickers
    misses them by a few degrees (9 in the renderer's worst fits, 2x2 faces with a sticker
    covered).

    Parameters
    ----------
    image
        The BGR frame.
    detection
        The grid found in it.

    Returns
    -------
    bool
        Whether the edges turn more than ``MAX_EDGE_TURN`` from the grid's lines.

    Examples
    --------
    >>> from cubescan.scanner.grid import detect_grid
    >>> from cubescan.synth.scenes import square_stickers_frame
    >>> frame = square_stickers_frame()
    >>> face = detect_grid(frame)
    >>> edges_off_the_lines(frame, face)
    False
    """
    return max(abs(turn) for turn in edge_turns(image, detection)) > MAX_EDGE_TURN


def edge_turns(image: np.ndarray, detection: FaceDetection) -> tuple[float, float]:
    """The mean directions (degrees) of the edges across the grid's columns and across its
    rows, in the face's grid, from its lines: the strength-weighted mean of the gradients'
    doubled angles, halved. Only the pixels in and a sixth of a cell around the seen cells,
    and in the frame, are judged.

    Parameters
    ----------
    image
        The BGR frame.
    detection
        The grid found in it.

    Returns
    -------
    tuple of float
        The turns (degrees) across the columns and across the rows.

    Examples
    --------
    >>> from cubescan.scanner.grid import detect_grid
    >>> from cubescan.synth.scenes import square_stickers_frame
    >>> frame = square_stickers_frame()
    >>> face = detect_grid(frame)
    >>> [abs(round(turn, 1)) for turn in edge_turns(frame, face)]
    [0.0, 0.0]
    """
    n, cell_px = detection.size, EDGE_CELL_PX
    # The face and half a cell around it: a sticker's edges lie near its cell's border.
    rectified = _rectified_lab(image, detection.homography, n + 1, cell_px, -0.5)
    judged = _near_seen_cells(_seen(detection).tobytes(), n)
    if not block_in_frame(detection.homography, n, image.shape):
        pixels = warp_points(_block_points(n), detection.homography)
        judged = judged & _in_frame_by_one(pixels, image.shape).reshape(judged.shape)
    gx = cv2.Sobel(rectified, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(rectified, cv2.CV_32F, 0, 1, ksize=3)
    # Each gradient's doubled angle, weighted by its strength squared: (gx + i gy)^2. Across
    # the columns (|gx| >= |gy|) it is near 0 degrees, across the rows near 180. Summed over
    # the judged pixels' three channels.
    sine_columns, cosine_columns, sine_all, cosine_all = _doubled_angle_sums(gx, gy, judged)
    # Across the rows the doubled angles lie near 180 degrees: negated, near 0.
    sine_rows, cosine_rows = sine_columns - sine_all, cosine_columns - cosine_all
    return (
        math.degrees(math.atan2(sine_columns, cosine_columns)) / 2,
        math.degrees(math.atan2(sine_rows, cosine_rows)) / 2,
    )


@lru_cache(maxsize=8)
def _block_points(n: int) -> np.ndarray:
    """Face coordinates (side * side, 2) of :func:`edge_turns`'s block's pixels."""
    side = (n + 1) * EDGE_CELL_PX
    points = np.indices((side, side))[::-1].reshape(2, -1).T / EDGE_CELL_PX - 0.5
    points.flags.writeable = False
    return points


@lru_cache(maxsize=64)
def _near_seen_cells(seen: bytes, n: int) -> np.ndarray:
    """(side, side) mask of :func:`edge_turns`'s block: each seen cell (``seen``, the
    bytes of an n x n bool array) and a sixth of a cell around it."""
    cell_px = EDGE_CELL_PX
    cells = np.frombuffer(seen, bool).reshape(n, n).astype(np.uint8)
    cells = np.pad(np.kron(cells, np.ones((cell_px, cell_px), np.uint8)), cell_px // 2)
    near = cv2.dilate(cells, np.ones((cell_px // 3 + 1,) * 2, np.uint8)) > 0
    near.flags.writeable = False
    return near


def block_in_frame(face_h: np.ndarray, n: int, shape: tuple[int, ...]) -> bool:
    """True when all of :func:`edge_turns`'s block lies a pixel or more inside the frame.

    The homography's denominator is affine, so when it has one sign at the block's four
    corners it has it all over the block, which then maps into the convex hull of their
    images.

    Parameters
    ----------
    face_h
        The grid's face homography.
    n
        Its size N.
    shape
        The frame's shape.

    Returns
    -------
    bool
        Whether the block lies inside the frame.

    Examples
    --------
    >>> face_h = np.array([[40.0, 0, 100], [0, 40, 100], [0, 0, 1]])
    >>> block_in_frame(face_h, 3, (480, 640)), block_in_frame(face_h, 3, (200, 200))
    (True, False)
    """
    points, side = _block_points(n), (n + 1) * EDGE_CELL_PX
    corners = np.column_stack([points[[0, side - 1, -side, -1]], np.ones(4)]) @ face_h.T
    if not ((corners[:, 2] > 0).all() or (corners[:, 2] < 0).all()):
        return False
    return bool(_in_frame_by_one(corners[:, :2] / corners[:, 2:], shape).all())


def ringed_lab(image: np.ndarray, detection: FaceDetection) -> tuple[np.ndarray, np.ndarray]:
    """The grid's cells and the ring of cells around it, (N+2)^2 row-major: each cell's 25
    samples in Lab, sorted per channel ((N+2)^2, 25, 3) float, and whether it shows in the
    frame ((N+2)^2,): ``MIN_SHOWN_SHARE`` of its samples or more lie there.

    A cell the frame's edge cuts is read from what shows of it: the samples past the edge
    repeat the pixels along it, which are that cell's.

    Parameters
    ----------
    image
        The BGR frame.
    detection
        The grid found in it.

    Returns
    -------
    tuple of np.ndarray
        The samples ((N+2)^2, 25, 3) and which cells show ((N+2)^2,) bool.

    Examples
    --------
    >>> from cubescan.scanner.grid import detect_grid
    >>> from cubescan.synth.scenes import square_stickers_frame
    >>> frame = square_stickers_frame()
    >>> face = detect_grid(frame)
    >>> samples, shown = ringed_lab(frame, face)
    >>> samples.shape, int(shown.sum())
    ((25, 25, 3), 25)
    """
    samples, inside = _cell_samples(image, detection.homography, detection.size + 2, -1.0)
    lab = cv2.cvtColor(samples, cv2.COLOR_BGR2Lab).astype(float)
    return np.sort(lab, axis=1), inside.mean(axis=1) >= MIN_SHOWN_SHARE


def is_board(
    image: np.ndarray, detection: FaceDetection, block: tuple[np.ndarray, np.ndarray]
) -> bool:
    """True for a board game pattern: two colours alternating, with no seams between cells.

    A cube face in the checkerboard pattern still shows the plastic (or the seams of a
    stickerless cube) between its stickers, or, where blur has closed those, at the
    crossings where their rounded corners meet; they are looked for at full resolution.
    ``block`` is :func:`ringed_lab`'s.

    Parameters
    ----------
    image
        The BGR frame.
    detection
        The grid found in it.
    block
        :func:`ringed_lab` of the grid.

    Returns
    -------
    bool
        Whether the grid is a board's squares.

    Examples
    --------
    >>> from cubescan.scanner.grid import detect_grid
    >>> from cubescan.synth.scenes import square_stickers_frame
    >>> frame = square_stickers_frame()
    >>> face = detect_grid(frame)
    >>> is_board(frame, face, ringed_lab(frame, face))
    False
    """
    n = detection.size
    cell = np.arange(n * n)
    cols, rows = cell % n, cell // n
    cells = _cell_medians(block[0], n)[1:-1, 1:-1].reshape(n * n, 3)
    if not two_alternating_colors(cells, (cols + rows) % 2 == 1):
        return False
    return seam_share(image, detection) < MIN_SEAM_SHARE and not plastic_at_crossings(
        image, detection, block
    )


def plastic_at_crossings(
    image: np.ndarray, detection: FaceDetection, block: tuple[np.ndarray, np.ndarray]
) -> bool:
    """True when a spot ``CROSSING_DIP`` darker (see :func:`_seam_dip`) than each of the four
    cells meeting there shows at every inner crossing of the grid: the plastic between a
    cube's rounded sticker corners, which still shows where blur has closed the thin seams
    along its stickers' sides. A board's squares meet at a point no darker than its dark
    squares. ``block`` is :func:`ringed_lab`'s.

    Parameters
    ----------
    image
        The BGR frame.
    detection
        The grid found in it.
    block
        :func:`ringed_lab` of the grid.

    Returns
    -------
    bool
        Whether the plastic shows at every inner crossing.

    Examples
    --------
    >>> from cubescan.scanner.grid import detect_grid
    >>> from cubescan.synth.scenes import square_stickers_frame
    >>> frame = square_stickers_frame()
    >>> face = detect_grid(frame)
    >>> plastic_at_crossings(frame, face, ringed_lab(frame, face))
    True
    """
    n = detection.size
    lightness = _cell_medians(block[0], n)[1:-1, 1:-1, 0]
    around = np.minimum.reduce(
        [lightness[:-1, :-1], lightness[:-1, 1:], lightness[1:, :-1], lightness[1:, 1:]]
    ).ravel()
    steps = np.linspace(-CROSSING_SPOT, CROSSING_SPOT, 5)
    spot = np.stack(np.meshgrid(steps, steps), -1).reshape(-1, 2)
    inner = np.arange(1, n, dtype=float)
    crossings = np.stack(np.meshgrid(inner, inner), -1).reshape(-1, 2)
    points = (crossings[:, None] + spot[None]).reshape(-1, 2)
    bgr = _sample(image, warp_points(points, detection.homography))
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab).astype(float)
    darkest = lab[..., 0].reshape(len(crossings), len(spot)).min(axis=1)
    return bool((_seam_dip(around, darkest) > CROSSING_DIP).all())


def two_alternating_colors(cells: np.ndarray, parity: np.ndarray) -> bool:
    """True when the cells (Lab colours) of each parity share one colour, unlike the other's.

    Objects lying on a board (or its edge) hide some squares: the cells of neither colour
    are left out. Of the rest, half the cells or more, each colour shows on a quarter of the
    cells or more, and on its own parity only (but one cell in ten).

    Parameters
    ----------
    cells
        The cells' Lab colours (K, 3).
    parity
        Each cell's parity (K,) bool: (row + column) odd.

    Returns
    -------
    bool
        Whether the cells are two colours alternating.

    Examples
    --------
    >>> rows, cols = np.divmod(np.arange(16), 4)
    >>> parity = (rows + cols) % 2 == 1
    >>> board = np.where(parity[:, None], [[40, 128, 128]], [[220, 128, 128]])
    >>> two_alternating_colors(board, parity), two_alternating_colors(board, ~parity[::-1])
    (True, True)
    >>> two_alternating_colors(board[np.argsort(rows * 4 + (cols + rows) % 4)], parity)
    False
    """
    centers = []
    for group in (cells[parity], cells[~parity]):
        # Per channel median (cells hold integers, so this is exactly np.median's value).
        ordered = np.sort(group, axis=0)
        half = len(ordered) // 2
        centers.append(
            ordered[half] if len(ordered) % 2 else (ordered[half - 1] + ordered[half]) / 2
        )
    if np.sqrt(((centers[0] - centers[1]) ** 2).sum()) < 25:
        return False
    near = [np.sqrt(((cells - center) ** 2).sum(axis=1)) < 12 for center in centers]
    shown = near[0] | near[1]
    astray = (near[0] & ~parity) | (near[1] & parity)
    return bool(
        shown.mean() >= 0.5
        and min((near[0] & parity).sum(), (near[1] & ~parity).sum()) >= len(cells) / 4
        and astray.sum() <= 0.1 * shown.sum()
    )


def seam_share(image: np.ndarray, detection: FaceDetection) -> float:
    """Share of neighbouring cell pairs with a line darker than both cells between them.

    Parameters
    ----------
    image
        The BGR frame.
    detection
        The grid found in it.

    Returns
    -------
    float
        0..1.

    Examples
    --------
    >>> from cubescan.scanner.grid import detect_grid
    >>> from cubescan.synth.scenes import square_stickers_frame
    >>> frame = square_stickers_frame()
    >>> face = detect_grid(frame)
    >>> seam_share(frame, face)
    1.0
    """
    n = detection.size
    cell_px = cell_width(detection.centers)
    # Sample finer than a pixel, so a one-pixel seam cannot fall between two samples.
    across = np.linspace(-0.5, 0.5, int(np.clip(2 * cell_px, 21, 401)) | 1)
    lines = np.array([0.3, 0.5, 0.7])
    points = _across_borders(n, across, lines)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    values = _sample(gray, warp_points(points.reshape(-1, 2), detection.homography))
    profile = np.median(values.reshape(len(points), len(lines), len(across)).astype(float), axis=1)
    outer = np.abs(across) > 0.2
    middle = np.abs(across) <= 0.1
    left = np.median(profile[:, outer & (across < 0)], axis=1)
    right = np.median(profile[:, outer & (across > 0)], axis=1)
    sides, line = np.minimum(left, right), profile[:, middle].min(axis=1)
    # A sharp step from a light square to a black one undershoots the black (JPEG ringing,
    # sharpening) by a few percent of the step; a seam dips further.
    beyond_ringing = sides - line > RINGING_SHARE * np.abs(left - right)
    return float(((_seam_dip(sides, line) > SEAM_DIP) & beyond_ringing).mean())
