"""The top level: :func:`detect_grid` tries the cues in turn, and
:func:`as_bgr` makes any image array a BGR frame.
"""

from __future__ import annotations

import cv2
import numpy as np

from cubescan.errors import BadInputError
from cubescan.scanner.grid.face import FaceDetection, _three_seen_of_four
from cubescan.scanner.grid.quads import _quad_face
from cubescan.scanner.grid.rejection import not_a_face
from cubescan.scanner.grid.search import (
    _faint_faces,
    _lattice_faces,
    _more_scales,
    _Pass,
    _slack_faces,
)
from cubescan.scanner.grid.tracking import track


def as_bgr(frame: object) -> np.ndarray:
    """A frame as an 8-bit 3-channel BGR image: grayscale and BGRA are converted.

    Parameters
    ----------
    frame
        An image array: (H, W) grayscale, or (H, W, C) with C = 1, 3 (BGR) or 4 (BGRA);
        8-bit, or any numeric type holding levels 0..255 (or 0..1, scaled up).

    Returns
    -------
    np.ndarray
        (H, W, 3) uint8 BGR: ``frame`` itself when it already is one.

    Raises
    ------
    BadInputError
        When the frame is not an image array (wrong type, empty, too many channels).

    Examples
    --------
    >>> as_bgr(np.zeros((10, 12), np.uint8)).shape
    (10, 12, 3)
    """
    if not isinstance(frame, np.ndarray):
        raise BadInputError(
            "bad-image", f"a frame must be an image array, not {type(frame).__name__}"
        )
    if frame.size == 0 or frame.ndim not in (2, 3) or min(frame.shape[:2]) < 8:
        raise BadInputError("bad-image", f"the frame is empty or too small (shape {frame.shape})")
    if frame.dtype != np.uint8:
        if not np.issubdtype(frame.dtype, np.number) or not np.isfinite(frame).all():
            raise BadInputError("bad-image", "the frame holds values that are not pixel levels")
        scale = 255.0 if frame.max() <= 1.0 else 1.0
        frame = np.clip(frame * scale, 0, 255).astype(np.uint8)
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    channels = frame.shape[2]
    if channels == 1:
        return cv2.cvtColor(frame[:, :, 0], cv2.COLOR_GRAY2BGR)
    if channels == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if channels != 3:
        raise BadInputError("bad-image", f"a frame has 1, 3 or 4 channels, not {channels}")
    return frame


def detect_grid(
    frame: object,
    size: int | None = None,
    previous: FaceDetection | None = None,
    *,
    thorough: bool = False,
    in_motion: bool = False,
) -> FaceDetection | None:
    """Find one cube face's sticker grid.

    Two cues are tried in turn: the region lattice (regions enclosed by lightness and
    chroma edges, linked into a lattice in their own affine frames; fast, needs no gaps)
    and, when it finds nothing, sticker quads from several binarisations.

    Parameters
    ----------
    frame
        BGR image (grayscale and BGRA are accepted), any resolution.
    size
        N when known; None to detect it (2..7).
    previous
        The detection in the previous video frame: it is followed to the stickers where
        its grid predicts them, else a crop around it is searched, at a scale giving about
        16 px stickers (the cheap tracking path); both before the whole frame.
    thorough
        When both cues find nothing, search the regions at more scales (for a photo known
        to show a face, where time matters less than for a live frame).
    in_motion
        The frame is a live one taken while the view changes (see
        :func:`~pipeline.observe.view_changed`): only the region cue looks. A face being
        turned is not read, and the quad cue and the last looks (for a dim face held
        still) cost about half of a frame with no face in it.

    Returns
    -------
    FaceDetection or None
        None when no cube face is in view.

    Raises
    ------
    BadInputError
        When ``frame`` is not an image, or ``size`` is out of range.

    Examples
    --------
    >>> from cubescan.synth.specs import random_scene_spec
    >>> from cubescan.synth.scenes import render_scene
    >>> spec = random_scene_spec(np.random.default_rng(3), 3, resolution=(640, 480), hard=False)
    >>> detect_grid(render_scene(spec)[0]).size
    3
    """
    if size is not None and not 2 <= size <= 7:
        raise BadInputError("bad-size", f"cube size must be 2..7, got {size}")
    image = as_bgr(frame)
    if previous is not None:
        tracked = track(image, size or previous.size, previous)
        if tracked is not None:
            return tracked
    return _best_face(image, size, thorough=thorough, in_motion=in_motion)[0]


def _best_face(
    image: np.ndarray, size: int | None, *, thorough: bool = False, in_motion: bool = False
) -> tuple[FaceDetection | None, dict[float, _Pass]]:
    """:func:`detect_grid` over a whole BGR frame, and the region cue's passes it made (by
    scale, the first first), for :func:`~cubescan.scanner.grid.multi.detect_faces` to look
    again."""
    found, passes = _lattice_faces(image, size, max_faces=1)
    if found and not _three_seen_of_four(found[0]):
        return (None if not_a_face(image, found[0]) else found[0]), passes
    # A 2x2 with one sticker unseen is the weakest find: the quad cue may see more.
    last_resort = found[0] if found and not not_a_face(image, found[0]) else None
    if in_motion:
        return last_resort, passes  # the other cues and last looks are for a face held still
    quad_face = _quad_face(image, size)
    if quad_face is not None:
        return quad_face, passes
    if last_resort is not None:
        return last_resort, passes
    found = _slack_faces(image, size, passes) or _faint_faces(image, size, passes)
    if found and not not_a_face(image, found[0]):
        return found[0], passes
    return (_more_scales(image, size) if thorough else None), passes
