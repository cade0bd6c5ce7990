"""Solve a cube: validate, search (two-phase), map the moves back, and prove the result.

:func:`solve` is the public entry point: it validates the state first (an unsolvable
cube raises :class:`~cubescan.errors.UnsolvableCubeError` with the validator's diagnosis
and is never searched), then runs the two-phase search of :mod:`cubescan.solver.search` on six
equivalent problems side by side (the cube seen along each of its three axes, and its
inverse along each), maps the winner's moves back to the cube as given, applies them
to the facelets and checks that the cube is solved before returning them.

A 2x2 is solved optimally by :mod:`cubescan.solver.pocket`. For :func:`solve_to` a 2x2 is
treated as the corners of a 3x3 whose edges are solved (or, when the corner permutation
is odd, have two edges exchanged): outer turns move a 2x2's pieces exactly as they move
a 3x3's corners.

Examples
--------
>>> from cubescan.solver.moves import apply_moves, format_moves, solved_facelets
>>> format_moves(solve(apply_moves(solved_facelets(3), "R U R' F2")))  # doctest: +SKIP
"F2 R U' R'"
>>> solve(solved_facelets(3))
[]
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from cubescan.errors import BadInputError, UnsolvableCubeError
from cubescan.solver.cubie import (
    CubieCube,
    cubie_to_facelets,
    facelets_to_cubie,
    permutation_parity,
)
from cubescan.solver.facelets import CubeState, parse_state
from cubescan.solver.geometry import FACES
from cubescan.solver.moves import (
    Move,
    apply_moves,
    cancel_moves,
    format_moves,
    invert_moves,
    outer_moves,
    size_from_length,
    solved_facelets,
)
from cubescan.solver.pocket import solve_pocket
from cubescan.solver.search import search
from cubescan.solver.stages import SolveStage
from cubescan.solver.tables import load_tables
from cubescan.solver.validate import validate

GODS_NUMBER = 20
"""Every 3x3 state is solvable in at most this many face turns: the default target."""

TAIL_TARGET = 19
"""Length first asked of the 3x3 a big cube's reduction leaves (see :data:`TAIL_SECONDS`)."""

TAIL_SECONDS = 0.3
"""How long that 3x3 is searched for :data:`TAIL_TARGET` moves before 20 will do: 0.7
moves shorter on average, for a median 25 ms more (40 random states)."""


_VIEWS = ("", "z", "x")
"""Whole-cube rotations that put each of the three axes upright for phase 1."""


@dataclass(frozen=True)
class SolveResult:
    """A verified solution and what is known about it.

    Attributes
    ----------
    moves
        Outer face turns (HTM) that solve the cube; already checked by applying them.
    max_length
        The length that was asked for; None: no target (a cube of 4x4 and up solved by
        reduction with no length asked for).
    timed_out
        True when the time budget ended before a solution of at most ``max_length``
        moves was found: ``moves`` is the best found so far and may not be the shortest.
    nodes
        Search nodes visited.
    lower_bound
        No solution is shorter than this many moves (proved by the search).
    optimal
        True when no shorter solution exists (``length == lower_bound``): so for a
        cube at most :data:`cubescan.solver.search.DIRECT_DEPTH` moves from solved, unless
        the direct search's node budget (:data:`cubescan.solver.search.DIRECT_NODES`)
        ran out first.
    stages
        The solution split into its named stages (a big cube's centres, edges and 3x3);
        empty for a cube solved in one stage (2x2 and 3x3).
    """

    moves: tuple[Move, ...]
    max_length: int | None
    timed_out: bool = False
    nodes: int = 0
    lower_bound: int = 0
    optimal: bool = False
    stages: tuple[SolveStage, ...] = ()

    @property
    def length(self) -> int:
        """Number of moves."""
        return len(self.moves)

    @property
    def target_met(self) -> bool:
        """True when the solution is at most ``max_length`` moves long (or none was asked)."""
        return self.max_length is None or len(self.moves) <= self.max_length

    @property
    def text(self) -> str:
        """The moves as WCA text."""
        return format_moves(self.moves)


@lru_cache(maxsize=1)
def _tables() -> dict[str, np.ndarray]:
    return load_tables()


def forget_tables() -> None:
    """Drop the solver tables this process holds; the next solve loads them again.

    The tables are read from the cache folder (or built) on the first solve and kept
    in memory after that. Call this after pointing ``$CUBESCAN_CACHE_DIR`` at another
    folder, so that the next solve uses that folder.

    Examples
    --------
    >>> forget_tables()
    >>> solve(solved_facelets(3))  # a solved cube needs no tables
    []
    """
    _tables.cache_clear()


def _checked_state(state: str | CubeState) -> CubeState:
    """Parse and validate; raise the validator's diagnosis for an unsolvable cube."""
    report = validate(state)
    if not report.valid:
        first = report.problems[0]
        if not report.readable:
            raise BadInputError(first.code, first.message)
        raise UnsolvableCubeError(first.code, report.summary, report)
    return state if isinstance(state, CubeState) else parse_state(state)


def _as_3x3(facelets: str) -> CubieCube:
    """The 3x3 cubie cube to search for a (solvable) 2x2 or 3x3 facelet string."""
    cube = facelets_to_cubie(facelets)
    if cube.ep:
        return cube
    ep = list(range(12))
    if permutation_parity(cube.cp):
        ep[10], ep[11] = ep[11], ep[10]
    return CubieCube(cube.cp, cube.co, tuple(ep), (0,) * 12)


def _views(facelets: str) -> list[tuple[CubieCube, dict[str, str], bool]]:
    """Six equivalent problems: (cube, face in that view -> face as given, inverted?)."""
    size = 3 if len(facelets) == 54 else 2
    per_face = size * size
    views, inverses = [], []
    for rotation in _VIEWS:
        turned = apply_moves(facelets, rotation) if rotation else facelets
        if size == 3:
            # After the rotation, the centre at each position says which face it was.
            was = {face: turned[i * per_face + 4] for i, face in enumerate(FACES)}
        else:
            # A 2x2 has no centres: follow the rotation on a 3x3 to learn the faces.
            turned3 = apply_moves(solved_facelets(3), rotation) if rotation else solved_facelets(3)
            was = {face: turned3[i * 9 + 4] for i, face in enumerate(FACES)}
        relabel = str.maketrans({old: new for new, old in was.items()})
        cube = _as_3x3(turned.translate(relabel))
        views.append((cube, was, False))
        inverses.append((cube.inverse(), was, True))
    # All three axes first, then the inverses: measured to find 20 moves soonest.
    return views + inverses


def solve_detailed(
    state: str | CubeState, max_length: int | None = None, timeout: float | None = None
) -> SolveResult:
    """Solve a cube of any size from 2x2 to 7x7 and say whether the length target was met.

    A 2x2 is solved optimally, a 3x3 by the two-phase search, and larger cubes by
    reduction (centres, then edges, then the 3x3 they stand for; the ``stages``).

    Parameters
    ----------
    state
        A facelet string in any alphabet (see :func:`cubescan.solver.facelets.parse_state`) or a
        parsed :class:`~cubescan.solver.facelets.CubeState`.
    max_length
        Stop at the first solution of at most this many moves. None: 20 for a 2x2 or
        3x3 (always reachable; smaller targets can take very long without a
        ``timeout``), and no target from 4x4 up. From 4x4 up the reduction does not aim
        at a length: a target given there is only checked (``target_met``).
    timeout
        Seconds; when the target is not met by then, the best solution so far is
        returned with ``timed_out=True``. None: no limit.

    Returns
    -------
    SolveResult
        Moves that were applied to the state and checked to solve it.

    Raises
    ------
    UnsolvableCubeError
        The cube cannot be solved; ``code`` is the first problem's, the message the
        validator's one-line diagnosis and ``report`` the whole report. No search runs.
    BadInputError
        The state could not be read, or ``max_length`` / ``timeout`` is negative.

    Examples
    --------
    >>> from cubescan.solver.moves import apply_moves, solved_facelets
    >>> result = solve_detailed(apply_moves(solved_facelets(3), "R U"))  # doctest: +SKIP
    >>> result.length, result.timed_out  # doctest: +SKIP
    (2, False)
    """
    if max_length is not None and max_length < 0:
        raise BadInputError("bad-option", f"max_length must be 0 or more, got {max_length}")
    if timeout is not None and timeout < 0:
        raise BadInputError("bad-option", f"timeout must be 0 or more seconds, got {timeout}")
    cube_state = _checked_state(state)
    if cube_state.size >= 4:
        return _solve_by_reduction(cube_state.facelets, max_length, timeout)
    if max_length is None:
        max_length = GODS_NUMBER
    if cube_state.size == 2:
        # Optimal from the full distance table; solved means one colour per face.
        moves = tuple(solve_pocket(cube_state))
        return SolveResult(moves, max_length, lower_bound=len(moves), optimal=True)
    facelets = cube_state.facelets
    if facelets == solved_facelets(cube_state.size):
        return SolveResult((), max_length, optimal=True)
    views = _views(facelets)
    outcome = search(
        [cube for cube, _, _ in views],
        max_length,
        timeout,
        _tables(),
        axis_moves=_axis_moves(views),
    )
    _, was, inverted = views[outcome.start]
    moves = _to_given_view(outcome.moves, was, inverted)
    _prove(facelets, moves, solved_facelets(cube_state.size))
    return SolveResult(
        tuple(moves),
        max_length,
        outcome.timed_out,
        outcome.nodes,
        outcome.lower_bound,
        outcome.optimal,
    )


def _solve_by_reduction(
    facelets: str, max_length: int | None, timeout: float | None
) -> SolveResult:
    """A 4x4 to 7x7: centres and edges reduced, then the 3x3 the cube stands for.

    The reduction is :func:`cubescan.solver.big.reduce.reduce_big` (table-driven centre
    phases on a 4x4 and 5x5, beam searches and three-cycles). The 3x3 stage looks for
    :data:`TAIL_TARGET` moves for up to :data:`TAIL_SECONDS`, then settles for 20 within
    ``timeout``; ``max_length`` is checked against the whole solution. With a
    ``timeout``, the beam searches (centres and edge pairing) stop deepening, and no
    further orientation is tried, after a fifth of it
    (:func:`cubescan.solver.big.reduce.solve_centers`,
    :func:`cubescan.solver.big.reduce.pair_edges`).
    """
    from cubescan.solver.big.reduce import as_3x3, reduce_big

    size = size_from_length(len(facelets))
    deadline = None if timeout is None else time.monotonic() + timeout / 5
    reduced, stages = reduce_big(facelets, deadline)
    small = as_3x3(reduced)
    budget = TAIL_SECONDS if timeout is None else min(TAIL_SECONDS, timeout)
    tail = solve_detailed(small, TAIL_TARGET, budget)
    if tail.length > GODS_NUMBER and (timeout is None or timeout > budget):
        tail = solve_detailed(small, GODS_NUMBER, None if timeout is None else timeout - budget)
    stages = _joined([*stages, SolveStage("3x3", tail.moves)])
    moves = tuple(move for stage in stages for move in stage.moves)
    # No fixed centres on an even cube: solved is one colour per face, each face the
    # colour of its stickers at row 1, column 1 (a centre on every size from 3 up).
    after = apply_moves(facelets, moves)
    per_face = size * size
    solved = "".join(after[face * per_face + size + 1] * per_face for face in range(len(FACES)))
    _prove(facelets, moves, solved)
    # Missing TAIL_TARGET in its own budget is not running out of time; past 20 is.
    timed_out = tail.length > GODS_NUMBER
    return SolveResult(moves, max_length, timed_out, tail.nodes, stages=tuple(stages))


def _joined(stages: Sequence[SolveStage]) -> list[SolveStage]:
    """The stages with turns of the same layers where two meet merged into the first."""
    out: list[SolveStage] = []
    for stage in stages:
        moves = list(stage.moves)
        while out and out[-1].moves and moves:
            last, first = out[-1].moves[-1], moves[0]
            if last.merge_key != first.merge_key:
                break
            merged = cancel_moves([last, first])
            out[-1] = SolveStage(out[-1].name, out[-1].moves[:-1] + tuple(merged))
            moves.pop(0)
        out.append(SolveStage(stage.name, tuple(moves)))
    return out


def _axis_moves(views: list[tuple[CubieCube, dict[str, str], bool]]) -> np.ndarray:
    """Row ``v``: the move on view ``v`` that is move ``m`` on view 0 (-1 for inverses)."""
    table = np.full((len(views), 18), -1, dtype=np.int64)
    _, was0, _ = views[0]
    for v, (_, was, inverted) in enumerate(views):
        if inverted:
            continue
        given_to_view = {given: view for view, given in was.items()}
        for face_index, face in enumerate(FACES):
            # Move m turns face `face` of view 0, which is face `given` of the cube.
            given = was0[face]
            image = FACES.index(given_to_view[given])
            for turns in range(3):
                table[v, 3 * face_index + turns] = 3 * image + turns
    return table


def _to_given_view(indices: Sequence[int], was: dict[str, str], inverted: bool) -> list[Move]:
    """Moves found on a rotated and/or inverted view, as moves on the cube as given."""
    table = outer_moves()
    moves = [Move(was[table[i].face], turns=table[i].turns) for i in indices]
    return invert_moves(moves) if inverted else moves


def _prove(facelets: str, moves: Sequence[Move], target: str) -> None:
    if apply_moves(facelets, moves) != target:
        raise RuntimeError(
            f"internal error: the search returned {format_moves(moves)!r}, which does not "
            "reach the target; please report this cube state"
        )


def solve(
    state: str | CubeState, max_length: int | None = None, timeout: float | None = None
) -> list[Move]:
    """Moves that solve a cube of 2x2 to 7x7 (see :func:`solve_detailed` for the length).

    The moves are always applied to the state and checked before they are returned.
    Use :func:`solve_detailed` to learn whether a timeout cut the search short.

    Parameters
    ----------
    state
        A facelet string in any alphabet, or a :class:`~cubescan.solver.facelets.CubeState`.
    max_length
        Length target; None: 20 for a 3x3 (every state meets it), none from 4x4 up.
    timeout
        Seconds after which the best solution so far is returned; None: no limit.

    Returns
    -------
    list of Move
        Empty for a solved cube.

    Raises
    ------
    UnsolvableCubeError
        With the validator's diagnosis; the cube is never searched.
    BadInputError
        Unreadable state or bad options.

    Examples
    --------
    >>> from cubescan.solver.moves import apply_moves, format_moves, solved_facelets
    >>> format_moves(solve(apply_moves(solved_facelets(3), "F")))  # doctest: +SKIP
    "F'"
    """
    return list(solve_detailed(state, max_length, timeout).moves)


def solve_to(
    state: str | CubeState,
    target: str | CubeState,
    max_length: int = 20,
    timeout: float | None = None,
) -> list[Move]:
    """Moves that turn ``state`` into ``target`` (e.g. a pattern), checked by applying them.

    Parameters
    ----------
    state, target
        Two solvable cubes of the same size, each in any alphabet (each is read through
        its own centres, so both must use the same colour scheme).
    max_length, timeout
        As for :func:`solve`.

    Returns
    -------
    list of Move

    Raises
    ------
    UnsolvableCubeError
        Either cube is unsolvable (then no sequence joins them).
    BadInputError
        Unreadable input, or the two cubes differ in size.

    Examples
    --------
    >>> from cubescan.solver.moves import apply_moves, format_moves, solved_facelets
    >>> goal = apply_moves(solved_facelets(3), "U2")
    >>> format_moves(solve_to(solved_facelets(3), goal))  # doctest: +SKIP
    'U2'
    """
    start = _checked_state(state)
    goal = _checked_state(target)
    if start.size != goal.size:
        raise BadInputError(
            "bad-format",
            f"the states differ in size ({start.size}x{start.size} and "
            f"{goal.size}x{goal.size}); a move sequence cannot join them",
        )
    if start.facelets == goal.facelets:
        return []
    # A solution S of C = B^-1 A satisfies B^-1 A S = 1, that is A S = B. (For a 2x2
    # the edge parity follows the corner parity in both, so C stays solvable.)
    combined = _as_3x3(goal.facelets).inverse().multiply(_as_3x3(start.facelets))
    moves = solve(cubie_to_facelets(combined), max_length, timeout)
    _prove(start.facelets, moves, goal.facelets)
    return moves
