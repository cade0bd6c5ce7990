"""One geometric model of the NxN cube, from which everything else is derived.

Every sticker is a point on the cube's surface plus an outward normal, in integer
coordinates where one cubie is 2 units wide: for an N x N cube the cubie centres sit
at odd/even coordinates between -(N-1) and N-1 and the stickers at distance N from the
origin along their normal. Axes: x to the right (R), y up (U), z towards the viewer (F).

From these points the module computes, never types in:

* the facelet order of DESIGN.md (faces U R F D L B, each row-major in the net view),
* the pieces (cubies with 1, 2 or 3 visible stickers) and the orbits of pieces that
  the layer turns can mix,
* the sticker permutation of any layer turn or whole-cube rotation.

Examples
--------
>>> geo = cube_geometry(3)
>>> geo.size, len(geo.positions)
(3, 54)
>>> geo.facelet_name(8)
'U9'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np

FACES = "URFDLB"
"""The six faces in facelet-string order (Kociemba)."""

MIN_SIZE = 2
MAX_SIZE = 7

# Outward normal and the "up" direction of each face as drawn in the DESIGN.md net:
# U is seen from above with B at its top, D from below with F at its top, the four
# side faces from the side with U at their top. Everything else follows from these.
_FACE_NORMAL = {
    "U": (0, 1, 0),
    "R": (1, 0, 0),
    "F": (0, 0, 1),
    "D": (0, -1, 0),
    "L": (-1, 0, 0),
    "B": (0, 0, -1),
}
_NET_UP = {
    "U": (0, 0, -1),
    "R": (0, 1, 0),
    "F": (0, 1, 0),
    "D": (0, 0, 1),
    "L": (0, 1, 0),
    "B": (0, 1, 0),
}

OPPOSITE = {"U": "D", "D": "U", "R": "L", "L": "R", "F": "B", "B": "F"}
"""The face opposite each face."""


def face_normal(face: str) -> np.ndarray:
    """Outward unit normal of a face as an integer vector.

    Parameters
    ----------
    face
        One of ``"URFDLB"``.

    Returns
    -------
    numpy.ndarray
        Shape (3,), dtype int.

    Examples
    --------
    >>> face_normal("R").tolist()
    [1, 0, 0]
    """
    return np.array(_FACE_NORMAL[face], dtype=int)


def face_axes(face: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The (right, up, normal) unit vectors of a face as it is drawn in the net.

    Parameters
    ----------
    face
        One of ``"URFDLB"``.

    Returns
    -------
    tuple of numpy.ndarray
        Three integer vectors of shape (3,).

    Examples
    --------
    >>> [v.tolist() for v in face_axes("U")]
    [[1, 0, 0], [0, 0, -1], [0, 1, 0]]
    """
    normal = face_normal(face)
    up = np.array(_NET_UP[face], dtype=int)
    return np.cross(up, normal), up, normal


def face_of_normal(normal: np.ndarray) -> str:
    """The face whose outward normal is ``normal`` (a unit axis vector).

    Parameters
    ----------
    normal
        Integer vector of shape (3,) with one entry +-1 and the others 0.

    Returns
    -------
    str
        One of ``"URFDLB"``.

    Examples
    --------
    >>> face_of_normal(np.array([0, -1, 0]))
    'D'
    """
    key = tuple(int(v) for v in normal)
    for face, vec in _FACE_NORMAL.items():
        if vec == key:
            return face
    raise ValueError(f"{key} is not a face normal")


def quarter_turn_matrix(axis: np.ndarray) -> np.ndarray:
    """Integer rotation matrix of a clockwise quarter turn seen from the tip of ``axis``.

    Clockwise seen from outside is a rotation by -90 degrees about the outward axis
    (right-handed coordinates), which is how every WCA turn is defined.

    Parameters
    ----------
    axis
        Integer unit vector, shape (3,).

    Returns
    -------
    numpy.ndarray
        Shape (3, 3), dtype int, such that ``matrix @ v`` is the turned vector.

    Examples
    --------
    >>> (quarter_turn_matrix(face_normal("U")) @ face_normal("F")).tolist()
    [-1, 0, 0]
    """
    a = np.asarray(axis, dtype=int)
    cross = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    # Rodrigues' formula at -90 degrees: v -> a (a.v) - a x v.
    return np.outer(a, a) - cross


@dataclass(frozen=True)
class Piece:
    """One cubie with at least one visible sticker.

    Attributes
    ----------
    kind
        ``"corner"``, ``"edge"`` (the middle edge of an odd cube, or the only edge of a
        3x3), ``"wing"`` (an edge cubie off the middle), or ``"center"``.
    position
        Cubie centre in model coordinates (one cubie = 2 units).
    facelets
        Facelet indices of its stickers.
    faces
        The face each of those stickers lies on, same order as ``facelets``.
    orbit
        Index into :attr:`CubeGeometry.orbits`: which pieces the turns can exchange it with.
    """

    kind: str
    position: tuple[int, int, int]
    facelets: tuple[int, ...]
    faces: str
    orbit: int


@dataclass(frozen=True)
class Orbit:
    """A set of piece positions that layer turns can move pieces between.

    Attributes
    ----------
    kind
        The kind shared by every piece of the orbit (see :class:`Piece`).
    pieces
        Indices into :attr:`CubeGeometry.pieces`.
    name
        Short human name, e.g. ``"corners"``, ``"edges"``, ``"wings U2"``, ``"centres U6"``.
    """

    kind: str
    pieces: tuple[int, ...]
    name: str


@dataclass(frozen=True, eq=False)
class CubeGeometry:
    """Positions and normals of every sticker of an N x N cube, in facelet order.

    Build it with :func:`cube_geometry` (cached per size), not directly.

    Attributes
    ----------
    size
        N, the number of stickers along an edge.
    positions
        Shape (6*N*N, 3) integer sticker points (cubie width 2, surface at +-N).
    normals
        Shape (6*N*N, 3) integer outward normals.
    pieces
        Every visible cubie, corners first, then edges/wings, then centres.
    orbits
        The orbits of pieces under all layer turns.
    """

    size: int
    positions: np.ndarray
    normals: np.ndarray
    pieces: tuple[Piece, ...]
    orbits: tuple[Orbit, ...]

    def facelet_index(self, face: str, row: int, col: int) -> int:
        """Index in the facelet string of the sticker at (row, col) of ``face``.

        Parameters
        ----------
        face
            Face letter, one of ``URFDLB``.
        row, col
            0-based row and column in the face as drawn in the DESIGN.md net (row 0 at
            the net's top, column 0 at its left), each 0..N-1; not range-checked.

        Returns
        -------
        int
            0-based facelet index, ``FACES.index(face) * N*N + row * N + col``.

        Examples
        --------
        >>> cube_geometry(3).facelet_index("R", 0, 0)
        9
        """
        n = self.size
        return FACES.index(face) * n * n + row * n + col

    def facelet_name(self, index: int) -> str:
        """Human name of a facelet, e.g. ``"U1"`` .. ``"B9"`` (1-based within its face).

        Parameters
        ----------
        index
            0-based facelet index, 0 .. 6*N*N - 1.

        Returns
        -------
        str
            Face letter followed by the 1-based row-major position within that face.

        Examples
        --------
        >>> cube_geometry(2).facelet_name(23)
        'B4'
        """
        per_face = self.size * self.size
        return f"{FACES[index // per_face]}{index % per_face + 1}"

    def sticker_at(self, point: tuple[int, int, int]) -> int:
        """Facelet index of the sticker at a surface point (raises KeyError if none).

        Parameters
        ----------
        point
            Integer model coordinates (x right, y up, z front; one cubie = 2 units) of a
            sticker: N along its outward normal, the other two coordinates those of its
            cubie's centre.

        Returns
        -------
        int
            0-based facelet index.

        Raises
        ------
        KeyError
            When no sticker sits at ``point``.

        Examples
        --------
        >>> geo = cube_geometry(3)
        >>> geo.facelet_name(geo.sticker_at((2, 3, 2)))  # on U, at the URF corner
        'U9'
        """
        return _sticker_lookup(self.size)[point]

    def piece_at(self, position: tuple[int, int, int]) -> Piece:
        """The piece whose cubie centre is ``position`` (raises KeyError if none).

        Parameters
        ----------
        position
            Integer model coordinates of a cubie centre, each in -(N-1) .. N-1 in steps
            of 2 (one cubie = 2 units); hidden inner cubies have no piece.

        Returns
        -------
        Piece

        Raises
        ------
        KeyError
            When no visible cubie is centred at ``position``.

        Examples
        --------
        >>> cube_geometry(3).piece_at((2, 2, 2))
        Piece(kind='corner', position=(2, 2, 2), facelets=(8, 9, 20), faces='URF', orbit=0)
        """
        return self.pieces[_piece_lookup(self.size)[position]]


def _build_stickers(n: int) -> tuple[np.ndarray, np.ndarray]:
    offsets = 2 * np.arange(n) - (n - 1)
    positions, normals = [], []
    for face in FACES:
        right, up, normal = face_axes(face)
        down = -up
        for row in range(n):
            for col in range(n):
                positions.append(n * normal + offsets[col] * right + offsets[row] * down)
                normals.append(normal)
    return np.array(positions, dtype=int), np.array(normals, dtype=int)


def _piece_kind(position: np.ndarray, n: int, sticker_count: int) -> str:
    if sticker_count == 3:
        return "corner"
    if sticker_count == 1:
        return "center"
    # An edge cubie is the middle edge when its one free coordinate is 0 (odd N only).
    free = [abs(int(v)) for v in position if abs(int(v)) != n - 1]
    return "edge" if free == [0] else "wing"


def _orbit_name(kind: str, facelets: list[int], n: int) -> str:
    if kind in ("corner", "edge"):
        return kind + "s"
    # Name the orbit after its first sticker on U (e.g. "wings U2", "centres U6"),
    # which tells mirror-image orbits of big cubes apart.
    first_on_u = min(i for i in facelets if i < n * n)
    return f"{'wings' if kind == 'wing' else 'centres'} U{first_on_u + 1}"


def wing_handedness(faces: str, position: tuple[int, int, int]) -> int:
    """Which of an edge's two mirror-image wings a wing is, with its colours in order.

    A wing cannot be turned round in its position: ``det(normal of the first sticker's
    face, normal of the second's, position)`` is kept by every turn, so with the colours
    listed in a fixed order it tells the two wings of one edge apart.

    Parameters
    ----------
    faces
        The faces its two stickers lie on, in the order of the colours.
    position
        Its cubie centre in model coordinates.

    Returns
    -------
    int
        +1 or -1; swapping ``faces`` gives the other sign.

    Examples
    --------
    >>> wing_handedness("UF", (1, 3, 3)), wing_handedness("FU", (1, 3, 3))
    (1, -1)
    """
    a, b = (face_normal(face) for face in faces)
    return int(np.sign(np.linalg.det(np.array([a, b, np.array(position)]))))


@lru_cache(maxsize=1)
def rotation_matrices() -> tuple[np.ndarray, ...]:
    """The 24 proper rotations of the cube as integer matrices (identity first).

    Returns
    -------
    tuple of numpy.ndarray
        24 matrices of shape (3, 3), generated by quarter turns about x, y and z.

    Examples
    --------
    >>> len(rotation_matrices())
    24
    """
    generators = [quarter_turn_matrix(face_normal(face)) for face in "RUF"]
    found = {np.eye(3, dtype=int).tobytes(): np.eye(3, dtype=int)}
    frontier = list(found.values())
    while frontier:
        grown = []
        for matrix in frontier:
            for generator in generators:
                product = generator @ matrix
                if product.tobytes() not in found:
                    found[product.tobytes()] = product
                    grown.append(product)
        frontier = grown
    return tuple(found.values())


@cache
def face_rotations() -> list[dict[str, str]]:
    """The 24 rotations of the cube as maps face -> face it is turned to.

    Returns
    -------
    list of dict
        Identity first.

    Examples
    --------
    >>> rotations = face_rotations()
    >>> len(rotations), rotations[0]["U"]
    (24, 'U')
    """
    out = []
    for matrix in rotation_matrices():
        out.append(
            {
                face: next(g for g in FACES if (matrix @ face_normal(face) == face_normal(g)).all())
                for face in FACES
            }
        )
    return out


def _build_pieces(
    n: int, positions: np.ndarray, normals: np.ndarray
) -> tuple[tuple[Piece, ...], tuple[Orbit, ...]]:
    cubie_centers = positions - normals
    groups: dict[tuple[int, int, int], list[int]] = {}
    for index, center in enumerate(cubie_centers):
        groups.setdefault(tuple(int(v) for v in center), []).append(index)

    order = {"corner": 0, "edge": 1, "wing": 2, "center": 3}
    raw = []
    for center, facelets in groups.items():
        kind = _piece_kind(np.array(center), n, len(facelets))
        # A layer turn moves a cubie by one of the cube's rotations, so the positions a
        # piece can reach are the rotation orbit of its position; its smallest image
        # names the orbit (this keeps mirror-image orbits, e.g. oblique centres, apart).
        images = (tuple(int(v) for v in m @ np.array(center)) for m in rotation_matrices())
        raw.append(((order[kind], min(images)), center, tuple(facelets), kind))
    raw.sort(key=lambda item: (item[0], min(item[2])))

    signatures = sorted({item[0] for item in raw})
    pieces: list[Piece] = []
    members: dict[tuple, list[int]] = {sig: [] for sig in signatures}
    for signature, center, facelets, kind in raw:
        faces = "".join(face_of_normal(normals[i]) for i in facelets)
        members[signature].append(len(pieces))
        pieces.append(Piece(kind, center, facelets, faces, signatures.index(signature)))
    orbits = []
    for sig in signatures:
        kind = pieces[members[sig][0]].kind
        stickers = [i for p in members[sig] for i in pieces[p].facelets]
        orbits.append(Orbit(kind, tuple(members[sig]), _orbit_name(kind, stickers, n)))
    return tuple(pieces), tuple(orbits)


@cache
def cube_geometry(size: int) -> CubeGeometry:
    """The geometric model of an N x N cube (cached: it is immutable).

    Parameters
    ----------
    size
        N, from 2 to 7.

    Returns
    -------
    CubeGeometry
        Sticker positions/normals in facelet order, pieces and orbits.

    Examples
    --------
    >>> geo = cube_geometry(4)
    >>> [orbit.name for orbit in geo.orbits]
    ['corners', 'wings U2', 'centres U6']
    """
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"cube size must be between {MIN_SIZE} and {MAX_SIZE}, got {size}")
    positions, normals = _build_stickers(size)
    positions.setflags(write=False)
    normals.setflags(write=False)
    pieces, orbits = _build_pieces(size, positions, normals)
    return CubeGeometry(size, positions, normals, pieces, orbits)


@cache
def _sticker_lookup(size: int) -> dict[tuple[int, int, int], int]:
    geo = cube_geometry(size)
    return {tuple(int(v) for v in p): i for i, p in enumerate(geo.positions)}


@cache
def _piece_lookup(size: int) -> dict[tuple[int, int, int], int]:
    return {piece.position: i for i, piece in enumerate(cube_geometry(size).pieces)}


def layer_permutation(size: int, axis: np.ndarray, layers: frozenset[int]) -> np.ndarray:
    """Sticker permutation of a clockwise quarter turn of some layers about ``axis``.

    Parameters
    ----------
    size
        N.
    axis
        Outward unit vector of the face the layers are counted from.
    layers
        Layer numbers counted from that face, 1 = the face's own layer, N = the far one.

    Returns
    -------
    numpy.ndarray
        ``perm`` of length 6*N*N such that ``new_state = old_state[perm]``.

    Examples
    --------
    >>> perm = layer_permutation(3, face_normal("U"), frozenset({1}))
    >>> int(perm[cube_geometry(3).facelet_index("F", 0, 0)])  # F1 receives R1's sticker
    9
    """
    geo = cube_geometry(size)
    lookup = _sticker_lookup(size)
    matrix = quarter_turn_matrix(axis)
    depth = (geo.positions - geo.normals) @ np.asarray(axis, dtype=int)
    layer_of = (size + 1 - depth) // 2
    perm = np.arange(len(geo.positions))
    for source in np.flatnonzero(np.isin(layer_of, list(layers))):
        target = lookup[tuple(int(v) for v in matrix @ geo.positions[source])]
        perm[target] = source
    perm.setflags(write=False)
    return perm
