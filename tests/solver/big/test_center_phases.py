"""The 4x4's and 5x5's table-driven centre phases: masks turn as the cube does, tables are
distances, and a solve leaves every centre home and every wing orbit even."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubescan.solver.big.center_phases import (
    center_model,
    center_tables,
    solve_centers_by_phases,
)
from cubescan.solver.big.reduce import _relabelled
from cubescan.solver.big.targets import (
    center_stickers,
    piece_orbits,
    wing_permutation_is_odd,
    wing_targets,
)
from cubescan.solver.moves import apply_moves, layer_moves, solved_facelets

PHASE_COLORS = (("R", "L"), ("U", "D"), ("U", "R", "F"))


def scrambled(seed: int, length: int = 100, size: int = 5) -> str:
    """A random N x N, relabelled as the reduction sees it."""
    moves = layer_moves(size)
    picks = np.random.default_rng(seed).integers(len(moves), size=length)
    return _relabelled(apply_moves(solved_facelets(size), [moves[i] for i in picks]), size)


def turned(masks: np.ndarray, move: int, size: int = 5) -> np.ndarray:
    bytes_of = center_model(size).bytes_of
    return np.array(
        [
            bytes_of[o, move, 0, m & 255]
            | bytes_of[o, move, 1, m >> 8 & 255]
            | bytes_of[o, move, 2, m >> 16]
            for o, m in enumerate(masks)
        ]
    )


def test_the_model_reads_the_orbits_and_three_move_sets():
    for size, orbits in ((4, 1), (5, 2)):
        model = center_model(size)
        assert model.stickers.shape == (orbits, 24)
        assert [len(m) for m in model.phase_moves] == [54, 38, 30]
        # Only inner slices' quarter turns (alone or in a wide block) change a wing
        # orbit's parity, and phase 3 has none: the parity phase 2 leaves stays.
        flipping = {str(model.moves[m]) for m in np.flatnonzero(model.wing_flips[:, 0])}
        assert flipping == {str(m) for m in model.moves if m.last == 2 and m.turns != 2}
        assert not model.wing_flips[model.phase_moves[2]].any()


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([4, 5]),
    st.integers(0, 10**6),
    st.integers(0, 53),
    st.sampled_from(PHASE_COLORS),
)
def test_a_turned_mask_is_the_mask_of_the_turned_cube(size, seed, move, colors):
    model = center_model(size)
    cube = scrambled(seed, 30, size)
    after = apply_moves(cube, [model.moves[move]])
    assert (turned(model.masks(cube, colors), move, size) == model.masks(after, colors)).all()


@pytest.mark.parametrize("size", [4, 5])
def test_tables_are_distances_one_turn_apart(size):
    model = center_model(size)
    first, second, third = center_tables(size)
    goals = model.goal(PHASE_COLORS[0])
    assert all(int(first[o, g]) == 0 for o, g in enumerate(goals))
    assert np.count_nonzero(first[0] != 255) == 735_471  # 8 of 24 places: C(24, 8)
    assert np.count_nonzero(second[0] != 255) == 12_870  # 8 of 16: C(16, 8)
    # Phase 3: a pair of orbits' 4 of 8 on one axis each (the 4x4's orbit paired with
    # itself: its own 4 of 8, twice).
    assert np.count_nonzero(third[0] != 255) == (70 if size == 4 else 70 * 70)
    rng = np.random.default_rng(0)
    reached = np.flatnonzero(first[0] != 255)
    orbits = len(model.stickers)
    for mask in rng.choice(reached, 200):
        for move in model.phase_moves[0]:
            after = turned(np.full(orbits, mask), move, size)[0]
            assert abs(int(first[0, after]) - int(first[0, mask])) <= 1


@pytest.mark.parametrize("size", [4, 5])
def test_a_solve_puts_every_centre_home_and_leaves_the_wings_even(size):
    # The phases may give up on a cube (the beam search then solves it); of these six
    # they solve at least two (a 4x4: all six).
    solved = 0
    per_face = size * size
    for seed in range(6):
        cube = scrambled(seed, 100, size)
        moves = solve_centers_by_phases(cube)
        if moves is None:
            continue
        solved += 1
        done = apply_moves(cube, moves)
        assert all(done[i] == "URFDLB"[i // per_face] for i in center_stickers(size))
        target = wing_targets(done)
        wings = piece_orbits(size, "wing")
        assert not any(wing_permutation_is_odd(done, size, o, target) for o in wings)
        assert len(moves) <= (30 if size == 4 else 50)
    assert solved >= (6 if size == 4 else 2)


def test_a_phase_past_its_node_limit_gives_up():
    assert solve_centers_by_phases(scrambled(0), node_limit=10) is None


@pytest.mark.parametrize("size", [4, 5])
def test_a_short_scramble_gets_short_centres(size):
    cube = apply_moves(solved_facelets(size), "Rw")
    assert len(solve_centers_by_phases(cube)) == 1
