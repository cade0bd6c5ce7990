"""Compiled inner loops of :mod:`cubescan.scanner.grid.quads` (numba).

Kept apart from the stage's logic so that it reads as the algorithm, and so that numba's
on-disk cache, which is keyed to the source file, survives edits of the stage.
Each function is a plain loop over NumPy arrays; the stage documents what it is for.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def _suppressed(order: np.ndarray, centers: np.ndarray, sides: np.ndarray) -> np.ndarray:
    """Indices kept by :func:`cubescan.scanner.grid._suppress`, in ``order``: each blocks the others
    within 0.4 of the smaller side of the two (brute force over a few hundred)."""
    count = len(order)
    blocked = np.zeros(count, np.bool_)
    kept = np.empty(count, np.int64)
    total = 0
    for index in order:
        if blocked[index]:
            continue
        kept[total] = index
        total += 1
        for j in range(count):
            dx = centers[j, 0] - centers[index, 0]
            dy = centers[j, 1] - centers[index, 1]
            if np.sqrt(dx * dx + dy * dy) <= 0.4 * min(sides[j], sides[index]):
                blocked[j] = True
    return kept[:total]
