"""Plastic and glare: grey cells that show the cube's body, told from dark, dim or
glared stickers."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from grid_scenes import drawn_face, sticker_on_plastic

from cubescan.scanner.grid import detect_grid
from cubescan.scanner.grid.cells import CellStatistics, cell_statistics, three_of_four_hold
from cubescan.scanner.grid.plastic import on_the_plastic, shows_plastic


def test_dark_stickers_in_dim_light_are_not_plastic() -> None:
    navy, green, red = (60, 25, 15), (30, 60, 20), (25, 20, 70)
    colors = [[navy, green, navy], [red, navy, green], [navy, red, navy]]
    detection = detect_grid(drawn_face(colors, cell=60, gap=4, margin=80))
    assert detection is not None and detection.size == 3


def _face_on_a_body(body, colors, cell: int = 60, gap: int = 5, margin: int = 80):
    """A face of ``colors`` (BGR rows) on a cube body of colour ``body``, on a grey table:
    each sticker ``gap`` px inside its cell."""
    n = len(colors)
    side = n * cell + 2 * margin
    image = np.full((side, side, 3), 120, np.uint8)
    image[margin : margin + n * cell, margin : margin + n * cell] = body
    for row in range(n):
        for col in range(n):
            x, y = margin + col * cell, margin + row * cell
            image[y + gap : y + cell - gap, x + gap : x + cell - gap] = colors[row][col]
    return image


# Under a warm lamp, blue stickers turn dark and grey: Lab (59, 127, 123), chroma 5.
_LAMPLIT_BLUE = (62, 56, 50)


_LAMPLIT_FACE = [
    [_LAMPLIT_BLUE, (30, 30, 190), _LAMPLIT_BLUE],
    [(40, 200, 220), _LAMPLIT_BLUE, (60, 160, 40)],
    [(30, 120, 230), (225, 225, 225), (30, 30, 190)],
]


@pytest.mark.parametrize("body", [(20, 20, 20), (215, 215, 210)])
def test_blue_stickers_turned_grey_by_a_warm_lamp_are_not_the_plastic(body) -> None:
    # As dark and grey as black plastic, but far lighter than the black body showing between
    # the stickers, or far darker than a white body about as light as the white sticker:
    # stickers (rubyrizz photos under a warm or tungsten cast, ``eval_detect.py
    # --transformed``).
    detection = detect_grid(_face_on_a_body(body, _LAMPLIT_FACE))
    assert detection is not None and detection.size == 3


def test_grey_cells_between_grey_seams_still_show_plastic() -> None:
    # Seams of a mid grey, well below the white sticker's lightness: dark tiles between
    # grout look so, and are not taken for dark stickers on a white body.
    assert detect_grid(_face_on_a_body((120, 120, 120), _LAMPLIT_FACE)) is None


def test_a_window_on_the_plastic_between_grey_stickers_still_shows_plastic() -> None:
    # The same face, and a window half a cell off it: its cells lie on the black body where
    # four stickers' corners meet, and no sticker was seen in them.
    image = _face_on_a_body((20, 20, 20), _LAMPLIT_FACE)
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab)
    on_face = np.array([[60.0, 0, 80], [0, 60, 80], [0, 0, 1]])
    seen = np.ones((3, 3), bool)
    assert not on_the_plastic(on_face, 3, lab, cell_statistics(on_face, 3, lab), seen)
    off_face = on_face @ np.array([[1.0, 0, 0.5], [0, 1, 0.5], [0, 0, 1]])
    unseen = np.zeros((3, 3), bool)
    unseen[0, 0] = True
    assert on_the_plastic(off_face, 3, lab, cell_statistics(off_face, 3, lab), unseen)


_DARK_BLUE_AND_GREEN = [(45, 12, 2), (12, 34, 6), (45, 12, 2)]


@pytest.mark.parametrize(
    ("stickers", "plastic", "hold"),
    [
        (_DARK_BLUE_AND_GREEN, 9, True),
        (_DARK_BLUE_AND_GREEN, 19, True),
        ([(14, 14, 14)] * 3, 9, False),
        ([(14, 14, 14)] * 3, 19, False),
    ],
    ids=[
        "dark-blue-and-green",
        "dark-blue-and-green-on-a-shade-lighter-plastic",
        "dark-grey",
        "dark-grey-on-a-shade-lighter-plastic",
    ],
)
def test_in_dim_light_the_grey_plastic_tells_dark_stickers_apart(stickers, plastic, hold) -> None:
    # Lightness 11 stickers on lightness 7 plastic: too little darker for a seam, but the
    # plastic is grey where the blue and green are not; so it is on plastic of lightness 15,
    # a shade lighter than the blue (as blur leaves a thin seam in dim light). Grey squares
    # show no seam.
    rng = np.random.default_rng(8)
    image = rng.integers(0, 60, (240, 320, 3), dtype=np.uint8)  # a dim textured table
    for (col, row), color in zip([(3, 2), (4, 2), (3, 3)], stickers, strict=True):
        sticker_on_plastic(image, col * 40, row * 40, color, plastic=plastic, inset=6)
    image[120:160, 160:200] = (120, 150, 200)  # a finger over the fourth
    face_h = np.array([[40.0, 0, 120], [0, 40, 80], [0, 0, 1]])
    support = np.array([[True, True], [True, False]])
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab)
    assert three_of_four_hold(face_h, support, lab) == hold


def _cells(lightness, chroma, spread) -> CellStatistics:
    """Cell statistics of a 3x3 window from its cells' lightness, chroma and spread."""
    lightness, chroma, spread = (
        np.array(v, float).reshape(3, 3) for v in (lightness, chroma, spread)
    )
    return CellStatistics(lightness, chroma, spread, np.zeros((3, 3), bool), np.zeros((3, 3, 3)))


def test_plastic_is_dark_against_the_lightest_sticker_not_a_glare_spot() -> None:
    # A face in dim light (eval_detect.py scenes 829 and 1177 of seed 11): three white
    # stickers at L 70, grey; coloured ones at L 40-65; a glare spot over the middle one
    # lifts it to L 135, its patch a gradient (spread 40). Against the glare, the whites
    # would be dark and grey, as plastic is.
    lightness = [63, 64, 70, 19, 135, 71, 38, 71, 43]
    chroma = [33, 33, 2, 24, 4, 2, 23, 2, 29]
    spread = [5, 5, 5, 5, 40, 5, 5, 5, 5]
    assert not shows_plastic(_cells(lightness, chroma, spread))
    # The same window where two cells are black plastic (L 20, grey) is on the plastic.
    lightness[2], lightness[5] = 20, 20
    assert shows_plastic(_cells(lightness, chroma, spread))
    # ... and so is a window whose lightest cell is one flat white sticker.
    assert shows_plastic(
        _cells([130, 20, 20, 60, 60, 60, 60, 60, 60], [2, 2, 2] + [30] * 6, [5] * 9)
    )


def test_a_glare_spot_flat_over_a_whole_sticker_is_not_the_lightest_sticker() -> None:
    # Scene 1061 of eval_detect.py's seed 99 (read at 640 px): a dim 3x3 whose middle
    # sticker a glare spot covers evenly (L 125, spread 16: flat), two grey whites at L 72-74.
    lightness = [33, 38, 69, 74, 125, 52, 50, 54, 72]
    chroma = [31, 21, 32, 3, 31, 29, 29, 32, 3]
    spread = [1, 2, 2, 2, 16, 7, 1, 2, 1]
    cells = _cells(lightness, chroma, spread)
    assert shows_plastic(cells)  # the spot taken for a sticker: the whites look dark
    glared = np.zeros((3, 3), bool)
    glared[1, 1] = True
    assert not shows_plastic(cells._replace(glared=glared))
    # A checkerboard of black and grey squares (no-cube scene 480 of seed 17): grey cells,
    # with no colour to wash out, all count as glared. Passing over one leaves another grey
    # to measure the black ones against: they are plastic.
    board = _cells([5, 49, 3, 49, 5, 49, 3, 49, 5], [6, 14] * 4 + [6], [2] * 9)
    assert shows_plastic(board._replace(glared=board.lightness > 20))
    # Scene 338 of seed 11: a glare spot clips a yellow sticker to L 251 over all of it, so
    # no darker half flags it; it keeps a yellow tint (chroma 41). Three grey whites at
    # L 137 are stickers. A white sticker clipped grey is the lightest sticker itself.
    clipped = [137, 82, 127, 50, 251, 41, 82, 82, 137]
    tint = [1, 51, 54, 42, 41, 36, 51, 51, 1]
    assert not shows_plastic(_cells(clipped, tint, [1, 0, 6, 1, 10, 9, 0, 0, 1]))
    tint[4] = 1
    assert shows_plastic(_cells(clipped, tint, [1, 0, 6, 1, 10, 9, 0, 0, 1]))
