"""Solve a 4x4x4: reduce it to a 3x3 in three phases, then solve that 3x3.

A 4x4 has no fixed centres, so the cube may end solved in any of its 24 orientations:
each phase first picks, among the rotations of the colour scheme that keep what the
earlier phases did, the one its tables say is nearest (Gallet's point that whole-cube
rotations are symmetries of a 4x4), then searches (:mod:`cubescan.solver.four.search`).
The phases (:mod:`cubescan.solver.four.phases`) end with every centre solved, the
edges paired, an even wing permutation (no OLL parity) and equal edge and corner
permutation parities (no PLL parity), so the 3x3 left over is always solvable; it is
solved by the two-phase solver of :mod:`cubescan.solver.solve`, whose outer turns are
the 4x4's outer turns.

Examples
--------
>>> from cubescan.solver.moves import solved_facelets
>>> as_3x3(solved_facelets(4)) == solved_facelets(3)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from cubescan.solver.cubie import permutation_parity
from cubescan.solver.four.model import WING_START, pieces_of
from cubescan.solver.four.pairing import pair_edges
from cubescan.solver.four.phases import ALL_MOVES, CENTER_MOVES, EDGE_MOVES, patterns
from cubescan.solver.four.search import GOAL_EVEN_WINGS, GOAL_NONE, Phase, heuristic, search
from cubescan.solver.four.tables import load_tables
from cubescan.solver.geometry import FACES, face_rotations
from cubescan.solver.moves import Move, apply_moves
from cubescan.solver.stages import SolveStage

SIZE = 4


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
    out = {
        "centers-rl": Phase.build(ALL_MOVES, _with(["centers-rl"]), GOAL_NONE),
        "centers": Phase.build(
            CENTER_MOVES, _with(["centers-axes", "centers-ud", "centers-fb"]), GOAL_EVEN_WINGS
        ),
    }
    # Pairing keeps the centres: the centres table over the pairing moves.
    out["centers-kept"] = Phase.build(EDGE_MOVES, _with(["centers"]), GOAL_NONE)
    return out


def _views(facelets: str) -> list[tuple[str, np.ndarray]]:
    """The cube read in each of the 24 orientations: (relabelled facelets, pieces)."""
    out = []
    for rotation in face_rotations():
        relabelled = facelets.translate(str.maketrans(rotation))
        out.append((relabelled, pieces_of(relabelled)))
    return out


def _best_view(facelets: str, phase: Phase, keep: Phase | None) -> np.ndarray:
    """Pieces of the orientation nearest to ``phase``'s goal that keeps ``keep``'s goal."""
    best = None
    for _, pieces in _views(facelets):
        if keep is not None and heuristic(keep, pieces) != 0:
            continue
        h = heuristic(phase, pieces)
        if best is None or h < best[0]:
            best = (h, pieces)
    assert best is not None
    return best[1]


def reduce_to_3x3(facelets: str) -> tuple[str, list[SolveStage]]:
    """Solve the centres and pair the edges of a solvable 4x4, parity included.

    Parameters
    ----------
    facelets
        96 face letters of a 4x4 that passed validation.

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
    for name, keep in (("centers-rl", None), ("centers", phases["centers-rl"])):
        pieces = _best_view(facelets, phases[name], keep)
        if (
            name == "centers"
            and heuristic(phases[name], pieces) == 0
            and permutation_parity(pieces[WING_START : WING_START + 24].tolist())
        ):
            # Centres solved but one edge flipped (OLL parity): the table sees nothing
            # to do, and a blind search for even wings is slow. One inner slice turn
            # (it keeps R/L centres on R/L) gives the centre search work that fixes it.
            centers.append(Move("R", 2, 2, 1))
            facelets = apply_moves(facelets, centers[-1:])
            pieces = _best_view(facelets, phases[name], keep)
        found = search(phases[name], pieces)
        assert found is not None
        centers += found[0]
        facelets = apply_moves(facelets, found[0])
    # From here on the orientation is fixed: the one whose centres are solved.
    view = next(
        (text, pieces)
        for text, pieces in _views(facelets)
        if heuristic(phases["centers"], pieces) == 0
    )
    relabel = str.maketrans(dict(zip(view[0], facelets, strict=True)))
    edges, _ = pair_edges(view[1], phases["centers-kept"], _tables())
    reduced = apply_moves(view[0], edges).translate(relabel)
    return reduced, [SolveStage("centers", tuple(centers)), SolveStage("edges", tuple(edges))]


def as_3x3(facelets: str) -> str:
    """The 3x3 a reduced 4x4 stands for: its corners, one wing per edge, one centre per face.

    Parameters
    ----------
    facelets
        96 facelets of a 4x4 whose centres are solved and edges paired.

    Returns
    -------
    str
        54 facelets in the same alphabet.

    Examples
    --------
    >>> from cubescan.solver.moves import solved_facelets
    >>> as_3x3(solved_facelets(4)) == solved_facelets(3)
    True
    """
    rows = (0, 1, 3)
    out = []
    for face in range(len(FACES)):
        for row in rows:
            for col in rows:
                out.append(facelets[face * SIZE * SIZE + row * SIZE + col])
    return "".join(out)
