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
from functools import cache
from operator import itemgetter

import numpy as np

from cubescan.errors import BadInputError
from cubescan.scanner.placements import (
    PLACEMENT_ORDER,
    Candidate,
    Placement,
    broken_pieces_grid,
    color_codes,
    count_placements,
    rotate_face,
)
from cubescan.solver.facelets import STANDARD_SCHEME, CubeState
from cubescan.solver.geometry import FACES
from cubescan.solver.moves import (
    Move,
    apply_moves,
    sequence_permutation,
    size_from_length,
    whole_cube_turns,
)
from cubescan.solver.slots import slot_sets
from cubescan.solver.validate import ValidationReport, structural_problem_count, validate


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


def _standard_symbols(readings: Sequence[str]) -> bool:
    return set("".join(readings)) <= set(STANDARD_SCHEME)


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
    order = "".join(face for face in PLACEMENT_ORDER if face in faces)
    photos = [faces[face] for face in order]
    colors = "".join(STANDARD_SCHEME)
    face_of_color = np.array([[FACES.index(STANDARD_SCHEME[c]) for c in colors] + [6]])
    turns = ((0, 1, 2, 3),) * len(order)
    codes = color_codes(photos, size, colors)
    photo_of = np.arange(len(order))[None, :]
    total = broken_pieces_grid(size, order, photo_of, codes, face_of_color, turns).total
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


def _held_standard(
    symbols_string: str, size: int, up: str, front: str
) -> tuple[str, tuple[Move, ...]]:
    """The same cube turned in the hand to the standard orientation, and the turns used.

    Odd N: the ``up`` colour on U and ``front`` on F (white and green for standard
    colours, else the first and third photos' centres: the cube as scanned), else
    ``up`` on U, else as found. Even N: the yellow-blue-orange corner home at DBL.
    """
    per_face = size * size
    center = per_face // 2
    held = []
    for k, (rotation, getter) in enumerate(_rotation_getters(size)):
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
        held.append((u != up, f, turned, k))
    if not held:
        return symbols_string, ()
    _, _, turned, k = min(held)
    return turned, _rotation_getters(size)[k][0]


@cache
def _rotation_getters(size: int) -> tuple[tuple[tuple[Move, ...], itemgetter], ...]:
    """The 24 ways to hold a cube: whole-cube turns and a getter that applies them to a string."""
    return tuple(
        (turns, itemgetter(*sequence_permutation(turns, size))) for turns in whole_cube_turns()
    )


def _dbl_home(symbols_string: str, size: int) -> bool:
    corners = slot_sets(size)[0]
    dbl = corners.slots[corners.names.index("DBL")]
    reading = "".join(STANDARD_SCHEME.get(symbols_string[i], "?") for i in dbl)
    return reading == "DBL"


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
    return int(count_placements(tuple(readings), size).broken.total.min()) == 0


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
    placings = count_placements(tuple(readings), size)
    total = placings.broken.total
    fewest = int(total.min())
    ranked = rank_candidates(placings.candidates(np.flatnonzero(total == fewest)), size, up, front)
    reach = _slack_reach(min(item[0] for item in ranked), readings, size)
    if reach > 0:
        # Not a sound cube. A duplicated piece is a real piece, so a placement that
        # duplicates pieces can break fewer slots than the true one with one mirrored
        # corner: the placements with one more broken piece are weighed too, those that
        # can still rank first (their broken pieces in at most ``reach`` orbits).
        cells = np.flatnonzero(total == fewest + 1)
        within = cells[placings.broken.orbits(cells) <= reach]
        ranked += rank_candidates(placings.candidates(within), size, up, front)
    scored = diagnose_leaders(ranked)
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


def rank_candidates(candidates: list[Candidate], size: int, up: str, front: str) -> list[tuple]:
    """The candidates held in the standard orientation, with their cheap ranking keys.

    Parameters
    ----------
    candidates
        Placements as cubes (:meth:`~cubescan.scanner.placements.Placings.candidates`).
    size
        N.
    up, front
        The colors held on U and F (white and green when the cube has them).

    Returns
    -------
    list of tuple
        Per candidate: ((structural problems, scheme penalty, broken pieces), photos turned,
        candidate, the rotation that holds it in the standard orientation, its CubeState).

    Examples
    --------
    >>> readings = ("W" * 4, "R" * 4, "G" * 4, "Y" * 4, "O" * 4, "B" * 4)
    >>> placings = count_placements(readings, 2)
    >>> best = placings.candidates(np.flatnonzero(placings.broken.total == 0))
    >>> key, turned, _, _, state = rank_candidates(best, 2, "W", "G")[0]
    >>> key, state.facelets
    ((0, 0, 0), 'UUUURRRRFFFFDDDDLLLLBBBB')
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


def diagnose_leaders(ranked: list[tuple]) -> list[tuple]:
    """The ranked candidates, best first, the leaders diagnosed.

    Parameters
    ----------
    ranked
        Items of :func:`rank_candidates`.

    Returns
    -------
    list of tuple
        (score, photos turned, candidate, rotation, state, report), sorted by score then
        photos turned. The score adds the number of problems to the ranking key; the report
        is there for the candidates tied with the best on the ranking key (the only ones
        :func:`assemble` reads), None for the rest.

    Examples
    --------
    >>> readings = ("W" * 4, "R" * 4, "G" * 4, "Y" * 4, "O" * 4, "B" * 4)
    >>> placings = count_placements(readings, 2)
    >>> best = placings.candidates(np.flatnonzero(placings.broken.total == 0))
    >>> score, turned, _, _, state, report = diagnose_leaders(rank_candidates(best, 2, "W", "G"))[0]
    >>> score, turned, report.valid
    ((0, 0, 0, 0), 0, True)
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
    placements: tuple[Placement, ...], rotation: tuple[Move, ...], size: int
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
