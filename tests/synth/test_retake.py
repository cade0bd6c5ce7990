"""The retakes: each moves the photo's pixels where its matrix says, and boxes follow."""

from __future__ import annotations

import numpy as np
import pytest

from cubescan.synth.retake import (
    RETAKES,
    blurred,
    moved_boxes,
    noisy,
    recompressed,
    relit,
    shrunk,
    turned,
)


def _dot_photo(x: int, y: int) -> np.ndarray:
    """A dark 120 x 160 photo with one bright 5 x 5 dot centred on (x, y)."""
    photo = np.full((120, 160, 3), 20, np.uint8)
    photo[y - 2 : y + 3, x - 2 : x + 3] = 250
    return photo


def _brightest(image: np.ndarray) -> np.ndarray:
    """Centroid (x, y) of the pixels brighter than half way."""
    grey = image.mean(axis=2)
    ys, xs = np.nonzero(grey > (grey.max() + grey.min()) / 2)
    return np.array([xs.mean(), ys.mean()])


@pytest.mark.parametrize(
    "retake",
    [
        lambda photo: turned(photo, 20),
        lambda photo: turned(photo, -70),
        lambda photo: turned(photo, 90),
        lambda photo: shrunk(photo, 80),
    ],
    ids=["turned 20", "turned -70", "turned 90", "shrunk to 80 px"],
)
def test_a_moved_pixel_lands_where_the_matrix_says(retake) -> None:
    result = retake(_dot_photo(40, 30))
    expected = result.matrix @ np.array([40.0, 30.0, 1.0])
    np.testing.assert_allclose(_brightest(result.image), expected, atol=0.6)


@pytest.mark.parametrize("degrees", [20, 45, -70, 90])
def test_a_turned_photo_keeps_all_of_it(degrees) -> None:
    photo = np.zeros((120, 160, 3), np.uint8)
    retake = turned(photo, degrees)
    corners = np.array([[0, 0, 1], [159, 0, 1], [159, 119, 1], [0, 119, 1]], float)
    moved = corners @ retake.matrix.T
    height, width = retake.image.shape[:2]
    assert (moved >= -1).all() and (moved[:, 0] <= width).all() and (moved[:, 1] <= height).all()


def test_the_retakes_that_keep_pixels_in_place_say_so() -> None:
    photo = _dot_photo(80, 60)
    for retake in (relit(photo, (0.5, 1.0, 1.2)), recompressed(photo, 20), blurred(photo, 1.5)):
        assert retake.image.shape == photo.shape
        np.testing.assert_array_equal(retake.matrix, np.eye(2, 3))
        np.testing.assert_allclose(_brightest(retake.image), [80, 60], atol=0.6)
    np.testing.assert_array_equal(noisy(photo, 10).image, noisy(photo, 10).image)  # seeded
    assert (noisy(photo, 10).image != noisy(photo, 10, seed=1).image).any()


def test_relighting_scales_each_channel_and_clips() -> None:
    photo = np.full((2, 2, 3), (100, 100, 200), np.uint8)
    assert relit(photo, (0.5, 1.0, 1.5)).image[0, 0].tolist() == [50, 100, 255]


def test_boxes_move_and_scale_with_the_photo() -> None:
    boxes = np.array([[10.0, 20.0, 30.0, 40.0], [50.0, 10.0, 70.0, 20.0]])
    # Unmoved, a square box stays; a long one becomes the square of its short side.
    np.testing.assert_allclose(
        moved_boxes(boxes, np.eye(2, 3)), [[10, 20, 30, 40], [55, 10, 65, 20]]
    )
    # Shrunk to half: centres move to the new pixels (half a pixel in), sides halve.
    half = shrunk(np.zeros((100, 100, 3), np.uint8), 50).matrix
    np.testing.assert_allclose(
        moved_boxes(boxes, half), [[4.75, 9.75, 14.75, 19.75], [27.25, 4.75, 32.25, 9.75]]
    )


def test_every_named_retake_gives_a_photo_and_its_map() -> None:
    photo = _dot_photo(80, 60)
    for name, retake in RETAKES.items():
        result = retake(photo)
        assert result.image.dtype == np.uint8 and result.image.ndim == 3, name
        assert result.matrix.shape == (2, 3), name
