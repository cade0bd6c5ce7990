"""Compiled inner loops of :mod:`cubescan.scanner.grid.regions` (numba).

Kept apart from the stage's logic so that it reads as the algorithm, and so that numba's
on-disk cache, which is keyed to the source file, survives edits of the stage.
Each function is a plain loop over NumPy arrays; the stage documents what it is for.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cubescan.scanner.grid._kernels import _interpolated


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def free_region_stats(edges: np.ndarray):
    """The regions between an edge image's edges, grown by one pixel right and down (as
    ``cv2.dilate`` with a 2 x 2 kernel grows them): each 4-connected region's area, bounding
    box (left, top, width, height), centroid and second moments, label 0 being the grown
    edges. Labels and statistics are those of ``cv2.connectedComponentsWithStats`` of the
    pixels the grown edges leave free (regions numbered in the order their first pixel comes
    in a row-by-row scan, as OpenCV numbers them).

    One pass over the rows finds each row's runs of free pixels and joins those that share a
    column with a run of the row above (union-find, the earlier run the root); the runs then
    add up into their regions. A run's coordinate sums have closed forms, so the sums are
    exact integers and the moments lose only the final subtraction's rounding.

    Returns the stats (count, 5) int64 in OpenCV's column order (left, top, width, height,
    area), the centroids (count, 2) and the sums of dx*dx, dy*dy and dx*dy about the
    centroid (count, 3).
    """
    height, width = edges.shape
    most = height * (width // 2 + 1)  # free runs: at most every other pixel starts one
    run_y = np.empty(most, np.int64)
    run_start = np.empty(most, np.int64)
    run_end = np.empty(most, np.int64)
    parent = np.empty(most, np.int64)
    blocked = np.zeros(width, np.uint8)
    # The edges' label as a variable, not the literal 0 (and x below starts from it): a
    # literal argument makes numba compile the callee once more, for that literal.
    edge = np.int64(0)
    edge_stats = _empty_stats(edge + 1, width)
    edge_sums = np.zeros((1, 5), np.int64)
    runs = 0
    row_first = 0  # the previous row's first run
    for y in range(height):
        # Blocked: an edge on the pixel, or on its neighbour left, up or up-left.
        left = 0
        for x in range(width):
            here = edges[y, x] | (edges[y - 1, x] if y > 0 else 0)
            blocked[x] = here | left
            left = here
        this_first = runs
        x = edge
        while x < width:
            start = x
            while x < width and blocked[x]:
                x += 1
            if x > start:
                _add_run(edge_stats, edge_sums, edge, y, start, x)
            start = x
            while x < width and not blocked[x]:
                x += 1
            if x > start:
                run_y[runs], run_start[runs], run_end[runs] = y, start, x
                parent[runs] = runs
                runs += 1
        # Join each run to the runs above that share a column with it.
        above = row_first
        for run in range(this_first, runs):
            while above < this_first and run_end[above] <= run_start[run]:
                above += 1
            other = above
            while other < this_first and run_start[other] < run_end[run]:
                a, b = _root(parent, run), _root(parent, other)
                parent[max(a, b)] = min(a, b)
                other += 1
        row_first = this_first
    label = np.empty(runs, np.int64)
    count = edge + 1  # the next label (not a literal: see above)
    for run in range(runs):
        root = _root(parent, run)
        if root == run:
            label[run] = count
            count += 1
        else:
            label[run] = label[root]  # the root came first, so it has its label
    stats = _empty_stats(count, width)
    sums = np.zeros((count, 5), np.int64)
    for k in range(5):  # element by element: a row copy costs seconds of compiling
        stats[0, k], sums[0, k] = edge_stats[0, k], edge_sums[0, k]
    for run in range(runs):
        _add_run(stats, sums, label[run], run_y[run], run_start[run], run_end[run])
    centroids = np.zeros((count, 2))
    moments = np.zeros((count, 3))
    for region in range(count):
        area = stats[region, 4]
        stats[region, 2] = stats[region, 2] - stats[region, 0] + 1
        stats[region, 3] = stats[region, 3] - stats[region, 1] + 1
        if area > 0:
            cx, cy = sums[region, 0] / area, sums[region, 1] / area
            centroids[region, 0], centroids[region, 1] = cx, cy
            # sum (x - cx)^2 = sum x^2 - cx sum x, and alike.
            moments[region, 0] = sums[region, 2] - cx * sums[region, 0]
            moments[region, 1] = sums[region, 3] - cy * sums[region, 1]
            moments[region, 2] = sums[region, 4] - cx * sums[region, 1]
    return stats, centroids, moments


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def _root(parent: np.ndarray, node: int) -> int:
    """The root of ``node``'s tree (paths halved on the way)."""
    while parent[node] != node:
        parent[node] = parent[parent[node]]
        node = parent[node]
    return node


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def _empty_stats(count: int, width: int) -> np.ndarray:
    """Stats rows (see :func:`_add_run`) before any run: the left end starts at the width."""
    stats = np.zeros((count, 5), np.int64)
    stats[:, 0] = width
    return stats


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def _add_run(stats, sums, label, y, start, end) -> None:
    """Add the run of pixels start..end - 1 of row ``y`` to region ``label``: its stats row
    (left, top, right, bottom, area until finished) and coordinate sums (x, y, x*x, y*y,
    x*y). Rows must come in order: the first row a region gets is its top."""
    if stats[label, 4] == 0:
        stats[label, 1] = y
    stats[label, 0] = min(stats[label, 0], start)
    stats[label, 2] = max(stats[label, 2], end - 1)
    stats[label, 3] = y
    run = end - start
    run_x = (start + end - 1) * run // 2  # start + (start + 1) + ... + (end - 1)
    # The same sum of squares: (end - 1)end(2end - 1)/6 - (start - 1)start(2start - 1)/6.
    run_xx = ((end - 1) * end * (2 * end - 1) - (start - 1) * start * (2 * start - 1)) // 6
    stats[label, 4] += run
    sums[label, 0] += run_x
    sums[label, 1] += y * run
    sums[label, 2] += run_xx
    sums[label, 3] += y * y * run
    sums[label, 4] += y * run_x


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True, boundscheck=False)
def _block_means(image: np.ndarray, factor: int, rounded: np.ndarray) -> np.ndarray:
    """The BGR image (H, W, 3) uint8 shrunk by a whole ``factor`` along both axes: each
    output pixel the mean of its ``factor`` x ``factor`` block, as ``rounded[block sum]``
    (see regions.shrunk). Rows of blocks are summed first, a whole image row at a time (the
    long, contiguous loop the compiler vectorises), then each block's columns, the three
    channels side by side."""
    height, width, _ = image.shape
    out_height, out_width = height // factor, width // factor
    rows = image.reshape(height, width * 3)
    out = np.empty((out_height, out_width * 3), np.uint8)
    column_sums = np.empty(width * 3, np.uint16)
    for out_y in range(out_height):
        first = rows[out_y * factor]
        for i in range(width * 3):
            column_sums[i] = first[i]
        for k in range(1, factor):
            row = rows[out_y * factor + k]
            for i in range(width * 3):
                column_sums[i] += row[i]
        for out_x in range(out_width):
            i = out_x * factor * 3
            blue = green = red = 0
            for _ in range(factor):
                blue += column_sums[i]
                green += column_sums[i + 1]
                red += column_sums[i + 2]
                i += 3
            out[out_y, out_x * 3] = rounded[blue]
            out[out_y, out_x * 3 + 1] = rounded[green]
            out[out_y, out_x * 3 + 2] = rounded[red]
    return out.reshape(out_height, out_width, 3)


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def _region_shapes(variances: np.ndarray, areas: np.ndarray, sides: np.ndarray):
    """Each region's compactness (its area over 12 root-determinants of its covariance: 1
    for a filled square), elongation (the root of its covariance's eigenvalue ratio) and
    whitening (see regions.whitening), from its variances (K, 3: xx, yy, xy about its
    centroid), area and sticker side."""
    count = len(areas)
    compact, elongation = np.empty(count), np.empty(count)
    whiten = np.empty((count, 2, 2))
    for i in range(count):
        a, c, b = variances[i, 0], variances[i, 1], variances[i, 2]
        det = max(a * c - b * b, 1e-9)
        compact[i] = areas[i] / (12.0 * np.sqrt(det))
        half_trace = (a + c) / 2
        disc = np.sqrt(max(half_trace * half_trace - det, 0.0))
        elongation[i] = np.sqrt((half_trace + disc) / max(half_trace - disc, 1e-9))
        # cov^(-1/2) = adj(cov + s I) / (s t), s = sqrt(det cov), t = sqrt(trace + 2 s).
        s = np.sqrt(a * c - b * b)
        t = np.sqrt(a + c + 2 * s)
        scale = np.sqrt(areas[i] / 12.0) / (sides[i] * s * t)  # a unit square's variance: 1/12
        whiten[i, 0, 0], whiten[i, 0, 1] = (c + s) * scale, -b * scale
        whiten[i, 1, 0], whiten[i, 1, 1] = -b * scale, (a + s) * scale
    return compact, elongation, whiten


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def level_percentiles(image: np.ndarray, step: int, percents: np.ndarray) -> np.ndarray:
    """``np.percentile`` (linear interpolation between the neighbouring ranks, from the
    nearer one as NumPy interpolates) of an 8-bit image's every ``step``-th pixel along
    both axes, read off the histogram of its levels."""
    counts = np.zeros(256, np.int64)
    for y in range(0, image.shape[0], step):
        for x in range(0, image.shape[1], step):
            counts[image[y, x]] += 1
    # Running sums and their look-ups as loops: np.cumsum and np.searchsorted each cost a
    # compile of their own (a quarter of a second together with their helpers).
    cumulative = np.empty(256, np.int64)
    total = 0
    for level in range(256):
        total += counts[level]
        cumulative[level] = total
    last = total - 1
    out = np.empty(len(percents))
    for i in range(len(percents)):
        place = last * (percents[i] / 100)
        below = int(np.floor(place))
        above = min(below + 1, last)
        out[i] = _interpolated(
            _levels_up_to(cumulative, below), _levels_up_to(cumulative, above), place - below
        )
    return out


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def _levels_up_to(cumulative: np.ndarray, rank: int) -> float:
    """The level of the pixel at ``rank`` (from 0, in order of level) given the running
    pixel counts per level: the number of levels whose running count is at most ``rank``
    (``np.searchsorted(cumulative, rank, side="right")``)."""
    level = 0
    while level < len(cumulative) and cumulative[level] <= rank:
        level += 1
    return float(level)
