"""Synthetic cube scenes with exact ground truth: the renderer.

The renderer draws a whole N x N x N cube (any N from 2 to 7) as a 3-D object seen through a
pinhole camera, so one call can show a single face almost head-on (the other faces at grazing
angles, as in a real photo) or a corner view with three faces. Everything a test needs is
returned beside the image: which faces are visible, the image position of every sticker center
and every face corner, and which cells are occluded or under a glare spot.

* :mod:`cubescan.synth.specs` - what a scene shows (:class:`~cubescan.synth.specs.SceneSpec`,
  drawn at random by :func:`~cubescan.synth.specs.random_scene_spec`).
* :func:`render_scene` - spec in, ``(image, SceneTruth)`` out.
* :func:`render_clutter` - a scene with no cube (clutter, checkerboards, tiles, keyboards),
  drawn by :mod:`cubescan.synth.backgrounds`.
* :mod:`cubescan.synth.raster` - shapes painted as a camera's pixels see them.
"""

from __future__ import annotations

import cv2
import numpy as np

from cubescan.solver.geometry import face_normal
from cubescan.synth.backgrounds import render_background
from cubescan.synth.raster import fill_polygons, rounded_square, warp_points
from cubescan.synth.specs import (
    FACE_ORDER,
    PALETTES,
    RESOLUTIONS,
    SCENE_LIGHTS,
    SKIN_BGR,
    SceneSpec,
    SceneTruth,
    face_frame,
)


def _project(points: np.ndarray, spec: SceneSpec) -> np.ndarray:
    cam = points @ np.array(spec.rotation).T + np.array(spec.center)
    z = np.maximum(cam[:, 2:3], 1e-6)
    return cam[:, :2] / z * spec.focal + np.array([spec.width / 2.0, spec.height / 2.0])


def _face_homography(face: str, spec: SceneSpec) -> tuple[np.ndarray, np.ndarray]:
    """Homography from a face's net coordinates (u right, v down, 0..N) to image pixels."""
    n = spec.size
    right, up, normal = face_frame(face)
    uv = np.array([[0, 0], [n, 0], [n, n], [0, n]], float)
    pts3 = normal * n / 2 + (uv[:, :1] - n / 2) * right + (n / 2 - uv[:, 1:]) * up
    image_pts = _project(pts3, spec)
    return cv2.getPerspectiveTransform(uv.astype(np.float32), image_pts.astype(np.float32)), (
        image_pts
    )


def _light_gain(light: str) -> np.ndarray:
    return {
        "neutral": np.array([1.0, 1.0, 1.0]),
        "warm": np.array([0.72, 0.92, 1.08]),
        "cool": np.array([1.1, 0.98, 0.8]),
        "dim": np.array([0.42, 0.42, 0.45]),
    }[light]


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
    >>> from cubescan.synth.specs import random_scene_spec
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
        centers[face] = warp_points(grid.reshape(-1, 2), homography).reshape(n, n, 2)
        start = FACE_ORDER.index(face) * n * n
        colors[face] = spec.colors[start : start + n * n]
        shade = 0.55 + 0.45 * max(0.0, float(normal_cam @ -light_dir)) + 0.1 * cosine
        fill_polygons(image, [quad], plastic * (0.6 + 0.4 * shade))
        inset = spec.gap / 2
        for index, letter in enumerate(colors[face]):
            row, col = divmod(index, n)
            radius = spec.corner_radius * (1 - spec.gap) if spec.style == "stickered" else 0.04
            poly = rounded_square(
                col + inset, row + inset, col + 1 - inset, row + 1 - inset, radius
            )
            tone = np.array(palette[letter], float) * shade
            fill_polygons(image, [warp_points(poly, homography)], np.clip(tone, 0, 255))

    occluded = np.zeros((n, n), bool)
    glared = np.zeros((n, n), bool)
    front = facing[0][1]
    front_h = homographies[front]
    uv_centers = np.stack(np.meshgrid(offsets, offsets), axis=-1)

    if spec.glare is not None:
        u, v, radius, strength = spec.glare
        glare_center = warp_points(np.array([[u, v]]), front_h)[0]
        edge = warp_points(np.array([[u + radius, v]]), front_h)[0]
        pixel_radius = max(2.0, float(np.linalg.norm(edge - glare_center)))
        yy, xx = np.mgrid[0 : spec.height, 0 : spec.width].astype(np.float32)
        d2 = (xx - glare_center[0]) ** 2 + (yy - glare_center[1]) ** 2
        image += (np.exp(-d2 / (2 * (0.6 * pixel_radius) ** 2)) * 230 * strength)[..., None]
        glared = np.hypot(uv_centers[..., 0] - u, uv_centers[..., 1] - v) < radius + 0.5

    if spec.occluder is not None:
        u, v, angle, finger_width, skin = spec.occluder
        poly_uv = _finger_polygon(np.array([u, v]), angle, finger_width, length=3.0 * n)
        poly = warp_points(poly_uv, front_h)
        skin_bgr = np.array(SKIN_BGR[skin], float)
        fill_polygons(image, [poly], skin_bgr)
        nail = _finger_polygon(np.array([u, v]), angle, finger_width * 0.6, 0.35)
        nail = nail + np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))]) * 0.05
        fill_polygons(image, [warp_points(nail, front_h)], np.clip(skin_bgr * 1.12 + 10, 0, 255))
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


def square_stickers_frame() -> np.ndarray:
    """The documentation's face: a 3x3 of flat square stickers on a dark 320x240 frame.

    Stickers are 34 px squares at a 40 px pitch, the face's top-left sticker at (100, 60);
    each has its own colour, green-heavy, so every one is distinct and none is grey. The
    examples of the grid stages detect it and take it apart.

    Returns
    -------
    numpy.ndarray
        uint8 BGR, shape ``(240, 320, 3)``.

    Examples
    --------
    >>> frame = square_stickers_frame()
    >>> frame.shape, frame[0, 0].tolist(), frame[77, 117].tolist()
    ((240, 320, 3), [20, 20, 20], [60, 200, 60])
    """
    frame = np.full((240, 320, 3), 20, np.uint8)
    for r in range(3):
        for c in range(3):
            top_left = (100 + 40 * c, 60 + 40 * r)
            bottom_right = (134 + 40 * c, 94 + 40 * r)
            cv2.rectangle(frame, top_left, bottom_right, (40 * r + 60, 200, 40 * c + 60), -1)
    return frame
