"""Geometry the stages share: homographies between lattice and image
coordinates (exact, affine and least-squares fits), cell middles and rings, areas, and
whether points lie in the frame.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from cubescan.scanner.grid._geometry_kernels import _on_one_line_but_one, on_one_line
from cubescan.scanner.grid._kernels import (
    _elongation,
    _lattice_shapes,
    _least_squares_homography,
    _pitch_cell_areas,
    _project,
)


def _overlap(quad_a: np.ndarray, quad_b: np.ndarray) -> bool:
    """True when either quad contains the other's centre."""
    for inner, outer in ((quad_a, quad_b), (quad_b, quad_a)):
        center = inner.mean(axis=0)
        contour = outer.astype(np.float32).reshape(-1, 1, 2)
        if cv2.pointPolygonTest(contour, (float(center[0]), float(center[1])), False) >= 0:
            return True
    return False


def warp_points(points: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """``points`` (any shape ending in 2) mapped by ``homography``, shape (K, 2).

    Parameters
    ----------
    points
        Points (x, y), any shape ending in 2.
    homography
        3x3 matrix.

    Returns
    -------
    np.ndarray
        The mapped points, (K, 2) float.

    Examples
    --------
    >>> warp_points([[1.0, 2.0]], np.diag([2.0, 3.0, 1.0])).tolist()
    [[2.0, 6.0]]
    """
    return _project(np.asarray(points, float).reshape(-1, 2), np.asarray(homography, float))


def _face_of_lattice(homography: np.ndarray) -> np.ndarray:
    """The face homography (face coords: cell (col, row) spans col..col + 1, row..row + 1)
    of a lattice homography (which maps integer coords to cell centres)."""
    return homography @ np.array([[1, 0, -0.5], [0, 1, -0.5], [0, 0, 1.0]])


def _lattice_of_face(face_h: np.ndarray) -> np.ndarray:
    """The lattice homography of a face homography (the inverse of :func:`_face_of_lattice`)."""
    return face_h @ np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1.0]])


def _lattice_homography(
    coords: np.ndarray, points: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | None:
    """Homography lattice coords -> points, RANSAC; returns (H, inlier mask)."""
    src = coords.astype(np.float64)
    if len(src) < 3 or on_one_line(coords):
        return None
    if too_few_for_perspective(coords):
        return _affine_fit(coords, points), np.ones(len(src), bool)
    spread = np.linalg.norm(points.max(axis=0) - points.min(axis=0))
    span = max(1.0, float(np.ptp(src, axis=0).max()))
    threshold = 0.25 * spread / span
    homography, mask = cv2.findHomography(src, points, cv2.RANSAC, threshold)
    if homography is None:
        return None
    return homography, mask.ravel().astype(bool)


def _shapes_in_lattice(
    inverse: np.ndarray, centers: np.ndarray, whiten: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Regions in lattice units: their centres (K, 2) and shape matrices (K, 2, 2).

    ``inverse`` maps image to lattice. A region's shape matrix maps its unit-square frame to
    lattice displacements: whiten^-1 (the shape in the image) after the local Jacobian of
    image -> lattice, taken by finite differences.
    """
    return _lattice_shapes(
        np.asarray(inverse, float), np.asarray(centers, float).reshape(-1, 2), whiten
    )


def _lattice_aspect(homography: np.ndarray, centers: np.ndarray, whiten: np.ndarray) -> np.ndarray:
    """Elongation of each region's shape mapped into lattice units (1 for a square)."""
    _, shape = _shapes_in_lattice(np.linalg.inv(homography), centers, whiten)
    return _elongation(shape)


def exact_fit(coords: np.ndarray, points: np.ndarray) -> np.ndarray | None:
    """Least-squares homography (affine when the coords cannot fix a perspective): the
    least squared reprojection error, as ``cv2.findHomography``'s method 0 gives it, without
    its general set-up for the few points of a lattice.

    Parameters
    ----------
    coords
        Lattice coordinates (K, 2), K >= 3.
    points
        Their image points (K, 2).

    Returns
    -------
    np.ndarray or None
        The 3x3 homography taking ``coords`` to ``points``; None when it is not invertible.

    Examples
    --------
    >>> coords = np.array([[0, 0], [1, 0], [0, 1], [1, 1], [2, 2]], float)
    >>> truth = np.array([[30.0, 2, 10], [1, 28, 20], [0.01, 0.02, 1]])
    >>> np.allclose(exact_fit(coords, warp_points(coords, truth)), truth / truth[2, 2])
    True
    """
    if too_few_for_perspective(coords):
        fitted = _affine_fit(coords, points)
    else:
        fitted = _least_squares_homography(
            np.asarray(coords, np.float64), np.asarray(points, np.float64)
        )
    return fitted if _invertible(fitted) else None


def too_few_for_perspective(coords: np.ndarray) -> bool:
    """True unless four of the coords lie with no three on a line.

    That fails exactly when all coords but at most one share a line (an L of a row of
    three and one more, say): a homography through them is degenerate.

    Parameters
    ----------
    coords
        Lattice coordinates (K, 2).

    Returns
    -------
    bool
        Whether a homography through them would be degenerate (fit an affine map instead).

    Examples
    --------
    >>> too_few_for_perspective(np.array([[0, 0], [1, 0], [2, 0], [0, 1]]))
    True
    >>> too_few_for_perspective(np.array([[0, 0], [1, 0], [0, 1], [1, 1]]))
    False
    """
    return _on_one_line_but_one(np.asarray(coords))


def _affine_fit(coords: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Least-squares affine map coords -> points, as a 3x3 matrix."""
    design = np.column_stack([coords.astype(np.float64), np.ones(len(coords))])
    solution = np.linalg.lstsq(design, points.astype(np.float64), rcond=None)[0]
    return np.vstack([solution.T, [0.0, 0.0, 1.0]])


def _invertible(homography: np.ndarray) -> bool:
    """False for a degenerate fit (points on a line): no face, and no inverse to take."""
    if not np.isfinite(homography).all():
        return False
    singular = cv2.SVDecomp(np.asarray(homography, float), flags=cv2.SVD_NO_UV)[0].ravel()
    return bool(singular[0] < 1e12 * singular[-1])  # condition number below 1e12


def _median(values: np.ndarray) -> float:
    """``np.median`` of a 1-D array (the same value), without its overhead."""
    ordered = np.sort(values)
    half = len(ordered) // 2
    return ordered[half] if len(ordered) % 2 else (ordered[half - 1] + ordered[half]) / 2


def _cell_areas(coords: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """Image area of the pitch cell around each lattice coordinate."""
    return _pitch_cell_areas(np.asarray(coords, float).reshape(-1, 2), homography)


_UNIT_SQUARE = np.array([[0, 0], [1, 0], [1, 1], [0, 1]])  # a cell's corners, from its first


def _in_frame(points: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Which points (K, 2) lie in an image of ``shape``."""
    height, width = shape[:2]
    x, y = points[:, 0], points[:, 1]  # by column: NumPy's .all(axis=1) over pairs is slow
    return (x >= 0) & (y >= 0) & (x < width) & (y < height)


def _pitch(homography: np.ndarray) -> float:
    """The lattice's pitch in the image at its cell (0, 0): the diagonal step over root 2."""
    diagonal = warp_points(np.array([[0.0, 0.0], [1.0, 1.0]]), homography)
    return float(np.linalg.norm(diagonal[1] - diagonal[0])) / np.sqrt(2)


@lru_cache(maxsize=8)
def _cell_middles(n: int) -> np.ndarray:
    """The middles of an n x n face's cells in face coordinates, row-major (n*n, 2)."""
    cells = np.arange(n * n)
    middles = np.stack([cells % n, cells // n], axis=1) + 0.5
    middles.flags.writeable = False  # shared between calls
    return middles


@lru_cache(maxsize=8)
def rings(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The two rings of cells around an n x n window (lattice coords, cells 0..n-1), (K, 2);
    which are in the first ring, (K,); and the cells along each side of the window: each
    side of the first ring, and the middle n cells of each side of the second, (8, K) int.

    Parameters
    ----------
    n
        The window's size N.

    Returns
    -------
    tuple of np.ndarray
        ``(ring, first, sides)``: the ring cells (K, 2) float, whether each is in the first
        ring (K,) bool, and the side masks (8, K) int (read-only arrays, shared between calls).

    Examples
    --------
    >>> ring, first, sides = rings(2)
    >>> len(ring), int(first.sum()), sides.shape
    (32, 12, (8, 32))
    """
    cells = np.array([(c, r) for r in range(-2, n + 2) for c in range(-2, n + 2)], float)
    depth = np.maximum(-cells.min(axis=1), cells.max(axis=1) - (n - 1))
    ring = cells[depth > 0]
    first = depth[depth > 0] == 1
    column, row = ring[:, 0], ring[:, 1]
    in_columns, in_rows = (column >= 0) & (column < n), (row >= 0) & (row < n)
    first_sides = [first & (row == -1), first & (row == n)]
    first_sides += [first & (column == -1), first & (column == n)]
    second_sides = [(row == -2) & in_columns, (row == n + 1) & in_columns]
    second_sides += [(column == -2) & in_rows, (column == n + 1) & in_rows]
    sides = np.array([*first_sides, *second_sides], np.int64)
    for shared in (ring, first, sides):
        shared.flags.writeable = False  # shared between calls
    return ring, first, sides


def _in_frame_by_one(points: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Which points (K, 2) lie a pixel or more inside an image of ``shape``: where a 3 x 3
    gradient reads only the frame's own pixels."""
    height, width = shape[:2]
    x, y = points[:, 0], points[:, 1]
    return (x >= 1) & (y >= 1) & (x <= width - 2) & (y <= height - 2)


def _polygon_area(poly: np.ndarray) -> float:
    x, y = poly[:, 0], poly[:, 1]
    # Each vertex's successor's coordinates.
    x_next, y_next = np.concatenate((x[1:], x[:1])), np.concatenate((y[1:], y[:1]))
    return 0.5 * float(np.dot(x, y_next) - np.dot(y, x_next))
