"""Compiled inner loops of :mod:`cubescan.scanner.grid.windows` (numba).

Kept apart from the stage's logic so that it reads as the algorithm, and so that numba's
on-disk cache, which is keyed to the source file, survives edits of the stage.
Each function is a plain loop over NumPy arrays; the stage documents what it is for.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cubescan.scanner.grid._kernels import _lattice_shapes, _project


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def _block_cells(inverse, centers, whiten, lo, hi):
    """:func:`_merged_cells` over all regions, given the image -> lattice map."""
    middle = _project(centers, inverse)
    index = np.array(
        [
            i
            for i in range(len(centers))
            if lo[0] - 0.5 < middle[i, 0] < hi[0] + 0.5 and lo[1] - 0.5 < middle[i, 1] < hi[1] + 0.5
        ],
        np.int64,
    )
    here, shape = _lattice_shapes(inverse, centers[index], whiten[index])
    cells = []
    middles = []
    for k in range(len(index)):
        # The shape's rows give the block's extent along each lattice axis (a sticker: 1 x 1).
        width = np.sqrt(shape[k, 0, 0] ** 2 + shape[k, 0, 1] ** 2)
        height = np.sqrt(shape[k, 1, 0] ** 2 + shape[k, 1, 1] ** 2)
        columns, rows = np.rint(width), np.rint(height)
        first_col = here[k, 0] - (columns - 1) / 2  # the block's first cell
        first_row = here[k, 1] - (rows - 1) / 2
        fits = (
            abs(width - columns) < 0.3
            and abs(height - rows) < 0.3
            and 1 <= columns <= 3
            and 1 <= rows <= 3
            and columns * rows >= 2
            and abs(first_col - np.rint(first_col)) < 0.25
            and abs(first_row - np.rint(first_row)) < 0.25
        )
        if fits:
            for dr in range(int(rows)):
                for dc in range(int(columns)):
                    cells.append((int(np.rint(first_col)) + dc, int(np.rint(first_row)) + dr))
                    middles.append((here[k, 0], here[k, 1]))
    out_cells = np.zeros((len(cells), 2), np.int64)
    out_middles = np.zeros((len(cells), 2))
    for k in range(len(cells)):
        out_cells[k, 0], out_cells[k, 1] = cells[k]
        out_middles[k, 0], out_middles[k, 1] = middles[k]
    return out_cells, out_middles


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def _windows(coords, blocks, middles, lo, extent, sizes):
    """The N x N windows over a lattice where enough stickers were seen (see _best_window).

    For each N in ``sizes``, every window between flush with the lattice's low and its high
    end on each axis, by the origin's x, then its y. A window is kept when it covers
    nearly all the lattice's regions (``coords``; or a region in each of its N x N cells,
    with a few strays left out, two always; or, for N >= 3, in all but one,
    with one stray left out), when its cells with a sticker seen (the regions it covers,
    and the cells of merged blocks centred in it: ``blocks`` with their ``middles``) are at
    least three and 0.6 of its cells, and when every row and column has one (an empty one
    is the window hanging past the face, or past a keyboard). Returns each kept window's
    objective (regions covered, less half a region for each empty cell and two for each
    region left out), N, origin (K, 2) and mask of cells with a sticker seen (K, 7, 7), the
    mask's top-left N x N block in use.
    """
    total = len(coords)
    bound = 0
    for n in sizes:
        bound += (abs(extent[0] - n) + 1) * (abs(extent[1] - n) + 1)
    objectives = np.empty(bound)
    sizes_kept = np.empty(bound, np.int64)
    origins = np.empty((bound, 2), np.int64)
    supports = np.zeros((bound, 7, 7), np.bool_)
    kept = 0
    for n in sizes:
        x_ends = (lo[0], lo[0] + extent[0] - n)
        y_ends = (lo[1], lo[1] + extent[1] - n)
        for ox in range(min(x_ends), max(x_ends) + 1):
            for oy in range(min(y_ends), max(y_ends) + 1):
                support = supports[kept]
                covered = 0
                for i in range(total):
                    x, y = coords[i, 0] - ox, coords[i, 1] - oy
                    if 0 <= x < n and 0 <= y < n:
                        covered += 1
                        support[y, x] = True
                # Nearly all the lattice, or a full N x N of it with a few look-alike strays
                # (two objects beside a 3x3 are a sixth of its lattice; beside a 2x2, a third,
                # so a 2x2's are judged by their size, see windows.leaves_out_its_own), or all
                # but one cell (a finger over it) of an N >= 3 with one stray.
                full = (covered == n * n and (covered >= 0.85 * total or total - covered <= 2)) or (
                    covered + 1 == total and covered >= n * n - (n >= 3)
                )
                most = covered >= 0.9 * total or full
                if not (most and covered + len(blocks) >= 0.6 * n * n):
                    support[:] = False
                    continue
                for j in range(len(blocks)):
                    x, y = blocks[j, 0] - ox, blocks[j, 1] - oy
                    mx, my = middles[j, 0] - ox, middles[j, 1] - oy
                    if 0 <= x < n and 0 <= y < n and -0.5 < mx < n - 0.5 and -0.5 < my < n - 0.5:
                        support[y, x] = True
                count = 0
                rows_seen = 0
                cols_seen = 0
                for r in range(n):
                    row_count = 0
                    col_count = 0
                    for c in range(n):
                        row_count += support[r, c]
                        col_count += support[c, r]
                    count += row_count
                    rows_seen += row_count > 0
                    cols_seen += col_count > 0
                # A 2x2 may have one sticker unseen (under a finger): its three are judged
                # on their pixels later.
                if count < max(3, 0.6 * n * n) or rows_seen < n or cols_seen < n:
                    support[:] = False
                    continue
                objectives[kept] = covered - 0.5 * (n * n - covered) - 2.0 * (total - covered)
                sizes_kept[kept] = n
                origins[kept, 0], origins[kept, 1] = ox, oy
                kept += 1
    return objectives[:kept], sizes_kept[:kept], origins[:kept], supports[:kept]
