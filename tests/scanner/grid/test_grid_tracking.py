"""Tracking: a face followed from the previous frame, and when it is not."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from grid_scenes import matches, patch_grid

from cubescan.scanner.grid import detect_grid
from cubescan.scanner.grid.face import cell_width
from cubescan.scanner.grid.params import INFERRED_CONFIDENCE
from cubescan.scanner.grid.tracking import track
from cubescan.synth.scenes import render_clutter, render_scene
from cubescan.synth.specs import random_scene_spec


def test_tracking_path_follows_a_moving_face() -> None:
    spec = random_scene_spec(np.random.default_rng(21), 3, resolution=(640, 480), hard=False)
    image, truth = render_scene(spec)
    first = detect_grid(image)
    assert first is not None
    tracked = detect_grid(image, size=3, previous=first)
    assert matches(tracked, truth)


@pytest.mark.parametrize(("seed", "size"), [(31, 3), (32, 2), (33, 4), (34, 5)])
def test_tracking_follows_a_face_that_moved_in_a_full_hd_frame(seed, size) -> None:
    # Large stickers in a 1920x1080 frame: the tracking crop is shrunk by a whole factor
    # (the mean of each block: see shrunk), from the last frame's face moved by 20 px.
    spec = random_scene_spec(np.random.default_rng(seed), size, resolution=(1920, 1080))
    image, truth = render_scene(spec)
    first = detect_grid(image)
    assert matches(first, truth)
    moved = _moved(first, np.array([20.0, -12.0]))
    assert matches(track(image, size, moved), truth)  # found by tracking, not cold


def _moved(detection, shift: np.ndarray):
    """The detection of a face ``shift`` px (x, y) away: where the last frame saw it, when
    the face moved by -``shift`` since."""
    to_shifted = np.array([[1, 0, shift[0]], [0, 1, shift[1]], [0, 0, 1.0]])
    return dataclasses.replace(
        detection,
        quad=detection.quad + shift,
        centers=detection.centers + shift,
        cells=detection.cells + shift,
        homography=to_shifted @ detection.homography,
    )


@pytest.mark.parametrize(("seed", "size"), [(41, 2), (42, 3), (43, 4), (44, 5)])
def test_a_face_that_moved_a_little_is_followed_without_a_search(seed, size, monkeypatch):
    # A fifth of a pitch since the last frame: its grid refitted to the stickers where it
    # predicts them is the face, with no lattice searched (the search is switched off).
    spec = random_scene_spec(np.random.default_rng(seed), size, resolution=(640, 480), hard=False)
    image, truth = render_scene(spec)
    first = detect_grid(image)
    assert matches(first, truth)
    patch_grid(monkeypatch, "detect_scaled", lambda *args, **kwargs: [])
    pitch = cell_width(first.centers)
    followed = track(image, size, _moved(first, np.array([0.2, -0.1]) * pitch))
    assert matches(followed, truth)
    np.testing.assert_allclose(followed.centers, first.centers, atol=0.1 * pitch)


@pytest.mark.parametrize("seed", [19, 27, 32])
def test_a_2x2_with_a_sticker_unseen_is_followed_on_its_other_three(seed, monkeypatch) -> None:
    # Glare or a finger leaves one of a 2x2's four stickers without a region: the three seen
    # hold as a face's (as a cold 2x2's must), so it is followed, its fourth cell inferred
    # (a flat one: confidence INFERRED_CONFIDENCE).
    spec = random_scene_spec(np.random.default_rng(seed), 2, resolution=(640, 480))
    image, truth = render_scene(spec)
    first = detect_grid(image)
    assert matches(first, truth)
    patch_grid(monkeypatch, "detect_scaled", lambda *args, **kwargs: [])
    followed = track(image, 2, first)
    assert matches(followed, truth)
    assert np.isclose(followed.confidence, INFERRED_CONFIDENCE).sum() == 1


def test_a_face_that_moved_a_whole_pitch_is_not_followed_one_row_off(monkeypatch) -> None:
    # Moved one pitch along its columns since the last frame, the old grid lies one row off:
    # on six of the face's stickers, a magenta disc of a sticker's size and the table. Its
    # own last row lies past that grid's side, so it is not followed there (but found by
    # searching the crop).
    rng = np.random.default_rng(2923)
    for _ in range(8):
        image, truth = render_scene(random_scene_spec(rng, 3, resolution=(1920, 1080)))
    first = detect_grid(image)
    assert matches(first, truth)
    moved = _moved(first, first.centers[0, 0] - first.centers[1, 0])
    assert matches(track(image, 3, moved), truth)
    patch_grid(monkeypatch, "detect_scaled", lambda *args, **kwargs: [])
    assert track(image, 3, moved) is None


def test_a_grid_found_where_the_face_was_is_judged_as_a_cold_one(monkeypatch) -> None:
    # The cube left the view: the crop search around where its 4x4 was finds a grid in the
    # clutter there, which the checks a cold face passes refuse.
    spec = random_scene_spec(np.random.default_rng(23), 4, resolution=(640, 480), hard=False)
    previous = detect_grid(render_scene(spec)[0])
    assert previous is not None and previous.size == 4
    image = render_clutter(np.random.default_rng(21), (640, 480))
    assert detect_grid(image, previous=previous) is None
    patch_grid(monkeypatch, "not_a_face", lambda *args: False)
    assert track(image, 4, previous) is not None


def test_a_face_taken_away_is_not_followed(monkeypatch) -> None:
    spec = random_scene_spec(np.random.default_rng(45), 3, resolution=(640, 480), hard=False)
    first = detect_grid(render_scene(spec)[0])
    assert first is not None
    patch_grid(monkeypatch, "detect_scaled", lambda *args, **kwargs: [])
    rng = np.random.default_rng(46)
    for _ in range(10):
        assert track(render_clutter(rng, (640, 480)), 3, first) is None
