"""Regions: the working image, its blur and shrinking, and the regions' second moments
and whitening."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from grid_scenes import eval_detect_scene, matches
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from cubescan.scanner.grid import detect_grid
from cubescan.scanner.grid.regions import (
    free_region_stats,
    level_percentiles,
    shrunk,
    sticker_sides,
    whitening,
    working_lab,
)


@pytest.mark.parametrize(("seed", "index"), [(5, 1977), (2024, 1745), (5, 1207), (5, 170)])
def test_a_face_of_small_stickers_whose_regions_are_roughly_square_is_found(seed, index):
    # eval_detect.py scenes: faces of 3x3 to 5x5 with stickers 5-14 px across in the pass
    # that finds them (small, dim or blurred). A pixel more or less at a region's edge
    # elongates it past the lattice's aspect limit: too few stickers were left square.
    image, truth = eval_detect_scene(index, seed)
    assert matches(detect_grid(image), truth)


@settings(deadline=None)  # the first example compiles the kernel
@given(
    arrays(np.uint8, st.tuples(st.integers(1, 60), st.integers(1, 60))),
    st.integers(1, 5),
    st.lists(st.floats(0, 100), min_size=1, max_size=4),
)
def test_level_percentiles_are_numpys(image: np.ndarray, step: int, percents: list[float]) -> None:
    # The lightness range the edges stretch: every step-th pixel's percentiles, read off
    # their histogram, exactly as NumPy interpolates them.
    expected = np.percentile(image[::step, ::step].ravel(), percents)
    np.testing.assert_array_equal(level_percentiles(image, step, np.array(percents)), expected)


@given(st.integers(0, 2**32 - 1), st.sampled_from([0.6, 0.75, 1.0]))
def test_the_working_image_blurs_only_its_chroma(seed, scale) -> None:
    # Above half scale the chroma is blurred further and the lightness left as it was.
    frame = np.random.default_rng(seed).integers(0, 256, (40, 60, 3), np.uint8)
    sharp = working_lab(frame, scale, sharp_chroma=True)
    blurred = working_lab(frame, scale)
    np.testing.assert_array_equal(blurred[..., 0], sharp[..., 0])
    for channel in (1, 2):
        np.testing.assert_array_equal(
            blurred[..., channel], cv2.GaussianBlur(sharp[..., channel], (0, 0), scale)
        )


@given(
    st.floats(0.5, 2000.0),
    st.floats(0.5, 2000.0),
    st.floats(-0.95, 0.95),
    st.floats(8.0, 5000.0),
)
def test_whitening_maps_a_region_to_a_square_of_its_sticker_side(var_x, var_y, corr, area) -> None:
    # W cov W^T must be the covariance of a square of side sqrt(area) / sticker side (the
    # region as a share of its sticker), and W symmetric: no turn of the region's frame.
    covariance = math.sqrt(var_x * var_y) * corr
    cov = np.array([[[var_x, covariance], [covariance, var_y]]])
    whiten = whitening(cov, np.array([area]))[0]
    side = math.sqrt(area) / sticker_sides(np.array([area]))[0]
    np.testing.assert_allclose(
        whiten @ cov[0] @ whiten.T, np.eye(2) * side**2 / 12, rtol=1e-9, atol=1e-12
    )
    np.testing.assert_allclose(whiten, whiten.T, rtol=1e-12, atol=1e-15)
    assert np.linalg.eigvalsh(whiten).min() > 0


@settings(deadline=None)  # the first example compiles the kernel
@given(
    arrays(
        np.uint8,
        st.tuples(st.integers(1, 40), st.integers(1, 60)),
        elements=st.sampled_from([0, 255]),
    )
)
def test_free_regions_are_opencvs_components_with_exact_second_moments(edges) -> None:
    # The regions OpenCV would find between the edges grown by a 2 x 2 dilation, numbered
    # alike (so the detector's results do not change), with exact moments.
    stats, centroids, moments = free_region_stats(edges)
    free = (cv2.dilate(edges, np.ones((2, 2), np.uint8)) == 0).view(np.uint8)
    count, labels, cv_stats, cv_centroids = cv2.connectedComponentsWithStats(free, connectivity=4)
    assert len(stats) == count
    present = cv_stats[:, cv2.CC_STAT_AREA] > 0  # (no edges: label 0 is empty)
    np.testing.assert_array_equal(stats[present], cv_stats[present])
    np.testing.assert_allclose(centroids[present], cv_centroids[present], rtol=1e-12)
    assert (stats[~present, cv2.CC_STAT_AREA] == 0).all()
    ys, xs = np.indices(labels.shape)
    for label in range(count):
        dx = xs[labels == label] - centroids[label, 0]
        dy = ys[labels == label] - centroids[label, 1]
        expected = [(dx * dx).sum(), (dy * dy).sum(), (dx * dy).sum()]
        np.testing.assert_allclose(moments[label], expected, rtol=1e-9, atol=1e-9)


@settings(deadline=None)  # the first example compiles the kernel
@given(
    st.integers(2, 20),  # two and past MAX_BLOCK_FACTOR: OpenCV's own
    st.integers(1, 30),
    st.integers(1, 30),
    st.integers(0, 2**32 - 1),
    st.booleans(),
)
def test_shrinking_by_a_whole_factor_is_opencvs_area_averaging(
    factor, height, width, seed, extreme
) -> None:
    # The first pass's image at 1920x1080 (and 1280x720) is shrunk by our block means: pixel
    # for pixel what OpenCV's area averaging gives, so the detector's results do not change.
    rng = np.random.default_rng(seed)
    shape = (height * factor, width * factor, 3)
    frame = rng.choice(np.array([0, 1, 254, 255], np.uint8), shape) if extreme else None
    frame = rng.integers(0, 256, shape, np.uint8) if frame is None else frame
    expected = cv2.resize(frame, (width, height), interpolation=cv2.INTER_AREA)
    np.testing.assert_array_equal(
        shrunk(frame, (width, height)), expected.reshape(height, width, 3)
    )


@pytest.mark.parametrize("factor", [3, 4, 6])
def test_every_block_sum_is_rounded_as_opencv_rounds_it(factor) -> None:
    # One block for each possible sum of a block's levels: the sum spread over its pixels as
    # evenly as levels allow, so every rounding case (halves included) is met once.
    area = factor * factor
    quotient, remainder = np.divmod(np.arange(area * 255 + 1), area)
    blocks = quotient[:, None] + (np.arange(area)[None, :] < remainder[:, None])
    frame = blocks.reshape(-1, factor, factor).transpose(1, 0, 2).reshape(factor, -1)
    frame = np.repeat(frame.astype(np.uint8)[:, :, None], 3, axis=2)
    width = frame.shape[1] // factor
    expected = cv2.resize(frame, (width, 1), interpolation=cv2.INTER_AREA)
    np.testing.assert_array_equal(shrunk(frame, (width, 1)), expected.reshape(1, width, 3))
