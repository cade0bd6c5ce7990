"""Iterative-deepening A* over the 4x4 piece array, compiled with numba.

A phase searches with a move set and a list of coordinates; the bound at a node is the
largest of the coordinates' table distances. The goal is reached when every
distance is 0 and the phase's extra condition holds (see :data:`GOAL_NONE` ..).
Consecutive turns of one axis commute, so they are tried in one order only.

Examples
--------
>>> GOAL_NONE, GOAL_EVEN_WINGS
(0, 1)
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from cubescan.solver.four.coords import Pattern, rank
from cubescan.solver.four.model import CORNER_START, WING_START, slot_permutation
from cubescan.solver.geometry import FACES
from cubescan.solver.moves import Move

GOAL_NONE = 0
"""No condition besides the coordinates."""
GOAL_EVEN_WINGS = 1
"""The 24 wings form an even permutation (no OLL parity once paired)."""

MAX_DEPTH = 30


@dataclass(frozen=True)
class Phase:
    """What one search needs: moves and coordinates as plain arrays.

    Attributes
    ----------
    moves
        The move set.
    perms
        ``perms[m]``: slot permutation of move ``m`` (int64).
    axis, order
        Axis number (0..2) of each move, and its layer block's place on that axis.
    patterns
        The coordinates, each with its distance table.
    goal
        ``GOAL_NONE`` or ``GOAL_EVEN_WINGS``.
    """

    moves: tuple[Move, ...]
    perms: np.ndarray
    axis: np.ndarray
    order: np.ndarray
    patterns: tuple[tuple[Pattern, np.ndarray], ...]
    goal: int

    @staticmethod
    def build(
        moves: tuple[Move, ...], patterns: list[tuple[Pattern, np.ndarray]], goal: int
    ) -> Phase:
        """Arrays of a phase from its moves and coordinates.

        Parameters
        ----------
        moves
            The move set.
        patterns
            (coordinate, its distance table) pairs.
        goal
            The extra goal condition.

        Returns
        -------
        Phase

        Examples
        --------
        >>> from cubescan.solver.four.phases import CENTER_MOVES
        >>> Phase.build(CENTER_MOVES, [], GOAL_NONE).perms.shape
        (28, 56)
        """
        perms = np.array([slot_permutation(m) for m in moves], dtype=np.int64)
        axis = np.array([m.axis for m in moves], dtype=np.int64)
        # Place of the layer block on its axis: face, wide face, opposite, wide opposite.
        order = np.array(
            [2 * (FACES.index(m.face) // 3) + (m.last - 1) for m in moves], dtype=np.int64
        )
        return Phase(tuple(moves), perms, axis, order, tuple(patterns), goal)

    def packed(self) -> tuple[np.ndarray, ...]:
        """The coordinates and tables packed into flat arrays for :func:`ida_depth`.

        Returns
        -------
        tuple of numpy.ndarray
            Slots, labels, group ends, counts, radices and tables of every coordinate,
            each concatenated, with the offsets of each coordinate's part.

        Examples
        --------
        >>> len(Phase.build((), [], GOAL_NONE).packed())
        10
        """
        pats = [p for p, _ in self.patterns]
        n_labels = max((p.counts.shape[1] for p in pats), default=1)
        slots = np.concatenate([p.slots for p in pats] + [np.zeros(0, np.int64)])
        slot_off = np.cumsum([0] + [len(p.slots) for p in pats]).astype(np.int64)
        labels = np.concatenate([p.label_of for p in pats] + [np.zeros(0, np.int64)])
        label_off = np.cumsum([0] + [len(p.label_of) for p in pats]).astype(np.int64)
        ends = np.concatenate([p.group_ends for p in pats] + [np.zeros(0, np.int64)])
        counts = np.zeros((max(len(ends), 1), n_labels), dtype=np.int64)
        radix = np.concatenate([p.radix for p in pats] + [np.zeros(0, np.int64)])
        row = 0
        for p in pats:
            counts[row : row + len(p.radix), : p.counts.shape[1]] = p.counts
            row += len(p.radix)
        group_off = np.cumsum([0] + [len(p.radix) for p in pats]).astype(np.int64)
        tables = np.concatenate([t for _, t in self.patterns] + [np.zeros(0, np.uint8)])
        table_off = np.cumsum([0] + [len(t) for _, t in self.patterns]).astype(np.int64)
        return (
            slots, slot_off, labels, label_off, ends, counts, radix, group_off, tables,
            table_off,
        )  # fmt: skip


@numba.njit(cache=True)
def _heuristic(
    state, slots, slot_off, labels, label_off, ends, counts, radix, group_off, tables, table_off
):  # pragma: no cover - numba
    best = 0
    for p in range(len(slot_off) - 1):
        g0, g1 = group_off[p], group_off[p + 1]
        value = rank(
            state,
            slots[slot_off[p] : slot_off[p + 1]],
            labels[label_off[p] : label_off[p + 1]],
            ends[g0:g1],
            counts[g0:g1],
            radix[g0:g1],
        )
        d = tables[table_off[p] + value]
        if d > best:
            best = d
    return best


@numba.njit(cache=True)
def _parity(values) -> int:  # pragma: no cover - numba
    seen = np.zeros(len(values), dtype=np.bool_)
    odd = 0
    for i in range(len(values)):
        if seen[i]:
            continue
        j = i
        length = 0
        while not seen[j]:
            seen[j] = True
            j = values[j]
            length += 1
        odd ^= (length - 1) & 1
    return odd


@numba.njit(cache=True)
def _goal_met(state, goal) -> bool:  # pragma: no cover - numba
    if goal == GOAL_NONE:
        return True
    return _parity(state[WING_START:CORNER_START].astype(np.int64)) == 0


@numba.njit(cache=True)
def ida_depth(
    start, bound, perms, axis, order, goal, node_limit, path,
    slots, slot_off, labels, label_off, ends, counts, radix, group_off, tables, table_off,
):  # fmt: skip  # pragma: no cover - numba
    """Depth-first search to exactly ``bound`` moves.

    Parameters
    ----------
    start
        Piece array (int8).
    bound
        Number of moves of the solutions looked for.
    perms, axis, order
        The phase's move arrays (:class:`Phase`).
    goal
        Extra goal condition.
    node_limit
        Give up after this many nodes.
    path
        Receives the move indices (int64, length >= bound).
    slots .. table_off
        :meth:`Phase.packed`.

    Returns
    -------
    tuple of (int, int)
        (length found or -1, or -2 when the node limit was hit; nodes visited).

    Examples
    --------
    >>> from cubescan.solver.four.model import solved_pieces
    >>> phase = Phase.build((), [], GOAL_NONE)
    >>> ida_depth(solved_pieces().copy(), 0, phase.perms.reshape(0, 56), phase.axis,
    ...     phase.order, 0, 10, np.zeros(1, np.int64), *phase.packed())
    (0, 0)
    """
    pack = (slots, slot_off, labels, label_off, ends, counts, radix, group_off, tables, table_off)
    h0 = _heuristic(start, *pack)
    if h0 > bound:
        return -1, 0
    if bound == 0:
        if h0 == 0 and _goal_met(start, goal):
            return 0, 0
        return -1, 0
    n_moves = perms.shape[0]
    states = np.empty((bound + 1, len(start)), dtype=np.int8)
    states[0] = start
    tried = np.full(bound + 1, -1, dtype=np.int64)
    nodes = 0
    d = 0
    while d >= 0:
        m = tried[d] + 1
        descended = False
        while m < n_moves:
            if d > 0:
                prev = path[d - 1]
                if axis[m] == axis[prev] and order[m] <= order[prev]:
                    m += 1
                    continue
            child = states[d][perms[m]]
            nodes += 1
            if nodes > node_limit:
                return -2, nodes
            h = _heuristic(child, *pack)
            if d + 1 + h <= bound:
                path[d] = m
                if d + 1 == bound:
                    if _goal_met(child, goal):
                        return bound, nodes
                else:
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


def heuristic(phase: Phase, state: np.ndarray) -> int:
    """The phase's lower bound on the moves left from ``state``.

    Parameters
    ----------
    phase
        A phase.
    state
        Piece array.

    Returns
    -------
    int

    Examples
    --------
    >>> from cubescan.solver.four.model import solved_pieces
    >>> heuristic(Phase.build((), [], GOAL_NONE), solved_pieces())
    0
    """
    return int(_heuristic(np.asarray(state, dtype=np.int8), *phase.packed()))


def search(
    phase: Phase, state: np.ndarray, node_limit: int = 1 << 62
) -> tuple[list[Move], int] | None:
    """The shortest move sequence that takes ``state`` to the phase's goal.

    Parameters
    ----------
    phase
        A phase.
    state
        Piece array.
    node_limit
        Nodes allowed in all; None is returned when they run out.

    Returns
    -------
    tuple of (list of Move, int) or None
        The moves and the nodes visited; None when the node limit was reached.

    Examples
    --------
    >>> from cubescan.solver.four.model import solved_pieces
    >>> search(Phase.build((), [], GOAL_NONE), solved_pieces())
    ([], 0)
    """
    packed = phase.packed()
    start = np.asarray(state, dtype=np.int8).copy()
    path = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
    perms = phase.perms.reshape(len(phase.moves), -1) if len(phase.moves) else phase.perms
    perms = perms if len(phase.moves) else np.zeros((0, len(start)), dtype=np.int64)
    total = 0
    for bound in range(MAX_DEPTH + 1):
        found, nodes = ida_depth(
            start, bound, perms, phase.axis, phase.order, phase.goal,
            node_limit - total, path, *packed,
        )  # fmt: skip
        total += nodes
        if found == -2:
            return None
        if found >= 0:
            return [phase.moves[int(i)] for i in path[:found]], total
    return None
