"""One frame to one face observation: detect the grid, sample and name its colours.

In a video most frames show the same face as the frame before, read the same to within
camera noise. Given the last frame's detection, the grid is tracked from it (see
:func:`cubescan.scanner.grid.detect_grid`); given the last observation, the colour names are kept
when every cell reads as it did then, so only a changed face is named again. A frame whose
view changed from the last one (the cube being turned) gets the quicker search
(:func:`view_changed`), and a still view that showed no face is searched again only now and
then. :class:`LiveObserver` carries all of that from frame to frame. When a face has been
held still long enough, :func:`observe_beside` reads the other faces of its cube in that
frame.

Examples
--------
>>> observe(np.zeros((120, 160, 3), np.uint8)) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from cubescan.calibration.face_naming import name_face_colors
from cubescan.calibration.profile import Profile
from cubescan.scanner.grid import FaceDetection, as_bgr, detect_faces, detect_grid
from cubescan.scanner.pipeline.session import FaceObservation
from cubescan.scanner.sampling import sample_colors

_LETTERS = {"white": "W", "yellow": "Y", "red": "R", "orange": "O", "green": "G", "blue": "B"}
# ΔE: every cell at most this far from the last named reading keeps its name. Frame-to-frame
# noise of a cell's median is about 1; a colour that could change name moves much more.
SAME_READING = 3.0
MOTION_SIDE = 80  # long side of the thumbnails two frames are compared at, px
# Mean grey-level change between two thumbnails of a view that moved. A face held still
# changes by 1.3 or less in rendered scanning videos (noise, tremble: 2.2 at most), a face
# being turned by 5.8 (median).
MOTION_LEVEL = 3.0
# A still view that showed no face is searched again only every this many frames while it
# stays as it was (a frame with no face gets the costliest search of all): a face
# too faint to be found in every frame is found at the next.
EMPTY_VIEW_SEARCH_EVERY = 5
# How far from the tracked face's middle, as a share of its extent, the multi-face search's
# face may lie to be taken for it: both searches fit the same stickers, so one face's middle
# agrees to a few pixels, while a face beside it lies about a face's width away.
SAME_FACE_SHIFT = 0.25


def thumbnail(frame: np.ndarray) -> np.ndarray:
    """The frame in grey, its long side ``MOTION_SIDE``: what :func:`view_changed` compares.

    Parameters
    ----------
    frame
        BGR frame (grayscale and BGRA are accepted, as :func:`cubescan.scanner.grid.detect_grid`
        accepts them).

    Returns
    -------
    np.ndarray
        float32 grey levels; at this size a pixel is the mean of many, so sensor noise is
        averaged away and a moved edge is not.

    Examples
    --------
    >>> thumbnail(np.zeros((480, 640, 3), np.uint8)).shape, thumbnail(np.zeros((90, 120, 4))).shape
    ((60, 80), (60, 80))
    """
    bgr = as_bgr(frame)
    height, width = bgr.shape[:2]
    scale = MOTION_SIDE / max(height, width)
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    return cv2.resize(grey, size, interpolation=cv2.INTER_AREA).astype(np.float32)


def view_changed(earlier: np.ndarray | None, later: np.ndarray) -> bool:
    """Whether the view moved between two frames' thumbnails (:func:`thumbnail`).

    Parameters
    ----------
    earlier
        The last frame's thumbnail, or None for the first frame (taken as still).
    later
        This frame's thumbnail.

    Returns
    -------
    bool
        True when their grey levels differ by more than ``MOTION_LEVEL`` on average.

    Examples
    --------
    >>> still = np.full((60, 80), 100, np.float32)
    >>> view_changed(None, still), view_changed(still, still + 1), view_changed(still, still + 20)
    (False, False, True)
    """
    if earlier is None or earlier.shape != later.shape:
        return False
    return float(cv2.absdiff(earlier, later).mean()) > MOTION_LEVEL


def same_reading(lab: np.ndarray, last: FaceObservation | None) -> bool:
    """Whether a face's samples read as ``last`` did: same cells, each within SAME_READING.

    Parameters
    ----------
    lab
        CIELAB samples (N*N, 3), row-major as detected.
    last
        The observation to compare with, or None.

    Returns
    -------
    bool

    Examples
    --------
    >>> last = FaceObservation(2, "WWRR", np.array([[90, 0, 0]] * 2 + [[45, 60, 40]] * 2, float))
    >>> same_reading(last.lab + 1.0, last), same_reading(last.lab[::-1], last)
    (True, False)
    """
    if last is None or last.lab.shape != lab.shape:
        return False
    return bool(np.einsum("ij,ij->i", lab - last.lab, lab - last.lab).max() <= SAME_READING**2)


def observe(
    frame: np.ndarray,
    size: int | None = None,
    profile: Profile | None = None,
    previous: FaceDetection | None = None,
    last: FaceObservation | None = None,
    in_motion: bool = False,
) -> tuple[FaceObservation, FaceDetection] | None:
    """The face in view, named, or None when no face is found (or a cell cannot be read).

    Parameters
    ----------
    frame
        BGR frame.
    size
        N when known.
    profile
        Colour profile for naming (the same for every frame of a video).
    previous
        The last frame's detection: searched around first (the cheap tracking path).
    last
        The last frame's observation. When this frame's samples are the same reading
        (:func:`same_reading`), its names and samples are kept (only the face's position
        is new) instead of naming the face again; the kept samples are those the names
        were made from, so a slow drift is named afresh once it adds up. When the grid
        is not found but every cell of the last detection but one still reads the same
        (a finger moved over one sticker of a face held still), the last observation
        stands.
    in_motion
        The view changed since the last frame (:func:`view_changed`): the grid search
        uses its region cue only (see :func:`cubescan.scanner.grid.detect_grid`).

    Returns
    -------
    (FaceObservation, FaceDetection) or None

    Examples
    --------
    >>> import cv2
    >>> frame = np.full((240, 320, 3), 20, np.uint8)
    >>> rows = [(235, 235, 235), (60, 170, 0), (170, 70, 0)]  # white, green, blue (BGR)
    >>> for r in range(3):
    ...     for c in range(3):
    ...         _ = cv2.rectangle(frame, (100 + 40 * c, 60 + 40 * r),
    ...                           (134 + 40 * c, 94 + 40 * r), rows[r], -1)
    >>> view, detection = observe(frame)
    >>> view.colors
    'WWWGGGBBB'
    >>> again, _ = observe(frame, previous=detection, last=view)
    >>> again.lab is view.lab
    True
    """
    detection = detect_grid(frame, size, previous, in_motion=in_motion)
    if detection is None:
        return _still_there(frame, previous, last)
    samples = sample_colors(frame, detection)
    if not np.isfinite(samples.lab).all():
        return None  # part of the face is outside the frame
    if same_reading(samples.lab, last):
        return FaceObservation(detection.size, last.colors, last.lab, detection.quad), detection
    naming = name_face_colors(samples.lab, profile)
    colors = "".join(_LETTERS.get(name, name[-1]) for name in naming.names)
    return FaceObservation(detection.size, colors, samples.lab, detection.quad), detection


def observe_beside(
    frame: np.ndarray, detection: FaceDetection, profile: Profile | None = None
) -> list[FaceObservation]:
    """The other faces of the cube whose face ``detection`` is, in this frame, named.

    The frame's faces are found with :func:`cubescan.scanner.grid.detect_faces` (once, at
    the detection's N); the face found where ``detection`` is stands for it, and the other
    faces of its cube are read as :func:`observe` reads one. A face placed at a corner from
    the two beside it (``predicted``) is left out: its stickers were not seen as a face's,
    so it must not be taken as seen. So is a face partly outside the frame.

    Parameters
    ----------
    frame
        BGR frame.
    detection
        The face tracked in this frame (from :func:`observe`).
    profile
        Colour profile for naming.

    Returns
    -------
    list of FaceObservation
        The faces beside it, best found first; empty when none is found, or when the
        search does not find the tracked face itself.

    Examples
    --------
    >>> from cubescan.synth.corners import random_corner_spec, render_corner_view
    >>> spec = random_corner_spec(np.random.default_rng(6), 3, faces=3, resolution=(640, 480))
    >>> image, truth = render_corner_view(spec)
    >>> view, detection = observe(image, 3)
    >>> [beside.colors[4] for beside in observe_beside(image, detection)]  # their centres
    ['R', 'Y']
    >>> view.colors[4], [face.colors[4] for face in truth.faces]
    ('G', ['G', 'R', 'Y'])
    """
    found = detect_faces(frame, detection.size)
    if not found.faces:
        return []
    middle = detection.centers.reshape(-1, 2).mean(axis=0)
    shifts = [np.linalg.norm(f.centers.reshape(-1, 2).mean(axis=0) - middle) for f in found.faces]
    tracked = int(np.argmin(shifts))
    if shifts[tracked] > SAME_FACE_SHIFT * np.ptp(detection.quad, axis=0).max():
        return []
    cube = next(group for group in found.cubes if tracked in group)
    beside = []
    for index in cube:
        if index == tracked or (found.predicted and found.predicted[index]):
            continue
        face = found.faces[index]
        lab = sample_colors(frame, face).lab
        if not np.isfinite(lab).all():
            continue  # part of the face is outside the frame
        naming = name_face_colors(lab, profile)
        colors = "".join(_LETTERS.get(name, name[-1]) for name in naming.names)
        beside.append(FaceObservation(face.size, colors, lab, face.quad))
    return beside


def _still_there(
    frame: np.ndarray, previous: FaceDetection | None, last: FaceObservation | None
) -> tuple[FaceObservation, FaceDetection] | None:
    """The last observation, when the face it came from has not moved (bar one cell)."""
    if previous is None or last is None or len(last.lab) != previous.size**2:
        return None
    lab = sample_colors(frame, previous).lab
    with np.errstate(invalid="ignore"):
        moved = ~(np.linalg.norm(lab - last.lab, axis=1) <= SAME_READING)
    if moved.sum() > 1:
        return None
    return FaceObservation(previous.size, last.colors, last.lab, previous.quad), previous


@dataclass
class LiveObserver:
    """What a live loop carries from one frame to the next, and :func:`observe` with it.

    Attributes
    ----------
    profile
        Colour profile for naming.
    keep_names
        Keep the names of a face that reads as in the last frame (see :func:`observe`).
    previous
        The last frame's detection (None when it showed no face).
    last
        The last frame's observation.
    earlier
        The last frame's :func:`thumbnail`.
    empty
        The :func:`thumbnail` of the last still frame searched in vain (None after a face):
        a frame whose view has not changed from it (:func:`view_changed`) shows no face
        either, and is searched only every ``EMPTY_VIEW_SEARCH_EVERY`` frames.
    unsearched
        Frames since the last search of that view.

    Examples
    --------
    >>> live = LiveObserver()
    >>> live.observe(np.zeros((120, 160, 3), np.uint8)) is None, live.earlier.shape
    (True, (60, 80))
    """

    profile: Profile | None = None
    keep_names: bool = True
    previous: FaceDetection | None = None
    last: FaceObservation | None = None
    earlier: np.ndarray | None = None
    empty: np.ndarray | None = None
    unsearched: int = 0

    def observe(
        self, frame: np.ndarray, size: int | None = None
    ) -> tuple[FaceObservation, FaceDetection] | None:
        """:func:`observe` this frame, given the last one; remember it for the next.

        Parameters
        ----------
        frame
            BGR frame.
        size
            N when known.

        Returns
        -------
        (FaceObservation, FaceDetection) or None

        Examples
        --------
        >>> LiveObserver().observe(np.zeros((120, 160, 3), np.uint8), 3) is None
        True
        """
        now = thumbnail(frame)
        in_motion = view_changed(self.earlier, now)
        self.earlier = now
        # (view_changed takes thumbnails of two sizes for still: here they are two views)
        unchanged = (
            self.empty is not None
            and self.empty.shape == now.shape
            and not view_changed(self.empty, now)
        )
        if unchanged and self.unsearched + 1 < EMPTY_VIEW_SEARCH_EVERY:
            self.unsearched += 1
            return None  # (no face last frame either: ``empty`` is cleared by a face)
        seen = observe(
            frame,
            size,
            self.profile,
            self.previous,
            self.last if self.keep_names else None,
            in_motion=in_motion,
        )
        self.last, self.previous = seen if seen else (None, None)
        if seen is None and not in_motion:
            self.empty, self.unsearched = now, 0
        elif seen is not None:
            self.empty = None
        return seen
