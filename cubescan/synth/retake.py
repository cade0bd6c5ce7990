"""The same photo as another hand, camera or light might have taken it.

Each retake maps a BGR photo to a new one and gives the 2x3 affine map from the old
photo's pixels to the new photo's (the identity when no pixel moves), so that labels drawn
on the photo, such as sticker boxes (:func:`moved_boxes`), follow it. The real photos the
detector was developed on are one hand's, camera's and light's each; reading them through
:data:`RETAKES` (``python benchmarks/eval_detect.py --transformed``) shows what another
person's photo of the same cube would give.

Example
-------
>>> photo = np.zeros((100, 200, 3), np.uint8)  # 200 px wide
>>> retake = turned(photo, 90)  # a box near the top left ends near the bottom left
>>> retake.image.shape[:2], moved_boxes(np.array([[20.0, 10, 40, 30]]), retake.matrix)
((200, 100), array([[ 10., 160.,  30., 180.]]))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import cv2
import numpy as np


class Retake(NamedTuple):
    """A retaken photo and the affine map (2, 3) of the original's pixels into it."""

    image: np.ndarray
    matrix: np.ndarray


def turned(image: np.ndarray, degrees: float) -> Retake:
    """The photo turned about its middle (counter-clockwise as seen), on a canvas that holds
    all of it; the canvas's corners repeat the photo's edge.

    Parameters
    ----------
    image
        BGR photo.
    degrees
        The turn.

    Returns
    -------
    Retake

    Examples
    --------
    >>> turned(np.zeros((100, 200, 3), np.uint8), 45).image.shape
    (212, 212, 3)
    """
    height, width = image.shape[:2]
    matrix = cv2.getRotationMatrix2D((width / 2, height / 2), degrees, 1.0)
    cos, sin = abs(matrix[0, 0]), abs(matrix[0, 1])
    size = (int(height * sin + width * cos), int(height * cos + width * sin))
    matrix[:, 2] += np.array(size) / 2 - np.array([width, height]) / 2
    return Retake(cv2.warpAffine(image, matrix, size, borderMode=cv2.BORDER_REPLICATE), matrix)


def shrunk(image: np.ndarray, long_side: int) -> Retake:
    """The photo shrunk (area averaging) to a long side of ``long_side`` pixels.

    Parameters
    ----------
    image
        BGR photo.
    long_side
        The new long side, px.

    Returns
    -------
    Retake

    Examples
    --------
    >>> shrunk(np.zeros((300, 400, 3), np.uint8), 320).image.shape
    (240, 320, 3)
    """
    scale = long_side / max(image.shape[:2])
    size = (round(image.shape[1] * scale), round(image.shape[0] * scale))
    # Pixel i covers the new pixels around (i + 0.5) * scale - 0.5.
    matrix = np.array([[scale, 0, 0.5 * scale - 0.5], [0, scale, 0.5 * scale - 0.5]])
    return Retake(cv2.resize(image, size, interpolation=cv2.INTER_AREA), matrix)


def relit(image: np.ndarray, gains: tuple[float, float, float]) -> Retake:
    """The photo under another light: its B, G and R scaled by ``gains`` (clipped).

    Parameters
    ----------
    image
        BGR photo.
    gains
        Gains of B, G and R: equal ones dim or brighten the light, unequal ones cast a
        colour (more red and less blue is a warm lamp).

    Returns
    -------
    Retake

    Examples
    --------
    >>> relit(np.full((1, 1, 3), 200, np.uint8), (0.5, 1.0, 1.5)).image.ravel().tolist()
    [100, 200, 255]
    """
    lit = np.clip(image * np.asarray(gains, float), 0, 255).astype(np.uint8)
    return Retake(lit, np.eye(2, 3))


def recompressed(image: np.ndarray, quality: int) -> Retake:
    """The photo saved as a JPEG and read back.

    Parameters
    ----------
    image
        BGR photo.
    quality
        JPEG quality, 1..100 (a phone saves at about 90; 20 shows blocks).

    Returns
    -------
    Retake

    Examples
    --------
    >>> recompressed(np.zeros((16, 16, 3), np.uint8), 20).image.shape
    (16, 16, 3)
    """
    encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1]
    return Retake(cv2.imdecode(encoded, cv2.IMREAD_COLOR), np.eye(2, 3))


def blurred(image: np.ndarray, sigma_at_640: float) -> Retake:
    """The photo out of focus.

    Parameters
    ----------
    image
        BGR photo.
    sigma_at_640
        Sigma of the Gaussian blur, px, were the photo's long side 640 px (the same blur
        relative to the photo at any size).

    Returns
    -------
    Retake

    Examples
    --------
    >>> blurred(np.zeros((48, 64, 3), np.uint8), 1.5).image.shape
    (48, 64, 3)
    """
    sigma = sigma_at_640 * max(image.shape[:2]) / 640
    return Retake(cv2.GaussianBlur(image, (0, 0), sigma), np.eye(2, 3))


def noisy(image: np.ndarray, sigma: float, seed: int = 0) -> Retake:
    """The photo with sensor noise.

    Parameters
    ----------
    image
        BGR photo.
    sigma
        Standard deviation of the Gaussian noise, grey levels.
    seed
        Seed of the noise.

    Returns
    -------
    Retake

    Examples
    --------
    >>> round(float(noisy(np.full((64, 64, 3), 128, np.uint8), 10).image.std()))
    10
    """
    noise = np.random.default_rng(seed).normal(0, sigma, image.shape)
    return Retake(np.clip(image + noise, 0, 255).astype(np.uint8), np.eye(2, 3))


def moved_boxes(boxes: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """Boxes (K, 4: x0, y0, x1, y1) after a retake: the square of each box's short side,
    scaled with the photo, around its centre's new place.

    Parameters
    ----------
    boxes
        Axis-aligned boxes in the original photo.
    matrix
        The retake's affine map (2, 3).

    Returns
    -------
    numpy.ndarray
        (K, 4) boxes in the retaken photo.

    Examples
    --------
    >>> moved_boxes(np.array([[10.0, 10, 30, 20]]), shrunk(np.zeros((4, 4, 3)), 2).matrix)
    array([[ 7.25,  4.75, 12.25,  9.75]])
    """
    boxes = np.asarray(boxes, float)
    centers = np.column_stack([(boxes[:, :2] + boxes[:, 2:]) / 2, np.ones(len(boxes))])
    centers = centers @ np.asarray(matrix, float).T
    half = np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])[:, None] / 2
    half = half * np.sqrt(abs(np.linalg.det(np.asarray(matrix, float)[:, :2])))
    return np.hstack([centers - half, centers + half])


RETAKES: dict[str, Callable[[np.ndarray], Retake]] = {
    "turned 20 degrees": lambda image: turned(image, 20),
    "turned 45 degrees": lambda image: turned(image, 45),
    "turned -70 degrees": lambda image: turned(image, -70),
    "shrunk to 640 px": lambda image: shrunk(image, 640),
    "shrunk to 320 px": lambda image: shrunk(image, 320),
    "darker (x0.45)": lambda image: relit(image, (0.45, 0.45, 0.45)),
    "lighter (x1.4)": lambda image: relit(image, (1.4, 1.4, 1.4)),
    "warm light": lambda image: relit(image, (0.7, 0.95, 1.15)),
    "tungsten light": lambda image: relit(image, (0.5, 0.85, 1.2)),
    "cool light": lambda image: relit(image, (1.2, 1.0, 0.75)),
    "JPEG quality 20": lambda image: recompressed(image, 20),
    "blurred (1.5 px at 640)": lambda image: blurred(image, 1.5),
    "noise (10 grey levels)": lambda image: noisy(image, 10),
}
