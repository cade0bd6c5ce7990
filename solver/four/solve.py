"""Solve a 4x4x4: reduce it to a 3x3 in three phases, then solve that 3x3.

A 4x4 has no fixed centres, so the cube may end solved in any of its 24 orientations:
each phase first picks, among the rotations of the colour scheme that keep what the
earlier phases did, the one its tables say is nearest (Gallet's point that whole-cube
rotations are symmetries of a 4x4), then searches (:mod:`cubescan.solver.four.search`).
The centre phases (:mod:`cubescan.solver.four.phases`) end with every centre solved
and an even wing permutation (no OLL parity). The edges are then paired as the big
cubes' are (:func:`cubescan.solver.big.reduce.pair_edges`: a beam search over
centre-keeping sequences, finished by three-cycles), whose wing targets give the
edge and corner permutations equal parities (no PLL parity), so the 3x3 left over is
always solvable; it is solved by the two-phase solver of
:mod:`cubescan.solver.solve`, whose outer turns are the 4x4's outer turns.

Examples
--------
>>> from cubescan.solver.big.reduce import as_3x3
>>> from cubescan.solver.moves import apply_moves, solved_facelets
>>> from cubescan.solver.validate import validate
>>> reduced, stages = reduce_to_3x3(apply_moves(solved_facelets(4), "2R U2 2R'"))
>>> [s.name for s in stages], validate(as_3x3(reduced)).valid
(['centers', 'edges'], True)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from cubescan.solver.big.orientations import shortest_in_orientations
from cubescan.solver.big.reduce import EDGE_TRIES, pair_edges, solve_centers
from cubescan.solver.cubie import permutation_parity
from cubescan.solver.four.model import WING_START, pieces_of
from cubescan.solver.four.phases import ALL_MOVES, CENTER_MOVES, patterns
from cubescan.solver.four.search import GOAL_EVEN_WINGS, GOAL_NONE, Phase, heuristic, search
from cubescan.solver.four.tables import load_tables
from cubescan.solver.geometry import face_rotations
from cubescan.solver.moves import Move, apply_moves, cancel_moves, parse_moves
from cubescan.solver.stages import SolveStage

SIZE = 4

OLL_PARITY_FIX = "2R2 B2 U2 2L U2 2R' U2 2R U2 F2 2R F2 2L' B2 2R2"
"""Turns the UF edge round (exchanges its two wings) and keeps every centre on its face."""

CENTER_NODES = 500_000
"""Nodes the centre search may spend looking for an even wing permutation (about 0.7 s
on one core of the 2-core machine the benchmarks ran on).

Past them, the centres are solved without that goal in twice as many nodes (and
when the wings are left odd, :data:`OLL_PARITY_FIX` follows: 15 more moves, instead of a
search that can run for a minute), or else by the big cubes' centre stage
(:func:`cubescan.solver.big.reduce.solve_centers`).
"""


NODES_PER_SECOND = 600_000
"""Rough speed of the centre search on one core, to turn a timeout into nodes."""


def center_budget(timeout: float | None) -> int:
    """The centre searches' node budget for a solve that has ``timeout`` seconds.

    Parameters
    ----------
    timeout
        Seconds for the whole solve, or None.

    Returns
    -------
    int
        :data:`CENTER_NODES`, or what a fifth of ``timeout`` allows when that is less
        (past it, the big cubes' centre stage finishes the centres).

    Examples
    --------
    >>> center_budget(None) == CENTER_NODES, center_budget(0.5)
    (True, 60000)
    """
    if timeout is None:
        return CENTER_NODES
    return min(CENTER_NODES, int(timeout / 5 * NODES_PER_SECOND))


@cache
def _tables() -> dict[str, np.ndarray]:
    return load_tables()


def forget_tables() -> None:
    """Drop the 4x4 tables this process holds; the next solve loads them again.

    Examples
    --------
    >>> forget_tables()
    """
    _tables.cache_clear()
    _phases.cache_clear()


def _with(names: Sequence[str]) -> list:
    tables = _tables()
    return [(patterns()[n], tables[n]) for n in names]


@cache
def _phases() -> dict[str, Phase]:
    """Every search the reduction runs, by name."""
    side = _with(["centers-axes", "centers-ud", "centers-fb"])
    return {
        "centers-rl": Phase.build(ALL_MOVES, _with(["centers-rl"]), GOAL_NONE),
        "centers": Phase.build(CENTER_MOVES, side, GOAL_EVEN_WINGS),
        "centers-any-wings": Phase.build(CENTER_MOVES, side, GOAL_NONE),
    }


def _wings_odd(pieces: np.ndarray) -> bool:
    return bool(permutation_parity(pieces[WING_START : WING_START + 24].tolist()))


def _views(facelets: str) -> list[tuple[str, np.ndarray]]:
    """The cube read in each of the 24 orientations: (relabelled facelets, pieces)."""
    out = []
    for rotation in face_rotations():
        relabelled = facelets.translate(str.maketrans(rotation))
        out.append((relabelled, pieces_of(relabelled)))
    return out


def _best_view(facelets: str, phase: Phase, keep: Phase | None) -> tuple[str, np.ndarray]:
    """The orientation nearest to ``phase``'s goal that keeps ``keep``'s goal.

    Returns the relabelled facelets and their pieces.
    """
    best = None
    for text, pieces in _views(facelets):
        if keep is not None and heuristic(keep, pieces) != 0:
            continue
        h = heuristic(phase, pieces)
        if best is None or h < best[0]:
            best = (h, text, pieces)
    assert best is not None
    return best[1], best[2]


def reduce_to_3x3(
    facelets: str, center_nodes: int = CENTER_NODES, deadline: float | None = None
) -> tuple[str, list[SolveStage]]:
    """Solve the centres and pair the edges of a solvable 4x4, parity included.

    Parameters
    ----------
    facelets
        96 face letters of a 4x4 that passed validation.
    center_nodes
        Node budget of the even-wing centre search (the plain one gets twice as
        many); a smaller budget trades moves for time (see :data:`CENTER_NODES`).
    deadline
        A ``time.monotonic()`` value past which the beam searches (the edge pairing,
        and the centres past both budgets) stop deepening.

    Returns
    -------
    tuple of (str, list of SolveStage)
        The reduced cube's 96 facelets, and the stages ``"centers"`` and ``"edges"``.

    Examples
    --------
    >>> from cubescan.solver.moves import apply_moves, solved_facelets
    >>> reduced, stages = reduce_to_3x3(apply_moves(solved_facelets(4), "Rw U"))  # doctest: +SKIP
    >>> [s.name for s in stages], sum(s.length for s in stages) <= 2  # doctest: +SKIP
    (['centers', 'edges'], True)
    """
    phases = _phases()
    centers: list[Move] = []
    _, pieces = _best_view(facelets, phases["centers-rl"], None)
    found = search(phases["centers-rl"], pieces)
    assert found is not None
    centers += found[0]
    facelets = apply_moves(facelets, found[0])
    text, pieces = _best_view(facelets, phases["centers"], phases["centers-rl"])
    # Centres already solved but the wings odd (one edge turned round): the table sees
    # nothing to do, so the search would look blindly; the fix below is shorter.
    parity_only = heuristic(phases["centers"], pieces) == 0 and _wings_odd(pieces)
    found = None if parity_only else search(phases["centers"], pieces, center_nodes)
    if found is None:
        found = search(phases["centers-any-wings"], pieces, 2 * center_nodes)
    if found is None:
        # A deep centre position: the big cubes' centre stage (beam search, three-cycles,
        # a slice turn when the wings are odd) finishes it in a fraction of a second.
        found = (solve_centers(text, deadline), 0)
    centers += found[0]
    facelets = apply_moves(facelets, found[0])
    # From here on the orientation is fixed: the one whose centres are solved.
    text, pieces = next(
        (text, pieces)
        for text, pieces in _views(facelets)
        if heuristic(phases["centers"], pieces) == 0
    )
    if _wings_odd(pieces):
        fix = parse_moves(OLL_PARITY_FIX, SIZE)
        centers += fix
        facelets, text = apply_moves(facelets, fix), apply_moves(text, fix)
    edges = shortest_in_orientations(pair_edges, text, EDGE_TRIES[SIZE], deadline)
    reduced = apply_moves(facelets, edges)
    return reduced, [
        SolveStage("centers", tuple(cancel_moves(centers))),
        SolveStage("edges", tuple(edges)),
    ]
