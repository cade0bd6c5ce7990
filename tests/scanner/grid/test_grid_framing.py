"""A face and the frame: faces the frame's edge cuts at a corner sticker, and a smaller
face seen in full."""

from __future__ import annotations

import numpy as np
import pytest
from grid_scenes import eval_detect_scene, matches

from cubescan.scanner.grid import detect_grid
from cubescan.scanner.grid.face import make_detection
from cubescan.scanner.grid.framing import (
    corners_near,
    cut_along_a_side,
    cut_at_a_corner,
    objects_beside_a_smaller_face,
)
from cubescan.scanner.grid.geometry import warp_points


def test_a_smaller_face_seen_in_full_with_two_objects_in_an_l_is_that_face() -> None:
    face_h = np.diag([40.0, 40.0, 1.0])  # cells of 40 px from the frame's corner
    support = np.ones((4, 4), bool)
    support[0, :] = support[:, 3] = False  # the top row and the right column: an L
    support[0, 1] = support[2, 3] = True  # two objects in it
    assert objects_beside_a_smaller_face(face_h, 4, support, (480, 640))
    # Three cells of the L show stickers: a face with a hand over part of two sides.
    three = support.copy()
    three[0, 0] = True
    assert not objects_beside_a_smaller_face(face_h, 4, three, (480, 640))
    # One sticker of the smaller face unseen (under glare or a finger) still makes it that
    # face; two do not.
    gap = support.copy()
    gap[2, 1] = False
    assert objects_beside_a_smaller_face(face_h, 4, gap, (480, 640))
    gap[3, 0] = False
    assert not objects_beside_a_smaller_face(face_h, 4, gap, (480, 640))
    # The L runs out of the frame: a face cut by the frame's corner is not judged.
    shifted = np.array([[40.0, 0, 0], [0, 40, -30], [0, 0, 1]])  # the top row above the frame
    assert not objects_beside_a_smaller_face(shifted, 4, support, (480, 640))
    # Turned 15 degrees, only the L's far corner cell lies past the top edge: still judged.
    turn = np.radians(-15)
    cos, sin = 40 * np.cos(turn), 40 * np.sin(turn)
    turned = np.array([[cos, -sin, 10], [sin, cos, 10], [0, 0, 1]])
    assert objects_beside_a_smaller_face(turned, 4, support, (480, 640))
    # A 2x2 has no smaller face.
    assert not objects_beside_a_smaller_face(face_h, 2, np.eye(2, dtype=bool), (480, 640))


@pytest.mark.parametrize(
    ("turn", "top", "plausible"),
    [
        (45.0, -40.0, True),  # a diamond whose top corner sticker is cut: 1 middle of 25 out
        (0.0, -40.0, False),  # upright, its top row cut: 5 middles out
        (0.0, -20.0, True),  # upright, its corners within the margin (a sixth of a pitch)
        (45.0, -100.0, False),  # a diamond cut by two pitches: 3 middles out (and its corner)
    ],
)
def test_a_large_face_may_run_past_the_frame_by_a_corner_sticker(
    turn: float, top: float, plausible: bool
) -> None:
    face_h = _turned_5x5(turn, top)
    quad = warp_points(np.array([[0, 0], [5, 0], [5, 5], [0, 5]], float), face_h)
    seen = np.ones((5, 5), bool)
    in_view = corners_near(quad, (480, 640)) or cut_at_a_corner(quad, face_h, seen, (480, 640))
    assert in_view == plausible


@pytest.mark.parametrize(
    ("turn", "top", "cut"),
    [
        (45.0, 20.0, False),  # a diamond in view
        (45.0, -40.0, False),  # its top corner sticker's middle out, its neighbours' cut into
        (45.0, -60.0, False),  # ... further out, still only those three cut into
        (45.0, -70.0, True),  # ... and the stickers past those three cut into
        (0.0, -4.0, False),  # upright, the frame cutting only the gap above its top row
        (0.0, -10.0, True),  # upright, its top row's stickers cut into
    ],
)
def test_a_face_may_be_cut_by_the_frame_at_its_corner_stickers_only(turn, top, cut):
    # Pitch 40 px: the square a sticker surely covers reaches 8 px from its cell's sides.
    detection = make_detection(_turned_5x5(turn, top), 5, np.ones((5, 5)))
    assert cut_along_a_side(detection, (480, 640)) == cut


def _turned_5x5(turn: float, top: float) -> np.ndarray:
    """The homography of a 5x5 of 40 px pitch, turned ``turn`` degrees, in the middle of a
    640x480 frame across and its top corner at ``top`` px."""
    angle = np.radians(turn)
    rotation = 40.0 * np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    face_h = np.eye(3)
    face_h[:2, :2] = rotation
    quad = np.array([[0, 0], [5, 0], [5, 5], [0, 5]], float) @ rotation.T
    face_h[:2, 2] = [320.0 - quad[:, 0].mean(), top - quad[:, 1].min()]
    return face_h


@pytest.mark.parametrize(("seed", "index"), [(7, 355), (99, 1027), (99, 1831)])
def test_a_large_face_cut_by_the_frame_at_a_corner_sticker_is_found(seed: int, index: int):
    # eval_detect.py scenes: 5x5 faces held close at 1920x1080, a corner of each a pitch or
    # more past the frame's edge (24 of the 25 stickers in view); in 1831 two corners, one
    # with a neighbour (22 in view).
    image, truth = eval_detect_scene(index, seed)
    assert matches(detect_grid(image), truth)
