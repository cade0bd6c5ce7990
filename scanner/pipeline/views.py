"""One cube from photos that each show one, two or three of its faces (corner photos).

Each photo's faces are found with :func:`~cubescan.scanner.grid.detect_faces` and placed on
the cube as their joins allow (:func:`~cubescan.scanner.views.view_placements`: 24 ways a
photo). The first photo's placement only says how the cube is held, so it is taken as it
comes; every other photo's 24 are tried, and each combination that shows all six faces is
read as a cube (:func:`~cubescan.scanner.pipeline.check.cube_report`, faces in the net's
orientation). The pieces decide: the combination read as a sound cube wins, and two sound
ones are reported as an ambiguity. No face is named by its centre colour, so this works for
even N too. A face shown in two photos is read from the first; the second reading is
compared sticker by sticker, and a difference is reported as a conflict, not hidden.

When the faces found are not all six because a photo showed only two of its corner's three
faces (the third too squashed, or too dim, to be found), that third face is placed where the
two put it (:func:`~cubescan.scanner.grid.place_third_face`) and its colours read there; the
cube is taken only when it then reads as a sound one, and the report lists the face as
placed. Otherwise the answer stays that faces are missing.

Examples
--------
>>> from cubescan.synth.corners import render_cube_corners
>>> from cubescan.solver.moves import apply_moves, solved_facelets
>>> truth = apply_moves(solved_facelets(3), "R U F' D2 L")
>>> rng = np.random.default_rng(2)
>>> images = render_cube_corners(truth, rng, scale_range=(0.6, 0.9))  # opposite corners
>>> report = check_views([read_photo_faces(image, f"corner {k}") for k, image in
...                       enumerate(images, 1)], solve=False)
>>> report.cube.valid, len(report.faces), report.conflicts
(True, 6, ())
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import product

import numpy as np

from cubescan.calibration.profile import Profile
from cubescan.errors import BadInputError
from cubescan.scanner.grid import FacesInView, detect_faces, place_third_face
from cubescan.scanner.pipeline.check import (
    CubeReport,
    PhotoPlacement,
    cube_report,
    with_solution,
)
from cubescan.scanner.sampling import sample_colors
from cubescan.scanner.views import Join, Placement, view_placements
from cubescan.solver.geometry import FACES
from cubescan.solver.moves import same_cube

MAX_READINGS = 48
"""Most placements of the photos read as whole cubes (those whose faces seen twice agree
best): each reading names the colours and checks the pieces. Two opposite corners leave 3;
three photos of two faces each about 20."""

MAX_COMBINATIONS = 24**3
"""Most placements of the photos past the first that are tried (four photos of joined
faces; single-face photos are better read by ``check``'s own six-photo path)."""


@dataclass(frozen=True, eq=False)
class PhotoFaces:
    """The faces one photo shows of one cube, as read.

    Attributes
    ----------
    source
        The photo's name.
    size
        N.
    lab
        Per face seen, its ``(N*N, 3)`` CIELAB samples, row-major as seen.
    joins
        Where the faces meet (see :data:`~cubescan.scanner.views.Join`).
    widths
        Per face seen, how wide its stickers look (the median cell's narrower side, px):
        a face seen in two photos is named from the one that shows it wider. Empty when
        unknown (the first photo's reading names it).
    predicted
        Per face seen, True for a third face placed at a corner from the two beside it
        (see :class:`~cubescan.scanner.grid.multi.FacesInView`); empty when none is.
    with_third
        When only two faces of the photo's corner were found: the photo read with the third
        placed by geometry alone (:func:`~cubescan.scanner.grid.place_third_face`), which
        :func:`check_views` reads only when the faces found are not all six without it.
        None otherwise.
    """

    source: str
    size: int
    lab: tuple[np.ndarray, ...]
    joins: tuple[Join, ...]
    widths: tuple[float, ...] = ()
    predicted: tuple[bool, ...] = ()
    with_third: PhotoFaces | None = None


@dataclass(frozen=True, eq=False)
class ViewsReport:
    """A cube read from photos of several faces each.

    Attributes
    ----------
    cube
        The cube's report; its ``photos`` name each face seen (``"corner.jpg #2"``: the
        photo's second face) with the face of the cube it became.
    faces
        The same, per face seen, in photo order.
    conflicts
        Faces shown twice that read differently: a line each, naming the stickers.
    ambiguous
        True when another placement of the photos also gives a sound cube, another one,
        with no more stickers the pieces leave unsure.
    placed
        The faces seen (as named in ``faces``) that were placed at a corner by the two
        faces beside them rather than found.
    """

    cube: CubeReport
    faces: tuple[PhotoPlacement, ...]
    conflicts: tuple[str, ...]
    ambiguous: bool
    placed: tuple[str, ...] = ()


def read_photo_faces(image: np.ndarray, source: str, size: int | None = None) -> PhotoFaces:
    """Find the faces of the best cube in a photo, read their colours and their joins.

    Parameters
    ----------
    image
        BGR photo.
    source
        Its name, for the report and errors.
    size
        N when known.

    Returns
    -------
    PhotoFaces
        The faces of the cube the best face belongs to (other cubes' faces are left out);
        when only two of its corner's faces were found, with the third placed by geometry
        as :attr:`PhotoFaces.with_third`.

    Raises
    ------
    BadInputError
        No face in the photo.

    Examples
    --------
    >>> from cubescan.synth.corners import random_corner_spec, render_corner_view
    >>> spec = random_corner_spec(np.random.default_rng(2), 3, faces=3, resolution=(640, 480))
    >>> photo = read_photo_faces(render_corner_view(spec)[0], "corner.png")
    >>> len(photo.lab), len(photo.joins), photo.size
    (3, 3, 3)
    """
    found = detect_faces(image, size)
    if not found.faces:
        raise BadInputError("no-face", f"{source}: no cube face found in the photo")
    with_third = place_third_face(found)
    photo = _photo_faces(image, source, found)
    if with_third is None:
        return photo
    return replace(photo, with_third=_photo_faces(image, source, with_third))


def _photo_faces(image: np.ndarray, source: str, found: FacesInView) -> PhotoFaces:
    """The faces of the best cube in view (the one the first face belongs to), read."""
    cube = next(group for group in found.cubes if 0 in group)
    index = {face: k for k, face in enumerate(cube)}
    joins = tuple(
        ((index[link.faces[0]], link.sides[0]), (index[link.faces[1]], link.sides[1]))
        for link in found.links
        if link.faces[0] in index and link.faces[1] in index
    )
    lab = tuple(sample_colors(image, found.faces[k]).lab for k in cube)
    widths = tuple(_sticker_width(found.faces[k].cells) for k in cube)
    predicted = tuple(found.predicted[k] for k in cube) if found.predicted else ()
    return PhotoFaces(source, found.faces[0].size, lab, joins, widths, predicted)


def _sticker_width(cells: np.ndarray) -> float:
    """The median over a face's cells ``(N*N, 4, 2)`` of each cell's shortest side, px."""
    sides = np.linalg.norm(np.roll(cells, -1, axis=1) - cells, axis=2)
    return float(np.median(sides.min(axis=1)))


def read_photos_faces(
    images: Sequence[np.ndarray], sources: Sequence[str], size: int | None = None
) -> list[PhotoFaces]:
    """:func:`read_photo_faces` for each photo; when N is not given and the photos disagree
    on it, those read at another N than most are read again at that N.

    Parameters
    ----------
    images
        BGR photos.
    sources
        Their names.
    size
        N when known.

    Returns
    -------
    list of PhotoFaces

    Examples
    --------
    >>> read_photos_faces([], [])
    []
    """
    photos = [
        read_photo_faces(image, source, size) for image, source in zip(images, sources, strict=True)
    ]
    if size is None and len({p.size for p in photos}) > 1:
        common = common_size(photos)
        photos = [
            p if p.size == common else _read_again(image, p, common)
            for p, image in zip(photos, images, strict=True)
        ]
    return photos


def common_size(photos: Sequence[PhotoFaces]) -> int:
    """The N most of the photos' faces are read at: a face of few stickers is the likelier
    misread.

    Parameters
    ----------
    photos
        Photos' faces (at least one photo).

    Returns
    -------
    int

    Examples
    --------
    >>> lab = np.zeros((9, 3))
    >>> common_size([PhotoFaces("a", 3, (lab, lab), ()), PhotoFaces("b", 4, (lab,), ())])
    3
    """
    counts: dict[int, int] = {}
    for photo in photos:
        counts[photo.size] = counts.get(photo.size, 0) + len(photo.lab)
    return max(counts, key=counts.__getitem__)


def _read_again(image: np.ndarray, photo: PhotoFaces, size: int) -> PhotoFaces:
    """The photo read again at N = ``size``; as it was when no face shows at that N (the
    cubes' sizes then differ, as :func:`check_views` says)."""
    try:
        return read_photo_faces(image, photo.source, size)
    except BadInputError:
        return photo


def _net_lab(lab: np.ndarray, size: int, turns: int) -> np.ndarray:
    """A face's samples seen turned ``turns`` clockwise from the net, back in net order."""
    return np.rot90(lab.reshape(size, size, 3), turns, axes=(0, 1)).reshape(-1, 3)


def _combinations(photos: Sequence[PhotoFaces]) -> list[tuple[Placement, ...]]:
    """The placements of all photos that show every face of the cube."""
    per_photo = [view_placements(len(p.lab), p.joins) for p in photos]
    if any(not placements for placements in per_photo):
        bad = next(p.source for p, q in zip(photos, per_photo, strict=True) if not q)
        raise BadInputError("bad-photo", f"{bad}: its faces do not join as a cube's can")
    others = per_photo[1:]
    if np.prod([len(p) for p in others], dtype=float) > MAX_COMBINATIONS:
        raise BadInputError(
            "too-many-photos",
            f"{len(photos)} photos of joined faces are more than can be placed together: "
            "give two corner photos, or at most four photos of two or three faces each",
        )
    return [
        combination
        for combination in ((per_photo[0][0], *rest) for rest in product(*others))
        if {letter for placement in combination for letter, _ in placement} == set(FACES)
    ]


def check_views(
    photos: Sequence[PhotoFaces],
    profile: Profile | None = None,
    solve: bool = True,
) -> ViewsReport:
    """Read one cube from photos that show one or more of its faces each.

    Parameters
    ----------
    photos
        The photos' faces, as from :func:`read_photo_faces` (any order; each photo any
        way up).
    profile
        A colour profile, or None.
    solve
        Also solve the cube when it is sound.

    Returns
    -------
    ViewsReport

    Raises
    ------
    BadInputError
        The photos differ in N, do not show all six faces together, or are too many.

    Examples
    --------
    >>> check_views([])
    Traceback (most recent call last):
    ...
    cubescan.errors.BadInputError: no photos to read a cube from
    """
    try:
        report = _read_views(photos, profile, solve)
    except BadInputError as error:
        if error.code != "missing-faces" or all(p.with_third is None for p in photos):
            raise
        return _with_third_faces(photos, profile, solve, error)
    if report.cube.valid or not any(any(photo.predicted) for photo in photos):
        return report
    # A face placed at a corner rather than found may be read a little off: it must not
    # make a sound cube unsound. Without it, the photos give the verdict, or a refusal.
    return _read_views([_found_faces_only(photo) for photo in photos], profile, solve)


def _with_third_faces(
    photos: Sequence[PhotoFaces], profile: Profile | None, solve: bool, missing: BadInputError
) -> ViewsReport:
    """The cube with each photo's third face placed (:attr:`PhotoFaces.with_third`) where
    only two were found: taken only when it reads as a sound cube; else ``missing`` stands.

    A face placed by geometry alone is a guess, and the pieces are what confirm it: a
    sticker read off the face, or a face misplaced, breaks their rules. Every corner and
    edge piece of one placed face has stickers on faces found. Two placed faces (one per
    photo, each its corner's third) share an edge whose pieces have none: the cube is then
    taken only when the reading settles every sticker (none unsure)."""
    try:
        report = _read_views([p.with_third or p for p in photos], profile, solve)
    except BadInputError:
        raise missing from None
    if not report.cube.valid or (len(report.placed) > 1 and report.cube.unsure_stickers):
        raise missing
    return report


def _found_faces_only(photo: PhotoFaces) -> PhotoFaces:
    """The photo without the faces placed at a corner (see :attr:`PhotoFaces.predicted`)."""
    keep = [k for k in range(len(photo.lab)) if not (photo.predicted and photo.predicted[k])]
    index = {old: new for new, old in enumerate(keep)}
    joins = tuple(
        ((index[a], side_a), (index[b], side_b))
        for (a, side_a), (b, side_b) in photo.joins
        if a in index and b in index
    )
    widths = tuple(photo.widths[k] for k in keep) if photo.widths else ()
    lab = tuple(photo.lab[k] for k in keep)
    return replace(photo, lab=lab, joins=joins, widths=widths, predicted=())


def _read_views(photos: Sequence[PhotoFaces], profile: Profile | None, solve: bool) -> ViewsReport:
    """:func:`check_views` with every face the photos hold."""
    if not photos:
        raise BadInputError("no-photos", "no photos to read a cube from")
    size = photos[0].size
    odd = next((p for p in photos if p.size != size), None)
    if odd is not None:
        raise BadInputError(
            "size-mismatch",
            f"{odd.source} shows a {odd.size}x{odd.size} cube, {photos[0].source} a "
            f"{size}x{size} one",
        )
    combinations = _combinations(photos)
    if not combinations:
        found = ", ".join(f"{len(p.lab)} in {p.source}" for p in photos)
        raise BadInputError(
            "missing-faces",
            f"the faces found ({found}) are not all six of the cube: photograph it from "
            "two opposite corners, each photo showing three faces whole",
        )
    placed = [_placed(photos, combination) for combination in combinations]
    # A face seen twice must look alike in both photos: the placements that make the
    # readings agree best are read as cubes first, and only so many of them.
    agreement = [_disagreement(seen, size) for seen in placed]
    order = sorted(range(len(placed)), key=agreement.__getitem__)[:MAX_READINGS]
    readings = []
    refused = BadInputError("no-cube", "no placement of the photos' faces reads as a cube")
    for seen in (placed[i] for i in order):
        named = _naming_readings(seen)
        samples = [_net_lab(seen[named[f]][4], size, seen[named[f]][3]) for f in FACES]
        try:
            report = cube_report(samples, [f"face {f}" for f in FACES], "net", profile, False)
        except BadInputError as error:
            refused = error  # this placement's colours make no cube; another may
            continue
        broken = sum(p.code not in ("corner-twist", "edge-flip", "permutation-parity")
                     for p in report.validation.problems)  # fmt: skip
        unsure = len(report.unsure_stickers)
        score = (not report.valid, broken, len(report.validation.problems), unsure)
        readings.append((score, report, seen))
    if not readings:
        raise refused
    best = min(range(len(readings)), key=lambda r: readings[r][0])
    _, report, seen = readings[best]
    # Another placement read as a sound cube, with no more stickers the pieces leave unsure,
    # is an ambiguity when it is another cube (a cube alike from several sides, such as a
    # solved one, gives the same cube each way). One that is sound only by stickers read
    # halfway fits the photos less well than the best.
    ambiguous = report.valid and any(
        not score[0]
        and score[3] <= len(report.unsure_stickers)
        and not same_cube(other.facelets, report.facelets)
        for score, other, _ in readings
    )
    faces = tuple(
        PhotoPlacement(f"{source} #{k + 1}", letter, (-turns) % 4)
        for source, k, letter, turns, *_ in seen
    )
    predicted = {photo.source: photo.predicted for photo in photos}
    placed = tuple(
        f"{source} #{k + 1}" for source, k, *_ in seen if predicted[source] and predicted[source][k]
    )
    conflicts = _conflicts(report, seen, size)
    if solve and report.valid:
        report = with_solution(report)
    return ViewsReport(replace(report, photos=faces), faces, conflicts, ambiguous, placed)


def _placed(photos: Sequence[PhotoFaces], combination: tuple[Placement, ...]) -> list[tuple]:
    """Every face seen, as ``(source, index in its photo, cube face, turns, samples,
    sticker width)``."""
    return [
        (photo.source, k, letter, turns, photo.lab[k], photo.widths[k] if photo.widths else 0.0)
        for photo, placement in zip(photos, combination, strict=True)
        for k, (letter, turns) in enumerate(placement)
    ]


def _naming_readings(seen: list[tuple]) -> dict[str, int]:
    """Per cube face, which reading in ``seen`` names it: of a face seen twice, the one
    showing its stickers wider (a face seen obliquely mixes its stickers' colours with
    their neighbours'), the first on a tie."""
    named: dict[str, int] = {}
    for index, (*_, letter, _, _, width) in enumerate(seen):
        if letter not in named or width > seen[named[letter]][5]:
            named[letter] = index
    return named


def _disagreement(seen: list[tuple], size: int) -> float:
    """How unlike the readings of faces seen twice are: the largest, over such faces, of
    the median colour difference (Delta E) between two readings, sticker for sticker."""
    first: dict[str, np.ndarray] = {}
    worst = 0.0
    for _, _, letter, turns, lab, _ in seen:
        net = _net_lab(lab, size, turns)
        if letter in first:
            worst = max(worst, float(np.median(np.linalg.norm(net - first[letter], axis=1))))
        else:
            first[letter] = net
    return worst


def _conflicts(report: CubeReport, seen: list, size: int) -> tuple[str, ...]:
    """Faces read twice whose other reading names some stickers otherwise than the one
    that named the face (:func:`_naming_readings`)."""
    centers = {letter: np.asarray(info.lab) for letter, info in report.colors.items()}
    names, means = list(centers), np.array(list(centers.values()))
    named = _naming_readings(seen)
    lines = []
    for index, (source, k, letter, turns, lab, _) in enumerate(seen):
        if named[letter] == index:
            continue
        net = _net_lab(lab, size, turns)
        nearest = np.linalg.norm(net[:, None] - means[None], axis=-1).argmin(axis=1)
        start = FACES.index(letter) * size * size
        read = report.facelets[start : start + size * size]
        differ = [i for i in range(size * size) if names[nearest[i]] != read[i]]
        if differ:
            stickers = ", ".join(f"{letter}{i + 1}" for i in differ[:8])
            lines.append(
                f"face {letter} reads differently in {source} #{k + 1} than in "
                f"{seen[named[letter]][0]} #{seen[named[letter]][1] + 1}: {stickers}"
            )
    return tuple(lines)
