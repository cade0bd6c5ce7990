"""Compiled inner loops of :mod:`cubescan.scanner.grid.rejection` (numba).

Kept apart from the stage's logic so that it reads as the algorithm, and so that numba's
on-disk cache, which is keyed to the source file, survives edits of the stage.
Each function is a plain loop over NumPy arrays; the stage documents what it is for.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def _doubled_angle_sums(gx: np.ndarray, gy: np.ndarray, judged: np.ndarray):
    """Sums over the judged pixels (mask (H, W)) and all channels of the gradients' doubled
    angles (gx + i gy)^2, as (sine, cosine) of those across the columns (cosine >= 0), then
    (sine, cosine) of all (see rejection.edge_turns). Products are float32, sums float64."""
    two = np.float32(2.0)
    sine_columns = cosine_columns = sine_all = cosine_all = 0.0
    height, width, channels = gx.shape
    for y in range(height):
        for x in range(width):
            if not judged[y, x]:
                continue
            for c in range(channels):
                dx, dy = gx[y, x, c], gy[y, x, c]
                cosine, sine = dx * dx - dy * dy, two * dx * dy
                sine_all += sine
                cosine_all += cosine
                if cosine >= 0:
                    sine_columns += sine
                    cosine_columns += cosine
    return sine_columns, cosine_columns, sine_all, cosine_all
