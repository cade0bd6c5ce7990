"""The phase-1 distance table: exact against a plain breadth-first search, consistent everywhere."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubescan.solver import coords, phase1, tables
from cubescan.solver.cubie import CubieCube, facelets_to_cubie, random_cubie
from cubescan.solver.moves import apply_moves, outer_moves, solved_facelets
from cubescan.solver.symmetry import SYMMETRY_COUNT, conjugate_cubie

PLAIN_DEPTH = 5
N_PAIRS = coords.N_FLIP * coords.N_SLICE


@pytest.fixture(scope="module")
def built(table_cache):
    """Tables in this session's shared tmp cache (built once for all solver tests)."""
    return tables.load_tables(progress=False)


@pytest.fixture(scope="module")
def plain_levels(built):
    """Every phase-1 state (twist, flip, slice) at each distance up to PLAIN_DEPTH, by BFS."""
    move_twist, move_flip, move_slice = (
        built[k] for k in ("move_twist", "move_flip", "move_slice")
    )
    seen = frontier = np.array([0], dtype=np.int64)
    levels = [frontier]
    for _ in range(PLAIN_DEPTH):
        twist, rest = np.divmod(frontier, N_PAIRS)
        flip, slc = np.divmod(rest, coords.N_SLICE)
        reached = np.unique(
            np.concatenate(
                [
                    move_twist[twist, m].astype(np.int64) * N_PAIRS
                    + move_flip[flip, m].astype(np.int64) * coords.N_SLICE
                    + move_slice[slc, m]
                    for m in range(18)
                ]
            )
        )
        frontier = np.setdiff1d(reached, seen, assume_unique=True)
        seen = np.union1d(seen, frontier)
        levels.append(frontier)
    return levels


def phase1_coords(cube: CubieCube) -> tuple[int, int, int]:
    return coords.twist(cube), coords.flip(cube), coords.slice_sorted(cube) // 24


def test_sizes_and_class_count(built):
    assert len(built["flipslice_rep"]) == phase1.N_FLIPSLICE_CLASSES == 64430
    assert built["phase1_mod3"].nbytes == (phase1.N_ENTRIES + 3) // 4
    assert built["flipslice_class"].max() == phase1.N_FLIPSLICE_CLASSES - 1


def test_plain_bfs_level_sizes_are_the_known_ones(plain_levels):
    assert [len(level) for level in plain_levels] == [1, 4, 50, 592, 7156, 87236]


def test_distance_is_exact_against_plain_bfs(built, plain_levels):
    rng = np.random.default_rng(0)
    for depth, level in enumerate(plain_levels):
        for value in rng.choice(level, min(200, len(level)), replace=False):
            twist, rest = divmod(int(value), N_PAIRS)
            flip, slc = divmod(rest, coords.N_SLICE)
            assert phase1.distance(built, twist, flip, slc) == depth


@settings(max_examples=60, deadline=None)
@given(sequence=st.lists(st.integers(min_value=0, max_value=17), min_size=6, max_size=9))
def test_distance_of_short_scrambles(built, plain_levels, sequence):
    moves = outer_moves()
    cube = facelets_to_cubie(apply_moves(solved_facelets(3), [moves[m] for m in sequence]))
    twist, flip, slc = phase1_coords(cube)
    value = twist * N_PAIRS + flip * coords.N_SLICE + slc
    found = phase1.distance(built, twist, flip, slc)
    assert found <= len(sequence)
    plain = [d for d, level in enumerate(plain_levels) if np.isin(value, level)]
    if plain:
        assert found == plain[0]
    else:
        assert found > PLAIN_DEPTH


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_neighbours_differ_by_at_most_one_and_one_is_closer(built, seed):
    cube = random_cubie(np.random.default_rng(seed))
    twist, flip, slc = phase1_coords(cube)
    here = phase1.distance(built, twist, flip, slc)
    assert 1 <= here <= 12
    around = [
        phase1.distance(
            built,
            int(built["move_twist"][twist, m]),
            int(built["move_flip"][flip, m]),
            int(built["move_slice"][slc, m]),
        )
        for m in range(18)
    ]
    assert all(abs(d - here) <= 1 for d in around)
    assert min(around) == here - 1


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_symmetric_states_have_equal_distance_and_share_a_class(built, seed):
    cube = random_cubie(np.random.default_rng(seed))
    twist, flip, slc = phase1_coords(cube)
    here = phase1.distance(built, twist, flip, slc)
    pair = slc * coords.N_FLIP + flip
    rep = int(built["flipslice_rep"][built["flipslice_class"][pair]])
    # The stored symmetry takes the pair to its class's representative.
    to_rep = conjugate_cubie(cube, int(built["flipslice_sym"][pair]))
    assert (coords.slice_sorted(to_rep) // 24) * coords.N_FLIP + coords.flip(to_rep) == rep
    for s in range(SYMMETRY_COUNT):
        image = conjugate_cubie(cube, s)
        t2, f2, s2 = phase1_coords(image)
        assert built["flipslice_class"][s2 * coords.N_FLIP + f2] == built["flipslice_class"][pair]
        assert phase1.distance(built, t2, f2, s2) == here
