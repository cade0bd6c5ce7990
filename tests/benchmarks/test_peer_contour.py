"""The contour-based peer of ``benchmarks/peer_contour.py``: what the detection benchmarks
compare ``detect_grid`` with must work where its method works, or the comparison is empty."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from cubescan.scanner.grid import detect_grid
from cubescan.synth.scenes import render_scene
from cubescan.synth.specs import random_scene_spec

_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "peer_contour.py"
_SPEC = importlib.util.spec_from_file_location("peer_contour", _PATH)
peer = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(peer)


def _frontal_scene(seed: int, scale: float):
    """A 3x3 face turned at most 5 degrees, with no occluder, glare or blur, its width
    ``scale`` of the 640x480 frame's height (0.28: stickers about 40 px wide)."""
    spec = random_scene_spec(
        np.random.default_rng(seed),
        3,
        resolution=(640, 480),
        hard=False,
        max_tilt_deg=5.0,
        scale_range=(scale, scale),
    )
    image, truth = render_scene(spec)
    return image, truth.centers[truth.front_face]


@pytest.mark.parametrize("seed", [1, 3, 8, 10])
def test_the_peer_reads_a_frontal_face_inside_its_sticker_size_window(seed):
    image, truth = _frontal_scene(seed, 0.28)
    centers = peer.contour_face(image)
    assert centers is not None and centers.shape == (3, 3, 2)
    assert peer.same_stickers(centers, truth, 0.25)
    # The same face held closer, stickers about 120 px wide: outside the peer's window, and
    # still found by detect_grid.
    image, truth = _frontal_scene(seed, 0.8)
    assert peer.contour_face(image) is None
    face = detect_grid(image)
    assert face is not None and peer.same_stickers(face.centers, truth, 0.25)


def test_same_stickers_matches_centers_one_to_one_in_any_order():
    grid = np.stack(np.meshgrid([0.0, 10, 20], [0.0, 10, 20]), axis=-1)
    shuffled = grid.reshape(-1, 2)[np.random.default_rng(0).permutation(9)]
    assert peer.same_stickers(shuffled, grid, 0.25)
    off = shuffled.copy()
    off[4] += 3.0  # 0.3 of a pitch away
    assert not peer.same_stickers(off, grid, 0.25)
    twice = shuffled.copy()
    twice[0] = twice[1] + 0.5  # one true sticker matched twice, another not at all
    assert not peer.same_stickers(twice, grid, 0.25)
    assert not peer.same_stickers(shuffled[:8], grid, 0.25)
