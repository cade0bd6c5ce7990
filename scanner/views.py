"""Where on the cube the faces of one photo go: the joins between them fix it.

A photo of a cube held by a corner shows two or three of its faces, and the detector says
which side of each face meets which side of another (:class:`~cubescan.scanner.grid.multi.
FaceLink`). Those joins leave only the cube's 24 rotations open: once one face seen is named
(which face of the cube, turned how), every face joined to it follows. So a photo's faces
have 24 placements, and several photos together have 24 per photo past the first (whose
placement only says how the cube is held). The faces' colours (the pieces they make) decide
among them: see :mod:`cubescan.scanner.pipeline.views`.

Conventions: a face is seen as an N x N grid, rows from its top as seen; its sides are
numbered as seen, 0 top, 1 right, 2 bottom, 3 left. A face seen turned ``q`` quarter turns
clockwise from the net (DESIGN.md's net, :mod:`cubescan.solver.geometry`) shows the net's
side ``(s - q) % 4`` as its side ``s``, and ``rotate_face(net, N, q)`` is its grid as seen.

Examples
--------
>>> placements = view_placements(2, [((0, 2), (1, 0))])  # face 0's bottom on face 1's top
>>> len(placements)
24
>>> ("U", 0) in [p[0] for p in placements] and (("U", 0), ("F", 0)) in placements
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import product

import numpy as np

from cubescan.solver.geometry import FACES, face_axes, face_of_normal

Join = tuple[tuple[int, int], tuple[int, int]]
"""``((face i, its side), (face j, its side))``: two faces seen in one photo meet there."""

Placement = tuple[tuple[str, int], ...]
"""Per face seen, ``(cube face letter, quarter turns clockwise from the net)``."""


@cache
def _side_directions(face: str) -> tuple[tuple[int, int, int], ...]:
    """The outward directions of a face's four net sides (top, right, bottom, left)."""
    right, up, _ = face_axes(face)
    return tuple(tuple(int(v) for v in d) for d in (up, right, -up, -right))


def neighbor(face: str, side: int) -> tuple[str, int]:
    """The face across one net side of a face, and which of its own net sides that is.

    Parameters
    ----------
    face
        A face letter (``URFDLB``).
    side
        A net side of it: 0 top, 1 right, 2 bottom, 3 left.

    Returns
    -------
    tuple of (str, int)
        The neighbouring face's letter and its net side that meets ``face``.

    Examples
    --------
    >>> neighbor("F", 1), neighbor("U", 2), neighbor("R", 0)
    (('R', 3), ('F', 0), ('U', 1))
    """
    other = face_of_normal(np.array(_side_directions(face)[side]))
    back = _side_directions(other).index(tuple(int(v) for v in face_axes(face)[2]))
    return other, back


def view_placements(count: int, joins: Sequence[Join]) -> list[Placement]:
    """Every way the faces of one photo can sit on the cube, as their joins allow.

    Parameters
    ----------
    count
        How many faces the photo shows (indices 0 .. count - 1).
    joins
        The joins between them; every face must be joined to face 0, directly or through
        others.

    Returns
    -------
    list of Placement
        The placements (24 for joins a real cube can show, fewer when some joins contradict
        each other, none when all do), each giving every face seen its cube face and turn.

    Raises
    ------
    ValueError
        A face is joined to none of the others.

    Examples
    --------
    >>> corner = [((0, 2), (1, 0)), ((1, 1), (2, 3)), ((0, 1), (2, 0))]  # U, F, R around URF
    >>> [p for p in view_placements(3, corner) if p[0] == ("U", 0)]
    [(('U', 0), ('F', 0), ('R', 0))]
    >>> view_placements(3, corner[:2] + [((0, 1), (2, 2))])  # no cube shows this
    []
    """
    placements = []
    for face, turns in product(FACES, range(4)):
        placed: dict[int, tuple[str, int]] = {0: (face, turns)}
        consistent = True
        # Joins are followed outwards from face 0 until every face is placed.
        for _ in range(count):
            for (i, side_i), (j, side_j) in joins:
                for a, side_a, b, side_b in ((i, side_i, j, side_j), (j, side_j, i, side_i)):
                    if a not in placed:
                        continue
                    letter, quarter = placed[a]
                    other, back = neighbor(letter, (side_a - quarter) % 4)
                    expected = (other, (side_b - back) % 4)
                    if placed.setdefault(b, expected) != expected:
                        consistent = False
        if len(placed) < count:
            raise ValueError("every face of a view must be joined to the others")
        letters = [placed[k][0] for k in range(count)]
        if consistent and len(set(letters)) == count:
            placements.append(tuple(placed[k] for k in range(count)))
    return placements
