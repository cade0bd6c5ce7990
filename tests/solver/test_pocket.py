"""The optimal 2x2 solver: the distance table is the known one and every solution is proven."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubescan.errors import UnsolvableCubeError
from cubescan.solver.cubie import corner_slots, random_state
from cubescan.solver.moves import apply_moves, layer_moves, solved_facelets
from cubescan.solver.pocket import STATES, is_solved, pocket_tables, solve_pocket

# Number of 2x2 states at each distance in half-turn moves (the published table).
PUBLISHED_DISTRIBUTION = [1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644]


@pytest.fixture(scope="module", autouse=True)
def tables(table_cache):
    return pocket_tables()


def test_distance_table_covers_every_state_with_the_published_distribution():
    distance = pocket_tables()["distance"]
    assert distance.size == STATES == 3_674_160
    assert (distance >= 0).all()
    assert np.bincount(distance).tolist() == PUBLISHED_DISTRIBUTION


@given(
    st.integers(0, 2**32 - 1), st.lists(st.sampled_from(["x", "y", "z", "x2", "y'"]), max_size=3)
)
@settings(max_examples=60, deadline=None)
def test_random_states_held_any_way_are_solved_optimally(seed, rotations):
    state = apply_moves(random_state(np.random.default_rng(seed), size=2), " ".join(rotations))
    moves = solve_pocket(state)
    assert is_solved(apply_moves(state, moves))
    assert len(moves) <= 11
    # Optimal: no solution is one move shorter (checked through the table's own invariant
    # on the moves: each move lowers the distance by exactly one).
    assert len(moves) == len(solve_pocket(apply_moves(state, moves[:1]))) + 1 or not moves


def test_solved_and_one_move_away():
    assert solve_pocket(solved_facelets(2)) == []
    assert [str(m) for m in solve_pocket(apply_moves(solved_facelets(2), "R"))] == ["R'"]
    for move in layer_moves(2):
        assert len(solve_pocket(apply_moves(solved_facelets(2), [move]))) <= 1


def test_color_letters_are_solved_too():
    state = apply_moves(solved_facelets(2), "R U F2").translate(str.maketrans("URFDLB", "WRGYOB"))
    assert len(solve_pocket(state)) == 3


def test_unsolvable_2x2_raises_the_diagnosis():
    letters = list(solved_facelets(2))
    a, b, c = corner_slots(2)[0]
    letters[a], letters[b], letters[c] = letters[c], letters[a], letters[b]
    twisted = "".join(letters)
    with pytest.raises(UnsolvableCubeError) as err:
        solve_pocket(twisted)
    assert err.value.code == "corner-twist"
    assert "twist" in err.value.message
