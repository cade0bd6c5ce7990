"""solve(): every answer is proven by applying it; bad cubes get a diagnosis, not a search."""

from __future__ import annotations

import _thread
import random
import signal
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubescan.errors import BadInputError, UnsolvableCubeError
from cubescan.solver import solve as solve_module
from cubescan.solver.cubie import random_state
from cubescan.solver.moves import (
    apply_moves,
    format_moves,
    layer_moves,
    outer_moves,
    solved_facelets,
)
from cubescan.solver.pocket import is_solved
from cubescan.solver.solve import SolveResult, solve, solve_detailed, solve_to

SUPERFLIP_MOVES = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"
seeds = st.integers(min_value=0, max_value=2**32 - 1)


@pytest.fixture(scope="module", autouse=True)
def shared_cache(table_cache):
    """Tables in this session's shared tmp cache (built once for all solver tests)."""
    solve_module.forget_tables()
    yield
    solve_module.forget_tables()


def assert_solves(state: str, moves) -> None:
    if len(state) == 24:
        # A 2x2 has no centres: solved is one colour per face, however it is held.
        assert is_solved(apply_moves(state, moves))
        assert len(moves) <= 11
    else:
        assert apply_moves(state, moves) == solved_facelets(3)


def test_solved_cube_needs_no_moves():
    assert solve(solved_facelets(3)) == []
    assert solve(solved_facelets(2)) == []


@pytest.mark.parametrize("move", outer_moves(), ids=str)
def test_one_move_away_is_solved_in_one(move):
    state = apply_moves(solved_facelets(3), [move])
    moves = solve(state)
    assert moves == [move.inverse]


@settings(max_examples=25, deadline=None)
@given(seed=seeds)
def test_random_states_are_solved_in_at_most_20(seed):
    state = random_state(np.random.default_rng(seed))
    result = solve_detailed(state)
    assert result.length <= 20 and result.target_met and not result.timed_out
    assert_solves(state, result.moves)


@settings(max_examples=60, deadline=None)
@given(sequence=st.lists(st.sampled_from(outer_moves()), max_size=8))
def test_short_scrambles_get_solutions_no_longer_than_the_scramble(sequence):
    state = apply_moves(solved_facelets(3), sequence)
    result = solve_detailed(state)
    assert result.length <= len(sequence)
    assert result.optimal and result.lower_bound == result.length
    assert_solves(state, result.moves)


def test_four_move_scramble_is_undone_in_four():
    result = solve_detailed(apply_moves(solved_facelets(3), "R U R' U'"))
    assert result.text == "U R U' R'" and result.optimal


def test_ten_move_scramble_gets_at_most_ten():
    scramble = "R U2 F' L D B2 R' U F2 D'"
    state = apply_moves(solved_facelets(3), scramble)
    result = solve_detailed(state)
    assert result.length <= 10 and result.optimal
    assert_solves(state, result.moves)


def test_superflip_in_twenty_with_a_lower_bound():
    state = apply_moves(solved_facelets(3), SUPERFLIP_MOVES)
    result = solve_detailed(state)
    assert result.length == 20  # optimal: no 19-move solution exists
    assert_solves(state, result.moves)
    assert 11 <= result.lower_bound <= 20


@settings(max_examples=15, deadline=None)
@given(seed=seeds)
def test_random_2x2_states_are_solved(seed):
    state = random_state(np.random.default_rng(seed), size=2)
    assert_solves(state, solve(state))


def test_color_letters_are_accepted():
    state = apply_moves(solved_facelets(3), "R U2 F' L D")
    colors = state.translate(str.maketrans("URFDLB", "WRGYOB"))
    assert_solves(state, solve(colors))


@settings(max_examples=10, deadline=None)
@given(seed=seeds)
def test_solve_to_reaches_the_target(seed):
    rng = np.random.default_rng(seed)
    start, goal = random_state(rng), random_state(rng)
    moves = solve_to(start, goal)
    assert len(moves) <= 20
    assert apply_moves(start, moves) == goal


def test_solve_to_on_2x2_and_identical_states():
    rng = np.random.default_rng(7)
    start, goal = random_state(rng, 2), random_state(rng, 2)
    assert apply_moves(start, solve_to(start, goal)) == goal
    assert solve_to(start, start) == []
    with pytest.raises(BadInputError):
        solve_to(start, solved_facelets(3))


def test_unsolvable_cube_gets_the_diagnosis_and_no_search(monkeypatch):
    def no_search(*args, **kwargs):
        raise AssertionError("an unsolvable cube must never be searched")

    monkeypatch.setattr(solve_module, "search", no_search)
    state = list(apply_moves(solved_facelets(3), "R U"))
    state[8], state[9], state[20] = state[9], state[20], state[8]  # twist the URF corner
    with pytest.raises(UnsolvableCubeError) as caught:
        solve("".join(state))
    error = caught.value
    assert error.code == "corner-twist"
    assert error.report is not None and error.message == error.report.summary
    assert "twist" in error.message


def test_unreadable_input_and_bad_options():
    with pytest.raises(BadInputError) as caught:
        solve("UUUU")
    assert caught.value.code == "bad-format"
    with pytest.raises(BadInputError):
        solve(solved_facelets(3), max_length=-1)
    with pytest.raises(BadInputError):
        solve(solved_facelets(3), timeout=-1.0)


def test_timeout_returns_best_so_far_with_flag():
    state = random_state(np.random.default_rng(11))
    result = solve_detailed(state, max_length=10, timeout=0.2)
    assert isinstance(result, SolveResult)
    assert result.timed_out and not result.target_met
    assert result.length > 10
    assert_solves(state, result.moves)


def test_ctrl_c_ends_the_search_cleanly():
    # interrupt_main does nothing while SIGINT is ignored (as in a run started in the
    # background): install Python's handler, as in a terminal.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    state = random_state(np.random.default_rng(12))
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            solve(state, max_length=12)  # far too short: would search for hours
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    # Nothing shared was left broken: the next solve works.
    assert_solves(state, solve(state))


def test_result_text_is_wca():
    state = apply_moves(solved_facelets(3), "F2")
    result = solve_detailed(state)
    assert result.text == "F2" == format_moves(result.moves)


def test_turns_of_one_layer_where_stages_meet_are_merged(table_cache):
    # About one big-cube solution in six has a stage ending with a turn of the layers the
    # next one starts with (R then R2): those are merged, never printed side by side.
    rng = random.Random(3)
    for _ in range(12):
        state = apply_moves(solved_facelets(5), [rng.choice(layer_moves(5)) for _ in range(30)])
        result = solve_detailed(state)
        for before, after in zip(result.stages, result.stages[1:], strict=False):
            if before.moves and after.moves:
                a, b = before.moves[-1], after.moves[0]
                assert (a.face, a.first, a.last) != (b.face, b.first, b.last)
        after = apply_moves(state, result.moves)
        assert all(len(set(after[25 * f : 25 * f + 25])) == 1 for f in range(6))
