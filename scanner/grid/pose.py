"""Where a face's neighbours are: the face's pose from its image homography, and the
homographies of the cube faces that share its sides.

A cube face is a square, so its homography (face coords, one unit a cell, to image pixels)
fixes the camera's focal length (the principal point taken at the frame's middle: the two
sides of a square are perpendicular and equally long in space, two equations for one
unknown, Zhang's planar calibration with a single view) and then the face's rotation and
place in space. The faces beside it are the same square turned a right angle about each of
its sides, away from the camera: their homographies follow exactly. A face seen square on
cannot tell the focal length (its sides are parallel in the image); a typical camera's is
taken then.
"""

from __future__ import annotations

import numpy as np

TYPICAL_FOCAL = 1.2
"""Focal length in long sides of the frame when a face cannot tell it (phones and webcams
lie between about 0.8 and 1.6)."""

FOCAL_RANGE = (0.5, 3.0)
"""Focal lengths (in long sides) believed from one face; outside them, the typical one."""


def focal_length(homography: np.ndarray, shape: tuple[int, ...]) -> float:
    """The camera's focal length in pixels, as a square face's homography tells it.

    Parameters
    ----------
    homography
        3x3 map from face coordinates (a square) to image pixels.
    shape
        The frame's shape; its middle is taken for the principal point.

    Returns
    -------
    float
        The focal length in pixels: :data:`TYPICAL_FOCAL` long sides when the face is seen
        too squarely to tell (or tells an implausible one, see :data:`FOCAL_RANGE`).

    Examples
    --------
    A face turned half a radian about the vertical, 10 cells in front of a camera of focal
    length 500 px (columns: its two sides and its corner, in space):

    >>> turn = 0.5
    >>> camera = np.array([[500.0, 0, 320], [0, 500, 240], [0, 0, 1]])
    >>> face = np.array([[np.cos(turn), 0, 0], [0, 1, 0], [-np.sin(turn), 0, 10]])
    >>> round(focal_length(camera @ face, (480, 640)))
    500
    """
    centered = _centering(shape) @ np.asarray(homography, float)
    (a1, a2), (b1, b2), (c1, c2) = centered[:, :2]
    # The columns of K^-1 H are the square's sides in space: perpendicular, equally long.
    # Each condition is linear in x = 1 / f^2: p x + q = 0 and r x + s = 0.
    p, q = a1 * a2 + b1 * b2, c1 * c2
    r, s = a1 * a1 + b1 * b1 - a2 * a2 - b2 * b2, c1 * c1 - c2 * c2
    x = -(p * q + r * s) / max(p * p + r * r, 1e-30)
    long_side = max(shape[:2])
    low, high = (bound * long_side for bound in FOCAL_RANGE)
    if not 1 / high**2 < x < 1 / low**2:
        return TYPICAL_FOCAL * long_side
    return float(1 / np.sqrt(x))


def neighbor_homographies(
    homography: np.ndarray, n: int, shape: tuple[int, ...], focal: float | None = None
) -> list[np.ndarray]:
    """The homographies of the faces beside a cube face that the camera can see.

    Parameters
    ----------
    homography
        3x3 map from the face's coordinates (``[0, n]`` square, one unit a cell) to pixels.
    n
        The cube's N.
    shape
        The frame's shape (its middle is the principal point).
    focal
        The focal length in pixels; None to take :func:`focal_length`'s.

    Returns
    -------
    list of numpy.ndarray
        For each side of the face whose neighbour turns towards the camera, the neighbour's
        homography from its own ``[0, n]`` square (first coordinate along the shared side,
        second away from it) to pixels.

    Examples
    --------
    >>> from cubescan.synth.corners import random_corner_spec, render_corner_view
    >>> from cubescan.scanner.grid import detect_grid
    >>> image, truth = render_corner_view(
    ...     random_corner_spec(np.random.default_rng(2), 3, faces=3, resolution=(640, 480))
    ... )
    >>> len(neighbor_homographies(detect_grid(image).homography, 3, image.shape))
    2
    """
    focal = focal_length(homography, shape) if focal is None else focal
    to_camera = np.diag([1 / focal, 1 / focal, 1.0]) @ _centering(shape)
    m = to_camera @ np.asarray(homography, float)
    scale = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    if m[2, 2] * scale < 0:
        scale = -scale  # the face lies in front of the camera
    first, second = m[:, 0] * scale, m[:, 1] * scale
    u, _, vt = np.linalg.svd(np.column_stack([first, second, np.cross(first, second)]))
    rotation = u @ vt  # the nearest rotation: the measured sides are not quite square
    across, down, normal = rotation.T
    origin = m[:, 2] * scale
    face_middle = origin + n / 2 * (across + down)
    inward = normal if normal @ face_middle > 0 else -normal  # the cube lies behind its face
    # Per side: the corner it starts from, its direction, and the neighbour's outward normal.
    sides = (
        (origin, across, -down),
        (origin + n * across, down, across),
        (origin + n * down, across, down),
        (origin, down, -across),
    )
    from_camera = np.linalg.inv(to_camera)
    found = []
    for start, along, outward in sides:
        neighbor_middle = start + n / 2 * (along + inward)
        if outward @ neighbor_middle >= 0:
            continue  # turned away from the camera
        found.append(from_camera @ np.column_stack([along, inward, start]))
    return found


def _centering(shape: tuple[int, ...]) -> np.ndarray:
    """Pixels to coordinates about the frame's middle."""
    height, width = shape[:2]
    return np.array([[1.0, 0, -width / 2], [0, 1, -height / 2], [0, 0, 1]])
