"""Rendered scanning videos: a cube turned through its faces in a hand, with exact truth.

A person scanning a cube holds one face to the camera for a moment (the hand trembles a
little, fingers grip the cube at the face's border), then turns the cube to the next face
(quickly: the picture smears), in whatever order and whichever way up they like. This
module renders such a video with :func:`cubescan.synth.scenes.render_scene` and returns, beside
the frames, what was shown when: the cube's colours, and for every pause the face held
and its first and last frame.

* :func:`render_scan_video` - colours in, :class:`ScanVideo` out (seeded, deterministic).
* :func:`write_video` / :func:`write_frames` - an MJPG ``.avi`` or a folder of PNG frames,
  for ``cubescan scan --video`` / ``--frames`` (the only functions here that touch files).

Examples
--------
>>> video = render_scan_video("W" * 4 + "R" * 4 + "G" * 4 + "Y" * 4 + "O" * 4 + "B" * 4,
...                           seed=1, hold_frames=3, turn_frames=2, resolution=(160, 120))
>>> len(video.frames), [hold.face for hold in video.holds] == list(video.order)
(30, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from cubescan.solver.geometry import FACES
from cubescan.synth.scenes import render_scene
from cubescan.synth.specs import (
    PALETTES,
    SKIN_BGR,
    STANDARD_SCHEME,
    SceneSpec,
    face_pose,
    with_pose,
)

_LIGHTS = ("neutral", "warm", "cool", "dim")
_STYLES = ("stickered", "stickerless")


@dataclass(frozen=True)
class Hold:
    """One pause of the video: a face held towards the camera.

    Attributes
    ----------
    face
        Letter (URFDLB, facelet convention) of the face held towards the camera.
    first, last
        Indices (0-based, inclusive) of the pause's first and last frame.
    roll_deg
        In-plane rotation of the face in the picture, counter-clockwise, degrees.
    finger
        True when a finger covers part of the face's border during the pause.
    """

    face: str
    first: int
    last: int
    roll_deg: float
    finger: bool


@dataclass(frozen=True, eq=False)
class ScanVideo:
    """A rendered scanning video and its ground truth.

    Attributes
    ----------
    frames
        BGR ``uint8`` frames, all ``(height, width, 3)``.
    size
        N.
    colors
        The cube's ``6*N*N`` colour letters (W Y R O G B) in facelet order.
    order
        Face letters in the order they are held up (a letter may repeat).
    holds
        One :class:`Hold` per pause, in order.
    shown
        Per frame: the letter of the face held still, or ``""`` while the cube turns.
    light, style, palette
        The scene's lighting, cube style and palette.
    """

    frames: tuple[np.ndarray, ...]
    size: int
    colors: str
    order: str
    holds: tuple[Hold, ...]
    shown: tuple[str, ...]
    light: str
    style: str
    palette: str


def colors_of_facelets(facelets: str) -> str:
    """Colour letters of a facelet string in the standard scheme (U white, F green, ...).

    Parameters
    ----------
    facelets
        Face letters URFDLB (any length); other characters are kept as they are.

    Returns
    -------
    str
        The colour letters W Y R O G B, one per facelet: U white, R red, F green,
        D yellow, L orange, B blue.

    Examples
    --------
    >>> colors_of_facelets("UUUURRRRFFFFDDDDLLLLBBBB")
    'WWWWRRRRGGGGYYYYOOOOBBBB'
    """
    return facelets.translate(str.maketrans(STANDARD_SCHEME))


def _size_of(colors: str) -> int:
    size = round((len(colors) / 6) ** 0.5)
    if not 2 <= size <= 7 or 6 * size * size != len(colors):
        raise ValueError(f"{len(colors)} colour letters are not the stickers of an NxN cube")
    return size


def _slerp(a: np.ndarray, b: np.ndarray, t: float) -> np.ndarray:
    """The rotation a fraction ``t`` of the way from ``a`` to ``b`` (shortest turn)."""
    rotvec, _ = cv2.Rodrigues(b @ a.T)
    step, _ = cv2.Rodrigues(rotvec * t)
    return step @ a


@dataclass(frozen=True)
class _Pose:
    rotation: np.ndarray
    center: np.ndarray


def _held_pose(
    rng: np.random.Generator, face: str, size: int, focal: float, short_side: int
) -> tuple[_Pose, float]:
    """Where a hand holds the cube to show ``face``: roughly frontal, any way up."""
    roll = float(rng.uniform(-180, 180))
    rotation = face_pose(face, rng.uniform(4, 18), rng.uniform(0, 360), roll)
    face_px = rng.uniform(0.38, 0.55) * short_side
    distance = focal * size / face_px + size / 2.0
    offset = rng.uniform(-0.08, 0.08, 2) * short_side * distance / focal
    return _Pose(rotation, np.array([offset[0], offset[1], distance])), roll


def _tremble(rng: np.random.Generator, frames: int, scale: float) -> np.ndarray:
    """A hand's small, smooth drift: (frames, 6) offsets (3 rotation, 3 translation)."""
    drift = np.zeros((frames, 6))
    state = np.zeros(6)
    for k in range(frames):
        state = 0.7 * state + rng.normal(0, 1, 6)
        drift[k] = state
    drift[:, :3] *= np.radians(0.25)  # rotation, radians
    drift[:, 3:] *= 0.004 * scale  # translation, sticker units
    return drift


def _finger(rng: np.random.Generator, size: int) -> tuple[float, float, float, float, int]:
    """A finger gripping the face's border: tip just inside one side, hand outside."""
    side = int(rng.integers(4))
    along = float(rng.uniform(0.3, size - 0.3))
    depth = float(rng.uniform(0.1, 0.4))
    u, v, angle = {
        0: (along, depth, 270.0),
        1: (size - depth, along, 0.0),
        2: (along, size - depth, 90.0),
        3: (depth, along, 180.0),
    }[side]
    width = float(rng.uniform(0.55, 0.85))
    return (u, v, angle + float(rng.uniform(-25, 25)), width, int(rng.integers(len(SKIN_BGR))))


def render_scan_video(
    colors: str,
    *,
    seed: int,
    light: str = "neutral",
    style: str = "stickered",
    palette: str = "classic",
    order: str | None = None,
    hold_frames: int = 10,
    turn_frames: int = 5,
    resolution: tuple[int, int] = (640, 480),
    fingers: bool = True,
    blur_samples: int = 4,
) -> ScanVideo:
    """Render a cube turned through its faces, pausing on each, as a webcam would see it.

    Parameters
    ----------
    colors
        ``6*N*N`` colour letters (W Y R O G B) in facelet order, N from 2 to 7: any state,
        solvable or not (see :func:`colors_of_facelets`).
    seed
        Everything random (order, poses, trembling, fingers, background) follows from it.
    light
        ``"neutral"``, ``"warm"``, ``"cool"`` or ``"dim"``.
    style
        ``"stickered"`` or ``"stickerless"``.
    palette
        Key of :data:`cubescan.synth.specs.PALETTES`.
    order
        Face letters in the order they are held up (repeats allowed); a random order of
        all six by default.
    hold_frames
        Frames of each pause.
    turn_frames
        Frames of each turn between pauses (and of the cube coming into view).
    resolution
        ``(width, height)``.
    fingers
        Fingers grip the border of most held faces.
    blur_samples
        Renders averaged into each turning frame (motion blur); 1 for none.

    Returns
    -------
    ScanVideo

    Raises
    ------
    ValueError
        Colours that are not an NxN cube's, an unknown light, style, palette or face.

    Examples
    --------
    >>> video = render_scan_video("W" * 24, seed=0, order="UF", hold_frames=2,
    ...                           turn_frames=1, resolution=(160, 120))
    >>> video.shown
    ('', 'U', 'U', '', 'F', 'F')
    """
    size = _size_of(colors)
    if light not in _LIGHTS or style not in _STYLES or palette not in PALETTES:
        raise ValueError(f"unknown light {light!r}, style {style!r} or palette {palette!r}")
    rng = np.random.default_rng(seed)
    order = "".join(FACES[i] for i in rng.permutation(6)) if order is None else order
    if not order or set(order) - set(FACES):
        raise ValueError(f"order must be face letters URFDLB, got {order!r}")
    width, height = resolution
    focal = float(rng.uniform(0.9, 1.3) * max(width, height))
    base = SceneSpec(
        size=size,
        colors=colors,
        width=width,
        height=height,
        rotation=((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
        center=(0.0, 0.0, 10.0),
        focal=focal,
        style=style,
        palette=palette,
        gap=float(rng.uniform(0.03, 0.06) if style == "stickerless" else rng.uniform(0.07, 0.14)),
        corner_radius=float(rng.uniform(0.08, 0.25)),
        light=light,
        light_dir=(float(rng.uniform(-0.6, 0.6)), float(rng.uniform(-0.8, 0.0)), -1.0),
        noise=float(rng.uniform(1.5, 4.0 if light == "dim" else 3.0)),
        background_seed=int(rng.integers(2**31)),
    )

    def render(pose: _Pose, occluder, blur: float = 0.4) -> np.ndarray:
        moved = replace(with_pose(base, pose.rotation, pose.center), occluder=occluder, blur=blur)
        return render_scene(moved)[0]

    frames: list[np.ndarray] = []
    shown: list[str] = []
    holds: list[Hold] = []
    # The cube comes into view from below, tilted away.
    start = _Pose(face_pose(order[0], 60, 0, 0), np.array([0.0, 3.0 * size, 6.0 * size]))
    previous, previous_finger = start, None
    for face in order:
        pose, roll = _held_pose(rng, face, size, focal, min(width, height))
        finger = _finger(rng, size) if fingers and rng.random() < 0.8 else None
        for k in range(turn_frames):
            # Each turning frame averages renders along its stretch of the turn: motion blur.
            stack = []
            for s in range(blur_samples):
                t = (k + (s + 0.5) / blur_samples) / (turn_frames + 1)
                smooth = t * t * (3 - 2 * t)
                between = _Pose(
                    _slerp(previous.rotation, pose.rotation, smooth),
                    previous.center + smooth * (pose.center - previous.center),
                )
                stack.append(render(between, previous_finger if t < 0.5 else finger, 0.8))
            frames.append(np.mean(stack, axis=0).round().astype(np.uint8))
            shown.append("")
        drift = _tremble(rng, hold_frames, size)
        for offset in drift:
            turn, _ = cv2.Rodrigues(offset[:3])
            frames.append(render(_Pose(turn @ pose.rotation, pose.center + offset[3:]), finger))
            shown.append(face)
        holds.append(
            Hold(face, len(frames) - hold_frames, len(frames) - 1, roll, finger is not None)
        )
        previous, previous_finger = pose, finger
    return ScanVideo(
        tuple(frames), size, colors, order, tuple(holds), tuple(shown), light, style, palette
    )


def write_video(frames: Sequence[np.ndarray], path: str | Path, fps: float = 30.0) -> Path:
    """Write frames to an MJPG ``.avi`` file (OpenCV's built-in writer, no codec needed).

    Parameters
    ----------
    frames
        BGR ``uint8`` frames of one size.
    path
        File to write (``.avi``).
    fps
        Frames per second recorded in the file.

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    OSError
        When the file cannot be written.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     video = write_video([np.zeros((48, 64, 3), np.uint8)] * 3, Path(folder) / "v.avi")
    ...     video.stat().st_size > 0
    True
    """
    path = Path(path)
    height, width = frames[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (width, height))
    if not writer.isOpened():
        raise OSError(f"cannot write a video to {path}")
    try:
        for frame in frames:
            writer.write(frame)
    finally:
        writer.release()
    return path


def write_frames(frames: Sequence[np.ndarray], folder: str | Path) -> list[Path]:
    """Write frames as ``00000.png``, ``00001.png``... in a folder (made if missing).

    Parameters
    ----------
    frames
        BGR ``uint8`` frames.
    folder
        Destination folder.

    Returns
    -------
    list of pathlib.Path
        The files, in playing order.

    Raises
    ------
    OSError
        When a frame cannot be written.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     [p.name for p in write_frames([np.zeros((4, 4, 3), np.uint8)] * 2, folder)]
    ['00000.png', '00001.png']
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number, frame in enumerate(frames):
        path = folder / f"{number:05d}.png"
        if not cv2.imwrite(str(path), frame):
            raise OSError(f"cannot write {path}")
        paths.append(path)
    return paths
