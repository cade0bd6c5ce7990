"""Colour sampling on rendered faces: same sticker colour, same sample; glare rejected."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from scanner.grid import detect_grid
from scanner.sampling import sample_colors
from scanner.synth import canonical_view, random_scene_spec, render_scene


def _scene(seed: int, **changes):
    spec = random_scene_spec(np.random.default_rng(seed), 3, resolution=(640, 480), hard=False)
    spec = replace(spec, **changes)
    image, truth = render_scene(spec)
    detection = detect_grid(image, size=3)
    assert detection is not None
    # Truth colours in the detection's row order (the face may be turned in the image).
    letters = np.array(list(truth.colors[truth.front_face])).reshape(3, 3)
    _, turns = canonical_view(truth.centers[truth.front_face])
    return image, detection, np.rot90(letters, turns).ravel()


def test_same_colour_stickers_give_close_samples_and_different_ones_differ() -> None:
    for seed in (1, 2, 3):
        image, detection, letters = _scene(seed, light="neutral", blur=0.0)
        samples = sample_colors(image, detection)
        assert samples.lab.shape == (9, 3) and samples.bgr.shape == (9, 3)
        for i in range(9):
            for j in range(i + 1, 9):
                distance = np.linalg.norm(samples.lab[i] - samples.lab[j])
                if letters[i] == letters[j]:
                    assert distance < 8, (seed, i, j, distance)
                else:
                    assert distance > 10, (seed, i, j, distance)


def test_clean_cells_have_a_small_spread() -> None:
    image, detection, _ = _scene(4, blur=0.0)
    samples = sample_colors(image, detection)
    assert np.all(samples.spread < 6)


def test_a_glare_spot_does_not_wash_out_the_sample() -> None:
    # A small highlight on the centre sticker, off its middle (as on a glossy sticker).
    image, detection, _ = _scene(5, glare=(1.38, 1.4, 0.2, 0.9), light="neutral")
    clean, clean_detection, _ = _scene(5, light="neutral")
    glared = sample_colors(image, detection).lab[4]
    reference = sample_colors(clean, clean_detection).lab[4]
    assert np.linalg.norm(glared - reference) < 15


def test_cells_outside_the_frame_are_nan() -> None:
    image, detection, _ = _scene(6)
    shifted = replace(detection, cells=detection.cells - 5000.0)
    samples = sample_colors(image, shifted)
    assert np.isnan(samples.lab).all() and np.isinf(samples.spread).all()
