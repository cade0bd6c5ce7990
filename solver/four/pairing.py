"""Pair the twelve edges of a 4x4 whose centres are solved, a few edges at a time.

Each step picks the unpaired edges that are nearest to paired (by the pair tables of
:mod:`cubescan.solver.four.pairs`) and runs an iterative-deepening A* search for the
shortest sequence that pairs them, keeps every edge paired before it paired, and ends
with the centres solved. The bound at a node is the largest of: the centres' table
distance, and the pair-table distance of each group of edges (the ones kept, a group at
a time, and the new ones). The moves are the outer turns and the wide half turns,
which keep each colour's centres on its own axis, so the centres table stays small.
The last step also asks for the edge permutation to have the corners' parity, so the
3x3 left over is solvable: the PLL parity is solved while pairing, not afterwards.

Examples
--------
>>> slot_moves().shape
(24, 24)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations

import numba
import numpy as np

from cubescan.solver.cubie import permutation_parity
from cubescan.solver.four.coords import rank
from cubescan.solver.four.cycles import finish_pairing
from cubescan.solver.four.model import (
    CORNER_START,
    N_CORNERS,
    WING_START,
    edge_slots,
    slot_permutation,
    wing_edges,
)
from cubescan.solver.four.pairs import BINOMIAL, rank_pair_slots, rank_pair_slots_into
from cubescan.solver.four.phases import EDGE_MOVES
from cubescan.solver.four.search import MAX_DEPTH, Phase
from cubescan.solver.moves import Move, cancel_moves, parse_moves

STEP_EDGES = 3
"""Edges paired per search step (the pair tables go up to this many)."""

CANDIDATES = 8
"""Groups of edges a step may pair, whichever it reaches first."""

STEP_NODES = 300_000
"""Search nodes a step may spend before it pairs fewer edges or hands over to cycles."""

PARITY_FIX = "2R2 U2 2R2 Uw2 2R2 Uw2"
"""Exchanges two paired edges (and turns the U layer half way): the PLL parity fix."""


@cache
def slot_moves() -> np.ndarray:
    """Where each of :data:`EDGE_MOVES` takes each wing slot.

    Returns
    -------
    numpy.ndarray
        ``out[m, s]``: the slot the wing in slot ``s`` is in after move ``m`` (int64).

    Examples
    --------
    >>> sorted(slot_moves()[0].tolist()) == list(range(24))
    True
    """
    out = np.empty((len(EDGE_MOVES), 24), dtype=np.int64)
    for m, move in enumerate(EDGE_MOVES):
        # new_pieces = pieces[perm]: the piece in slot perm[s] moves to slot s.
        came_from = slot_permutation(move)[WING_START : WING_START + 24] - WING_START
        out[m, came_from] = np.arange(24)
    out.setflags(write=False)
    return out


@cache
def parity_fix() -> tuple[Move, ...]:
    """:data:`PARITY_FIX` as moves.

    Returns
    -------
    tuple of Move

    Examples
    --------
    >>> len(parity_fix())
    6
    """
    return tuple(parse_moves(PARITY_FIX, 4))


def has_pll_parity(pieces: np.ndarray) -> bool:
    """Whether the paired edges' permutation and the corners' differ in parity.

    Parameters
    ----------
    pieces
        Piece array with every edge paired.

    Returns
    -------
    bool
        True when the 3x3 left over would be unsolvable (two edges exchanged).

    Examples
    --------
    >>> from cubescan.solver.four.model import solved_pieces
    >>> has_pll_parity(solved_pieces())
    False
    """
    edges = np.asarray(wing_edges(), dtype=np.int64)
    first = edge_slots()[:, 0]
    edge_perm = edges[np.asarray(pieces, dtype=np.int64)[WING_START + first]]
    corners = np.asarray(pieces[CORNER_START : CORNER_START + N_CORNERS], dtype=np.int64)
    return permutation_parity(edge_perm.tolist()) != permutation_parity(corners.tolist())


def _wing_locations(pieces: np.ndarray) -> np.ndarray:
    out = np.empty(24, dtype=np.int64)
    out[np.asarray(pieces[WING_START : WING_START + 24], dtype=np.int64)] = np.arange(24)
    return out


def pair_distance(pieces: np.ndarray, edges: tuple[int, ...], tables: dict) -> int:
    """Moves needed to pair ``edges`` (each anywhere), ignoring everything else.

    Parameters
    ----------
    pieces
        Piece array of the 4x4.
    edges
        Up to :data:`STEP_EDGES` edge numbers (0..11).
    tables
        The 4x4 tables (``pairs-1`` .. ``pairs-3``).

    Returns
    -------
    int

    Examples
    --------
    >>> from cubescan.solver.four.model import solved_pieces
    >>> from cubescan.solver.four.tables import load_tables
    >>> pair_distance(solved_pieces(), (0, 5, 9), load_tables())  # doctest: +SKIP
    0
    """
    return _distance_from(_wing_locations(pieces), edges, tables)


def _distance_from(where: np.ndarray, edges: tuple[int, ...], tables: dict) -> int:
    """:func:`pair_distance` given each wing's slot."""
    wings = edge_slots()[list(edges)]
    first = where[wings[:, 0]]
    second = where[wings[:, 1]]
    return int(tables[f"pairs-{len(edges)}"][rank_pair_slots(first, second, BINOMIAL)])


@numba.njit(cache=True)
def _group_distance(
    where, groups, group_sizes, g, pair_tables, pair_offsets, first, second, work
):  # pragma: no cover - numba
    """Pair-table distance of group ``g`` given each wing's slot ``where``."""
    k = group_sizes[g]
    for i in range(k):
        first[i] = where[groups[g, i, 0]]
        second[i] = where[groups[g, i, 1]]
    return pair_tables[pair_offsets[k] + rank_pair_slots_into(first, second, k, BINOMIAL, work)]


@numba.njit(cache=True)
def _bound(
    state, groups, group_sizes, n_kept, pair_tables, pair_offsets, centers, center_table, room
):  # pragma: no cover - numba
    """Lower bound on the moves left at ``state``; stops early once it passes ``room``.

    The first ``n_kept`` groups must all stay paired (the largest of their distances);
    of the rest, any one may be paired (the smallest of theirs).
    """
    where = np.empty(24, dtype=np.int64)
    for s in range(24):
        where[state[WING_START + s]] = s
    first = np.empty(STEP_EDGES, dtype=np.int64)
    second = np.empty(STEP_EDGES, dtype=np.int64)
    work = np.empty(72, dtype=np.int64)
    scratch = (pair_tables, pair_offsets, first, second, work)
    nearest = 255
    for g in range(n_kept, groups.shape[0]):
        d = _group_distance(where, groups, group_sizes, g, *scratch)
        if d < nearest:
            nearest = d
    best = nearest
    if best > room:
        return best
    for g in range(n_kept):
        d = _group_distance(where, groups, group_sizes, g, *scratch)
        if d > best:
            best = d
            if best > room:
                return best
    slots, label_of, group_ends, counts, radix = centers
    d = center_table[rank(state, slots, label_of, group_ends, counts, radix)]
    return max(best, d)


@numba.njit(cache=True)
def _pairing_depth(
    start, bound, perms, axis, order, groups, group_sizes, n_kept, pair_tables,
    pair_offsets, centers, center_table, node_limit, path,
):  # fmt: skip  # pragma: no cover - numba
    """Depth-first search to exactly ``bound`` moves.

    Returns (length, or -1 when there is none, or -2 when ``node_limit`` ran out;
    nodes visited).
    """
    args = (groups, group_sizes, n_kept, pair_tables, pair_offsets, centers, center_table)
    if _bound(start, *args, bound) > bound:
        return -1, 0
    if bound == 0:
        return 0, 0
    states = np.empty((bound + 1, len(start)), dtype=np.int8)
    states[0] = start
    tried = np.full(bound + 1, -1, dtype=np.int64)
    nodes = 0
    d = 0
    while d >= 0:
        m = tried[d] + 1
        descended = False
        while m < perms.shape[0]:
            if d > 0 and axis[m] == axis[path[d - 1]] and order[m] <= order[path[d - 1]]:
                m += 1
                continue
            child = states[d][perms[m]]
            nodes += 1
            if nodes > node_limit:
                return -2, nodes
            if d + 1 + _bound(child, *args, bound - d - 1) <= bound:
                path[d] = m
                if d + 1 == bound:
                    return bound, nodes
                tried[d] = m
                states[d + 1] = child
                tried[d + 1] = -1
                d += 1
                descended = True
                break
            m += 1
        if not descended:
            d -= 1
    return -1, nodes


def _nearest_groups(
    pieces: np.ndarray, unpaired: list[int], size: int, tables: dict
) -> list[tuple[int, ...]]:
    """The :data:`CANDIDATES` groups of ``size`` unpaired edges nearest to paired."""
    where = _wing_locations(pieces)
    groups = sorted(combinations(unpaired, size), key=lambda g: _distance_from(where, g, tables))
    return groups[:CANDIDATES]


@dataclass(frozen=True)
class _Search:
    """Everything one pairing search needs besides the groups."""

    phase: Phase
    tables: dict
    pair_tables: np.ndarray
    pair_offsets: np.ndarray

    @staticmethod
    def build(center_phase: Phase, tables: dict) -> _Search:
        names = [f"pairs-{k}" for k in range(1, STEP_EDGES + 1)]
        offsets = np.zeros(STEP_EDGES + 1, dtype=np.int64)
        offsets[1:] = np.cumsum([0] + [len(tables[n]) for n in names[:-1]])
        return _Search(center_phase, tables, np.concatenate([tables[n] for n in names]), offsets)

    def run(
        self, state: np.ndarray, kept: list[tuple[int, ...]], candidates: list, limit: int
    ) -> list[int] | None:
        """Move indices that pair one candidate group and keep ``kept``; None: over budget."""
        step = kept + candidates
        groups = np.zeros((len(step), STEP_EDGES, 2), dtype=np.int64)
        for g, edges in enumerate(step):
            groups[g, : len(edges)] = edge_slots()[list(edges)]
        sizes = np.array([len(g) for g in step], dtype=np.int64)
        ((pattern, center_table),) = self.phase.patterns
        path = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
        for bound in range(MAX_DEPTH + 1):
            found, nodes = _pairing_depth(
                state, bound, self.phase.perms, self.phase.axis, self.phase.order, groups,
                sizes, len(kept), self.pair_tables, self.pair_offsets, pattern.arrays,
                center_table, limit, path,
            )  # fmt: skip
            limit -= nodes
            if found == -2:
                return None
            if found >= 0:
                return [int(m) for m in path[:found]]
        return None


def _kept_groups(paired: list[int]) -> list[tuple[int, ...]]:
    """The paired edges, in the order they were paired, in groups of :data:`STEP_EDGES`."""
    return [tuple(paired[i : i + STEP_EDGES]) for i in range(0, len(paired), STEP_EDGES)]


def pair_edges(
    pieces: np.ndarray, center_phase: Phase, tables: dict
) -> tuple[list[Move], np.ndarray]:
    """Pair every edge of a 4x4 whose centres are solved, with no PLL parity left.

    Each step tries to pair :data:`STEP_EDGES` more edges; when that search passes
    :data:`STEP_NODES` nodes it settles for fewer edges (one edge always finishes, and
    quickly). An edge permutation whose parity differs from the corners' (PLL parity)
    is then fixed with :data:`PARITY_FIX`.

    Parameters
    ----------
    pieces
        Piece array with the centres solved and an even wing permutation.
    center_phase
        A :class:`Phase` over :data:`EDGE_MOVES` whose one coordinate is the centres
        (its table gives the distance to solved centres).
    tables
        The 4x4 tables (``pairs-1`` .. ``pairs-3``).

    Returns
    -------
    tuple of (list of Move, numpy.ndarray)
        The moves, and the piece array they lead to.

    Examples
    --------
    >>> from cubescan.solver.four.model import solved_pieces
    >>> from cubescan.solver.four.solve import _phases
    >>> from cubescan.solver.four.tables import load_tables
    >>> pair_edges(solved_pieces(), _phases()["centers-kept"], load_tables())[0]  # doctest: +SKIP
    []
    """
    search = _Search.build(center_phase, tables)
    state = np.asarray(pieces, dtype=np.int8).copy()
    paired: list[int] = []
    moves: list[Move] = []
    while len(paired) < 12:
        unpaired = [e for e in range(12) if e not in paired]
        for size in range(min(STEP_EDGES, len(unpaired)), 1, -1):
            candidates = _nearest_groups(state, unpaired, size, tables)
            found = search.run(state, _kept_groups(paired), candidates, STEP_NODES)
            if found is not None:
                break
        if found is None:
            # Too far for the search: three-cycles of wings pair the rest.
            for move in finish_pairing(state, unpaired):
                moves.append(move)
                state = state[slot_permutation(move)]
            break
        for m in found:
            moves.append(center_phase.moves[m])
            state = state[center_phase.perms[m]]
        paired += next(g for g in candidates if pair_distance(state, g, tables) == 0)
    if has_pll_parity(state):
        for move in parity_fix():
            moves.append(move)
            state = state[slot_permutation(move)]
    return cancel_moves(moves), state
