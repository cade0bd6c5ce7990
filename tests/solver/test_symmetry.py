"""The 16 UD symmetries: a group, acting on moves, facelets, cubies and coordinates alike."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubescan.solver import coords
from cubescan.solver.cubie import facelets_to_cubie, random_cubie
from cubescan.solver.moves import apply_moves, outer_moves, solved_facelets
from cubescan.solver.symmetry import (
    SYMMETRY_COUNT,
    conjugate_cubie,
    conjugate_facelets,
    conjugation_table,
    symmetry_inverses,
    symmetry_move_table,
    symmetry_product_table,
    ud_symmetries,
)

symmetries = st.integers(min_value=0, max_value=SYMMETRY_COUNT - 1)
move_lists = st.lists(st.integers(min_value=0, max_value=17), max_size=25)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def test_sixteen_distinct_matrices_that_keep_the_ud_axis():
    matrices = ud_symmetries()
    assert len({m.tobytes() for m in matrices}) == SYMMETRY_COUNT
    assert np.array_equal(matrices[0], np.eye(3))
    for m in matrices:
        assert np.array_equal(m @ m.T, np.eye(3))
        assert abs(int(m @ np.array([0, 1, 0]) @ np.array([0, 1, 0]))) == 1
    dets = [round(np.linalg.det(m)) for m in matrices]
    assert dets.count(1) == 8 and dets.count(-1) == 8


def test_closed_under_product_with_inverses():
    matrices = ud_symmetries()
    product = symmetry_product_table()
    for s, a in enumerate(matrices):
        for t, b in enumerate(matrices):
            assert np.array_equal(matrices[product[s, t]], a @ b)
    inverse = symmetry_inverses()
    assert (product[np.arange(SYMMETRY_COUNT), inverse] == 0).all()
    assert (product[inverse, np.arange(SYMMETRY_COUNT)] == 0).all()


def test_move_action_is_a_homomorphism_and_keeps_the_phase2_moves():
    sym_moves = symmetry_move_table()
    product = symmetry_product_table()
    for s in range(SYMMETRY_COUNT):
        assert sorted(sym_moves[s]) == list(range(18))
        assert set(sym_moves[s, list(coords.PHASE2_MOVES)]) == set(coords.PHASE2_MOVES)
        for t in range(SYMMETRY_COUNT):
            assert (sym_moves[product[s, t]] == sym_moves[s, sym_moves[t]]).all()


@pytest.mark.parametrize("symmetry", range(SYMMETRY_COUNT))
def test_conjugated_move_is_the_move_seen_through_the_symmetry(symmetry):
    solved = solved_facelets(3)
    moves = outer_moves()
    assert conjugate_facelets(solved, symmetry) == solved
    for m, move in enumerate(moves):
        image = moves[symmetry_move_table()[symmetry, m]]
        assert conjugate_facelets(apply_moves(solved, [move]), symmetry) == apply_moves(
            solved, [image]
        )


@settings(max_examples=60, deadline=None)
@given(symmetry=symmetries, sequence=move_lists)
def test_conjugating_a_state_conjugates_its_moves(symmetry, sequence):
    moves = outer_moves()
    solved = solved_facelets(3)
    state = apply_moves(solved, [moves[m] for m in sequence])
    images = [moves[symmetry_move_table()[symmetry, m]] for m in sequence]
    assert conjugate_facelets(state, symmetry) == apply_moves(solved, images)


@settings(max_examples=30, deadline=None)
@given(s=symmetries, t=symmetries, seed=seeds)
def test_cubie_conjugation_composes_like_the_symmetries(s, t, seed):
    cube = random_cubie(np.random.default_rng(seed))
    twice = conjugate_cubie(conjugate_cubie(cube, t), s)
    assert twice == conjugate_cubie(cube, int(symmetry_product_table()[s, t]))
    back = conjugate_cubie(conjugate_cubie(cube, s), int(symmetry_inverses()[s]))
    assert back == cube
    # Conjugation commutes with composition: (ab)^S = a^S b^S.
    other = random_cubie(np.random.default_rng(seed + 1))
    assert conjugate_cubie(cube.multiply(other), s) == conjugate_cubie(cube, s).multiply(
        conjugate_cubie(other, s)
    )


def test_twist_conjugation_table_matches_cubies_and_every_move():
    table = conjugation_table(coords.twist_move_table())
    move = coords.twist_move_table()
    sym_moves = symmetry_move_table()
    for s in range(SYMMETRY_COUNT):
        for m in range(18):
            assert (table[move[:, m], s] == move[table[:, s], sym_moves[s, m]]).all()
    rng = np.random.default_rng(5)
    for _ in range(40):
        cube = random_cubie(rng)
        for s in range(SYMMETRY_COUNT):
            assert coords.twist(conjugate_cubie(cube, s)) == table[coords.twist(cube), s]


def test_flip_slice_conjugation_matches_cubies():
    move_slice = coords.edge4_move_table(coords.SLICE_EDGES)[:: coords.N_PERM4] // 24
    table = conjugation_table(move_slice, coords.flip_move_table())
    assert table.min() >= 0
    rng = np.random.default_rng(6)
    for _ in range(40):
        cube = random_cubie(rng)
        pair = (coords.slice_sorted(cube) // 24) * coords.N_FLIP + coords.flip(cube)
        for s in range(SYMMETRY_COUNT):
            image = conjugate_cubie(cube, s)
            expected = (coords.slice_sorted(image) // 24) * coords.N_FLIP + coords.flip(image)
            assert table[pair, s] == expected


def test_mirror_conjugate_of_a_legal_cube_is_legal():
    cube = facelets_to_cubie(apply_moves(solved_facelets(3), "R U F' D2 L B'"))
    for s in range(8, SYMMETRY_COUNT):
        image = conjugate_cubie(cube, s)
        assert image.corner_twist_total == 0 and image.edge_flip_total == 0
        assert image.corner_parity == image.edge_parity
