"""How a face sits in the frame: its quad's shape, and the frame's edge
cutting its stickers (allowed only at a corner sticker and its neighbours).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from cubescan.scanner.grid.face import FaceDetection
from cubescan.scanner.grid.geometry import _UNIT_SQUARE, _cell_middles, _in_frame, warp_points
from cubescan.scanner.grid.params import MAX_CELLS_OUTSIDE, STICKER_CORNER


def objects_beside_a_smaller_face(
    face_h: np.ndarray, n: int, support: np.ndarray, shape: tuple[int, ...]
) -> bool:
    """True when the window is a smaller face seen in full (or all but one of its stickers)
    plus one row and one column along two of its sides (an L) where only two cells, or
    fewer, show a sticker.

    Objects lying about a pitch past two sides of a face (a disc, a box, the next face's
    edge) join its lattice, and give that L the one sticker per row and column a window
    needs. A face of this size with all but two cells of such an L hidden would need a
    hand over two of its sides; a face cut by the frame's corner is not judged (its L lies
    partly outside the frame: two of its cells or more).

    Parameters
    ----------
    face_h
        Face homography of the window into the working image.
    n
        The window's size N.
    support
        Which of its cells (n, n) show a sticker.
    shape
        The working image's shape.

    Returns
    -------
    bool
        Whether the window is a smaller face and objects in an L beside it.

    Examples
    --------
    >>> face_h = np.array([[40.0, 0, 100], [0, 40, 100], [0, 0, 1]])
    >>> support = np.zeros((3, 3), bool)
    >>> support[:2, :2] = True  # a 2x2 seen in full ...
    >>> support[2, 0] = support[0, 2] = True  # ... and an object past two of its sides
    >>> objects_beside_a_smaller_face(face_h, 3, support, (480, 640))
    True
    >>> objects_beside_a_smaller_face(face_h, 3, np.ones((3, 3), bool), (480, 640))
    False
    """
    if n < 3:
        return False
    for row in (0, n - 1):
        for col in (0, n - 1):
            band = np.zeros((n, n), bool)
            band[row, :] = band[:, col] = True
            if (~support[~band]).sum() <= 1 and support[band].sum() <= 2:
                rows, cols = np.nonzero(band)
                points = warp_points(np.stack([cols + 0.5, rows + 0.5], axis=1), face_h)
                if (~_in_frame(points, shape)).sum() <= 1:
                    return True
    return False


def _plausible_quad(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Convex, not too skewed, mostly inside the image."""
    return _well_shaped(quad) and corners_near(quad, shape)


def _well_shaped(quad: np.ndarray) -> bool:
    """Convex, and no side shorter than 0.3 of the longest."""
    after = [1, 2, 3, 0]  # each corner's successor
    edges = quad[after] - quad
    cross = edges[:, 0] * edges[after, 1] - edges[:, 1] * edges[after, 0]
    if not (np.all(cross > 0) or np.all(cross < 0)):
        return False
    lengths = np.linalg.norm(edges, axis=1)
    return bool(lengths.min() >= 0.3 * lengths.max())


def corners_near(quad: np.ndarray, shape: tuple[int, ...], further: float = 0.0) -> bool:
    """Every corner inside the image, or outside it by less than 0.15 of the longest side
    (plus ``further`` px).

    Parameters
    ----------
    quad
        The face's corners (4, 2), pixels.
    shape
        The image's shape.
    further
        Pixels more that a corner may lie outside.

    Returns
    -------
    bool
        Whether every corner is inside or near the image.

    Examples
    --------
    >>> quad = np.array([[-15.0, 10], [105, 10], [105, 130], [-15, 130]])
    >>> corners_near(quad, (480, 640)), corners_near(quad - [100, 0], (480, 640))
    (True, False)
    """
    margin = 0.15 * _longest_side(quad) + further
    height, width = shape[:2]
    return bool((quad > -margin).all() and (quad < [width + margin, height + margin]).all())


def cut_at_a_corner(
    quad: np.ndarray, face_h: np.ndarray, support: np.ndarray, shape: tuple[int, ...]
) -> bool:
    """True for a face larger than 2x2 that runs past the frame's edge by a corner sticker
    or two: its corners at most a pitch further out than :func:`corners_near` allows, at
    most one cell in nine (and ``MAX_CELLS_OUTSIDE``) with its middle outside the frame,
    and a sticker seen in every cell left in view (``support``, n x n).

    A large face held close may run past the frame that way. Past the frame no
    continuation can be seen, so what is left in view must be whole: a board, a keyboard
    or a floor cut so, with an object over it, has gaps. A 2x2 cut so is three stickers,
    judged by :func:`three_of_four_hold`'s rules.

    Parameters
    ----------
    quad
        The face's corners (4, 2), pixels.
    face_h
        Its face homography.
    support
        Which of its cells (n, n) show a sticker.
    shape
        The image's shape.

    Returns
    -------
    bool
        Whether the frame cuts it at a corner sticker only.

    Examples
    --------
    >>> face_h = np.array([[100.0, 0, -60], [0, 100, 20], [0, 0, 1]])  # 4x4 of 100 px cells
    >>> quad = np.array([[-60.0, 20], [340, 20], [340, 420], [-60, 420]])
    >>> cut_at_a_corner(quad, face_h, np.ones((4, 4), bool), (480, 640))
    False
    >>> seen = np.ones((4, 4), bool)
    >>> seen[:, 0] = False  # the frame cuts off its first column: more than a corner
    >>> cut_at_a_corner(quad, face_h, seen, (480, 640))
    False
    """
    n = len(support)
    if n * n < 9:
        return False
    if not corners_near(quad, shape, _longest_side(quad) / n):
        return False
    in_view = _in_frame(warp_points(_cell_middles(n), face_h), shape)
    cut = (~in_view).sum() <= min(MAX_CELLS_OUTSIDE, n * n // 9)
    return bool(cut and support.ravel()[in_view].all())


def _longest_side(quad: np.ndarray) -> float:
    """The length of a quadrilateral's longest side."""
    return float(np.linalg.norm(quad[[1, 2, 3, 0]] - quad, axis=1).max())


def cut_along_a_side(detection: FaceDetection, shape: tuple[int, ...]) -> bool:
    """True when the frame's edge cuts into a sticker that is not one of the face's corner
    stickers or a neighbour of one along a side: into the square that reaches
    ``STICKER_CORNER`` from its cell's middle along both axes (:func:`_sticker_corners`),
    which a sticker covers whatever its gap and rounded corners.

    A face held close, and turned, pokes its corners out of the frame first; the frame's
    edge cutting into a side's row past them (or two sides') is a floor or a board running
    on out of the frame, where no check can see whether its pattern continues. The edge may
    run through the gaps beside a side's stickers: a face filling the frame is whole.

    Parameters
    ----------
    detection
        A grid found.
    shape
        The image's shape.

    Returns
    -------
    bool
        Whether the frame's edge cuts a sticker that is no corner sticker nor beside one.

    Examples
    --------
    >>> from cubescan.scanner.grid.face import make_detection
    >>> inside = make_detection(np.diag([40.0, 40.0, 1.0]) + [[0, 0, 20], [0, 0, 20], [0, 0, 0]],
    ...                         3, np.ones((3, 3)))
    >>> cut_along_a_side(inside, (480, 640))
    False
    >>> across = make_detection(np.diag([40.0, 40.0, 1.0]) + [[0, 0, 20], [0, 0, -60], [0, 0, 0]],
    ...                         3, np.ones((3, 3)))
    >>> cut_along_a_side(across, (480, 640))  # the top edge runs through its middle row
    True
    """
    n = detection.size
    corners = warp_points(_sticker_corners(n), detection.homography)
    cut = ~_in_frame(corners, shape).reshape(n, n, 4).all(axis=2)
    return bool((cut & ~_corner_stickers(n)).any())


@lru_cache(maxsize=8)
def _sticker_corners(n: int) -> np.ndarray:
    """Face coordinates (n * n * 4, 2) of the points ``STICKER_CORNER`` from each cell's
    middle along both axes, cell by cell (row-major): the corners of the square its sticker
    covers (see :func:`turned_in_cells`)."""
    offsets = (_UNIT_SQUARE - 0.5) * 2 * STICKER_CORNER
    corners = (_cell_middles(n)[:, None] + offsets).reshape(-1, 2)
    corners.flags.writeable = False  # shared between calls
    return corners


@lru_cache(maxsize=8)
def _corner_stickers(n: int) -> np.ndarray:
    """(n, n) mask of an n x n face's corner cells and their neighbours along its sides."""
    mask = np.zeros((n, n), bool)
    for row, col in ((0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)):
        inner_row, inner_col = (1 if row == 0 else n - 2), (1 if col == 0 else n - 2)
        mask[row, col] = mask[inner_row, col] = mask[row, inner_col] = True
    mask.flags.writeable = False
    return mask
