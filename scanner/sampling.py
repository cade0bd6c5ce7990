"""Each sticker's colour from the frame: a robust middle of the cell's inner patch.

For every detected cell the inner part (the middle half of the cell, away from the
black gaps and the sticker's rounded corners) is read in CIELAB; highlight pixels (much
lighter and paler than the patch's median: glare on a glossy sticker) are dropped, and
the trimmed median of the rest is the sample. The spread (median distance from it, in
ΔE) says how uniform the patch was: high for a glared, occluded or mis-placed cell.

Examples
--------
>>> from scanner.grid import detect_grid
>>> frame = np.full((240, 320, 3), 20, np.uint8)
>>> for r in range(3):
...     for c in range(3):
...         _ = cv2.rectangle(frame, (100 + 40 * c, 60 + 40 * r), (134 + 40 * c, 94 + 40 * r),
...                           (0, 0, 200), -1)
>>> samples = sample_colors(frame, detect_grid(frame))
>>> samples.lab.shape, bool(samples.spread.max() < 2)
((9, 3), True)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from scanner.colorspace import bgr_to_lab, lab_to_bgr
from scanner.grid import FaceDetection, as_bgr

_INNER = 0.5  # side of the sampled patch, as a fraction of the cell
_GLARE_L = 12.0  # a pixel this much lighter than the patch median ...
_GLARE_CHROMA = 0.6  # ... with less than this share of its chroma is a highlight


@dataclass(frozen=True, eq=False)
class ColorSamples:
    """The colour read for each cell of a detected face, row-major.

    Attributes
    ----------
    lab
        CIELAB (N*N, 3), L in 0..100.
    bgr
        The same colours as 8-bit BGR (N*N, 3), for drawing.
    spread
        Median ΔE of the kept pixels from the sample (N*N,): the patch's non-uniformity.
    """

    lab: np.ndarray
    bgr: np.ndarray
    spread: np.ndarray


def _patch_pixels(image: np.ndarray, cell: np.ndarray) -> np.ndarray:
    centre = cell.mean(axis=0)
    inner = centre + _INNER * (cell - centre)
    x0, y0 = np.floor(inner.min(axis=0)).astype(int)
    x1, y1 = np.ceil(inner.max(axis=0)).astype(int) + 1
    height, width = image.shape[:2]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
    if x1 <= x0 or y1 <= y0:
        return np.empty((0, 3), np.uint8)
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.round(inner - [x0, y0]).astype(np.int32), 1)
    pixels = image[y0:y1, x0:x1][mask.astype(bool)]
    if len(pixels) > 400:  # a few hundred pixels give the median; more only costs time
        pixels = pixels[:: len(pixels) // 400]
    return pixels


def _robust_colour(lab: np.ndarray) -> tuple[np.ndarray, float]:
    # Reference: the darker half of the patch, which a highlight never reaches.
    darker = lab[lab[:, 0] <= np.median(lab[:, 0])]
    median = np.median(darker, axis=0)
    chroma = np.hypot(lab[:, 1], lab[:, 2])
    glare = (lab[:, 0] > median[0] + _GLARE_L) & (chroma < _GLARE_CHROMA * np.hypot(*median[1:]))
    kept = lab[~glare] if (~glare).sum() >= max(3, len(lab) // 4) else lab
    middle = np.median(kept, axis=0)
    distance = np.linalg.norm(kept - middle, axis=1)
    trimmed = kept[distance <= np.percentile(distance, 75)]
    sample = np.median(trimmed, axis=0)
    return sample, float(np.median(np.linalg.norm(kept - sample, axis=1)))


def sample_colors(frame: np.ndarray, detection: FaceDetection) -> ColorSamples:
    """Read every cell's colour.

    Parameters
    ----------
    frame
        The frame the detection was made on (BGR; grayscale and BGRA accepted).
    detection
        From :func:`scanner.grid.detect_grid`.

    Returns
    -------
    ColorSamples
        Cells outside the frame get NaN colours and infinite spread.
    """
    image = as_bgr(frame)
    count = len(detection.cells)
    lab = np.full((count, 3), np.nan)
    spread = np.full(count, np.inf)
    for index, cell in enumerate(detection.cells):
        pixels = _patch_pixels(image, cell)
        if len(pixels) >= 3:
            lab[index], spread[index] = _robust_colour(bgr_to_lab(pixels.astype(float)))
    bgr = np.zeros((count, 3), np.uint8)
    seen = np.isfinite(lab).all(axis=1)
    if seen.any():
        bgr[seen] = np.clip(np.round(lab_to_bgr(lab[seen])), 0, 255).astype(np.uint8)
    return ColorSamples(lab, bgr, spread)
