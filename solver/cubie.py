"""Cubie level: which corner and edge piece sits in which slot, and how it is turned.

Slots and pieces carry the classic two-phase solver's names and order (corners URF,
UFL, ULB, UBR, DFR, DLF, DBL, DRB; edges UR, UF, UL, UB, DR, DF, DL, DB, FR, FL, BL,
BR). A slot's stickers are found in the geometric model from its name, listed in the
name's order, which for corners is clockwise seen from outside, starting on U or D.

Orientation (as in that solver): a corner's ``co`` is the position (0, 1, 2) of its
U/D-coloured sticker within its slot's clockwise sticker order, so a clockwise twist
adds 1; an edge's ``eo`` is 1 when its first colour (U/D, or F/B for the middle layer)
is not on the slot's first sticker.

Examples
--------
>>> cube = facelets_to_cubie(apply_moves(solved_facelets(3), "R"))
>>> cube.cp[:4], cube.co[:4]
((4, 1, 2, 0), (2, 0, 0, 1))
>>> cubie_to_facelets(cube) == apply_moves(solved_facelets(3), "R")
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np

from cubescan.errors import BadInputError
from cubescan.solver.geometry import cube_geometry, face_normal
from cubescan.solver.moves import Move, apply_moves, solved_facelets

CORNERS = ("URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DBL", "DRB")
EDGES = ("UR", "UF", "UL", "UB", "DR", "DF", "DL", "DB", "FR", "FL", "BL", "BR")


@cache
def corner_slots(size: int) -> tuple[tuple[int, int, int], ...]:
    """Facelet indices of each corner slot, in :data:`CORNERS` order and name order.

    Parameters
    ----------
    size
        N of the N x N cube (2 to 7, as :func:`cubescan.solver.geometry.cube_geometry` allows).

    Returns
    -------
    tuple of tuple of int
        Eight triples of facelet indices (0 .. 6*N*N - 1), one per slot; each lists the
        slot's stickers in the order of its name (clockwise seen from outside, U/D first).

    Examples
    --------
    >>> corner_slots(3)[0]  # URF = U9, R1, F3
    (8, 9, 20)
    """
    return tuple(_slot_facelets(name, size) for name in CORNERS)


@cache
def edge_slots(size: int) -> tuple[tuple[int, int], ...]:
    """Facelet indices of each middle-edge slot (odd N), in :data:`EDGES` order.

    Parameters
    ----------
    size
        N of the N x N cube; must be odd (3, 5 or 7).

    Returns
    -------
    tuple of tuple of int
        Twelve pairs of facelet indices, one per slot, each in the order of the slot's
        name (UR: the U sticker, then the R sticker).

    Raises
    ------
    ValueError
        When ``size`` is even (the cube has no middle edges).

    Examples
    --------
    >>> edge_slots(3)[0]  # UR = U6, R2
    (5, 10)
    >>> len(edge_slots(5)), edge_slots(5)[0]  # UR = U15, R3 on a 5x5
    (12, (14, 27))
    """
    if size % 2 == 0:
        raise ValueError(f"a {size}x{size} cube has no middle edges")
    return tuple(_slot_facelets(name, size) for name in EDGES)


def _slot_facelets(name: str, size: int) -> tuple[int, ...]:
    geo = cube_geometry(size)
    normals = [face_normal(face) for face in name]
    corner_axes = sum(normals)
    # Edge slots sit in the middle of the free axis (coordinate 0), corners at +-(N-1).
    center = (size - 1) * corner_axes
    return tuple(geo.sticker_at(tuple(int(v) for v in center + n)) for n in normals)


@dataclass(frozen=True)
class CubieCube:
    """A 3x3 (or, without edges, 2x2) cube at the cubie level.

    Attributes
    ----------
    cp
        ``cp[slot]`` = corner piece in that slot (indices into :data:`CORNERS`).
    co
        Corner orientations, 0..2 (see the module docstring).
    ep
        ``ep[slot]`` = edge piece in that slot; empty for a 2x2.
    eo
        Edge orientations, 0..1; empty for a 2x2.
    """

    cp: tuple[int, ...] = tuple(range(8))
    co: tuple[int, ...] = (0,) * 8
    ep: tuple[int, ...] = tuple(range(12))
    eo: tuple[int, ...] = (0,) * 12

    def multiply(self, other: CubieCube) -> CubieCube:
        """This cube followed by ``other`` (apply ``other``'s move to this state).

        Composition in the classic solver's convention: ``cp[i] = self.cp[other.cp[i]]``,
        the orientations added mod 3 (corners) and mod 2 (edges).

        Parameters
        ----------
        other
            The cube (or move, as :func:`move_cubie` gives it) applied after this one; of
            the same kind as this one (both 3x3, or both 2x2 with empty ``ep``/``eo``).

        Returns
        -------
        CubieCube
            A new cube: the state reached by applying ``other`` to this state.

        Examples
        --------
        >>> r = move_cubie(Move("R"))
        >>> r.multiply(move_cubie(Move("U"))) == facelets_to_cubie(
        ...     apply_moves(solved_facelets(3), "R U"))
        True
        >>> r.multiply(r).multiply(r).multiply(r) == CubieCube()
        True
        """
        cp = tuple(self.cp[other.cp[i]] for i in range(8))
        co = tuple((self.co[other.cp[i]] + other.co[i]) % 3 for i in range(8))
        ep = tuple(self.ep[other.ep[i]] for i in range(len(self.ep)))
        eo = tuple((self.eo[other.ep[i]] + other.eo[i]) % 2 for i in range(len(self.eo)))
        return CubieCube(cp, co, ep, eo)

    def inverse(self) -> CubieCube:
        """The cube that undoes this one: ``c.multiply(c.inverse()) == CubieCube()``.

        (For a 2x2, whose ``ep`` and ``eo`` are empty, the product is the solved cube
        with empty ``ep`` and ``eo``, not ``CubieCube()``.)

        Returns
        -------
        CubieCube
            The inverse state: each piece back to its slot, its orientation negated.

        Examples
        --------
        >>> cube = facelets_to_cubie(apply_moves(solved_facelets(3), "R U"))
        >>> cube.inverse() == facelets_to_cubie(apply_moves(solved_facelets(3), "U' R'"))
        True
        >>> cube.multiply(cube.inverse()) == CubieCube()
        True
        """
        cp = [0] * 8
        co = [0] * 8
        for slot, piece in enumerate(self.cp):
            cp[piece] = slot
            co[piece] = (-self.co[slot]) % 3
        ep = [0] * len(self.ep)
        eo = [0] * len(self.eo)
        for slot, piece in enumerate(self.ep):
            ep[piece] = slot
            eo[piece] = self.eo[slot]
        return CubieCube(tuple(cp), tuple(co), tuple(ep), tuple(eo))

    @property
    def corner_twist_total(self) -> int:
        """Sum of corner orientations mod 3 (0 on every reachable cube)."""
        return sum(self.co) % 3

    @property
    def edge_flip_total(self) -> int:
        """Sum of edge orientations mod 2 (0 on every reachable cube)."""
        return sum(self.eo) % 2

    @property
    def corner_parity(self) -> int:
        """Parity (0 even, 1 odd) of the corner permutation."""
        return permutation_parity(self.cp)

    @property
    def edge_parity(self) -> int:
        """Parity (0 even, 1 odd) of the edge permutation."""
        return permutation_parity(self.ep)


def permutation_parity(perm: tuple[int, ...] | list[int]) -> int:
    """0 for an even permutation, 1 for an odd one (counted by cycle lengths).

    Parameters
    ----------
    perm
        A permutation of ``range(len(perm))``, e.g. :attr:`CubieCube.cp` or
        :attr:`CubieCube.ep`.

    Returns
    -------
    int
        0 (even) or 1 (odd).

    Examples
    --------
    >>> permutation_parity((1, 0, 2)), permutation_parity((1, 2, 0))
    (1, 0)
    """
    seen = [False] * len(perm)
    parity = 0
    for start in range(len(perm)):
        length = 0
        index = start
        while not seen[index]:
            seen[index] = True
            index = perm[index]
            length += 1
        if length:
            parity ^= (length - 1) & 1
    return parity


@cache
def corner_lookup() -> dict[str, tuple[int, int]]:
    """Sticker letters of a corner slot (slot order) -> (piece, orientation), 24 entries:
    the same for every cube size.

    Returns
    -------
    dict of str to tuple of (int, int)
        Key: the three face letters read on a corner slot's facelets in the order of
        :func:`corner_slots`; value: ``(piece, co)``, the piece's index in
        :data:`CORNERS` and its orientation 0..2. Letters no real corner shows (such
        as a mirror-image ``"UFR"``) are absent.

    Examples
    --------
    >>> corner_lookup()["RFU"]  # the URF piece, its U sticker on the slot's third facelet
    (0, 2)
    """
    table = {}
    for piece, name in enumerate(CORNERS):
        for ori in range(3):
            letters = [""] * 3
            for k in range(3):
                letters[(k + ori) % 3] = name[k]
            table["".join(letters)] = (piece, ori)
    return table


@cache
def edge_lookup() -> dict[str, tuple[int, int]]:
    """Sticker letters of an edge slot (slot order) -> (piece, orientation), 24 entries.

    Returns
    -------
    dict of str to tuple of (int, int)
        Key: the two face letters read on an edge slot's facelets in the order of
        :func:`edge_slots`; value: ``(piece, eo)``, the piece's index in :data:`EDGES`
        and its orientation 0..1.

    Examples
    --------
    >>> edge_lookup()["RU"]
    (0, 1)
    """
    table = {}
    for piece, name in enumerate(EDGES):
        table[name] = (piece, 0)
        table[name[::-1]] = (piece, 1)
    return table


def facelets_to_cubie(facelets: str) -> CubieCube:
    """Convert a 2x2 or 3x3 facelet string (face letters) to the cubie level.

    Parameters
    ----------
    facelets
        24 or 54 face letters in which every slot holds a real piece (run
        :func:`cubescan.solver.validate.validate` first for a diagnosis of broken states).

    Returns
    -------
    CubieCube

    Raises
    ------
    BadInputError
        code ``corner-invalid`` / ``edge-invalid`` when a slot holds no real piece.

    Examples
    --------
    >>> facelets_to_cubie(solved_facelets(3)) == CubieCube()
    True
    """
    size = 2 if len(facelets) == 24 else 3
    corners = corner_lookup()
    cp, co = [], []
    for slot in corner_slots(size):
        key = "".join(facelets[i] for i in slot)
        if key not in corners:
            raise BadInputError("corner-invalid", f"no real corner piece reads {key}")
        cp.append(corners[key][0])
        co.append(corners[key][1])
    if size == 2:
        return CubieCube(tuple(cp), tuple(co), (), ())
    edges = edge_lookup()
    ep, eo = [], []
    for slot in edge_slots(3):
        key = "".join(facelets[i] for i in slot)
        if key not in edges:
            raise BadInputError("edge-invalid", f"no real edge piece reads {key}")
        ep.append(edges[key][0])
        eo.append(edges[key][1])
    return CubieCube(tuple(cp), tuple(co), tuple(ep), tuple(eo))


def cubie_to_facelets(cube: CubieCube) -> str:
    """Convert a cubie-level cube back to its facelet string (face letters).

    Parameters
    ----------
    cube
        The cube; one with empty ``ep`` is taken as a 2x2. Need not be solvable.

    Returns
    -------
    str
        54 face letters (24 for a 2x2), the centres as on the solved cube.

    Examples
    --------
    >>> cubie_to_facelets(CubieCube()) == solved_facelets(3)
    True
    """
    size = 3 if cube.ep else 2
    letters = list(solved_facelets(size))
    for slot, facelets in enumerate(corner_slots(size)):
        name = CORNERS[cube.cp[slot]]
        for k in range(3):
            letters[facelets[(k + cube.co[slot]) % 3]] = name[k]
    if cube.ep:
        for slot, facelets in enumerate(edge_slots(3)):
            name = EDGES[cube.ep[slot]]
            for k in range(2):
                letters[facelets[(k + cube.eo[slot]) % 2]] = name[k]
    return "".join(letters)


@lru_cache(maxsize=64)
def move_cubie(move: Move) -> CubieCube:
    """The cubie-level effect of a 3x3 outer move, computed from its sticker permutation.

    Parameters
    ----------
    move
        An outer face turn such as ``Move("R", turns=3)`` (one of
        :func:`cubescan.solver.moves.outer_moves`).

    Returns
    -------
    CubieCube
        The state the move makes from the solved cube; ``c.multiply(move_cubie(m))``
        applies the move to ``c``.

    Raises
    ------
    ValueError
        For a slice, inner-layer or wide move, or a rotation.

    Examples
    --------
    >>> move_cubie(Move("U")).cp
    (3, 0, 1, 2, 4, 5, 6, 7)
    >>> move_cubie(Move("L", 2, 2, kind="slice"))
    Traceback (most recent call last):
    ...
    ValueError: move_cubie takes an outer face turn (U, R2, F'...), not M
    """
    # The cubie level has no centres: a slice or rotation, which moves them, has no
    # cubie-level effect of its own (it would come out as a state no face turns reach).
    if (move.first, move.last) != (1, 1):
        raise ValueError(f"move_cubie takes an outer face turn (U, R2, F'...), not {move}")
    return facelets_to_cubie(apply_moves(solved_facelets(3), [move]))


def random_cubie(rng: np.random.Generator, size: int = 3) -> CubieCube:
    """A uniformly random solvable cube, drawn from random cubie coordinates.

    Permutations and orientations are drawn uniformly, then the last orientation is
    set to make the twist/flip sums 0 and, when the parities differ, the last two edges
    are exchanged; each solvable state is reached equally often.

    Parameters
    ----------
    rng
        NumPy random generator.
    size
        3 (corners and edges) or 2 (corners only).

    Returns
    -------
    CubieCube

    Examples
    --------
    >>> cube = random_cubie(np.random.default_rng(1))
    >>> cube.corner_twist_total, cube.edge_flip_total, cube.corner_parity == cube.edge_parity
    (0, 0, True)
    """
    cp = tuple(int(v) for v in rng.permutation(8))
    co = [int(v) for v in rng.integers(0, 3, 8)]
    co[7] = (-sum(co[:7])) % 3
    if size == 2:
        return CubieCube(cp, tuple(co), (), ())
    ep = [int(v) for v in rng.permutation(12)]
    if permutation_parity(ep) != permutation_parity(cp):
        ep[10], ep[11] = ep[11], ep[10]
    eo = [int(v) for v in rng.integers(0, 2, 12)]
    eo[11] = sum(eo[:11]) % 2
    return CubieCube(cp, tuple(co), tuple(ep), tuple(eo))


def random_reassembly(rng: np.random.Generator) -> CubieCube:
    """A 3x3 put back together at random: any permutations, any orientations.

    This is what a person gets by reassembling a disassembled cube without care;
    exactly 1 in 12 of these is solvable.

    Parameters
    ----------
    rng
        NumPy random generator.

    Returns
    -------
    CubieCube
        Uniformly random ``cp``, ``co``, ``ep`` and ``eo``, with no parity or
        orientation-sum constraint.

    Examples
    --------
    >>> len(random_reassembly(np.random.default_rng(0)).ep)
    12
    """
    return CubieCube(
        tuple(int(v) for v in rng.permutation(8)),
        tuple(int(v) for v in rng.integers(0, 3, 8)),
        tuple(int(v) for v in rng.permutation(12)),
        tuple(int(v) for v in rng.integers(0, 2, 12)),
    )


def random_state(rng: np.random.Generator, size: int = 3) -> str:
    """A uniformly random solvable 2x2 or 3x3 facelet string (face letters).

    Parameters
    ----------
    rng
        NumPy random generator.
    size
        3 or 2.

    Returns
    -------
    str
        54 face letters (24 for a 2x2), the facelets of :func:`random_cubie`.

    Examples
    --------
    >>> len(random_state(np.random.default_rng(0)))
    54
    >>> state = random_state(np.random.default_rng(0), 2)
    >>> len(state), facelets_to_cubie(state).corner_twist_total
    (24, 0)
    """
    return cubie_to_facelets(random_cubie(rng, size))
