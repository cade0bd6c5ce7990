"""The geometric model: facelet order, pieces and orbits are computed correctly."""

from __future__ import annotations

import numpy as np
import pytest

from cubescan.solver.cubie import CORNERS, EDGES, corner_slots, edge_slots
from cubescan.solver.geometry import FACES, cube_geometry, face_normal, rotation_matrices


@pytest.mark.parametrize("size", range(2, 8))
def test_every_sticker_is_on_the_surface_with_its_normal(size):
    geo = cube_geometry(size)
    assert geo.positions.shape == (6 * size * size, 3)
    along_normal = np.einsum("ij,ij->i", geo.positions, geo.normals)
    assert (along_normal == size).all()
    assert len({tuple(p) for p in geo.positions}) == 6 * size * size


@pytest.mark.parametrize("size", range(2, 8))
def test_piece_counts_match_the_cube(size):
    geo = cube_geometry(size)
    kinds = [p.kind for p in geo.pieces]
    assert kinds.count("corner") == 8
    edges_per_edge = size - 2
    assert kinds.count("edge") + kinds.count("wing") == 12 * edges_per_edge
    assert kinds.count("edge") == (12 if size % 2 else 0)
    assert kinds.count("center") == 6 * (size - 2) ** 2
    assert sum(len(p.facelets) for p in geo.pieces) == 6 * size * size


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        (2, {"corner": [8]}),
        (3, {"corner": [8], "edge": [12], "center": [6]}),
        (4, {"corner": [8], "wing": [24], "center": [24]}),
        (5, {"corner": [8], "edge": [12], "wing": [24], "center": [24, 24, 6]}),
        (6, {"corner": [8], "wing": [24, 24], "center": [24, 24, 24, 24]}),
    ],
)
def test_orbits_are_the_known_ones(size, expected):
    geo = cube_geometry(size)
    found: dict[str, list[int]] = {}
    for orbit in geo.orbits:
        found.setdefault(orbit.kind, []).append(len(orbit.pieces))
    assert {k: sorted(v) for k, v in found.items()} == {k: sorted(v) for k, v in expected.items()}


def test_oblique_centers_of_a_6x6_are_two_mirror_orbits():
    names = [o.name for o in cube_geometry(6).orbits if o.kind == "center"]
    assert len(names) == len(set(names)) == 4


def test_facelet_order_matches_the_classic_corner_and_edge_tables():
    # The classic two-phase solver's facelet tables, written as 1-based facelet names.
    corner_names = [
        "U9 R1 F3", "U7 F1 L3", "U1 L1 B3", "U3 B1 R3",
        "D3 F9 R7", "D1 L9 F7", "D7 B9 L7", "D9 R9 B7",
    ]  # fmt: skip
    edge_names = [
        "U6 R2", "U8 F2", "U4 L2", "U2 B2", "D6 R8", "D2 F8",
        "D4 L8", "D8 B8", "F6 R4", "F4 L6", "B6 L4", "B4 R6",
    ]  # fmt: skip
    name = cube_geometry(3).facelet_name
    assert [" ".join(name(i) for i in slot) for slot in corner_slots(3)] == corner_names
    assert [" ".join(name(i) for i in slot) for slot in edge_slots(3)] == edge_names


def test_corner_names_list_stickers_clockwise_from_outside():
    for corner in CORNERS:
        a, b, c = (face_normal(face) for face in corner)
        # Clockwise seen from outside = negative orientation in right-handed axes.
        assert np.linalg.det(np.array([a, b, c])) == pytest.approx(-1)
    assert len(EDGES) == 12


def test_rotations_form_the_24_element_group():
    mats = rotation_matrices()
    assert len(mats) == 24
    assert all(round(np.linalg.det(m)) == 1 for m in mats)


def test_net_directions_follow_the_design_picture():
    geo = cube_geometry(3)
    # U1 is the back-left corner of U; F1 is the top-left of F; D1 the front-left of D.
    assert tuple(geo.positions[geo.facelet_index("U", 0, 0)]) == (-2, 3, -2)
    assert tuple(geo.positions[geo.facelet_index("F", 0, 0)]) == (-2, 2, 3)
    assert tuple(geo.positions[geo.facelet_index("D", 0, 0)]) == (-2, -3, 2)
    assert tuple(geo.positions[geo.facelet_index("B", 0, 0)]) == (2, 2, -3)
    assert FACES == "URFDLB"
