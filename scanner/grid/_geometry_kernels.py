"""Compiled inner loops of :mod:`cubescan.scanner.grid.geometry` (numba).

Kept apart from the stage's logic so that it reads as the algorithm, and so that numba's
on-disk cache, which is keyed to the source file, survives edits of the stage.
Each function is a plain loop over NumPy arrays; the stage documents what it is for.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def on_one_line(coords: np.ndarray) -> bool:
    """True when all the (integer) coords lie on one line, or are one point: exactly where
    their centred matrix has rank below two."""
    for b in range(1, len(coords)):
        dx, dy = coords[b, 0] - coords[0, 0], coords[b, 1] - coords[0, 1]
        if dx != 0 or dy != 0:
            for i in range(len(coords)):
                if (coords[i, 0] - coords[0, 0]) * dy - (coords[i, 1] - coords[0, 1]) * dx != 0:
                    return False
            return True
    return True


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def _on_one_line_but_one(coords: np.ndarray) -> bool:
    count = len(coords)
    if count < 4:
        return True
    # Such a line holds two of any three coords: try the lines through pairs of the first
    # three (integer coords, so the collinearity test is exact).
    for a, b in ((0, 1), (0, 2), (1, 2)):
        dx, dy = coords[b, 0] - coords[a, 0], coords[b, 1] - coords[a, 1]
        on_line = 0
        for i in range(count):
            if (coords[i, 0] - coords[a, 0]) * dy - (coords[i, 1] - coords[a, 1]) * dx == 0:
                on_line += 1
        if on_line >= count - 1:
            return True
    return False
