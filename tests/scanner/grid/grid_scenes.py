"""Scene builders several grid test files share."""

from __future__ import annotations

import importlib
import pkgutil

import cv2
import numpy as np
import pytest

import cubescan.scanner.grid as grid_package
from cubescan.scanner.grid.regions import Regions
from cubescan.synth.scenes import render_scene
from cubescan.synth.specs import random_scene_spec


def matches(detection, truth, tolerance: float = 0.25) -> bool:
    n = truth.centers[truth.front_face].shape[0]
    if detection is None or detection.size != n:
        return False
    found = np.asarray(detection.centers).reshape(n, n, 2)
    return truth.quarter_turns(found, tolerance) is not None


def drawn_face(
    colors: list[list[tuple[int, int, int]]],
    cell: int,
    gap: int,
    margin: int,
    table: tuple[int, int, int] = (120, 120, 120),
):
    """A flat face drawn on a plain table (grey unless ``table`` is given): cells of
    ``cell`` px with ``gap`` px black seams."""
    n = len(colors)
    side = n * cell + 2 * margin
    image = np.full((side, side, 3), table, np.uint8)
    for row in range(n):
        for col in range(n):
            x, y = margin + col * cell, margin + row * cell
            image[y : y + cell, x : x + cell] = 20
            image[y + gap : y + cell - gap, x + gap : x + cell - gap] = colors[row][col]
    return image


RED, BLUE, GREEN, YELLOW, ORANGE, WHITE = (
    (40, 40, 200), (170, 80, 20), (40, 160, 40), (40, 210, 230), (30, 130, 240),
    (230, 230, 230),
)  # fmt: skip


#: A stickered 3x3 with six colours, no two neighbours alike.
MIXED_FACE = [
    [RED, WHITE, GREEN],
    [BLUE, YELLOW, ORANGE],
    [GREEN, RED, WHITE],
]


def seamless_3x3(colors, cell: int) -> tuple[np.ndarray, np.ndarray]:
    """A stickerless 3x3 with no seams, framed by a thin dark edge; and its corners."""
    margin = 2 * cell
    image = drawn_face(colors, cell=cell, gap=0, margin=margin)
    cv2.rectangle(image, (margin - 2, margin - 2), (margin + 3 * cell + 1,) * 2, (25, 25, 25), 3)
    return image, np.array([[0, 0], [3, 0], [3, 3], [0, 3]]) * cell + margin


def sticker_on_plastic(
    image: np.ndarray, x: int, y: int, color, plastic: int, inset: int = 3
) -> None:
    """Paint a 40 px cell at (x, y): grey-level ``plastic`` with a ``color`` sticker
    ``inset`` px in."""
    image[y : y + 40, x : x + 40] = plastic
    image[y + inset : y + 40 - inset, x + inset : x + 40 - inset] = color


def eval_detect_scene(index: int, seed: int = 2024):
    """Scene ``index`` of ``benchmarks/eval_detect.py``'s rendered set (``--seed``, 2024 by
    default; N cycling 2..5): its image and truth."""
    rng = np.random.default_rng(seed)
    for drawn in range(index + 1):
        spec = random_scene_spec(rng, [2, 3, 4, 5][drawn % 4])
    return render_scene(spec)


def squares_on_cells(cells: list[tuple[int, int]]) -> Regions:
    """Regions of 32 px squares on the cells of a 40 px lattice, cell (0, 0) at (20, 20)."""
    count = len(cells)
    return Regions(
        20.0 + 40.0 * np.array(cells, float),
        np.full(count, 32.0**2),
        np.tile(np.eye(2) / 32.0, (count, 1, 1)),
        np.full(count, 34.0),
        np.ones(count),
        np.zeros((0, 2)),
        np.zeros((0, 2, 2)),
    )


def patch_grid(monkeypatch: pytest.MonkeyPatch, name: str, value: object) -> None:
    """Set ``name`` to ``value`` in every module of the grid package that holds it, as
    ``monkeypatch.setattr`` did in the one module that held them all before the split."""
    for info in pkgutil.iter_modules(grid_package.__path__, f"{grid_package.__name__}."):
        module = importlib.import_module(info.name)
        if hasattr(module, name):
            monkeypatch.setattr(module, name, value)
