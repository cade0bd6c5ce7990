"""One cube from a clip that turns it around: ``cubescan check --video``.

A hand-held clip shows the cube from a corner, then along an edge, then from other
corners: every face comes into view, two or three at a time. The clip's frames are read
like photos (:func:`~cubescan.scanner.pipeline.views.read_photo_faces`, a few frames per
second of clip), and a few key frames that together show all six faces are read as one
cube by :func:`~cubescan.scanner.pipeline.views.check_views` (which places them by their
joins and the pieces, never by a centre colour).

Which frames show which face is not known before they are placed, but a face looks alike
in every frame that shows it (its stickers, up to a quarter turn): the faces seen are
told apart by their look (:func:`face_groups`), and the key frames are chosen to show
every look, the widest first (:func:`key_frames`). Two frames from opposite corners are
enough; when those key frames make no sound cube, other choices are tried. ``cubescan
check`` reads more corner photos than can be placed together (five or more) the same way.

Examples
--------
>>> check_clip([])
Traceback (most recent call last):
...
cubescan.errors.BadInputError: no cube face found in any frame of the clip
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.spatial.distance import squareform

from cubescan.calibration.profile import Profile
from cubescan.errors import BadInputError, CubescanError
from cubescan.scanner.pipeline.check import cube_report, with_solution
from cubescan.scanner.pipeline.views import (
    PhotoFaces,
    ViewsReport,
    check_views,
    common_size,
    read_photo_faces,
)

READ_PER_SECOND = 10.0
"""Frames read per second of clip: a hand turns a cube a quarter turn in about half a
second, so each face is seen in several frames read."""

LOOK_QUANTILE = 0.8
"""How unlike two faces look is this quantile of their stickers' differences: one sticker
in five may differ (a glint), but not the one of four stickers in which two 2x2 faces
differ."""

SAME_LOOK = 15.0
"""Delta E: two faces whose stickers differ by less than this (:data:`LOOK_QUANTILE`, in
their best relative quarter turn) may look alike. A face differs from itself
in the next frame read by about 1, and by more where the light falls on it otherwise; two
faces of a scrambled cube in good light by 20 to 50."""

SAME_LOOK_SHARE = 0.4
"""...and by less than this share of how far apart the faces of one frame typically look
(the median over the clip): in dim light every colour is darker and nearer the others."""

LOOK_BLOCK = 500_000
"""Most sticker pairs compared in one array (a clip's faces are compared in blocks, so that
a long clip of a 7x7 needs tens of megabytes, not gigabytes)."""

MAX_CLIP_PHOTOS = 150
"""Most frames with faces told apart by their look (evenly spaced over the clip when it
has more): fifteen seconds of clip at ``READ_PER_SECOND``."""

MAX_KEY_FRAMES = 4
"""Most frames read together as one cube (the placements of more are too many)."""

MAX_TRIES = 6
"""Most choices of key frames read as a cube before the best reading is taken."""


@dataclass(frozen=True, eq=False)
class ClipReport:
    """A cube read from a clip.

    Attributes
    ----------
    views
        The cube read from the key frames; its faces name their frames (``"frame 12 #2"``:
        frame 12's second face).
    frames_read
        Frames of the clip read (a few per second of clip).
    frames_with_faces
        Of those, the frames where faces of the cube were found (at the clip's N).
    looks
        How many different faces the frames showed, told apart by their look
        (:func:`face_groups`); six for a clip that shows every face.
    """

    views: ViewsReport
    frames_read: int
    frames_with_faces: int
    looks: int


def read_clip_faces(
    frames: Iterable[np.ndarray], fps: float = 30.0, size: int | None = None
) -> tuple[list[PhotoFaces], int]:
    """Read the faces in a clip's frames, ``READ_PER_SECOND`` of them per second.

    Parameters
    ----------
    frames
        The clip's BGR frames, in order (a :class:`~cubescan.scanner.frames.sources.FrameSource`
        or a list).
    fps
        Frames per second the clip plays at.
    size
        N when known.

    Returns
    -------
    tuple
        ``(photos, read)``: the faces of every frame read that shows faces, all of them
        whole (each named ``"frame K"``, K counted from 1 over all frames), and how many
        frames were read.

    Examples
    --------
    >>> read_clip_faces([np.zeros((120, 160, 3), np.uint8)] * 7, fps=20.0)
    ([], 4)
    """
    every = max(1, round(fps / READ_PER_SECOND))
    photos, read = [], 0
    for number, frame in enumerate(frames, start=1):
        if (number - 1) % every:
            continue
        read += 1
        try:
            photo = read_photo_faces(frame, f"frame {number}", size)
        except BadInputError:
            continue  # no face in this frame: the cube is turning, or out of view
        # A face cut by the frame's border has stickers unseen; other frames show it whole.
        if all(np.isfinite(lab).all() for lab in photo.lab):
            photos.append(photo)
    return photos, read


def look_distances(lab: np.ndarray, size: int) -> np.ndarray:
    """How unlike each two faces look, in their best relative quarter turn.

    Parameters
    ----------
    lab
        ``(F, N*N, 3)`` the faces' CIELAB samples, each row-major as seen.
    size
        N.

    Returns
    -------
    numpy.ndarray
        ``(F, F)``: the :data:`LOOK_QUANTILE` of the stickers' Delta E, the least over the
        four quarter turns of one face against the other.

    Examples
    --------
    >>> face = np.arange(12.0).reshape(1, 4, 3)
    >>> turned = np.rot90(face.reshape(2, 2, 3)).reshape(1, 4, 3)
    >>> look_distances(np.concatenate([face, turned, face + 20]), 2).round(1)
    array([[ 0. ,  0. , 34.6],
           [ 0. ,  0. , 34.6],
           [34.6, 34.6,  0. ]])
    """
    grids = lab.reshape(len(lab), size, size, 3)
    flat = lab.reshape(len(lab), -1, 3)
    distances = np.full((len(lab), len(lab)), np.inf)
    rows = max(1, LOOK_BLOCK // max(1, len(lab) * size * size))  # faces compared at once
    for k in range(4):
        turned = np.rot90(grids, k, axes=(1, 2)).reshape(len(lab), -1, 3)
        for start in range(0, len(lab), rows):
            block = np.linalg.norm(turned[start : start + rows, None] - flat[None], axis=-1)
            quantile = np.quantile(block, LOOK_QUANTILE, axis=-1)
            distances[start : start + rows] = np.minimum(distances[start : start + rows], quantile)
    return distances


def face_groups(photos: Sequence[PhotoFaces]) -> list[list[int]]:
    """Tell the faces seen apart by their look: one group number per face of each photo.

    Faces are grouped so that every two faces of a group look alike (:data:`SAME_LOOK`,
    :data:`SAME_LOOK_SHARE`; complete linkage, so that no chain of poor readings joins two
    faces of the cube). Two faces of one photo are never one group (a photo shows each face
    once), nor faces of different N.

    Parameters
    ----------
    photos
        The frames' faces.

    Returns
    -------
    list of list of int
        Per photo, per face, its group (0, 1, ... in order of first appearance).

    Examples
    --------
    >>> white, red = np.full((4, 3), [95.0, 0, 0]), np.full((4, 3), [50.0, 70, 50])
    >>> photos = [PhotoFaces("a", 2, (white, red), ()), PhotoFaces("b", 2, (red + 3,), ())]
    >>> face_groups(photos)
    [[0, 1], [1]]
    """
    faces = [(p, k) for p, photo in enumerate(photos) for k in range(len(photo.lab))]
    if len(faces) < 2:
        return [[0] * len(photo.lab) for photo in photos]
    apart = 1e6  # further than any two looks: never one group
    distances = np.full((len(faces), len(faces)), apart)
    photo_of = np.array([p for p, _ in faces])
    size_of = np.array([photos[p].size for p, _ in faces])
    within = []  # between two faces of one photo: surely two faces of the cube
    for size in np.unique(size_of):
        members = np.flatnonzero(size_of == size)
        lab = np.stack([photos[faces[i][0]].lab[faces[i][1]] for i in members])
        looks = look_distances(lab, int(size))
        same_photo = photo_of[members][:, None] == photo_of[members][None]
        upper = np.triu(np.ones_like(same_photo), 1)
        within.extend(looks[same_photo & upper])
        distances[np.ix_(members, members)] = np.where(same_photo, apart, looks)
    np.fill_diagonal(distances, 0.0)
    alike = min(SAME_LOOK, SAME_LOOK_SHARE * float(np.median(within))) if within else SAME_LOOK
    tree = linkage(squareform(distances, checks=False), method="complete")
    clusters = fcluster(tree, t=alike, criterion="distance")
    numbers: dict[int, int] = {}
    groups: list[list[int]] = [[] for _ in photos]
    for (p, _), cluster in zip(faces, clusters, strict=True):
        groups[p].append(numbers.setdefault(int(cluster), len(numbers)))
    return groups


def key_frames(photos: Sequence[PhotoFaces], groups: Sequence[Sequence[int]]) -> list[list[int]]:
    """Choices of a few photos that together show every group of faces, best first.

    First the pairs of photos that show three faces each, six groups between them: two
    opposite corners, which show the whole cube (a face whose look changed along the clip
    may be two groups, so these need not show every group); the pairs whose narrowest
    stickers are widest first, at most half of ``MAX_TRIES``. Then covers: each starts
    from another photo (those showing the most faces found, with the widest stickers,
    first) and adds the photo that shows the most faces not yet shown, the widest on a
    tie, until every group is shown or ``MAX_KEY_FRAMES`` are chosen. Only faces found
    count (not those placed at a corner): a face placed may be left out when the cube is
    read (see :func:`~cubescan.scanner.pipeline.views.check_views`).

    Parameters
    ----------
    photos
        The frames' faces.
    groups
        Per photo, per face, its group (:func:`face_groups`).

    Returns
    -------
    list of list of int
        Distinct choices (photo indices, ascending), at most ``MAX_TRIES``.

    Examples
    --------
    >>> lab = np.zeros((4, 3))
    >>> photos = [PhotoFaces(f"frame {k}", 2, (lab,) * n, (), (float(k),) * n)
    ...           for k, n in enumerate((3, 3, 2, 3))]
    >>> key_frames(photos, [[0, 1, 2], [1, 2, 3], [3, 4], [3, 4, 5]])[:2]
    [[0, 3], [0, 1, 3]]
    """
    shown = [_found_groups(photo, group) for photo, group in zip(photos, groups, strict=True)]
    width = [min(photo.widths, default=0.0) for photo in photos]
    every = set().union(*shown) if shown else set()
    corners = [p for p in range(len(photos)) if len(shown[p]) == 3]
    opposite = [
        [p, q] for i, p in enumerate(corners) for q in corners[i + 1 :] if not shown[p] & shown[q]
    ]
    opposite.sort(key=lambda pair: -min(width[pair[0]], width[pair[1]]))
    choices: list[list[int]] = opposite[: MAX_TRIES // 2]
    starts = sorted(range(len(photos)), key=lambda p: (-len(shown[p]), -width[p]))
    for start in starts:
        chosen, seen = [start], set(shown[start])
        while seen != every and len(chosen) < MAX_KEY_FRAMES:
            best = max(
                (p for p in range(len(photos)) if p not in chosen),
                key=lambda p: (len(shown[p] - seen), width[p]),
            )
            if not shown[best] - seen:
                break
            chosen.append(best)
            seen |= shown[best]
        choice = sorted(chosen)
        if choice not in choices:
            choices.append(choice)
        if len(choices) == MAX_TRIES:
            break
    return choices


def _found_groups(photo: PhotoFaces, group: Sequence[int]) -> set[int]:
    """The groups of a photo's faces that were found, not placed at a corner."""
    return {g for k, g in enumerate(group) if not (photo.predicted and photo.predicted[k])}


def check_clip(
    photos: Sequence[PhotoFaces],
    profile: Profile | None = None,
    solve: bool = True,
    frames_read: int | None = None,
) -> ClipReport:
    """Read one cube from the faces a clip's frames show (:func:`read_clip_faces`).

    Parameters
    ----------
    photos
        The frames' faces, in clip order.
    profile
        A colour profile, or None.
    solve
        Also solve the cube when it is sound.
    frames_read
        How many frames were read (for the report); ``len(photos)`` when None. Of a long
        clip, ``MAX_CLIP_PHOTOS`` frames with faces, evenly spaced, are told apart and
        chosen from.

    Returns
    -------
    ClipReport
        From the first choice of key frames (:func:`key_frames`) read as a sound cube,
        unambiguous and without conflicts; else the first sound one, the unambiguous first.
        When no choice is sound, from one face per look (the widest found) read as six
        single-face photos are, when that is sound; otherwise the first choice that reads
        as a cube.

    Raises
    ------
    BadInputError
        No faces at all, fewer than six different faces seen, or no choice of key frames
        that reads as a cube (the first choice's error).

    Examples
    --------
    >>> from cubescan.synth.turning import render_turning_video
    >>> from cubescan.solver.moves import apply_moves, solved_facelets
    >>> clip = render_turning_video(apply_moves(solved_facelets(3), "R U F' D2 L"), seed=4,
    ...                             frames=12, blur_samples=1)
    >>> photos, read = read_clip_faces(clip.frames, fps=10.0)
    >>> report = check_clip(photos, solve=False)
    >>> faces = sorted({placement.face for placement in report.views.faces})
    >>> report.views.cube.valid, report.frames_with_faces, faces
    (True, 12, ['B', 'D', 'F', 'L', 'R', 'U'])
    """
    if not photos:
        raise BadInputError("no-face", "no cube face found in any frame of the clip")
    given = len(photos)
    size = common_size(photos)
    photos = [photo for photo in photos if photo.size == size]
    with_faces = len(photos)
    if len(photos) > MAX_CLIP_PHOTOS:
        keep = np.linspace(0, len(photos) - 1, MAX_CLIP_PHOTOS).round().astype(int)
        photos = [photos[k] for k in keep]
    groups = face_groups(photos)
    looks = len({g for group in groups for g in group})
    if looks < 6:
        raise BadInputError(
            "missing-faces",
            f"{len(photos)} frames show {looks} different faces of a {size}x{size} cube, not "
            "all six: turn the cube once around, slowly, so that every face comes into view "
            "(or photograph it from two opposite corners)",
        )
    first_error: CubescanError | None = None
    readings = []
    for choice in key_frames(photos, groups):
        try:
            views = check_views([photos[p] for p in choice], profile, solve=False)
        except BadInputError as error:
            first_error = first_error or error
            continue
        readings.append(views)
        if _settled(views):
            break
    if not any(views.cube.valid for views in readings):
        # Frames of one face each (small faces beside the best are not found) do not
        # place together: one reading per look is read as six single-face photos are.
        try:
            readings.append(_one_face_per_look(photos, groups, profile))
        except BadInputError as error:
            first_error = first_error or error
    if not readings:
        raise first_error or BadInputError("no-cube", "no frames of the clip read as a cube")
    views = min(readings, key=lambda v: (not v.cube.valid, not _settled(v), v.ambiguous))
    if solve and views.cube.valid:
        views = replace(views, cube=with_solution(views.cube))
    read = given if frames_read is None else frames_read
    return ClipReport(views, read, with_faces, looks)


def _settled(views: ViewsReport) -> bool:
    """A sound cube that no other placement of the key frames fits, with no face read
    otherwise in another frame: no other key frames need be tried."""
    return views.cube.valid and not views.ambiguous and not views.conflicts


def _one_face_per_look(
    photos: Sequence[PhotoFaces], groups: Sequence[Sequence[int]], profile: Profile | None
) -> ViewsReport:
    """The cube read from one face per look, the widest found, as from six photos of one
    face each; the six looks seen most often when there are more."""
    widest: dict[int, tuple[float, int, int]] = {}
    seen: dict[int, int] = {}
    for p, (photo, group) in enumerate(zip(photos, groups, strict=True)):
        for k, look in enumerate(group):
            if photo.predicted and photo.predicted[k]:
                continue
            seen[look] = seen.get(look, 0) + 1
            width = photo.widths[k] if photo.widths else 0.0
            if look not in widest or width > widest[look][0]:
                widest[look] = (width, p, k)
    if len(widest) < 6:
        raise BadInputError(
            "missing-faces", f"the frames show {len(widest)} different faces found whole, not six"
        )
    looks = sorted(widest, key=lambda look: -seen[look])[:6]
    chosen = [widest[look][1:] for look in looks]
    report = cube_report(
        [photos[p].lab[k] for p, k in chosen],
        [f"{photos[p].source} #{k + 1}" for p, k in chosen],
        profile=profile,
        solve=False,
    )
    return ViewsReport(report, report.photos, (), False)
