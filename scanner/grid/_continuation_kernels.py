"""Compiled inner loops of :mod:`cubescan.scanner.grid.continuation` (numba).

Kept apart from the stage's logic so that it reads as the algorithm, and so that numba's
on-disk cache, which is keyed to the source file, survives edits of the stage.
Each function is a plain loop over NumPy arrays; the stage documents what it is for.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cubescan.scanner.grid._kernels import (
    _cell_quads,
    _elongation,
    _inverse,
    _lattice_shapes,
    _quad_areas,
)


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def ring_squares(
    ring: np.ndarray,
    n: int,
    homography: np.ndarray,
    centers: np.ndarray,
    whiten: np.ndarray,
    box_fill: np.ndarray,
    max_aspect: float,
    max_squash: float,
    max_fill_difference: float,
) -> np.ndarray:
    """For each cell of the rings around an n x n window (``ring``, lattice coords) and the
    region nearest it (``centers``, ``whiten``, ``box_fill``: one per cell): whether that
    region is a square of the lattice there (see continuation._lattice_continues). Its shape in
    lattice units is square within ``max_aspect``; not squashed across the window's side
    (narrower across it than along it by ``max_squash``), as the next face of a cube is where
    it bends away; and it fills its bounding box as the lattice's cell there fills its own
    (within ``max_fill_difference``), as tiles and keys lined up with the lattice do."""
    _, shape = _lattice_shapes(_inverse(homography), centers, whiten)
    square = _elongation(shape) < max_aspect
    quads = _cell_quads(ring, homography)
    areas = _quad_areas(quads)
    for i in range(len(ring)):
        along_x = np.sqrt(shape[i, 0, 0] ** 2 + shape[i, 0, 1] ** 2)
        along_y = np.sqrt(shape[i, 1, 0] ** 2 + shape[i, 1, 1] ** 2)
        across_rows = ring[i, 1] < 0 or ring[i, 1] >= n
        across_cols = ring[i, 0] < 0 or ring[i, 0] >= n
        if across_rows and not across_cols and along_y * max_squash < along_x:
            square[i] = False
        if across_cols and not across_rows and along_x * max_squash < along_y:
            square[i] = False
        low_x = high_x = quads[4 * i, 0]
        low_y = high_y = quads[4 * i, 1]
        for k in range(4 * i + 1, 4 * i + 4):
            low_x, high_x = min(low_x, quads[k, 0]), max(high_x, quads[k, 0])
            low_y, high_y = min(low_y, quads[k, 1]), max(high_y, quads[k, 1])
        box = (high_x - low_x) * (high_y - low_y)
        if not abs(box_fill[i] - areas[i] / max(box, 1e-9)) < max_fill_difference:
            square[i] = False
    return square
