"""Boards: two alternating colours without seams are no face, a cube in a checkerboard
pattern is."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from grid_scenes import drawn_face, eval_detect_scene, matches

from cubescan.scanner.grid import detect_grid
from cubescan.scanner.grid.face import make_detection
from cubescan.scanner.grid.rejection import (
    is_board,
    plastic_at_crossings,
    ringed_lab,
    two_alternating_colors,
)


def test_a_checkerboard_is_not_a_face_but_a_checkerboard_pattern_cube_is() -> None:
    light, dark = (200, 230, 240), (40, 90, 30)  # cream and dark green, as boards are
    board = [[light if (r + c) % 2 else dark for c in range(7)] for r in range(7)]
    # No seams between the squares: a board game.
    assert detect_grid(drawn_face(board, cell=40, gap=0, margin=60)) is None
    # The same two colours on a cube, with the plastic between the stickers: a face.
    red, orange = (40, 40, 200), (40, 140, 240)
    pattern = [[red if (r + c) % 2 == 0 else orange for c in range(3)] for r in range(3)]
    detection = detect_grid(drawn_face(pattern, cell=70, gap=5, margin=90))
    assert detection is not None and detection.size == 3


def _touching_stickers(colors, cell: int, radius: int, margin: int) -> np.ndarray:
    """A face of stickers that touch along their sides, on a grey table: only where their
    corners (rounded by ``radius`` px) meet does the black plastic show. Blurred by a few
    pixels, as a small or shaken photo is."""
    n = len(colors)
    side = n * cell + 2 * margin
    image = np.full((side, side, 3), 120, np.uint8)
    image[margin : side - margin, margin : side - margin] = 20
    for row in range(n):
        for col in range(n):
            x, y = margin + col * cell, margin + row * cell
            sticker = np.zeros((side, side), np.uint8)
            cv2.rectangle(sticker, (x + radius, y), (x + cell - 1 - radius, y + cell - 1), 1, -1)
            cv2.rectangle(sticker, (x, y + radius), (x + cell - 1, y + cell - 1 - radius), 1, -1)
            for cx in (x + radius, x + cell - 1 - radius):
                for cy in (y + radius, y + cell - 1 - radius):
                    cv2.circle(sticker, (cx, cy), radius, 1, -1)
            image[sticker == 1] = colors[row][col]
    return cv2.GaussianBlur(image, (0, 0), 2.0)


@pytest.mark.parametrize("radius", [0, 12])
def test_blurred_stickers_in_a_checkerboard_pattern_are_no_board_by_their_corners(
    radius: int,
) -> None:
    # Red and orange alternating with no seam along the stickers' sides: with square corners
    # a board game; with rounded ones, the plastic shows at every crossing.
    red, orange = (40, 40, 200), (40, 140, 240)
    pattern = [[red if (r + c) % 2 == 0 else orange for c in range(3)] for r in range(3)]
    image = _touching_stickers(pattern, cell=60, radius=radius, margin=60)
    grid = make_detection(np.array([[60.0, 0, 60], [0, 60, 60], [0, 0, 1]]), 3, np.ones((3, 3)))
    assert is_board(image, grid, ringed_lab(image, grid)) == (radius == 0)
    assert plastic_at_crossings(image, grid, ringed_lab(image, grid)) == (radius > 0)
    if radius:
        detection = detect_grid(image)
        assert detection is not None and detection.size == 3


def test_a_checkerboard_half_hidden_under_objects_still_shows_two_alternating_colors():
    # A 7x7 board's cells (Lab) with objects over 18 of its squares, 11 of them dark, as on
    # a table (no-cube scene 94 of seed 13): those show neither colour, the rest alternate.
    n = 7
    parity = (np.arange(n * n) % n + np.arange(n * n) // n) % 2 == 1
    cells = np.where(parity[:, None], [214.0, 130, 150], [37.0, 109, 145])
    hidden = np.zeros(n * n, bool)
    hidden[[8, 10, 11, 12, 13, 16, 17, 18, 19, 20, 22, 23, 24, 29, 30, 31, 32, 36]] = True
    cells[hidden] = [137.0, 120, 160]
    assert two_alternating_colors(cells, parity)
    # Two colours in two halves are no board, nor is a board of which most is hidden.
    halves = np.where((np.arange(n * n) < 25)[:, None], [37.0, 109, 145], [214.0, 130, 150])
    assert not two_alternating_colors(halves, parity)
    cells[: n * n * 2 // 3] = [137.0, 120, 160]
    assert not two_alternating_colors(cells, parity)


@pytest.mark.parametrize(("seed", "index"), [(11, 56), (7, 317), (11, 157)])
def test_objects_beside_a_face_that_match_none_of_its_stickers_are_no_board(
    seed: int, index: int
) -> None:
    # eval_detect.py scenes: a 2x2 (56) and two 3x3s with discs, boxes or blobs of the
    # backdrop a pitch past one or two of their sides, of sizes and colours none of the
    # face's own: a board's next tiles would repeat the one or the other.
    image, truth = eval_detect_scene(index, seed)
    assert matches(detect_grid(image), truth)


@pytest.mark.parametrize(("seed", "index"), [(11, 504), (31, 913), (99, 1528)])
def test_two_objects_past_two_sides_of_a_face_cut_by_the_frame_are_no_board(
    seed: int, index: int
) -> None:
    # eval_detect.py scenes: a face at the frame's edge (a 2x2; a 3x3 in 913), so only about
    # seven cells of the ring around it are in the frame, and two objects of a sticker's size
    # (a disc, a box, a blob of the backdrop) lie by chance on two of them, past two sides.
    image, truth = eval_detect_scene(index, seed)
    assert matches(detect_grid(image), truth)
