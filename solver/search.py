"""IDA* search of the two-phase algorithm, compiled with numba.

Phase 1 brings the cube into the subgroup H = <U, D, R2, L2, F2, B2> (corner twist,
edge flip and middle-layer membership all solved); phase 2 solves it with the moves
of H. Phase 1 is searched with increasing length; every phase-1 solution is finished
by the shortest phase 2 (IDA* too), and the search goes on with longer phase-1
solutions as long as they can give a shorter total, until the total is at most the
target length, the caller stops it, or every phase-1 length that could still give a
shorter total has been tried. (Phase 2 is capped at :data:`PHASE2_CAP` moves, so an
exhausted search is not a proof of optimality.)

The compiled kernel runs without the GIL in a worker thread and polls a stop flag
every few thousand nodes, so a timeout or Ctrl-C in the calling thread ends it
within milliseconds; it writes each new best solution into shared arrays as it goes.

Examples
--------
>>> from cubescan.solver.cubie import facelets_to_cubie
>>> from cubescan.solver.moves import apply_moves, solved_facelets
>>> cube = facelets_to_cubie(apply_moves(solved_facelets(3), "R U F"))
>>> search([cube]).moves  # doctest: +SKIP
(8, 2, 5)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from cubescan.solver import coords
from cubescan.solver.cubie import CubieCube
from cubescan.solver.tables import load_tables

MAX_TOTAL = 40
"""No solution longer than this is ever reported (two-phase gives < 30 at once)."""

PHASE2_CAP = 11
"""Longest phase 2 tried after one phase-1 solution: a longer phase 2 seldom gives a short
total, and those searches cost the most."""

_CHECK_EVERY = 4096
"""Nodes between two looks at the stop flag."""

_TABLE_ORDER = (
    "move_twist",
    "move_flip",
    "move_slice_sorted",
    "move_u_edges",
    "move_d_edges",
    "move_corners",
    "move_ud_edges",
    "merge_ud_edges",
    "prune_twist_slice",
    "prune_flip_slice",
    "prune_twist_flip",
    "prune_corners_slice_perm",
    "prune_ud_edges_slice_perm",
)

# Indices into the kernel's int64 ``state`` array (shared with the calling thread).
_BEST_LENGTH, _NODES, _STOPPED, _TARGET, _CAP, _BEST_START = range(6)


@dataclass(frozen=True)
class SearchOutcome:
    """What the search found.

    Attributes
    ----------
    moves
        Move indices (0..17, see :mod:`cubescan.solver.coords`) of the best solution found.
    start
        Which of the cubes given to :func:`search` it solves.
    timed_out
        True when the time budget ran out before a solution of the target length was
        found; a shorter solution may exist.
    nodes
        Search nodes visited (for benchmarks).
    """

    moves: tuple[int, ...]
    start: int
    timed_out: bool
    nodes: int


@njit(cache=True, nogil=True)
def _phase1_bound(tables, twist, flip, slice_sorted):
    slc = slice_sorted // 24
    h = tables[8][twist * 495 + slc]
    h = max(h, tables[9][flip * 495 + slc])
    return max(h, tables[10][twist * 2048 + flip])


@njit(cache=True, nogil=True)
def _allowed(path, depth, move):
    """Canonical sequences only: no face twice in a row, opposite faces in one order."""
    if depth == 0:
        return True
    face = move // 3
    last = path[depth - 1] // 3
    return face != last and face != last - 3


@njit(cache=True, nogil=True)
def _in_phase2_group(move):
    face = move // 3
    return face == 0 or face == 3 or move % 3 == 1


@njit(cache=True, nogil=True)
def _tick(state, stop):
    state[_NODES] += 1
    if state[_NODES] % _CHECK_EVERY == 0 and stop[0] != 0:
        state[_STOPPED] = 1
    return state[_STOPPED] != 0


_PHASE2_MOVE_LIST = np.array(coords.PHASE2_MOVES, dtype=np.int64)


@njit(cache=True, nogil=True)
def _phase2(tables, corners, ud, slice_perm, depth, togo, path, stack, state, stop):
    """Depth-limited phase-2 search; 1 = solved, 0 = not at this length, 2 = stopped.

    An explicit stack instead of recursion: numba's on-disk cache does not handle
    recursive functions reliably.
    """
    move_corners = tables[5]
    move_ud = tables[6]
    move_slice = tables[2]
    prune_c = tables[11]
    prune_e = tables[12]
    moves = _PHASE2_MOVE_LIST
    stack[0, 0] = corners
    stack[0, 1] = ud
    stack[0, 2] = slice_perm
    stack[0, 3] = 0
    level = 0
    while level >= 0:
        if level == togo:
            # Both bounds were below 1, so corners, edges and slice are all solved.
            return 1
        i = stack[level, 3]
        if i == 10:
            level -= 1
            continue
        stack[level, 3] = i + 1
        move = moves[i]
        if not _allowed(path, depth + level, move):
            continue
        remaining = togo - level
        c2 = move_corners[stack[level, 0], move]
        s2 = move_slice[stack[level, 2], move]
        if prune_c[c2 * 24 + s2] >= remaining:
            continue
        e2 = move_ud[stack[level, 1], move]
        if prune_e[e2 * 24 + s2] >= remaining:
            continue
        if _tick(state, stop):
            return 2
        path[depth + level] = move
        level += 1
        stack[level, 0] = c2
        stack[level, 1] = e2
        stack[level, 2] = s2
        stack[level, 3] = 0
    return 0


@njit(cache=True, nogil=True)
def _start_phase2(tables, start, which, slice_perm, depth, path, best, stack, state, stop):
    """Finish one phase-1 solution with the shortest phase 2 that beats the best so far.

    Returns 1 when the whole search should end (target met or stopped).
    """
    limit = min(state[_BEST_LENGTH] - 1 - depth, state[_CAP])
    corners = start[3]
    for i in range(depth):
        corners = tables[5][corners, path[i]]
    bound_c = tables[11][corners * 24 + slice_perm]
    if bound_c > limit:
        return 0
    u_edges = start[4]
    d_edges = start[5]
    for i in range(depth):
        u_edges = tables[3][u_edges, path[i]]
        d_edges = tables[4][d_edges, path[i]]
    ud = tables[7][u_edges, d_edges % 24]
    bound = max(bound_c, tables[12][ud * 24 + slice_perm])
    for togo in range(bound, limit + 1):
        found = _phase2(tables, corners, ud, slice_perm, depth, togo, path, stack, state, stop)
        if found == 2:
            return 1
        if found == 1:
            length = depth + togo
            for i in range(length):  # a slice copy would cost seconds of compiling
                best[i] = path[i]
            state[_BEST_LENGTH] = length
            state[_BEST_START] = which
            return 1 if length <= state[_TARGET] else 0
    return 0


@njit(cache=True, nogil=True)
def _phase1(tables, togo, start, which, path, best, stack1, stack2, state, stop):
    """All phase-1 solutions of length ``togo``; returns 1 when the search should end."""
    stack1[0, 0] = start[0]
    stack1[0, 1] = start[1]
    stack1[0, 2] = start[2]
    stack1[0, 3] = 0
    level = 0
    while level >= 0:
        if level == togo:
            # A phase-1 solution ending in a move of H was already tried one move shorter.
            fresh = level == 0 or not _in_phase2_group(path[level - 1])
            if fresh and _start_phase2(
                tables, start, which, stack1[level, 2], level, path, best, stack2, state, stop
            ):
                return 1
            level -= 1
            continue
        move = stack1[level, 3]
        if move == 18:
            level -= 1
            continue
        stack1[level, 3] = move + 1
        if not _allowed(path, level, move):
            continue
        remaining = togo - level
        t2 = tables[0][stack1[level, 0], move]
        if remaining == 1:
            # The last move must reach H itself: compare coordinates, skip the tables.
            if t2 != 0:
                continue
            s2 = tables[2][stack1[level, 2], move]
            if s2 >= 24:
                continue
            f2 = tables[1][stack1[level, 1], move]
            if f2 != 0:
                continue
        else:
            s2 = tables[2][stack1[level, 2], move]
            slc = s2 // 24
            if tables[8][t2 * 495 + slc] >= remaining:
                continue
            f2 = tables[1][stack1[level, 1], move]
            if tables[9][f2 * 495 + slc] >= remaining or tables[10][t2 * 2048 + f2] >= remaining:
                continue
        if _tick(state, stop):
            return 1
        path[level] = move
        level += 1
        stack1[level, 0] = t2
        stack1[level, 1] = f2
        stack1[level, 2] = s2
        stack1[level, 3] = 0
    return 0


@njit(cache=True, nogil=True)
def _run(tables, starts, best, state, stop):
    """Search phase-1 lengths upwards until the target is met, stopped, or exhausted.

    ``starts`` holds one row of coordinates per equivalent cube (e.g. the cube seen
    along another axis, or its inverse); each phase-1 length is tried on all of them.
    """
    path = np.zeros(MAX_TOTAL + 1, dtype=np.int64)
    stack1 = np.zeros((MAX_TOTAL + 1, 4), dtype=np.int64)
    stack2 = np.zeros((MAX_TOTAL + 1, 4), dtype=np.int64)
    for togo1 in range(MAX_TOTAL + 1):
        if togo1 >= state[_BEST_LENGTH]:
            return
        for which in range(len(starts)):
            start = starts[which]
            if _phase1_bound(tables, start[0], start[1], start[2]) > togo1:
                continue
            if _phase1(tables, togo1, start, which, path, best, stack1, stack2, state, stop):
                return


def start_coordinates(cubes: Sequence[CubieCube]) -> np.ndarray:
    """Kernel start rows ``[twist, flip, slice_sorted, corners, u_edges, d_edges]``.

    Parameters
    ----------
    cubes
        3x3 cubes at cubie level, the equivalent starts of one search.

    Returns
    -------
    numpy.ndarray
        int64, shape ``(len(cubes), 6)``: one row of :mod:`cubescan.solver.coords` coordinates
        per cube (all 0 on the solved cube).

    Examples
    --------
    >>> start_coordinates([CubieCube()]).tolist()
    [[0, 0, 0, 0, 0, 0]]
    >>> from cubescan.solver.cubie import move_cubie
    >>> from cubescan.solver.moves import Move
    >>> start_coordinates([move_cubie(Move("U"))]).tolist()  # U moves corners and U edges
    [[0, 0, 0, 15120, 18, 0]]
    """
    co = np.array([c.co for c in cubes])
    cp = np.array([c.cp for c in cubes])
    eo = np.array([c.eo for c in cubes])
    ep = np.array([c.ep for c in cubes])
    return np.stack(
        [
            coords.twist_of(co),
            coords.flip_of(eo),
            coords.edge4_of(ep, coords.SLICE_EDGES),
            coords.perm_rank(cp),
            coords.edge4_of(ep, coords.U_EDGES),
            coords.edge4_of(ep, coords.D_EDGES),
        ],
        axis=1,
    ).astype(np.int64)


def table_tuple(tables: dict[str, np.ndarray]) -> tuple[np.ndarray, ...]:
    """The tables in the order the compiled kernel expects them.

    Parameters
    ----------
    tables
        Name -> array, as from :func:`cubescan.solver.tables.load_tables`.

    Returns
    -------
    tuple of numpy.ndarray
        The 13 arrays the kernel uses: the move tables ``move_twist`` .. ``move_ud_edges``,
        ``merge_ud_edges`` and the five ``prune_*`` tables (``move_slice`` and
        ``move_slice_perm`` only serve the build).

    Raises
    ------
    KeyError
        When one of those 13 tables is missing.

    Examples
    --------
    >>> len(table_tuple(load_tables()))  # doctest: +SKIP
    13
    >>> from cubescan.solver.tables import TABLE_NAMES
    >>> order = table_tuple({name: name for name in TABLE_NAMES})  # names stand in for arrays
    >>> order[0], order[8], order[-1]
    ('move_twist', 'prune_twist_slice', 'prune_ud_edges_slice_perm')
    """
    return tuple(tables[name] for name in _TABLE_ORDER)


def search(
    cubes: Sequence[CubieCube],
    max_length: int = 20,
    timeout: float | None = None,
    tables: dict[str, np.ndarray] | None = None,
) -> SearchOutcome:
    """Two-phase search for a solution of at most ``max_length`` moves.

    Parameters
    ----------
    cubes
        One or more equivalent solvable cubes (validate first: an unsolvable one is
        searched without end). Solving any of them solves the problem; they are
        searched side by side, e.g. the cube seen along three axes and its inverse.
    max_length
        Stop as soon as a solution this short is found.
    timeout
        Seconds after which the best solution so far is returned (``timed_out``);
        None searches until ``max_length`` is met or no shorter solution exists. The
        search always runs until it has one solution, which takes milliseconds.
    tables
        Tables from :func:`cubescan.solver.tables.load_tables` (loaded when omitted).

    Returns
    -------
    SearchOutcome

    Raises
    ------
    KeyboardInterrupt
        Ctrl-C: the worker is stopped and joined before the interrupt propagates.

    Examples
    --------
    >>> from cubescan.solver.cubie import move_cubie
    >>> from cubescan.solver.moves import Move
    >>> search([move_cubie(Move("R"))]).moves  # doctest: +SKIP
    (5,)
    """
    kernel_tables = table_tuple(tables if tables is not None else load_tables())
    starts = start_coordinates(cubes)
    best = np.zeros(MAX_TOTAL + 1, dtype=np.int64)
    state = np.zeros(6, dtype=np.int64)
    state[_BEST_LENGTH] = MAX_TOTAL + 1
    state[_TARGET] = max_length
    state[_CAP] = PHASE2_CAP
    stop = np.zeros(1, dtype=np.int64)
    worker = threading.Thread(
        target=_run, args=(kernel_tables, starts, best, state, stop), daemon=True
    )
    deadline = None if timeout is None else time.monotonic() + timeout
    stopped_for_time = False
    worker.start()
    try:
        while worker.is_alive():
            wait = 0.05 if deadline is None else max(0.0, min(0.05, deadline - time.monotonic()))
            worker.join(wait)
            late = deadline is not None and time.monotonic() >= deadline
            # Past the deadline, stop as soon as there is a solution to return.
            if late and worker.is_alive() and state[_BEST_LENGTH] <= MAX_TOTAL:
                stopped_for_time = True
                stop[0] = 1
                worker.join()
    finally:
        if worker.is_alive():  # interrupted (Ctrl-C): stop the kernel before leaving
            stop[0] = 1
            worker.join()
    length = int(state[_BEST_LENGTH])
    moves = tuple(int(m) for m in best[:length]) if length <= MAX_TOTAL else ()
    return SearchOutcome(
        moves,
        int(state[_BEST_START]),
        stopped_for_time and length > max_length,
        int(state[_NODES]),
    )
