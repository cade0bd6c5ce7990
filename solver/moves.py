"""WCA move notation: parse, print, invert and apply moves on any N x N cube.

A :class:`Move` is plain data: the face its layers are counted from, the range of
layers it turns, and the number of clockwise quarter turns. Slices (M E S) and
rotations (x y z) are the same thing with other layer ranges, so every move's sticker
permutation comes from :func:`cubescan.solver.geometry.layer_permutation`.

Accepted tokens (strict: anything else is an error naming the token and its position):

* outer turns ``U R F D L B``; suffix ``'`` (or ``’``), ``2``, ``2'``;
* wide turns ``Rw`` / ``r`` (two layers), ``3Rw`` (three outer layers);
* single inner layers ``2R`` (second layer from R), ``3U``;
* slices ``M E S`` (odd N: the middle layer, M like L, E like D, S like F);
* rotations ``x y z`` (the whole cube, like R, U, F).

Examples
--------
>>> format_moves(parse_moves("R U2 r' M x"))
"R U2 Rw' M x"
>>> str(invert_moves(parse_moves("R U F'"))[0])
'F'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from cubescan.errors import BadInputError
from cubescan.solver.geometry import FACES, MAX_SIZE, MIN_SIZE, face_normal, layer_permutation

_SLICE_FACE = {"M": "L", "E": "D", "S": "F"}
_ROTATION_FACE = {"x": "R", "y": "U", "z": "F"}

_TOKEN = re.compile(
    r"""^(?:
        (?P<rotation>[xyz])
      | (?P<slice>[MES])
      | (?P<count>[1-9]\d*)?(?P<face>[URFDLB])(?P<wide>w)?
      | (?P<lower>[urfdlb])
    )(?P<suffix>2'|2|'|)$""",
    re.VERBOSE,
)


@dataclass(frozen=True)
class Move:
    """One move: turn layers ``first..last`` (counted from ``face``) clockwise ``turns`` times.

    Attributes
    ----------
    face
        The face the layers are counted from and which defines clockwise.
    first, last
        Layer range, 1 = the face's own layer. ``last = 0`` means "through the whole
        cube" (a rotation), which does not depend on N.
    turns
        1, 2 or 3 clockwise quarter turns (3 is written ``'``).
    kind
        ``"turn"``, ``"slice"`` (M E S) or ``"rotation"`` (x y z): how to print it.
    """

    face: str
    first: int = 1
    last: int = 1
    turns: int = 1
    kind: str = "turn"

    def __str__(self) -> str:
        suffix = {1: "", 2: "2", 3: "'"}[self.turns]
        if self.kind == "rotation":
            letter = next(k for k, v in _ROTATION_FACE.items() if v == self.face)
            return letter + suffix
        if self.kind == "slice":
            letter = next(k for k, v in _SLICE_FACE.items() if v == self.face)
            return letter + suffix
        if self.first == self.last:
            return f"{self.first if self.first > 1 else ''}{self.face}{suffix}"
        prefix = "" if self.last == 2 else str(self.last)
        return f"{prefix}{self.face}w{suffix}"

    @property
    def merge_key(self) -> tuple[str, int, int, str]:
        """What two neighbouring moves share when they are written as one (or cancel):
        the same layers of the same face, in the same notation.

        Examples
        --------
        >>> Move("R", 2, 2, 1).merge_key == Move("R", 2, 2, 3).merge_key
        True
        >>> Move("R").merge_key == Move("R", 1, 2).merge_key  # R and Rw
        False
        """
        return (self.face, self.first, self.last, self.kind)

    @property
    def inverse(self) -> Move:
        """The move that undoes this one."""
        return Move(self.face, self.first, self.last, 4 - self.turns, self.kind)

    @property
    def axis(self) -> int:
        """0, 1 or 2: the axis the move turns about (U/D, R/L, F/B); turns about one axis
        commute.

        Examples
        --------
        >>> Move("U").axis == Move("D", 2, 2).axis, Move("R").axis
        (True, 1)
        """
        return FACES.index(self.face) % 3

    def layers(self, size: int) -> frozenset[int]:
        """Layer numbers (from :attr:`face`) this move turns on an N x N cube.

        Parameters
        ----------
        size
            N of the cube; needed only for a rotation (``last = 0``), which turns all N
            layers. Layers beyond N are not checked for (:func:`parse_moves` does that).

        Returns
        -------
        frozenset of int
            Layer numbers ``first .. last``, 1 = the face's own layer.

        Examples
        --------
        >>> sorted(Move("R", 1, 2).layers(3)), sorted(parse_moves("x", 4)[0].layers(4))
        ([1, 2], [1, 2, 3, 4])
        """
        last = size if self.last == 0 else self.last
        return frozenset(range(self.first, last + 1))


def _parse_token(token: str, position: int, size: int) -> Move:
    match = _TOKEN.match(token.replace("’", "'"))
    where = f"move {position} ({token!r})"
    if not match:
        raise BadInputError(
            "bad-move",
            f"{where} is not WCA notation: use U R F D L B with ', 2 or 2', "
            "wide moves like Rw / r / 3Rw, inner layers like 2R, slices M E S, rotations x y z",
        )
    turns = {"": 1, "2": 2, "'": 3, "2'": 2}[match["suffix"]]
    if match["rotation"]:
        return Move(_ROTATION_FACE[match["rotation"]], 1, 0, turns, "rotation")
    if match["slice"]:
        if size % 2 == 0:
            raise BadInputError(
                "bad-move",
                f"{where}: a {size}x{size} cube has no middle layer; "
                "name the inner layers instead (e.g. 2R or 3Rw)",
            )
        middle = (size + 1) // 2
        return Move(_SLICE_FACE[match["slice"]], middle, middle, turns, "slice")
    if match["lower"]:
        return _checked(Move(match["lower"].upper(), 1, 2, turns), where, size)
    count = int(match["count"]) if match["count"] else None
    if match["wide"]:
        return _checked(Move(match["face"], 1, count or 2, turns), where, size)
    layer = count or 1
    return _checked(Move(match["face"], layer, layer, turns), where, size)


def _checked(move: Move, where: str, size: int) -> Move:
    if move.last > size:
        raise BadInputError(
            "bad-move", f"{where} turns layer {move.last}, but a {size}x{size} cube has {size}"
        )
    return move


def parse_moves(text: str, size: int = 3) -> list[Move]:
    """Parse a whitespace-separated WCA move sequence.

    Parameters
    ----------
    text
        e.g. ``"R U R' U'"``; commas and brackets are not part of the notation.
    size
        N of the cube the moves are for (checks layer numbers and slices).

    Returns
    -------
    list of Move

    Raises
    ------
    BadInputError
        code ``"bad-move"``, naming the first bad token and its 1-based position.

    Examples
    --------
    >>> [str(m) for m in parse_moves("3Rw2 2U'", size=5)]
    ['3Rw2', "2U'"]
    """
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise BadInputError("bad-size", f"cube size must be {MIN_SIZE}..{MAX_SIZE}, got {size}")
    return [_parse_token(tok, i, size) for i, tok in enumerate(text.split(), start=1)]


def format_moves(moves: Iterable[Move]) -> str:
    """Moves as WCA text separated by spaces.

    Parameters
    ----------
    moves
        The moves, in the order they are made.

    Returns
    -------
    str
        One WCA token per move joined by single spaces (two-layer wide turns as ``Rw``,
        never ``r``); empty for no moves.

    Examples
    --------
    >>> format_moves(parse_moves("R  U'"))
    "R U'"
    """
    return " ".join(str(m) for m in moves)


def invert_moves(moves: Sequence[Move]) -> list[Move]:
    """The sequence that undoes ``moves`` (reversed, each move inverted).

    Parameters
    ----------
    moves
        The moves to undo (a sequence: it is read backwards).

    Returns
    -------
    list of Move
        A new list; ``moves`` followed by it leaves every cube unchanged.

    Examples
    --------
    >>> format_moves(invert_moves(parse_moves("R U2 F'")))
    "F U2 R'"
    """
    return [m.inverse for m in reversed(moves)]


def cancel_moves(moves: Sequence[Move]) -> list[Move]:
    """``moves`` with neighbouring turns of the same layers merged (and dropped if they cancel).

    Parameters
    ----------
    moves
        Any sequence; joining stages often leaves ``U' U2`` or ``R R'`` at the seams.

    Returns
    -------
    list of Move
        The same permutation of the cube, never longer.

    Examples
    --------
    >>> format_moves(cancel_moves(parse_moves("R U' U2 F F' R")))
    'R U R'
    """
    out: list[Move] = []
    for move in moves:
        top = out[-1] if out else None
        if top is not None and top.merge_key == move.merge_key:
            turns = (top.turns + move.turns) % 4
            out.pop()
            if turns:
                out.append(Move(move.face, move.first, move.last, turns, move.kind))
        else:
            out.append(move)
    return out


@lru_cache(maxsize=4096)
def move_permutation(move: Move, size: int) -> np.ndarray:
    """Sticker permutation of ``move``: ``new_state = old_state[perm]``.

    Parameters
    ----------
    move
        The move.
    size
        N.

    Returns
    -------
    numpy.ndarray
        Read-only int array of length 6*N*N.

    Examples
    --------
    >>> perm = move_permutation(parse_moves("U")[0], 3)
    >>> perm.shape
    (54,)
    """
    quarter = layer_permutation(size, face_normal(move.face), move.layers(size))
    perm = np.arange(6 * size * size)
    for _ in range(move.turns):
        perm = perm[quarter]
    perm.setflags(write=False)
    return perm


def sequence_permutation(moves: Iterable[Move], size: int) -> np.ndarray:
    """Sticker permutation of a whole sequence (first move applied first).

    Parameters
    ----------
    moves
        Moves valid on an N x N cube, in the order they are made.
    size
        N.

    Returns
    -------
    numpy.ndarray
        Int array of length 6*N*N with ``new_state = old_state[perm]`` for the whole
        sequence; ``arange(6*N*N)`` for no moves.

    Examples
    --------
    >>> seq = parse_moves("R U R' U'") * 6
    >>> bool((sequence_permutation(seq, 3) == np.arange(54)).all())
    True
    """
    perm = np.arange(6 * size * size)
    for move in moves:
        perm = perm[move_permutation(move, size)]
    return perm


def apply_moves(facelets: str, moves: Iterable[Move] | str) -> str:
    """Apply moves to a facelet string (any alphabet; N is taken from the length).

    Parameters
    ----------
    facelets
        6*N*N characters in facelet order.
    moves
        A sequence of :class:`Move` or WCA text.

    Returns
    -------
    str
        The facelet string after the moves.

    Examples
    --------
    >>> solved = "U" * 9 + "R" * 9 + "F" * 9 + "D" * 9 + "L" * 9 + "B" * 9
    >>> apply_moves(solved, "U")[:12]
    'UUUUUUUUUBBB'
    """
    size = size_from_length(len(facelets))
    if isinstance(moves, str):
        moves = parse_moves(moves, size)
    perm = sequence_permutation(moves, size)
    return "".join(facelets[i] for i in perm)


def size_from_length(length: int) -> int:
    """N such that 6*N*N == length.

    Parameters
    ----------
    length
        Number of stickers (facelets) in a state string.

    Returns
    -------
    int
        N, 2..7.

    Raises
    ------
    BadInputError
        code ``"bad-format"`` when no N from 2 to 7 fits.

    Examples
    --------
    >>> size_from_length(96)
    4
    """
    for size in range(MIN_SIZE, MAX_SIZE + 1):
        if 6 * size * size == length:
            return size
    lengths = ", ".join(str(6 * n * n) for n in range(MIN_SIZE, MAX_SIZE + 1))
    raise BadInputError(
        "bad-format",
        f"a cube state has 6*N*N stickers ({lengths} for N = {MIN_SIZE}..{MAX_SIZE}), got {length}",
    )


def solved_facelets(size: int) -> str:
    """The solved cube's facelet string.

    Parameters
    ----------
    size
        N (not checked).

    Returns
    -------
    str
        6*N*N face letters: N*N of each of U R F D L B, in that order.

    Examples
    --------
    >>> solved_facelets(2)
    'UUUURRRRFFFFDDDDLLLLBBBB'
    """
    return "".join(face * size * size for face in FACES)


def outer_moves() -> list[Move]:
    """All 18 outer face turns (U, U2, U', R, ...), the move set of a 3x3 solver.

    Returns
    -------
    list of Move
        Faces U R F D L B, each turned 1, 2 and 3 quarter turns: move ``3 * face + turns
        - 1`` is the move numbered so in :mod:`cubescan.solver.coords`.

    Examples
    --------
    >>> len(outer_moves())
    18
    """
    return [Move(face, 1, 1, turns) for face in FACES for turns in (1, 2, 3)]


@lru_cache(maxsize=1)
def whole_cube_turns() -> tuple[tuple[Move, ...], ...]:
    """The 24 orientations of a cube, each as the whole-cube turns (``x``, ``y``) reaching it.

    Returns
    -------
    tuple of tuple of Move
        The fewest turns to each orientation, found breadth first (``x`` before ``y``):
        the identity (no turn) first, then ``x``, ``y``, ``x2``, ...

    Examples
    --------
    >>> turns = whole_cube_turns()
    >>> len(turns), [len(t) for t in turns[:4]]
    (24, [0, 1, 1, 2])
    """
    x, y = parse_moves("x y", 3)
    seen: dict[str, tuple[Move, ...]] = {}
    level: list[tuple[Move, ...]] = [()]
    while level:
        after = []
        for turns in level:
            looks = apply_moves(solved_facelets(3), turns)
            if looks not in seen:
                seen[looks] = turns
                after += [(*turns, x), (*turns, y)]
        level = after
    return tuple(seen.values())


def layer_moves(size: int) -> list[Move]:
    """Every single-layer and outer-block quarter/half turn that is legal on an N x N cube.

    Includes inner slices (``2R``) and wide turns (``3Rw``) counted from every face,
    so random sequences over it reach every reachable state.

    Parameters
    ----------
    size
        N.

    Returns
    -------
    list of Move
        18 * (2N - 3) moves: for each face U R F D L B and 1, 2, 3 quarter turns, the
        single layers 1..N-1 (``U``, ``2U``, ...), then the blocks 1..2 up to 1..N-1
        (``Uw``, ``3Uw``, ...). No rotations (layer N is never turned).

    Examples
    --------
    >>> len(layer_moves(3)), len(layer_moves(4))
    (54, 90)
    """
    moves = []
    for face in FACES:
        for turns in (1, 2, 3):
            for layer in range(1, size):
                moves.append(Move(face, layer, layer, turns))
            for last in range(2, size):
                moves.append(Move(face, 1, last, turns))
    return moves


WHOLE_CUBE_ROTATIONS = tuple(
    f"{first} {second}".strip()
    for first in ("", "x", "x2", "x'", "z", "z'")
    for second in ("", "y", "y2", "y'")
)
"""The 24 ways to hold a cube, as rotation moves (the first is holding it as it is)."""


def same_cube(a: str, b: str) -> bool:
    """True when some whole-cube rotation and renaming of the letters turns ``a`` into ``b``.

    Parameters
    ----------
    a, b
        Two facelet strings of the same size, each in any alphabet.

    Returns
    -------
    bool

    Examples
    --------
    >>> solved = solved_facelets(3)
    >>> same_cube(apply_moves(solved, "R U"), apply_moves(apply_moves(solved, "R U"), "y"))
    True
    >>> same_cube(solved, apply_moves(solved, "R"))
    False
    """
    if len(a) != len(b):
        return False
    for rotation in WHOLE_CUBE_ROTATIONS:
        turned = apply_moves(a, rotation) if rotation else a
        mapping: dict[str, str] = {}
        if all(mapping.setdefault(x, y) == y for x, y in zip(turned, b, strict=True)) and len(
            set(mapping.values())
        ) == len(mapping):
            return True
    return False
