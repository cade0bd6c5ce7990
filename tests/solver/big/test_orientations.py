"""A stage searched with the cube held in several orientations (solver/big/orientations.py)."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubescan.solver.big.orientations import shortest_in_orientations, turned_back, turned_cube
from cubescan.solver.big.reduce import pair_edges, solve_centers, wing_targets
from cubescan.solver.geometry import cube_geometry
from cubescan.solver.moves import (
    Move,
    apply_moves,
    layer_moves,
    solved_facelets,
    whole_cube_turns,
)


def test_the_orientations_are_the_24_rotations_the_identity_first():
    turns = whole_cube_turns()
    cubes = {apply_moves(solved_facelets(3), t) for t in turns}
    assert len(turns) == 24 and len(cubes) == 24
    assert turns[0] == ()
    assert all(move.kind == "rotation" for t in turns for move in t)


@settings(deadline=None, max_examples=60)
@given(
    st.integers(2, 7),
    st.integers(0, 23),
    st.lists(st.integers(0, 10**6), min_size=0, max_size=12),
    st.lists(st.integers(0, 10**6), min_size=1, max_size=12),
)
def test_moves_turned_back_do_to_the_cube_what_they_did_to_the_turned_cube(
    size, orientation, scramble, found
):
    moves = layer_moves(size)
    cube = apply_moves(solved_facelets(size), [moves[k % len(moves)] for k in scramble])
    on_turned = [moves[k % len(moves)] for k in found]
    back = turned_back(on_turned, orientation)
    assert turned_cube(apply_moves(cube, back), orientation) == apply_moves(
        turned_cube(cube, orientation), on_turned
    )
    # The same layers, the same turns: only the faces' names change.
    assert [(m.first, m.last, m.turns) for m in back] == [
        (m.first, m.last, m.turns) for m in on_turned
    ]


@pytest.mark.parametrize("size", [2, 3, 4, 5])
def test_a_turned_solved_cube_is_solved(size):
    for orientation in range(24):
        assert turned_cube(solved_facelets(size), orientation) == solved_facelets(size)


def _scrambled(size: int, seed: int) -> str:
    moves = layer_moves(size)
    rng = random.Random(seed)
    return apply_moves(solved_facelets(size), [rng.choice(moves) for _ in range(20 * size)])


def _paired(text: str, size: int) -> bool:
    """Every wing already shows the colours its edge's reduction wants."""
    target = wing_targets(text)
    wings = [i for p in cube_geometry(size).pieces if p.kind == "wing" for i in p.facelets]
    return all(text[i] == target[i] for i in wings)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_shortest_of_several_orientations_does_the_stage_and_is_never_longer(seed):
    from cubescan.solver.big.reduce import _relabelled
    from cubescan.solver.big.targets import center_stickers

    cube = _relabelled(_scrambled(6, seed), 6)
    centers = solve_centers(cube)
    cube = apply_moves(cube, centers)
    once = shortest_in_orientations(pair_edges, cube, 1)
    thrice = shortest_in_orientations(pair_edges, cube, 3)
    assert once == pair_edges(cube, None)  # the cube as held is the first orientation
    assert len(thrice) <= len(once)
    done = apply_moves(cube, thrice)
    assert _paired(done, 6) and not _paired(cube, 6)
    # The centres the edge pairing started from are still solved.
    assert all(done[k] == "URFDLB"[k // 36] for k in center_stickers(6))


def test_no_orientation_is_tried_past_the_deadline():
    calls = []

    def search(text: str, deadline: float | None) -> list[Move]:
        calls.append(text)
        return []

    cube = _scrambled(4, 3)
    assert shortest_in_orientations(search, cube, 5, time.monotonic() - 1) == []
    assert calls == [cube]
    shortest_in_orientations(search, cube, 5, None)
    assert len(calls) == 1 + 5


@pytest.mark.parametrize("tries", [0, 25])
def test_a_number_of_tries_outside_1_to_24_is_refused(tries):
    with pytest.raises(ValueError, match=r"1\.\.24"):
        shortest_in_orientations(pair_edges, solved_facelets(4), tries)
