"""Puzzles as data: the stickers, pieces, orbits and moves built from geometry."""

from __future__ import annotations

import numpy as np
import pytest

from cubescan.errors import BadInputError
from cubescan.solver.moves import move_permutation, parse_moves
from cubescan.solver.puzzles import PUZZLE_NAMES, normalize_name, puzzle
from cubescan.solver.puzzles.definition import (
    cell_normal,
    cell_of_normal,
    frame_sign,
    rotation_group,
    twist_matrix,
)

# Hoey (1982): each clockwise quarter-twist as a 4-cycle of the twisted cell's faces.
HOEY = (
    "Of=URDL Ou=RFLB Or=FUBD If=RULD Iu=FRBL Ir=UFDB Ro=UFDB Rf=OUID Ru=FOBI Lo=FUBD "
    "Lf=UODI Lu=OFIB Ur=OFIB Uo=FRBL Uf=ROLI Dr=FOBI Do=RFLB Df=ORIL Fu=ORIL Fr=UODI "
    "Fo=RULD Bu=ROLI Br=OUID Bo=URDL"
)

SHAPES = {
    "2x2x2x2": (64, {"corners": (16, "A4")}),
    "3x3x3x3": (
        216,
        {
            "corners": (16, "A4"),
            "edges": (32, "S3"),
            "ridges": (24, "Z2"),
            "centres": (8, "1"),
        },
    ),
}


def test_the_twist_matrices_reproduce_hoeys_table_of_clockwise_twists():
    for entry in HOEY.split():
        name, cycle = entry.split("=")
        matrix = twist_matrix(name[0], name[1])
        for a, b in zip(cycle, cycle[1:] + cycle[0], strict=True):
            assert cell_of_normal(matrix @ cell_normal(a)) == b, (name, a, b)
        assert round(np.linalg.det(matrix)) == 1
        assert (matrix @ cell_normal(name[0])).tolist() == cell_normal(name[0]).tolist()


def test_hoeys_movement_group_test_by_replacements_agrees_with_the_determinant():
    # FLOD -> UROB is in the group: three replacements, then an odd permutation.
    assert frame_sign("FLOD") == frame_sign("UROB")
    assert frame_sign("OURF") == 1 and frame_sign("OUFR") == -1


@pytest.mark.parametrize("name", SHAPES)
def test_tesseract_stickers_pieces_and_orbits(name):
    p = puzzle(name)
    stickers, orbits = SHAPES[name]
    assert len(p.positions) == stickers == 8 * p.stickers_per_cell
    assert {o.name: (len(o.pieces), o.orientation) for o in p.orbits} == orbits
    covered = sorted(s for piece in p.pieces for s in piece.stickers)
    assert covered == list(range(stickers))
    for piece in p.pieces:
        for sticker, cell in zip(piece.stickers, piece.cells, strict=True):
            assert p.solved()[sticker] == cell
        if piece.kind == "corner":
            assert frame_sign(piece.cells) == 1


@pytest.mark.parametrize("name", PUZZLE_NAMES)
def test_every_move_is_a_quarter_turn_that_carries_pieces_onto_pieces(name):
    p = puzzle(name)
    slot_of = {s: k for k, piece in enumerate(p.pieces) for s in piece.stickers}
    for perm in p.moves.values():
        assert sorted(perm.tolist()) == list(range(len(perm)))
        power = np.arange(len(perm))
        for _ in range(4):
            power = power[perm]
        assert (power == np.arange(len(perm))).all()
        assert (perm != np.arange(len(perm))).any()
        for piece in p.pieces:
            targets = {slot_of[int(t)] for t in np.flatnonzero(np.isin(perm, piece.stickers))}
            assert len(targets) == 1


def test_cube_moves_are_the_solver_moves():
    for size, names in ((3, "U R F D L B"), (4, "U 2U R 2R F 3F")):
        p = puzzle(f"{size}x{size}")
        for move in parse_moves(names, size):
            assert (p.moves[str(move)] == move_permutation(move, size)).all()


def test_opposite_clockwise_twists_act_inversely_on_their_cells():
    # Hoey: Of on the O cell is the inverse of If on the I cell (seen as face cycles).
    for cell, opposite in ("OI", "RL", "UD", "FB"):
        for axis in "furo":
            if abs(int(cell_normal(axis.upper()) @ cell_normal(cell))) == 1:
                continue
            a, b = twist_matrix(cell, axis), twist_matrix(opposite, axis)
            inner = np.eye(4, dtype=int) - np.outer(cell_normal(cell), cell_normal(cell))
            assert ((a @ b) @ inner == inner).all()


def test_clockwise_twists_in_different_planes_never_move_an_edge_the_same_way():
    # Hoey: when two twists move an edge from E1 to E2, one is clockwise and the other
    # counterclockwise (his example: Dr and Fr' both take FID to FOD). Twists turning
    # the same plane (Ro and Ir) carry their shared edges alike and are left out.
    p = puzzle("3x3x3x3")
    edges = next(o for o in p.orbits if o.name == "edges").pieces
    seen: dict[tuple[int, int], str] = {}

    def plane(name: str) -> bytes:
        return (twist_matrix(name[0], name[1]) - np.eye(4, dtype=int)).astype(bool).tobytes()

    for name, perm in p.moves.items():
        for k in edges:
            source = p.pieces[k].stickers[0]
            target = int(np.flatnonzero(perm == source)[0])
            slot = next(j for j in edges if target in p.pieces[j].stickers)
            if slot == k:
                continue
            other = seen.setdefault((k, slot), name)
            assert plane(other) == plane(name), (name, other)
    fid = next(j for j in edges if set(p.pieces[j].cells) == set("FID"))
    fod = next(j for j in edges if set(p.pieces[j].cells) == set("FOD"))
    assert seen[(fid, fod)] == "Dr" and seen[(fod, fid)] == "Fr"


def test_rotation_groups_and_names():
    assert len(rotation_group(3)) == 24 and len(rotation_group(4)) == 192
    assert normalize_name(" 3X3 ") == "3x3x3"
    with pytest.raises(BadInputError) as err:
        normalize_name("5x5x5x5")
    assert err.value.code == "bad-puzzle"


def test_documented_facelet_order_of_the_tesseracts():
    p = puzzle("2x2x2x2")
    # O cell first; within a cell x, y, z vary (first slowest) from negative to positive.
    assert p.positions[:2].tolist() == [[-1, -1, -1, 2], [-1, -1, 1, 2]]
    assert p.sticker_name(8) == "I1" and p.positions[8].tolist() == [-1, -1, -1, -2]
    q = puzzle("3x3x3x3")
    assert q.positions[27 * 2].tolist() == [3, -2, -2, -2]  # R1: y, z, w from -2
    assert q.sticker_name(13) == "O14" and q.positions[13].tolist() == [0, 0, 0, 3]


@pytest.mark.parametrize("name", ["2x2x2", "3x3x3", "4x4x4", "5x5x5", "2x2x2x2", "3x3x3x3"])
def test_one_orientation_group_describes_every_slot_of_an_orbit(name):
    # The rotations fixing each slot permute its stickers (read in the slot's order) by
    # exactly the orbit's group: the reading orders are uniform across the orbit.
    p = puzzle(name)
    rotations = rotation_group(p.dimension)
    for orbit in p.orbits:
        group = set(orbit.orientations)
        assert orbit.orientations[0] == tuple(range(len(next(iter(group)))))
        for k in orbit.pieces:
            piece = p.pieces[k]
            normals = [tuple(p.normals[s].tolist()) for s in piece.stickers]
            found = set()
            for rotation in rotations:
                if (rotation @ np.array(piece.position) == np.array(piece.position)).all():
                    found.add(tuple(normals.index(tuple((rotation @ n).tolist())) for n in normals))
            assert found == group, (name, orbit.name, piece.cells)
