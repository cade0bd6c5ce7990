"""Exact phase-1 distances: flip x slice x twist, reduced by the 16 UD symmetries.

Phase 1 of the two-phase algorithm ends when twist, flip and slice are all 0. Its
exact distance is a function of those three coordinates, 2,187 x 2,048 x 495 = 2.2
billion states, too many to store. The 16 symmetries that keep the UD axis
(:mod:`cubescan.solver.symmetry`) keep the distance, so the flip-slice pairs (1,013,760)
fall into 64,430 classes: each pair is a symmetry's image of its class's
representative, and a state ``(flip-slice, twist)`` has the same distance as
``(representative, twist conjugated by that symmetry)``. One entry per class and twist
gives 140,908,410 entries.

Each entry holds the distance mod 3 in 2 bits (35 MB); the table is built and read as
described in :mod:`cubescan.solver.symtable`. A search knows the exact distance of the
state it expands, so a neighbour's value mod 3 gives the neighbour's exact distance;
the start of a search walks down to 0 once (:func:`exact_distance`) to learn its own.

Examples
--------
>>> from cubescan.solver.tables import load_tables
>>> from cubescan.solver.cubie import move_cubie
>>> from cubescan.solver.moves import Move
>>> r = move_cubie(Move("R"))
>>> distance(load_tables(), coords.twist(r), coords.flip(r), coords.slice_sorted(r) // 24)
1
>>> N_ENTRIES
140908410
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
from numba import njit

from cubescan.solver import coords
from cubescan.solver.symmetry import conjugation_table
from cubescan.solver.symtable import mod3_at, mod3_distance_table, symmetry_classes

N_FLIPSLICE = coords.N_SLICE * coords.N_FLIP
"""Flip-slice pairs ``slice * 2048 + flip``."""

N_FLIPSLICE_CLASSES = 64430
"""Flip-slice classes under the 16 UD symmetries."""

N_ENTRIES = N_FLIPSLICE_CLASSES * coords.N_TWIST
"""Entries of the distance table: one per class and twist."""

PHASE1_TABLE_NAMES = (
    "flipslice_class",
    "flipslice_sym",
    "flipslice_rep",
    "flipslice_stabilizer",
    "twist_conj",
    "phase1_mod3",
)
"""The arrays :func:`build_phase1_tables` makes."""


def flipslice_classes(move_slice: np.ndarray, move_flip: np.ndarray) -> dict[str, np.ndarray]:
    """The symmetry classes of the flip-slice pairs.

    Parameters
    ----------
    move_slice, move_flip
        Move tables ``(495, 18)`` of the slice coordinate (``slice_sorted // 24``) and
        ``(2048, 18)`` of the flip.

    Returns
    -------
    dict of str to numpy.ndarray
        ``flipslice_class`` (uint16, per pair ``slice * 2048 + flip``: its class),
        ``flipslice_sym`` (uint8: a symmetry whose conjugation takes the pair to its
        class's representative), ``flipslice_rep`` (uint32, per class: the smallest pair
        in it) and ``flipslice_stabilizer`` (uint16, per class: bit ``s`` set when
        symmetry ``s`` keeps the representative).

    Examples
    --------
    >>> from cubescan.solver.coords import flip_move_table, edge4_move_table, SLICE_EDGES
    >>> move_slice = edge4_move_table(SLICE_EDGES)[::24] // 24
    >>> classes = flipslice_classes(move_slice, flip_move_table())  # doctest: +SKIP
    >>> len(classes["flipslice_rep"])  # doctest: +SKIP
    64430
    """
    classes = symmetry_classes(conjugation_table(move_slice, move_flip))
    return {
        "flipslice_class": classes["class"].astype(np.uint16),
        "flipslice_sym": classes["sym"].astype(np.uint8),
        "flipslice_rep": classes["rep"].astype(np.uint32),
        "flipslice_stabilizer": classes["stabilizer"].astype(np.uint16),
    }


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def entry_index(twist, flip, slice_, flipslice_class, flipslice_sym, twist_conj):
    """Index in the distance table of the state with these phase-1 coordinates.

    Parameters
    ----------
    twist, flip, slice_
        Coordinates (``slice_`` is ``slice_sorted // 24``, 0..494).
    flipslice_class, flipslice_sym, twist_conj
        Arrays from :func:`build_phase1_tables`.

    Returns
    -------
    int
        ``class * 2187 + conjugated twist``.

    Examples
    --------
    >>> from cubescan.solver.tables import load_tables
    >>> t = load_tables()  # doctest: +SKIP
    >>> int(entry_index(0, 0, 0, t["flipslice_class"], t["flipslice_sym"], t["twist_conj"]))
    ... # doctest: +SKIP
    0
    """
    pair = slice_ * 2048 + flip
    return np.int64(flipslice_class[pair]) * 2187 + twist_conj[twist, flipslice_sym[pair]]


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def exact_distance(
    twist,
    flip,
    slice_,
    packed,
    flipslice_class,
    flipslice_sym,
    twist_conj,
    move_twist,
    move_flip,
    move_slice,
):
    """Exact phase-1 distance, found by walking down the mod-3 table to 0.

    From a state at distance ``d`` some move leads to distance ``d - 1``, the only
    neighbour whose stored value is ``(d - 1) mod 3``; the walk takes such moves until
    the coordinates are 0 and counts them.

    Parameters
    ----------
    twist, flip, slice_
        The coordinates (``slice_`` 0..494).
    packed, flipslice_class, flipslice_sym, twist_conj
        Arrays from :func:`build_phase1_tables`.
    move_twist, move_flip, move_slice
        Move tables of the three coordinates.

    Returns
    -------
    int
        Fewest moves that bring twist, flip and slice to 0 (0..12).

    Examples
    --------
    >>> from cubescan.solver.tables import load_tables
    >>> t = load_tables()  # doctest: +SKIP
    >>> names = ("phase1_mod3", "flipslice_class", "flipslice_sym", "twist_conj",
    ...          "move_twist", "move_flip", "move_slice")
    >>> int(exact_distance(1494, 0, 0, *(t[n] for n in names)))  # doctest: +SKIP
    1
    """
    index = entry_index(twist, flip, slice_, flipslice_class, flipslice_sym, twist_conj)
    value = mod3_at(packed, index)
    steps = 0
    while twist != 0 or flip != 0 or slice_ != 0:
        lower = (value + 2) % 3
        for m in range(18):
            t2 = move_twist[twist, m]
            f2 = move_flip[flip, m]
            s2 = move_slice[slice_, m]
            index = entry_index(t2, f2, s2, flipslice_class, flipslice_sym, twist_conj)
            if mod3_at(packed, index) == lower:
                twist, flip, slice_ = t2, f2, s2
                break
        value = lower
        steps += 1
    return steps


def build_phase1_tables(
    move_twist: np.ndarray,
    move_flip: np.ndarray,
    move_slice: np.ndarray,
    on_level: Callable[[int], None] | None = None,
) -> dict[str, np.ndarray]:
    """Build the symmetry classes and the mod-3 distance table.

    Parameters
    ----------
    move_twist, move_flip, move_slice
        Move tables ``(2187, 18)``, ``(2048, 18)`` and ``(495, 18)``.
    on_level
        Called with each distance as the breadth-first search finishes it.

    Returns
    -------
    dict of str to numpy.ndarray
        The arrays named in :data:`PHASE1_TABLE_NAMES`: those of
        :func:`flipslice_classes`, ``twist_conj`` (uint16, ``(2187, 16)``: the twist
        conjugated by each symmetry) and ``phase1_mod3`` (uint8, the distances mod 3,
        entry ``i`` in bits ``2 * (i % 4)`` of byte ``i // 4``).

    Examples
    --------
    >>> from cubescan.solver.tables import load_tables
    >>> t = load_tables()  # doctest: +SKIP
    >>> built = build_phase1_tables(t["move_twist"], t["move_flip"], t["move_slice"])
    ... # doctest: +SKIP
    >>> built["phase1_mod3"].nbytes  # doctest: +SKIP
    35227103
    """
    out = flipslice_classes(move_slice, move_flip)
    out["twist_conj"] = conjugation_table(move_twist).astype(np.uint16)
    reps = out["flipslice_rep"].astype(np.int64)
    moved = (
        move_slice[reps // coords.N_FLIP].astype(np.int64) * coords.N_FLIP
        + move_flip[reps % coords.N_FLIP]
    )
    out["phase1_mod3"] = mod3_distance_table(
        out["flipslice_class"][moved],
        out["flipslice_sym"][moved],
        tuple(range(coords.N_MOVES)),
        out["flipslice_stabilizer"],
        move_twist,
        out["twist_conj"],
        on_level,
    )
    return out


def distance(tables: Mapping[str, np.ndarray], twist: int, flip: int, slice_: int) -> int:
    """Exact phase-1 distance of a state given by its coordinates.

    Parameters
    ----------
    tables
        The solver's tables (:func:`cubescan.solver.tables.load_tables`).
    twist, flip, slice_
        Corner twist (0..2186), edge flip (0..2047) and slice (``slice_sorted // 24``,
        0..494).

    Returns
    -------
    int
        Fewest outer moves that bring all three to 0.

    Examples
    --------
    >>> from cubescan.solver.tables import load_tables
    >>> distance(load_tables(), 1494, 0, 0)  # R's twist, but no edge moved  # doctest: +SKIP
    7
    """
    return int(
        exact_distance(
            twist,
            flip,
            slice_,
            tables["phase1_mod3"],
            tables["flipslice_class"],
            tables["flipslice_sym"],
            tables["twist_conj"],
            tables["move_twist"],
            tables["move_flip"],
            tables["move_slice"],
        )
    )
