"""The detector's result, :class:`FaceDetection`, built from a lattice
homography, and what is seen of its cells (their confidences).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from cubescan.scanner.grid.geometry import _UNIT_SQUARE, _median, warp_points
from cubescan.scanner.grid.params import INFERRED_CONFIDENCE


@dataclass(frozen=True, eq=False)
class FaceDetection:
    """One face's sticker grid in a frame.

    Attributes
    ----------
    size
        N.
    quad
        The face's outer corners in image pixels, shape (4, 2): top-left, top-right,
        bottom-right, bottom-left as seen.
    homography
        3x3 matrix taking grid coordinates (x = column, y = row, 0..N along the face)
        to image pixels.
    centres
        Cell centres, shape (N, N, 2) in image pixels (x, y), row-major from the top.
    cells
        Cell outlines, shape (N*N, 4, 2), row-major.
    confidence
        Per cell (N*N,), 0..1: 1 where a sticker was seen in the cell, lower where the
        cell was only inferred from the lattice (occluded, glared, or out of shape).
    """

    size: int
    quad: np.ndarray
    homography: np.ndarray
    centers: np.ndarray
    cells: np.ndarray
    confidence: np.ndarray


def _three_seen_of_four(face: FaceDetection) -> bool:
    """True for a 2x2 face with one cell inferred, not seen (or seen but not flat)."""
    return face.size == 2 and seen_cells(face) == 3


def _seen(face: FaceDetection) -> np.ndarray:
    """Which of a face's cells (N, N) show a sticker (the rest were inferred)."""
    return (face.confidence > INFERRED_CONFIDENCE).reshape(face.size, face.size)


def seen_cells(face: FaceDetection) -> int:
    """How many of a face's cells show a sticker.

    Parameters
    ----------
    face
        A detection.

    Returns
    -------
    int
        The cells whose confidence is above ``INFERRED_CONFIDENCE``.

    Examples
    --------
    >>> seen_cells(make_detection(np.diag([40.0, 40.0, 1.0]), 2, np.array([[1, 1], [1, 0.3]])))
    3
    """
    return int(_seen(face).sum())


def _to_frame(
    small_shape: tuple[int, ...],
    frame_shape: tuple[int, ...],
    offset: tuple[float, float] = (0.0, 0.0),
) -> np.ndarray:
    """The homography from a pass's working image to the frame's pixels (``offset``
    added): small pixel i covers the frame's pixels around (i + 0.5) / s - 0.5."""
    sx, sy = small_shape[1] / frame_shape[1], small_shape[0] / frame_shape[0]
    return np.array(
        [
            [1 / sx, 0, offset[0] + 0.5 / sx - 0.5],
            [0, 1 / sy, offset[1] + 0.5 / sy - 0.5],
            [0, 0, 1.0],
        ]
    )


def _cell_confidence(support: np.ndarray, spread: np.ndarray) -> np.ndarray:
    """Each cell's confidence (n, n): whether a sticker was seen there (``support``;
    ``INFERRED_CONFIDENCE`` at most where not), times how flat its colour is (its
    ``spread``: 1 up to 6 Lab units, 0 from 36)."""
    uniform = np.clip(1.0 - (spread - 6.0) / 30.0, 0.0, 1.0)
    return (INFERRED_CONFIDENCE + (1 - INFERRED_CONFIDENCE) * support) * uniform


def cell_width(centers: np.ndarray) -> float:
    """Median distance between neighbouring cell centres, px.

    Parameters
    ----------
    centers
        Cell centres (N, N, 2).

    Returns
    -------
    float
        The cell width in pixels.

    Examples
    --------
    >>> cell_width(make_detection(np.diag([40.0, 40.0, 1.0]), 3, np.ones((3, 3))).centers)
    40.0
    """
    along_rows, along_columns = _center_spacings(centers)
    return float(_median(np.concatenate([along_rows.ravel(), along_columns.ravel()])))


def narrow_cell_width(centers: np.ndarray) -> float:
    """A face's cell width along its more foreshortened side, px: the smaller of the median
    distances between neighbouring cell centres along its rows and along its columns.

    Parameters
    ----------
    centers
        Cell centres (N, N, 2).

    Returns
    -------
    float
        The narrow cell width in pixels.

    Examples
    --------
    >>> narrow_cell_width(make_detection(np.diag([40.0, 10.0, 1.0]), 3, np.ones((3, 3))).centers)
    10.0
    """
    along_rows, along_columns = _center_spacings(centers)
    return float(min(np.median(along_rows), np.median(along_columns)))


def _center_spacings(centers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distances between neighbouring cell centres (N, N, 2): along the rows, (N, N - 1),
    and along the columns, (N - 1, N)."""
    along_rows = np.linalg.norm(np.diff(centers, axis=1), axis=-1)
    along_columns = np.linalg.norm(np.diff(centers, axis=0), axis=-1)
    return along_rows, along_columns


def make_detection(face_h: np.ndarray, n: int, confidence: np.ndarray) -> FaceDetection:
    """Orient the face so its top is up in the image (+-45 deg) and build the detection.

    Parameters
    ----------
    face_h
        3x3 homography from face coordinates (cell (col, row) spans col..col + 1) to image
        pixels.
    n
        The face's size N.
    confidence
        Per cell (N, N), in the orientation of ``face_h``.

    Returns
    -------
    FaceDetection
        Turned by the quarter turn that keeps the face's up within 45 degrees of the image's
        up, mirrored if ``face_h`` mirrors, its confidences turned with it.

    Examples
    --------
    >>> face = make_detection(np.diag([40.0, 40.0, 1.0]), 3, np.ones((3, 3)))
    >>> face.size, face.centers[0, 0].tolist(), face.quad[2].tolist()
    (3, [20.0, 20.0], [120.0, 120.0])
    """
    face_h = face_h / face_h[2, 2]
    # Make the face coordinate frame right-handed in the image (u right, v down, not mirrored).
    corners = warp_points(np.array([[0, 0], [1, 0], [0, 1]], float), face_h)
    u_dir, v_dir = corners[1] - corners[0], corners[2] - corners[0]
    if u_dir[0] * v_dir[1] - u_dir[1] * v_dir[0] < 0:
        mirror = np.array([[-1, 0, n], [0, 1, 0], [0, 0, 1.0]])
        face_h = face_h @ mirror
        confidence = confidence[:, ::-1]
    to_center = np.array([[1, 0, -n / 2], [0, 1, -n / 2], [0, 0, 1.0]])
    back = np.array([[1, 0, n / 2], [0, 1, n / 2], [0, 0, 1.0]])
    ends = np.array([[n / 2, 0], [n / 2, n]], float)
    best = None
    for k, (c, s) in enumerate(((1, 0), (0, 1), (-1, 0), (0, -1))):
        # Rotate face coordinates by k quarter turns about the face centre.
        turn = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])
        candidate = face_h @ back @ turn @ to_center
        top, bottom = warp_points(ends, candidate)
        angle = abs(math.degrees(math.atan2(top[0] - bottom[0], bottom[1] - top[1])))
        if best is None or angle < best[0]:
            best = (angle, candidate, k)
    _, face_h, k = best
    # Cell (r, c) in the new frame is old cell rotated: match arrays with np.rot90.
    confidence = np.rot90(confidence, k)
    # Face coordinates of the cell centres, the cells' corners and the face's corners,
    # mapped at once.
    points = _face_points(n)
    image_points = warp_points(points, face_h)
    centers = image_points[: n * n].reshape(n, n, 2)
    cells = image_points[n * n : 5 * n * n].reshape(n * n, 4, 2)
    quad = image_points[5 * n * n :]
    return FaceDetection(
        n, quad, face_h, centers, cells, np.ascontiguousarray(confidence, dtype=float).ravel()
    )


@lru_cache(maxsize=8)
def _face_points(n: int) -> np.ndarray:
    """Cell centres (row-major), each cell's corners and the face's corners, face coords."""
    rows, cols = np.divmod(np.arange(n * n), n)
    cell = np.stack([cols, rows], -1).astype(float)
    corners = _UNIT_SQUARE.astype(float)
    points = np.vstack([cell + 0.5, (cell[:, None] + corners).reshape(-1, 2), corners * n])
    points.flags.writeable = False  # shared between calls
    return points
