"""Geometry: points on one line, and the fitted homography against OpenCV's."""

from __future__ import annotations

import math

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from cubescan.scanner.grid.geometry import (
    exact_fit,
    on_one_line,
    too_few_for_perspective,
    warp_points,
)


def _lattice_coords_on_a_line() -> st.SearchStrategy[np.ndarray]:
    """Integer coords at integer steps along one lattice direction from one point."""
    vectors = st.tuples(st.integers(-3, 3), st.integers(-3, 3))
    steps = st.lists(st.integers(-4, 4), min_size=1, max_size=10)
    return st.builds(lambda p, d, t: np.array(p) + np.outer(t, d), vectors, vectors, steps)


@given(
    st.one_of(
        arrays(np.int64, st.tuples(st.integers(1, 12), st.just(2)), elements=st.integers(-7, 7)),
        _lattice_coords_on_a_line(),
    )
)
def test_coords_are_on_one_line_exactly_where_their_rank_is_below_two(coords: np.ndarray) -> None:
    centerd = coords - coords.mean(axis=0)
    assert on_one_line(coords) == (np.linalg.matrix_rank(centerd) < 2)


@settings(deadline=None)  # the first example compiles the kernel
@given(
    st.integers(3, 7),
    st.floats(0.0, 35.0),
    st.floats(-180.0, 180.0),
    st.floats(0.0, 1.5),
    st.integers(0, 2**32 - 1),
)
def test_the_fitted_homography_reprojects_as_well_as_opencvs(
    n: int, tilt: float, turn: float, noise: float, seed: int
) -> None:
    # A face's lattice (some cells unseen) seen tilted and turned, its centres off by up to
    # ``noise`` px: the fit's squared reprojection error is OpenCV's least-squares one (its
    # method 0), and with no noise it gives the homography back.
    rng = np.random.default_rng(seed)
    coords = np.argwhere(np.ones((n, n)))[:, ::-1].astype(float)
    coords = coords[rng.random(len(coords)) < 0.8]
    if too_few_for_perspective(coords):
        coords = np.argwhere(np.ones((n, n)))[:, ::-1].astype(float)
    c, s, t = math.cos(math.radians(turn)), math.sin(math.radians(turn)), math.radians(tilt)
    truth = np.array([[40 * c, -40 * s, 300], [40 * s, 40 * c, 200], [math.sin(t) / 400, 0, 1]])
    exact = warp_points(coords, truth)
    np.testing.assert_allclose(exact_fit(coords, exact), truth, rtol=1e-6, atol=1e-9)
    points = exact + rng.normal(0.0, noise, exact.shape)

    def error(homography: np.ndarray) -> float:
        return float(((warp_points(coords, homography) - points) ** 2).sum())

    opencv = cv2.findHomography(coords, points)[0]
    assert error(exact_fit(coords, points)) <= error(opencv) * (1 + 1e-6) + 1e-9
