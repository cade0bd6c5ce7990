"""Shapes painted onto a float canvas as a camera's pixels would see them.

Each pixel is blended by the share of its area a shape covers, so a seam narrower than a
pixel still darkens the pixels it crosses (OpenCV anti-aliases only 8-bit images).
"""

from __future__ import annotations

import cv2
import numpy as np

_SHIFT = 4  # fixed-point bits for sub-pixel polygon filling
_ONE = 1 << _SHIFT
_SUPERSAMPLE = 8  # samples per pixel side when measuring how much of a pixel a shape covers


def fill_polygons(canvas: np.ndarray, polygons: list[np.ndarray], color: tuple[float, ...]) -> None:
    """Paint polygons over a float canvas in place, each pixel blended by the share of its
    area they cover.

    A camera pixel sums the light over its area, so a seam narrower than a pixel still darkens
    the pixels it crosses. (OpenCV anti-aliases only 8-bit images; on a float canvas its
    polygons have hard, stair-stepped edges and a sub-pixel seam all but vanishes.)

    Parameters
    ----------
    canvas
        Float image (H, W, C), changed in place; pixel centres sit at integer coordinates.
    polygons
        Polygons (M, 2) in (x, y) pixel coordinates, painted together (their union).
    color
        The color painted where a polygon covers a whole pixel.

    Returns
    -------
    None

    Examples
    --------
    >>> canvas = np.zeros((3, 4, 1), np.float32)
    >>> fill_polygons(canvas, [rounded_square(0.5, -0.5, 1.5, 2.5, 0.0)], (100.0,))
    >>> canvas[1, :, 0].round().tolist()  # a band one pixel wide, over column 1 (sampled 8x8)
    [0.0, 94.0, 6.0, 0.0]
    """
    height, width = canvas.shape[:2]
    points = np.concatenate(polygons)
    x0, y0 = np.maximum(np.floor(points.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(points.max(axis=0)).astype(int) + 1, [width, height])
    if x1 <= x0 or y1 <= y0:
        return
    k = _SUPERSAMPLE
    # Sub-sample (i, j) of the box covers pixel (y0 + i // k, x0 + j // k); its centre sits at
    # x0 - 0.5 + (j + 0.5) / k in canvas coordinates.
    mask = np.zeros(((y1 - y0) * k, (x1 - x0) * k), np.uint8)
    origin = np.array([x0, y0], float)
    pts = [np.round(((p - origin + 0.5) * k - 0.5) * _ONE).astype(np.int32) for p in polygons]
    cv2.fillPoly(mask, pts, 254, cv2.LINE_8, _SHIFT)
    # fillPoly takes every sample its outline touches, half a sample past the true edge on
    # average; counting the outline's samples at half weight leaves the area unbiased.
    cv2.polylines(mask, pts, True, 127, 1, cv2.LINE_8, _SHIFT)
    coverage = cv2.resize(mask, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    alpha = (coverage.astype(np.float32) / 254.0)[..., None]
    box = canvas[y0:y1, x0:x1]
    box += alpha * (np.asarray(color, np.float32) - box)


def disc(cx: float, cy: float, radius: float) -> np.ndarray:
    """A circle as a polygon.

    Parameters
    ----------
    cx, cy
        The circle's center, in pixels.
    radius
        Its radius, in pixels.

    Returns
    -------
    numpy.ndarray
        (64, 2) points (x, y) around the circle.

    Examples
    --------
    >>> disc(10.0, 5.0, 2.0)[0].tolist()
    [12.0, 5.0]
    """
    angles = np.linspace(0, 2 * np.pi, 64, endpoint=False)
    return np.stack([cx + radius * np.cos(angles), cy + radius * np.sin(angles)], axis=1)


def stroke(start: np.ndarray, end: np.ndarray, thickness: float) -> np.ndarray:
    """A straight stroke as a polygon.

    Parameters
    ----------
    start, end
        The stroke's ends (x, y), in pixels.
    thickness
        Its width across, in pixels.

    Returns
    -------
    numpy.ndarray
        (4, 2) corners of the stroke.

    Examples
    --------
    >>> stroke(np.array([0.0, 0.0]), np.array([4.0, 0.0]), 2.0).tolist()
    [[0.0, 1.0], [4.0, 1.0], [4.0, -1.0], [0.0, -1.0]]
    """
    direction = end - start
    across = np.array([-direction[1], direction[0]]) / max(np.linalg.norm(direction), 1e-9)
    half = across * thickness / 2
    return np.array([start + half, end + half, end - half, start - half])


def rounded_square(x0: float, y0: float, x1: float, y1: float, radius: float) -> np.ndarray:
    """A rectangle with rounded corners as a polygon.

    Parameters
    ----------
    x0, y0, x1, y1
        The rectangle's left, top, right and bottom edges, in pixels.
    radius
        The corners' radius (at most half the shorter side); 0 for sharp corners.

    Returns
    -------
    numpy.ndarray
        (M, 2) points (x, y): 4 for sharp corners, 24 for rounded ones.

    Examples
    --------
    >>> rounded_square(0, 0, 10, 10, 0.0).tolist()
    [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]]
    >>> rounded_square(0, 0, 10, 10, 2.0).shape
    (24, 2)
    """
    radius = min(radius, (x1 - x0) / 2, (y1 - y0) / 2)
    if radius <= 1e-3:
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], float)
    arc = np.linspace(0, np.pi / 2, 6)
    pts = []
    for cx, cy, start in (
        (x1 - radius, y0 + radius, -np.pi / 2),
        (x1 - radius, y1 - radius, 0.0),
        (x0 + radius, y1 - radius, np.pi / 2),
        (x0 + radius, y0 + radius, np.pi),
    ):
        a = start + arc
        pts.append(np.stack([cx + radius * np.cos(a), cy + radius * np.sin(a)], axis=1))
    return np.concatenate(pts)


def warp_points(points: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """Map points through a homography.

    Parameters
    ----------
    points
        (M, 2) points (x, y).
    homography
        3x3 matrix taking them to the image.

    Returns
    -------
    numpy.ndarray
        (M, 2) mapped points.

    Examples
    --------
    >>> warp_points(np.array([[1.0, 2.0]]), np.diag([2.0, 2.0, 1.0])).tolist()
    [[2.0, 4.0]]
    """
    return cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64), homography)[:, 0]
