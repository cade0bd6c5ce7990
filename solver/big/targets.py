"""What each sticker of a big cube must end as, and the wing orbits' parity.

The reduction (:mod:`cubescan.solver.big.reduce`) brings every centre to its face and
every wing to its edge. A centre's target is its face's colour. A wing's target is its
edge's colours: on an odd cube the middle edge's; on an even cube an assignment of the
twelve edges to the twelve positions (fewest wings to move) whose permutation parity
equals the corners' and whose flips sum to an even number, so that the 3x3 left over is
solvable (PLL parity, decided, not repaired). A wing orbit whose wings must make an odd
permutation to reach their targets needs an inner slice's quarter turn (OLL parity).

Examples
--------
>>> from cubescan.solver.moves import apply_moves, solved_facelets
>>> turned = apply_moves(solved_facelets(5), "2R")
>>> [wing_permutation_is_odd(turned, 5, o, wing_targets(turned)) for o in piece_orbits(5, "wing")]
[True]
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
from scipy.optimize import linear_sum_assignment

from cubescan.solver.cubie import EDGES, corner_slots, facelets_to_cubie, permutation_parity
from cubescan.solver.geometry import FACES, Orbit, cube_geometry, wing_handedness
from cubescan.solver.moves import size_from_length

NO_TARGET = ""
"""Target of a sticker the three-cycles never move (corners, middle edges)."""


def piece_orbits(size: int, kind: str) -> list[Orbit]:
    """The orbits of 24 pieces of one kind (a fixed centre never moves).

    Parameters
    ----------
    size
        N.
    kind
        ``"center"`` or ``"wing"``.

    Returns
    -------
    list of Orbit

    Examples
    --------
    >>> [len(piece_orbits(n, "center")) for n in (4, 5, 6, 7)]
    [1, 2, 4, 6]
    """
    return [o for o in cube_geometry(size).orbits if o.kind == kind and len(o.pieces) == 24]


def piece_stickers(size: int, piece: int) -> tuple[int, ...]:
    """The stickers of piece number ``piece`` of the geometric model.

    Parameters
    ----------
    size
        N.
    piece
        An index into the model's pieces.

    Returns
    -------
    tuple of int

    Examples
    --------
    >>> piece_stickers(3, 0)  # the first corner
    (0, 36, 47)
    """
    return cube_geometry(size).pieces[piece].facelets


def center_stickers(size: int) -> np.ndarray:
    """Every sticker of the movable centres (a fixed centre never moves).

    Parameters
    ----------
    size
        N.

    Returns
    -------
    numpy.ndarray
        Sticker indices, orbit by orbit.

    Examples
    --------
    >>> center_stickers(5).shape
    (48,)
    """
    return np.array(
        [i for o in piece_orbits(size, "center") for p in o.pieces for i in piece_stickers(size, p)]
    )


def _wings_by_edge(size: int) -> dict[frozenset[str], list[int]]:
    """Every wing piece, by the two faces of the edge it lies on."""
    out: dict[frozenset[str], list[int]] = {}
    for orbit in piece_orbits(size, "wing"):
        for p in orbit.pieces:
            out.setdefault(frozenset(cube_geometry(size).pieces[p].faces), []).append(p)
    return out


def _odd_wing_targets(text: str, size: int, target: np.ndarray) -> None:
    """On an odd cube each wing takes the colours of its edge's middle piece."""
    geo = cube_geometry(size)
    wings = _wings_by_edge(size)
    for piece in geo.pieces:
        if piece.kind != "edge":
            continue
        color_on = {face: text[i] for face, i in zip(piece.faces, piece.facelets, strict=True)}
        for wing in wings[frozenset(piece.faces)]:
            for face, i in zip(geo.pieces[wing].faces, geo.pieces[wing].facelets, strict=True):
                target[i] = color_on[face]


def _even_wing_targets(text: str, size: int, target: np.ndarray) -> None:
    """On an even cube, edges go to the positions where most of their wings already are.

    The assignment keeps the 3x3 left over solvable: its edge permutation has the
    corners' parity and its edge flips an even sum (each edge is placed one way round,
    ``0``: its first colour on the position's first face).
    """
    geo = cube_geometry(size)
    wings = _wings_by_edge(size)
    # cost[slot, edge, flip]: wings of that position not already showing that edge.
    cost = np.zeros((12, 12, 2), dtype=int)
    for slot, name in enumerate(EDGES):
        for wing in wings[frozenset(name)]:
            piece = geo.pieces[wing]
            shown = {face: text[i] for face, i in zip(piece.faces, piece.facelets, strict=True)}
            for edge, colors in enumerate(EDGES):
                for flip in (0, 1):
                    wanted = colors if flip == 0 else colors[::-1]
                    cost[slot, edge, flip] += (shown[name[0]], shown[name[1]]) != tuple(wanted)
    best_flip = cost.argmin(axis=2)
    slots, edges = linear_sum_assignment(cost.min(axis=2))
    assigned = edges[np.argsort(slots)]
    flips = best_flip[np.arange(12), assigned]

    def total(e: np.ndarray, f: np.ndarray) -> int:
        return int(cost[np.arange(12), e, f].sum())

    corners = facelets_to_cubie(_corners_only(text, size)).cp
    if permutation_parity(assigned.tolist()) != permutation_parity(list(corners)):
        # PLL parity: exchange the two edges that cost the fewest extra wings.
        options = []
        for i, j in combinations(range(12), 2):
            e = assigned.copy()
            e[[i, j]] = e[[j, i]]
            f = best_flip[np.arange(12), e]
            options.append((total(e, f), e, f))
        _, assigned, flips = min(options, key=lambda option: option[0])
    if flips.sum() % 2:
        # The 3x3 cannot flip one edge alone: turn round the cheapest one.
        extra = cost[np.arange(12), assigned, 1 - flips] - cost[np.arange(12), assigned, flips]
        flips = flips.copy()
        flips[int(extra.argmin())] ^= 1
    for slot, name in enumerate(EDGES):
        colors = EDGES[assigned[slot]]
        wanted = colors if flips[slot] == 0 else colors[::-1]
        for wing in wings[frozenset(name)]:
            piece = geo.pieces[wing]
            for face, i in zip(piece.faces, piece.facelets, strict=True):
                target[i] = wanted[name.index(face)]


def _corners_only(text: str, size: int) -> str:
    """A 3x3 with the cube's corners, its face colours as centres and solved edges."""
    out = list("".join(face * 9 for face in FACES))
    for small, big in zip(corner_slots(3), corner_slots(size), strict=True):
        for i, j in zip(small, big, strict=True):
            out[i] = text[j]
    return "".join(out)


def wing_targets(text: str) -> np.ndarray:
    """The colour each sticker of a relabelled cube must end with for the 3x3 stage.

    Parameters
    ----------
    text
        Facelets of a valid cube of size 4 to 7, relabelled so that each face's letter
        is the colour its centres must have.

    Returns
    -------
    numpy.ndarray
        One letter per sticker: the face letter for centres, the edge's colour on that
        face for wings, and :data:`NO_TARGET` for corners and middle edges.

    Examples
    --------
    >>> from cubescan.solver.moves import solved_facelets
    >>> target = wing_targets(solved_facelets(5))
    >>> int((target == NO_TARGET).sum())  # 8 corners, 12 middle edges, 6 fixed centres
    54
    >>> moving = target != NO_TARGET
    >>> bool((target[moving] == np.array(list(solved_facelets(5)))[moving]).all())
    True
    """
    size = size_from_length(len(text))
    target = np.full(len(text), NO_TARGET, dtype="<U1")
    centers = center_stickers(size)
    target[centers] = [FACES[i // (size * size)] for i in centers]
    if size % 2:
        _odd_wing_targets(text, size, target)
    else:
        _even_wing_targets(text, size, target)
    return target


def wing_permutation_is_odd(text: str, size: int, orbit: Orbit, target: np.ndarray) -> bool:
    """Whether the wings of ``orbit`` make an odd permutation to reach their targets.

    Parameters
    ----------
    text
        Facelets of a relabelled cube.
    size
        N.
    orbit
        A wing orbit (:func:`piece_orbits`).
    target
        :func:`wing_targets` of ``text``.

    Returns
    -------
    bool
        True when the orbit is in OLL parity.

    Examples
    --------
    >>> from cubescan.solver.moves import apply_moves, solved_facelets
    >>> cube = apply_moves(solved_facelets(4), "Rw U2")
    >>> [wing_permutation_is_odd(cube, 4, o, wing_targets(cube)) for o in piece_orbits(4, "wing")]
    [True]

    A wing is known by its colours in order and its handedness
    (:func:`cubescan.solver.geometry.wing_handedness`), which no turn changes.
    """
    geo = cube_geometry(size)

    def key(colors: str, faces: str, position: tuple[int, int, int]) -> tuple:
        return (colors, wing_handedness(faces, position))

    home = {}
    for index, p in enumerate(orbit.pieces):
        piece = geo.pieces[p]
        wanted = "".join(target[i] for i in piece.facelets)
        home[key(wanted, piece.faces, piece.position)] = index
        home[key(wanted[::-1], piece.faces[::-1], piece.position)] = index
    goes_to = []
    for p in orbit.pieces:
        piece = geo.pieces[p]
        goes_to.append(
            home[key("".join(text[i] for i in piece.facelets), piece.faces, piece.position)]
        )
    return bool(permutation_parity(goes_to))
