"""A reduction stage searched with the cube held in several orientations, the shortest kept.

The beam searches of the reduction (:func:`cubescan.solver.big.reduce.solve_centers`,
:func:`cubescan.solver.big.reduce.pair_edges`) keep a few hundred states per depth and
break ties between equally good ones by the order of their moves. Held another way, the
same cube breaks them differently and the search ends elsewhere: on a 6x6 the edges of
one cube took between 65 and 109 moves over three orientations. So a stage is searched
with the cube turned whole (and its faces renamed, so that each face's letter is again
the colour that faces that way), and the moves found are turned back: a move of the
turned cube's face ``p`` turns the layer that faced ``p``'s way before the cube was
turned.

Examples
--------
>>> from cubescan.solver.moves import format_moves, parse_moves
>>> whole_cube_turns()[1]  # held turned by x: the front face now points up
(Move(face='R', first=1, last=0, turns=1, kind='rotation'),)
>>> format_moves(turned_back(parse_moves("U' 2R", 4), 1))
"F' 2R"
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import cache

from cubescan.solver.geometry import FACES
from cubescan.solver.moves import Move, apply_moves, solved_facelets, whole_cube_turns


@cache
def _faced_before(orientation: int) -> dict[str, str]:
    """For each face of the turned cube, the face that pointed that way before the turn."""
    # Read off a turned solved 3x3, where any sticker of a face names the face it came from.
    turned = apply_moves(solved_facelets(3), whole_cube_turns()[orientation])
    return {face: turned[k * 9] for k, face in enumerate(FACES)}


def turned_cube(facelets: str, orientation: int) -> str:
    """The cube turned whole into one of the orientations of
    :func:`~cubescan.solver.moves.whole_cube_turns`, its faces
    renamed: the colour of the face that now points ``p``'s way is called ``p``.

    Parameters
    ----------
    facelets
        6*N*N letters, each the face whose colour a sticker has (a relabelled cube).
    orientation
        An index into :func:`~cubescan.solver.moves.whole_cube_turns`.

    Returns
    -------
    str
        The turned cube, in the same letters: a cube solved before is solved after.

    Examples
    --------
    >>> turned_cube(solved_facelets(5), 7) == solved_facelets(5)
    True
    """
    renamed = {before: face for face, before in _faced_before(orientation).items()}
    return apply_moves(facelets, whole_cube_turns()[orientation]).translate(str.maketrans(renamed))


def turned_back(moves: list[Move], orientation: int) -> list[Move]:
    """Moves found on :func:`turned_cube` as the moves that do the same to the cube.

    Parameters
    ----------
    moves
        Layer turns (no whole-cube turns) on the turned cube.
    orientation
        The index it was turned by.

    Returns
    -------
    list of Move
        The same turns of the same layers, named by the faces they had before the turn
        (a whole-cube turn keeps every layer's depth and every turn's sense).

    Examples
    --------
    >>> from cubescan.solver.moves import parse_moves
    >>> cube = apply_moves(solved_facelets(4), "Rw U2 3F")
    >>> moves = parse_moves("2R F' Uw", 4)
    >>> after = turned_cube(apply_moves(cube, turned_back(moves, 5)), 5)
    >>> after == apply_moves(turned_cube(cube, 5), moves)
    True
    """
    before = _faced_before(orientation)
    return [Move(before[m.face], m.first, m.last, m.turns, m.kind) for m in moves]


def answers_in_orientations(
    search: Callable[[str, float | None], list[Move]],
    facelets: str,
    tries: int,
    deadline: float | None = None,
) -> list[list[Move]]:
    """``search`` run on the cube held in the first ``tries`` orientations; every answer,
    as moves of the cube as given.

    Parameters
    ----------
    search
        A stage: ``search(facelets, deadline)`` gives moves that do its work on a relabelled
        cube (its answer must not depend on how the faces are named, only on the cube).
    facelets
        The relabelled cube (each letter the face whose colour the sticker has).
    tries
        How many orientations to try (1 to 24), in the order of
        :func:`~cubescan.solver.moves.whole_cube_turns`.
    deadline
        A ``time.monotonic()`` value past which no further orientation is tried (the first
        always is); also handed to ``search``.

    Returns
    -------
    list of list of Move
        One answer per orientation tried, in the order tried.

    Examples
    --------
    >>> from cubescan.solver.big.reduce import pair_edges
    >>> cube = apply_moves(solved_facelets(4), "2U R U R' 2U'")
    >>> [len(moves) for moves in answers_in_orientations(pair_edges, cube, 2)]
    [5, 5]
    """
    if not 1 <= tries <= 24:
        raise ValueError(f"tries must be 1..24, got {tries}")
    answers: list[list[Move]] = []
    for orientation in range(tries):
        if answers and deadline is not None and time.monotonic() > deadline:
            break
        found = search(turned_cube(facelets, orientation), deadline)
        answers.append(turned_back(found, orientation))
    return answers


def shortest_in_orientations(
    search: Callable[[str, float | None], list[Move]],
    facelets: str,
    tries: int,
    deadline: float | None = None,
) -> list[Move]:
    """The shortest of :func:`answers_in_orientations` (the earliest of equally short ones).

    Parameters
    ----------
    search, facelets, tries, deadline
        As for :func:`answers_in_orientations`.

    Returns
    -------
    list of Move

    Examples
    --------
    >>> from cubescan.solver.big.reduce import pair_edges
    >>> cube = apply_moves(solved_facelets(4), "2U R U R' 2U'")
    >>> len(shortest_in_orientations(pair_edges, cube, 2))
    5
    """
    return min(answers_in_orientations(search, facelets, tries, deadline), key=len)
