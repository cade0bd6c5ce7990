"""Each sticker's colour from the frame: a robust middle of the cell's inner patch.

For every detected cell the inner part (the middle half of the cell, away from the
black gaps and the sticker's rounded corners) is read in CIELAB; highlight pixels (much
lighter and paler than the patch's median: glare on a glossy sticker) are dropped, and
the trimmed median of the rest is the sample. When a highlight floods the whole inner
patch, the sample is a pale, light mix of the sticker's colour and the light's: if the
wider patch (the middle 90% of the cell) shows the same hue much more chromatic where the
highlight does not reach, and the inner sample is that colour plus a near-grey light, the
cell is read from there instead. A cell overexposed to near white in the middle takes a
hint of its rim's hue, when that is warm: a clipped yellow's only trace of yellow. The
spread (median distance of the inner patch from the sample, in ΔE) says how uniform the
patch was: high for a glared, occluded or mis-placed cell.

The patches are read all at once, as one small image: each cell's inner and wider patches
are resampled onto squares of at most 12 x 12 points (about one point per pixel of the
inner patch for small stickers; a hundred-odd points give the median, more would only cost
time) by a single ``cv2.remap``; the points go to CIELAB
(:func:`cubescan.calibration.colorspace.bgr_to_lab`, which decodes 8-bit pixels by table), and the
robust statistics of every cell run at once in NumPy. A face costs about a millisecond.

Examples
--------
>>> from cubescan.scanner.grid import detect_grid
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

from cubescan.calibration.colorspace import (
    XYZ_TO_RGB,
    bgr_to_lab,
    lab_to_bgr,
    lab_to_lch,
    lab_to_xyz,
)
from cubescan.scanner.grid import FaceDetection, as_bgr

_INNER = 0.5  # side of the sampled patch, as a fraction of the cell
_MAX_STEPS = 12  # points along a patch's side, at most
_MIN_STEPS = 3  # ... and at least (a tiny patch is oversampled rather than missed)
_MIN_POINTS = 3  # fewer readable points than this: the cell is not read
_GLARE_L = 12.0  # a pixel this much lighter than the patch median ...
_GLARE_CHROMA = 0.6  # ... with less than this share of its chroma is a highlight
# A highlight that floods the inner patch leaves a pale, light mix of the sticker's colour and
# the light's; the sticker's own colour still shows where the highlight does not reach (its
# rim, the side away from the light). Such a cell is read from the wider patch's points of the
# same hue (within _BODY_HUE degrees), darker and much more chromatic than the inner sample.
_WIDE = 0.9  # side of the wider patch, as a fraction of the cell
_BODY_HUE = 30.0
_BODY_GAIN = 15.0  # chroma above the inner sample's, at least ...
_BODY_RATIO = 1.6  # ... and this many times it
_BODY_SHARE = 0.08  # share of the wider patch's points that must show the colour
_MIN_HUE_CHROMA = 6.0  # an inner sample paler than this has no hue to follow (a white)
# The light a highlight adds is near grey in a white-balanced photo: in linear RGB, the inner
# sample minus the sticker's colour has its weakest channel at least this share of its
# strongest. A neighbour's colour seen past a misplaced box, or skin over the sticker, is not
# the sticker under added light and fails this.
_ADDED_GREY = 0.3
# A sticker overexposed in the middle reads near white whatever its colour: its clipped pixels
# lost their chroma (a pale yellow's 250,252,245 against a white's 252,252,247). Its rim, where
# the blur towards the black gap keeps it under the clip, still shows the hue, mixed with the
# lens's colour fringes (bluish on a white) and what lies beyond the gap. So a cell whose inner
# points are mostly at least _CLIPPED_L, and near grey, takes the hue of the wider patch's
# points between the gap's darkness and the clip when that hue is warm (the colours a lamp
# clips to white are yellow and orange; no cube colour clips to a pale blue), with at most
# _RIM_CHROMA of chroma: enough for the whole cube's clustering to tell a clipped yellow from
# a clipped white, too little to make a near-white another colour on its own (whites balanced
# to their face keep up to 5.7, the 99th percentile on the labelled real faces).
_CLIPPED_L = 97.0
_GAP_L = 50.0
_CLIPPED_SHARE = 0.5
_RIM_CHROMA = 4.0


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


def patch_points(cells: np.ndarray, steps: int, fraction: float = _INNER) -> np.ndarray:
    """Points spread evenly over each cell's inner patch, in image pixels.

    A cell's patch is the middle ``fraction`` of it in both directions, mapped bilinearly
    from the cell's four corners (a cell is small enough that perspective within it is
    negligible).

    Parameters
    ----------
    cells
        Cell outlines (C, 4, 2), corners in cyclic order (as
        :attr:`cubescan.scanner.grid.FaceDetection.cells`).
    steps
        Points along each side of a patch.
    fraction
        Side of the patch as a fraction of the cell's (the inner half by default).

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
    return _corner_weights(steps, fraction) @ np.asarray(cells, dtype=np.float64)


@lru_cache(maxsize=32)
def _corner_weights(steps: int, fraction: float) -> np.ndarray:
    """(steps * steps, 4) bilinear weights of a cell's corners for its patch's points."""
    along = 0.5 - fraction / 2 + fraction * (np.arange(steps) + 0.5) / steps
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


def robust_colors(lab: np.ndarray, valid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per cell, the trimmed median of its non-glare points, and their spread.

    ``lab`` holds each cell's points (C, P, 3), ``valid`` which of them lie inside the
    frame (C, P). A cell's reference is the median of its darker half, which a highlight
    never reaches; points much lighter and greyer than it are glare (unless most of the
    patch is: then that is the sticker's own colour). The sample is the median of the
    kept points nearest their median (up to the 75th percentile of distance); the spread
    is the kept points' median distance from it.

    Parameters
    ----------
    lab
        (C, P, 3) each cell's points, CIELAB.
    valid
        (C, P) which of them lie inside the frame.

    Returns
    -------
    samples : numpy.ndarray
        (C, 3) each cell's color; NaN for a cell with fewer than three valid points.
    spread : numpy.ndarray
        (C,) the kept points' median distance from the sample; infinite where unread.

    Examples
    --------
    >>> lab = np.tile([50.0, 40.0, 20.0], (1, 8, 1))
    >>> lab[0, :2] = [97.0, 0.0, 0.0]  # a highlight on two of the eight points
    >>> samples, spread = robust_colors(lab, np.ones((1, 8), bool))
    >>> samples.tolist(), spread.tolist()
    ([[50.0, 40.0, 20.0]], [0.0])
    """
    samples = np.full((len(lab), 3), np.nan)
    spread = np.full(len(lab), np.inf)
    counted = valid.sum(axis=1)
    read = counted >= _MIN_POINTS
    if not read.any():
        return samples, spread
    points, valid, counted = lab[read], valid[read], counted[read]
    lightness = points[..., 0]
    darker = valid & (lightness <= _masked_median(lightness, valid)[:, None])
    reference = _masked_median(points, darker)
    chroma = np.hypot(points[..., 1], points[..., 2])
    glare = valid & (lightness > reference[:, :1] + _GLARE_L)
    glare &= chroma < _GLARE_CHROMA * np.hypot(reference[:, 1], reference[:, 2])[:, None]
    enough = (valid & ~glare).sum(axis=1) >= np.maximum(3, counted // 4)
    kept = valid & ~(glare & enough[:, None])
    distance = np.linalg.norm(points - _masked_median(points, kept)[:, None], axis=2)
    near = kept & (distance <= _masked_percentile(distance, kept, 75.0)[:, None])
    sample = _masked_median(points, near)
    samples[read] = sample
    spread[read] = _masked_median(np.linalg.norm(points - sample[:, None], axis=2), kept)
    return samples, spread


def _unglared_colors(
    samples: np.ndarray,
    spread: np.ndarray,
    inner: tuple[np.ndarray, np.ndarray],
    wide: tuple[np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray]:
    """Cells whose inner patch is a highlight's pale mix, read from their unglared part.

    A specular highlight adds the light's colour to the sticker's: lighter, paler, about the
    same hue. So where the wider patch (``wide``: points (C, Q, 3) and validity (C, Q)) holds
    enough points of the inner sample's hue that are darker and much more chromatic than it,
    and the inner sample is the median of the more chromatic half of those points plus a
    near-grey light, the inner sample was washed out and that median is the sticker's colour.
    A white sticker has no hue to follow and is left alone.
    The spread of such a cell is its inner patch's (``inner``) distance from the new sample:
    large, flagging the cell as read from little.
    """
    lightness, chroma, hue = lab_to_lch(samples)
    points, valid = wide
    point_l, point_chroma, point_hue = lab_to_lch(points)
    turn = np.abs((point_hue - hue[:, None] + 180.0) % 360.0 - 180.0)
    body = valid & (turn <= _BODY_HUE) & (point_l < lightness[:, None])
    body &= point_chroma >= np.maximum(chroma + _BODY_GAIN, _BODY_RATIO * chroma)[:, None]
    found = body.sum(axis=1)
    glared = (chroma >= _MIN_HUE_CHROMA) & (found >= np.maximum(3, _BODY_SHARE * valid.sum(1)))
    if not glared.any():
        return samples, spread
    points, body = points[glared], body[glared]
    richer = body & (point_chroma[glared] >= _masked_median(point_chroma[glared], body)[:, None])
    color = _masked_median(points, richer)
    added = (lab_to_xyz(samples[glared]) - lab_to_xyz(color)) @ XYZ_TO_RGB.T
    added_light = added.min(axis=1) >= _ADDED_GREY * added.max(axis=1)
    added_light &= added.max(axis=1) > 0
    if not added_light.any():
        return samples, spread
    glared[glared] = added_light
    color = color[added_light]
    samples, spread = samples.copy(), spread.copy()
    samples[glared] = color
    inner_points, inner_valid = inner[0][glared], inner[1][glared]
    distance = np.linalg.norm(inner_points - color[:, None], axis=2)
    spread[glared] = _masked_median(distance, inner_valid)
    return samples, spread


def _unclipped_chroma(
    samples: np.ndarray, inner: tuple[np.ndarray, np.ndarray], wide: tuple[np.ndarray, np.ndarray]
) -> np.ndarray:
    """Cells clipped to near white in the middle, a hint of their hue read from their rim.

    ``inner`` and ``wide`` are the (C, P, 3) points and (C, P) validity of each cell's inner
    and wider patch. Where most inner points are at or above :data:`_CLIPPED_L` and the
    sample is near grey, the mean a* and b* of the wider patch's points between
    :data:`_GAP_L` and the clip (at least three of them), when warm (b* > 0), become the
    sample's, with the chroma capped at :data:`_RIM_CHROMA`; the lightness stays.
    """
    points, valid = inner
    clipped = ((points[..., 0] >= _CLIPPED_L) & valid).sum(axis=1) >= _CLIPPED_SHARE * valid.sum(1)
    clipped &= np.hypot(samples[:, 1], samples[:, 2]) < _MIN_HUE_CHROMA
    wide_points, wide_valid = wide
    rim = wide_valid & (wide_points[..., 0] > _GAP_L) & (wide_points[..., 0] < _CLIPPED_L)
    clipped &= rim.sum(axis=1) >= _MIN_POINTS
    if not clipped.any():
        return samples
    weights = rim[clipped, :, None]
    chroma = (wide_points[clipped, :, 1:] * weights).sum(axis=1) / weights.sum(axis=1)
    warm = chroma[:, 1] > 0.0
    if not warm.any():
        return samples
    chroma = chroma[warm]
    size = np.hypot(chroma[:, 0], chroma[:, 1])
    samples = samples.copy()
    samples[np.flatnonzero(clipped)[warm], 1:] = (
        chroma * np.minimum(1.0, _RIM_CHROMA / size)[:, None]
    )
    return samples


def _masked_median(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Median along axis 1 of the entries where ``mask`` (C, P) is true, per row.

    ``values`` is (C, P) or (C, P, K); each row needs at least one entry.
    """
    return _masked_percentile(values, mask, 50.0)


def _masked_percentile(values: np.ndarray, mask: np.ndarray, percent: float) -> np.ndarray:
    """``np.percentile`` (linear) along axis 1 of the masked entries of each row."""
    if values.ndim == 3:
        mask = np.broadcast_to(mask[..., None], values.shape)
    # Masked entries sort last as +inf; a row's k entries then come first.
    ordered = np.sort(np.where(mask, values, np.inf), axis=1)
    count = mask.sum(axis=1)
    position = percent / 100.0 * (count - 1)
    low = np.floor(position).astype(np.intp)
    high = np.minimum(low + 1, count - 1)
    below = np.take_along_axis(ordered, low[:, None], axis=1)[:, 0]
    above = np.take_along_axis(ordered, high[:, None], axis=1)[:, 0]
    return below + (above - below) * (position - low)


def sample_colors(frame: np.ndarray, detection: FaceDetection) -> ColorSamples:
    """Read every cell's colour.

    Parameters
    ----------
    frame
        The frame the detection was made on (BGR; grayscale and BGRA accepted).
    detection
        From :func:`cubescan.scanner.grid.detect_grid`.

    Returns
    -------
    ColorSamples
        Cells outside the frame get NaN colours and infinite spread (a cell partly
        outside is read from its part inside).

    Examples
    --------
    >>> from cubescan.scanner.grid import detect_grid
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
    steps = _steps(cells)
    inner_count = steps * steps
    points = np.concatenate([patch_points(cells, steps), patch_points(cells, steps, _WIDE)], axis=1)
    limit = np.array([image.shape[1] - 0.5, image.shape[0] - 0.5])
    if points.min() >= -0.5 and (points.max(axis=(0, 1)) <= limit).all():
        valid = np.ones(points.shape[:2], bool)  # the usual case, at a fraction of the cost
    else:
        valid = ((points >= -0.5) & (points <= limit)).all(axis=-1)
    # One remap reads every patch: row c of the little image is cell c's points (those
    # outside the frame are read at its border, then left out).
    inside = np.clip(points, -0.5, limit).astype(np.float32)
    pixels = cv2.remap(image, inside, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    pixels_lab = bgr_to_lab(pixels)
    inner = pixels_lab[:, :inner_count], valid[:, :inner_count]
    lab, spread = robust_colors(*inner)
    wide = pixels_lab[:, inner_count:], valid[:, inner_count:]
    lab, spread = _unglared_colors(lab, spread, inner, wide)
    lab = _unclipped_chroma(lab, inner, wide)
    bgr = np.zeros((len(cells), 3), np.uint8)
    seen = np.isfinite(lab).all(axis=1)
    if seen.any():
        bgr[seen] = np.clip(np.round(lab_to_bgr(lab[seen])), 0, 255).astype(np.uint8)
    return ColorSamples(lab, bgr, spread)
