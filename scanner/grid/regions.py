"""Step 1, regions: the working image (shrunk, Lab, blurred), its lightness
and chroma edges, and the regions they enclose, each with its own affine frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from cubescan.scanner.grid._kernels import _nearest
from cubescan.scanner.grid._regions_kernels import (
    _block_means,
    _region_shapes,
    free_region_stats,
    level_percentiles,
)
from cubescan.scanner.grid.params import (
    CHROMA_BLUR,
    EDGE_THRESHOLDS,
    ENLARGED_BLUR,
    MAX_BLOCK_FACTOR,
    MAX_BLOCK_STICKERS,
    MAX_LIGHTNESS_STRETCH,
    EdgeThresholds,
)


def _regions_at(
    points: np.ndarray, regions: Regions, pitch: float, cell_area: float | np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each point's nearest region (index), whether it lies within a quarter ``pitch`` of the
    point, and whether it is of about a cell's size (a quarter to 1.2 of ``cell_area``): a
    lattice's tile or sticker there. With no regions, none is near or of the size."""
    if len(regions.areas) == 0:
        nothing = np.zeros(len(points), bool)
        return np.zeros(len(points), np.int64), nothing, nothing.copy()
    dist, idx = _nearest(points, regions.centers)
    areas = regions.areas[idx]
    return idx, dist < 0.25 * pitch, (areas > 0.25 * cell_area) & (areas < 1.2 * cell_area)


def working_lab(bgr: np.ndarray, scale: float, sharp_chroma: bool = False) -> np.ndarray:
    """The frame scaled by ``scale`` and lightly blurred, in 8-bit Lab: what regions are
    found in. ``sharp_chroma`` leaves out the chroma's further blur at scales above a half
    (see below).

    Parameters
    ----------
    bgr
        The BGR frame.
    scale
        Factor to the working image's size (above 1 enlarges).
    sharp_chroma
        Leave the chroma unblurred (for cutting merged blocks by their outlines).

    Returns
    -------
    np.ndarray
        The working image, 8-bit Lab.

    Examples
    --------
    >>> working_lab(np.zeros((480, 640, 3), np.uint8), 0.5).shape
    (240, 320, 3)
    """
    if scale != 1.0:
        height, width = bgr.shape[:2]
        small_size = (max(1, round(width * scale)), max(1, round(height * scale)))
        if 0.5 < scale < 1.0:
            # A light blur and bilinear sampling: area averaging at a fractional scale costs
            # several times as much for the same picture (at a half, it costs a third).
            bgr = cv2.resize(cv2.GaussianBlur(bgr, (3, 3), 0), small_size)
        else:
            bgr = (
                shrunk(bgr, small_size)
                if scale < 1.0
                else cv2.resize(bgr, small_size, interpolation=cv2.INTER_LINEAR)
            )
    if scale > 1.0:
        # Enlarged, the frame's sensor noise and JPEG blocks would break small stickers into
        # fragments: blur it as the other passes blur theirs, in the frame's own pixels.
        return cv2.cvtColor(cv2.GaussianBlur(bgr, (0, 0), ENLARGED_BLUR * scale), cv2.COLOR_BGR2Lab)
    lab = cv2.cvtColor(cv2.GaussianBlur(bgr, (3, 3), 0), cv2.COLOR_BGR2Lab)
    if scale > 0.5 and not sharp_chroma:
        # Cameras and JPEG keep colour at half the resolution of lightness: at this scale its
        # blocks still show, and would cut small stickers into pieces along chroma edges.
        # (All three channels are blurred and the lightness put back: OpenCV would copy the
        # two chroma channels out and back, which costs more than blurring a third.)
        blurred = cv2.GaussianBlur(lab, (0, 0), CHROMA_BLUR * scale)
        blurred[..., 0] = lab[..., 0]
        return blurred
    return lab


def shrunk(bgr: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``cv2.resize(bgr, size, interpolation=cv2.INTER_AREA)``, pixel for pixel.

    Shrunk by a whole factor of three or more (1920x1080 and 1280x720 to the first pass's
    320x180), each pixel is its block's mean, which OpenCV sums in a plain loop of lookups;
    :func:`_block_means` sums whole rows first and takes about half the time. By a factor
    of two OpenCV's own vectorised path is faster; past ``MAX_BLOCK_FACTOR`` its rounding
    table would outgrow the caches.

    Parameters
    ----------
    bgr
        An 8-bit image.
    size
        ``(width, height)`` to shrink it to.

    Returns
    -------
    np.ndarray
        The shrunk image, as OpenCV's area averaging gives it.

    Examples
    --------
    >>> frame = np.random.default_rng(0).integers(0, 256, (120, 160, 3), dtype=np.uint8)
    >>> bool((shrunk(frame, (40, 30)) == cv2.resize(frame, (40, 30),
    ...                                               interpolation=cv2.INTER_AREA)).all())
    True
    """
    width, height = size
    factor = bgr.shape[1] // width
    whole = bgr.shape[:2] == (factor * height, factor * width)
    if 3 <= factor <= MAX_BLOCK_FACTOR and whole:
        return _block_means(np.ascontiguousarray(bgr), factor, _block_rounding(factor))
    return cv2.resize(bgr, size, interpolation=cv2.INTER_AREA)


@lru_cache(maxsize=8)
def _block_rounding(factor: int) -> np.ndarray:
    """A ``factor`` x ``factor`` block's mean for each sum of its 8-bit levels, rounded as
    OpenCV rounds it: the sum times 1 / factor^2 in single precision, to the nearest level
    (halves to even)."""
    area = factor * factor
    sums = np.arange(area * 255 + 1, dtype=np.float32)
    rounded = np.rint(sums * (np.float32(1.0) / np.float32(area))).astype(np.uint8)
    rounded.flags.writeable = False  # shared between calls
    return rounded


@dataclass(frozen=True)
class Regions:
    """The regions found in a working image (:func:`find_regions`), one row each."""

    centers: np.ndarray  # (M, 2) working-image centroids
    areas: np.ndarray  # (M,)
    whiten: np.ndarray  # (M, 2, 2) maps a displacement into the region's unit-square frame
    sides: np.ndarray  # (M,) estimated sticker side in px
    box_fill: np.ndarray  # (M,) share of its bounding box it fills (1 for an upright square)
    # Regions too long for a sticker but shaped like a row of up to MAX_BLOCK_STICKERS of
    # them (same-coloured stickers merged): they only fill the cells of a found lattice.
    row_centers: np.ndarray  # (R, 2)
    row_whiten: np.ndarray  # (R, 2, 2)
    # False once merged blocks were cut into stickers (a part's area is a share of its
    # block's): then the regions' sizes cannot tell a board's tiles from other objects.
    true_areas: bool = True


def _edges(lab: np.ndarray, thresholds: EdgeThresholds = EDGE_THRESHOLDS) -> np.ndarray:
    (light_low, light_high), (chroma_low, chroma_high) = thresholds
    lightness, a, b = cv2.split(lab)
    low, high = level_percentiles(lightness, 4, np.array([2.0, 98.0]))
    # A dim frame's lightness is stretched, but only so far: its noise is stretched with it,
    # and in the dark, where lightness rises steeply, each grey level is several L units.
    gain = 255.0 / max(float(high - low), 255.0 / MAX_LIGHTNESS_STRETCH)
    stretched = cv2.convertScaleAbs(lightness, alpha=gain, beta=-float(low) * gain)
    edges = cv2.Canny(stretched, light_low, light_high)
    edges |= cv2.Canny(a, chroma_low, chroma_high)
    edges |= cv2.Canny(b, chroma_low, chroma_high)
    return edges


def find_regions(
    lab: np.ndarray, max_elongation: float = 2.6, edge_thresholds: EdgeThresholds = EDGE_THRESHOLDS
) -> Regions:
    """The regions enclosed by the working image's lightness and chroma edges.

    Each region's second moments give it its own affine frame (``whiten``), in which a
    sticker seen at a tilt is a unit square; regions longer than ``max_elongation`` are
    kept only when shaped like a row of merged stickers.

    Parameters
    ----------
    lab
        The working image, 8-bit Lab (:func:`working_lab`).
    max_elongation
        Longest region (long over short axis) kept as a sticker.
    edge_thresholds
        Canny's thresholds for lightness and chroma (``EDGE_THRESHOLDS``, or the faint ones).

    Returns
    -------
    Regions
        The regions of about a sticker's shape and size, and the rows of merged ones.

    Examples
    --------
    >>> from cubescan.synth.scenes import square_stickers_frame
    >>> frame = square_stickers_frame()
    >>> regions = find_regions(working_lab(frame, 1.0))
    >>> len(regions.centers), np.round(regions.sides[:1]).tolist()
    (9, [36.0])
    """
    edges = _edges(lab, edge_thresholds)
    # Regions: the pixels 4-connected around the edges (grown by one pixel right and down),
    # labelled and measured in one compiled pass over their runs: a third of the time of
    # OpenCV's dilation, labelling and statistics, for the same numbers.
    stats, centroids, moments = free_region_stats(edges)
    height, width = edges.shape
    area = stats[:, cv2.CC_STAT_AREA].astype(float)
    bw = stats[:, cv2.CC_STAT_WIDTH].astype(float)
    bh = stats[:, cv2.CC_STAT_HEIGHT].astype(float)
    max_area = 0.3 * min(height, width) ** 2
    keep = (area >= 8) & (area <= max_area) & (area >= 0.3 * bw * bh)
    keep &= (np.maximum(bw, bh) <= 4 * np.minimum(bw, bh)) & (bw < width) & (bh < height)
    keep[0] = keep[0] & (stats[0, cv2.CC_STAT_LEFT] > 0)
    index = np.flatnonzero(keep)
    if len(index) == 0:
        return Regions(
            np.zeros((0, 2)),
            np.zeros(0),
            np.zeros((0, 2, 2)),
            np.zeros(0),
            np.zeros(0),
            np.zeros((0, 2)),
            np.zeros((0, 2, 2)),
        )
    compact, elongation, frames = _region_shapes(
        moments[index] / area[index, None], area[index], sticker_sides(area[index])
    )
    compact_ok = (compact > 0.82) & (compact < 1.12)
    good = compact_ok & (elongation < max_elongation)
    rows = compact_ok & ~good & (elongation < MAX_BLOCK_STICKERS + 0.5)
    row_centers = centroids[index[rows]] - 0.5
    row_whiten = frames[rows]
    index, whiten = index[good], frames[good]
    areas = area[index]
    sides = sticker_sides(areas)
    # Edges grow right and down only, into the regions past them: every region lost a pixel
    # row and column at its top and left, and its centroid sits half a pixel down-right of
    # the sticker's.
    box_fill = areas / (bw[index] * bh[index])
    return Regions(centroids[index] - 0.5, areas, whiten, sides, box_fill, row_centers, row_whiten)


def _with_block_stickers(regions: Regions) -> Regions:
    """The regions plus the stickers of every block of 2..MAX_BLOCK_STICKERS in a row.

    A block is a compact region about k times as long as wide (k rounded). Its frame (the
    inverse of its whitening) maps the unit square onto it; its stickers are that rectangle
    cut in k along its long side. The block itself stays (it fills its cells as merged).
    """
    extent = np.linalg.inv(regions.whiten)
    sides, axes = np.linalg.eigh(extent)  # ascending: the long side is the last
    stickers = np.rint(sides[:, 1] / sides[:, 0]).astype(int)
    parts_c, parts_a, parts_w, parts_f = [], [], [], []
    for k in range(2, MAX_BLOCK_STICKERS + 1):
        block = np.flatnonzero(stickers == k)
        if len(block) == 0:
            continue
        axis, width, length = axes[block, :, 1], sides[block, 0], sides[block, 1] / k
        part = np.stack([width, length], -1)
        part_whiten = axes[block] @ ((1.0 / part)[..., None] * np.swapaxes(axes[block], -1, -2))
        # Bounding-box fill of a width x length rectangle turned by the long side's angle.
        cos, sin = np.abs(axis[:, 0]), np.abs(axis[:, 1])
        fill = width * length / ((length * cos + width * sin) * (length * sin + width * cos))
        for i in range(k):
            offset = axis * ((i - (k - 1) / 2) * length)[:, None]
            parts_c.append(regions.centers[block] + offset)
            parts_a.append(regions.areas[block] / k)
            parts_w.append(part_whiten)
            parts_f.append(fill)
    if not parts_c:
        return regions
    areas = np.concatenate(parts_a)
    return Regions(
        np.concatenate([regions.centers, *parts_c]),
        np.concatenate([regions.areas, areas]),
        np.concatenate([regions.whiten, *parts_w]),
        np.concatenate([regions.sides, sticker_sides(areas)]),
        np.concatenate([regions.box_fill, *parts_f]),
        regions.row_centers,
        regions.row_whiten,
        true_areas=False,
    )


def whitening(cov: np.ndarray, areas: np.ndarray) -> np.ndarray:
    """cov^(-1/2), scaled so a region maps to a unit square: each region's own frame.

    In closed form (a batched eigendecomposition costs several times as much over the
    thousands of regions of a cluttered frame): a 2x2 covariance's square root is
    (cov + s I) / t, with s = sqrt(det cov) and t = sqrt(trace cov + 2 s), whose inverse is
    adj(cov + s I) / (s t).

    Parameters
    ----------
    cov
        Each region's covariance of pixel positions (M, 2, 2).
    areas
        Their areas in pixels (M,).

    Returns
    -------
    np.ndarray
        (M, 2, 2): each maps a displacement from the region's centre into its own frame, in
        which the sticker behind it spans a unit square.

    Examples
    --------
    >>> side = 30.0  # a square region: covariance side^2 / 12 on each axis
    >>> frame = whitening(np.eye(2)[None] * side**2 / 12, np.array([side**2]))
    >>> (np.round(frame[0] * (side + 2), 3) + 0.0).tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    variances = np.stack([cov[:, 0, 0], cov[:, 1, 1], cov[:, 0, 1]], -1)
    return _region_shapes(variances, areas, sticker_sides(areas))[2]


def sticker_sides(areas: np.ndarray) -> np.ndarray:
    """The side in pixels of the sticker behind each region of these areas: edges and
    dilation eat about 1.5 px from every side of a region.

    Parameters
    ----------
    areas
        Region areas in pixels.

    Returns
    -------
    np.ndarray
        The stickers' sides in pixels.

    Examples
    --------
    >>> sticker_sides(np.array([100.0, 400.0])).tolist()
    [12.0, 22.0]
    """
    return np.sqrt(areas) + 2.0
