"""Synthetic cube scenes with exact ground truth.

The renderer draws a whole N x N x N cube (any N from 2 to 7) as a 3-D object seen through a
pinhole camera, so one call can show a single face almost head-on (the other faces at grazing
angles, as in a real photo) or a corner view with three faces.  Everything a test needs is
returned beside the image: which faces are visible, the image position of every sticker centre
and every face corner, and which cells are occluded or under a glare spot.

The pieces are plain functions over small frozen dataclasses:

* :func:`cube_stickers` - the solver's 3-D sticker model, turned by a move sequence
  into a facelet string in the DESIGN.md convention (used for valid scrambled cubes).
* :class:`SceneSpec` - every parameter of one frame (cube pose, style, palette, light, camera
  effects, background seed).  A video is a list of specs that differ only in pose: the
  background is a pure function of its seed, so it stays still from frame to frame.
* :func:`random_scene_spec` - draws a spec from the ranges the detector must cope with.
* :func:`render_scene` - spec in, ``(image, SceneTruth)`` out.
* :func:`render_clutter` - a scene with no cube (clutter, checkerboards, tiles, keyboards).

Coordinates: cube space has x to the right (R), y up (U), z to the front (F), the cube spans
``[-N/2, N/2]`` on each axis and every sticker is one unit wide.  Camera space is OpenCV's
(x right, y down, z forward).
"""

from __future__ import annotations

import functools
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

RESOLUTIONS: tuple[tuple[int, int], ...] = (
    (320, 240),
    (640, 360),
    (640, 480),
    (800, 600),
    (1280, 720),
    (1920, 1080),
)

SKIN_BGR = ((150, 180, 225), (120, 150, 205), (90, 120, 170), (70, 95, 140))


# ----------------------------------------------------------------------------------------------
# The 3-D sticker model
# ----------------------------------------------------------------------------------------------


def _face_frame(face: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (right, up, normal) unit vectors of a face as seen in the net."""
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
    right, up, normal = _face_frame(face)
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
    right, up, normal = _face_frame(face)
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


# ----------------------------------------------------------------------------------------------
# Rendering
# ----------------------------------------------------------------------------------------------

_SHIFT = 4  # fixed-point bits for sub-pixel polygon filling
_ONE = 1 << _SHIFT
_SUPERSAMPLE = 8  # samples per pixel side when measuring how much of a pixel a shape covers


def _fill(canvas: np.ndarray, polygons: list[np.ndarray], color: tuple[float, ...]) -> None:
    """Paint polygons (pixel centres at integer coordinates) over a float canvas, each pixel
    blended by the share of its area they cover.

    A camera pixel sums the light over its area, so a seam narrower than a pixel still darkens
    the pixels it crosses. (OpenCV anti-aliases only 8-bit images; on a float canvas its
    polygons have hard, stair-stepped edges and a sub-pixel seam all but vanishes.)
    """
    height, width = canvas.shape[:2]
    points = np.concatenate(polygons)
    x0, y0 = np.maximum(np.floor(points.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(points.max(axis=0)).astype(int) + 1, [width, height])
    if x1 <= x0 or y1 <= y0:
        return
    k = _SUPERSAMPLE
    # Sub-sample (i, j) of the box covers pixel (y0 + i // k, x0 + j // k); its centre sits at
    # x0 - 0.5 + (j + 0.5) / k in canvas coordinates.
    mask = np.zeros(((y1 - y0) * k, (x1 - x0) * k), np.uint8)
    origin = np.array([x0, y0], float)
    pts = [np.round(((p - origin + 0.5) * k - 0.5) * _ONE).astype(np.int32) for p in polygons]
    cv2.fillPoly(mask, pts, 254, cv2.LINE_8, _SHIFT)
    # fillPoly takes every sample its outline touches, half a sample past the true edge on
    # average; counting the outline's samples at half weight leaves the area unbiased.
    cv2.polylines(mask, pts, True, 127, 1, cv2.LINE_8, _SHIFT)
    coverage = cv2.resize(mask, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    alpha = (coverage.astype(np.float32) / 254.0)[..., None]
    box = canvas[y0:y1, x0:x1]
    box += alpha * (np.asarray(color, np.float32) - box)


def _disc(cx: float, cy: float, radius: float) -> np.ndarray:
    """Polygon (64, 2) of a circle."""
    angles = np.linspace(0, 2 * np.pi, 64, endpoint=False)
    return np.stack([cx + radius * np.cos(angles), cy + radius * np.sin(angles)], axis=1)


def _stroke(start: np.ndarray, end: np.ndarray, thickness: float) -> np.ndarray:
    """Polygon (4, 2) of a straight stroke ``thickness`` px wide."""
    direction = end - start
    across = np.array([-direction[1], direction[0]]) / max(np.linalg.norm(direction), 1e-9)
    half = across * thickness / 2
    return np.array([start + half, end + half, end - half, start - half])


def _rounded_square(x0: float, y0: float, x1: float, y1: float, radius: float) -> np.ndarray:
    """Polygon (M, 2) of a rounded rectangle."""
    radius = min(radius, (x1 - x0) / 2, (y1 - y0) / 2)
    if radius <= 1e-3:
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], float)
    arc = np.linspace(0, np.pi / 2, 6)
    pts = []
    for cx, cy, start in (
        (x1 - radius, y0 + radius, -np.pi / 2),
        (x1 - radius, y1 - radius, 0.0),
        (x0 + radius, y1 - radius, np.pi / 2),
        (x0 + radius, y0 + radius, np.pi),
    ):
        a = start + arc
        pts.append(np.stack([cx + radius * np.cos(a), cy + radius * np.sin(a)], axis=1))
    return np.concatenate(pts)


def _project(points: np.ndarray, spec: SceneSpec) -> np.ndarray:
    cam = points @ np.array(spec.rotation).T + np.array(spec.center)
    z = np.maximum(cam[:, 2:3], 1e-6)
    return cam[:, :2] / z * spec.focal + np.array([spec.width / 2.0, spec.height / 2.0])


def _face_homography(face: str, spec: SceneSpec) -> tuple[np.ndarray, np.ndarray]:
    """Homography from a face's net coordinates (u right, v down, 0..N) to image pixels."""
    n = spec.size
    right, up, normal = _face_frame(face)
    uv = np.array([[0, 0], [n, 0], [n, n], [0, n]], float)
    pts3 = normal * n / 2 + (uv[:, :1] - n / 2) * right + (n / 2 - uv[:, 1:]) * up
    image_pts = _project(pts3, spec)
    return cv2.getPerspectiveTransform(uv.astype(np.float32), image_pts.astype(np.float32)), (
        image_pts
    )


def _warp(points: np.ndarray, homography: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64), homography)[:, 0]


def _light_gain(light: str) -> np.ndarray:
    return {
        "neutral": np.array([1.0, 1.0, 1.0]),
        "warm": np.array([0.72, 0.92, 1.08]),
        "cool": np.array([1.1, 0.98, 0.8]),
        "dim": np.array([0.42, 0.42, 0.45]),
    }[light]


@functools.lru_cache(maxsize=8)
def _background_cached(seed: int, width: int, height: int, kind: str) -> np.ndarray:
    rng = np.random.default_rng(seed)
    image = _base_texture(rng, width, height)
    if kind == "clutter":
        _draw_clutter(image, rng, count=int(rng.integers(4, 14)))
    elif kind == "negative":
        _draw_negative_objects(image, rng)
    image.setflags(write=False)
    return image


def render_background(seed: int, width: int, height: int, kind: str = "clutter") -> np.ndarray:
    """A cluttered, textured background (float32 BGR, 0..255).

    Parameters
    ----------
    seed
        Background seed: the same seed gives the same background (for video frames).
    width, height
        Size in pixels.
    kind
        ``"clutter"`` (texture + coloured objects) or ``"negative"`` (also grids that look
        like cubes to a naive detector: checkerboards, tiles, keyboards).

    Returns
    -------
    numpy.ndarray
        ``(height, width, 3)`` float32 image (a fresh copy).

    Examples
    --------
    >>> render_background(3, 64, 48).shape
    (48, 64, 3)
    """
    return _background_cached(seed, width, height, kind).copy()


def _base_texture(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """Smooth colour gradient, multi-scale noise and optional wood-like or fabric stripes."""
    base = rng.uniform(30, 230, 3)
    tint = rng.uniform(-60, 60, 3)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    t = (xx / width * rng.uniform(-1, 1) + yy / height * rng.uniform(-1, 1))[..., None]
    image = (base + tint * t).astype(np.float32)
    for cells in (4, 16, 64):
        small = rng.normal(0, 1, (max(2, height * cells // width), cells, 3)).astype(np.float32)
        image += cv2.resize(small, (width, height), interpolation=cv2.INTER_CUBIC) * (
            rng.uniform(3, 18) * 4 / cells**0.5
        )
    kind = rng.integers(3)
    if kind == 0:  # wood grain
        freq = rng.uniform(0.02, 0.12) * 640 / max(width, height)
        warp = cv2.resize(rng.normal(0, 1, (8, 8)).astype(np.float32), (width, height))
        image += (np.sin((yy + 30 * warp) * freq) * rng.uniform(5, 25))[..., None]
    elif kind == 1:  # fabric folds
        image += (np.sin(xx * 0.05 + yy * 0.03) * np.sin(yy * 0.07) * 15)[..., None]
    return np.clip(image, 0, 255)


def _random_color(rng: np.random.Generator) -> tuple[float, float, float]:
    if rng.random() < 0.5:  # saturated, cube-like colours on purpose
        hsv = np.uint8([[[rng.integers(180), rng.integers(120, 256), rng.integers(80, 256)]]])
        return tuple(float(c) for c in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])
    return tuple(float(c) for c in rng.uniform(0, 255, 3))


def _draw_clutter(image: np.ndarray, rng: np.random.Generator, count: int) -> None:
    """Coloured objects: boxes, discs, blobs, pens and text-like strokes."""
    height, width = image.shape[:2]
    scale = min(width, height)
    for _ in range(count):
        color = _random_color(rng)
        kind = rng.integers(5)
        cx, cy = rng.uniform(0, width), rng.uniform(0, height)
        r = rng.uniform(0.03, 0.3) * scale
        if kind == 0:
            box = cv2.boxPoints(((cx, cy), (r * rng.uniform(0.5, 2), r), rng.uniform(0, 180)))
            _fill(image, [box], color)
        elif kind == 1:
            _fill(image, [_disc(cx, cy, r / 2)], color)
        elif kind == 2:
            angles = np.sort(rng.uniform(0, 2 * np.pi, 7))
            radii = r * rng.uniform(0.4, 1.0, 7)
            poly = np.stack([cx + radii * np.cos(angles), cy + radii * np.sin(angles)], 1)
            _fill(image, [poly], color)
        elif kind == 3:
            end = np.array([cx, cy]) + rng.uniform(-1, 1, 2) * r * 2
            _fill(image, [_stroke(np.array([cx, cy]), end, max(1.0, r / 8))], color)
        else:
            text = "".join(rng.choice(list("abcdefghijklmnopqrstuvwxyz0123456789 "), 12))
            # putText only draws on 8-bit images: draw a mask, then paint through it.
            mask = np.zeros(image.shape[:2], np.uint8)
            cv2.putText(
                mask,
                text,
                (int(cx), int(cy)),
                cv2.FONT_HERSHEY_SIMPLEX,
                r / 60,
                255,
                max(1, int(r / 40)),
                cv2.LINE_AA,
            )
            alpha = (mask.astype(np.float32) / 255.0)[..., None]
            image *= 1 - alpha
            image += alpha * np.array(color, np.float32)


def _perspective_grid(
    image: np.ndarray,
    rng: np.random.Generator,
    cols: int,
    rows: int,
    cell_color,
    gap: float,
    gap_color,
    stagger: float = 0.0,
    cover: float = 1.0,
) -> None:
    """A tilted planar grid of cells (checkerboard, tiles, keyboard keys) drawn in perspective."""
    height, width = image.shape[:2]
    src = np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float32)
    extent = cover * max(width, height)
    cx, cy = rng.uniform(0.2, 0.8) * width, rng.uniform(0.2, 0.8) * height
    angle = rng.uniform(0, 2 * np.pi)
    aspect = rows / cols
    half = np.array([[-1, -aspect], [1, -aspect], [1, aspect], [-1, aspect]]) * extent / 2
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    dst = (half @ rot.T) * rng.uniform(0.75, 1.0, (4, 1)) + [cx, cy]
    homography = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    backing = _warp(src, homography)
    _fill(image, [backing], gap_color)
    for r in range(rows):
        offset = stagger * (r % 3)
        for c in range(cols):
            x0, y0 = c + gap / 2 + offset, r + gap / 2
            cell = np.array([[x0, y0], [x0 + 1 - gap, y0], [x0 + 1 - gap, y0 + 1 - gap]])
            cell = np.vstack([cell, [[x0, y0 + 1 - gap]]])
            color = cell_color(r, c)
            if color is not None:
                _fill(image, [_warp(cell, homography)], color)


def _draw_negative_objects(image: np.ndarray, rng: np.random.Generator) -> None:
    """Grids a cube detector must not take for a cube face."""
    kind = rng.integers(4)
    dark = tuple(float(x) for x in rng.uniform(0, 50, 3))
    light = tuple(float(x) for x in rng.uniform(180, 255, 3))
    if kind == 0:  # checkerboard / chessboard
        n = int(rng.integers(6, 10))
        _perspective_grid(
            image,
            rng,
            n,
            n,
            lambda r, c: dark if (r + c) % 2 else light,
            0.0,
            dark,
            cover=rng.uniform(0.4, 1.2),
        )
    elif kind == 1:  # tiled floor / wall, plain or coloured tiles, grout lines
        n = int(rng.integers(9, 16))
        tile = _random_color(rng)
        colors = [_random_color(rng) for _ in range(3)]
        mixed = rng.random() < 0.5
        _perspective_grid(
            image,
            rng,
            n,
            n,
            lambda r, c: colors[(r * 7 + c * 3) % 3] if mixed else tile,
            rng.uniform(0.04, 0.12),
            tuple(float(x) for x in rng.uniform(60, 200, 3)),
            cover=rng.uniform(1.2, 2.0),
        )
    elif kind == 2:  # keyboard: staggered rows of keys
        _perspective_grid(
            image,
            rng,
            14,
            5,
            lambda r, c: light if rng.random() < 0.8 else dark,
            0.15,
            dark,
            stagger=0.3,
            cover=rng.uniform(0.5, 1.0),
        )
    else:  # coloured squares scattered without a lattice (stickers, post-its, game tiles)
        height, width = image.shape[:2]
        side = rng.uniform(0.04, 0.12) * min(width, height)
        for _ in range(int(rng.integers(5, 16))):
            box = cv2.boxPoints(
                ((rng.uniform(0, width), rng.uniform(0, height)), (side, side), rng.uniform(0, 90))
            )
            _fill(image, [box], _random_color(rng))
    _draw_clutter(image, rng, count=int(rng.integers(2, 8)))


def _finger_polygon(tip: np.ndarray, direction: float, width: float, length: float) -> np.ndarray:
    """A capsule (finger) with its rounded tip at ``tip``; the hand lies along ``direction``."""
    d = np.array([np.cos(np.radians(direction)), np.sin(np.radians(direction))])
    n = np.array([-d[1], d[0]])
    r = width / 2
    center = tip + d * r
    arc = np.linspace(-np.pi / 2, np.pi / 2, 9)
    tip_arc = center + r * (-np.cos(arc)[:, None] * d + np.sin(arc)[:, None] * n)
    base = center + d * length
    return np.vstack([tip_arc, base + n * r, base - n * r])


def render_scene(spec: SceneSpec) -> tuple[np.ndarray, SceneTruth]:
    """Render a scene and its ground truth.

    Parameters
    ----------
    spec
        The scene description (see :func:`random_scene_spec`).

    Returns
    -------
    tuple
        ``(image, truth)``: a ``(height, width, 3)`` uint8 BGR image and a
        :class:`SceneTruth`.

    Examples
    --------
    >>> spec = random_scene_spec(np.random.default_rng(0), 3, resolution=(320, 240))
    >>> image, truth = render_scene(spec)
    >>> image.shape, truth.centers[truth.front_face].shape
    ((240, 320, 3), (3, 3, 2))
    """
    n = spec.size
    rotation = np.array(spec.rotation)
    center = np.array(spec.center)
    image = render_background(spec.background_seed, spec.width, spec.height)
    palette = PALETTES[spec.palette]
    light_dir = np.array(spec.light_dir, float)
    light_dir /= np.linalg.norm(light_dir)

    facing = []
    for face in FACE_ORDER:
        normal_cam = rotation @ face_normal(face).astype(float)
        face_center = rotation @ (face_normal(face).astype(float) * n / 2) + center
        to_camera = -face_center / np.linalg.norm(face_center)
        cosine = float(normal_cam @ to_camera)
        if cosine > 1e-3:
            facing.append((cosine, face, normal_cam))
    facing.sort(reverse=True)

    centers: dict[str, np.ndarray] = {}
    corners: dict[str, np.ndarray] = {}
    colors: dict[str, str] = {}
    homographies: dict[str, np.ndarray] = {}
    plastic = np.array([18.0, 18.0, 20.0])
    offsets = np.arange(n) + 0.5
    for cosine, face, normal_cam in facing:
        homography, quad = _face_homography(face, spec)
        homographies[face] = homography
        corners[face] = quad
        grid = np.stack(np.meshgrid(offsets, offsets), axis=-1)  # (row, col) -> (u, v)
        centers[face] = _warp(grid.reshape(-1, 2), homography).reshape(n, n, 2)
        start = FACE_ORDER.index(face) * n * n
        colors[face] = spec.colors[start : start + n * n]
        shade = 0.55 + 0.45 * max(0.0, float(normal_cam @ -light_dir)) + 0.1 * cosine
        _fill(image, [quad], plastic * (0.6 + 0.4 * shade))
        inset = spec.gap / 2
        for index, letter in enumerate(colors[face]):
            row, col = divmod(index, n)
            radius = spec.corner_radius * (1 - spec.gap) if spec.style == "stickered" else 0.04
            poly = _rounded_square(
                col + inset, row + inset, col + 1 - inset, row + 1 - inset, radius
            )
            tone = np.array(palette[letter], float) * shade
            _fill(image, [_warp(poly, homography)], np.clip(tone, 0, 255))

    occluded = np.zeros((n, n), bool)
    glared = np.zeros((n, n), bool)
    front = facing[0][1]
    front_h = homographies[front]
    uv_centers = np.stack(np.meshgrid(offsets, offsets), axis=-1)

    if spec.glare is not None:
        u, v, radius, strength = spec.glare
        glare_center = _warp(np.array([[u, v]]), front_h)[0]
        edge = _warp(np.array([[u + radius, v]]), front_h)[0]
        pixel_radius = max(2.0, float(np.linalg.norm(edge - glare_center)))
        yy, xx = np.mgrid[0 : spec.height, 0 : spec.width].astype(np.float32)
        d2 = (xx - glare_center[0]) ** 2 + (yy - glare_center[1]) ** 2
        image += (np.exp(-d2 / (2 * (0.6 * pixel_radius) ** 2)) * 230 * strength)[..., None]
        glared = np.hypot(uv_centers[..., 0] - u, uv_centers[..., 1] - v) < radius + 0.5

    if spec.occluder is not None:
        u, v, angle, finger_width, skin = spec.occluder
        poly_uv = _finger_polygon(np.array([u, v]), angle, finger_width, length=3.0 * n)
        poly = _warp(poly_uv, front_h)
        skin_bgr = np.array(SKIN_BGR[skin], float)
        _fill(image, [poly], skin_bgr)
        nail = _finger_polygon(np.array([u, v]), angle, finger_width * 0.6, 0.35)
        nail = nail + np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))]) * 0.05
        _fill(image, [_warp(nail, front_h)], np.clip(skin_bgr * 1.12 + 10, 0, 255))
        mask = np.zeros((n * 8, n * 8), np.uint8)
        cv2.fillPoly(mask, [np.round(poly_uv * 8).astype(np.int32)], 1)
        cover = cv2.resize(mask.astype(np.float32), (n, n), interpolation=cv2.INTER_AREA)
        occluded = cover > 0.04

    out = _finish(image, spec)

    truth = SceneTruth(
        size=n,
        front_face=front,
        visible_faces=tuple(f for _, f, _ in facing),
        centers=centers,
        corners=corners,
        colors=colors,
        occluded=occluded,
        glared=glared,
        front_tilt_deg=float(np.degrees(np.arccos(np.clip(facing[0][0], -1, 1)))),
    )
    return out, truth


def render_clutter(
    rng: np.random.Generator, resolution: tuple[int, int] | None = None
) -> np.ndarray:
    """A scene with no cube: clutter, and usually a checkerboard, tiles or a keyboard.

    Parameters
    ----------
    rng
        Random generator.
    resolution
        ``(width, height)`` or None for a random one of :data:`RESOLUTIONS`.

    Returns
    -------
    numpy.ndarray
        uint8 BGR image.

    Examples
    --------
    >>> render_clutter(np.random.default_rng(0), (320, 240)).shape
    (240, 320, 3)
    """
    width, height = resolution if resolution else RESOLUTIONS[rng.integers(len(RESOLUTIONS))]
    kind = "negative" if rng.random() < 0.8 else "clutter"
    image = render_background(int(rng.integers(2**31)), width, height, kind)
    spec = SceneSpec(
        size=2,
        colors="W" * 24,
        width=width,
        height=height,
        rotation=((1, 0, 0), (0, 1, 0), (0, 0, 1)),
        center=(0, 0, 1),
        focal=1.0,
        light=SCENE_LIGHTS[rng.integers(len(SCENE_LIGHTS))],
        blur=float(rng.choice([0.0, 0.7, 1.4])),
        noise=float(rng.uniform(1, 5)),
        jpeg_quality=int(rng.choice([0, 60, 90])),
        background_seed=int(rng.integers(2**31)),
    )
    return _finish(image, spec)


def seeded_clutter(seed: int) -> np.ndarray:
    """The no-cube scene of one seed, at a small resolution: 320x240 for odd seeds, 640x480
    for even ones (where false faces are commonest). The negatives test and
    ``benchmarks/eval_detect.py --clutter-seeds`` draw their scenes with it.

    Parameters
    ----------
    seed
        Seed of the scene.

    Returns
    -------
    numpy.ndarray
        uint8 BGR image.

    Examples
    --------
    >>> seeded_clutter(7).shape, seeded_clutter(8).shape
    ((240, 320, 3), (480, 640, 3))
    """
    resolution = (320, 240) if seed % 2 else (640, 480)
    return render_clutter(np.random.default_rng(seed), resolution)


def _finish(image: np.ndarray, spec: SceneSpec) -> np.ndarray:
    """Lighting, blur, noise and JPEG round trip."""
    image = image * _light_gain(spec.light)
    if spec.blur > 0:
        image = cv2.GaussianBlur(image, (0, 0), spec.blur)
    noise_rng = np.random.default_rng(spec.background_seed ^ 0x5EED)
    image = image + noise_rng.normal(0, spec.noise, image.shape)
    out = np.clip(image, 0, 255).astype(np.uint8)
    if spec.jpeg_quality:
        _, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, spec.jpeg_quality])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


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
