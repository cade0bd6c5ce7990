"""Lattices: merged same-colour stickers, whole rows of one colour, and the next face seen
edge on."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from grid_scenes import (
    BLUE,
    GREEN,
    ORANGE,
    YELLOW,
    drawn_face,
    eval_detect_scene,
    matches,
    seamless_3x3,
)

from cubescan.scanner.grid import detect_grid
from cubescan.synth.scenes import render_scene
from cubescan.synth.specs import random_scene_spec


@pytest.mark.parametrize("cell", [30, 60])
@pytest.mark.parametrize(
    "merged",
    [
        pytest.param([((0, 2), (1, 2)), ((2, 0), (2, 1))], id="two-pairs"),
        pytest.param([((0, 1), (0, 2)), ((0, 0), (2, 0))], id="a-pair-and-a-column"),
    ],
)
def test_a_solved_face_with_merged_pieces_is_a_3x3_not_its_corner(cell: int, merged) -> None:
    # A solved (one-colour) stickerless face whose seams were lost between some pieces, as
    # in real photos (Cube_00031 at 640 px, Cube_00040 blurred): the blocks (top-left and
    # bottom-right piece of each) leave four single stickers, a 2x2 that covers every linked
    # one. The 3x3 over them has a sticker seen in every cell, and is the face.
    margin, yellow = 100, (40, 210, 230)
    image = np.full(
        (3 * cell + 2 * margin, 3 * cell + 2 * margin + 100, 3), (60, 80, 110), np.uint8
    )
    image[margin : margin + 3 * cell, margin : margin + 3 * cell] = 25
    pieces = [((r, c), (r, c)) for r in range(3) for c in range(3)] + merged
    seam = cell // 20  # each piece's share of the seam
    for (top, left), (bottom, right) in pieces:
        x0, y0 = margin + left * cell + seam, margin + top * cell + seam
        x1, y1 = margin + (right + 1) * cell - seam, margin + (bottom + 1) * cell - seam
        image[y0:y1, x0:x1] = yellow
    detection = detect_grid(image)
    assert detection is not None and detection.size == 3
    assert np.allclose(detection.centers[0, 0], [margin + cell / 2] * 2, atol=0.15 * cell)


def test_the_next_face_seen_edge_on_does_not_add_a_row() -> None:
    # Tilted views show a strip of the neighbouring face's stickers along one border; they
    # line up with the lattice but are squashed in it, so N stays right.
    rng = np.random.default_rng(21)
    hits = []
    for index in range(40):
        spec = random_scene_spec(rng, [3, 4, 5][index % 3], resolution=(800, 600), hard=False)
        image, truth = render_scene(spec)
        if truth.front_tilt_deg < 20:
            continue
        hits.append(matches(detect_grid(image), truth))
    assert len(hits) >= 10 and np.mean(hits) >= 0.9, hits


def test_a_stickerless_face_with_merged_same_color_stickers_is_found() -> None:
    # No seams at all: each same-colour block (a 2x2 of reds, dominoes of blues and greens) is one
    # region, which still covers whole cells of the lattice the other stickers set up.
    red, blue, white, green, yellow, orange = (
        (40, 40, 200), (170, 80, 20), (230, 230, 230), (40, 160, 40), (40, 210, 230),
        (30, 130, 240),
    )  # fmt: skip
    colors = [  # half the cells are in blocks: too few single stickers to make a face alone
        [blue, blue, white, green],
        [orange, yellow, orange, white],
        [white, green, red, red],
        [yellow, green, red, red],
    ]
    image = drawn_face(colors, cell=60, gap=0, margin=90)
    cv2.rectangle(image, (88, 88), (90 + 4 * 60 + 1, 90 + 4 * 60 + 1), (25, 25, 25), 3)
    detection = detect_grid(image)
    assert detection is not None and detection.size == 4
    assert np.allclose(np.sort(detection.quad[:, 0])[[0, -1]], [90, 330], atol=6)


@pytest.mark.parametrize("cell", [20, 60])
def test_a_whole_row_of_one_color_fills_its_cells(cell: int) -> None:
    # A whole row merged and a domino: the four single stickers are a 2x2 on their own, and
    # the row of three, too long for a sticker, is still a region of the lattice's row
    # shape: it fills the third row's cells, and the fast search finds the 3x3 (with N
    # given: five of its nine cells are blocks, so unasked it prefers the 2x2 of singles).
    colors = [[ORANGE, YELLOW, BLUE], [GREEN, ORANGE, BLUE], [YELLOW, YELLOW, YELLOW]]
    image, corners = seamless_3x3(colors, cell)
    detection = detect_grid(image, 3)
    assert detection is not None and detection.size == 3
    assert np.abs(detection.quad - corners).max() < 0.15 * cell


@pytest.mark.parametrize(("seed", "index"), [(31, 961), (99, 285)])
def test_a_rendered_face_with_a_whole_line_of_one_color_is_found(seed: int, index: int) -> None:
    # eval_detect.py scenes: stickerless 3x3s whose seams vanish in blur, one with a whole
    # column of navy (961), one with a whole row of one colour (285): the line is one long
    # region, and the window over the rest had an empty column or row.
    image, truth = eval_detect_scene(index, seed)
    assert matches(detect_grid(image), truth)
