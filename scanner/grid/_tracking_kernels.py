"""Compiled inner loops of :mod:`cubescan.scanner.grid.tracking` (numba).

Kept apart from the stage's logic so that it reads as the algorithm, and so that numba's
on-disk cache, which is keyed to the source file, survives edits of the stage.
Each function is a plain loop over NumPy arrays; the stage documents what it is for.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cubescan.scanner.grid._kernels import (
    _elongation,
    _inverse,
    _lattice_shapes,
    _nearest,
    _pitch_cell_areas,
    _project,
    _sort_in_place,
    _sorted_median,
)


@njit(cache=True, nogil=True, error_model="numpy")
def _sticker_matches(
    lattice_h: np.ndarray,
    coords: np.ndarray,
    centers: np.ndarray,
    whiten: np.ndarray,
    areas: np.ndarray,
    reach: float,
    max_aspect: float,
    max_area_ratio: float,
) -> tuple[np.ndarray, np.ndarray]:
    """For each lattice cell (``coords``): whether a region matches it (nearest its middle
    within ``reach`` pitches, square in the lattice within ``max_aspect``, its share of the
    cell's area within ``max_area_ratio`` of the matches' median share, and no earlier cell
    matched to it), and its nearest region."""
    count = len(coords)
    dist, nearest = _nearest(_project(coords, lattice_h), centers)
    cell_areas = _pitch_cell_areas(coords, lattice_h)
    # (Gathered and masked in loops: numba takes seconds to compile fancy indexing.)
    near_centers, near_whiten = np.empty((count, 2)), np.empty((count, 2, 2))
    for i in range(count):
        j = nearest[i]
        near_centers[i, 0], near_centers[i, 1] = centers[j, 0], centers[j, 1]
        near_whiten[i, 0, 0], near_whiten[i, 0, 1] = whiten[j, 0, 0], whiten[j, 0, 1]
        near_whiten[i, 1, 0], near_whiten[i, 1, 1] = whiten[j, 1, 0], whiten[j, 1, 1]
    _, shape = _lattice_shapes(_inverse(lattice_h), near_centers, near_whiten)
    aspect = _elongation(shape)
    seen = np.zeros(count, np.bool_)
    share, shares = np.empty(count), np.empty(count)
    seen_count = 0
    for i in range(count):
        share[i] = areas[nearest[i]] / cell_areas[i]
        seen[i] = dist[i] < reach * np.sqrt(cell_areas[i]) and aspect[i] < max_aspect
        if seen[i]:
            shares[seen_count] = share[i]
            seen_count += 1
    shares = shares[:seen_count]
    _sort_in_place(shares)
    typical = _sorted_median(shares) if seen_count else 0.0
    matched = np.zeros(count, np.bool_)
    taken = np.zeros(len(centers), np.bool_)
    for i in range(count):
        sized = typical / max_area_ratio < share[i] < typical * max_area_ratio
        if seen[i] and sized and not taken[nearest[i]]:
            matched[i], taken[nearest[i]] = True, True
    return matched, nearest
