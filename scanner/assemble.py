"""From six face readings, in any order and any rotation, to one cube.

Each reading is the N*N colour symbols of one photo, row-major from the photo's top.
Which face a photo shows, and how it is turned, is found by a search that makes the
pieces real: a placement of the six photos (which face, how many quarter turns) and a
colour scheme (which colour belongs on which face) are accepted where every corner,
edge and wing slot reads as a real piece.

* Odd N: the centres name the faces' colours. The face shown by the first candidate
  for U (the white-centred photo, else the first) is held fixed; the other five photos
  are tried on the five other faces (120 ways), every photo in each of its four
  rotations: 120 x 4^6 placements. Every slot is read for all of them at once, as
  arrays: a slot's reading depends only on the two or three faces it touches, so each
  group of slots is read over those faces' rotations (4 x 4 or 4 x 4 x 4 per assignment)
  and the counts are broadcast over the rest.
* Even N: no centres, so the colours must follow the standard scheme (white opposite
  yellow, red opposite orange, green opposite blue, as the colour letters W Y R O G B
  say). The first photo is held as U in its own rotation (which fixes how the cube is
  held) and the other five are placed as above.

Among the placements with the fewest broken pieces, the one whose cube validates with
the fewest structural problems (then broken pieces, then problems) wins; when even
that cube is not sound, placements with one more broken piece are weighed too (a
duplicated piece is a real piece, so a wrong placement that duplicates pieces can
break fewer slots than the true one with a mirrored corner), those whose broken pieces
lie in few enough orbits to still rank first. Equally good placements that give
different cubes are reported as an ambiguity, never hidden: a face whose corners are
equal across its diagonals can often be turned half way and still make real pieces
(about 1 random cube in 60), which no sticker can settle. The winner is finally turned
in the hand to the standard orientation: white on U and green on F when the cube has
those colours, otherwise as it was scanned (the first photo's face on U, the third's on
F, as in URFDLB order); even N: the yellow-blue-orange corner at DBL.

Examples
--------
>>> from cubescan.solver.moves import apply_moves, solved_facelets
>>> colors = apply_moves(solved_facelets(3), "R U F'").translate(str.maketrans("URFDLB", "WRGYOB"))
>>> photos = [colors[9 * f : 9 * f + 9] for f in (3, 0, 5, 1, 4, 2)]  # shuffled faces
>>> photos = [photos[0][::-1]] + photos[1:]                             # one photo upside down
>>> result = assemble(photos)
>>> result.facelets == apply_moves(solved_facelets(3), "R U F'"), result.ambiguous
(True, False)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import permutations
from operator import itemgetter

import numpy as np

from cubescan.errors import BadInputError
from cubescan.solver.facelets import STANDARD_SCHEME, CubeState
from cubescan.solver.geometry import FACES
from cubescan.solver.moves import apply_moves, parse_moves, sequence_permutation, size_from_length
from cubescan.solver.slots import slot_sets
from cubescan.solver.validate import ValidationReport, structural_problem_count, validate

# Faces in the order they are placed: each new face completes as many pieces as possible.
_PLACEMENT_ORDER = "UFRBLD"


@dataclass(frozen=True)
class Placement:
    """Where one photo went: the face it shows and the clockwise quarter turns applied.

    Attributes
    ----------
    photo
        Index of the photo in the input.
    face
        The face letter (URFDLB) in the final orientation.
    quarter_turns
        Clockwise quarter turns (0-3) that bring the photo to the net orientation.
    """

    photo: int
    face: str
    quarter_turns: int


@dataclass(frozen=True)
class Assembly:
    """The assembled cube.

    Attributes
    ----------
    size
        N.
    facelets
        The cube in face letters, standard orientation.
    symbols
        The colour symbol of each face, in URFDLB order.
    placements
        One per photo.
    report
        The validation of the assembled cube.
    ambiguous
        True when another placement, equally good, gives a different cube.
    alternatives
        The different cubes that equally good placements give (including this one).
    broken_pieces
        How many slots hold no real piece in the best placement (0 for a sound cube).
    alternative_placements
        For each of ``alternatives``, the placement of the photos that gives it.
    """

    size: int
    facelets: str
    symbols: str
    placements: tuple[Placement, ...]
    report: ValidationReport
    ambiguous: bool
    alternatives: tuple[str, ...]
    broken_pieces: int
    alternative_placements: tuple[tuple[Placement, ...], ...] = ()


def rotate_face(symbols: str, size: int, quarter_turns: int) -> str:
    """Turn one face's N*N symbols (row-major) clockwise by ``quarter_turns``.

    Parameters
    ----------
    symbols
        The face's N*N one-character symbols, row-major from the top.
    size
        N.
    quarter_turns
        Clockwise quarter turns (any integer; negative turns counter-clockwise).

    Returns
    -------
    str
        The turned face's symbols, row-major.

    Examples
    --------
    >>> rotate_face("abcd", 2, 1)
    'cadb'
    """
    grid = np.array(list(symbols)).reshape(size, size)
    return "".join(np.rot90(grid, -quarter_turns).ravel())


@cache
def _slot_groups(size: int, faces: str) -> tuple[tuple[int, tuple[int, ...], np.ndarray], ...]:
    """The slots whose stickers all lie on ``faces``, grouped by the faces they touch.

    Returns triples (index into ``slot_sets(size)``, the positions in ``faces`` of the
    faces each sticker lies on, an (n, width) array of the stickers' cells on their faces).
    """
    per_face = size * size
    groups: dict[tuple[int, tuple[int, ...]], list[list[int]]] = {}
    for number, slot_set in enumerate(slot_sets(size)):
        for slot in slot_set.slots:
            on = tuple(FACES[i // per_face] for i in slot)
            if all(face in faces for face in on):
                key = (number, tuple(faces.index(face) for face in on))
                groups.setdefault(key, []).append([i % per_face for i in slot])
    return tuple((number, axes, np.array(cells)) for (number, axes), cells in groups.items())


@cache
def _piece_tables(size: int) -> tuple[np.ndarray, ...]:
    """Per orbit, whether face indices (0-5 = URFDLB, 6 = no face) read as a real piece."""
    tables = []
    for slot_set in slot_sets(size):
        width = len(slot_set.slots[0])
        table = np.zeros((7,) * width, dtype=bool)
        for reading in slot_set.pieces:
            table[tuple(FACES.index(face) for face in reading)] = True
        tables.append(table)
    return tuple(tables)


@dataclass(frozen=True)
class _Broken:
    """Broken pieces for every assignment of photos to faces and every rotation.

    Attributes
    ----------
    total
        (assignments, len(turns[0]), len(turns[1]), ...) slots that do not read as a
        real piece, over the slots whose faces are all placed.
    groups
        Per group of slots on the same faces: (orbit, the grid axes of those faces in
        increasing order, the group's broken slots over the assignment and those axes).
    """

    total: np.ndarray
    groups: tuple[tuple[int, tuple[int, ...], np.ndarray], ...]

    def orbits(self, cells: np.ndarray) -> np.ndarray:
        """How many orbits have a broken piece, at each of the grid's flat ``cells``."""
        where = np.unravel_index(cells, self.total.shape)
        per_orbit: dict[int, np.ndarray] = {}
        for orbit, axes, counts in self.groups:
            at = counts[(where[0], *(where[1 + axis] for axis in axes))]
            per_orbit[orbit] = per_orbit.get(orbit, 0) + at
        return sum((counts > 0).astype(int) for counts in per_orbit.values())


def _spread(counts: np.ndarray, axes: tuple[int, ...], onto: tuple[int, ...]) -> np.ndarray:
    """``counts`` over the assignment and ``axes``, shaped to broadcast over ``onto``."""
    shape = [counts.shape[0]] + [1] * len(onto)
    for k, axis in enumerate(axes):
        shape[1 + onto.index(axis)] = counts.shape[1 + k]
    return counts.reshape(shape)


def _broken_grid(
    size: int,
    faces: str,
    photo_of: np.ndarray,
    codes: np.ndarray,
    face_of_color: np.ndarray,
    turns: Sequence[Sequence[int]],
) -> _Broken:
    """Broken pieces for every assignment of photos and every rotation at once.

    Parameters
    ----------
    size
        N.
    faces
        The faces placed (grid axes after the assignment axis), e.g. ``"UFRBLD"``.
    photo_of
        (assignments, len(faces)) the photo placed on each face, per assignment.
    codes
        (photos, 4, N*N) each photo's colour codes, turned 0-3 quarter turns.
    face_of_colour
        (assignments, colours) the face index (0-5, 6 for none) each colour code names.
    turns
        Per face, the quarter turns tried (a grid axis of that length).

    Returns
    -------
    _Broken
    """
    assignments = len(photo_of)
    tables = _piece_tables(size)
    groups = []
    for number, axes, cells in _slot_groups(size, faces):
        width = len(axes)
        # One index array per sticker, each turning along its own face's axis.
        index = [np.arange(assignments).reshape(-1, *[1] * width, 1)]
        for j, axis in enumerate(axes):
            sticker = codes[photo_of[:, axis]][:, list(turns[axis])][:, :, cells[:, j]]
            color_shape = [assignments] + [1] * width + [len(cells)]
            color_shape[1 + j] = len(turns[axis])
            index.append(face_of_color[index[0], sticker.reshape(color_shape)])
        broken = np.count_nonzero(~tables[number][tuple(index[1:])], axis=-1).astype(np.int8)
        order = np.argsort(axes)
        groups.append((number, tuple(sorted(axes)), broken.transpose(0, *(1 + order))))
    # Sum small first: each group into a block over a superset of its faces (an edge into
    # a corner's block), then the few blocks into the whole grid.
    blocks: dict[tuple[int, ...], np.ndarray] = {}
    for _, axes, counts in sorted(groups, key=lambda group: -len(group[1])):
        host = next((block for block in blocks if set(axes) <= set(block)), None)
        if host is None:
            blocks[axes] = counts.copy()
        else:
            blocks[host] += _spread(counts, axes, host)
    everything = tuple(range(len(faces)))
    total = np.zeros((assignments, *(len(t) for t in turns)), dtype=np.int8)
    for axes, counts in blocks.items():
        total += _spread(counts, axes, everything)
    return _Broken(total, tuple(groups))


def _color_codes(readings: Sequence[str], size: int, colors: str) -> np.ndarray:
    """(photos, 4, N*N) each photo's symbols, turned 0-3 times, as indices into ``colors``
    (``len(colors)`` for a symbol not among them)."""
    code = {symbol: i for i, symbol in enumerate(colors)}
    return np.array(
        [
            [[code.get(s, len(colors)) for s in rotate_face(r, size, k)] for k in range(4)]
            for r in readings
        ]
    )


def _standard_symbols(readings: Sequence[str]) -> bool:
    return set("".join(readings)) <= set(STANDARD_SCHEME)


@dataclass(frozen=True)
class _Candidate:
    broken: int
    letters: str  # the cube in the user's symbols, facelet order, as placed
    placements: tuple[Placement, ...]


@dataclass(frozen=True)
class _Placings:
    """Every placement of the six photos, with the broken pieces of each, per orbit."""

    readings: tuple[str, ...]
    size: int
    photo_of: np.ndarray  # (assignments, 6) photo on each face of _PLACEMENT_ORDER
    turns: tuple[tuple[int, ...], ...]  # per face of _PLACEMENT_ORDER, the turns tried
    broken: _Broken

    def candidates(self, cells: np.ndarray) -> list[_Candidate]:
        """The placements at the grid's flat ``cells`` (in increasing order), as cubes.

        In search order (assignment, then U's, F's, ... turns); of placements giving the
        same cube, only the first is kept.
        """
        per_face = self.size * self.size
        rotated = [[rotate_face(r, self.size, k) for k in range(4)] for r in self.readings]
        # A face that looks the same turned (a plain face) is taken in its fewest turns:
        # drop the other cells at once, there can be hundreds of thousands of them.
        repeats = np.array([[r[k] in r[:k] for k in range(4)] for r in rotated])
        where = np.unravel_index(cells, self.broken.total.shape)
        first = np.ones(len(cells), dtype=bool)
        for k, turns in enumerate(self.turns):
            first &= ~repeats[self.photo_of[where[0], k], np.asarray(turns)[where[1 + k]]]
        found: dict[str, _Candidate] = {}
        for flat in cells[first]:
            assignment, *steps = np.unravel_index(flat, self.broken.total.shape)
            placed = [
                Placement(int(self.photo_of[assignment, k]), face, self.turns[k][steps[k]])
                for k, face in enumerate(_PLACEMENT_ORDER)
            ]
            letters = ["?"] * (6 * per_face)
            for p in placed:
                start = FACES.index(p.face) * per_face
                letters[start : start + per_face] = rotated[p.photo][p.quarter_turns]
            symbols = "".join(letters)
            if symbols not in found:
                found[symbols] = _Candidate(
                    int(self.broken.total.flat[flat]), symbols, tuple(placed)
                )
        return list(found.values())


@lru_cache(maxsize=4)
def _placings(readings: tuple[str, ...], size: int) -> _Placings:
    """The broken pieces of every placement of the photos (see the module's notes).

    The first candidate for U stays on U; the other five photos take the five other faces
    in each of the 120 orders, every photo in each of its four rotations (even N: U's
    photo only as taken). Every slot is read for every placement at once, as arrays.
    Cached, so that :func:`can_be_sound` and :func:`assemble` read the slots once.
    """
    per_face = size * size
    odd = size % 2 == 1
    if odd:
        centers = "".join(r[per_face // 2] for r in readings)
        anchor = centers.index("W") if "W" in centers else 0
        anchor_turns: tuple[int, ...] = (0, 1, 2, 3)
    else:
        centers = "".join(STANDARD_SCHEME)
        anchor, anchor_turns = 0, (0,)
    others = [p for p in range(6) if p != anchor]
    photo_of = np.array([(anchor, *order) for order in permutations(others)])
    face_index = [FACES.index(face) for face in _PLACEMENT_ORDER]
    if odd:
        # A colour names the face its centre's photo is placed on.
        face_of_color = np.full((len(photo_of), 7), 6)
        face_of_color[np.arange(len(photo_of))[:, None], photo_of] = face_index
    else:
        standard = [FACES.index(STANDARD_SCHEME[c]) for c in centers] + [6]
        face_of_color = np.tile(standard, (len(photo_of), 1))
    turns = (anchor_turns, *[(0, 1, 2, 3)] * 5)
    codes = _color_codes(readings, size, centers)
    broken = _broken_grid(size, _PLACEMENT_ORDER, photo_of, codes, face_of_color, turns)
    return _Placings(tuple(readings), size, photo_of, turns, broken)


@dataclass(frozen=True)
class PartialCheck:
    """Whether some faces of a standard-coloured odd cube can belong to one real cube.

    Attributes
    ----------
    broken
        The fewest pieces that are not real pieces, over all rotations of the faces.
    pieces
        Those pieces' slot names in the best placement (empty when ``broken`` is 0).
    """

    broken: int
    pieces: tuple[str, ...]


def check_partial(faces: dict[str, str], size: int) -> PartialCheck:
    """Check the pieces that some captured faces already complete.

    Parameters
    ----------
    faces
        Face letter (from the centre colour in the standard scheme) -> the face's N*N
        colour letters (W Y R O G B) as photographed, in any rotation.
    size
        N (odd: the centres name the faces).

    Returns
    -------
    PartialCheck

    Examples
    --------
    >>> check_partial({"U": "W" * 9, "F": "G" * 9}, 3).broken
    0
    >>> check_partial({"U": "W" * 9, "F": "GYGYGYGYG"}, 3)  # yellow beside white: impossible
    PartialCheck(broken=1, pieces=('UF',))
    """
    order = "".join(face for face in _PLACEMENT_ORDER if face in faces)
    photos = [faces[face] for face in order]
    colors = "".join(STANDARD_SCHEME)
    face_of_color = np.array([[FACES.index(STANDARD_SCHEME[c]) for c in colors] + [6]])
    turns = ((0, 1, 2, 3),) * len(order)
    codes = _color_codes(photos, size, colors)
    photo_of = np.arange(len(order))[None, :]
    total = _broken_grid(size, order, photo_of, codes, face_of_color, turns).total
    # The first best placement in search order: each face in its fewest quarter turns.
    best = np.unravel_index(int(np.argmin(total)), total.shape)[1:]
    letters = ["?"] * (6 * size * size)
    for k, face in enumerate(order):
        start = FACES.index(face) * size * size
        letters[start : start + size * size] = rotate_face(photos[k], size, int(best[k]))
    read = "".join(letters).translate(str.maketrans(STANDARD_SCHEME))
    broken = [
        slot_set.names[number]
        for slot_set in slot_sets(size)
        for number, slot in enumerate(slot_set.slots)
        if "?" not in (reading := "".join(read[i] for i in slot)) and reading not in slot_set.pieces
    ]
    return PartialCheck(int(total.min()), tuple(broken))


def _held_standard(symbols_string: str, size: int, up: str, front: str) -> tuple[str, str]:
    """The same cube turned in the hand to the standard orientation, and the rotation used.

    Odd N: the ``up`` colour on U and ``front`` on F (white and green for standard
    colours, else the first and third photos' centres: the cube as scanned), else
    ``up`` on U, else as found. Even N: the yellow-blue-orange corner home at DBL.
    """
    per_face = size * size
    center = per_face // 2
    held = []
    for rotation, getter in _rotation_getters(size):
        turned = "".join(getter(symbols_string))
        if size % 2 == 0:
            if _dbl_home(turned, size):
                return turned, rotation
            continue
        u, f = turned[center], turned[2 * per_face + center]
        if u == up and f == front:
            return turned, rotation
        # Otherwise a fixed choice (``up`` on U, the first front colour in sort order),
        # so that one cube found by different placements is held the same way.
        held.append((u != up, f, turned, rotation))
    if not held:
        return symbols_string, ""
    _, _, turned, rotation = min(held)
    return turned, rotation


@cache
def _rotation_getters(size: int) -> tuple[tuple[str, itemgetter], ...]:
    """The 24 ways to hold a cube: rotation text and a getter that applies it to a string."""
    return tuple(
        (rotation, itemgetter(*sequence_permutation(parse_moves(rotation, size), size)))
        for rotation in _rotation_sequences()
    )


def _dbl_home(symbols_string: str, size: int) -> bool:
    corners = slot_sets(size)[0]
    dbl = corners.slots[corners.names.index("DBL")]
    reading = "".join(STANDARD_SCHEME.get(symbols_string[i], "?") for i in dbl)
    return reading == "DBL"


@cache
def _rotation_sequences() -> tuple[str, ...]:
    """The 24 ways to hold a cube, as rotation move texts (identity first)."""
    return tuple(
        " ".join(part for part in (first, second) if part)
        for first in ("", "x", "x2", "x'", "z", "z'")
        for second in ("", "y", "y2", "y'")
    )


def _to_state(symbols_string: str, size: int) -> CubeState:
    if size % 2:
        per_face = size * size
        centers = "".join(symbols_string[f * per_face + per_face // 2] for f in range(6))
        table = str.maketrans(centers, FACES)
        return CubeState(size, symbols_string.translate(table), centers)
    table = str.maketrans("".join(STANDARD_SCHEME), "".join(STANDARD_SCHEME.values()))
    symbols = "".join(next(k for k, v in STANDARD_SCHEME.items() if v == f) for f in FACES)
    return CubeState(size, symbols_string.translate(table), symbols)


def _check_readings(readings: Sequence[str]) -> int:
    if len(readings) != 6:
        raise BadInputError(
            "bad-format", f"a cube has six faces; got {len(readings)} face readings"
        )
    lengths = {len(r) for r in readings}
    if len(lengths) != 1:
        raise BadInputError(
            "bad-format",
            f"the six faces were read with different grid sizes ({sorted(lengths)} stickers)",
        )
    size = size_from_length(6 * lengths.pop())
    if size % 2:
        per_face = size * size
        centers = [r[per_face // 2] for r in readings]
        repeated = {c for c in centers if centers.count(c) > 1}
        if repeated:
            photos = [i + 1 for i, c in enumerate(centers) if c in repeated]
            raise BadInputError(
                "center-duplicate",
                f"photos {', '.join(map(str, photos))} show faces with the same centre colour "
                f"({', '.join(sorted(repeated))}): one face was photographed twice and "
                "another is missing",
            )
    elif not _standard_symbols(readings):
        raise BadInputError(
            "unknown-scheme",
            "an even cube has no centres to name its faces: its colours must be the standard "
            "W Y R O G B, or give the photos in the standard net orientation "
            "(--orientation net)",
        )
    return size


def can_be_sound(readings: Sequence[str]) -> bool:
    """Whether some placement of the six photos makes every slot a real piece.

    A cheap first look (no diagnosis): when it is False, :func:`assemble` cannot give a
    sound cube, whatever the order and rotation of the photos.

    Parameters
    ----------
    readings
        Six strings of N*N colour symbols, in any order and rotation.

    Returns
    -------
    bool

    Raises
    ------
    BadInputError
        As :func:`assemble` does for readings it cannot assemble.

    Examples
    --------
    >>> solved = ["W" * 9, "R" * 9, "G" * 9, "Y" * 9, "O" * 9, "B" * 9]
    >>> can_be_sound(solved), can_be_sound(["WWWWWWWWY"] + solved[1:3] + ["YYYYYYYYW"] + solved[4:])
    (True, False)
    """
    size = _check_readings(readings)
    return int(_placings(tuple(readings), size).broken.total.min()) == 0


def assemble(readings: Sequence[str], orientation: str = "auto") -> Assembly:
    """Put six face readings together into one cube.

    Parameters
    ----------
    readings
        Six strings of N*N colour symbols, each row-major as the photo shows the face.
        With ``orientation="net"`` they must be in URFDLB order and each turned as in
        the DESIGN.md net; with ``"auto"`` any order and rotation.
    orientation
        ``"auto"`` (search) or ``"net"`` (take the photos as given).

    Returns
    -------
    Assembly

    Raises
    ------
    BadInputError
        Not six readings of one size, a face photographed twice (odd N), or an even
        cube in an unknown colour scheme without ``orientation="net"``.

    Examples
    --------
    >>> solved = ["W" * 4, "R" * 4, "G" * 4, "Y" * 4, "O" * 4, "B" * 4]
    >>> assemble(solved).facelets
    'UUUURRRRFFFFDDDDLLLLBBBB'
    """
    if orientation not in ("auto", "net"):
        raise BadInputError(
            "bad-usage", f"orientation must be 'auto' or 'net', not {orientation!r}"
        )
    if orientation == "net":
        size = size_from_length(6 * len(readings[0])) if len(readings) == 6 else 0
        if len(readings) != 6 or any(len(r) != size * size for r in readings):
            raise BadInputError("bad-format", "give six face readings of one size in URFDLB order")
        report = validate("".join(readings))
        placements = tuple(Placement(i, f, 0) for i, f in enumerate(FACES))
        return Assembly(
            size,
            report.facelets,
            report.symbols,
            placements,
            report,
            False,
            (report.facelets,),
            0,
            (placements,),
        )
    size = _check_readings(readings)
    centers = [r[size * size // 2] for r in readings]
    up, front = ("W", "G") if {"W", "G"} <= set(centers) else (centers[0], centers[2])
    placings = _placings(tuple(readings), size)
    total = placings.broken.total
    fewest = int(total.min())
    ranked = _ranked(placings.candidates(np.flatnonzero(total == fewest)), size, up, front)
    reach = _slack_reach(min(item[0] for item in ranked), readings, size)
    if reach > 0:
        # Not a sound cube. A duplicated piece is a real piece, so a placement that
        # duplicates pieces can break fewer slots than the true one with one mirrored
        # corner: the placements with one more broken piece are weighed too, those that
        # can still rank first (their broken pieces in at most ``reach`` orbits).
        cells = np.flatnonzero(total == fewest + 1)
        within = cells[placings.broken.orbits(cells) <= reach]
        ranked += _ranked(placings.candidates(within), size, up, front)
    scored = _diagnosed(ranked)
    # The most plausible reading wins, but every other reading whose pieces are just as
    # real is an ambiguity to report: a photo turned by half a turn can make a cube
    # with two swapped pieces look solvable, and that must not be hidden.
    _, _, candidate, rotation, state, report = scored[0]
    plausible = [item for item in scored if item[0][:3] == scored[0][0][:3]]
    # The first (most plausible) placement giving each distinct cube.
    first_of = {}
    for item in plausible:
        first_of.setdefault(item[4].facelets, item)
    return Assembly(
        size,
        state.facelets,
        state.symbols,
        _turned_placements(candidate.placements, rotation, size),
        report,
        len(first_of) > 1,
        tuple(first_of),
        candidate.broken,
        tuple(_turned_placements(item[2].placements, item[3], size) for item in first_of.values()),
    )


def _ranked(candidates: list[_Candidate], size: int, up: str, front: str) -> list[tuple]:
    """The candidates held in the standard orientation, with their cheap ranking keys.

    Each item: ((structural problems, scheme penalty, broken pieces), quarter turns used,
    candidate, rotation, state).
    """
    ranked = []
    for candidate in candidates:
        held, rotation = _held_standard(candidate.letters, size, up, front)
        state = _to_state(held, size)
        # A cube in the standard colours most likely has the standard scheme (a solved
        # cube's photos cannot tell schemes apart); then prefer the photos as taken.
        key = (
            structural_problem_count(state),
            _scheme_penalty(state.symbols),
            candidate.broken,
        )
        turned = sum(p.quarter_turns != 0 for p in candidate.placements)
        ranked.append((key, turned, candidate, rotation, state))
    return ranked


def _diagnosed(ranked: list[tuple]) -> list[tuple]:
    """The ranked candidates, best first, the leaders diagnosed.

    Each item: (score, quarter turns used, candidate, rotation, state, report); the score
    adds the number of problems, and the report is there, for the candidates tied with
    the best on the first three keys (the only ones the caller reads), None for the rest.
    """
    best = min(item[0] for item in ranked)
    scored = []
    for key, turned, candidate, rotation, state in ranked:
        # Only the leaders need the full diagnosis (its fix search is the costly part):
        # the others lose on the first keys whatever their problem count.
        report = validate(state) if key == best else None
        problems = len(report.problems) if report is not None else 0
        scored.append(((*key, problems), turned, candidate, rotation, state, report))
    return sorted(scored, key=lambda item: (item[0], item[1]))


def _slack_reach(key: tuple[int, int, int], readings: Sequence[str], size: int) -> int:
    """In how many orbits a placement with one more broken piece than the leader may
    have broken pieces and still rank first (0: none can).

    The leader ranks by ``key`` = (structural problems, scheme penalty, broken pieces).
    A placement with more broken pieces must have fewer structural problems, or as many
    and a lower scheme penalty. Its structural problems are at least one per orbit with
    a broken piece, plus one when the colours are not N*N stickers each (a colour-count
    problem in every placement alike).
    """
    structural, penalty, _ = key
    counts = Counter("".join(readings)).values()
    miscounted = sorted(counts) != [size * size] * 6
    return structural - miscounted - (penalty == 0)


def _scheme_penalty(symbols: str) -> int:
    """0 for the standard scheme (W R G Y O B on U R F D L B) or a palette of other
    colours, 1 for the standard opposite pairs arranged otherwise, 2 for anything else."""
    if symbols == "WRGYOB" or not set(symbols) <= set(STANDARD_SCHEME):
        return 0
    pairs = {frozenset((symbols[i], symbols[i + 3])) for i in range(3)}
    return 1 if pairs == {frozenset("WY"), frozenset("RO"), frozenset("GB")} else 2


def _turned_placements(
    placements: tuple[Placement, ...], rotation: str, size: int
) -> tuple[Placement, ...]:
    """Each photo's face and quarter turns after the whole cube is turned by ``rotation``."""
    per_face = size * size
    markers = "".join(chr(0x4E00 + i) for i in range(6 * per_face))
    turned = apply_moves(markers, rotation)
    moved = {}
    for final, face in enumerate(FACES):
        block = turned[final * per_face : (final + 1) * per_face]
        origin = FACES[(ord(block[0]) - 0x4E00) // per_face]
        start = FACES.index(origin) * per_face
        extra = next(
            k for k in range(4) if rotate_face(markers[start : start + per_face], size, k) == block
        )
        moved[origin] = (face, extra)
    return tuple(
        Placement(p.photo, moved[p.face][0], (p.quarter_turns + moved[p.face][1]) % 4)
        for p in sorted(placements, key=lambda p: p.photo)
    )
