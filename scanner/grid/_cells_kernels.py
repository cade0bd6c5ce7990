"""Compiled inner loops of :mod:`cubescan.scanner.grid.cells` (numba).

Kept apart from the stage's logic so that it reads as the algorithm, and so that numba's
on-disk cache, which is keyed to the source file, survives edits of the stage.
Each function is a plain loop over NumPy arrays; the stage documents what it is for.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cubescan.scanner.grid._kernels import _interpolated, _sort_in_place, _sorted_median


# The glare kernels use loops, not NumPy's reductions: numba spends a quarter of a second
# compiling each reduction (once per machine; the cache keeps the result).
@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def _glared_cells(pixels: np.ndarray, max_spread: float, min_chroma: float) -> np.ndarray:
    """Which cells (pixels (n, n, 16, 3) Lab) are one flat colour under a glare spot (see
    cells.flat_under_glare): each cell's pixels are ordered by lightness (stably, as NumPy's argsort
    of 8-bit values is), then judged on their darker half and lightest quarter, or as
    washed out (:func:`_washed_cell`)."""
    rows, cols, count = pixels.shape[0], pixels.shape[1], pixels.shape[2]
    half, quarter = count // 2, count - count // 4
    glared = np.zeros((rows, cols), np.bool_)
    cell = np.empty((count, 3))
    for i in range(rows):
        for j in range(cols):
            order = _stable_order(pixels[i, j, :, 0])
            for k in range(count):
                for c in range(3):
                    cell[k, c] = pixels[i, j, order[k], c]
            darker_chroma = 0.0
            for k in range(half):
                darker_chroma += np.hypot(cell[k, 1] - 128.0, cell[k, 2] - 128.0)
            lightest_chroma = 0.0
            for k in range(quarter, count):
                lightest_chroma += np.hypot(cell[k, 1] - 128.0, cell[k, 2] - 128.0)
            lighter = _mean(cell[quarter:, 0]) - _mean(cell[:half, 0])
            glared[i, j] = (
                _channel_spread(cell[:half]) < max_spread
                and lighter > max_spread
                and lightest_chroma / (count - quarter) < darker_chroma / half
            ) or _washed_cell(cell, max_spread, min_chroma)
    return glared


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def _stable_order(values: np.ndarray) -> np.ndarray:
    """Indices that sort a few values, ties kept in their order (an insertion sort: numba's
    own stable argsort takes a second to compile)."""
    order = np.empty(len(values), np.int64)
    for a in range(len(values)):
        order[a] = a
    for a in range(1, len(values)):
        index = order[a]
        b = a - 1
        while b >= 0 and values[order[b]] > values[index]:
            order[b + 1] = order[b]
            b -= 1
        order[b + 1] = index
    return order


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def _washed_cells(ordered: np.ndarray, max_spread: float, min_chroma: float) -> np.ndarray:
    """:func:`_washed_cell` of each cell (pixels (n, n, 16, 3) Lab, darkest first)."""
    washed = np.zeros(ordered.shape[:2], np.bool_)
    for i in range(ordered.shape[0]):
        for j in range(ordered.shape[1]):
            washed[i, j] = _washed_cell(ordered[i, j], max_spread, min_chroma)
    return washed


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def _washed_cell(cell: np.ndarray, max_spread: float, min_chroma: float) -> bool:
    """Whether a cell's pixels (16, 3) Lab, darkest first, are a coloured sticker washed out
    by glare over much of its patch (see cells.washed_by_glare): the darkest quarter is flat and
    coloured, every pixel keeps its hue, and the lightest is much lighter."""
    count = len(cell)
    base = cell[: count // 4]
    margin = max_spread / 2
    base_a = _mean(base[:, 1]) - 128.0
    base_b = _mean(base[:, 2]) - 128.0
    chroma = np.hypot(base_a, base_b)
    if not (_channel_spread(base) < margin and chroma > min_chroma):
        return False
    if cell[count - 1, 0] - _mean(base[:, 0]) <= max_spread:
        return False
    hue_a, hue_b = base_a / chroma, base_b / chroma
    for k in range(count):
        a, b = cell[k, 1] - 128.0, cell[k, 2] - 128.0
        along = a * hue_a + b * hue_b
        across = np.hypot(a - along * hue_a, b - along * hue_b)
        if not (across < margin and -margin < along < chroma + margin):
            return False
    return True


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def _channel_spread(pixels: np.ndarray) -> float:
    """The largest range (max - min) of any channel over the pixels (K, 3)."""
    spread = 0.0
    for c in range(pixels.shape[1]):
        low = high = pixels[0, c]
        for k in range(1, len(pixels)):
            low, high = min(low, pixels[k, c]), max(high, pixels[k, c])
        spread = max(spread, high - low)
    return spread


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def _mean(values: np.ndarray) -> float:
    """The mean of the values (one channel of some pixels: a column, not a channel number,
    which numba would compile once for each literal channel)."""
    total = 0.0
    for k in range(len(values)):
        total += values[k]
    return total / len(values)


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def inner_patch_statistics(patch: np.ndarray, n: int, cell_px: int):
    """Of each cell of a rectified n x n face (``patch``: (n * cell_px, n * cell_px, 3)
    8-bit), the pixels of its inner patch (all but a border of two pixels), (n, n, K, 3);
    their median per channel (n, n, 3) float32; and their spread, the largest over the
    channels of the interquartile range (quartiles interpolated linearly between ranks, as
    ``np.percentile`` does), (n, n)."""
    side = cell_px - 4
    count = side * side
    inner = np.empty((n, n, count, 3), np.uint8)
    median = np.empty((n, n, 3), np.float32)
    spread = np.zeros((n, n))
    ordered = np.empty(count)
    last = count - 1
    for row in range(n):
        for col in range(n):
            for k in range(count):
                y, x = row * cell_px + 2 + k // side, col * cell_px + 2 + k % side
                for c in range(3):
                    inner[row, col, k, c] = patch[y, x, c]
            for c in range(3):
                for k in range(count):
                    ordered[k] = inner[row, col, k, c]
                _sort_in_place(ordered)
                median[row, col, c] = _sorted_median(ordered)
                q25 = _rank(ordered, last * 0.25)
                q75 = _rank(ordered, last * 0.75)
                spread[row, col] = max(spread[row, col], q75 - q25)
    return inner, median, spread


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def _rank(ordered: np.ndarray, place: float) -> float:
    """The value at a fractional rank of sorted values, linearly interpolated."""
    below = int(np.floor(place))
    above = min(below + 1, len(ordered) - 1)
    return _interpolated(ordered[below], ordered[above], place - below)
