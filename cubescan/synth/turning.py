"""Turning-cube videos: a cube turned once around in front of the camera, with exact truth.

A phone clip of a cube shows it from a corner (three faces), then, as the hand turns it,
along an edge (two faces), then from the opposite corner, and back: every face comes
into view. :func:`render_turning_video` renders such a clip with
:func:`~cubescan.synth.corners.render_corner_view`. The camera direction, in cube space,
runs along a great circle through one corner and the opposite one; the circle's axis
wobbles a little and the hand drifts, and each frame averages renders over its stretch of
the turn (motion blur). Beside each frame it returns the faces in view, with their cells,
colours and facelets (:class:`~cubescan.synth.corners.CornerTruth`).

Examples
--------
>>> from cubescan.solver.moves import solved_facelets
>>> clip = render_turning_video(solved_facelets(2), seed=0, frames=8, resolution=(160, 120))
>>> len(clip.frames), clip.frames[0].shape, sorted({f.face for v in clip.views for f in v.faces})
(8, (120, 160, 3), ['B', 'D', 'F', 'L', 'R', 'U'])
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from cubescan.synth.corners import (
    _CORNER_SIGNS,
    CornerTruth,
    _look_at,
    random_corner_spec,
    render_corner_view,
)
from cubescan.synth.scenes import render_scene
from cubescan.synth.specs import STANDARD_SCHEME, with_pose


@dataclass(frozen=True, eq=False)
class TurningVideo:
    """A rendered turning-cube clip and its ground truth.

    Attributes
    ----------
    frames
        BGR ``uint8`` frames, all ``(height, width, 3)``.
    size
        N.
    facelets
        The cube (face letters, facelet order), its colours the standard scheme's.
    views
        Per frame, the faces in view (at the middle of the frame's exposure).
    """

    frames: tuple[np.ndarray, ...]
    size: int
    facelets: str
    views: tuple[CornerTruth, ...]


def render_turning_video(
    facelets: str,
    *,
    seed: int,
    frames: int = 60,
    turn_deg: float = 360.0,
    resolution: tuple[int, int] = (640, 480),
    scale_range: tuple[float, float] = (0.45, 0.8),
    blur_samples: int = 2,
) -> TurningVideo:
    """Render a cube turned around in front of the camera, every face coming into view.

    Parameters
    ----------
    facelets
        The cube (face letters URFDLB, facelet order), N from 2 to 7; its colours are the
        standard scheme's.
    seed
        Everything random (the corner it starts from, the turn's axis, the look, the hand's
        drift) follows from it.
    frames
        Number of frames.
    turn_deg
        How far the cube turns over the clip; 180 takes it from one corner to the
        opposite one, 360 once around.
    resolution
        ``(width, height)``.
    scale_range
        Range of the whole cube's width, a fraction of the shorter image side.
    blur_samples
        Renders averaged into each frame along its stretch of the turn; 1 for none.

    Returns
    -------
    TurningVideo

    Raises
    ------
    ValueError
        Facelets that are not an NxN cube's, or fewer than 2 frames.

    Examples
    --------
    >>> from cubescan.solver.moves import solved_facelets
    >>> clip = render_turning_video(solved_facelets(3), seed=1, frames=4, turn_deg=180,
    ...                             resolution=(160, 120), blur_samples=1)
    >>> # From a corner to the opposite one:
    >>> ["".join(sorted(face.face for face in view.faces)) for view in clip.views]
    ['FLU', 'DFL', 'BDL', 'BDR']
    """
    size = round((len(facelets) / 6) ** 0.5)
    if not 2 <= size <= 7 or 6 * size * size != len(facelets) or set(facelets) - set("URFDLB"):
        raise ValueError(f"{len(facelets)} facelets are not the stickers of an NxN cube")
    if frames < 2:
        raise ValueError(f"a clip needs at least 2 frames, got {frames}")
    rng = np.random.default_rng(seed)
    corner = _CORNER_SIGNS[rng.integers(len(_CORNER_SIGNS))]
    look = random_corner_spec(
        rng, size, faces=3, resolution=resolution, scale_range=scale_range,
        corner=tuple(int(v) for v in corner),
    )  # fmt: skip
    look = replace(look, colors="".join(STANDARD_SCHEME[f] for f in facelets), blur=0.4)
    start = corner / np.linalg.norm(corner)
    # The turn's second direction: any way across the corner, square to it.
    across = np.cross(start, rng.normal(size=3))
    across /= np.linalg.norm(across)
    axis = np.cross(start, across)
    roll = float(rng.uniform(-30, 30))
    wobble_deg, wobble_phase = float(rng.uniform(0, 12)), float(rng.uniform(0, 2 * np.pi))
    drift = rng.normal(0, 0.03 * size, (2, 3)) * (1, 1, 0)
    step = np.radians(turn_deg) / (frames - 1)

    def pose(t: float) -> tuple[np.ndarray, np.ndarray]:
        """Rotation and centre at clip time ``t`` (frames): where the turn has got to."""
        angle = t * step
        toward = np.cos(angle) * start + np.sin(angle) * across
        tilt = np.radians(wobble_deg) * np.sin(angle + wobble_phase)
        toward = np.cos(tilt) * toward + np.sin(tilt) * axis
        rotation = _look_at(toward, axis, roll)
        fraction = t / (frames - 1)
        center = np.asarray(look.center) + drift[0] * np.sin(np.pi * fraction) + drift[1] * fraction
        return rotation, center

    images, views = [], []
    for k in range(frames):
        image, view = render_corner_view(with_pose(look, *pose(float(k))))
        if blur_samples > 1:
            # The shutter is open half the frame: renders spread over the middle half of
            # the frame's step, a quarter step each way.
            times = k + (np.arange(blur_samples) + 0.5) / blur_samples * 0.5 - 0.25
            stack = [render_scene(with_pose(look, *pose(float(t))))[0] for t in times]
            image = np.mean(stack, axis=0).round().astype(np.uint8)
        images.append(image)
        views.append(view)
    return TurningVideo(tuple(images), size, facelets, tuple(views))
