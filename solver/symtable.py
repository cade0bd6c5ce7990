"""Distance tables reduced by symmetry, stored mod 3: the build shared by both phases.

A table covers two coordinates ``a`` and ``b`` whose conjugates by the 16 UD symmetries
(:mod:`cubescan.solver.symmetry`) depend on the coordinate alone. The values of ``a`` fall
into classes (:func:`symmetry_classes`); a state ``(a, b)`` has the distance of
``(representative of a's class, b conjugated by the symmetry that takes a there)``, so
the table holds one entry per class and value of ``b``: index ``class * n_b + b'``.

Each entry is the distance mod 3 in 2 bits, four to a byte: a move changes the distance
by at most one, so the stored value of a neighbour of a state at a known distance gives
the neighbour's exact distance, and a walk down to 0 gives a start's.

The table is filled breadth-first with numba over all entries at once: forward from
the frontier while it is small, then backwards (each unvisited entry looks for a
neighbour on the frontier). When a representative is its own image under some
symmetries, its entries for values of ``b`` those symmetries exchange are equivalent,
and the forward step fills them together.

Examples
--------
>>> int(mod3_at(np.array([0b11100100], dtype=np.uint8), 3))
3
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit, prange

from cubescan.solver.symmetry import SYMMETRY_COUNT

_EMPTY = 255


def symmetry_classes(conj: np.ndarray) -> dict[str, np.ndarray]:
    """Classes of a coordinate's values under the symmetries.

    Parameters
    ----------
    conj
        ``(n, 16)`` table of the coordinate's conjugates (from
        :func:`cubescan.solver.symmetry.conjugation_table`).

    Returns
    -------
    dict of str to numpy.ndarray
        ``class`` (int64, per value: its class), ``sym`` (int64, per value: a symmetry
        whose conjugation takes it to its class's representative), ``rep`` (int64, per
        class: the smallest value in it) and ``stabilizer`` (int64, per class: bit ``s``
        set when symmetry ``s`` keeps the representative).

    Examples
    --------
    >>> conj = np.array([[0, 0], [1, 2], [2, 1]])  # two symmetries; 1 and 2 are images
    >>> {k: v.tolist() for k, v in symmetry_classes(conj).items()}
    {'class': [0, 1, 1], 'sym': [0, 0, 1], 'rep': [0, 1], 'stabilizer': [3, 1]}
    """
    smallest = conj.min(axis=1)
    reps, classes = np.unique(smallest, return_inverse=True)
    weights = 1 << np.arange(conj.shape[1], dtype=np.int64)
    return {
        "class": classes.astype(np.int64),
        "sym": np.argmin(conj, axis=1).astype(np.int64),
        "rep": reps.astype(np.int64),
        "stabilizer": ((conj[reps] == reps[:, None]) * weights).sum(axis=1),
    }


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def mod3_at(packed, index):
    """Distance mod 3 stored for one entry (2 bits each, four to a byte).

    Parameters
    ----------
    packed
        A table from :func:`mod3_distance_table`.
    index
        ``class * n_b + conjugated b``.

    Returns
    -------
    int
        0, 1 or 2 (3 marks padding).

    Examples
    --------
    >>> int(mod3_at(np.array([0b11100100], dtype=np.uint8), 2))
    2
    """
    return (packed[index >> 2] >> ((index & 3) * 2)) & 3


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def next_distance(packed, index, distance):
    """Exact distance of a neighbour, from its stored value and the known ``distance``.

    Parameters
    ----------
    packed
        A table from :func:`mod3_distance_table`.
    index
        The neighbour's entry.
    distance
        Exact distance of the state the neighbour is one move from.

    Returns
    -------
    int
        ``distance - 1``, ``distance`` or ``distance + 1``: the one whose value mod 3 is
        stored.

    Examples
    --------
    >>> int(next_distance(np.array([0b00000010], dtype=np.uint8), 0, 7))  # 2 = 8 mod 3
    8
    """
    step = (mod3_at(packed, index) - distance % 3 + 3) % 3
    if step == 1:
        return distance + 1
    if step == 2:
        return distance - 1
    return distance


@njit(cache=True, parallel=True, no_cfunc_wrapper=True)
def _bfs_level(depth, level, forward, to_class, to_sym, stabilizers, moved_b, conj_b):
    """One breadth-first level over the byte-per-entry table.

    ``moved_b[k, s, b]`` is ``b`` after move ``k`` conjugated by ``s``: read in order of
    ``b``, it keeps the inner loop's look-ups sequential.
    """
    n_b = moved_b.shape[2]
    n_moves = moved_b.shape[0]
    for c in prange(len(to_class)):
        base = np.int64(c) * n_b
        for b in range(n_b):
            here = depth[base + b]
            if forward:
                if here != level:
                    continue
                for k in range(n_moves):
                    c2 = to_class[c, k]
                    b2 = moved_b[k, to_sym[c, k], b]
                    index = np.int64(c2) * n_b + b2
                    if depth[index] != _EMPTY:
                        continue
                    depth[index] = level + 1
                    mask = stabilizers[c2]
                    if mask != 1:
                        for t in range(1, SYMMETRY_COUNT):
                            if (mask >> t) & 1:
                                twin = np.int64(c2) * n_b + conj_b[b2, t]
                                if depth[twin] == _EMPTY:
                                    depth[twin] = level + 1
            else:
                if here != _EMPTY:
                    continue
                for k in range(n_moves):
                    b2 = moved_b[k, to_sym[c, k], b]
                    if depth[np.int64(to_class[c, k]) * n_b + b2] == level:
                        depth[base + b] = level + 1
                        break


@njit(cache=True, parallel=True, no_cfunc_wrapper=True)
def _pack_mod3(depth):
    packed = np.zeros((len(depth) + 3) // 4, dtype=np.uint8)
    for i in prange(len(packed)):
        byte = 0
        for k in range(4):
            j = 4 * i + k
            # Padding after the last entry reads as 3, which no distance has mod 3.
            value = depth[j] % 3 if j < len(depth) else 3
            byte |= value << (2 * k)
        packed[i] = byte
    return packed


def mod3_distance_table(
    to_class: np.ndarray,
    to_sym: np.ndarray,
    moves: tuple[int, ...],
    stabilizers: np.ndarray,
    move_b: np.ndarray,
    conj_b: np.ndarray,
    on_level: Callable[[int], None] | None = None,
) -> np.ndarray:
    """Breadth-first distances from entry 0 (the goal), packed mod 3.

    Parameters
    ----------
    to_class, to_sym
        ``(n_classes, len(moves))``: the class of a representative after each move, and
        the symmetry that takes the result to that class's representative.
    moves
        The move indices allowed (closed under inversion and under the symmetries).
    stabilizers
        Per class, the bit mask of symmetries that keep its representative.
    move_b, conj_b
        Move table ``(n_b, 18)`` and conjugation table ``(n_b, 16)`` of the second
        coordinate.
    on_level
        Called with each finished distance (for a progress bar).

    Returns
    -------
    numpy.ndarray
        uint8, ``ceil(n_classes * n_b / 4)`` bytes; entry ``i`` in bits ``2 * (i % 4)``
        of byte ``i // 4``.

    Examples
    --------
    >>> from cubescan.solver.coords import twist_move_table
    >>> from cubescan.solver.symmetry import conjugation_table
    >>> conj = conjugation_table(np.zeros((1, 18), dtype=np.int32))  # one class: a = 0
    >>> packed = mod3_distance_table(np.zeros((1, 18), dtype=np.int64),
    ...     np.zeros((1, 18), dtype=np.int64), tuple(range(18)), np.array([0xFFFF]),
    ...     twist_move_table(), conjugation_table(twist_move_table()))
    >>> int(mod3_at(packed, 0)), int(mod3_at(packed, 1494))  # solved, and the twist R gives
    (0, 1)
    """
    to_class = np.ascontiguousarray(to_class, dtype=np.int32)
    to_sym = np.ascontiguousarray(to_sym, dtype=np.int32)
    move_b = np.ascontiguousarray(move_b, dtype=np.int32)
    conj_b = np.ascontiguousarray(conj_b, dtype=np.int32)
    stabilizers = np.asarray(stabilizers, dtype=np.int64)
    # moved_b[k, s, b] = conj_b[move_b[b, moves[k]], s]
    moved_b = np.ascontiguousarray(
        conj_b[move_b[:, list(moves)]].transpose(1, 2, 0), dtype=np.uint16
    )
    depth = np.full(len(to_class) * len(move_b), _EMPTY, dtype=np.uint8)
    depth[0] = 0
    filled, level, frontier = 1, 0, 1
    while filled < len(depth):
        # Forward costs a look-up per move and frontier entry; backward stops at the
        # first neighbour found on the frontier.
        forward = 6 * frontier < len(depth) - filled
        _bfs_level(depth, level, forward, to_class, to_sym, stabilizers, moved_b, conj_b)
        frontier = int(np.count_nonzero(depth == level + 1))
        if on_level is not None:
            on_level(level + 1)
        if frontier == 0:
            break
        filled += frontier
        level += 1
    return _pack_mod3(depth)
