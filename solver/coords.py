"""Coordinate level of the two-phase solver: cube properties as small integers.

Every conversion between :class:`~cubescan.solver.cubie.CubieCube` pieces and coordinates
lives here, written once for whole NumPy batches (arrays of shape ``(n, 8)`` or
``(n, 12)``); the scalar helpers (:func:`twist`, :func:`flip`, ...) are those batch
functions applied to one cube. Move tables (``table[coord, move] = coord after
move``) are built from :func:`cubescan.solver.cubie.move_cubie`, so they agree with the cube
model by construction.

Coordinates (all 0 on the solved cube):

* ``twist`` (0..2186): corner orientations of URF..DBL in base 3 (DRB's follows);
* ``flip`` (0..2047): edge orientations of UR..BL in base 2;
* ``slice_sorted`` (0..11879): where the four middle-layer edges FR FL BL BR are and
  in which order, ``24 * combination + permutation``; it is below 24 exactly when
  they are all in the middle layer, and then it is the phase-2 ``slice perm``;
  ``slice_sorted // 24`` is the phase-1 ``slice`` coordinate (0..494);
* ``u_edges`` / ``d_edges`` (0..11879): the same for UR UF UL UB and DR DF DL DB;
* ``corners`` (0..40319): the corner permutation's lexicographic rank;
* ``ud_edges`` (0..40319): in phase 2 (middle-layer edges home), the rank of the
  permutation of the eight U and D edges.

Moves are numbered as :func:`cubescan.solver.moves.outer_moves` lists them: ``3 * face + turns
- 1`` with faces ``U R F D L B`` (U=0, U2=1, U'=2, R=3, ...).

Examples
--------
>>> from cubescan.solver.cubie import CubieCube, move_cubie
>>> from cubescan.solver.moves import Move
>>> twist(move_cubie(Move("R"))), flip(move_cubie(Move("F"))), corners(CubieCube())
(1494, 550, 0)
>>> int(twist_move_table()[0, 3]) == twist(move_cubie(Move("R")))
True
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, permutations
from math import comb, factorial

import numpy as np

from cubescan.solver.cubie import CubieCube, move_cubie
from cubescan.solver.moves import Move, outer_moves

N_TWIST = 2187
N_FLIP = 2048
N_SLICE = 495
N_PERM4 = 24
N_EDGE4 = N_SLICE * N_PERM4
N_CORNERS = 40320
N_UD_EDGES = 40320
N_MOVES = 18
N_U_EDGES_PHASE2 = 70 * N_PERM4
"""``u_edges`` values with the U edges inside the U and D layers (slots 0..7)."""

U_EDGES = (0, 1, 2, 3)
D_EDGES = (4, 5, 6, 7)
SLICE_EDGES = (8, 9, 10, 11)

PHASE2_MOVES = (0, 1, 2, 4, 7, 9, 10, 11, 13, 16)
"""The moves of the subgroup <U, D, R2, L2, F2, B2>: U U2 U' R2 F2 D D2 D' L2 B2."""

_TWIST_WEIGHTS = 3 ** np.arange(6, -1, -1)
_FLIP_WEIGHTS = 2 ** np.arange(10, -1, -1)


def move_index(move: Move) -> int:
    """Index 0..17 of an outer move.

    Parameters
    ----------
    move
        An outer face turn, one of :func:`cubescan.solver.moves.outer_moves`.

    Returns
    -------
    int
        ``3 * face + turns - 1`` with faces ``U R F D L B`` numbered 0..5.

    Raises
    ------
    ValueError
        When ``move`` is not an outer face turn (a slice, wide turn or rotation).

    Examples
    --------
    >>> move_index(Move("R", turns=3))
    5
    """
    return outer_moves().index(move)


# --- batch conversions: pieces <-> coordinates --------------------------------------


def twist_of(co: np.ndarray) -> np.ndarray:
    """Twist coordinates of corner orientations ``co`` (shape ``(n, 8)``).

    Parameters
    ----------
    co
        Integer array, shape ``(n, 8)``: corner orientations 0..2 in slot order
        (:data:`cubescan.solver.cubie.CORNERS`). Only the first seven columns are read; the
        eighth (DRB) is implied by a twist sum divisible by 3.

    Returns
    -------
    numpy.ndarray
        int64, shape ``(n,)``: twist coordinates 0..2186, the orientations of URF..DBL
        read as base-3 digits, URF the most significant.

    Examples
    --------
    >>> twist_of(np.array([[0, 0, 0, 0, 0, 0, 1, 2]])).tolist()
    [1]
    """
    return co[:, :7].astype(np.int64) @ _TWIST_WEIGHTS


def co_of_twist(twist_values: np.ndarray) -> np.ndarray:
    """Corner orientations ``(n, 8)`` of twist coordinates (inverse of :func:`twist_of`).

    Parameters
    ----------
    twist_values
        Integer array, shape ``(n,)``, of twist coordinates 0..2186.

    Returns
    -------
    numpy.ndarray
        int64, shape ``(n, 8)``: corner orientations 0..2 in slot order; the last (DRB)
        makes each row's sum divisible by 3.

    Examples
    --------
    >>> co_of_twist(np.array([1])).tolist()
    [[0, 0, 0, 0, 0, 0, 1, 2]]
    """
    values = np.asarray(twist_values, dtype=np.int64)
    co = (values[:, None] // _TWIST_WEIGHTS[None, :]) % 3
    last = (-co.sum(axis=1)) % 3
    return np.concatenate([co, last[:, None]], axis=1)


def flip_of(eo: np.ndarray) -> np.ndarray:
    """Flip coordinates of edge orientations ``eo`` (shape ``(n, 12)``).

    Parameters
    ----------
    eo
        Integer array, shape ``(n, 12)``: edge orientations 0..1 in slot order
        (:data:`cubescan.solver.cubie.EDGES`). Only the first eleven columns are read; the
        twelfth (BR) is implied by an even flip sum.

    Returns
    -------
    numpy.ndarray
        int64, shape ``(n,)``: flip coordinates 0..2047, the orientations of UR..BL read
        as base-2 digits, UR the most significant.

    Examples
    --------
    >>> flip_of(np.array([[0] * 10 + [1, 1]])).tolist()
    [1]
    """
    return eo[:, :11].astype(np.int64) @ _FLIP_WEIGHTS


def eo_of_flip(flip_values: np.ndarray) -> np.ndarray:
    """Edge orientations ``(n, 12)`` of flip coordinates (inverse of :func:`flip_of`).

    Parameters
    ----------
    flip_values
        Integer array, shape ``(n,)``, of flip coordinates 0..2047.

    Returns
    -------
    numpy.ndarray
        int64, shape ``(n, 12)``: edge orientations 0..1 in slot order; the last (BR)
        makes each row's sum even.

    Examples
    --------
    >>> eo_of_flip(np.array([1])).tolist()
    [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1]]
    """
    values = np.asarray(flip_values, dtype=np.int64)
    eo = (values[:, None] // _FLIP_WEIGHTS[None, :]) % 2
    last = eo.sum(axis=1) % 2
    return np.concatenate([eo, last[:, None]], axis=1)


@cache
def _combination_tables(home: int) -> tuple[np.ndarray, np.ndarray]:
    """Slot sets of four edges, ranked so that the four slots from ``home`` on rank 0.

    Returns ``(slots_of_rank (495, 4) sorted, rank_of_mask (4096,))``. Slots are
    rotated by ``-home`` before a colexicographic ranking, so the home set is first.
    """
    slots_of_rank = np.zeros((N_SLICE, 4), dtype=np.int64)
    rank_of_mask = np.full(1 << 12, -1, dtype=np.int64)
    for rotated in combinations(range(12), 4):
        rank = sum(comb(r, k + 1) for k, r in enumerate(rotated))
        slots = sorted((r + home) % 12 for r in rotated)
        slots_of_rank[rank] = slots
        rank_of_mask[sum(1 << s for s in slots)] = rank
    slots_of_rank.setflags(write=False)
    rank_of_mask.setflags(write=False)
    return slots_of_rank, rank_of_mask


@cache
def _perm_tables(length: int) -> tuple[np.ndarray, np.ndarray]:
    """All permutations of ``range(length)`` in rank order and the Lehmer weights."""
    perms = np.array(list(permutations(range(length))), dtype=np.int64)
    perms.setflags(write=False)
    weights = np.array([factorial(length - 1 - i) for i in range(length)], dtype=np.int64)
    weights.setflags(write=False)
    return perms, weights


def perm_rank(perm: np.ndarray) -> np.ndarray:
    """Lexicographic ranks of the permutations in the rows of ``perm`` (shape ``(n, k)``).

    Parameters
    ----------
    perm
        Integer array, shape ``(n, k)``, each row a permutation of ``range(k)``. ``k``
        must be small (4 or 8 here): all ``k!`` permutations are listed (once per ``k``,
        cached) to get the weights.

    Returns
    -------
    numpy.ndarray
        int64, shape ``(n,)``: ranks 0 .. k!-1, 0 for the identity, in the order
        :func:`itertools.permutations` lists the permutations.

    Examples
    --------
    >>> perm_rank(np.array([[0, 1, 2], [2, 1, 0]])).tolist()
    [0, 5]
    """
    perm = np.asarray(perm, dtype=np.int64)
    length = perm.shape[1]
    _, weights = _perm_tables(length)
    smaller_after = np.zeros(perm.shape, dtype=np.int64)
    for i in range(length):
        smaller_after[:, i] = (perm[:, i + 1 :] < perm[:, i : i + 1]).sum(axis=1)
    return smaller_after @ weights


def perm_of_rank(ranks: np.ndarray, length: int) -> np.ndarray:
    """Permutations ``(n, length)`` of lexicographic ranks (inverse of :func:`perm_rank`).

    Parameters
    ----------
    ranks
        Integer array, shape ``(n,)``, of ranks 0 .. length!-1.
    length
        Length ``k`` of the permutations (small, as for :func:`perm_rank`).

    Returns
    -------
    numpy.ndarray
        int64, shape ``(n, length)``: row ``i`` is the permutation of ``range(length)``
        of rank ``ranks[i]``.

    Examples
    --------
    >>> perm_of_rank(np.array([5]), 3).tolist()
    [[2, 1, 0]]
    >>> perm_of_rank(perm_rank(np.array([[2, 0, 3, 1]])), 4).tolist()
    [[2, 0, 3, 1]]
    """
    perms, _ = _perm_tables(length)
    return perms[np.asarray(ranks, dtype=np.int64)]


def edge4_of(ep: np.ndarray, pieces: tuple[int, int, int, int]) -> np.ndarray:
    """Where four edge ``pieces`` are and in which order: ``24 * combination + perm``.

    Parameters
    ----------
    ep
        Edge permutations, shape ``(n, 12)`` (``ep[:, slot] = piece``); other pieces may
        be any value that is not one of ``pieces`` (e.g. -1).
    pieces
        Four consecutive piece numbers (:data:`U_EDGES`, :data:`D_EDGES` or
        :data:`SLICE_EDGES`); their home slots rank as combination 0.

    Returns
    -------
    numpy.ndarray
        int64 coordinates 0..11879.

    Examples
    --------
    >>> edge4_of(np.arange(12)[None, :], SLICE_EDGES).tolist()
    [0]
    """
    ep = np.asarray(ep, dtype=np.int64)
    ours = (ep >= pieces[0]) & (ep <= pieces[3])
    mask = ours.astype(np.int64) @ (1 << np.arange(12, dtype=np.int64))
    _, rank_of_mask = _combination_tables(pieces[0])
    # Pieces in slot order, as 0..3: stable sort keeps slot order among our pieces.
    order = np.argsort(~ours, axis=1, kind="stable")[:, :4]
    in_slots = np.take_along_axis(ep, order, axis=1) - pieces[0]
    return rank_of_mask[mask] * N_PERM4 + perm_rank(in_slots)


def ep_of_edge4(values: np.ndarray, pieces: tuple[int, int, int, int]) -> np.ndarray:
    """Partial edge permutations ``(n, 12)`` of :func:`edge4_of` coordinates (-1 = other).

    Parameters
    ----------
    values
        Integer array, shape ``(n,)``, of :func:`edge4_of` coordinates 0..11879.
    pieces
        The four consecutive piece numbers the coordinates describe (:data:`U_EDGES`,
        :data:`D_EDGES` or :data:`SLICE_EDGES`).

    Returns
    -------
    numpy.ndarray
        int64, shape ``(n, 12)``: ``ep[:, slot]`` is the piece of ``pieces`` in that
        slot, or -1 in the eight slots that hold other pieces.

    Examples
    --------
    >>> ep_of_edge4(np.array([0]), SLICE_EDGES).tolist()
    [[-1, -1, -1, -1, -1, -1, -1, -1, 8, 9, 10, 11]]
    >>> edge4_of(ep_of_edge4(np.array([11879]), U_EDGES), U_EDGES).tolist()
    [11879]
    """
    values = np.asarray(values, dtype=np.int64)
    slots_of_rank, _ = _combination_tables(pieces[0])
    slots = slots_of_rank[values // N_PERM4]
    order = perm_of_rank(values % N_PERM4, 4) + pieces[0]
    ep = np.full((len(values), 12), -1, dtype=np.int64)
    np.put_along_axis(ep, slots, order, axis=1)
    return ep


# --- scalar coordinates of one cube -------------------------------------------------


def twist(cube: CubieCube) -> int:
    """Corner twist coordinate (0..2186) of a cube.

    Parameters
    ----------
    cube
        A 3x3 or 2x2 cube at the cubie level.

    Returns
    -------
    int
        :func:`twist_of` of ``cube.co``; 0 when every corner is oriented.

    Examples
    --------
    >>> twist(CubieCube()), twist(move_cubie(Move("U"))), twist(move_cubie(Move("R")))
    (0, 0, 1494)
    """
    return int(twist_of(np.array([cube.co]))[0])


def flip(cube: CubieCube) -> int:
    """Edge flip coordinate (0..2047) of a cube.

    Parameters
    ----------
    cube
        A 3x3 cube at the cubie level.

    Returns
    -------
    int
        :func:`flip_of` of ``cube.eo``; 0 when every edge is oriented.

    Examples
    --------
    >>> flip(move_cubie(Move("R"))), flip(move_cubie(Move("F")))  # F flips four edges
    (0, 550)
    """
    return int(flip_of(np.array([cube.eo]))[0])


def slice_sorted(cube: CubieCube) -> int:
    """Middle-layer edges' positions and order (0..11879); below 24 in phase 2.

    Parameters
    ----------
    cube
        A 3x3 cube at the cubie level.

    Returns
    -------
    int
        :func:`edge4_of` of ``cube.ep`` for FR FL BL BR: ``24 * combination +
        permutation``; ``// 24`` is the phase-1 ``slice`` coordinate.

    Examples
    --------
    >>> slice_sorted(CubieCube()), slice_sorted(move_cubie(Move("R", turns=2)))
    (0, 21)
    >>> slice_sorted(move_cubie(Move("R"))) >= 24  # R takes FR and BR out of the layer
    True
    """
    return int(edge4_of(np.array([cube.ep]), SLICE_EDGES)[0])


def u_edges(cube: CubieCube) -> int:
    """U-layer edges' positions and order (0..11879).

    Parameters
    ----------
    cube
        A 3x3 cube at the cubie level.

    Returns
    -------
    int
        :func:`edge4_of` of ``cube.ep`` for UR UF UL UB; below
        :data:`N_U_EDGES_PHASE2` when they are all in the U and D layers.

    Examples
    --------
    >>> u_edges(move_cubie(Move("D"))), u_edges(move_cubie(Move("U")))  # U reorders them
    (0, 18)
    """
    return int(edge4_of(np.array([cube.ep]), U_EDGES)[0])


def d_edges(cube: CubieCube) -> int:
    """D-layer edges' positions and order (0..11879).

    Parameters
    ----------
    cube
        A 3x3 cube at the cubie level.

    Returns
    -------
    int
        :func:`edge4_of` of ``cube.ep`` for DR DF DL DB.

    Examples
    --------
    >>> d_edges(move_cubie(Move("U"))), d_edges(move_cubie(Move("D")))  # D reorders them
    (0, 9)
    """
    return int(edge4_of(np.array([cube.ep]), D_EDGES)[0])


def corners(cube: CubieCube) -> int:
    """Corner permutation coordinate (0..40319).

    Parameters
    ----------
    cube
        A 3x3 or 2x2 cube at the cubie level.

    Returns
    -------
    int
        Lexicographic rank (:func:`perm_rank`) of ``cube.cp``; 0 when every corner is home.

    Examples
    --------
    >>> corners(CubieCube()), corners(move_cubie(Move("U")))
    (0, 15120)
    """
    return int(perm_rank(np.array([cube.cp]))[0])


def ud_edges(cube: CubieCube) -> int:
    """Permutation of the eight U and D edges (0..40319); the cube must be in phase 2.

    Parameters
    ----------
    cube
        A 3x3 cube whose FR FL BL BR edges are in the middle layer, in any order.

    Returns
    -------
    int
        Lexicographic rank (:func:`perm_rank`) of ``cube.ep[:8]``.

    Raises
    ------
    ValueError
        When a middle-layer edge is outside the middle layer.

    Examples
    --------
    >>> ud_edges(CubieCube()), ud_edges(move_cubie(Move("U")))
    (0, 15120)
    >>> ud_edges(move_cubie(Move("R")))
    Traceback (most recent call last):
    ...
    ValueError: ud_edges is defined only when FR FL BL BR are in the middle layer
    """
    if sorted(cube.ep[8:]) != list(SLICE_EDGES):
        raise ValueError("ud_edges is defined only when FR FL BL BR are in the middle layer")
    return int(perm_rank(np.array([cube.ep[:8]]))[0])


# --- move tables ----------------------------------------------------------------------


def _move_arrays() -> list[CubieCube]:
    return [move_cubie(m) for m in outer_moves()]


def _apply_corners(cp: np.ndarray, co: np.ndarray, move: CubieCube):
    index = np.array(move.cp)
    return cp[:, index], (co[:, index] + np.array(move.co)) % 3


def _apply_edges(ep: np.ndarray, eo: np.ndarray, move: CubieCube):
    index = np.array(move.ep)
    return ep[:, index], (eo[:, index] + np.array(move.eo)) % 2


def _frozen(table: np.ndarray) -> np.ndarray:
    table = np.ascontiguousarray(table, dtype=np.int32)
    table.setflags(write=False)
    return table


@cache
def twist_move_table() -> np.ndarray:
    """``table[twist, move]``: twist after the move, shape (2187, 18) int32.

    Returns
    -------
    numpy.ndarray
        Read-only; ``table[t, m]`` is the twist, after move ``m`` (numbered as in
        :func:`move_index`), of a cube whose twist is ``t``.

    Examples
    --------
    >>> twist_move_table().shape
    (2187, 18)
    """
    co = co_of_twist(np.arange(N_TWIST))
    cp = np.zeros_like(co)
    columns = [twist_of(_apply_corners(cp, co, m)[1]) for m in _move_arrays()]
    return _frozen(np.stack(columns, axis=1))


@cache
def flip_move_table() -> np.ndarray:
    """``table[flip, move]``: flip after the move, shape (2048, 18) int32.

    Returns
    -------
    numpy.ndarray
        Read-only; ``table[f, m]`` is the flip, after move ``m`` (numbered as in
        :func:`move_index`), of a cube whose flip is ``f``.

    Examples
    --------
    >>> flip_move_table().shape, int(flip_move_table()[0, 6])  # F is move 6
    ((2048, 18), 550)
    """
    eo = eo_of_flip(np.arange(N_FLIP))
    ep = np.zeros_like(eo)
    columns = [flip_of(_apply_edges(ep, eo, m)[1]) for m in _move_arrays()]
    return _frozen(np.stack(columns, axis=1))


@cache
def edge4_move_table(pieces: tuple[int, int, int, int]) -> np.ndarray:
    """``table[edge4, move]`` for one group of four edges, shape (11880, 18) int32.

    Parameters
    ----------
    pieces
        The group: :data:`U_EDGES`, :data:`D_EDGES` or :data:`SLICE_EDGES` (a tuple; the
        table is cached per group).

    Returns
    -------
    numpy.ndarray
        Read-only; ``table[v, m]`` is the :func:`edge4_of` coordinate of ``pieces``,
        after move ``m`` (numbered as in :func:`move_index`), of a cube where it is ``v``.

    Examples
    --------
    >>> int(edge4_move_table(SLICE_EDGES)[0, 0])  # U keeps the middle layer home
    0
    """
    ep = ep_of_edge4(np.arange(N_EDGE4), pieces)
    eo = np.zeros_like(ep)
    columns = [edge4_of(_apply_edges(ep, eo, m)[0], pieces) for m in _move_arrays()]
    return _frozen(np.stack(columns, axis=1))


@cache
def corners_move_table() -> np.ndarray:
    """``table[corners, move]``: corner permutation after the move, (40320, 18) int32.

    Returns
    -------
    numpy.ndarray
        Read-only; ``table[c, m]`` is the :func:`corners` coordinate, after move ``m``
        (numbered as in :func:`move_index`), of a cube where it is ``c``.

    Examples
    --------
    >>> table = corners_move_table()
    >>> table.shape, int(table[0, 0]) == corners(move_cubie(Move("U")))
    ((40320, 18), True)
    """
    cp = perm_of_rank(np.arange(N_CORNERS), 8)
    co = np.zeros_like(cp)
    columns = [perm_rank(_apply_corners(cp, co, m)[0]) for m in _move_arrays()]
    return _frozen(np.stack(columns, axis=1))


@cache
def ud_edges_move_table() -> np.ndarray:
    """``table[ud_edges, move]`` for the phase-2 moves, (40320, 18) int32; -1 elsewhere.

    Returns
    -------
    numpy.ndarray
        Read-only; ``table[v, m]`` is the :func:`ud_edges` coordinate, after phase-2 move
        ``m`` (one of :data:`PHASE2_MOVES`), of a phase-2 cube where it is ``v``; the
        columns of the other eight moves are -1.

    Examples
    --------
    >>> int(ud_edges_move_table()[0, 3])  # R is not a phase-2 move
    -1
    """
    ep8 = perm_of_rank(np.arange(N_UD_EDGES), 8)
    ep = np.concatenate([ep8, np.tile(np.array(SLICE_EDGES), (N_UD_EDGES, 1))], axis=1)
    eo = np.zeros_like(ep)
    table = np.full((N_UD_EDGES, N_MOVES), -1, dtype=np.int64)
    moves = _move_arrays()
    for m in PHASE2_MOVES:
        table[:, m] = perm_rank(_apply_edges(ep, eo, moves[m])[0][:, :8])
    return _frozen(table)


@cache
def ud_edges_merge_table() -> np.ndarray:
    """``table[u_edges, d_edges % 24]`` = ``ud_edges`` for a cube in phase 2.

    In phase 2 the U edges sit in slots 0..7 (``u_edges`` < 1680) and the D edges
    fill the other four of those slots, so their order alone completes the picture.

    Returns
    -------
    numpy.ndarray
        Read-only int32, shape (1680, 24) (:data:`N_U_EDGES_PHASE2` rows): the
        :func:`ud_edges` coordinate for each phase-2 ``u_edges`` and ``d_edges % 24``.

    Examples
    --------
    >>> int(ud_edges_merge_table()[0, 0])
    0
    >>> cube = move_cubie(Move("U"))
    >>> int(ud_edges_merge_table()[u_edges(cube), d_edges(cube) % 24]) == ud_edges(cube)
    True
    """
    u_values = np.repeat(np.arange(N_U_EDGES_PHASE2), N_PERM4)
    d_orders = np.tile(np.arange(N_PERM4), N_U_EDGES_PHASE2)
    ep = ep_of_edge4(u_values, U_EDGES)[:, :8]
    free = np.argsort(ep >= 0, axis=1, kind="stable")[:, :4]
    np.put_along_axis(ep, free, perm_of_rank(d_orders, 4) + D_EDGES[0], axis=1)
    return _frozen(perm_rank(ep).reshape(N_U_EDGES_PHASE2, N_PERM4))
