"""From six face readings, in any order and any rotation, to one cube.

Each reading is the N*N colour symbols of one photo, row-major from the photo's top.
Which face a photo shows, and how it is turned, is found by a search that makes the
pieces real: a placement of the six photos (which face, how many quarter turns) and a
colour scheme (which colour belongs on which face) are accepted where every corner,
edge and wing slot reads as a real piece.

* Odd N: the centres name the faces' colours. The face shown by the first candidate
  for U (the white-centred photo, else the first) is held fixed; the other five photos
  are tried on the five other faces (120 ways) and, face by face, in each of the four
  rotations, abandoning a branch as soon as it has more broken pieces than the best
  complete one so far (branch and bound). A valid cube is found with every branch
  but the right one cut at its first broken piece.
* Even N: no centres, so the colours must follow the standard scheme (white opposite
  yellow, red opposite orange, green opposite blue, as the colour letters W Y R O G B
  say). The first photo is held as U in its own rotation (which fixes how the cube is
  held) and the other five are placed as above.

Among the complete placements with the fewest broken pieces, the one whose cube
validates with the fewest structural problems (then broken pieces, then problems) wins;
when even that cube is not sound, placements with one more broken piece are weighed too
(a duplicated piece is a real piece, so a wrong placement that duplicates pieces can
break fewer slots than the true one with a mirrored corner). Equally good placements
that give different cubes are reported as an ambiguity, never hidden. The winner is
finally turned in the hand to the standard orientation: white on U and green on F when
the cube has those colours, otherwise as it was scanned (the first photo's face on U,
the third's on F, as in URFDLB order); even N: the yellow-blue-orange corner at DBL.

Examples
--------
>>> from solver.moves import apply_moves, solved_facelets
>>> colours = apply_moves(solved_facelets(3), "R U F'").translate(str.maketrans("URFDLB", "WRGYOB"))
>>> photos = [colours[9 * f : 9 * f + 9] for f in (3, 0, 5, 1, 4, 2)]  # shuffled faces
>>> photos = [photos[0][::-1]] + photos[1:]                             # one photo upside down
>>> result = assemble(photos)
>>> result.facelets == apply_moves(solved_facelets(3), "R U F'"), result.ambiguous
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import permutations
from operator import itemgetter

import numpy as np

from solver.errors import BadInputError
from solver.geometry import FACES
from solver.moves import apply_moves, parse_moves, sequence_permutation, size_from_length
from solver.slots import slot_sets
from solver.state import STANDARD_SCHEME, CubeState
from solver.validate import ValidationReport, structural_problem_count, validate

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
    """

    size: int
    facelets: str
    symbols: str
    placements: tuple[Placement, ...]
    report: ValidationReport
    ambiguous: bool
    alternatives: tuple[str, ...]
    broken_pieces: int


def rotate_face(symbols: str, size: int, quarter_turns: int) -> str:
    """Turn one face's N*N symbols (row-major) clockwise by ``quarter_turns``.

    Examples
    --------
    >>> rotate_face("abcd", 2, 1)
    'cadb'
    """
    grid = np.array(list(symbols)).reshape(size, size)
    return "".join(np.rot90(grid, -quarter_turns).ravel())


@cache
def _completions(
    size: int, order: str = _PLACEMENT_ORDER
) -> tuple[tuple[tuple[int, itemgetter], ...], ...]:
    """For each step of the placement ``order``, the slots its face completes.

    Returns, per step, pairs (index into ``slot_sets(size)``, a getter of the slot's
    stickers) for the slots whose stickers all lie on faces placed by then and that
    were not completed earlier.
    """
    per_face = size * size
    done: set[tuple[int, ...]] = set()
    steps = []
    for step in range(len(order)):
        placed = set(order[: step + 1])
        new = []
        for number, slot_set in enumerate(slot_sets(size)):
            for slot in slot_set.slots:
                if slot not in done and all(FACES[i // per_face] in placed for i in slot):
                    done.add(slot)
                    new.append((number, itemgetter(*slot)))
        steps.append(tuple(new))
    return tuple(steps)


def _standard_symbols(readings: Sequence[str]) -> bool:
    return set("".join(readings)) <= set(STANDARD_SCHEME)


@dataclass(frozen=True)
class _Candidate:
    broken: int
    letters: str  # the cube in the user's symbols, facelet order, as placed
    placements: tuple[Placement, ...]


@dataclass
class _Search:
    """Working state of one search: the photos, what is placed, the best found so far."""

    size: int
    order: str  # the faces to place, in placement order
    rotated: list[list[str]]  # rotated[photo][quarter_turns] = the photo's symbols
    anchor_turns: tuple[int, ...]
    completions: tuple
    tables: list
    allowed: int
    found: dict[str, _Candidate]


def _place(
    search: _Search,
    photo_of: dict[str, int],
    scheme: dict[int, int],
    letters: list[str],
    step: int,
    broken: int,
    chosen: tuple[Placement, ...],
) -> None:
    """Place the face of ``step`` in each rotation and recurse while within the budget."""
    if step == len(search.order):
        symbols = "".join(letters)
        # Faces of one colour look the same in every rotation: keep one such placement.
        if symbols not in search.found:
            search.found[symbols] = _Candidate(broken, symbols, chosen)
        return
    per_face = search.size * search.size
    face = search.order[step]
    photo = photo_of[face]
    start = FACES.index(face) * per_face
    for turns in search.anchor_turns if step == 0 else range(4):
        # A face that looks the same turned (a plain face) needs trying only once.
        if search.rotated[photo][turns] in search.rotated[photo][:turns]:
            continue
        letters[start : start + per_face] = search.rotated[photo][turns]
        more = 0
        for table_index, getter in search.completions[step]:
            reading = "".join(getter(letters)).translate(scheme)
            more += reading not in search.tables[table_index]
        if broken + more <= search.allowed:
            placement = Placement(photo, face, turns)
            _place(search, photo_of, scheme, letters, step + 1, broken + more, (*chosen, placement))


def _search(readings: Sequence[str], size: int, slack: int = 0) -> list[_Candidate]:
    """All placements with the fewest broken pieces (or up to ``slack`` more).

    Iterative deepening on the number of broken pieces allowed: a sound cube is found
    in the first pass, where every wrong branch ends at its first broken piece.
    """
    per_face = size * size
    odd = size % 2 == 1
    rotated = [[rotate_face(r, size, k) for k in range(4)] for r in readings]
    if odd:
        centres = [r[per_face // 2] for r in readings]
        anchor = centres.index("W") if "W" in centres else 0
        anchor_turns: tuple[int, ...] = (0, 1, 2, 3)
    else:
        anchor, anchor_turns = 0, (0,)
    others = [p for p in range(6) if p != anchor]
    search = _Search(
        size,
        _PLACEMENT_ORDER,
        rotated,
        anchor_turns,
        _completions(size),
        [slot_set.pieces for slot_set in slot_sets(size)],
        0,
        {},
    )
    standard = str.maketrans(STANDARD_SCHEME)
    total_slots = sum(len(step) for step in search.completions)
    while True:
        for order in permutations(others):
            photo_of = dict(zip(_PLACEMENT_ORDER, (anchor, *order), strict=True))
            scheme = str.maketrans({centres[photo_of[f]]: f for f in FACES}) if odd else standard
            _place(search, photo_of, scheme, ["?"] * (6 * per_face), 0, 0, ())
        if search.found or search.allowed >= total_slots:
            best = min(c.broken for c in search.found.values())
            if search.allowed >= min(total_slots, best + slack):
                return [c for c in search.found.values() if c.broken <= best + slack]
            search.allowed = min(total_slots, best + slack)
        else:
            search.allowed = min(total_slots, max(1, 2 * search.allowed))


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
    photos = list(faces.values())
    photo_of = {face: i for i, face in enumerate(faces)}
    search = _Search(
        size,
        order,
        [[rotate_face(r, size, k) for k in range(4)] for r in photos],
        (0, 1, 2, 3),
        _completions(size, order),
        [slot_set.pieces for slot_set in slot_sets(size)],
        0,
        {},
    )
    total = sum(len(step) for step in search.completions)
    scheme = str.maketrans(STANDARD_SCHEME)
    while True:
        _place(search, photo_of, scheme, ["?"] * (6 * size * size), 0, 0, ())
        if search.found or search.allowed >= total:
            break
        search.allowed = min(total, max(1, 2 * search.allowed))
    best = min(search.found.values(), key=lambda c: c.broken)
    letters = best.letters.translate(scheme)
    broken = [
        slot_set.names[number]
        for slot_set in slot_sets(size)
        for number, slot in enumerate(slot_set.slots)
        if "?" not in (reading := "".join(letters[i] for i in slot))
        and reading not in slot_set.pieces
    ]
    return PartialCheck(best.broken, tuple(broken))


def _held_standard(symbols_string: str, size: int, up: str, front: str) -> tuple[str, str]:
    """The same cube turned in the hand to the standard orientation, and the rotation used.

    Odd N: the ``up`` colour on U and ``front`` on F (white and green for standard
    colours, else the first and third photos' centres: the cube as scanned), else
    ``up`` on U, else as found. Even N: the yellow-blue-orange corner home at DBL.
    """
    per_face = size * size
    centre = per_face // 2
    held = []
    for rotation, getter in _rotation_getters(size):
        turned = "".join(getter(symbols_string))
        if size % 2 == 0:
            if _dbl_home(turned, size):
                return turned, rotation
            continue
        u, f = turned[centre], turned[2 * per_face + centre]
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
        centres = "".join(symbols_string[f * per_face + per_face // 2] for f in range(6))
        table = str.maketrans(centres, FACES)
        return CubeState(size, symbols_string.translate(table), centres)
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
        centres = [r[per_face // 2] for r in readings]
        repeated = {c for c in centres if centres.count(c) > 1}
        if repeated:
            photos = [i + 1 for i, c in enumerate(centres) if c in repeated]
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
            size, report.facelets, report.symbols, placements, report, False, (report.facelets,), 0
        )
    size = _check_readings(readings)
    centres = [r[size * size // 2] for r in readings]
    up, front = ("W", "G") if {"W", "G"} <= set(centres) else (centres[0], centres[2])
    scored = _scored(_search(readings, size), size, up, front)
    if scored[0][0][0]:
        # Not a sound cube. A duplicated piece is a real piece, so a placement that
        # duplicates pieces can break fewer slots than the true one with one mirrored
        # corner: the placements with one more broken piece are weighed too.
        scored = _scored(_search(readings, size, slack=1), size, up, front)
    # The most plausible reading wins, but every other reading whose pieces are just as
    # real is an ambiguity to report: a photo turned by half a turn can make a cube
    # with two swapped pieces look solvable, and that must not be hidden.
    _, _, candidate, rotation, state, report = scored[0]
    plausible = [item for item in scored if item[0][:3] == scored[0][0][:3]]
    distinct = tuple(dict.fromkeys(item[4].facelets for item in plausible))
    return Assembly(
        size,
        state.facelets,
        state.symbols,
        _turned_placements(candidate.placements, rotation, size),
        report,
        len(distinct) > 1,
        distinct,
        candidate.broken,
    )


def _scored(candidates: list[_Candidate], size: int, up: str, front: str) -> list[tuple]:
    """The candidates held in the standard orientation, ranked, best first.

    Each item: (score, quarter turns used, candidate, rotation, state, report); the report
    is there for the candidates tied with the best on the score's first three keys (the
    only ones the caller reads), None for the rest.
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
    best = min(item[0] for item in ranked)
    scored = []
    for key, turned, candidate, rotation, state in ranked:
        # Only the leaders need the full diagnosis (its fix search is the costly part):
        # the others lose on the first keys whatever their problem count.
        report = validate(state) if key == best else None
        problems = len(report.problems) if report is not None else 0
        scored.append(((*key, problems), turned, candidate, rotation, state, report))
    return sorted(scored, key=lambda item: (item[0], item[1]))


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
