"""Cubie level: exact conversions and the classic move definitions."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from cubescan.solver.cubie import (
    CubieCube,
    cubie_to_facelets,
    facelets_to_cubie,
    move_cubie,
    random_cubie,
    random_state,
)
from cubescan.solver.moves import Move, apply_moves, outer_moves, parse_moves, solved_facelets

SOLVED = solved_facelets(3)


def test_r_and_f_match_the_classic_cubie_tables():
    r = move_cubie(Move("R"))
    assert r.cp == (4, 1, 2, 0, 7, 5, 6, 3)
    assert r.co == (2, 0, 0, 1, 1, 0, 0, 2)
    assert r.ep == (8, 1, 2, 3, 11, 5, 6, 7, 4, 9, 10, 0)
    f = move_cubie(Move("F"))
    assert f.cp == (1, 5, 2, 3, 0, 4, 6, 7)
    assert f.co == (1, 2, 0, 0, 2, 1, 0, 0)
    assert f.eo == (0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0)


seeds = st.integers(0, 2**32 - 1)


@given(seeds)
def test_facelet_cubie_facelet_round_trip(seed):
    cube = random_cubie(np.random.default_rng(seed))
    facelets = cubie_to_facelets(cube)
    assert facelets_to_cubie(facelets) == cube
    assert cubie_to_facelets(facelets_to_cubie(facelets)) == facelets


@given(st.lists(st.sampled_from(outer_moves()), max_size=30))
def test_cubie_multiplication_agrees_with_sticker_moves(moves):
    cube = CubieCube()
    for move in moves:
        cube = cube.multiply(move_cubie(move))
    assert cubie_to_facelets(cube) == apply_moves(SOLVED, moves)


@given(seeds)
def test_inverse_undoes(seed):
    cube = random_cubie(np.random.default_rng(seed))
    assert cube.multiply(cube.inverse()) == CubieCube()
    assert cube.inverse().multiply(cube) == CubieCube()


@given(seeds)
def test_random_cubies_obey_the_three_laws(seed):
    cube = random_cubie(np.random.default_rng(seed))
    assert cube.corner_twist_total == 0
    assert cube.edge_flip_total == 0
    assert cube.corner_parity == cube.edge_parity


def test_random_states_are_uniform_over_corner_positions():
    # Each corner piece lands in each slot with probability 1/8.
    rng = np.random.default_rng(7)
    hits = np.zeros((8, 8))
    for _ in range(4000):
        cube = random_cubie(rng)
        hits[np.arange(8), cube.cp] += 1
    assert np.abs(hits / 4000 - 1 / 8).max() < 0.03


def test_2x2_cubies_have_no_edges():
    state = random_state(np.random.default_rng(3), size=2)
    assert len(state) == 24
    cube = facelets_to_cubie(state)
    assert cube.ep == () and cube.corner_twist_total == 0


def test_superflip_is_every_edge_flipped():
    superflip = apply_moves(
        SOLVED, parse_moves("U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2")
    )
    cube = facelets_to_cubie(superflip)
    assert cube.eo == (1,) * 12 and cube.ep == tuple(range(12))
