"""The whole-cube colour model: each colour's likelihood, with and without highlights."""

from __future__ import annotations

import numpy as np

from cubescan.calibration.clustering import color_log_likelihood
from cubescan.calibration.colorspace import lab_to_xyz, xyz_to_lab

# A washed-out lamp's six colours (CIELAB): white reads pale yellow, and the orange is
# nearer than the red to what the red reads under a highlight of a fifth of the light.
LAMP = np.array(
    [[92, 2, 20], [50, 35, 25], [62, -15, 25], [86, 5, 45], [68, 31, 29], [46, 6, -8]], float
)


def lamp_cube(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Nine readings of each colour with a little noise, and their labels."""
    labels = np.repeat(np.arange(6), 9)
    return LAMP[labels] + rng.normal(0.0, 1.5, (54, 3)), labels


def test_a_glared_red_is_likelier_red_once_highlights_are_allowed():
    # A red with a fifth of the light added reads lighter and paler: near the orange.
    readings, labels = lamp_cube(np.random.default_rng(0))
    glared = xyz_to_lab(lab_to_xyz(LAMP[1]) + 0.2 * lab_to_xyz(LAMP[0]))
    readings[9] = glared
    fitted = np.arange(54) != 9  # the colours are fitted to the other readings
    plain = color_log_likelihood(readings, labels, fitted)
    allowed = color_log_likelihood(readings, labels, fitted, glare_toward=0)
    assert plain[9, 4] > plain[9, 1]  # as a plain reading, orange explains it better
    assert allowed[9, 1] > allowed[9, 4]


def test_highlights_change_little_for_readings_that_need_none():
    readings, labels = lamp_cube(np.random.default_rng(1))
    plain = color_log_likelihood(readings, labels)
    allowed = color_log_likelihood(readings, labels, glare_toward=0)
    rows = np.arange(54)
    assert (allowed.argmax(axis=1) == labels).all()
    # Each reading's own colour loses at most the prior odds of no highlight (log 0.95).
    assert (allowed[rows, labels] >= plain[rows, labels] + np.log(0.95) - 1e-9).all()


def test_a_highlight_only_adds_light():
    # A red reading darker than the red is no glared orange: allowing highlights does not
    # make it any likelier orange.
    readings, labels = lamp_cube(np.random.default_rng(2))
    readings[9] = LAMP[1] - [8.0, 0.0, 0.0]
    plain = color_log_likelihood(readings, labels)
    allowed = color_log_likelihood(readings, labels, glare_toward=0)
    assert allowed[9, 4] <= plain[9, 4] + 1e-9
    assert allowed[9].argmax() == 1
