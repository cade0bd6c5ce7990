"""A twisty puzzle as data: stickers, pieces, orbits and moves, generated from geometry.

Two families share one description:

* the N x N x N cube (N = 2..7), taken from :mod:`cubescan.solver.geometry` (its sticker
  points, pieces and facelet order are reused unchanged);
* the 2x2x2x2 and 3x3x3x3 tesseracts, built here from the 4-D hypercube. Axes x, y, z, w;
  the eight cells, in Dan Hoey's naming, are R/L (+-x), U/D (+-y), F/B (+-z) and O/I
  (+-w). A cell twist turns the cubies of that cell's layer by one of the 24 rotations
  of a cube, inside the cell's own 3-space.

Sticker points use the cube model's integer convention: one cubie is 2 units wide, the
stickers of an N-puzzle sit at distance N from the origin along their outward normal,
and a sticker's cubie centre is its point minus its normal.

Moves are sticker permutations ``perm`` with ``new_state = old_state[perm]``; a puzzle
carries the clockwise quarter turns that generate its group with the puzzle's orientation
held fixed (see :func:`puzzle`).

Examples
--------
>>> p = puzzle("2x2x2x2")
>>> len(p.positions), [o.name for o in p.orbits], p.orbits[0].orientation
(64, ['corners'], 'A4')
>>> sorted(p.moves)[:3]
['Fo', 'Fr', 'Fu']
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import permutations, product
from types import MappingProxyType

import numpy as np

from cubescan.errors import BadInputError
from cubescan.solver.geometry import FACES, MAX_SIZE, MIN_SIZE, cube_geometry, layer_permutation

CELLS = "OIRLUDFB"
"""The eight cells of a tesseract in facelet order (Hoey's letters)."""

# Outward normal of each cell, axes (x, y, z, w). Hoey's "positive" cells F, U, R, O are
# the ones his replacement rule maps B, D, L, I onto.
_CELL_NORMAL = {
    "R": (1, 0, 0, 0),
    "L": (-1, 0, 0, 0),
    "U": (0, 1, 0, 0),
    "D": (0, -1, 0, 0),
    "F": (0, 0, 1, 0),
    "B": (0, 0, -1, 0),
    "O": (0, 0, 0, 1),
    "I": (0, 0, 0, -1),
}
_POSITIVE = "FURO"

PUZZLE_NAMES = (
    *(f"{n}x{n}x{n}" for n in range(MIN_SIZE, MAX_SIZE + 1)),
    "2x2x2x2",
    "3x3x3x3",
)
"""Every puzzle :func:`puzzle` can build."""

# Kind of a piece by its number of stickers (4-D: corners carry 4, the 3-colour pieces
# sit on the hypercube's edges, the 2-colour pieces on its ridges).
_KIND_4D = {4: "corner", 3: "edge", 2: "ridge", 1: "center"}


@dataclass(frozen=True)
class PuzzlePiece:
    """One movable or fixed piece with at least one sticker.

    Attributes
    ----------
    kind
        ``"corner"``, ``"edge"``, ``"wing"``, ``"ridge"`` (a 4-D 2-colour piece) or
        ``"center"``.
    position
        Cubie centre in model coordinates (one cubie = 2 units).
    stickers
        Its facelet indices, in the slot's reading order (see :attr:`cells`).
    cells
        The face/cell letter of each of those stickers, same order. Corners are read in
        positive order (their normals, in that order, have determinant +1), so that one
        orientation group describes every slot of the orbit.
    orbit
        Index into :attr:`Puzzle.orbits`.
    """

    kind: str
    position: tuple[int, ...]
    stickers: tuple[int, ...]
    cells: str
    orbit: int


@dataclass(frozen=True)
class PuzzleOrbit:
    """Piece slots that the moves exchange, with the orientation group of one slot.

    Attributes
    ----------
    name
        ``"corners"``, ``"edges"``, ``"ridges"``, ``"wings U2"``, ``"centres U6"``, ...
    kind
        The kind of its pieces.
    pieces
        Indices into :attr:`Puzzle.pieces`.
    orientations
        The permutations of a slot's stickers that rotations fixing the slot carry out
        (identity first), each as a tuple ``t`` with sticker ``k`` going to place ``t[k]``.
    orientation
        The name of that group: ``"1"``, ``"Z2"``, ``"Z3"``, ``"S3"``, ``"A4"``, ...
    """

    name: str
    kind: str
    pieces: tuple[int, ...]
    orientations: tuple[tuple[int, ...], ...]
    orientation: str


@dataclass(frozen=True, eq=False)
class Puzzle:
    """A puzzle's stickers in facelet order, its pieces, orbits and generating moves.

    Build it with :func:`puzzle` (cached), not directly.

    Attributes
    ----------
    name
        ``"3x3x3"``, ``"2x2x2x2"``, ...
    dimension, size
        3 or 4, and N.
    cells
        The face (3-D) or cell (4-D) letters in facelet order; every face holds
        ``size ** (dimension - 1)`` consecutive stickers.
    positions, normals
        Integer sticker points and outward normals, one row per sticker.
    pieces, orbits
        Every piece, and the orbits of the movable ones.
    moves
        Name -> sticker permutation of each generating clockwise quarter turn.
    """

    name: str
    dimension: int
    size: int
    cells: str
    positions: np.ndarray
    normals: np.ndarray
    pieces: tuple[PuzzlePiece, ...]
    orbits: tuple[PuzzleOrbit, ...]
    moves: MappingProxyType

    @property
    def stickers_per_cell(self) -> int:
        """How many stickers one face or cell carries.

        Returns
        -------
        int
            ``size ** (dimension - 1)``.

        Examples
        --------
        >>> puzzle("3x3x3x3").stickers_per_cell
        27
        """
        return self.size ** (self.dimension - 1)

    def solved(self) -> str:
        """The solved state: every sticker shows its own cell's letter.

        Returns
        -------
        str
            One letter of :attr:`cells` per sticker.

        Examples
        --------
        >>> puzzle("2x2x2x2").solved()[:9]
        'OOOOOOOOI'
        """
        return "".join(cell * self.stickers_per_cell for cell in self.cells)

    def sticker_name(self, index: int) -> str:
        """Human name of a sticker: its cell letter and 1-based place within the cell.

        Parameters
        ----------
        index
            0-based sticker index.

        Returns
        -------
        str
            E.g. ``"O1"``, ``"B27"``.

        Examples
        --------
        >>> puzzle("3x3x3x3").sticker_name(215)
        'B27'
        """
        per = self.stickers_per_cell
        return f"{self.cells[index // per]}{index % per + 1}"


def cell_normal(cell: str) -> np.ndarray:
    """Outward unit normal of a tesseract cell.

    Parameters
    ----------
    cell
        One of ``"OIRLUDFB"``.

    Returns
    -------
    numpy.ndarray
        Shape (4,), dtype int, axes (x, y, z, w).

    Examples
    --------
    >>> cell_normal("O").tolist()
    [0, 0, 0, 1]
    """
    return np.array(_CELL_NORMAL[cell], dtype=int)


def cell_of_normal(normal: np.ndarray) -> str:
    """The cell whose outward normal is ``normal`` (a signed unit axis vector).

    Parameters
    ----------
    normal
        Integer vector of shape (4,).

    Returns
    -------
    str
        One of ``"OIRLUDFB"``.

    Examples
    --------
    >>> cell_of_normal(np.array([0, -1, 0, 0]))
    'D'
    """
    key = tuple(int(v) for v in normal)
    for cell, vec in _CELL_NORMAL.items():
        if vec == key:
            return cell
    raise ValueError(f"{key} is not a cell normal")


@lru_cache(maxsize=4096)
def frame_sign(cells: str) -> int:
    """Orientation of four mutually adjacent cells: the determinant of their normals.

    Hoey's movement group maps one such quadruple onto another exactly when their signs
    agree; ``"OURF"`` is positive.

    Parameters
    ----------
    cells
        Four letters of ``"OIRLUDFB"`` on four different axes.

    Returns
    -------
    int
        +1 or -1.

    Examples
    --------
    >>> frame_sign("OURF"), frame_sign("FLOD"), frame_sign("UROB")
    (1, -1, -1)
    """
    matrix = np.array([_CELL_NORMAL[c] for c in cells], dtype=int)
    return round(float(np.linalg.det(matrix)))


def twist_matrix(cell: str, axis: str) -> np.ndarray:
    """Rotation matrix of Hoey's clockwise quarter-twist ``Vy`` (cell ``V``, axis ``y``).

    The twist fixes the normals of ``V`` and ``Y`` and turns the other two axes of the
    cell by a quarter: it takes ``W`` to ``X`` where ``VWXY`` is positively oriented, as
    ``OURF`` is. So ``Of`` is the 4-cycle U -> R -> D -> L of the O cell's faces.

    Parameters
    ----------
    cell
        The twisted cell, one of ``"OIRLUDFB"``.
    axis
        One of ``"FURO"`` (upper or lower case), not on the cell's own axis.

    Returns
    -------
    numpy.ndarray
        Shape (4, 4), dtype int, such that ``matrix @ v`` is the turned vector.

    Examples
    --------
    >>> m = twist_matrix("O", "f")
    >>> cell_of_normal(m @ cell_normal("U")), cell_of_normal(m @ cell_normal("R"))
    ('R', 'D')
    """
    v, y = cell_normal(cell), cell_normal(axis.upper())
    if abs(int(v @ y)) == 1:
        raise ValueError(f"a twist of {cell} cannot turn about its own axis {axis}")
    rest = [c for c in _POSITIVE if abs(int(cell_normal(c) @ v)) == 0 and c != axis.upper()]
    w, x = rest
    if frame_sign(cell + w + x + axis.upper()) < 0:
        w, x = x, w
    wn, xn = cell_normal(w), cell_normal(x)
    # Identity on V and Y; W -> X and X -> -W.
    return (
        np.eye(4, dtype=int)
        - np.outer(wn, wn)
        - np.outer(xn, xn)
        + np.outer(xn, wn)
        - np.outer(wn, xn)
    )


@lru_cache(maxsize=2)
def rotation_group(dimension: int) -> tuple[np.ndarray, ...]:
    """The proper rotations of the 3-cube (24) or of the tesseract (192), identity first.

    Parameters
    ----------
    dimension
        3 or 4.

    Returns
    -------
    tuple of numpy.ndarray
        Signed permutation matrices of determinant +1.

    Examples
    --------
    >>> len(rotation_group(3)), len(rotation_group(4))
    (24, 192)
    """
    found = []
    for order in permutations(range(dimension)):
        for signs in product((1, -1), repeat=dimension):
            matrix = np.zeros((dimension, dimension), dtype=int)
            for row, (col, sign) in enumerate(zip(order, signs, strict=True)):
                matrix[row, col] = sign
            if round(float(np.linalg.det(matrix))) == 1:
                found.append(matrix)
    found.sort(key=lambda m: not np.array_equal(m, np.eye(dimension, dtype=int)))
    return tuple(found)


def _group_name(elements: list[tuple[int, ...]]) -> str:
    order = len(elements)
    if order == 1:
        return "1"
    identity = tuple(range(len(elements[0])))

    def compose(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(a[b[k]] for k in range(len(b)))

    abelian = all(compose(a, b) == compose(b, a) for a in elements for b in elements)
    element_orders = []
    for element in elements:
        power, k = element, 1
        while power != identity:
            power, k = compose(element, power), k + 1
        element_orders.append(k)
    if max(element_orders) == order:
        return f"Z{order}"
    if abelian:
        return "V4" if order == 4 else f"abelian{order}"
    return {6: "S3", 8: "D4", 12: "A4", 24: "S4"}.get(order, f"G{order}")


def _orientations(
    dimension: int, position: np.ndarray, normals: list[np.ndarray]
) -> tuple[tuple[int, ...], ...]:
    """The sticker permutations of a slot under the rotations that fix its cubie."""
    keys = [tuple(int(v) for v in n) for n in normals]
    found: list[tuple[int, ...]] = []
    for rotation in rotation_group(dimension):
        if not np.array_equal(rotation @ position, position):
            continue
        image = tuple(keys.index(tuple(int(v) for v in rotation @ n)) for n in normals)
        if image not in found:
            found.append(image)
    return tuple(found)


def _cell_offsets(size: int) -> np.ndarray:
    return 2 * np.arange(size) - (size - 1)


def _tesseract_stickers(size: int) -> tuple[np.ndarray, np.ndarray]:
    # Within a cell, stickers run row-major over the cell's own three axes taken in
    # x, y, z, w order, the first varying slowest, each from negative to positive.
    positions, normals = [], []
    for cell in CELLS:
        normal = cell_normal(cell)
        axes = [a for a in range(4) if normal[a] == 0]
        for coords in product(_cell_offsets(size), repeat=3):
            point = size * normal.copy()
            for axis, value in zip(axes, coords, strict=True):
                point[axis] = value
            positions.append(point)
            normals.append(normal)
    return np.array(positions, dtype=int), np.array(normals, dtype=int)


def _positive_order(cells: str) -> str:
    """Sort a corner's four cells in CELLS order, then swap the last two if negative."""
    ordered = "".join(sorted(cells, key=CELLS.index))
    return ordered if frame_sign(ordered) > 0 else ordered[:2] + ordered[3] + ordered[2]


def _tesseract_pieces(
    size: int, positions: np.ndarray, normals: np.ndarray
) -> tuple[tuple[PuzzlePiece, ...], tuple[PuzzleOrbit, ...]]:
    groups: dict[tuple[int, ...], list[int]] = {}
    for index, center in enumerate(positions - normals):
        groups.setdefault(tuple(int(v) for v in center), []).append(index)
    by_count: dict[int, list[tuple[tuple[int, ...], list[int]]]] = {}
    for center, stickers in groups.items():
        by_count.setdefault(len(stickers), []).append((center, stickers))
    pieces: list[PuzzlePiece] = []
    orbits: list[PuzzleOrbit] = []
    for count in sorted(by_count, reverse=True):
        kind = _KIND_4D[count]
        members = []
        for center, stickers in sorted(by_count[count], key=lambda item: min(item[1])):
            cells = "".join(cell_of_normal(normals[i]) for i in stickers)
            order = _positive_order(cells) if kind == "corner" else cells
            ordered = tuple(stickers[cells.index(c)] for c in order)
            members.append(len(pieces))
            pieces.append(PuzzlePiece(kind, center, ordered, order, len(orbits)))
        first = pieces[members[0]]
        group = _orientations(4, np.array(first.position), [normals[i] for i in first.stickers])
        orbits.append(
            PuzzleOrbit(
                kind + "s" if kind != "center" else "centres",
                kind,
                tuple(members),
                group,
                _group_name(list(group)),
            )
        )
    return tuple(pieces), tuple(orbits)


def _point_permutation(
    positions: np.ndarray, normals: np.ndarray, matrix: np.ndarray, layer: np.ndarray
) -> np.ndarray:
    lookup = {tuple(int(v) for v in p): i for i, p in enumerate(positions)}
    perm = np.arange(len(positions))
    for source in np.flatnonzero(layer):
        perm[lookup[tuple(int(v) for v in matrix @ positions[source])]] = source
    perm.setflags(write=False)
    return perm


def _tesseract_moves(size: int, positions: np.ndarray, normals: np.ndarray) -> dict:
    """The 24 clockwise quarter-twists of the outer cells (Hoey's table)."""
    centers = positions - normals
    moves = {}
    for cell in CELLS:
        in_layer = centers @ cell_normal(cell) == size - 1
        for axis in _POSITIVE:
            if abs(int(cell_normal(axis) @ cell_normal(cell))) == 1:
                continue
            matrix = twist_matrix(cell, axis)
            moves[cell + axis.lower()] = _point_permutation(positions, normals, matrix, in_layer)
    return moves


@cache
def all_twists(name: str) -> MappingProxyType:
    """Every clockwise quarter-twist of a tesseract's eight cells, by Hoey's name.

    The 2x2x2x2's :attr:`Puzzle.moves` keep to the four cells away from its held
    corner; a person may twist any cell, and these are those 24 twists.

    Parameters
    ----------
    name
        ``"2x2x2x2"`` or ``"3x3x3x3"``.

    Returns
    -------
    types.MappingProxyType
        Name (``"Of"``, ``"Iu"``, ...) -> sticker permutation.

    Examples
    --------
    >>> len(all_twists("2x2x2x2")), len(puzzle("2x2x2x2").moves)
    (24, 12)
    """
    p = puzzle(name)
    if p.dimension != 4:
        raise BadInputError("bad-puzzle", f"{name} is not a tesseract")
    return MappingProxyType(_tesseract_moves(p.size, np.asarray(p.positions), p.normals))


def _build_tesseract(size: int) -> Puzzle:
    positions, normals = _tesseract_stickers(size)
    pieces, orbits = _tesseract_pieces(size, positions, normals)
    moves = _tesseract_moves(size, positions, normals)
    if size == 2:
        # Nothing stays put on the 2x2x2x2: hold the all-negative corner (on L, D, B, I)
        # still by twisting only the four cells away from it.
        moves = {name: perm for name, perm in moves.items() if name[0] in _POSITIVE}
    positions.setflags(write=False)
    normals.setflags(write=False)
    return Puzzle(
        f"{size}x{size}x{size}x{size}",
        4,
        size,
        CELLS,
        positions,
        normals,
        pieces,
        orbits,
        MappingProxyType(moves),
    )


def _cube_moves(size: int) -> dict:
    """Single-layer quarter turns that keep the cube's orientation fixed.

    Odd N: every layer but the middle one, from all six faces (the fixed centres hold
    the cube). Even N: layers 1..N-1 from U, R and F only, so the DBL corner stays put.
    """
    moves = {}
    faces = FACES if size % 2 else "URF"
    deepest = (size - 1) // 2 if size % 2 else size - 1
    geo = cube_geometry(size)
    for face in faces:
        axis = geo.normals[FACES.index(face) * size * size]
        for layer in range(1, deepest + 1):
            name = face if layer == 1 else f"{layer}{face}"
            moves[name] = layer_permutation(size, axis, frozenset({layer}))
    return moves


def _build_cube(size: int) -> Puzzle:
    geo = cube_geometry(size)
    pieces = []
    for piece in geo.pieces:
        stickers, faces = piece.facelets, piece.faces
        if piece.kind == "corner" and np.linalg.det(geo.normals[list(stickers)]) < 0:
            # Every corner read in one handedness, so one orientation group fits all.
            stickers, faces = (
                (stickers[0], stickers[2], stickers[1]),
                faces[0] + faces[2] + faces[1],
            )
        normals = geo.normals[list(stickers)]
        if piece.kind == "wing" and np.cross(normals[0], normals[1]) @ piece.position < 0:
            # A wing is read from the face that puts it on the positive side of its edge's
            # midpoint (as in solver/slots.py), so no slot reads a wing flipped.
            stickers, faces = stickers[::-1], faces[::-1]
        pieces.append(PuzzlePiece(piece.kind, piece.position, stickers, faces, piece.orbit))
    orbits = []
    for orbit in geo.orbits:
        first = pieces[orbit.pieces[0]]
        group = _orientations(3, np.array(first.position), [geo.normals[i] for i in first.stickers])
        orbits.append(
            PuzzleOrbit(orbit.name, orbit.kind, orbit.pieces, group, _group_name(list(group)))
        )
    return Puzzle(
        f"{size}x{size}x{size}",
        3,
        size,
        FACES,
        geo.positions,
        geo.normals,
        tuple(pieces),
        tuple(orbits),
        MappingProxyType(_cube_moves(size)),
    )


@cache
def puzzle(name: str) -> Puzzle:
    """The definition of a puzzle by name (cached: it is immutable).

    Parameters
    ----------
    name
        One of :data:`PUZZLE_NAMES`: ``"2x2x2"`` .. ``"7x7x7"`` (``"3x3"`` is accepted
        for ``"3x3x3"``), ``"2x2x2x2"``, ``"3x3x3x3"``.

    Returns
    -------
    Puzzle

    Raises
    ------
    BadInputError
        ``bad-puzzle`` for any other name.

    Examples
    --------
    >>> [(o.name, o.orientation, len(o.pieces)) for o in puzzle("3x3x3x3").orbits]
    [('corners', 'A4', 16), ('edges', 'S3', 32), ('ridges', 'Z2', 24), ('centres', '1', 8)]
    >>> [(o.name, o.orientation) for o in puzzle("3x3").orbits]
    [('corners', 'Z3'), ('edges', 'Z2'), ('centres U5', '1')]
    """
    canonical = normalize_name(name)
    size = int(canonical[0])
    if canonical.count("x") == 3:
        return _build_tesseract(size)
    return _build_cube(size)


def normalize_name(name: str) -> str:
    """The canonical spelling of a puzzle name (``"3x3"`` -> ``"3x3x3"``).

    Parameters
    ----------
    name
        A puzzle name, case-insensitive; an N x N cube may be written ``"NxN"``.

    Returns
    -------
    str
        One of :data:`PUZZLE_NAMES`.

    Raises
    ------
    BadInputError
        ``bad-puzzle`` when there is no such puzzle.

    Examples
    --------
    >>> normalize_name("4X4"), normalize_name("2x2x2x2")
    ('4x4x4', '2x2x2x2')
    """
    text = name.strip().lower()
    parts = text.split("x")
    if len(parts) == 2 and parts[0] == parts[1]:
        text = "x".join([parts[0]] * 3)
    if text not in PUZZLE_NAMES:
        raise BadInputError(
            "bad-puzzle", f"unknown puzzle {name!r}: choose one of {', '.join(PUZZLE_NAMES)}"
        )
    return text
