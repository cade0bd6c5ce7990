"""Colour sampling on rendered faces: same sticker colour, same sample; glare rejected."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubescan.calibration.colorspace import bgr_to_lab
from cubescan.scanner.grid import detect_grid
from cubescan.scanner.sampling import patch_points, robust_colors, sample_cells, sample_colors
from cubescan.synth.scenes import render_scene
from cubescan.synth.specs import canonical_view, random_scene_spec


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


def test_same_color_stickers_give_close_samples_and_different_ones_differ() -> None:
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


def _reference_color(lab: np.ndarray) -> tuple[np.ndarray, float]:
    """The sampling rule written plainly in NumPy, one patch at a time."""
    darker = lab[lab[:, 0] <= np.median(lab[:, 0])]
    reference = np.median(darker, axis=0)
    chroma = np.hypot(lab[:, 1], lab[:, 2])
    glare = (lab[:, 0] > reference[0] + 12) & (chroma < 0.6 * np.hypot(*reference[1:]))
    kept = lab[~glare] if (~glare).sum() >= max(3, len(lab) // 4) else lab
    distance = np.linalg.norm(kept - np.median(kept, axis=0), axis=1)
    sample = np.median(kept[distance <= np.percentile(distance, 75)], axis=0)
    return sample, float(np.median(np.linalg.norm(kept - sample, axis=1)))


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    points=st.integers(3, 150),
    glare_share=st.floats(0.0, 0.9),
)
def test_the_compiled_rule_is_the_plain_rule(seed, points, glare_share):
    # Patches of one colour with noise and a share of pale, light "glare" points; some
    # cells lose points to the frame's edge.
    rng = np.random.default_rng(seed)
    cells = 4
    color = rng.uniform([20, -60, -60], [90, 60, 60], (cells, 1, 3))
    lab = color + rng.normal(0, 3, (cells, points, 3))
    glare = rng.random((cells, points)) < glare_share
    lab[glare] = np.array([97.0, 0.0, 0.0]) + rng.normal(0, 1, (glare.sum(), 3))
    valid = rng.random((cells, points)) < 0.9
    samples, spread = robust_colors(lab, valid)
    for cell in range(cells):
        if valid[cell].sum() < 3:
            assert np.isnan(samples[cell]).all() and spread[cell] == np.inf
            continue
        expected, expected_spread = _reference_color(lab[cell][valid[cell]])
        assert np.allclose(samples[cell], expected) and np.isclose(spread[cell], expected_spread)


@given(
    corner=st.tuples(st.floats(-50, 500), st.floats(-50, 500)),
    side_a=st.tuples(st.floats(5, 80), st.floats(-30, 30)),
    side_b=st.tuples(st.floats(-30, 30), st.floats(5, 80)),
    steps=st.integers(1, 16),
)
def test_patch_points_cover_the_middle_half_of_the_cell_evenly(corner, side_a, side_b, steps):
    a, b = np.array(side_a), np.array(side_b)
    if abs(a[0] * b[1] - a[1] * b[0]) < 25:
        return  # a degenerate sliver is no cell
    origin = np.array(corner)
    cell = np.array([origin, origin + a, origin + a + b, origin + b])
    points = patch_points(cell[None], steps)[0]
    # Back to the cell's own coordinates (a parallelogram: the map is affine).
    uv = np.linalg.solve(np.stack([a, b], axis=1), (points - origin).T).T
    assert points.shape == (steps * steps, 2)
    assert np.all(uv > 0.25 - 1e-9) and np.all(uv < 0.75 + 1e-9)
    assert np.allclose(uv.mean(axis=0), 0.5)


def test_a_cell_partly_outside_the_frame_is_read_from_its_inside_part() -> None:
    image, detection, _ = _scene(7, light="neutral", blur=0.0)
    inside = sample_colors(image, detection)
    # Shift the picture so that the leftmost cells' patches hang half off the frame's left
    # edge; what is left of them, and the cells inside, read as before.
    left = detection.cells[:, :, 0].min()
    width = np.ptp(detection.cells[0, :, 0])
    shift = -round(left + 0.5 * width)
    moved_image = np.roll(image, shift, axis=1)
    moved_image[:, shift:] = 0  # what rolled round is not picture
    moved = replace(detection, cells=detection.cells + np.array([shift, 0]))
    outside = sample_colors(moved_image, moved)
    assert np.isfinite(outside.lab).all()
    assert np.linalg.norm(outside.lab - inside.lab, axis=1).max() < 4


def test_sample_cells_reads_a_shaded_box_under_a_highlight() -> None:
    # A shaded red sticker box (brightness varies across it) with a white highlight over 40%
    # of its inner patch: the highlight must not drag the sample towards white.
    rng = np.random.default_rng(0)
    shade = rng.uniform(0.4, 1.0, size=(20, 20, 1))
    image = np.round(shade * np.array([40.0, 30.0, 200.0])).astype(np.uint8)
    image[8:12, 5:15] = (250, 250, 250)
    box = np.array([[[0.0, 0.0], [20.0, 0.0], [20.0, 20.0], [0.0, 20.0]]])
    lab = sample_cells(image, box).lab[0]
    sticker = np.ones((10, 10), bool)
    sticker[3:7, :] = False  # the highlight's rows inside the inner patch (rows 5..14)
    truth = np.median(bgr_to_lab(image[5:15, 5:15][sticker]), axis=0)
    assert np.linalg.norm(lab - truth) < 3.0


def _box_image(sticker_bgr, size: int = 40) -> tuple[np.ndarray, np.ndarray]:
    """A sticker filling a ``size`` pixel box, with a gentle shading; the box as a cell."""
    shade = np.linspace(0.85, 1.0, size)[:, None, None]
    image = np.round(shade * np.array(sticker_bgr, float)).astype(np.uint8)
    image = np.repeat(image, size, axis=1)
    box = np.array([[[0.0, 0.0], [size, 0.0], [size, size], [0.0, size]]])
    return image, box


def test_a_highlight_flooding_the_inner_patch_is_read_from_the_unglared_part() -> None:
    # A blue sticker whose whole middle (and more) is under a highlight that adds a grey
    # light: the inner patch reads a pale sky blue; the sticker's blue shows around it.
    image, box = _box_image((200, 90, 20))
    blue = bgr_to_lab(image[36:38, 2:38].reshape(-1, 3)).mean(axis=0)
    yy, xx = np.mgrid[:40, :40]
    highlight = np.clip(1.2 - np.hypot(yy - 17.0, xx - 17.0) / 16.0, 0.0, 1.0)[..., None]
    glared = image + highlight * (235.0 - image) * 0.85
    image = np.round(glared).astype(np.uint8)
    inner = bgr_to_lab(image[10:30, 10:30].reshape(-1, 3))
    assert np.hypot(*np.median(inner, axis=0)[1:]) < 0.6 * np.hypot(*blue[1:])  # washed out
    samples = sample_cells(image, box)
    lab = samples.lab[0]
    hue = np.degrees(np.arctan2(lab[2], lab[1]) - np.arctan2(blue[2], blue[1]))
    assert abs((hue + 180) % 360 - 180) < 10
    assert np.hypot(*lab[1:]) > 0.75 * np.hypot(*blue[1:])
    assert samples.spread[0] > 15  # read from little: flagged by a large spread


@pytest.mark.parametrize(
    ("sticker", "neighbour"),
    [((235, 220, 205), (200, 90, 20)), ((200, 225, 240), (20, 100, 230))],
    ids=["white-in-cool-light-beside-blue", "white-in-warm-light-beside-orange"],
)
def test_a_tinted_white_beside_a_neighbour_of_its_tint_stays_white(sticker, neighbour) -> None:
    # A misplaced box takes in a strip of the neighbouring sticker, whose hue is the white's
    # tint: that neighbour is not this sticker seen without glare, and the white stays white.
    image, box = _box_image(sticker)
    image[:, :7] = neighbour
    clean, _ = _box_image(sticker)
    lab = sample_cells(image, box).lab[0]
    assert np.linalg.norm(lab - sample_cells(clean, box).lab[0]) < 3


def clipped_sticker(rim_bgr: tuple[int, int, int]) -> np.ndarray:
    """A 40 px sticker on black, overexposed to near white in the middle, ``rim_bgr`` where
    the blur towards the gap keeps it under the clip."""
    frame = np.zeros((60, 60, 3), np.uint8)
    frame[10:50, 10:50] = rim_bgr
    frame[14:46, 14:46] = (247, 252, 250)
    return frame


def test_a_sticker_clipped_to_white_takes_a_hint_of_its_rims_warm_hue():
    # A pale yellow and a white, clipped alike in the middle: only the rim tells them apart.
    # A white's rim shows the lens's bluish fringe, which is no colour of the sticker.
    box = np.array([[[10.0, 10.0], [50.0, 10.0], [50.0, 50.0], [10.0, 50.0]]])
    middle = bgr_to_lab(np.array([247, 252, 250], np.uint8))
    yellow = sample_cells(clipped_sticker((120, 190, 200)), box).lab[0]
    blue_rim = sample_cells(clipped_sticker((215, 185, 170)), box).lab[0]
    assert yellow[0] == pytest.approx(middle[0]) and yellow[2] > 3.0
    assert np.hypot(yellow[1], yellow[2]) == pytest.approx(4.0)
    assert blue_rim == pytest.approx(middle)


def test_a_clipped_colour_and_an_unclipped_white_keep_their_samples():
    box = np.array([[[10.0, 10.0], [50.0, 10.0], [50.0, 50.0], [10.0, 50.0]]])
    frame = clipped_sticker((120, 190, 200))
    frame[14:46, 14:46] = (60, 230, 255)  # a yellow clipped in red only: still yellow
    assert sample_cells(frame, box).lab[0][2] == pytest.approx(bgr_to_lab(frame[30, 30])[2])
    frame[14:46, 14:46] = (200, 205, 200)  # a white under the clip
    assert sample_cells(frame, box).lab[0] == pytest.approx(bgr_to_lab(frame[30, 30]))
