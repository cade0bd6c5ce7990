"""Each sticker's colour from the frame: a robust middle of the cell's inner patch.

For every detected cell the inner part (the middle half of the cell, away from the
black gaps and the sticker's rounded corners) is read in CIELAB; highlight pixels (much
lighter and paler than the patch's median: glare on a glossy sticker) are dropped, and
the trimmed median of the rest is the sample. The spread (median distance from it, in
ΔE) says how uniform the patch was: high for a glared, occluded or mis-placed cell.

The patches are read all at once, as one small image: each cell's inner patch is
resampled onto a square of at most 12 x 12 points (about one point per pixel for small
stickers; a hundred-odd points give the median, more would only cost time) by a single
``cv2.remap``; the points go to CIELAB (:func:`scanner.colorspace.bgr_to_lab`, which
decodes 8-bit pixels by table), and the robust statistics of every
cell run in one compiled (numba) loop. A face costs well under a millisecond.

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
from functools import lru_cache

import cv2
import numpy as np
from numba import njit

from scanner.colorspace import bgr_to_lab, lab_to_bgr
from scanner.grid import FaceDetection, as_bgr

_INNER = 0.5  # side of the sampled patch, as a fraction of the cell
_MAX_STEPS = 12  # points along a patch's side, at most
_MIN_STEPS = 3  # ... and at least (a tiny patch is oversampled rather than missed)
_MIN_POINTS = 3  # fewer readable points than this: the cell is not read
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


def patch_points(cells: np.ndarray, steps: int) -> np.ndarray:
    """Points spread evenly over each cell's inner patch, in image pixels.

    A cell's patch is the middle ``_INNER`` of it in both directions, mapped bilinearly
    from the cell's four corners (a cell is small enough that perspective within it is
    negligible).

    Parameters
    ----------
    cells
        Cell outlines (C, 4, 2), corners in cyclic order (as
        :attr:`scanner.grid.FaceDetection.cells`).
    steps
        Points along each side of a patch.

    Returns
    -------
    numpy.ndarray
        Shape (C, steps * steps, 2), (x, y) image pixels.

    Examples
    --------
    >>> square = np.array([[[0, 0], [8, 0], [8, 8], [0, 8]]], float)
    >>> patch_points(square, 2)[0].tolist()
    [[3.0, 3.0], [5.0, 3.0], [3.0, 5.0], [5.0, 5.0]]
    """
    return _corner_weights(steps) @ np.asarray(cells, dtype=np.float64)


@lru_cache(maxsize=16)
def _corner_weights(steps: int) -> np.ndarray:
    """(steps * steps, 4) bilinear weights of a cell's corners for its patch's points."""
    along = 0.5 - _INNER / 2 + _INNER * (np.arange(steps) + 0.5) / steps
    u, v = (t.ravel() for t in np.meshgrid(along, along))
    weights = np.stack([(1 - u) * (1 - v), u * (1 - v), u * v, (1 - u) * v], axis=1)
    weights.flags.writeable = False
    return weights


def _steps(cells: np.ndarray) -> int:
    """About one point per pixel along the inner patch of a typical cell."""
    edges = cells[:, 1:4:2] - cells[:, :1]  # the two sides from each cell's first corner
    sides = np.sort(np.sqrt(np.einsum("cek,cek->ce", edges, edges)), axis=None)
    inner_side = _INNER * sides[len(sides) // 2]
    if not np.isfinite(inner_side):
        return _MIN_STEPS
    return min(max(round(inner_side), _MIN_STEPS), _MAX_STEPS)


@njit(cache=True, nogil=True)
def _channel_medians(lab: np.ndarray) -> np.ndarray:
    """Median of each column of (n, 3) points."""
    middle = np.empty(3)
    for channel in range(3):
        middle[channel] = np.median(lab[:, channel])
    return middle


@njit(cache=True, nogil=True)
def _distances(lab: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """ΔE of each of (n, 3) points from ``centre``."""
    return np.sqrt(((lab - centre) ** 2).sum(axis=1))


@njit(cache=True, nogil=True)
def _robust_colour(lab: np.ndarray) -> tuple[np.ndarray, float]:
    """One patch's trimmed median of its non-glare points (n, 3), and their spread."""
    # Reference: the darker half of the patch, which a highlight never reaches.
    reference = _channel_medians(lab[lab[:, 0] <= np.median(lab[:, 0])])
    chroma = np.hypot(lab[:, 1], lab[:, 2])
    glare = (lab[:, 0] > reference[0] + _GLARE_L) & (
        chroma < _GLARE_CHROMA * np.hypot(reference[1], reference[2])
    )
    # Mostly "glare": then it is the sticker's own colour.
    kept = lab[~glare] if (~glare).sum() >= max(3, len(lab) // 4) else lab
    distance = _distances(kept, _channel_medians(kept))
    sample = _channel_medians(kept[distance <= np.percentile(distance, 75)])
    return sample, float(np.median(_distances(kept, sample)))


@njit(cache=True, nogil=True)
def _robust_colours(lab: np.ndarray, valid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per cell: :func:`_robust_colour` of its points (C, P, 3) inside the frame (C, P).

    Cells with fewer than ``_MIN_POINTS`` such points get NaN and an infinite spread.
    """
    samples = np.full((len(lab), 3), np.nan)
    spread = np.full(len(lab), np.inf)
    for cell in range(len(lab)):
        points = lab[cell][valid[cell]]
        if len(points) >= _MIN_POINTS:
            samples[cell], spread[cell] = _robust_colour(points)
    return samples, spread


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
        Cells outside the frame get NaN colours and infinite spread (a cell partly
        outside is read from its part inside).

    Examples
    --------
    >>> from scanner.grid import detect_grid
    >>> frame = np.full((240, 320, 3), 20, np.uint8)
    >>> for r in range(2):
    ...     for c in range(2):
    ...         _ = cv2.rectangle(frame, (100 + 50 * c, 60 + 50 * r),
    ...                           (144 + 50 * c, 104 + 50 * r), (200, 120, 0), -1)
    >>> np.round(sample_colors(frame, detect_grid(frame, size=2)).bgr[0]).tolist()
    [200, 120, 0]
    """
    return sample_cells(frame, detection.cells)


def sample_cells(frame: np.ndarray, cells: np.ndarray) -> ColorSamples:
    """Read the colour of each of several quadrilateral cells of a frame.

    Parameters
    ----------
    frame
        BGR frame (grayscale and BGRA accepted).
    cells
        Cell outlines (C, 4, 2), corners in cyclic order, image pixels (e.g. a detection's
        cells, or sticker boxes as rectangles).

    Returns
    -------
    ColorSamples
        As :func:`sample_colors`.

    Examples
    --------
    >>> frame = np.zeros((40, 40, 3), np.uint8)
    >>> frame[:, 20:] = (0, 0, 200)
    >>> box = [[22.0, 2.0], [38.0, 2.0], [38.0, 38.0], [22.0, 38.0]]
    >>> np.round(sample_cells(frame, np.array([box])).bgr[0]).tolist()
    [0, 0, 200]
    """
    image = as_bgr(frame)
    cells = np.asarray(cells, dtype=np.float64)
    points = patch_points(cells, _steps(cells))
    limit = np.array([image.shape[1] - 0.5, image.shape[0] - 0.5])
    if points.min() >= -0.5 and (points.max(axis=(0, 1)) <= limit).all():
        valid = np.ones(points.shape[:2], bool)  # the usual case, at a fraction of the cost
    else:
        valid = ((points >= -0.5) & (points <= limit)).all(axis=-1)
    # One remap reads every patch: row c of the little image is cell c's points (those
    # outside the frame are read at its border, then left out).
    inside = np.clip(points, -0.5, limit).astype(np.float32)
    pixels = cv2.remap(image, inside, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    lab, spread = _robust_colours(bgr_to_lab(pixels), valid)
    bgr = np.zeros((len(cells), 3), np.uint8)
    seen = np.isfinite(lab).all(axis=1)
    if seen.any():
        bgr[seen] = np.clip(np.round(lab_to_bgr(lab[seen])), 0, 255).astype(np.uint8)
    return ColorSamples(lab, bgr, spread)
