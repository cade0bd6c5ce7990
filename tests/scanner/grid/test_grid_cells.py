"""What a cell shows: glare, washed-out stickers, three of four stickers holding as a
face, and the cell statistics."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from grid_scenes import sticker_on_plastic
from hypothesis import given, settings
from hypothesis import strategies as st

from cubescan.scanner.grid.cells import (
    flat_under_glare,
    inner_patch_statistics,
    three_of_four_hold,
    washed_by_glare,
)


def test_three_seen_tiles_of_a_floor_do_not_hold_as_a_face() -> None:
    # The rule behind the two tests above, on its own: the same three stickers hold as a
    # 2x2 face on a textured table, but not when the tiles around repeat them.
    rng = np.random.default_rng(5)
    table = rng.integers(0, 256, (240, 320, 3), dtype=np.uint8)
    floor = np.full((240, 320, 3), (90, 60, 110), np.uint8)
    for image, tiles in ((table, [(3, 2), (3, 3), (4, 2), (4, 3)]), (floor, None)):
        for row in range(6):
            for col in range(8):
                if tiles is None or (col, row) in tiles:
                    image[row * 40 : row * 40 + 40, col * 40 : col * 40 + 40] = (25, 25, 25)
                    image[row * 40 + 3 : row * 40 + 37, col * 40 + 3 : col * 40 + 37] = (
                        60,
                        140,
                        40,
                    )
    face_h = np.array([[40.0, 0, 120], [0, 40, 80], [0, 0, 1]])  # the 2x2 at tiles 3..4, 2..3
    support = np.array([[True, True], [True, False]])
    for image in (table, floor):
        image[125:155, 165:195] = (120, 150, 200)  # a finger over the fourth
    table_lab, floor_lab = (cv2.cvtColor(image, cv2.COLOR_BGR2Lab) for image in (table, floor))
    assert three_of_four_hold(face_h, support, table_lab)
    assert not three_of_four_hold(face_h, support, floor_lab)


def _three_stickers_and_a_finger(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Green stickers on black plastic at cells (3, 2), (4, 2), (3, 3) of a 40 px grid drawn
    on ``table``, a finger over the fourth (4, 3); the 2x2 window's homography and support."""
    for col, row in [(3, 2), (4, 2), (3, 3)]:
        sticker_on_plastic(table, col * 40, row * 40, (60, 140, 40), plastic=25)
    table[125:155, 165:195] = (120, 150, 200)
    face_h = np.array([[40.0, 0, 120], [0, 40, 80], [0, 0, 1]])
    return face_h, np.array([[True, True], [True, False]])


@pytest.mark.parametrize(
    ("spot", "hold"),
    [((235, 245, 235), True), ((150, 40, 40), False)],
    ids=["glare", "blue-blob"],
)
def test_a_glare_spot_does_not_spoil_one_of_three_seen_stickers(spot, hold) -> None:
    # A highlight over a fifth of a sticker's middle washes it towards white: those pixels
    # are the sticker under light, not another thing in the cell. A blob of another colour
    # in the same place is.
    rng = np.random.default_rng(9)
    image = rng.integers(0, 256, (240, 320, 3), dtype=np.uint8)
    face_h, support = _three_stickers_and_a_finger(image)
    cv2.circle(image, (140, 100), 8, spot, -1)
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab)
    assert three_of_four_hold(face_h, support, lab) == hold


@pytest.mark.parametrize(
    ("table", "grout", "hold"),
    [
        ((70, 130, 70), None, True),
        ((70, 150, 60), None, True),
        ((70, 150, 60), (90, 60, 110), False),
        ((70, 150, 60), (200, 210, 205), False),
    ],
    ids=[
        "plain-table-near-in-colour",
        "plain-table-of-the-sticker-colour",
        "tiles-of-it-dark-grout",
        "tiles-of-it-light-grout",
    ],
)
def test_only_tiles_of_the_stickers_own_color_repeat_them(table, grout, hold) -> None:
    # A plain table near the green stickers' colour, or of that very colour, runs on from
    # one cell around the face into the next with no line between: it is not more of them
    # (dim light brings a cube's colours that close to its surroundings). Tiles of that
    # colour, their grout (darker or lighter) on the face's lattice, are.
    image = np.full((240, 320, 3), table, np.uint8)
    if grout is not None:
        image[::40] = image[39::40] = image[:, ::40] = image[:, 39::40] = grout
    face_h, support = _three_stickers_and_a_finger(image)
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab)
    assert three_of_four_hold(face_h, support, lab) == hold


def test_a_glared_cell_is_told_from_a_textured_one() -> None:
    # Lab pixels of four cells (16 each): a flat red; the red with its lightest quarter
    # washed towards white; a textured cell (two colours, salt and pepper); the red with a
    # lighter but more saturated quarter (a red object, not a highlight).
    red = np.array([110, 170, 150], np.float32)
    cells = np.tile(red, (2, 2, 16, 1))
    cells[0, 1, 12:] = [200, 135, 132]
    cells[1, 0, ::2] = [180, 110, 200]
    cells[1, 1, 12:] = [160, 200, 170]
    assert flat_under_glare(cells).tolist() == [[False, True], [False, False]]


def test_a_sticker_washed_out_by_glare_over_most_of_it_is_told_from_texture() -> None:
    # Lab pixels of four cells (16 each), darkest first: a green lightened over most of its
    # patch with its hue kept (a/b on the way to grey); a key and the black hole beside it
    # (grey, no hue to keep); the green with a lighter quarter of another hue; a flat green.
    green = np.array([120, 80, 170], np.float32)
    cells = np.tile(green, (2, 2, 16, 1))
    cells[0, 0, 4:, 0] = np.linspace(130, 235, 12)
    cells[0, 0, 10:, 1:] = [90, 160]
    cells[0, 1, :6] = [20, 128, 129]
    cells[0, 1, 6:] = [110, 129, 127]
    cells[1, 0, 12:] = [200, 128, 100]
    assert washed_by_glare(cells).tolist() == [[True, False], [False, False]]


@settings(deadline=None)  # the first example compiles the kernel
@given(st.integers(2, 7), st.integers(0, 2**32 - 1), st.booleans())
def test_cell_statistics_are_the_inner_patches_medians_and_quartile_ranges(
    n: int, seed: int, extreme: bool
) -> None:
    # Each cell of a rectified face: its inner 4 x 4 pixels, their median per channel and
    # the largest interquartile range over the channels, as NumPy's percentiles give them.
    rng = np.random.default_rng(seed)
    shape = (8 * n, 8 * n, 3)
    levels = np.array([0, 1, 128, 254, 255], np.uint8)
    patch = rng.choice(levels, shape) if extreme else rng.integers(0, 256, shape, np.uint8)
    inner, median, spread = inner_patch_statistics(patch, n, 8)
    for row, col in np.ndindex(n, n):
        pixels = patch[8 * row + 2 : 8 * row + 6, 8 * col + 2 : 8 * col + 6].reshape(-1, 3)
        np.testing.assert_array_equal(inner[row, col], pixels)
        np.testing.assert_array_equal(median[row, col], np.median(pixels, axis=0))
        low, high = np.percentile(pixels.astype(float), [25, 75], axis=0)
        assert spread[row, col] == (high - low).max()
