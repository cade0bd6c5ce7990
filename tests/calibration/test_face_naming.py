"""Single-face naming (calibration.naming.name_face_colors) without a profile, on built cases."""

from __future__ import annotations

import numpy as np
import pytest

from cubescan.calibration.colorspace import (
    D65_XYZ,
    adaptation_matrix,
    cct_to_xyz,
    lab_to_xyz,
    xyz_to_lab,
)
from cubescan.calibration.face_naming import name_face_colors


def test_pale_sky_blue_beside_white_is_blue():
    # A stickerless cube's light blue, washed out by light, next to the face's real white.
    face = np.array([[72.5, -8.0, -15.1], [54.5, -12.3, -31.6], [85, 0, 1], [42, 56, 28]])
    assert name_face_colors(face).names == ("blue", "blue", "white", "red")


def test_red_orange_split_at_the_face_own_gap():
    # A reddish orange (hue 43) that the default boundary alone would still call orange, and
    # an orange-ish red (hue 37): side by side, the face's own gap decides.
    red = np.array([40.0, 55.0, 41.0])  # hue ~37
    orange = np.array([48.0, 50.0, 47.0])  # hue ~43
    names = name_face_colors(np.array([red, orange, red, orange])).names
    assert names == ("red", "orange", "red", "orange")


@pytest.mark.parametrize("kelvin", [4000, 4500, 5000])
def test_warm_cast_corrected_by_the_face_white(kelvin):
    # A lamp warmer than the camera's balance (Bradford cast from D65 to the lamp).
    neutral = np.array(
        [[85, 0, 0], [82, -6, 75], [36, 12, -50], [42, 56, 28], [58, 40, 52], [54, -50, 32]], float
    )
    cast = xyz_to_lab(lab_to_xyz(neutral) @ adaptation_matrix(D65_XYZ, cct_to_xyz(kelvin)).T)
    result = name_face_colors(cast)
    assert result.names == ("white", "yellow", "blue", "red", "orange", "green")
    assert result.white_lab[2] > 10  # the face's own white was taken as the light's colour


def test_neutral_whites_beside_a_glared_blue_stay_white():
    # Readings of a real face (a highlight washes a blue out to a pale lavender): taking that
    # blue as the white point turns the three neutral whites into "yellows" of chroma ~15,
    # which no yellow sticker is; the face's own whites are the white point.
    face = np.array(
        [
            [38.3, 16.6, -56.5],
            [76.7, 21.8, 15.4],
            [79.1, 0.6, -18.5],
            [40.8, 51.4, 46.5],
            [76.6, -1.6, 0.0],
            [55.7, -57.2, 51.3],
            [60.7, -0.9, 0.3],
            [71.9, -0.9, 0.3],
            [54.9, -57.8, 54.4],
        ]
    )
    names = name_face_colors(face).names
    assert [names[i] for i in (4, 6, 7)] == ["white"] * 3
    assert "yellow" not in names


def test_face_naming_is_invariant_to_sticker_order():
    # Stickers are named jointly; the search must not depend on the order they are listed in.
    rng = np.random.default_rng(4)
    neutral = np.array(
        [[85, 0, 0], [82, -6, 75], [36, 12, -50], [42, 56, 28], [58, 40, 52], [54, -50, 32]], float
    )
    face = neutral[rng.integers(0, 6, 9)] + rng.normal(0, 1.5, (9, 3))
    names = name_face_colors(face).names
    for _ in range(5):
        order = rng.permutation(9)
        assert tuple(np.array(name_face_colors(face[order]).names)[np.argsort(order)]) == names


def test_warm_tinted_white_is_not_a_pale_orange():
    # Readings of a real face (rubyrizz, warm room light): the white sticker reads chroma 10 at
    # an orange hue. No orange sticker is that pale (its balanced chroma is >= 27 on the
    # labelled faces), so it is the white, not a washed-out orange.
    face = np.array(
        [
            [49.1, 9.4, -31.2],
            [73.5, 27.3, 75.9],
            [56.8, -35.0, 18.8],
            [79.1, 1.9, 9.7],
            [36.9, 53.6, 43.5],
            [72.0, -12.2, 73.3],
            [22.3, 6.3, -23.9],
            [20.2, 7.1, -26.4],
            [46.2, -39.3, 19.1],
        ]
    )
    names = " ".join(name_face_colors(face).names)
    assert names == "blue orange green white red yellow blue blue green"
