"""Exact distances over corners x U-D edges in phase 2, reduced by the 16 UD symmetries.

In phase 2 (the cube in ``<U, D, R2, L2, F2, B2>``) the corner permutation (40,320) and
the permutation of the eight U and D edges (40,320) are solved together; the slice edges
are bounded apart (``prune_corners_slice_perm``). The 40,320 corner permutations fall
into 2,768 classes under the 16 symmetries, which keep the phase-2 moves, so the table
has 2,768 x 40,320 = 111,605,760 entries, each the distance mod 3 in 2 bits (28 MB),
built and read as described in :mod:`cubescan.solver.symtable`.

Examples
--------
>>> N_CORNER_CLASSES * coords.N_UD_EDGES
111605760
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
from numba import njit

from cubescan.solver import coords
from cubescan.solver.symmetry import conjugation_table
from cubescan.solver.symtable import mod3_at, mod3_distance_table, symmetry_classes

N_CORNER_CLASSES = 2768
"""Corner permutations up to the 16 UD symmetries."""

PHASE2_TABLE_NAMES = (
    "corners_class",
    "corners_sym",
    "corners_stabilizer",
    "ud_edges_conj",
    "phase2_mod3",
)
"""The arrays :func:`build_phase2_tables` makes."""

_MOVES = np.array(coords.PHASE2_MOVES, dtype=np.int64)


def build_phase2_tables(
    move_corners: np.ndarray,
    move_ud_edges: np.ndarray,
    on_level: Callable[[int], None] | None = None,
) -> dict[str, np.ndarray]:
    """Build the corner classes and the mod-3 distance table of phase 2.

    Parameters
    ----------
    move_corners, move_ud_edges
        Move tables ``(40320, 18)`` of the corner permutation and of the U-D edges
        (only the phase-2 columns of the latter are read).
    on_level
        Called with each distance as the breadth-first search finishes it.

    Returns
    -------
    dict of str to numpy.ndarray
        ``corners_class`` (uint16), ``corners_sym`` (uint8) per corner permutation,
        ``corners_stabilizer`` (uint16) per class, ``ud_edges_conj`` (uint16,
        ``(40320, 16)``) and ``phase2_mod3`` (uint8, packed as
        :func:`cubescan.solver.symtable.mod3_distance_table` packs).

    Examples
    --------
    >>> from cubescan.solver.tables import load_tables
    >>> t = load_tables()
    >>> int(t["corners_class"].max()) + 1 == N_CORNER_CLASSES
    True
    """
    classes = symmetry_classes(conjugation_table(move_corners, moves=coords.PHASE2_MOVES))
    ud_conj = conjugation_table(move_ud_edges, moves=coords.PHASE2_MOVES)
    reps = classes["rep"]
    moved = move_corners[reps][:, list(coords.PHASE2_MOVES)]
    packed = mod3_distance_table(
        classes["class"][moved],
        classes["sym"][moved],
        coords.PHASE2_MOVES,
        classes["stabilizer"],
        move_ud_edges,
        ud_conj,
        on_level,
    )
    return {
        "corners_class": classes["class"].astype(np.uint16),
        "corners_sym": classes["sym"].astype(np.uint8),
        "corners_stabilizer": classes["stabilizer"].astype(np.uint16),
        "ud_edges_conj": ud_conj.astype(np.uint16),
        "phase2_mod3": packed,
    }


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def entry_index(corners, ud_edges, corners_class, corners_sym, ud_edges_conj):
    """Index in the phase-2 table of the state with these coordinates.

    Parameters
    ----------
    corners, ud_edges
        Phase-2 coordinates (0..40319 each).
    corners_class, corners_sym, ud_edges_conj
        Arrays from :func:`build_phase2_tables`.

    Returns
    -------
    int
        ``class * 40320 + conjugated ud_edges``.

    Examples
    --------
    >>> from cubescan.solver.tables import load_tables
    >>> t = load_tables()
    >>> int(entry_index(0, 0, t["corners_class"], t["corners_sym"], t["ud_edges_conj"]))
    0
    """
    return np.int64(corners_class[corners]) * 40320 + ud_edges_conj[ud_edges, corners_sym[corners]]


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def exact_distance(
    corners, ud_edges, packed, corners_class, corners_sym, ud_edges_conj, move_corners, move_ud
):
    """Fewest phase-2 moves that solve corners and U-D edges (a walk down to 0).

    Parameters
    ----------
    corners, ud_edges
        Phase-2 coordinates.
    packed, corners_class, corners_sym, ud_edges_conj
        Arrays from :func:`build_phase2_tables`.
    move_corners, move_ud
        Move tables of the two coordinates.

    Returns
    -------
    int
        The distance (at most 18).

    Examples
    --------
    >>> from cubescan.solver.tables import load_tables
    >>> t = load_tables()
    >>> names = ("phase2_mod3", "corners_class", "corners_sym", "ud_edges_conj",
    ...          "move_corners", "move_ud_edges")
    >>> u = int(t["move_corners"][0, 0]), int(t["move_ud_edges"][0, 0])  # after U
    >>> int(exact_distance(*u, *(t[n] for n in names)))
    1
    """
    index = entry_index(corners, ud_edges, corners_class, corners_sym, ud_edges_conj)
    value = mod3_at(packed, index)
    steps = 0
    while corners != 0 or ud_edges != 0:
        lower = (value + 2) % 3
        for m in _MOVES:
            c2 = move_corners[corners, m]
            e2 = move_ud[ud_edges, m]
            index = entry_index(c2, e2, corners_class, corners_sym, ud_edges_conj)
            if mod3_at(packed, index) == lower:
                corners, ud_edges = c2, e2
                break
        value = lower
        steps += 1
    return steps


def distance(tables: Mapping[str, np.ndarray], corners: int, ud_edges: int) -> int:
    """Exact phase-2 distance of corners and U-D edges together (slice edges ignored).

    Parameters
    ----------
    tables
        The solver's tables (:func:`cubescan.solver.tables.load_tables`).
    corners, ud_edges
        Corner permutation and U-D edge permutation coordinates (0..40319 each).

    Returns
    -------
    int
        Fewest phase-2 moves that bring both to 0.

    Examples
    --------
    >>> from cubescan.solver.tables import load_tables
    >>> t = load_tables()
    >>> distance(t, int(t["move_corners"][0, 1]), int(t["move_ud_edges"][0, 1]))  # U2
    1
    """
    return int(
        exact_distance(
            corners,
            ud_edges,
            tables["phase2_mod3"],
            tables["corners_class"],
            tables["corners_sym"],
            tables["ud_edges_conj"],
            tables["move_corners"],
            tables["move_ud_edges"],
        )
    )
