"""Whole-cube classification with a calibration profile (naming.classify(profile=...))."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubescan.calibration.clustering import balanced_labels
from cubescan.calibration.colorspace import adapt_lab, adapt_to_whites, lab_to_xyz, xyz_to_lab
from cubescan.calibration.face_naming import profile_mahalanobis
from cubescan.calibration.naming import classify
from cubescan.calibration.profile import learn_profile
from cubescan.solver import random_state, solved_facelets
from cubescan.synth.colors import (
    STANDARD_FACE_COLOR,
    Light,
    draw_brand,
    draw_light,
    render_stickers,
)


def _scan_and_profile(light: Light, rng: np.random.Generator, glare: float = 0.0):
    """A scrambled cube and a profile learned from a solved one, same cube and light."""
    brand = draw_brand(rng)
    truth = random_state(rng, 3)
    lab = render_stickers(
        np.array([STANDARD_FACE_COLOR[f] for f in truth]), light, rng, glare, brand
    )
    solved = solved_facelets(3)
    calibration = render_stickers(
        np.array([STANDARD_FACE_COLOR[f] for f in solved]), light, rng, 0.0, brand
    )
    return truth, lab, learn_profile("rig", calibration, solved)


def test_rig_with_a_warm_and_a_cool_lamp():
    # Each face position keeps its own light between calibration and scan (a rig: faces
    # alternately under a 2700 K lamp and 6500 K daylight). A colour learned on a warm face
    # and seen on a cool one carries the ratio of the two lights; one gain per scanned face
    # cannot express that (the previous model read 7 of 20 such cubes right).
    light = Light("rig", (2700.0, 6500.0, 2700.0, 6500.0, 2700.0, 6500.0), 0.8, 0.002)
    for seed in range(10):
        truth, lab, profile = _scan_and_profile(light, np.random.default_rng(seed))
        result = classify(lab, profile=profile)
        assert result.facelets == truth, seed
        assert result.standard


@pytest.mark.parametrize("light_name", ["warm", "cool", "dim", "mixed"])
def test_profile_under_each_light(light_name):
    rng = np.random.default_rng(40 + len(light_name))
    for _ in range(8):
        truth, lab, profile = _scan_and_profile(draw_light(light_name, rng), rng, glare=0.05)
        result = classify(lab, profile=profile)
        assert result.facelets == truth
        assert {info.name for info in result.colors.values()} == set(profile.names)


def test_glared_sticker_is_its_color_not_white():
    # A blue sticker half washed out by the lamp's highlight, read with a profile: the reading
    # lies between blue and white, and glare only ever moves a colour towards the light.
    rng = np.random.default_rng(5)
    truth, lab, profile = _scan_and_profile(draw_light("cool", rng), rng)
    blue = next(i for i, f in enumerate(truth) if f == "B" and i % 9 != 4)
    white = next(i for i, f in enumerate(truth) if f == "U" and i % 9 != 4)
    lab[blue] = xyz_to_lab(lab_to_xyz(lab[blue]) + 0.3 * lab_to_xyz(lab[white]))
    result = classify(lab, profile=profile)
    assert result.facelets == truth


def test_profile_confidence_is_low_only_where_ambiguous():
    rng = np.random.default_rng(9)
    truth, lab, profile = _scan_and_profile(draw_light("warm", rng), rng)
    red = [i for i, f in enumerate(truth) if f == "R" and i % 9 != 4]
    orange = [i for i, f in enumerate(truth) if f == "L" and i % 9 != 4]
    lab[red[0]] = (lab[red[1]] + lab[orange[0]]) / 2
    result = classify(lab, profile=profile)
    assert result.confidence[red[0]] < 0.3
    assert np.median(np.delete(result.confidence, red[0])) > 0.8


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_batched_white_balance_matches_adapt_lab(seed):
    rng = np.random.default_rng(seed)
    lab = np.column_stack([rng.uniform(5, 100, 9), rng.uniform(-80, 80, (9, 2))])
    whites = np.column_stack([rng.uniform(40, 100, 4), rng.uniform(-20, 20, (4, 2))])
    batched = adapt_to_whites(lab, whites)
    for k, white in enumerate(whites):
        np.testing.assert_allclose(batched[k], adapt_lab(lab, white), atol=1e-9)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), spread=st.floats(0.1, 50.0))
def test_balanced_labels_are_optimal(seed, spread):
    # The shortcut (each sticker's own best colour when that already balances) and the
    # assignment agree on the optimal total cost.
    from scipy.optimize import linear_sum_assignment

    rng = np.random.default_rng(seed)
    centers = rng.normal(0, 30, (6, 3))
    points = centers[rng.permutation(np.repeat(np.arange(6), 9))] + rng.normal(0, spread, (54, 3))
    cost = ((points[:, None, :] - centers[None]) ** 2).sum(axis=2)
    labels = balanced_labels(cost, 9, np.empty(0, np.intp))
    assert np.bincount(labels, minlength=6).tolist() == [9] * 6
    rows, cols = linear_sum_assignment(np.repeat(cost, 9, axis=1))
    assert cost[np.arange(54), labels].sum() == pytest.approx(cost[rows, cols // 9].sum())


def test_profile_mahalanobis_uses_covariances():
    # Two colours at equal Euclidean distance: the one whose covariance stretches towards the
    # reading is the nearer.
    rng = np.random.default_rng(0)
    six = [[80, 0, 0], [40, 60, 40], [55, -50, 40], [85, -5, 80], [60, 40, 60], [35, 15, -50]]
    lab = np.repeat(np.array(six, float), 9, axis=0) + rng.normal(0, 1, (54, 3))
    lab[9:18, 0] += rng.normal(0, 8, 9)  # colour R spreads along L
    profile = learn_profile("spread", lab, solved_facelets(3))
    reading = profile.means[1] + np.array([10.0, 0.0, 0.0])
    other = profile.means[2] + np.array([0.0, 10.0, 0.0])
    distances = profile_mahalanobis(np.stack([reading, other]), profile)
    assert distances[0, 1] < distances[1, 2]
