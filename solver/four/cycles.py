"""Pair the last edges of a 4x4 with three-cycles of wings.

A commutator ``X Y X' Y'`` of an inner slice quarter turn ``X`` and a short sequence
``Y`` of outer turns moves exactly three wings when ``Y`` takes one wing of ``X``'s
slice out and brings one back: the centres, the corners and every other wing stay put.
Those commutators, each conjugated by up to two outer turns, reach every one of the
4,048 three-cycles of the 24 wing slots; the shortest sequence for each is kept.

To pair the edges left unpaired, each is given a target edge position among the
positions they occupy, and one of the two ways round, so that as many wings as
possible already sit where they belong and the wing permutation is even (turning one
edge the other way round changes its parity). That permutation is then written as
three-cycles. The search of :mod:`cubescan.solver.four.pairing` does the first edges,
whose short pairings it finds quickly; this finishes the last few, whose optimal
pairing would take it too long.

Examples
--------
>>> cycles = wing_cycles()
>>> len(cycles), min(len(moves) for moves in cycles.values())
(4048, 8)
"""

from __future__ import annotations

from functools import cache
from itertools import product

import numpy as np
from scipy.optimize import linear_sum_assignment

from cubescan.solver.four.model import N_SLOTS, WING_START, edge_slots, slot_permutation
from cubescan.solver.geometry import FACES
from cubescan.solver.moves import Move, invert_moves

OUTER = tuple(Move(face, 1, 1, turns) for face in FACES for turns in (1, 2, 3))
INNER = tuple(Move(face, 2, 2, turns) for face in FACES for turns in (1, 3))


def _slot_perm(moves: tuple[Move, ...]) -> np.ndarray:
    perm = np.arange(N_SLOTS)
    for move in moves:
        perm = perm[slot_permutation(move)]
    return perm


def _outer_sequences(max_length: int) -> list[tuple[Move, ...]]:
    """Outer-turn sequences with no face turned twice in a row, shortest first."""
    out: list[tuple[Move, ...]] = [()]
    for length in range(1, max_length + 1):
        for seq in product(OUTER, repeat=length):
            if all(seq[i].face != seq[i + 1].face for i in range(length - 1)):
                out.append(seq)
    return out


def _wing_cycle(perm: np.ndarray) -> tuple[int, int, int] | None:
    """The three-cycle ``(a, b, c)`` (wing in a goes to b, b to c, c to a) or None."""
    if (perm[:WING_START] != np.arange(WING_START)).any():
        return None
    if (perm[WING_START + 24 :] != np.arange(WING_START + 24, N_SLOTS)).any():
        return None
    wings = perm[WING_START : WING_START + 24] - WING_START
    moved = np.flatnonzero(wings != np.arange(24))
    if len(moved) != 3:
        return None
    # new[s] = old[wings[s]]: the wing in slot wings[s] goes to slot s.
    goes_to = {int(wings[s]): int(s) for s in moved}
    a = int(moved.min())
    b = goes_to[a]
    return (a, b, goes_to[b])


@cache
def wing_cycles() -> dict[tuple[int, int, int], tuple[Move, ...]]:
    """The shortest known sequence for every three-cycle of wing slots.

    Returns
    -------
    dict
        ``(a, b, c)`` with ``a`` the smallest slot -> moves that take the wing in
        slot ``a`` to ``b``, the one in ``b`` to ``c`` and the one in ``c`` to ``a``,
        and change nothing else.

    Examples
    --------
    >>> len(wing_cycles())
    4048
    """
    bases: dict[tuple[int, int, int], tuple[Move, ...]] = {}
    for slice_turn in INNER:
        for outer in _outer_sequences(3)[1:]:
            moves = (slice_turn, *outer, *invert_moves([slice_turn]), *invert_moves(list(outer)))
            cycle = _wing_cycle(_slot_perm(moves))
            if cycle is not None and cycle not in bases:
                bases[cycle] = moves
    out: dict[tuple[int, int, int], tuple[Move, ...]] = {}
    for setup in _outer_sequences(2):
        # A conjugate S C S' cycles the slots S' takes C's slots to.
        wings = _slot_perm(setup)[WING_START : WING_START + 24] - WING_START
        for (a, b, c), moves in bases.items():
            image = (int(wings[a]), int(wings[b]), int(wings[c]))
            start = image.index(min(image))
            key = image[start:] + image[:start]
            candidate = (*setup, *moves, *invert_moves(list(setup)))
            if key not in out or len(candidate) < len(out[key]):
                out[key] = candidate
    # The rest (two of the slots in one edge position, and a few more) as two cycles:
    # a -> b -> c is (c a d) then (b c d), (a b d) then (a d c), or (b c d) then
    # (a b d), for any fourth slot d.
    # A pass may need cycles the same pass fills in, so repeat until none is missing.
    for _ in range(3):
        missing = [k for k in _all_cycles() if k not in out]
        for a, b, c in missing:
            options = []
            for d in range(24):
                if d in (a, b, c):
                    continue
                for first, second in (
                    ((c, a, d), (b, c, d)),
                    ((a, b, d), (a, d, c)),
                    ((b, c, d), (a, b, d)),
                ):
                    one, two = _cycle_key(*first), _cycle_key(*second)
                    if one in out and two in out:
                        options.append(out[one] + out[two])
            if options:
                out[(a, b, c)] = min(options, key=len)
    assert len(out) == len(_all_cycles())
    return out


def _all_cycles() -> list[tuple[int, int, int]]:
    """Every three-cycle of the 24 wing slots, written from its smallest slot."""
    return [
        (a, b, c) for a in range(24) for b in range(a + 1, 24) for c in range(a + 1, 24) if c != b
    ]


def _targets(where: np.ndarray, unpaired: list[int]) -> np.ndarray:
    """Target slot of each unpaired edge's wings: fewest wings to move, even permutation.

    Which edge goes to which position is an assignment problem (the cost of a pair is
    how many of the edge's wings are not in the position already, the better way
    round); if the result is odd, the edge that costs least to turn round is turned.
    """
    slots = edge_slots()
    positions = sorted({p for e in unpaired for p in _position_of(where[slots[e]])})
    cost = np.zeros((len(unpaired), len(positions), 2), dtype=np.int64)
    for i, edge in enumerate(unpaired):
        for j, position in enumerate(positions):
            for way in (0, 1):
                goal = slots[position] if way == 0 else slots[position][::-1]
                cost[i, j, way] = int(where[slots[edge, 0]] != goal[0]) + int(
                    where[slots[edge, 1]] != goal[1]
                )
    rows, cols = linear_sum_assignment(cost.min(axis=2))
    ways = cost[rows, cols].argmin(axis=1)
    target = np.arange(24)

    def place() -> None:
        for i, j, way in zip(rows, cols, ways, strict=True):
            goal = slots[positions[j]] if way == 0 else slots[positions[j]][::-1]
            target[slots[unpaired[i]]] = goal

    place()
    if not _is_even(where, target, unpaired):
        extra = cost[rows, cols, 1 - ways] - cost[rows, cols, ways]
        turned = int(np.argmin(extra))
        ways[turned] = 1 - ways[turned]
        place()
    return target


def _position_of(wing_slots: np.ndarray) -> list[int]:
    edges = np.empty(24, dtype=np.int64)
    for position, (a, b) in enumerate(edge_slots()):
        edges[a] = edges[b] = position
    return [int(edges[s]) for s in wing_slots]


def _is_even(where: np.ndarray, target: np.ndarray, unpaired: list[int]) -> bool:
    """Whether moving each unpaired wing from ``where`` to ``target`` is an even permutation."""
    wings = [int(w) for e in unpaired for w in edge_slots()[e]]
    goes = {int(where[w]): int(target[w]) for w in wings}
    seen: set[int] = set()
    odd = 0
    for start in goes:
        if start in seen:
            continue
        length = 0
        slot = start
        while slot not in seen:
            seen.add(slot)
            slot = goes[slot]
            length += 1
        odd ^= (length - 1) & 1
    return odd == 0


def finish_pairing(pieces: np.ndarray, unpaired: list[int]) -> list[Move]:
    """Moves that pair the ``unpaired`` edges and leave everything else as it is.

    Parameters
    ----------
    pieces
        Piece array whose other edges are paired; its wings form an even permutation.
    unpaired
        The edges (0..11) not yet paired.

    Returns
    -------
    list of Move
        Three-cycles of wings, one after another.

    Examples
    --------
    >>> from cubescan.solver.four.model import solved_pieces
    >>> finish_pairing(solved_pieces(), [])
    []
    """
    if not unpaired:
        return []
    where = np.empty(24, dtype=np.int64)
    where[np.asarray(pieces[WING_START : WING_START + 24], dtype=np.int64)] = np.arange(24)
    target = _targets(where, unpaired)
    # wing_in[slot]: the wing now in that slot (only unpaired wings move).
    wing_in = {int(where[w]): int(w) for e in unpaired for w in edge_slots()[e]}
    cycles = wing_cycles()
    moves: list[Move] = []
    # Each cycle puts the wing in slot a where it belongs; a cycle whose third slot
    # was already right (when no better one is known) moves that wing to a, so the
    # count of wrong wings never grows, and a bound on the loop catches the rest.
    for _ in range(4 * len(wing_in)):
        misplaced = [s for s, w in wing_in.items() if target[w] != s]
        if not misplaced:
            return moves
        a = misplaced[0]
        b = int(target[wing_in[a]])
        thirds = [int(target[wing_in[b]]), *misplaced, *wing_in]
        cycle = next(
            key for c in thirds if c not in (a, b) and (key := _cycle_key(a, b, c)) in cycles
        )
        moves += cycles[cycle]
        c = next(x for x in cycle if x not in (a, b))
        wing_in[a], wing_in[b], wing_in[c] = wing_in[c], wing_in[a], wing_in[b]
    raise RuntimeError("internal error: the last edges could not be paired by three-cycles")


def _cycle_key(a: int, b: int, c: int) -> tuple[int, int, int]:
    """The cycle a -> b -> c -> a, written from its smallest slot."""
    cycle = (a, b, c)
    start = cycle.index(min(cycle))
    return cycle[start:] + cycle[:start]
