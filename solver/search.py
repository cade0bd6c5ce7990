"""IDA* searches of the 3x3 solver, compiled with numba: direct for short solutions, then
two-phase.

A cube a few moves from solved is first searched directly: IDA* over the whole cube,
bounded by the exact phase-1 distance of the cube seen along each of its three axes
(:mod:`cubescan.solver.phase1`) and by the corner permutation's distance, up to
:data:`DIRECT_DEPTH` moves. What it finds is optimal.

Phase 1 brings the cube into the subgroup H = <U, D, R2, L2, F2, B2> (corner twist,
edge flip and middle-layer membership all solved); phase 2 solves it with the moves
of H. Phase 1 is searched with increasing length; every phase-1 solution is finished
by the shortest phase 2 (IDA* too), and the search goes on with longer phase-1
solutions as long as they can give a shorter total, until the total is at most the
target length, the caller stops it, or every phase-1 length that could still give a
shorter total has been tried, or the total reaches the lower bound. Phase 1 is pruned
with its exact distance (:mod:`cubescan.solver.phase1`), phase 2 with the exact distance
of its corners and U-D edges (:mod:`cubescan.solver.phase2`) and with the corners and
the U-D edges each beside the slice edges. (Phase 2 is capped at :data:`PHASE2_CAP`
moves, so an exhausted search is not a proof of optimality.)

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
from numba import njit, typeof

from cubescan.solver import coords, phase2
from cubescan.solver.cubie import CubieCube
from cubescan.solver.phase1 import entry_index, exact_distance
from cubescan.solver.symtable import next_distance
from cubescan.solver.tables import load_tables

MAX_TOTAL = 40
"""No solution longer than this is ever reported (two-phase gives < 30 at once)."""

PHASE2_CAP = 11
"""Longest phase 2 tried after one phase-1 solution: a longer phase 2 seldom gives a short
total, and those searches cost the most."""

DIRECT_DEPTH = 10
"""Longest solution looked for by the direct search before two-phase starts."""

DIRECT_NODES = 2_000_000
"""Nodes after which the direct search gives up and leaves the cube to two-phase."""

_NEVER = 99
"""Distance given to a child that is never expanded (a move that is not canonical)."""

_CHECK_EVERY = 256
"""Nodes between two looks at the stop flag."""

# On literals: a search level starts as np.int64(0), not the literal 0. Numba compiles a
# kernel called with a literal argument once for that literal and again for int64 when the
# loop changes it, so each kernel the level reaches would be compiled twice on the first run.

_KERNEL_TABLES = (
    ("move_twist", "uint16", 2),
    ("move_flip", "uint16", 2),
    ("move_slice_sorted", "uint16", 2),
    ("move_u_edges", "uint16", 2),
    ("move_d_edges", "uint16", 2),
    ("move_corners", "uint16", 2),
    ("move_ud_edges", "uint16", 2),
    ("merge_ud_edges", "uint16", 2),
    ("phase1_mod3", "uint8", 1),
    ("flipslice_class", "uint16", 1),
    ("flipslice_sym", "uint8", 1),
    ("twist_conj", "uint16", 2),
    ("move_slice", "uint16", 2),
    ("prune_corners_slice_perm", "int8", 1),
    ("prune_ud_edges_slice_perm", "int8", 1),
    ("prune_corners", "int8", 1),
    ("phase2_mod3", "uint8", 1),
    ("corners_class", "uint16", 1),
    ("corners_sym", "uint8", 1),
    ("ud_edges_conj", "uint16", 2),
)
"""The tables the kernels take, in their order, with each one's dtype and dimensions (what
the kernels are compiled for: see :func:`compile_search`)."""

# Indices into the kernel's int64 ``state`` array (shared with the calling thread).
(_BEST_LENGTH, _NODES, _STOPPED, _TARGET, _CAP, _BEST_START, _LOWER, _OPTIMAL, _NODE_CAP,
 _DIRECT_DONE) = range(10)  # fmt: skip
_STATE_SIZE = _DIRECT_DONE + 1


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
    lower_bound
        No solution is shorter than this (the largest phase-1 distance of the cubes
        searched, or what the direct search ruled out).
    optimal
        True when ``moves`` is as short as a solution can be (its length is
        ``lower_bound``).
    """

    moves: tuple[int, ...]
    start: int
    timed_out: bool
    nodes: int
    lower_bound: int = 0
    optimal: bool = False


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def _allowed(path, depth, move):
    """Canonical sequences only: no face twice in a row, opposite faces in one order."""
    if depth == 0:
        return True
    face = move // 3
    last = path[depth - 1] // 3
    return face != last and face != last - 3


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def _in_phase2_group(move):
    face = move // 3
    return face == 0 or face == 3 or move % 3 == 1


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def _tick(state, stop):
    state[_NODES] += 1
    if state[_NODES] % _CHECK_EVERY == 0 and stop[0] != 0:
        state[_STOPPED] = 1
    return state[_STOPPED] != 0


_PHASE2_MOVE_LIST = np.array(coords.PHASE2_MOVES, dtype=np.int64)


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def _expand_phase2(tables, row, depth, path, kids):
    """All 10 children of a phase-2 node at once (see :func:`_expand_phase1`).

    ``kids[i]`` for move ``PHASE2_MOVES[i]``: corners, ud_edges, slice_perm, exact
    distance of corners and U-D edges, lower bound of the child (:data:`_NEVER` for a
    move that would not be canonical).
    """
    for i in range(10):
        move = _PHASE2_MOVE_LIST[i]
        if not _allowed(path, depth, move):
            kids[i, 4] = _NEVER
            continue
        c2 = tables[5][row[0], move]
        e2 = tables[6][row[1], move]
        s2 = tables[2][row[2], move]
        kids[i, 0] = c2
        kids[i, 1] = e2
        kids[i, 2] = s2
        kids[i, 3] = phase2.entry_index(c2, e2, tables[17], tables[18], tables[19])
        kids[i, 4] = max(tables[13][c2 * 24 + s2], tables[14][e2 * 24 + s2])
    distance = row[4]
    for i in range(10):
        if kids[i, 4] != _NEVER:
            kids[i, 3] = next_distance(tables[16], kids[i, 3], distance)
            kids[i, 4] = max(kids[i, 4], kids[i, 3])


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def _phase2(tables, start_row, depth, togo, path, stack, kids, state, stop):
    """Depth-limited phase-2 search; 1 = solved, 0 = not at this length, 2 = stopped.

    ``stack`` rows: corners, ud_edges, slice_perm, next move to try, exact distance of
    corners and U-D edges together; ``kids[level]`` the children of the node at
    ``level`` (:func:`_expand_phase2`). An explicit stack instead of recursion: numba's
    on-disk cache does not handle recursive functions reliably.
    """
    for k in range(len(start_row)):  # element by element: a slice copy costs seconds of compiling
        stack[0, k] = start_row[k]
    stack[0, 3] = 0
    level = 0
    while level >= 0:
        if level == togo:
            # Every bound was below 1, so corners, edges and slice are all solved.
            return 1
        i = stack[level, 3]
        if i == 10:
            level -= 1
            continue
        if i == 0:
            _expand_phase2(tables, stack[level], depth + level, path, kids[level])
        stack[level, 3] = i + 1
        child = kids[level, i]
        if child[4] >= togo - level:
            continue
        if _tick(state, stop):
            return 2
        path[depth + level] = _PHASE2_MOVE_LIST[i]
        level += 1
        stack[level, 0] = child[0]
        stack[level, 1] = child[1]
        stack[level, 2] = child[2]
        stack[level, 3] = 0
        stack[level, 4] = child[3]
    return 0


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def _start_phase2(
    tables, start, which, corners, slice_perm, depth, path, best, stacks, state, stop
):
    """Finish one phase-1 solution with the shortest phase 2 that beats the best so far.

    Returns 1 when the whole search should end (target met or stopped).
    """
    limit = min(state[_BEST_LENGTH] - 1 - depth, state[_CAP])
    bound_c = tables[13][corners * 24 + slice_perm]
    if bound_c > limit:
        return 0
    u_edges = start[4]
    d_edges = start[5]
    for i in range(depth):
        u_edges = tables[3][u_edges, path[i]]
        d_edges = tables[4][d_edges, path[i]]
    ud = tables[7][u_edges, d_edges % 24]
    bound = max(bound_c, tables[14][ud * 24 + slice_perm])
    if bound > limit:
        return 0
    distance = phase2.exact_distance(
        corners, ud, tables[16], tables[17], tables[18], tables[19], tables[5], tables[6]
    )
    bound = max(bound, distance)
    stack, kids = stacks
    start_row = stack[MAX_TOTAL]  # a spare row: phase 2 never gets that deep
    start_row[0] = corners
    start_row[1] = ud
    start_row[2] = slice_perm
    start_row[4] = distance
    for togo in range(bound, limit + 1):
        found = _phase2(tables, start_row, depth, togo, path, stack, kids, state, stop)
        if found == 2:
            return 1
        if found == 1:
            length = depth + togo
            for i in range(length):  # a slice copy would cost seconds of compiling
                best[i] = path[i]
            state[_BEST_LENGTH] = length
            state[_BEST_START] = which
            if length <= state[_LOWER]:
                state[_OPTIMAL] = 1
                return 1
            return 1 if length <= state[_TARGET] else 0
    return 0


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def _expand_phase1(tables, row, level, remaining, path, kids):
    """Coordinates and exact distances of all 18 children of a phase-1 node at once.

    ``kids[m]``: twist, flip, slice_sorted, distance (:data:`_NEVER` for a move that
    is not canonical, or not worth making), entry index. The index look-ups of all
    children come first and the table reads after, so that their cache misses overlap.
    One move from the end of phase 1, a child is kept only when its coordinates are 0
    (no table read) and its move is not one of H's (that solution was tried one move
    shorter).
    """
    last = remaining == 1
    for m in range(18):
        if not _allowed(path, level, m) or (last and _in_phase2_group(m)):
            kids[m, 3] = _NEVER
            continue
        t2 = tables[0][row[0], m]
        f2 = tables[1][row[1], m]
        s2 = tables[2][row[2], m]
        kids[m, 0] = t2
        kids[m, 1] = f2
        kids[m, 2] = s2
        if last:
            kids[m, 3] = 0 if t2 == 0 and f2 == 0 and s2 < 24 else _NEVER
        else:
            kids[m, 3] = 0
            kids[m, 4] = entry_index(t2, f2, s2 // 24, tables[9], tables[10], tables[11])
    if last:
        return
    distance = row[4]
    for m in range(18):
        if kids[m, 3] != _NEVER:
            kids[m, 3] = next_distance(tables[8], kids[m, 4], distance)


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def _phase1(tables, togo, start, distance, which, path, best, stacks, state, stop):
    """All phase-1 solutions of length ``togo``; returns 1 when the search should end.

    ``stacks[0]`` rows: twist, flip, slice_sorted, next move to try, exact phase-1
    distance, corners; ``stacks[2][level]`` holds the children of the node at ``level``
    (see :func:`_expand_phase1`); ``stacks[1]`` and ``stacks[3]`` are phase 2's.
    """
    stack1, stack2, kids, kids2 = stacks
    stack1[0, 0] = start[0]
    stack1[0, 1] = start[1]
    stack1[0, 2] = start[2]
    stack1[0, 3] = 0
    stack1[0, 4] = distance
    stack1[0, 5] = start[3]
    level = np.int64(0)  # not a literal: see the note on literals at the top
    while level >= 0:
        if level == togo:
            # The last move is never one of H's (_expand_phase1), but for no move at all.
            if _start_phase2(
                tables,
                start,
                which,
                stack1[level, 5],
                stack1[level, 2],
                level,
                path,
                best,
                (stack2, kids2),
                state,
                stop,
            ):
                return 1
            level -= 1
            continue
        move = stack1[level, 3]
        if move == 18:
            level -= 1
            continue
        if move == 0:
            _expand_phase1(tables, stack1[level], level, togo - level, path, kids[level])
        stack1[level, 3] = move + 1
        child = kids[level, move]
        if child[3] >= togo - level:
            continue
        if _tick(state, stop):
            return 1
        path[level] = move
        level += 1
        stack1[level, 0] = child[0]
        stack1[level, 1] = child[1]
        stack1[level, 2] = child[2]
        stack1[level, 3] = 0
        stack1[level, 4] = child[3]
        stack1[level, 5] = tables[5][stack1[level - 1, 5], move]
    return 0


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def _direct(tables, starts, axis_moves, distances, max_depth, best, state, stop):
    """IDA* over the whole cube up to ``max_depth`` moves, on ``starts[0]``.

    The bound is the largest exact phase-1 distance over the cube seen along each axis
    (``starts[v]`` with ``axis_moves[v]`` mapping a move of ``starts[0]`` to its own,
    for the rows ``v`` whose mapping is given) and the corner permutation's distance.
    Returns the length found (optimal), or -1 when none is at most ``max_depth``
    moves long, or -2 when the node budget or the stop flag ended the search first;
    ``state[_LOWER]`` then holds what was proved.
    """
    axes = 0
    for v in range(len(starts)):
        if axis_moves[v, 0] >= 0:
            axes += 1
    # Per level: twist, flip, slice_sorted, distance for each axis, then corners,
    # u_edges, d_edges of starts[0], then the next move to try.
    width = 4 * axes + 4
    stack = np.zeros((max_depth + 1, width), dtype=np.int64)
    path = np.zeros(max_depth + 1, dtype=np.int64)
    bound = tables[15][starts[0, 3]]
    for v in range(axes):
        stack[0, 4 * v] = starts[v, 0]
        stack[0, 4 * v + 1] = starts[v, 1]
        stack[0, 4 * v + 2] = starts[v, 2]
        stack[0, 4 * v + 3] = distances[v]
        bound = max(bound, distances[v])
    stack[0, 4 * axes] = starts[0, 3]
    stack[0, 4 * axes + 1] = starts[0, 4]
    stack[0, 4 * axes + 2] = starts[0, 5]
    state[_LOWER] = max(state[_LOWER], bound)
    budget_end = state[_NODES] + state[_NODE_CAP]
    for depth in range(bound, max_depth + 1):
        stack[0, width - 1] = 0
        level = np.int64(0)  # not a literal: see the note on literals at the top
        while level >= 0:
            row = stack[level]
            if level == depth:
                solved = row[4 * axes] == 0 and row[4 * axes + 1] == 0 and row[4 * axes + 2] == 0
                for v in range(axes):
                    solved = solved and row[4 * v + 3] == 0
                if solved and row[2] == 0:
                    for i in range(depth):  # element by element, as above
                        best[i] = path[i]
                    state[_BEST_LENGTH] = depth
                    state[_BEST_START] = 0
                    state[_LOWER] = depth
                    state[_OPTIMAL] = 1
                    return depth
                level -= 1
                continue
            move = row[width - 1]
            if move == 18:
                level -= 1
                continue
            row[width - 1] = move + 1
            if not _allowed(path, level, move):
                continue
            remaining = depth - level - 1
            corners = tables[5][row[4 * axes], move]
            if tables[15][corners] > remaining:
                continue
            nxt = stack[level + 1]
            pruned = False
            for v in range(axes):
                m = axis_moves[v, move]
                t2 = tables[0][row[4 * v], m]
                f2 = tables[1][row[4 * v + 1], m]
                s2 = tables[2][row[4 * v + 2], m]
                index = entry_index(t2, f2, s2 // 24, tables[9], tables[10], tables[11])
                d2 = next_distance(tables[8], index, row[4 * v + 3])
                if d2 > remaining:
                    pruned = True
                    break
                nxt[4 * v] = t2
                nxt[4 * v + 1] = f2
                nxt[4 * v + 2] = s2
                nxt[4 * v + 3] = d2
            if pruned:
                continue
            if _tick(state, stop) or state[_NODES] >= budget_end:
                return -2
            nxt[4 * axes] = corners
            nxt[4 * axes + 1] = tables[3][row[4 * axes + 1], move]
            nxt[4 * axes + 2] = tables[4][row[4 * axes + 2], move]
            nxt[width - 1] = 0
            path[level] = move
            level += 1
        # Every sequence of this length was tried: the solution is longer.
        state[_LOWER] = max(state[_LOWER], depth + 1)
    return -1


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def _run(tables, starts, axis_moves, direct_depth, best, state, stop, searched):
    """The direct search for short solutions, then two-phase by phase-1 length.

    ``starts`` holds one row of coordinates per equivalent cube (e.g. the cube seen
    along another axis, or its inverse); each phase-1 length is tried on those of them
    ``searched`` marks (another thread may search the others).
    """
    distances = np.zeros(len(starts), dtype=np.int64)
    for which in range(len(starts)):
        start = starts[which]
        # Exact phase-1 distance (a walk down the mod-3 table).
        distances[which] = exact_distance(
            start[0],
            start[1],
            start[2] // 24,
            tables[8],
            tables[9],
            tables[10],
            tables[11],
            tables[0],
            tables[1],
            tables[12],
        )
        # Every solution of any of them is at least its phase-1 distance long.
        state[_LOWER] = max(state[_LOWER], distances[which])
    if direct_depth > 0:
        found = _direct(tables, starts, axis_moves, distances, direct_depth, best, state, stop)
        if found >= 0 or state[_STOPPED] != 0:
            return
    state[_DIRECT_DONE] = 1
    # A symmetric cube (the superflip...) looks the same along several axes: search
    # each distinct start once.
    distinct = np.ones(len(starts), dtype=np.bool_)
    for which in range(len(starts)):
        for earlier in range(which):
            if distinct[earlier] and (starts[earlier] == starts[which]).all():
                distinct[which] = False
                break
    path = np.zeros(MAX_TOTAL + 1, dtype=np.int64)
    stacks = (
        np.zeros((MAX_TOTAL + 1, 6), dtype=np.int64),
        np.zeros((MAX_TOTAL + 1, 5), dtype=np.int64),
        np.zeros((MAX_TOTAL + 1, 18, 5), dtype=np.int64),
        np.zeros((MAX_TOTAL + 1, 10, 5), dtype=np.int64),
    )
    for togo1 in range(MAX_TOTAL + 1):
        if togo1 >= state[_BEST_LENGTH]:
            return
        for which in range(len(starts)):
            if distances[which] > togo1 or not distinct[which] or not searched[which]:
                continue
            if _phase1(
                tables,
                togo1,
                starts[which],
                distances[which],
                which,
                path,
                best,
                stacks,
                state,
                stop,
            ):
                return


def _new_state(max_length: int) -> np.ndarray:
    """A search thread's ``state`` array before it starts (see the indices above)."""
    state = np.zeros(_STATE_SIZE, dtype=np.int64)
    state[_BEST_LENGTH] = MAX_TOTAL + 1
    state[_TARGET] = max_length
    state[_CAP] = PHASE2_CAP
    state[_NODE_CAP] = DIRECT_NODES
    return state


def _wait_for_search(
    runs: list[tuple[threading.Thread, np.ndarray, np.ndarray]],
    finished: threading.Event,
    max_length: int,
    deadline: float | None,
) -> bool:
    """Wait until the search threads' results settle it; True when the deadline cut it
    short (the threads are still running then; the caller stops them).

    A solution within the target stands once the first thread's direct search found none
    shorter; that thread's optimal one stands as soon as it is done.
    """
    first_worker, _, first = runs[0]
    while True:
        alive = [worker for worker, _, _ in runs if worker.is_alive()]
        met = any(state[_BEST_LENGTH] <= max_length for *_, state in runs)
        optimal = first[_OPTIMAL] and not first_worker.is_alive()
        if not alive or (met and first[_DIRECT_DONE]) or optimal:
            return False
        # Waiting on the direct search to end has no event: look again soon.
        wait = 0.001 if met else 0.05
        if deadline is not None:
            wait = max(0.0, min(wait, deadline - time.monotonic()))
        finished.wait(wait)
        finished.clear()
        late = deadline is not None and time.monotonic() >= deadline
        # Past the deadline, stop as soon as there is a solution to return.
        if late and any(state[_BEST_LENGTH] <= MAX_TOTAL for *_, state in runs):
            return any(worker.is_alive() for worker, _, _ in runs)


def _run_and_tell(finished: threading.Event, *arguments) -> None:
    """:func:`_run` in a thread, setting ``finished`` as it ends (however it ends)."""
    try:
        _run(*arguments)
    finally:
        finished.set()


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
        The 20 arrays the kernel uses: the move tables ``move_twist`` .. ``move_ud_edges``,
        ``merge_ud_edges``, the phase-1 distance arrays, ``move_slice``, the three
        ``prune_*`` tables and the phase-2 distance arrays (``move_slice_perm``, the
        class representatives and stabilizers only serve the build).

    Raises
    ------
    KeyError
        When one of those 20 tables is missing.

    Examples
    --------
    >>> len(table_tuple(load_tables()))  # doctest: +SKIP
    20
    >>> from cubescan.solver.tables import TABLE_NAMES
    >>> order = table_tuple({name: name for name in TABLE_NAMES})  # names stand in for arrays
    >>> order[0], order[8], order[-1]
    ('move_twist', 'phase1_mod3', 'ud_edges_conj')
    """
    return tuple(tables[name] for name, _, _ in _KERNEL_TABLES)


def compile_search() -> None:
    """Compile the search kernels for the tables' types, without the tables.

    On the first run the tables take seconds to build and the kernels seconds to compile;
    run in a process of its own, this compiles them meanwhile, and numba's on-disk cache
    hands the result to the search that follows. The stand-in arrays have the tables'
    dtypes, dimensions and flags (read-only, C order), which is all a compile asks.

    Returns
    -------
    None

    Examples
    --------
    >>> compile_search()  # doctest: +SKIP
    """
    tables = []
    for _, dtype, ndim in _KERNEL_TABLES:
        stand_in = np.zeros((1,) * ndim, dtype)
        stand_in.flags.writeable = False  # as the cache loads them
        tables.append(stand_in)
    one_row = np.zeros((1, 6), np.int64)
    axis_moves = np.zeros((1, 18), np.int64)
    best, state, stop = (np.zeros(k, np.int64) for k in (MAX_TOTAL + 1, _STATE_SIZE, 1))
    searched = np.ones(1, np.bool_)
    arguments = (tuple(tables), one_row, axis_moves, DIRECT_DEPTH, best, state, stop, searched)
    _run.compile(tuple(typeof(argument) for argument in arguments))


def search(
    cubes: Sequence[CubieCube],
    max_length: int = 20,
    timeout: float | None = None,
    tables: dict[str, np.ndarray] | None = None,
    axis_moves: np.ndarray | None = None,
    direct_depth: int = DIRECT_DEPTH,
) -> SearchOutcome:
    """Search for a solution of at most ``max_length`` moves: direct, then two-phase.

    First an IDA* over the whole cube looks for a solution of at most ``direct_depth``
    moves (an optimal one when it exists; it gives up after
    :data:`DIRECT_NODES` nodes); then the two-phase search runs.

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
    axis_moves
        Int array ``(len(cubes), 18)``: row ``v`` maps a move of ``cubes[0]`` to the
        same move on ``cubes[v]`` when ``cubes[v]`` is ``cubes[0]`` seen along another
        axis (these rows first), -1 rows for the others (inverses). Their phase-1
        distances bound the direct search. None: ``cubes[0]`` alone.
    direct_depth
        Longest solution the direct search looks for; 0 skips it.

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
    if axis_moves is None:
        axis_moves = np.full((len(cubes), 18), -1, dtype=np.int64)
        axis_moves[0] = np.arange(18)
    axis_moves = np.ascontiguousarray(axis_moves, dtype=np.int64)
    stop = np.zeros(1, dtype=np.int64)
    # Two threads (the kernel holds no lock) split the starts of the two-phase search;
    # the first also runs the direct search, whose optimal short solution comes first.
    halves = [np.arange(len(cubes)) % 2 == half for half in range(min(2, len(cubes)))]
    finished = threading.Event()  # set by each thread as it ends
    runs = []
    for half, searched in enumerate(halves):
        best = np.zeros(MAX_TOTAL + 1, dtype=np.int64)
        state = _new_state(max_length)
        depth = direct_depth if half == 0 else 0
        arguments = (kernel_tables, starts, axis_moves, depth, best, state, stop, searched)
        worker = threading.Thread(target=_run_and_tell, args=(finished, *arguments), daemon=True)
        runs.append((worker, best, state))
    first = runs[0][2]
    deadline = None if timeout is None else time.monotonic() + timeout
    for worker, _, _ in runs:
        worker.start()
    try:
        stopped_for_time = _wait_for_search(runs, finished, max_length, deadline)
    finally:
        stop[0] = 1  # the other thread, or both when interrupted (Ctrl-C)
        for worker, _, _ in runs:
            worker.join()
    usable = runs if first[_DIRECT_DONE] or stopped_for_time else runs[:1]
    _, best, state = min(usable, key=lambda run: run[2][_BEST_LENGTH])
    length = int(state[_BEST_LENGTH])
    moves = tuple(int(m) for m in best[:length]) if length <= MAX_TOTAL else ()
    lower = max(int(s[_LOWER]) for *_, s in runs)
    return SearchOutcome(
        moves,
        int(state[_BEST_START]),
        stopped_for_time and length > max_length,
        sum(int(s[_NODES]) for *_, s in runs),
        min(lower, len(moves)),
        bool(first[_OPTIMAL]) or len(moves) <= lower,
    )
