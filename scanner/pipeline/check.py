"""One cube from its face readings: colors, assembly, repair, verdict, solution.

:func:`cube_report` is the part of ``cubescan check`` that follows colour sampling:

1. name every sticker's colour over the whole cube at once (balanced k-means,
   :func:`cubescan.calibration.naming.classify`), the six photos' samples side by side;
2. assemble the faces, in whatever order and rotation they were photographed
   (:func:`cubescan.scanner.assemble.assemble`);
3. repair misreads that only unsure stickers explain (:func:`cubescan.calibration.repair.repair`),
   never a confidently read physical fault;
4. when equally good assemblies give different cubes, let the neighbouring faces'
   stickers that the photos show beside each face settle it, if they clearly do
   (:func:`cubescan.scanner.sides.weigh_alternatives`);
5. validate, diagnose and, for a solvable 2x2 or 3x3, solve.

:func:`check_images` is the whole of ``cubescan check``: photos read by
:mod:`cubescan.scanner.pipeline.photos`, then :func:`cube_report`; :func:`check_folder` is one
cube of a batch, annotated photos written too.

Examples
--------
>>> import numpy as np
>>> from cubescan.synth.colors import render_cube
>>> from cubescan.solver.moves import apply_moves, solved_facelets
>>> truth = apply_moves(solved_facelets(3), "R U R' F2")
>>> lab = render_cube(truth, "cool", np.random.default_rng(0))
>>> report = cube_report([lab[9 * f : 9 * f + 9] for f in range(6)], solve=False)
>>> report.facelets == truth, report.valid
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from cubescan.calibration.light import balance_photos, relight_misfits
from cubescan.calibration.naming import classify
from cubescan.calibration.palette import Classification, ColorInfo, colors_json
from cubescan.calibration.piece_naming import UNSURE, name_by_pieces, needs_piece_naming
from cubescan.calibration.profile import Profile
from cubescan.calibration.repair import PHYSICAL_FAULTS, Repair, RepairResult, repair
from cubescan.errors import BadInputError
from cubescan.scanner.assemble import Assembly, assemble, can_be_sound
from cubescan.scanner.frames.imageio import read_image
from cubescan.scanner.output.annotations import write_annotations
from cubescan.scanner.output.report_html import thumbnail_data_uri
from cubescan.scanner.pipeline.photos import FacePhoto, order_photos, read_cube_photos
from cubescan.scanner.sides import SideSamples, weigh_alternatives
from cubescan.solver.facelets import CubeState
from cubescan.solver.geometry import FACES, cube_geometry
from cubescan.solver.moves import Move, format_moves, size_from_length
from cubescan.solver.validate import ValidationReport, validate

_LETTER_OF_COLOR = {
    "white": "W",
    "yellow": "Y",
    "red": "R",
    "orange": "O",
    "green": "G",
    "blue": "B",
}


@dataclass(frozen=True)
class PhotoPlacement:
    """Where one photo's face went in the cube.

    Attributes
    ----------
    source
        The photo's name (a file path, or "photo 1".. for frames).
    face
        Face letter in the standard orientation.
    quarter_turns
        Clockwise quarter turns that bring the photo to the DESIGN.md net orientation.
    """

    source: str
    face: str
    quarter_turns: int


@dataclass(frozen=True, eq=False)
class CubeReport:
    """Everything ``cubescan check`` knows about one cube (see :meth:`to_dict`).

    Attributes
    ----------
    size
        N.
    facelets
        The cube in face letters, standard orientation, after any repair.
    read_facelets
        The same before repair: what the camera read.
    colors
        Face letter -> colour name and mean Lab.
    validation
        The verdict on ``facelets``.
    confidence
        Per sticker, in facelet order: the colour naming's margin (0 = a coin toss).
    repairs
        Stickers whose reading was changed to reach a valid cube.
    repair_note
        Why a repair was or was not made.
    solution
        Moves that solve the cube (None when not solvable or not attempted).
    solution_note
        Why there is no solution, when there is none.
    photos
        Where each photo went.
    ambiguous
        True when equally good assemblies give different cubes.
    alternatives
        Those cubes (facelet strings), the reported one first.
    ambiguity_note
        How equally good assemblies were told apart by the neighbouring faces' stickers
        seen beside the faces (then ``ambiguous`` is False), or why they were not.
    """

    size: int
    facelets: str
    read_facelets: str
    colors: Mapping[str, ColorInfo]
    validation: ValidationReport
    confidence: np.ndarray
    repairs: tuple[Repair, ...]
    repair_note: str
    solution: tuple[Move, ...] | None
    solution_note: str
    photos: tuple[PhotoPlacement, ...]
    ambiguous: bool
    alternatives: tuple[str, ...]
    ambiguity_note: str = ""

    @property
    def valid(self) -> bool:
        """True when the cube can be solved."""
        return self.validation.valid

    @property
    def ambiguous_faces(self) -> tuple[str, ...]:
        """The faces whose stickers differ between the reported cube and an alternative:
        the photos whose orientation the stickers alone cannot settle."""
        per_face = self.size * self.size
        return tuple(
            face
            for f, face in enumerate(FACES)
            if any(
                other[f * per_face : (f + 1) * per_face]
                != self.read_facelets[f * per_face : (f + 1) * per_face]
                for other in self.alternatives
            )
        )

    @property
    def unsure_stickers(self) -> tuple[str, ...]:
        """Stickers whose colour the reading could not settle (confidence under
        :data:`cubescan.calibration.piece_naming.UNSURE`), by facelet name (``"U5"``): a
        valid cube with any of them may be a different cube, so a person should look."""
        name = cube_geometry(self.size).facelet_name
        return tuple(name(int(i)) for i in np.flatnonzero(self.confidence < UNSURE))

    def to_dict(self) -> dict:
        """The JSON report of docs/design.md.

        Returns
        -------
        dict
            JSON-ready: the keys of :meth:`cubescan.solver.validate.ValidationReport.to_dict`
            (``size``, ``facelets``, ``valid``, ``problems``, ``fix``, ``orbit``,
            ``classic_error``), then ``read_facelets``, ``colors`` (face letter ->
            ``{"name", "lab"}``), ``confidence`` (per sticker, 3 decimals), ``repairs``,
            ``repair_note``, ``solution`` (WCA text, or None), ``solution_note``,
            ``photos`` (``source``, ``face``, ``quarter_turns`` each), ``ambiguous``,
            ``ambiguous_faces``, ``alternatives``, ``ambiguity_note`` and ``unsure``
            (:attr:`unsure_stickers`).

        Examples
        --------
        >>> from cubescan.synth.colors import render_cube
        >>> from cubescan.solver.moves import apply_moves, solved_facelets
        >>> truth = apply_moves(solved_facelets(3), "R U R' F2")
        >>> lab = render_cube(truth, "cool", np.random.default_rng(0))
        >>> data = cube_report([lab[9 * f : 9 * f + 9] for f in range(6)], solve=False).to_dict()
        >>> data["valid"], data["colors"]["U"]["name"], data["solution"], data["solution_note"]
        (True, 'white', None, 'not asked for')
        >>> data["photos"][1], len(data["confidence"]), data["unsure"]
        ({'source': 'photo 2', 'face': 'R', 'quarter_turns': 0}, 54, [])
        """
        data = self.validation.to_dict()
        data.update(
            {
                "size": self.size,
                "facelets": self.facelets,
                "read_facelets": self.read_facelets,
                "colors": colors_json(self.colors),
                "confidence": [round(float(c), 3) for c in self.confidence],
                "repairs": [r.to_dict(self.colors) for r in self.repairs],
                "repair_note": self.repair_note,
                "solution": None if self.solution is None else format_moves(self.solution),
                "solution_note": self.solution_note,
                "photos": [
                    {"source": p.source, "face": p.face, "quarter_turns": p.quarter_turns}
                    for p in self.photos
                ],
                "ambiguous": self.ambiguous,
                "ambiguous_faces": list(self.ambiguous_faces),
                "alternatives": list(self.alternatives),
                "ambiguity_note": self.ambiguity_note,
                "unsure": list(self.unsure_stickers),
            }
        )
        return data


def _symbols(classification: Classification) -> dict[str, str]:
    """One character per colour for assembly: W Y R O G B when standard, else 1-6."""
    names = {face: info.name for face, info in classification.colors.items()}
    if all(name in _LETTER_OF_COLOR for name in names.values()):
        return {face: _LETTER_OF_COLOR[name] for face, name in names.items()}
    return {face: str(number) for number, face in enumerate(sorted(names), start=1)}


def _final_index(assembly: Assembly, size: int) -> np.ndarray:
    """``index[k]`` = facelet index, in the assembled cube, of the k-th sampled sticker."""
    per_face = size * size
    grid = np.arange(per_face).reshape(size, size)
    index = np.empty(6 * per_face, dtype=int)
    for placement in assembly.placements:
        # rot90 turns the photo's grid into the face's net grid; read back where each went.
        turned = np.rot90(grid, -placement.quarter_turns).ravel()
        start = FACES.index(placement.face) * per_face
        index[placement.photo * per_face + turned] = start + np.arange(per_face)
    return index


def _reordered(
    classification: Classification, assembly: Assembly, symbols: dict[str, str]
) -> Classification:
    """The classification in the assembled cube's facelet order and face letters."""
    index = _final_index(assembly, classification.size)
    if not set(symbols.values()) <= set(assembly.symbols):
        # An even cube's colours go on its faces by their names or its DLB corner.
        message = "the colours read cannot be placed on the cube's faces (not the standard six,"
        raise BadInputError(
            "unknown-scheme",
            f"{message} and its corners do not pair them): photograph it again in white light",
        )
    # Classification letters -> assembled face letters, through the shared colour symbols.
    letter_of = {read: FACES[assembly.symbols.index(symbol)] for read, symbol in symbols.items()}
    order = np.empty_like(index)
    order[index] = np.arange(index.size)
    read_of = {face: read for read, face in letter_of.items()}
    columns = [FACES.index(read_of[face]) for face in FACES]
    return Classification(
        classification.size,
        assembly.facelets,
        {letter_of[read]: info for read, info in classification.colors.items()},
        classification.confidence[order],
        classification.log_likelihood[order][:, columns],
        classification.standard,
    )


def with_solution(report: CubeReport) -> CubeReport:
    """The report with its solution, or with the reason there is none.

    Parameters
    ----------
    report
        A report made without a solution (``solve=False``).

    Returns
    -------
    CubeReport
        ``solution`` set for a solvable cube; otherwise ``solution_note`` says why not
        (not solvable as it is).

    Examples
    --------
    >>> from cubescan.synth.colors import render_cube
    >>> from cubescan.solver.moves import apply_moves, solved_facelets
    >>> truth = apply_moves(solved_facelets(3), "R U R' F2")
    >>> lab = render_cube(truth, "cool", np.random.default_rng(0))
    >>> report = cube_report([lab[9 * f : 9 * f + 9] for f in range(6)], solve=False)
    >>> solved = with_solution(report)
    >>> apply_moves(truth, solved.solution) == solved_facelets(3), solved.solution_note
    (True, '')
    """
    if not report.validation.valid:
        note = "the cube cannot be solved as it is: see the problems and fixes"
        return replace(report, solution=None, solution_note=note)
    from cubescan.solver.solve import solve  # the search tables load only when a solution is wanted

    moves = tuple(solve(CubeState(report.size, report.facelets)))
    return replace(report, solution=moves, solution_note="")


@dataclass(frozen=True, eq=False)
class _Reading:
    """One way of reading the cube's colours, carried through assembly and repair."""

    assembly: Assembly
    ordered: Classification
    outcome: RepairResult
    report: ValidationReport

    @property
    def score(self) -> tuple[int, int, int]:
        """Lower is more plausible. A reading that needs no repair comes first: a repair
        accepted on balanced colours must not hide a fault read as it is on the photos
        (a mis-stuck sticker). Then fewer broken pieces (structural problems: a misread
        breaks pieces, a twist, flip or parity breaks none), then fewer problems."""
        problems = self.report.problems
        structural = sum(p.code not in PHYSICAL_FAULTS for p in problems)
        return len(self.outcome.repairs), structural, len(problems)


@dataclass(frozen=True, eq=False)
class _Named:
    """One way of naming the cube's colours: the classification and each photo's symbols,
    with the readings named (photo order)."""

    classification: Classification
    symbols: dict[str, str]
    readings: tuple[str, ...]
    lab: np.ndarray


@dataclass(frozen=True, eq=False)
class _Assembled:
    """One way of reading the cube's colours, assembled but not yet repaired."""

    assembly: Assembly
    ordered: Classification


def _named(lab: np.ndarray, size: int, profile: Profile | None) -> _Named:
    return _with_symbols(classify(lab, profile=profile), lab)


def _with_symbols(classification: Classification, lab: np.ndarray) -> _Named:
    symbols = _symbols(classification)
    per_face = classification.size**2
    readings = tuple(
        "".join(symbols[x] for x in classification.facelets[p * per_face : (p + 1) * per_face])
        for p in range(6)
    )
    return _Named(classification, symbols, readings, lab)


def _assembled(named: _Named, orientation: str) -> _Assembled:
    assembly = assemble(named.readings, orientation)
    ordered = _reordered(named.classification, assembly, named.symbols)
    return _by_pieces(named, _Assembled(assembly, ordered), orientation)


def _by_pieces(named: _Named, assembled: _Assembled, orientation: str) -> _Assembled:
    """The assembled cube's colours named as its pieces demand
    (:func:`cubescan.calibration.piece_naming.name_by_pieces`), assembled again when that
    changed them; the pieces are only known once the photos are placed."""
    ordered = assembled.ordered
    if not needs_piece_naming(ordered):
        return assembled
    index = _final_index(assembled.assembly, ordered.size)
    lab = np.empty_like(named.lab)
    lab[index] = named.lab
    pieces = name_by_pieces(ordered, lab)
    if pieces.facelets == ordered.facelets:
        return replace(assembled, ordered=pieces)
    # Back to photo order, as the photos were named, and placed again with the new names.
    in_photos = Classification(
        ordered.size,
        "".join(pieces.facelets[i] for i in index),
        pieces.colors,
        pieces.confidence[index],
        pieces.log_likelihood[index],
        pieces.standard,
    )
    renamed = _with_symbols(in_photos, named.lab)
    assembly = assemble(renamed.readings, orientation)
    return _Assembled(assembly, _reordered(renamed.classification, assembly, renamed.symbols))


def _repaired(assembled: _Assembled) -> _Reading:
    outcome = repair(assembled.ordered)
    state = CubeState(assembled.assembly.size, outcome.facelets, assembled.assembly.symbols)
    return _Reading(assembled.assembly, assembled.ordered, outcome, validate(state))


def _as_taken(face_samples: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The photos' samples as the camera read them (the third way to read a cube)."""
    return list(face_samples)


def _best_reading(
    face_samples: Sequence[np.ndarray], orientation: str, profile: Profile | None
) -> _Reading:
    """The photos balanced against each other's light, unless as taken reads better.

    Balanced samples (:func:`cubescan.calibration.light.balance_photos`) are read first; a
    sound cube (which needs no repair) is taken at once. Otherwise the samples as taken
    are read too, only the photos that match none of the others' colours re-lit
    (:func:`cubescan.calibration.light.relight_misfits`), and a sound cube from them is taken;
    then the samples exactly as taken, which stand only when sound (under one light a
    cube that re-lighting misjudges reads plainly; under several, an unsound reading as
    taken is the weaker guess). Failing that, each reading is repaired and the cube's
    constraints choose: the reading with the fewest repairs, then broken pieces, then
    problems (the earlier on a tie). A reading failing (e.g. an even cube's colours not
    recognised) leaves the others.
    """
    size = size_from_length(6 * len(face_samples[0]))
    readings: list[tuple[_Named, _Assembled | None]] = []
    failures: list[BadInputError] = []
    for balance in (balance_photos, relight_misfits, _as_taken):
        lab = np.concatenate(balance(face_samples))
        try:
            named = _named(lab, size, profile)
            # A reading that no placement makes sound waits (its diagnosis is the costly
            # part): the other reading may be sound.
            hopeful = orientation == "net" or can_be_sound(named.readings)
            assembled = _assembled(named, orientation) if hopeful else None
        except BadInputError as err:
            failures.append(err)
            continue
        if assembled is not None and assembled.assembly.report.valid:
            return _repaired(assembled)
        if balance is not _as_taken or not readings:
            readings.append((named, assembled))
    if not readings:
        raise failures[0]
    # Repairs are searched only now: a sound reading, when there is one, needs none.
    return min(
        (_repaired(assembled or _assembled(named, orientation)) for named, assembled in readings),
        key=lambda reading: reading.score,
    )


def cube_report(
    face_samples: Sequence[np.ndarray],
    sources: Sequence[str] | None = None,
    orientation: str = "auto",
    profile: Profile | None = None,
    solve: bool = True,
    side_samples: Sequence[SideSamples] | None = None,
) -> CubeReport:
    """From six faces' colour samples to the full report on the cube.

    The photos are balanced against each other's light first
    (:func:`cubescan.calibration.light.balance_photos`); the samples as taken are read too when
    that gives no sound cube, and the cube's constraints pick the more plausible reading.
    The report's colours carry the mean Lab of their stickers as the camera read them.
    When equally good assemblies give different cubes and the photos' side samples are
    given, the colours seen beside the faces settle it if they clearly favour one (see
    :func:`_settled_by_sides`); otherwise the ambiguity is reported.

    Parameters
    ----------
    face_samples
        Six arrays (N*N, 3) of CIELAB samples, each row-major as its photo shows the face,
        in any order (``orientation="auto"``) or in URFDLB order as in the net (``"net"``).
    sources
        A name per photo for the report (default "photo 1".."photo 6").
    orientation
        ``"auto"`` or ``"net"`` (see :func:`cubescan.scanner.assemble.assemble`).
    profile
        A calibration profile for colour naming.
    solve
        Also solve a solvable 2x2 or 3x3.
    side_samples
        Per photo, the colours seen beside its face (:func:`cubescan.scanner.sides.sample_sides`),
        in the order of ``face_samples``; None when only the faces' samples are known.

    Returns
    -------
    CubeReport

    Raises
    ------
    BadInputError
        Not six faces of one size, NaN samples, a face photographed twice, ...

    Examples
    --------
    Six photos' samples in another order, the F photo upside down:

    >>> from cubescan.synth.colors import render_cube
    >>> from cubescan.solver.moves import apply_moves, solved_facelets
    >>> truth = apply_moves(solved_facelets(3), "F R' U2")
    >>> lab = render_cube(truth, "warm", np.random.default_rng(1))
    >>> samples = [lab[9 * f : 9 * f + 9] for f in (2, 5, 0, 3, 1, 4)]  # F B U D R L
    >>> samples[0] = samples[0][::-1]  # row-major 3x3 reversed: turned half way
    >>> names = ["F.jpg", "B.jpg", "U.jpg", "D.jpg", "R.jpg", "L.jpg"]
    >>> report = cube_report(samples, names, solve=False)
    >>> report.facelets == truth, report.ambiguous, report.solution_note
    (True, False, 'not asked for')
    >>> report.photos[0]
    PhotoPlacement(source='F.jpg', face='F', quarter_turns=2)
    """
    if len(face_samples) != 6:
        raise BadInputError("bad-format", f"a cube has six faces; got {len(face_samples)}")
    sources = tuple(sources or (f"photo {i}" for i in range(1, 7)))
    per_face = {np.asarray(s).shape[0] for s in face_samples}
    if len(per_face) != 1:
        raise BadInputError(
            "bad-format",
            "the photos show different grid sizes ("
            + ", ".join(
                f"{src}: {len(s)} stickers" for src, s in zip(sources, face_samples, strict=True)
            )
            + "); check the cube size (--size)",
        )
    samples = [np.asarray(s, dtype=float) for s in face_samples]
    for source, lab in zip(sources, samples, strict=True):
        # Checked here, per photo, so that the error can say which photo it was.
        if lab.ndim != 2 or lab.shape[1] != 3 or not np.isfinite(lab).all():
            raise BadInputError(
                "bad-format", f"{source}: colour samples must be finite (n, 3) CIELAB values"
            )
    if side_samples is not None and len(side_samples) != len(samples):
        raise BadInputError(
            "bad-format", f"give one set of side samples per photo; got {len(side_samples)}"
        )
    reading = _best_reading(samples, orientation, profile)
    note = ""
    if reading.assembly.ambiguous and side_samples is not None:
        reading, note = _settled_by_sides(reading, samples, side_samples, sources)
    size = reading.assembly.size
    # Each colour's mean Lab as the camera read it (not as balanced), facelet order.
    in_order = np.empty((6 * size * size, 3))
    in_order[_final_index(reading.assembly, size)] = np.concatenate(samples)
    letters = np.array(list(reading.assembly.facelets))
    colors = {
        face: ColorInfo(
            info.name, tuple(round(float(v), 2) for v in in_order[letters == face].mean(0))
        )
        for face, info in reading.ordered.colors.items()
    }
    photos = tuple(
        PhotoPlacement(sources[p.photo], p.face, p.quarter_turns)
        for p in reading.assembly.placements
    )
    report = CubeReport(
        size,
        reading.outcome.facelets,
        reading.assembly.facelets,
        colors,
        reading.report,
        reading.ordered.confidence,
        reading.outcome.repairs,
        reading.outcome.reason,
        None,
        "not asked for",
        photos,
        reading.assembly.ambiguous,
        reading.assembly.alternatives,
        note,
    )
    return with_solution(report) if solve else report


def _settled_by_sides(
    reading: _Reading,
    face_samples: Sequence[np.ndarray],
    side_samples: Sequence[SideSamples],
    sources: Sequence[str],
) -> tuple[_Reading, str]:
    """The reading with its assembly chosen among equally good ones by the colours seen
    beside the faces, when they clearly favour one; and a note saying what they showed.

    The chosen cube becomes the reading (reordered, repaired and validated as any
    other), no longer ambiguous, with the other cubes still listed after it.
    """
    assembly = reading.assembly
    size = assembly.size
    index = _final_index(assembly, size)
    per_face = size * size
    in_photo_order = "".join(assembly.facelets[i] for i in index)
    verdict = weigh_alternatives(
        side_samples,
        face_samples,
        [in_photo_order[p * per_face : (p + 1) * per_face] for p in range(6)],
        assembly.alternatives,
        [
            [(p.photo, p.face, p.quarter_turns) for p in placements]
            for placements in assembly.alternative_placements
        ],
    )
    if not verdict.settled:
        return reading, (
            "the stickers seen beside the faces do not settle it: alternative "
            f"{verdict.best + 1} fits them best, with a lead of {verdict.margin:.1f}, "
            f"{verdict.agreeing} stickers for it and {verdict.disagreeing} against"
        )
    names = ", ".join(sources[p] for p in verdict.photos)
    note = (
        f"{len(assembly.alternatives)} assemblies fit the faces equally well; the neighbouring "
        f"faces' stickers seen beside the faces in {names} settle it ({verdict.agreeing} "
        f"stickers agree, none disagree; lead {verdict.margin:.1f})"
    )
    order = [verdict.best, *(k for k in range(len(assembly.alternatives)) if k != verdict.best)]
    alternatives = tuple(assembly.alternatives[k] for k in order)
    chosen = replace(
        assembly,
        facelets=alternatives[0],
        placements=assembly.alternative_placements[verdict.best],
        ambiguous=False,
        alternatives=alternatives,
        alternative_placements=tuple(assembly.alternative_placements[k] for k in order),
    )
    if verdict.best == 0:
        return replace(reading, assembly=chosen), note
    chosen = replace(chosen, report=validate(CubeState(size, chosen.facelets, chosen.symbols)))
    # The classification in photo order and the assembled letters, placed anew.
    ordered = reading.ordered
    photo_order = Classification(
        size,
        in_photo_order,
        ordered.colors,
        ordered.confidence[index],
        ordered.log_likelihood[index],
        ordered.standard,
    )
    symbols = {face: assembly.symbols[f] for f, face in enumerate(FACES)}
    return _repaired(_Assembled(chosen, _reordered(photo_order, chosen, symbols))), note


def check_images(
    paths: Sequence[str | Path],
    size: int | None = None,
    orientation: str = "auto",
    profile: Profile | None = None,
    solve: bool = True,
) -> tuple[CubeReport, list[FacePhoto]]:
    """``cubescan check`` as a function: six face photos to the full report.

    Parameters
    ----------
    paths
        A folder holding six photos, or six image files; named by face letter (``U.jpg``,
        ``cube_F.png``...) or given in URFDLB order; any rotation.
    size
        N, when known (detected otherwise).
    orientation
        ``"auto"`` (any order and rotation) or ``"net"`` (URFDLB, as in the net).
    profile
        Colour profile.
    solve
        Also solve a solvable 2x2 or 3x3.

    Returns
    -------
    (CubeReport, list of FacePhoto)
        The report and, for drawing, the photos as read (in URFDLB order when named).

    Raises
    ------
    BadInputError
        Not six photos, an unreadable image, no face found in a photo, ...

    Examples
    --------
    >>> report, photos = check_images(["sample_images/cube_3x3"])  # doctest: +SKIP
    >>> report.valid, report.facelets[:9]  # doctest: +SKIP
    (True, 'UUUUUUUUU')
    """
    sources, images = load_photos(paths)
    return check_photos(images, sources, size, orientation, profile, solve)


def load_photos(paths: Sequence[str | Path]) -> tuple[list[str], list[np.ndarray]]:
    """Read a cube's six photos, in URFDLB order when they are named by face.

    Parameters
    ----------
    paths
        A folder holding six photos, or six image files (see :func:`check_images`).

    Returns
    -------
    (list of str, list of numpy.ndarray)
        Each photo's path and its image (BGR).

    Raises
    ------
    BadInputError
        A path that does not exist, not six photos, an unreadable image.

    Examples
    --------
    >>> cube = Path(__file__).parents[2] / "sample_images" / "cube_3x3"  # six rendered photos
    >>> sources, images = load_photos([cube])
    >>> [Path(s).stem for s in sources], images[0].ndim
    (['U', 'R', 'F', 'D', 'L', 'B'], 3)
    """
    ordered = order_photos([Path(p) for p in paths])
    return [str(path) for path in ordered], [read_image(path) for path in ordered]


def check_photos(
    images: Sequence[np.ndarray],
    sources: Sequence[str],
    size: int | None = None,
    orientation: str = "auto",
    profile: Profile | None = None,
    solve: bool = True,
) -> tuple[CubeReport, list[FacePhoto]]:
    """Six face photos, already read, to the full report (see :func:`check_images`).

    Parameters
    ----------
    images
        The photos (BGR), as from :func:`load_photos`.
    sources
        A name per photo, for the report and error messages.
    size, orientation, profile, solve
        As for :func:`check_images`.

    Returns
    -------
    (CubeReport, list of FacePhoto)
        As :func:`check_images` returns them.

    Raises
    ------
    BadInputError
        No face found in a photo, photos of different cubes, ...

    Examples
    --------
    >>> sources, images = load_photos([Path(__file__).parents[2] / "sample_images" / "cube_3x3"])
    >>> report, photos = check_photos(images, sources, solve=False)
    >>> report.valid, [Path(p.source).stem for p in photos]
    (True, ['U', 'R', 'F', 'D', 'L', 'B'])
    """
    photos = read_cube_photos(images, sources, size)
    report = cube_report(
        [p.lab for p in photos],
        [p.source for p in photos],
        orientation,
        profile,
        solve,
        [p.sides for p in photos],
    )
    return report, photos


def check_folder(folder: Path, out: Path) -> dict:
    """One cube of a batch: its report row, with photo thumbnails for the HTML page.

    Annotated photos and the net go to ``out/annotated/<cube>/``.

    Parameters
    ----------
    folder
        The cube's folder of six face photos (as for :func:`check_images`); its name
        names the cube.
    out
        The batch's report folder.

    Returns
    -------
    dict
        :meth:`CubeReport.to_dict` (the cube solved when it can be, as by
        :func:`check_images`), plus ``"thumbnails"``: one JPEG data URI per photo
        (:func:`~output.report_html.thumbnail_data_uri`), in URFDLB order when named.

    Raises
    ------
    BadInputError
        As :func:`check_images`.

    Examples
    --------
    >>> import tempfile
    >>> cube = Path(__file__).parents[2] / "sample_images" / "cube_3x3"  # six rendered photos
    >>> with tempfile.TemporaryDirectory() as out:
    ...     row = check_folder(cube, Path(out))
    ...     drawn = sorted(p.name for p in (Path(out) / "annotated" / "cube_3x3").iterdir())
    >>> row["valid"], len(row["thumbnails"]), drawn[0], drawn[-1]
    (True, 6, 'B-annotated.jpg', 'net.png')
    """
    report, photos = check_images([folder])
    target = out / "annotated" / folder.name
    thumbnails = [thumbnail_data_uri(image) for image in write_annotations(report, photos, target)]
    return {**report.to_dict(), "thumbnails": thumbnails}
