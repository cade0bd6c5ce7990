"""How a face sits in the frame: its quad's shape, and the frame's edge
cutting its stickers (allowed only at a corner sticker and its neighbours).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from cubescan.scanner.grid.face import FaceDetection
from cubescan.scanner.grid.geometry import _UNIT_SQUARE, _cell_middles, _in_frame, _warp
from cubescan.scanner.grid.params import MAX_CELLS_OUTSIDE, STICKER_CORNER


def _objects_beside_a_smaller_face(
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
    """
    if n < 3:
        return False
    for row in (0, n - 1):
        for col in (0, n - 1):
            band = np.zeros((n, n), bool)
            band[row, :] = band[:, col] = True
            if (~support[~band]).sum() <= 1 and support[band].sum() <= 2:
                rows, cols = np.nonzero(band)
                points = _warp(np.stack([cols + 0.5, rows + 0.5], axis=1), face_h)
                if (~_in_frame(points, shape)).sum() <= 1:
                    return True
    return False


def _plausible_quad(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Convex, not too skewed, mostly inside the image."""
    return _well_shaped(quad) and _corners_near(quad, shape)


def _well_shaped(quad: np.ndarray) -> bool:
    """Convex, and no side shorter than 0.3 of the longest."""
    after = [1, 2, 3, 0]  # each corner's successor
    edges = quad[after] - quad
    cross = edges[:, 0] * edges[after, 1] - edges[:, 1] * edges[after, 0]
    if not (np.all(cross > 0) or np.all(cross < 0)):
        return False
    lengths = np.linalg.norm(edges, axis=1)
    return bool(lengths.min() >= 0.3 * lengths.max())


def _corners_near(quad: np.ndarray, shape: tuple[int, ...], further: float = 0.0) -> bool:
    """Every corner inside the image, or outside it by less than 0.15 of the longest side
    (plus ``further`` px)."""
    margin = 0.15 * _longest_side(quad) + further
    height, width = shape[:2]
    return bool((quad > -margin).all() and (quad < [width + margin, height + margin]).all())


def _cut_at_a_corner(
    quad: np.ndarray, face_h: np.ndarray, support: np.ndarray, shape: tuple[int, ...]
) -> bool:
    """True for a face larger than 2x2 that runs past the frame's edge by a corner sticker
    or two: its corners at most a pitch further out than :func:`_corners_near` allows, at
    most one cell in nine (and ``MAX_CELLS_OUTSIDE``) with its middle outside the frame,
    and a sticker seen in every cell left in view (``support``, n x n).

    A large face held close may run past the frame that way. Past the frame no
    continuation can be seen, so what is left in view must be whole: a board, a keyboard
    or a floor cut so, with an object over it, has gaps. A 2x2 cut so is three stickers,
    judged by :func:`_three_of_four_hold`'s rules.
    """
    n = len(support)
    if n * n < 9:
        return False
    if not _corners_near(quad, shape, _longest_side(quad) / n):
        return False
    in_view = _in_frame(_warp(_cell_middles(n), face_h), shape)
    cut = (~in_view).sum() <= min(MAX_CELLS_OUTSIDE, n * n // 9)
    return bool(cut and support.ravel()[in_view].all())


def _longest_side(quad: np.ndarray) -> float:
    """The length of a quadrilateral's longest side."""
    return float(np.linalg.norm(quad[[1, 2, 3, 0]] - quad, axis=1).max())


def _cut_along_a_side(detection: FaceDetection, shape: tuple[int, ...]) -> bool:
    """True when the frame's edge cuts into a sticker that is not one of the face's corner
    stickers or a neighbour of one along a side: into the square that reaches
    ``STICKER_CORNER`` from its cell's middle along both axes (:func:`_sticker_corners`),
    which a sticker covers whatever its gap and rounded corners.

    A face held close, and turned, pokes its corners out of the frame first; the frame's
    edge cutting into a side's row past them (or two sides') is a floor or a board running
    on out of the frame, where no check can see whether its pattern continues. The edge may
    run through the gaps beside a side's stickers: a face filling the frame is whole.
    """
    n = detection.size
    corners = _warp(_sticker_corners(n), detection.homography)
    cut = ~_in_frame(corners, shape).reshape(n, n, 4).all(axis=2)
    return bool((cut & ~_corner_stickers(n)).any())


@lru_cache(maxsize=8)
def _sticker_corners(n: int) -> np.ndarray:
    """Face coordinates (n * n * 4, 2) of the points ``STICKER_CORNER`` from each cell's
    middle along both axes, cell by cell (row-major): the corners of the square its sticker
    covers (see :func:`_turned_in_cells`)."""
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
