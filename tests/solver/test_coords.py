"""Coordinates: conversions round-trip and move tables agree with the cubie model."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubescan.solver import coords
from cubescan.solver.cubie import CubieCube, facelets_to_cubie, move_cubie, random_cubie
from cubescan.solver.moves import apply_moves, outer_moves, solved_facelets

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def test_solved_cube_is_all_zero():
    cube = CubieCube()
    values = [
        coords.twist(cube),
        coords.flip(cube),
        coords.slice_sorted(cube),
        coords.u_edges(cube),
        coords.d_edges(cube),
        coords.corners(cube),
        coords.ud_edges(cube),
    ]
    assert values == [0] * 7


def test_batch_conversions_round_trip():
    all_twists = np.arange(coords.N_TWIST)
    assert (coords.twist_of(coords.co_of_twist(all_twists)) == all_twists).all()
    all_flips = np.arange(coords.N_FLIP)
    assert (coords.flip_of(coords.eo_of_flip(all_flips)) == all_flips).all()
    all_perms = np.arange(coords.N_CORNERS)
    assert (coords.perm_rank(coords.perm_of_rank(all_perms, 8)) == all_perms).all()
    for pieces in (coords.U_EDGES, coords.D_EDGES, coords.SLICE_EDGES):
        values = np.arange(coords.N_EDGE4)
        assert (coords.edge4_of(coords.ep_of_edge4(values, pieces), pieces) == values).all()


def test_decoded_orientations_are_legal():
    co = coords.co_of_twist(np.arange(coords.N_TWIST))
    eo = coords.eo_of_flip(np.arange(coords.N_FLIP))
    assert (co.sum(axis=1) % 3 == 0).all()
    assert (eo.sum(axis=1) % 2 == 0).all()


def test_slice_sorted_is_small_exactly_in_phase_2():
    # Phase-2 moves keep the middle-layer edges home; R moves two of them out.
    cube = facelets_to_cubie(apply_moves(solved_facelets(3), "U R2 D' F2 L2 B2"))
    assert coords.slice_sorted(cube) < coords.N_PERM4
    assert coords.u_edges(cube) < coords.N_U_EDGES_PHASE2
    cube = facelets_to_cubie(apply_moves(solved_facelets(3), "R"))
    assert coords.slice_sorted(cube) >= coords.N_PERM4
    with pytest.raises(ValueError):
        coords.ud_edges(cube)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, move=st.integers(min_value=0, max_value=17))
def test_move_tables_agree_with_cubie_moves(seed, move):
    cube = random_cubie(np.random.default_rng(seed))
    after = cube.multiply(move_cubie(outer_moves()[move]))
    assert coords.twist_move_table()[coords.twist(cube), move] == coords.twist(after)
    assert coords.flip_move_table()[coords.flip(cube), move] == coords.flip(after)
    assert coords.corners_move_table()[coords.corners(cube), move] == coords.corners(after)
    for pieces, of in (
        (coords.SLICE_EDGES, coords.slice_sorted),
        (coords.U_EDGES, coords.u_edges),
        (coords.D_EDGES, coords.d_edges),
    ):
        assert coords.edge4_move_table(pieces)[of(cube), move] == of(after)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, move=st.sampled_from(coords.PHASE2_MOVES))
def test_phase2_tables_agree_with_cubie_moves(seed, move):
    rng = np.random.default_rng(seed)
    moves = outer_moves()
    cube = CubieCube()
    for index in rng.choice(coords.PHASE2_MOVES, size=12):
        cube = cube.multiply(move_cubie(moves[int(index)]))
    after = cube.multiply(move_cubie(moves[move]))
    assert coords.ud_edges_move_table()[coords.ud_edges(cube), move] == coords.ud_edges(after)
    merged = coords.ud_edges_merge_table()[coords.u_edges(cube), coords.d_edges(cube) % 24]
    assert merged == coords.ud_edges(cube)


def test_move_index_matches_outer_moves():
    assert [coords.move_index(m) for m in outer_moves()] == list(range(18))
    for index in coords.PHASE2_MOVES:
        move = outer_moves()[index]
        assert move.face in "UD" or move.turns == 2
