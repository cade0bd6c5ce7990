"""One frame to one face observation: detect the grid, sample and name its colours.

Examples
--------
>>> observe(np.zeros((120, 160, 3), np.uint8)) is None
True
"""

from __future__ import annotations

import numpy as np

from calibration.profile import Profile
from scanner.colors import name_face_colors
from scanner.grid import FaceDetection, detect_grid
from scanner.sampling import sample_colors
from scanner.session import FaceObservation

_LETTERS = {"white": "W", "yellow": "Y", "red": "R", "orange": "O", "green": "G", "blue": "B"}


def observe(
    frame: np.ndarray,
    size: int | None = None,
    profile: Profile | None = None,
    previous: FaceDetection | None = None,
) -> tuple[FaceObservation, FaceDetection] | None:
    """The face in view, named, or None when no face is found (or a cell cannot be read).

    Parameters
    ----------
    frame
        BGR frame.
    size
        N when known.
    profile
        Colour profile for naming.
    previous
        The last frame's detection: searched around first (the cheap tracking path).

    Returns
    -------
    (FaceObservation, FaceDetection) or None
    """
    detection = detect_grid(frame, size, previous)
    if detection is None:
        return None
    samples = sample_colors(frame, detection)
    if not np.isfinite(samples.lab).all():
        return None  # part of the face is outside the frame
    naming = name_face_colors(samples.lab, profile)
    colors = "".join(_LETTERS.get(name, name[-1]) for name in naming.names)
    return FaceObservation(detection.size, colors, samples.lab, detection.quad), detection
