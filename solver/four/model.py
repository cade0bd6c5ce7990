"""The 4x4x4 as arrays of pieces, derived from the geometric model of the NxN cube.

A 4x4 state is held as one int8 array of :data:`N_SLOTS` entries: the 24 centre slots
(each holds the face number 0..5 of its colour), the 24 wing slots (each holds the
home slot of the wing it holds) and the 8 corner slots (each holds its corner's home
slot). A move is a permutation of those slots, ``new = old[perm]``, read off the
sticker permutation of :func:`cubescan.solver.geometry.layer_permutation`.

A wing cannot be flipped in its slot, so a wing is named by its two colours and its
handedness: ``det(normal_1, normal_2, position)`` is kept by every rotation, and tells
the two wings of one edge apart.

Examples
--------
>>> from cubescan.solver.moves import solved_facelets
>>> pieces = pieces_of(solved_facelets(4))
>>> pieces.shape, bool((pieces == solved_pieces()).all())
((56,), True)
"""

from __future__ import annotations

from functools import cache

import numpy as np

from cubescan.solver.geometry import FACES, cube_geometry, wing_handedness
from cubescan.solver.moves import Move, move_permutation

SIZE = 4
N_CENTERS = 24
N_WINGS = 24
N_CORNERS = 8
CENTER_START = 0
WING_START = N_CENTERS
CORNER_START = N_CENTERS + N_WINGS
N_SLOTS = N_CENTERS + N_WINGS + N_CORNERS
"""Length of the piece array: centres, then wings, then corners."""


def _pieces(kind: str) -> list:
    return [p for p in cube_geometry(SIZE).pieces if p.kind == kind]


@cache
def _wing_lookup() -> dict[tuple[str, str, int], int]:
    """(face of sticker 1, face of sticker 2, handedness) -> home wing slot."""
    lookup = {}
    for index, piece in enumerate(_pieces("wing")):
        hand = wing_handedness(piece.faces, piece.position)
        lookup[(piece.faces[0], piece.faces[1], hand)] = index
        lookup[(piece.faces[1], piece.faces[0], -hand)] = index
    return lookup


def pieces_of(facelets: str) -> np.ndarray:
    """The piece array of a 4x4 given in face letters (``URFDLB``).

    Parameters
    ----------
    facelets
        96 face letters in facelet order; a wing or corner whose colours belong to no
        piece raises ``KeyError`` (validate the state first).

    Returns
    -------
    numpy.ndarray
        int8 array of length :data:`N_SLOTS`.

    Examples
    --------
    >>> from cubescan.solver.moves import apply_moves, solved_facelets
    >>> int(pieces_of(apply_moves(solved_facelets(4), "U"))[WING_START])
    4
    """
    out = np.empty(N_SLOTS, dtype=np.int8)
    for index, piece in enumerate(_pieces("center")):
        out[CENTER_START + index] = FACES.index(facelets[piece.facelets[0]])
    lookup = _wing_lookup()
    for index, piece in enumerate(_pieces("wing")):
        colors = [facelets[i] for i in piece.facelets]
        hand = wing_handedness(piece.faces, piece.position)
        out[WING_START + index] = lookup[(colors[0], colors[1], hand)]
    homes = {frozenset(p.faces): i for i, p in enumerate(_pieces("corner"))}
    for index, piece in enumerate(_pieces("corner")):
        out[CORNER_START + index] = homes[frozenset(facelets[i] for i in piece.facelets)]
    return out


@cache
def solved_pieces() -> np.ndarray:
    """The piece array of the solved cube.

    Returns
    -------
    numpy.ndarray
        Read-only int8 array of length :data:`N_SLOTS`.

    Examples
    --------
    >>> solved_pieces()[:4].tolist()  # the four U centres
    [0, 0, 0, 0]
    """
    centers = [FACES.index(p.faces) for p in _pieces("center")]
    out = np.array(centers + list(range(N_WINGS)) + list(range(N_CORNERS)), dtype=np.int8)
    out.setflags(write=False)
    return out


@cache
def slot_permutation(move: Move) -> np.ndarray:
    """The piece-slot permutation of a move: ``new_pieces = pieces[perm]``.

    Parameters
    ----------
    move
        Any move legal on a 4x4.

    Returns
    -------
    numpy.ndarray
        Read-only int64 array of length :data:`N_SLOTS`.

    Examples
    --------
    >>> from cubescan.solver.moves import parse_moves
    >>> perm = slot_permutation(parse_moves("U2", 4)[0])
    >>> bool((perm[perm] == np.arange(N_SLOTS)).all())
    True
    """
    sticker = move_permutation(move, SIZE)
    slots = [p for kind in ("center", "wing", "corner") for p in _pieces(kind)]
    slot_of_facelet = {}
    for index, piece in enumerate(slots):
        for facelet in piece.facelets:
            slot_of_facelet[facelet] = index
    perm = np.array([slot_of_facelet[int(sticker[p.facelets[0]])] for p in slots])
    perm.setflags(write=False)
    return perm
