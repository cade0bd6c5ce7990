"""Backgrounds for synthetic scenes: textured clutter, and the things a face detector must
not take for a cube (checkerboards, tiles, keyboards, objects on a lattice).

A background is a pure function of its seed, so a video's background stays still.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from cubescan.synth.raster import disc, fill_polygons, stroke, warp_points


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
            fill_polygons(image, [box], color)
        elif kind == 1:
            fill_polygons(image, [disc(cx, cy, r / 2)], color)
        elif kind == 2:
            angles = np.sort(rng.uniform(0, 2 * np.pi, 7))
            radii = r * rng.uniform(0.4, 1.0, 7)
            poly = np.stack([cx + radii * np.cos(angles), cy + radii * np.sin(angles)], 1)
            fill_polygons(image, [poly], color)
        elif kind == 3:
            end = np.array([cx, cy]) + rng.uniform(-1, 1, 2) * r * 2
            fill_polygons(image, [stroke(np.array([cx, cy]), end, max(1.0, r / 8))], color)
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
    backing = warp_points(src, homography)
    fill_polygons(image, [backing], gap_color)
    for r in range(rows):
        offset = stagger * (r % 3)
        for c in range(cols):
            x0, y0 = c + gap / 2 + offset, r + gap / 2
            cell = np.array([[x0, y0], [x0 + 1 - gap, y0], [x0 + 1 - gap, y0 + 1 - gap]])
            cell = np.vstack([cell, [[x0, y0 + 1 - gap]]])
            color = cell_color(r, c)
            if color is not None:
                fill_polygons(image, [warp_points(cell, homography)], color)


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
            fill_polygons(image, [box], _random_color(rng))
    _draw_clutter(image, rng, count=int(rng.integers(2, 8)))
