"""What a synthetic scene shows: the cube, its pose, its look and the camera.

A :class:`SceneSpec` holds every parameter of one frame; :func:`random_scene_spec` draws one
from the ranges the detector must cope with, :func:`cube_photo_specs` the six photos of one
cube, :func:`with_pose` a video's next frame. :class:`SceneTruth` is what a test needs beside
the image. Coordinates: cube space has x to the right (R), y up (U), z to the front (F), the
cube spans ``[-N/2, N/2]`` on each axis and every sticker is one unit wide; camera space is
OpenCV's (x right, y down, z forward).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from cubescan.solver.facelets import STANDARD_SCHEME as COLOR_TO_FACE
from cubescan.solver.geometry import FACES, cube_geometry, face_axes, face_normal
from cubescan.solver.moves import apply_moves, parse_moves, size_from_length, solved_facelets

FACE_ORDER = FACES
SCENE_LIGHTS = ("neutral", "warm", "cool", "dim")
"""The lights a scene may be drawn under."""

# Standard colour scheme: the letter of the face a colour belongs to -> colour letter.
STANDARD_SCHEME = {face: color for color, face in COLOR_TO_FACE.items()}

# Palettes: colour letter -> BGR as printed/moulded, before lighting.  Real cubes differ a lot,
# so the detector must not depend on any one of them.
PALETTES: dict[str, dict[str, tuple[int, int, int]]] = {
    "classic": {
        "W": (235, 235, 235),
        "Y": (20, 215, 245),
        "R": (40, 30, 200),
        "O": (20, 110, 250),
        "G": (70, 160, 20),
        "B": (190, 80, 10),
    },
    "bright": {
        "W": (245, 245, 245),
        "Y": (40, 240, 250),
        "R": (60, 40, 240),
        "O": (30, 140, 255),
        "G": (80, 220, 40),
        "B": (240, 140, 30),
    },
    "matte": {
        "W": (210, 215, 215),
        "Y": (70, 200, 220),
        "R": (60, 50, 170),
        "O": (50, 110, 220),
        "G": (80, 150, 60),
        "B": (160, 90, 40),
    },
    "pastel": {
        "W": (240, 240, 240),
        "Y": (120, 235, 250),
        "R": (110, 90, 235),
        "O": (90, 170, 250),
        "G": (140, 225, 120),
        "B": (235, 175, 110),
    },
    "dark": {
        "W": (200, 200, 195),
        "Y": (10, 180, 200),
        "R": (30, 20, 150),
        "O": (10, 80, 200),
        "G": (50, 110, 10),
        "B": (130, 50, 10),
    },
}

SKIN_BGR = ((150, 180, 225), (120, 150, 205), (90, 120, 170), (70, 95, 140))
"""Skin tones (BGR) of the fingers that hold a cube."""

RESOLUTIONS: tuple[tuple[int, int], ...] = (
    (320, 240),
    (640, 360),
    (640, 480),
    (800, 600),
    (1280, 720),
    (1920, 1080),
)


# ----------------------------------------------------------------------------------------------
# The 3-D sticker model
# ----------------------------------------------------------------------------------------------


def face_frame(face: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A face's axes in cube space, as floats.

    Parameters
    ----------
    face
        Face letter, one of ``URFDLB``.

    Returns
    -------
    tuple of numpy.ndarray
        (right, up, normal) unit vectors of the face as it is seen in the net.

    Examples
    --------
    >>> [v.tolist() for v in face_frame("F")]
    [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    """
    return tuple(v.astype(float) for v in face_axes(face))  # type: ignore[return-value]


def sticker_positions(size: int) -> np.ndarray:
    """3-D centre of every sticker in facelet order, one sticker wide (the solver's model).

    Parameters
    ----------
    size
        Cube size N (2..7).

    Returns
    -------
    numpy.ndarray
        ``(6*N*N, 3)`` positions on the cube surface, surface at +-N/2.

    Examples
    --------
    >>> sticker_positions(3)[4]  # U5, the center of the top face
    array([0. , 1.5, 0. ])
    """
    # The geometric model counts a cubie as 2 units wide; the renderer as 1.
    return cube_geometry(size).positions / 2.0


def scramble(rng: np.random.Generator, size: int, length: int | None = None) -> tuple[str, str]:
    """A random valid cube state reached by random outer (and for N>3 wide) turns.

    Parameters
    ----------
    rng
        Random generator.
    size
        Cube size N.
    length
        Number of turns (default ``10 * N``).

    Returns
    -------
    tuple of str
        ``(facelets, moves)``: the facelet string (face letters, solved centres fixed for odd N)
        and the move sequence that produced it.

    Examples
    --------
    >>> facelets, moves = scramble(np.random.default_rng(0), 3)
    >>> sorted(set(facelets)) == sorted("URFDLB") and all(facelets.count(f) == 9 for f in "URFDLB")
    True
    """
    length = 10 * size if length is None else length
    tokens = []
    previous = ""
    for _ in range(length):
        face = previous
        while face == previous:
            face = "URFDLB"[rng.integers(6)]
        previous = face
        depth = int(rng.integers(1, max(2, size // 2 + 1)))
        name = face if depth == 1 else (f"{depth}{face}w" if depth > 2 else f"{face}w")
        tokens.append(name + ["", "'", "2"][rng.integers(3)])
    moves = " ".join(tokens)
    return apply_moves(solved_facelets(size), parse_moves(moves, size)), moves


# ----------------------------------------------------------------------------------------------
# Scene description
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SceneSpec:
    """Every parameter of one rendered frame.

    Attributes
    ----------
    size
        Cube size N.
    colors
        ``6*N*N`` colour letters (W Y R O G B) in facelet order.
    width, height
        Image size in pixels.
    rotation
        3x3 rotation from cube space to camera space (a tuple of 3 row tuples).
    center
        Cube centre in camera space, in sticker units.
    focal
        Focal length in pixels.
    style
        ``"stickered"`` (black plastic, rounded stickers with gaps) or ``"stickerless"``
        (coloured plastic tiles with thin dark seams).
    palette
        Key of :data:`PALETTES`.
    gap
        Gap between stickers as a fraction of the pitch (seam width for stickerless).
    corner_radius
        Sticker corner radius as a fraction of the sticker width.
    light
        ``"neutral"``, ``"warm"``, ``"cool"`` or ``"dim"``.
    light_dir
        Unit vector towards the main light, camera space.
    glare
        ``None`` or ``(u, v, radius, strength)`` on the face turned most towards the camera, in
        sticker units of that face's net coordinates (u right, v down, 0..N).
    occluder
        ``None`` or ``(u, v, angle_deg, width, skin_index)``: a finger-like skin-coloured shape
        whose tip is at face coordinates (u, v) of the front face, pointing along angle.
    blur
        Gaussian blur sigma in pixels (0 = sharp).
    noise
        Sensor noise sigma in grey levels.
    jpeg_quality
        0 for none, otherwise the JPEG quality the frame is round-tripped through.
    background_seed
        Seed of the (static) clutter background.
    """

    size: int
    colors: str
    width: int
    height: int
    rotation: tuple[tuple[float, float, float], ...]
    center: tuple[float, float, float]
    focal: float
    style: str = "stickered"
    palette: str = "classic"
    gap: float = 0.08
    corner_radius: float = 0.15
    light: str = "neutral"
    light_dir: tuple[float, float, float] = (0.3, -0.5, -0.8)
    glare: tuple[float, float, float, float] | None = None
    occluder: tuple[float, float, float, float, int] | None = None
    blur: float = 0.0
    noise: float = 2.0
    jpeg_quality: int = 0
    background_seed: int = 0


@dataclass(frozen=True)
class SceneTruth:
    """Exact ground truth of a rendered frame.

    Attributes
    ----------
    size
        Cube size N (0 for a scene without a cube).
    front_face
        Letter of the face turned most towards the camera ("" when no cube).
    visible_faces
        Letters of every face facing the camera, most frontal first.
    centers
        Face letter -> ``(N, N, 2)`` sticker centres in image pixels, net order.
    corners
        Face letter -> ``(4, 2)`` face corners (net top-left, top-right, bottom-right,
        bottom-left), image pixels.
    colors
        Face letter -> ``N*N`` colour letters in net order.
    occluded
        ``(N, N)`` bool, front-face cells (net order) partly covered by the occluder.
    glared
        ``(N, N)`` bool, front-face cells (net order) under the glare spot.
    front_tilt_deg
        Angle between the front face's normal and the direction to the camera.
    """

    size: int
    front_face: str
    visible_faces: tuple[str, ...]
    centers: dict[str, np.ndarray]
    corners: dict[str, np.ndarray]
    colors: dict[str, str]
    occluded: np.ndarray
    glared: np.ndarray
    front_tilt_deg: float

    def quarter_turns(self, centers: np.ndarray, tolerance: float = 1 / 3) -> int | None:
        """The quarter turns k with ``rot90(front face's true centers, k)`` = ``centers``.

        Parameters
        ----------
        centres
            (N, N, 2) sticker centres found in the image, rows as found.
        tolerance
            Largest distance allowed between a found and a true centre, in pitches.

        Returns
        -------
        int or None
            k in 0..3, or None when no turn puts every centre within the tolerance.

        Examples
        --------
        >>> truth = SceneTruth(2, "F", ("F",), {"F": np.array([[[0.0, 0], [10, 0]],
        ...     [[0, 10], [10, 10]]])}, {}, {}, np.zeros((2, 2), bool), np.zeros((2, 2), bool), 0.0)
        >>> truth.quarter_turns(np.rot90(truth.centers["F"], 1, axes=(0, 1)))
        1
        """
        true_centers = self.centers[self.front_face]
        pitch = float(np.median(np.linalg.norm(np.diff(true_centers, axis=1), axis=-1)))
        for k in range(4):
            error = np.linalg.norm(np.rot90(true_centers, k, axes=(0, 1)) - centers, axis=-1)
            if error.max() < tolerance * pitch:
                return k
        return None


def canonical_view(centers: np.ndarray) -> tuple[np.ndarray, int]:
    """Reorder a face's centres so rows run from the face's top as seen in the image.

    The face is rotated by a multiple of 90 degrees so that its "up" direction (from the last
    row towards the first) is within 45 degrees of image up; the detector uses the same rule.

    Parameters
    ----------
    centers
        ``(N, N, 2)`` centres in any row-major orientation.

    Returns
    -------
    tuple
        ``(centers, k)``: the reordered ``(N, N, 2)`` array and the number of quarter turns
        ``k`` such that ``numpy.rot90(original, k)`` gives it.

    Examples
    --------
    >>> grid = np.stack(np.meshgrid([0.0, 1.0], [0.0, 1.0]), axis=-1)  # (x, y), rows down
    >>> view, k = canonical_view(np.rot90(grid, 2))  # the same face, read upside down
    >>> view[0, 0].tolist(), k
    ([0.0, 0.0], 2)
    """
    best = (np.inf, centers, 0)
    for k in range(4):
        rotated = np.rot90(centers, k, axes=(0, 1))
        up = rotated[0].mean(axis=0) - rotated[-1].mean(axis=0)
        angle = abs(np.degrees(np.arctan2(up[0], -up[1])))
        if angle < best[0]:
            best = (angle, rotated, k)
    return np.ascontiguousarray(best[1]), best[2]


def _rotation_matrix(axis: np.ndarray, angle: float) -> np.ndarray:
    axis = axis / np.linalg.norm(axis)
    rot, _ = cv2.Rodrigues(axis * angle)
    return rot


def face_pose(
    face: str, tilt_deg: float, tilt_axis_deg: float, roll_deg: float, yaw_extra_deg: float = 0.0
) -> np.ndarray:
    """Rotation (cube -> camera) that shows ``face`` to the camera with its net top up.

    Parameters
    ----------
    face
        Face letter to show.
    tilt_deg
        Out-of-plane tilt of that face away from the camera.
    tilt_axis_deg
        Direction (in the image plane) of the tilt axis.
    roll_deg
        In-plane rotation of the whole picture, counter-clockwise as seen in the image.
    yaw_extra_deg
        Extra rotation applied before the tilt (used for corner views).

    Returns
    -------
    numpy.ndarray
        3x3 rotation matrix.

    Examples
    --------
    >>> rot = face_pose("F", 0, 0, 0)
    >>> (rot @ np.array([0, 0, 1.0])).round(6).tolist()  # F's normal points at the camera
    [0.0, 0.0, -1.0]
    """
    right, up, normal = face_frame(face)
    cube_axes = np.stack([right, up, normal], axis=1)
    cam_axes = np.array([[1.0, 0, 0], [0, -1, 0], [0, 0, -1]]).T
    base = cam_axes @ cube_axes.T
    t = np.radians(tilt_axis_deg)
    tilt = _rotation_matrix(np.array([np.cos(t), np.sin(t), 0.0]), np.radians(tilt_deg))
    yaw = _rotation_matrix(np.array([0.0, 1.0, 0.0]), np.radians(yaw_extra_deg))
    # Counter-clockwise in the image (y down) is a negative angle about the camera's z axis.
    roll = _rotation_matrix(np.array([0.0, 0.0, 1.0]), -np.radians(roll_deg))
    return roll @ tilt @ yaw @ base


def _view_tilt(rotation: np.ndarray, center: np.ndarray, face: str, size: int) -> float:
    """Angle in degrees between a face's normal and its line of sight to the camera."""
    normal = rotation @ face_normal(face).astype(float)
    face_center = normal * size / 2 + center
    cosine = float(normal @ (-face_center / np.linalg.norm(face_center)))
    return float(np.degrees(np.arccos(np.clip(cosine, -1.0, 1.0))))


def _face_in_frame(
    rotation: np.ndarray,
    center: np.ndarray,
    face: str,
    size: int,
    focal: float,
    width: int,
    height: int,
) -> bool:
    """True when all four corners of ``face`` project inside the image."""
    right, up, normal = face_frame(face)
    corners = np.array(
        [normal * size / 2 + (sx * right + sy * up) * size / 2 for sx, sy in _CORNER_SIGNS]
    )
    cam = corners @ rotation.T + center
    xy = cam[:, :2] / cam[:, 2:3] * focal + np.array([width / 2.0, height / 2.0])
    return bool(
        np.all((xy[:, 0] >= 0) & (xy[:, 0] < width) & (xy[:, 1] >= 0) & (xy[:, 1] < height))
    )


_CORNER_SIGNS = ((-1, 1), (1, 1), (1, -1), (-1, -1))


def random_scene_spec(
    rng: np.random.Generator,
    size: int | None = None,
    *,
    resolution: tuple[int, int] | None = None,
    face: str | None = None,
    max_tilt_deg: float = 35.0,
    scale_range: tuple[float, float] = (0.15, 0.9),
    valid_cube: bool = False,
    hard: bool = True,
) -> SceneSpec:
    """Draw a single-face scene from the ranges the detector must handle.

    Parameters
    ----------
    rng
        Random generator (the spec is a pure function of its state).
    size
        Cube size N, or None for a random one in 2..7.
    resolution
        ``(width, height)``, or None for one of :data:`RESOLUTIONS`.
    face
        Face letter shown to the camera, or None for a random one.
    max_tilt_deg
        Largest out-of-plane tilt of the shown face.
    scale_range
        Range of the shown face's width as a fraction of the shorter image side.
    valid_cube
        Draw a solvable scrambled state (slower) instead of random stickers.
    hard
        Include occluders, glare, dim light, blur and JPEG artefacts at random.

    Returns
    -------
    SceneSpec
        The scene description; render it with :func:`render_scene`.

    Examples
    --------
    >>> spec = random_scene_spec(np.random.default_rng(1), 3, resolution=(640, 480))
    >>> spec.size, spec.width, spec.height
    (3, 640, 480)
    """
    size = int(rng.integers(2, 8)) if size is None else size
    width, height = resolution if resolution else RESOLUTIONS[rng.integers(len(RESOLUTIONS))]
    face = face or FACE_ORDER[rng.integers(6)]
    if valid_cube:
        facelets, _ = scramble(rng, size)
        colors = "".join(STANDARD_SCHEME[f] for f in facelets)
    else:
        colors = "".join(rng.choice(list("WYROGB"), 6 * size * size))
        if rng.random() < 0.1:  # a solved face: one colour everywhere
            start = FACE_ORDER.index(face) * size * size
            letter = colors[start]
            colors = colors[:start] + letter * size * size + colors[start + size * size :]
    focal = float(rng.uniform(0.8, 1.6) * max(width, height))
    short = min(width, height)
    face_px = rng.uniform(*scale_range) * short
    distance = focal * size / face_px + size / 2.0
    # Keep the face (and most of the cube) inside the frame.
    margin_x = max(0.0, (width - face_px * 1.15) / 2.0)
    margin_y = max(0.0, (height - face_px * 1.15) / 2.0)
    # The face's tilt to the line of sight includes the off-axis angle: redraw until the
    # total stays within the limit.
    for _ in range(20):
        tilt = float(rng.uniform(0, max_tilt_deg))
        rotation = face_pose(face, tilt, rng.uniform(0, 360), rng.uniform(-180, 180))
        cx = rng.uniform(-margin_x, margin_x) * distance / focal
        cy = rng.uniform(-margin_y, margin_y) * distance / focal
        center = np.array([cx, cy, distance])
        if _view_tilt(rotation, center, face, size) <= max_tilt_deg and _face_in_frame(
            rotation, center, face, size, focal, width, height
        ):
            break
    style = "stickerless" if rng.random() < 0.35 else "stickered"
    gap = rng.uniform(0.03, 0.07) if style == "stickerless" else rng.uniform(0.06, 0.16)
    light = "neutral"
    glare = occluder = None
    blur, noise, quality = float(rng.uniform(0, 0.8)), float(rng.uniform(1, 4)), 0
    if hard:
        light = SCENE_LIGHTS[rng.integers(len(SCENE_LIGHTS))]
        if rng.random() < 0.3:
            glare = (
                float(rng.uniform(0.5, size - 0.5)),
                float(rng.uniform(0.5, size - 0.5)),
                float(rng.uniform(0.2, 0.6)),
                float(rng.uniform(0.5, 1.0)),
            )
        if rng.random() < 0.3:
            # Tip over a border cell, finger coming from outside the face.
            side = rng.integers(4)
            along = float(rng.uniform(0.3, size - 0.3))
            depth = float(rng.uniform(0.25, 0.6))
            u, v, angle = {
                0: (along, depth, 270.0),
                1: (size - depth, along, 0.0),
                2: (along, size - depth, 90.0),
                3: (depth, along, 180.0),
            }[int(side)]
            occluder = (u, v, angle + rng.uniform(-30, 30), float(rng.uniform(0.5, 0.9)), 0)
            occluder = (*occluder[:4], int(rng.integers(len(SKIN_BGR))))
        blur = float(rng.choice([0.0, 0.5, 1.0, 1.6], p=[0.35, 0.3, 0.25, 0.1]))
        blur *= max(1.0, short / 480.0)
        noise = float(rng.uniform(1, 8 if light == "dim" else 5))
        quality = int(rng.choice([0, 50, 70, 90]))
    return SceneSpec(
        size=size,
        colors=colors,
        width=int(width),
        height=int(height),
        rotation=tuple(tuple(float(x) for x in row) for row in rotation),
        center=(float(cx), float(cy), float(distance)),
        focal=focal,
        style=style,
        palette=list(PALETTES)[rng.integers(len(PALETTES))],
        gap=float(gap),
        corner_radius=float(rng.uniform(0.05, 0.3)),
        light=light,
        light_dir=tuple(
            float(x) for x in np.array([rng.uniform(-1, 1), rng.uniform(-1, 0.2), -1.0])
        ),
        glare=glare,
        occluder=occluder,
        blur=blur,
        noise=noise,
        jpeg_quality=quality,
        background_seed=int(rng.integers(2**31)),
    )


def cube_photo_specs(
    rng: np.random.Generator,
    colors: str,
    resolution: tuple[int, int],
    *,
    max_tilt_deg: float,
    scale_range: tuple[float, float],
    hard: bool = False,
    shuffle: bool = False,
) -> list[SceneSpec]:
    """Six photos of one cube, a face each, each posed and lit on its own.

    The cube's look (sticker style, palette, gaps, corners) is drawn once; each photo gets
    its own pose and light (with ``hard``, also its own occluder, glare, blur and noise).

    Parameters
    ----------
    rng
        Random generator.
    colors
        The cube's sticker colour letters, 6*N*N in facelet order.
    resolution
        ``(width, height)`` of every photo.
    max_tilt_deg, scale_range
        As for :func:`random_scene_spec`.
    hard
        Draw each photo's difficulties (see :func:`random_scene_spec`).
    shuffle
        Photograph the faces in a random order instead of U, R, F, D, L, B.

    Returns
    -------
    list of SceneSpec
        One per photo, in the order taken.

    Examples
    --------
    >>> specs = cube_photo_specs(np.random.default_rng(0), "W" * 9 + "R" * 9 + "G" * 9
    ...     + "Y" * 9 + "O" * 9 + "B" * 9, (320, 240), max_tilt_deg=20, scale_range=(0.4, 0.6))
    >>> len(specs), len({spec.style for spec in specs}), len({spec.palette for spec in specs})
    (6, 1, 1)
    """
    size = size_from_length(len(colors))
    looks = random_scene_spec(rng, size, resolution=resolution, hard=hard)
    faces = rng.permutation(list(FACES)) if shuffle else FACES
    specs = []
    for face in faces:
        spec = random_scene_spec(
            rng,
            size,
            resolution=resolution,
            face=str(face),
            max_tilt_deg=max_tilt_deg,
            scale_range=scale_range,
            hard=hard,
        )
        specs.append(
            replace(
                spec,
                colors=colors,
                style=looks.style,
                palette=looks.palette,
                gap=looks.gap,
                corner_radius=looks.corner_radius,
                light=spec.light if hard else SCENE_LIGHTS[int(rng.integers(len(SCENE_LIGHTS)))],
            )
        )
    return specs


def with_pose(spec: SceneSpec, rotation: np.ndarray, center: np.ndarray) -> SceneSpec:
    """The same scene with the cube moved: one frame of a video sequence.

    Parameters
    ----------
    spec
        The scene (background, style, lighting are kept).
    rotation
        New 3x3 cube-to-camera rotation.
    center
        New cube centre in camera space (sticker units).

    Returns
    -------
    SceneSpec
        A new spec.

    Examples
    --------
    >>> spec = random_scene_spec(np.random.default_rng(0), 3, resolution=(320, 240))
    >>> moved = with_pose(spec, np.eye(3), np.array([0.0, 0.0, 20.0]))
    >>> moved.background_seed == spec.background_seed
    True
    """
    return replace(
        spec,
        rotation=tuple(tuple(float(x) for x in row) for row in rotation),
        center=tuple(float(x) for x in center),
    )
