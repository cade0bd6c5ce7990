"""What the cells of a candidate face show: per-cell colour statistics
(lightness, chroma, spread, glare), samples along seams, rectified patches, and whether
three of four neighbouring cells hold stickers.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import cv2
import numpy as np

from cubescan.scanner.grid._cells_kernels import (
    _glared_cells,
    _washed_cells,
    inner_patch_statistics,
)
from cubescan.scanner.grid.geometry import _UNIT_SQUARE, _in_frame, warp_points
from cubescan.scanner.grid.params import (
    GLINT_ALIGNMENT,
    MAX_STICKER_SPREAD,
    PLASTIC_CHROMA,
    RING_SAME_COLOR,
    SEAM_DIP,
    SEAM_FLOOR,
    SEAM_GREY_DIP,
    SEAM_SHADE,
    WHOLE_STICKER_SHARE,
)


def three_of_four_hold(face_h: np.ndarray, support: np.ndarray, lab: np.ndarray) -> bool:
    """True when the three seen cells of a 2x2 window look like a cube face's stickers.

    With only three of four stickers seen, an L of three squares that happen to sit on a
    lattice in clutter, or three tiles of a floor, would pass the usual tests. A cube's
    three show more: each sticker fills its cell nearly to the edges and lines up with the
    lattice (the cell's middle ``WHOLE_STICKER_SHARE`` is one flat colour, but for pixels a
    glare spot washed towards white), the plastic or a seam runs between neighbouring
    stickers as a line darker than both, and the cells around the face are not more of the
    same (tiles are; a plain surround that dim light brings near a sticker's colour is not).

    Parameters
    ----------
    face_h
        Face homography of the 2x2 window into ``lab``.
    support
        Which of its cells (2, 2) show a sticker (three of them).
    lab
        The working image, 8-bit Lab.

    Returns
    -------
    bool
        Whether the three seen cells hold as a cube face's stickers.

    Examples
    --------
    >>> import cv2
    >>> from cubescan.scanner.grid import detect_grid
    >>> from cubescan.synth.scenes import square_stickers_frame
    >>> frame = square_stickers_frame()
    >>> face = detect_grid(frame)
    >>> lab = cv2.cvtColor(frame, cv2.COLOR_BGR2Lab)
    >>> face_h = np.array([[40.0, 0, 97], [0, 40, 57], [0, 0, 1]])  # the face's cells, 40 px
    >>> three = np.array([[True, True], [True, False]])
    >>> three_of_four_hold(face_h, three, lab)
    True
    >>> three_of_four_hold(face_h @ np.diag([1.3, 1.3, 1.0]), three, lab)  # cells off the stickers
    False
    """
    cell_px = 20
    # The window and the ring of cells around it, rectified: cell (r, c) of the window is
    # block (r + 1, c + 1).
    rectified = _rectified(lab, face_h, 4, cell_px, -1.0)
    margin = round(cell_px * (1 - WHOLE_STICKER_SHARE) / 2)
    inner = _inner_patches(rectified, 4, margin)
    median = np.median(inner, axis=2)
    change = inner - median[:, :, None]
    change_size = np.linalg.norm(change, axis=3)
    off_color = change_size > MAX_STICKER_SPREAD
    seen = np.zeros((4, 4), bool)
    seen[1:3, 1:3] = support
    # A glare spot moves a sticker's pixels towards white: they do not speak against it.
    whiteward = np.array([255.0, 128.0, 128.0], np.float32) - median[:, :, None]
    alignment = np.sum(change * whiteward, axis=3) / (
        change_size * np.linalg.norm(whiteward, axis=3) + 1e-6
    )
    glint = alignment > GLINT_ALIGNMENT
    if not ((off_color & ~glint).mean(axis=2)[seen] <= 0.1).all():
        return False
    # Ring cells wholly in the frame, mostly of a seen sticker's very colour: a tiled surface
    # (its cells drift off the window's extrapolated lattice, so only mostly).
    ring = np.ones((4, 4), bool)
    ring[1:3, 1:3] = False
    rows, cols = np.nonzero(ring)
    cell_corners = np.stack([cols - 1, rows - 1], axis=1)[:, None] + _UNIT_SQUARE
    projected = warp_points(cell_corners.reshape(-1, 2).astype(float), face_h)
    in_frame = _in_frame(projected, lab.shape).reshape(-1, 4).all(axis=1)
    distance = np.linalg.norm(median[rows, cols][:, None] - median[seen][None], axis=2)
    mostly_one = off_color.mean(axis=2)[rows, cols] <= 0.35
    repeats = in_frame & mostly_one & (distance.min(axis=1) < RING_SAME_COLOR)
    # Tiles show their grout between them; a plain table runs on from one ring cell into
    # the next with no line between, whatever its colour.
    flat = np.zeros((4, 4), bool)
    flat[rows, cols] = in_frame & mostly_one
    in_row, in_column = _one_plain_surface(rectified, median, flat, margin)
    repeats &= ~(in_row | in_column)[rows, cols]
    if repeats.sum() >= 2:
        return False
    # The L's corner cell is opposite the unseen one; its two arms meet it across the
    # middle row line (in the corner's column) and the middle column line (in its row).
    (row,), (col,) = np.nonzero(~support)
    lightness, chroma = _lightness_and_chroma(rectified[cell_px:-cell_px, cell_px:-cell_px])
    in_column = slice((1 - col) * cell_px + margin, (2 - col) * cell_px - margin)
    in_row = slice((1 - row) * cell_px + margin, (2 - row) * cell_px - margin)
    return _seam_between(
        lightness[:, in_column].mean(axis=1), chroma[:, in_column].mean(axis=1), cell_px
    ) and _seam_between(lightness[in_row, :].mean(axis=0), chroma[in_row, :].mean(axis=0), cell_px)


def _inner_patches(rectified: np.ndarray, cells: int, margin: int) -> np.ndarray:
    """The pixels of each cell of a rectified block of ``cells`` x ``cells`` cells, less
    ``margin`` pixels at each side: (cells, cells, pixels, channels)."""
    cell_px = rectified.shape[0] // cells
    inner = rectified.reshape(cells, cell_px, cells, cell_px, -1)
    inner = inner[:, margin:-margin, :, margin:-margin]
    return inner.transpose(0, 2, 1, 3, 4).reshape(cells, cells, -1, rectified.shape[2])


def _one_plain_surface(
    rectified: np.ndarray, color: np.ndarray, flat: np.ndarray, margin: int
) -> tuple[np.ndarray, np.ndarray]:
    """Which cells of a rectified block run into a neighbour of their colour with no line
    of any kind between their middles, as one plain surface does (tiles show their grout,
    darker or lighter than they are; stripes the line between two stripes).

    ``rectified`` is the block in Lab, ``color`` its cells' median colours (rows, cols,
    3), ``flat`` marks the cells to judge; ``margin`` pixels of each cell's sides are left
    out of the profiles across two cells. Returns two masks over the cells: those that run
    into a neighbour in their row, and those that run into one in their column.
    """
    cell_px = rectified.shape[0] // flat.shape[0]
    runs_on = []
    for down in (False, True):  # neighbours in a row, then (transposed) in a column
        block, judged, colors = (
            (rectified.transpose(1, 0, 2), flat.T, color.transpose(1, 0, 2))
            if down
            else (rectified, flat, color)
        )
        alike = np.linalg.norm(colors[:, :-1] - colors[:, 1:], axis=2) < RING_SAME_COLOR
        joined = judged[:, :-1] & judged[:, 1:] & alike  # each cell and the next
        for row, col in zip(*np.nonzero(joined), strict=True):
            band = slice(row * cell_px + margin, (row + 1) * cell_px - margin)
            middles = slice(col * cell_px + cell_px // 2, (col + 1) * cell_px + cell_px // 2)
            profile = block[band, middles].mean(axis=0)
            level = (colors[row, col] + colors[row, col + 1]) / 2
            joined[row, col] = np.linalg.norm(profile - level, axis=1).max() < RING_SAME_COLOR
        either = np.pad(joined, ((0, 0), (1, 0))) | np.pad(joined, ((0, 0), (0, 1)))
        runs_on.append(either.T if down else either)
    return runs_on[0], runs_on[1]


def _rectified(
    image: np.ndarray,
    face_h: np.ndarray,
    cells: int,
    cell_px: int,
    first: float = 0.0,
    dtype: type = np.float32,
) -> np.ndarray:
    """The block of ``cells`` x ``cells`` grid cells whose first cell's corner is
    (``first``, ``first``), warped from ``image`` (any channels; ``face_h`` maps face
    coordinates to its pixels) to ``cell_px`` pixels a cell (float32, or ``dtype``)."""
    to_face = np.array([[1.0 / cell_px, 0, first], [0, 1.0 / cell_px, first], [0, 0, 1]])
    return cv2.warpPerspective(
        image,
        np.linalg.inv(face_h @ to_face),
        (cells * cell_px, cells * cell_px),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    ).astype(dtype, copy=False)


def _rectified_lab(
    image: np.ndarray, face_h: np.ndarray, cells: int, cell_px: int, first: float
) -> np.ndarray:
    """:func:`_rectified` of a BGR frame, in Lab (float32)."""
    bgr = _rectified(image, face_h, cells, cell_px, first, dtype=np.uint8)
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab).astype(np.float32)


def _lightness_and_chroma(lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Lightness and chroma (8-bit Lab units) of each pixel of a Lab image."""
    return lab[..., 0], np.hypot(lab[..., 1] - 128.0, lab[..., 2] - 128.0)


def _seam_between(lightness: np.ndarray, chroma: np.ndarray, cell_px: int) -> bool:
    """True when the lightness and chroma profiles across two cells (2 * ``cell_px``
    samples each) show a line of plastic or a seam at their boundary.

    Against each cell the line is darker, by ``SEAM_DIP`` of the cell's lightness
    (``SEAM_FLOOR`` at least), or, no more than ``SEAM_SHADE`` lighter than the cell, greyer
    by ``SEAM_GREY_DIP`` of its chroma: in dim light a dark blue or green sticker is as dark
    as the plastic around it (blur leaves a thin line of plastic a shade lighter), but the
    plastic stays grey.
    """
    offset = (np.arange(2 * cell_px) + 0.5) / cell_px - 1.0  # in cells from the boundary
    line = np.abs(offset) <= 0.15
    line_lightness, line_chroma = lightness[line], chroma[line]
    for side in (offset < -0.2, offset > 0.2):
        cell_lightness, cell_chroma = np.median(lightness[side]), np.median(chroma[side])
        darker = _seam_dip(cell_lightness, line_lightness.min()) > SEAM_DIP
        # Grey and dark in one place: where a pale colour meets a deep one, the line holds
        # the pale one's low chroma and, elsewhere, the deep one's lightness.
        greyer = (line_lightness <= cell_lightness + SEAM_SHADE) & (
            cell_chroma - line_chroma > SEAM_GREY_DIP * cell_chroma
        )
        if not (darker or greyer.any()):
            return False
    return True


def _cell_medians(ringed: np.ndarray, n: int) -> np.ndarray:
    """(N+2, N+2, 3) the median Lab of each cell of :func:`ringed_lab`'s sorted samples
    (the middle one of its 25)."""
    return ringed[:, 12].reshape(n + 2, n + 2, 3)


def _cell_samples(
    image: np.ndarray, homography: np.ndarray, m: int, start: float
) -> tuple[np.ndarray, np.ndarray]:
    """25 samples over the middle of each cell of an m x m block of the grid whose first
    cell's corner is (start, start): (m*m, 25, 3) of the image's channels and whether each
    sample lies in the frame (m*m, 25), cells row-major."""
    pixels = warp_points(_cell_sample_points(m, start), homography)
    height, width = image.shape[:2]
    in_frame = (pixels[:, 0] >= 0) & (pixels[:, 0] <= width - 1) & (pixels[:, 1] >= 0)
    in_frame &= pixels[:, 1] <= height - 1
    samples = _sample(image, pixels).reshape(m * m, -1, 3)
    return samples, in_frame.reshape(m * m, -1)


@lru_cache(maxsize=16)
def _cell_sample_points(m: int, start: float) -> np.ndarray:
    """:func:`_cell_samples`' points in grid coordinates, (m*m, 25, 2)."""
    inner = (np.arange(5) + 0.5) / 5 * 0.5 + 0.25  # a 5 x 5 grid over each cell's middle
    cell = np.arange(m * m)
    cols, rows = cell % m + start, cell // m + start
    points = np.empty((m * m, len(inner) ** 2, 2))
    points[..., 0] = cols[:, None] + np.tile(inner, len(inner))
    points[..., 1] = rows[:, None] + np.repeat(inner, len(inner))
    points.flags.writeable = False  # shared between calls
    return points


def _sample(image: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Bilinear samples of ``image`` at ``points`` (K, 2), shape (K, 1) or (K, 1, channels)."""
    count = len(points)
    width = 1024  # remap maps are limited to 32767 rows: lay the points out in rows
    xy = np.zeros((-(-count // width) * width, 2), np.float32)
    xy[:count] = points
    sampled = cv2.remap(
        image, xy.reshape(-1, width, 2), None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return sampled.reshape(-1, 1, *sampled.shape[2:])[:count]


def _across_borders(n: int, across: np.ndarray, along: np.ndarray) -> np.ndarray:
    """Grid coordinates of points across each inner border between two cells of an N x N
    grid, ``across`` (cells) from it at ``along`` (cells) down its length: the borders
    between columns, then rows, line by line, (2 * n * (n - 1), len(along), len(across), 2).
    """
    points = []
    for line in range(n):
        for step in range(n - 1):
            # Across the boundary after cell ``step``, along row (then column) ``line``.
            pts = np.stack(np.broadcast_arrays(step + 1 + across[None], line + along[:, None]), -1)
            points += [pts, pts[..., ::-1]]
    return np.array(points)


def _seam_dip(cell_lightness: np.ndarray | float, line_lightness: np.ndarray | float) -> np.ndarray:
    """How much darker a line is than the cell beside it, relative to the cell: a seam from
    ``SEAM_DIP`` on. Never relative to less than ``SEAM_FLOOR``: next to a black square,
    sensor noise alone would make a "seam"."""
    return (cell_lightness - line_lightness) / np.maximum(cell_lightness, SEAM_FLOOR)


class CellStatistics(NamedTuple):
    """Per cell of a window (n, n): its inner patch's median lightness and chroma, spread
    (interquartile range), whether it is one flat colour under a glare spot, and its median
    Lab colour (n, n, 3)."""

    lightness: np.ndarray
    chroma: np.ndarray
    spread: np.ndarray
    glared: np.ndarray
    color: np.ndarray


def cell_statistics(face_h: np.ndarray, n: int, lab: np.ndarray) -> CellStatistics:
    """:class:`CellStatistics` of each cell's inner patch (rectified).

    Parameters
    ----------
    face_h
        Face homography into ``lab``.
    n
        The window's size N.
    lab
        The working image, 8-bit Lab.

    Returns
    -------
    CellStatistics
        Per cell (n, n).

    Examples
    --------
    >>> import cv2
    >>> from cubescan.scanner.grid import detect_grid
    >>> from cubescan.synth.scenes import square_stickers_frame
    >>> frame = square_stickers_frame()
    >>> face = detect_grid(frame)
    >>> lab = cv2.cvtColor(frame, cv2.COLOR_BGR2Lab)
    >>> face_h = np.array([[40.0, 0, 97], [0, 40, 57], [0, 0, 1]])  # the face's cells, 40 px
    >>> cells = cell_statistics(face_h, 3, lab)
    >>> cells.lightness.shape, bool((cells.spread < MAX_STICKER_SPREAD).all())
    ((3, 3), True)
    """
    cell_px = 8
    side = n * cell_px
    to_face = np.diag([1.0 / cell_px, 1.0 / cell_px, 1.0])
    rectify = np.linalg.inv(face_h @ to_face)
    patch = cv2.warpPerspective(
        lab, rectify, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    inner, median, spread = inner_patch_statistics(patch, n, cell_px)  # 16 pixels a cell
    lightness, chroma = _lightness_and_chroma(median)
    return CellStatistics(lightness, chroma, spread, flat_under_glare(inner), median)


def flat_under_glare(pixels: np.ndarray) -> np.ndarray:
    """Which cells (pixels: (n, n, 16, 3) Lab) are one flat colour under a glare spot.

    A highlight lightens part of a sticker towards white: the cell's darker half stays one
    flat colour, and its lightest quarter is much lighter and greyer than that half. A
    broad one may leave only a corner of the sticker unglared: see :func:`washed_by_glare`.

    Parameters
    ----------
    pixels
        Each cell's inner patch, (n, n, 16, 3) Lab.

    Returns
    -------
    np.ndarray
        (n, n) bool.

    Examples
    --------
    >>> patch = np.tile(np.array([90.0, 170.0, 160.0]), (1, 1, 16, 1))
    >>> bool(flat_under_glare(patch)[0, 0])  # flat, no glare spot
    False
    >>> patch[0, 0, 12:] = (250.0, 132.0, 130.0)  # its lightest quarter glared
    >>> bool(flat_under_glare(patch)[0, 0])
    True
    """
    return _glared_cells(pixels, MAX_STICKER_SPREAD, PLASTIC_CHROMA)


def washed_by_glare(ordered: np.ndarray) -> np.ndarray:
    """Which cells (pixels (n, n, 16, 3) Lab, darkest first) are a coloured sticker that a
    glare spot lightens over much of its patch, the unglared part too small for
    :func:`flat_under_glare`: the darkest quarter is one flat colour, and every pixel lies between
    that colour and grey in a/b (a highlight lightens a colour and washes it out, but does
    not turn its hue).

    Parameters
    ----------
    ordered
        Each cell's inner patch, (n, n, 16, 3) Lab, its pixels darkest first.

    Returns
    -------
    np.ndarray
        (n, n) bool.

    Examples
    --------
    >>> red = np.array([90.0, 170.0, 160.0])
    >>> washed = np.linspace(0.0, 1.0, 16)[:, None] * (np.array([240.0, 130.0, 129.0]) - red)
    >>> patch = (red + np.where(np.arange(16)[:, None] < 4, 0.0, washed))[None, None]
    >>> bool(washed_by_glare(patch)[0, 0])
    True
    """
    return _washed_cells(np.asarray(ordered, np.float64), MAX_STICKER_SPREAD, PLASTIC_CHROMA)
