"""The crossings cue: close stickerless faces found by the dark gaps where four pieces
meet, and light spots that are not crossings."""

from __future__ import annotations

import cv2
import numpy as np

from cubescan.scanner.grid import detect_grid
from cubescan.scanner.grid.crossings import link_crossings
from cubescan.scanner.grid.regions import find_regions, working_lab
from cubescan.scanner.grid.search import detect_scaled, region_scales


def _close_stickerless_face(colors, cell: int, radius: int, margin: int) -> np.ndarray:
    """A stickerless face filling most of a brown table's frame: pieces of ``cell`` px with
    corners rounded by ``radius`` px and no seam between them, so neighbours of one colour
    merge and the dark core shows only where four corners meet; blurred as a close-up."""
    n = len(colors)
    side = n * cell + 2 * margin
    image = np.full((side, side, 3), (60, 80, 110), np.uint8)
    end = margin + n * cell - 1
    cv2.rectangle(image, (margin, margin), (end, end), (20, 20, 20), -1)
    for row in range(n):
        for col in range(n):
            x0, y0 = margin + col * cell, margin + row * cell
            x1, y1 = x0 + cell - 1, y0 + cell - 1
            color = colors[row][col]
            cv2.rectangle(image, (x0 + radius, y0), (x1 - radius, y1), color, -1)
            cv2.rectangle(image, (x0, y0 + radius), (x1, y1 - radius), color, -1)
            for x in (x0 + radius, x1 - radius):
                for y in (y0 + radius, y1 - radius):
                    cv2.circle(image, (x, y), radius, color, -1)
    return cv2.GaussianBlur(image, (0, 0), 3)


def _centerd_on_cells(detection, n: int, cell: int, margin: int) -> bool:
    expected = margin + (np.arange(n) + 0.5) * cell
    xs, ys = np.meshgrid(expected, expected)
    truth = np.stack([xs.ravel(), ys.ravel()], axis=1)
    return bool(np.abs(detection.centers.reshape(-1, 2) - truth).max() < 0.15 * cell)


def test_a_close_stickerless_face_of_one_color_block_is_found_by_its_crossings() -> None:
    # As rubyrizz photo 58: a 2x3 block of one colour beside a column of three. The region
    # cue links no lattice (the column is a line, the block one region); the four dark
    # gaps where the pieces' rounded corners meet lie on the face's inner crossings.
    red, yellow, green, orange = (60, 40, 230), (60, 220, 235), (140, 220, 60), (60, 140, 245)
    colors = [[red, red, yellow], [red, red, green], [red, red, orange]]
    image = _close_stickerless_face(colors, cell=150, radius=30, margin=95)
    assert detect_scaled(image, region_scales(640)[0], None, (0.0, 0.0), 1) == []
    detection = detect_grid(image)
    assert detection is not None and detection.size == 3
    assert _centerd_on_cells(detection, 3, cell=150, margin=95)


def test_a_close_stickerless_solved_face_is_found_by_its_crossings() -> None:
    blue = (170, 80, 20)
    image = _close_stickerless_face([[blue] * 4] * 4, cell=110, radius=22, margin=70)
    detection = detect_grid(image)
    assert detection is not None and detection.size == 4
    assert _centerd_on_cells(detection, 4, cell=110, margin=70)


def test_light_spots_on_a_square_lattice_are_not_crossings() -> None:
    # A red card the size of a 3x3 face with four white dots where its crossings would be:
    # they link as crossings do, but a gap between pieces shows the dark core.
    image = np.full((480, 640, 3), (60, 80, 110), np.uint8)
    cv2.rectangle(image, (140, 60), (500, 420), (60, 60, 200), -1)
    for x in (260, 380):
        for y in (180, 300):
            cv2.circle(image, (x, y), 14, (235, 235, 235), -1)
    image = cv2.GaussianBlur(image, (0, 0), 1.5)
    regions = find_regions(working_lab(image, region_scales(640)[0]))
    assert [len(members) for _, members in link_crossings(regions)] == [4]
    assert detect_grid(image) is None
