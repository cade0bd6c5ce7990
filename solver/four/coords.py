"""Pattern coordinates: which labels sit in which slots, ranked to one integer.

A pattern reads some slots of the piece array (:mod:`cubescan.solver.four.model`), maps
each piece to a small label (e.g. 1 for an R or L centre, 0 otherwise) and ranks the
labels, group of slots by group, as a permutation of a multiset. A group's labels are
only ever permuted among the group's own slots by the moves of the stage that uses
the pattern, so each group is ranked on its own and the ranks are combined in mixed
radix. Everything here is compiled with numba and works on one state at a time.

Examples
--------
>>> pattern = Pattern.build(np.array([0, 1, 1, 0]), [np.arange(4)], np.arange(4))
>>> pattern.size
6
>>> state = np.array([0, 1, 2, 3], dtype=np.int8)
>>> rank(state, *pattern.arrays)
2
"""

from __future__ import annotations

from dataclasses import dataclass
from math import factorial

import numba
import numpy as np


@dataclass(frozen=True)
class Pattern:
    """A coordinate over some slots of the piece array.

    Attributes
    ----------
    slots
        Slot indices read, group after group (int64).
    label_of
        Piece value -> label (int64), labels 0..k-1.
    group_ends
        End offset of each group in ``slots`` (int64).
    counts
        ``counts[g, label]``: how often each label occurs in group ``g`` (int64).
    radix
        Number of arrangements of each group (int64).
    """

    slots: np.ndarray
    label_of: np.ndarray
    group_ends: np.ndarray
    counts: np.ndarray
    radix: np.ndarray

    @staticmethod
    def build(label_of: np.ndarray, groups: list[np.ndarray], solved: np.ndarray) -> Pattern:
        """A pattern whose label counts are read off the solved piece array.

        Parameters
        ----------
        label_of
            Piece value -> label.
        groups
            The slot groups (each an int array).
        solved
            The solved piece array (gives each group's label counts).

        Returns
        -------
        Pattern

        Examples
        --------
        >>> Pattern.build(np.arange(2), [np.arange(2)], np.arange(2)).radix.tolist()
        [2]
        """
        label_of = np.asarray(label_of, dtype=np.int64)
        n_labels = int(label_of.max()) + 1
        counts = np.zeros((len(groups), n_labels), dtype=np.int64)
        radix = np.zeros(len(groups), dtype=np.int64)
        for g, group in enumerate(groups):
            labels = label_of[np.asarray(solved)[group]]
            counts[g] = np.bincount(labels, minlength=n_labels)
            total = factorial(len(group))
            for c in counts[g]:
                total //= factorial(int(c))
            radix[g] = total
        slots = np.concatenate([np.asarray(g, dtype=np.int64) for g in groups])
        ends = np.cumsum([len(g) for g in groups]).astype(np.int64)
        return Pattern(slots, label_of, ends, counts, radix)

    @property
    def size(self) -> int:
        """Number of values of the coordinate."""
        return int(np.prod(self.radix))

    @property
    def arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays :func:`rank` and :func:`unrank` take, in their order."""
        return (self.slots, self.label_of, self.group_ends, self.counts, self.radix)


@numba.njit(cache=True)
def rank_labels(labels: np.ndarray, counts: np.ndarray) -> int:  # pragma: no cover - numba
    """Rank of a label sequence among the arrangements of its multiset.

    Parameters
    ----------
    labels
        Label of each slot (int64).
    counts
        How often each label occurs (int64; not modified).

    Returns
    -------
    int

    Examples
    --------
    >>> rank_labels(np.array([1, 0, 0]), np.array([2, 1]))
    2
    """
    left = counts.copy()
    n = len(labels)
    total = 1
    # total = multinomial(n; left), built up without overflow.
    placed = 0
    for label in range(len(left)):
        for k in range(1, left[label] + 1):
            placed += 1
            total = total * placed // k
    out = 0
    for i in range(len(labels)):
        a = labels[i]
        for b in range(a):
            if left[b] > 0:
                out += total * left[b] // (n - i)
        total = total * left[a] // (n - i)
        left[a] -= 1
    return out


@numba.njit(cache=True)
def rank(
    state: np.ndarray,
    slots: np.ndarray,
    label_of: np.ndarray,
    group_ends: np.ndarray,
    counts: np.ndarray,
    radix: np.ndarray,
) -> int:  # pragma: no cover - numba
    """The pattern coordinate of a piece array.

    Parameters
    ----------
    state
        Piece array (int8).
    slots, label_of, group_ends, counts, radix
        :attr:`Pattern.arrays`.

    Returns
    -------
    int

    Examples
    --------
    >>> p = Pattern.build(np.arange(3), [np.arange(3)], np.arange(3))
    >>> rank(np.array([2, 1, 0], dtype=np.int8), *p.arrays)
    5
    """
    out = 0
    start = 0
    for g in range(len(group_ends)):
        end = group_ends[g]
        labels = np.empty(end - start, dtype=np.int64)
        for i in range(start, end):
            labels[i - start] = label_of[state[slots[i]]]
        out = out * radix[g] + rank_labels(labels, counts[g])
        start = end
    return out


@numba.njit(cache=True)
def unrank_labels(value: int, counts: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover
    """Write the label sequence of rank ``value`` into ``out`` (inverse of rank_labels).

    Parameters
    ----------
    value
        Rank.
    counts
        Label counts (not modified).
    out
        int64 array of the group's length.

    Examples
    --------
    >>> out = np.zeros(3, dtype=np.int64)
    >>> unrank_labels(2, np.array([2, 1]), out)
    >>> out.tolist()
    [1, 0, 0]
    """
    left = counts.copy()
    n = len(out)
    total = 1
    placed = 0
    for label in range(len(left)):
        for k in range(1, left[label] + 1):
            placed += 1
            total = total * placed // k
    for i in range(n):
        for b in range(len(left)):
            if left[b] == 0:
                continue
            sub = total * left[b] // (n - i)
            if value < sub:
                out[i] = b
                total = sub
                left[b] -= 1
                break
            value -= sub


def label_pattern(pattern: Pattern) -> Pattern:
    """The same pattern read from an array of labels instead of pieces.

    The tables are built over label arrays (the unranked coordinates), where each slot
    already holds its label.

    Parameters
    ----------
    pattern
        Any pattern.

    Returns
    -------
    Pattern
        Equal to ``pattern`` but with ``label_of`` the identity on labels.

    Examples
    --------
    >>> p = Pattern.build(np.array([0, 0, 1]), [np.arange(3)], np.arange(3))
    >>> label_pattern(p).label_of.tolist()
    [0, 1]
    """
    labels = np.arange(pattern.counts.shape[1], dtype=np.int64)
    return Pattern(pattern.slots, labels, pattern.group_ends, pattern.counts, pattern.radix)


@numba.njit(cache=True)
def unrank(
    value: int,
    out: np.ndarray,
    slots: np.ndarray,
    label_of: np.ndarray,
    group_ends: np.ndarray,
    counts: np.ndarray,
    radix: np.ndarray,
) -> None:  # pragma: no cover - numba
    """Write the labels of coordinate ``value`` into the slots of a label array ``out``.

    Parameters
    ----------
    value
        Coordinate, 0 .. size - 1.
    out
        Label array (int8, length of the piece array); slots outside the pattern are
        left alone.
    slots, label_of, group_ends, counts, radix
        :attr:`Pattern.arrays` (``label_of`` is not used).

    Examples
    --------
    >>> p = label_pattern(Pattern.build(np.arange(3), [np.arange(3)], np.arange(3)))
    >>> out = np.zeros(3, dtype=np.int8)
    >>> unrank(5, out, *p.arrays)
    >>> out.tolist()
    [2, 1, 0]
    """
    n_groups = len(group_ends)
    parts = np.empty(n_groups, dtype=np.int64)
    for g in range(n_groups - 1, -1, -1):
        parts[g] = value % radix[g]
        value //= radix[g]
    start = 0
    for g in range(n_groups):
        end = group_ends[g]
        labels = np.empty(end - start, dtype=np.int64)
        unrank_labels(parts[g], counts[g], labels)
        for i in range(start, end):
            out[slots[i]] = labels[i - start]
        start = end
