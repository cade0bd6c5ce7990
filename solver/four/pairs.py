"""Where some wings sit, with only "which wings go together" kept: the pair coordinates.

Pairing an edge means bringing its two wings into one edge position. Which wings they
are does not change how far that is: only the two slots they occupy count. So the
distance to pairing ``k`` edges is a function of ``k`` unordered pairs of wing slots,
themselves in no order, and one table serves every choice of ``k`` edges.

A set of ``k`` disjoint slot pairs is ranked as the ``2k`` slots it covers (a
combination of the 24 wing slots, in colex order) times the way those slots are
matched into pairs (one of ``(2k - 1)!!``): the smallest slot's partner among the
others, then the next unmatched slot's, and so on, read as a mixed-radix number.

Examples
--------
>>> pairs = np.array([[0, 5], [3, 7], [11, 2]])
>>> value = rank_pairs(pairs)
>>> unrank_pairs(value, 3).tolist()
[[0, 5], [2, 11], [3, 7]]
>>> n_pair_values(3)
2018940
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from math import comb, prod

import numba
import numpy as np

N_WING_SLOTS = 24

BINOMIAL = np.array(
    [[comb(n, k) for k in range(N_WING_SLOTS + 1)] for n in range(N_WING_SLOTS + 1)],
    dtype=np.int64,
)
"""``BINOMIAL[n, k]``: n choose k, for the colex ranks."""


def n_matchings(k: int) -> int:
    """Ways to match ``2k`` slots into ``k`` unordered pairs: ``(2k - 1)!!``.

    Parameters
    ----------
    k
        Number of pairs.

    Returns
    -------
    int

    Examples
    --------
    >>> n_matchings(3)
    15
    """
    return prod(range(2 * k - 1, 0, -2))


def n_pair_values(k: int) -> int:
    """Number of values of the ``k``-pair coordinate.

    Parameters
    ----------
    k
        Number of pairs.

    Returns
    -------
    int

    Examples
    --------
    >>> n_pair_values(1)
    276
    """
    return comb(N_WING_SLOTS, 2 * k) * n_matchings(k)


@numba.njit(cache=True)
def rank_pair_slots(first: np.ndarray, second: np.ndarray, binomial: np.ndarray) -> int:
    """Rank of the pairs ``(first[i], second[i])`` (numba; see :func:`rank_pairs`).

    Parameters
    ----------
    first, second
        The two slots of each pair (int64, equal lengths, all slots distinct).
    binomial
        :data:`BINOMIAL`.

    Returns
    -------
    int

    Examples
    --------
    >>> rank_pair_slots(np.array([0]), np.array([1]), BINOMIAL)
    0
    """
    work = np.empty(3 * N_WING_SLOTS, dtype=np.int64)
    return rank_pair_slots_into(first, second, len(first), binomial, work)


@numba.njit(cache=True)
def rank_pair_slots_into(first, second, k, binomial, work) -> int:  # pragma: no cover - numba
    """:func:`rank_pair_slots` of the first ``k`` pairs, using ``work`` for scratch.

    The pairing search ranks several groups at every node; reusing one scratch array
    saves an allocation per rank.

    Parameters
    ----------
    first, second
        The two slots of each pair (int64; only the first ``k`` are read).
    k
        Number of pairs.
    binomial
        :data:`BINOMIAL`.
    work
        int64 scratch array of at least 72 entries (overwritten).

    Returns
    -------
    int

    Examples
    --------
    >>> work = np.empty(72, dtype=np.int64)
    >>> rank_pair_slots_into(np.array([5, 9]), np.array([0, 0]), 1, BINOMIAL, work)
    10
    """
    n = 2 * k
    slots = work[:n]
    mate = work[N_WING_SLOTS : 2 * N_WING_SLOTS]
    used = work[2 * N_WING_SLOTS : 3 * N_WING_SLOTS]
    filled = 0
    for i in range(k):
        mate[first[i]] = second[i]
        mate[second[i]] = first[i]
        used[first[i]] = 0
        used[second[i]] = 0
        # Insertion sort: a handful of slots.
        for value in (first[i], second[i]):
            j = filled
            while j > 0 and slots[j - 1] > value:
                slots[j] = slots[j - 1]
                j -= 1
            slots[j] = value
            filled += 1
    combination = 0
    for i in range(n):
        combination += binomial[slots[i], i + 1]
    matching = 0
    for i in range(n):
        a = slots[i]
        if used[a]:
            continue
        used[a] = 1
        b = mate[a]
        digit = 0
        choices = 0
        for t in range(i + 1, n):
            if not used[slots[t]]:
                if slots[t] == b:
                    digit = choices
                choices += 1
        used[b] = 1
        matching = matching * choices + digit
    n_match = 1
    for r in range(n - 1, 0, -2):
        n_match *= r
    return combination * n_match + matching


@numba.njit(cache=True)
def unrank_pair_slots(
    value: int, k: int, binomial: np.ndarray, first: np.ndarray, second: np.ndarray
) -> None:
    """Write the pairs of rank ``value`` into ``first`` and ``second`` (numba).

    Parameters
    ----------
    value
        A rank from :func:`rank_pair_slots`.
    k
        Number of pairs.
    binomial
        :data:`BINOMIAL`.
    first, second
        int64 arrays of length ``k``; pair ``i`` is ``(first[i], second[i])`` with
        ``first`` increasing and ``first[i] < second[i]``.

    Examples
    --------
    >>> a, b = np.zeros(1, np.int64), np.zeros(1, np.int64)
    >>> unrank_pair_slots(0, 1, BINOMIAL, a, b)
    >>> (int(a[0]), int(b[0]))
    (0, 1)
    """
    n = 2 * k
    n_match = 1
    for r in range(n - 1, 0, -2):
        n_match *= r
    combination = value // n_match
    matching = value % n_match
    slots = np.empty(n, dtype=np.int64)
    for i in range(n - 1, -1, -1):
        s = i
        while binomial[s + 1, i + 1] <= combination:
            s += 1
        slots[i] = s
        combination -= binomial[s, i + 1]
    digits = np.empty(k, dtype=np.int64)
    for p in range(k - 1, -1, -1):
        choices = n - 1 - 2 * p
        digits[p] = matching % choices
        matching //= choices
    used = np.zeros(n, dtype=np.bool_)
    p = 0
    for i in range(n):
        if used[i]:
            continue
        used[i] = True
        seen = 0
        for t in range(i + 1, n):
            if used[t]:
                continue
            if seen == digits[p]:
                used[t] = True
                first[p] = slots[i]
                second[p] = slots[t]
                break
            seen += 1
        p += 1


def rank_pairs(pairs: np.ndarray) -> int:
    """Rank of a set of disjoint wing-slot pairs.

    Parameters
    ----------
    pairs
        Array of shape ``(k, 2)``: the two slots (0..23) of each pair.

    Returns
    -------
    int
        0 .. ``n_pair_values(k) - 1``; the same for any order of the pairs or of the
        two slots in a pair.

    Examples
    --------
    >>> rank_pairs(np.array([[5, 0], [7, 3]])) == rank_pairs(np.array([[3, 7], [0, 5]]))
    True
    """
    pairs = np.asarray(pairs, dtype=np.int64)
    return int(rank_pair_slots(pairs[:, 0].copy(), pairs[:, 1].copy(), BINOMIAL))


def unrank_pairs(value: int, k: int) -> np.ndarray:
    """The pairs of rank ``value`` (inverse of :func:`rank_pairs`).

    Parameters
    ----------
    value
        A rank.
    k
        Number of pairs.

    Returns
    -------
    numpy.ndarray
        Shape ``(k, 2)``, each pair ascending, pairs by their first slot.

    Examples
    --------
    >>> unrank_pairs(0, 2).tolist()
    [[0, 1], [2, 3]]
    """
    first = np.zeros(k, dtype=np.int64)
    second = np.zeros(k, dtype=np.int64)
    unrank_pair_slots(value, k, BINOMIAL, first, second)
    return np.stack([first, second], axis=1)


@numba.njit(cache=True)
def _bfs_level(depth, level, k, slot_moves, binomial):  # pragma: no cover - numba
    """Give depth ``level + 1`` to every unseen neighbour of depth ``level``; return how many."""
    first = np.empty(k, dtype=np.int64)
    second = np.empty(k, dtype=np.int64)
    moved_first = np.empty(k, dtype=np.int64)
    moved_second = np.empty(k, dtype=np.int64)
    frontier = 0
    unseen = 0
    for i in range(len(depth)):
        if depth[i] == level:
            frontier += 1
        elif depth[i] == 255:
            unseen += 1
    forward = frontier <= unseen
    added = 0
    for i in range(len(depth)):
        if depth[i] != (level if forward else 255):
            continue
        unrank_pair_slots(i, k, binomial, first, second)
        for m in range(slot_moves.shape[0]):
            for p in range(k):
                moved_first[p] = slot_moves[m, first[p]]
                moved_second[p] = slot_moves[m, second[p]]
            value = rank_pair_slots(moved_first, moved_second, binomial)
            if forward:
                if depth[value] == 255:
                    depth[value] = level + 1
                    added += 1
            elif depth[value] == level:
                # Every move set here is closed under inversion.
                depth[i] = level + 1
                added += 1
                break
    return added


def pair_table(
    k: int,
    slot_moves: np.ndarray,
    goal_pairs: np.ndarray,
    on_level: Callable[[int], None] | None = None,
) -> np.ndarray:
    """Exact distance of every ``k``-pair value to ``k`` pairs each in one edge position.

    Parameters
    ----------
    k
        Number of pairs.
    slot_moves
        ``slot_moves[m, s]``: the wing slot that move ``m`` takes slot ``s`` to (int64).
    goal_pairs
        The two slots of each of the 12 edge positions, shape ``(12, 2)``.
    on_level
        Called with each depth as it is finished.

    Returns
    -------
    numpy.ndarray
        uint8, ``n_pair_values(k)`` entries.

    Examples
    --------
    >>> from cubescan.solver.four.model import edge_slots
    >>> from cubescan.solver.four.pairing import slot_moves
    >>> int(pair_table(1, slot_moves(), edge_slots()).max())
    4
    """
    depth = np.full(n_pair_values(k), 255, dtype=np.uint8)
    for positions in combinations(range(len(goal_pairs)), k):
        depth[rank_pairs(goal_pairs[list(positions)])] = 0
    level = 0
    while _bfs_level(depth, level, k, np.asarray(slot_moves, dtype=np.int64), BINOMIAL):
        level += 1
        if on_level is not None:
            on_level(level)
    return depth
