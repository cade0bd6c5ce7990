"""The whole 4x4 reduction: random states and the two parity states are solved."""

from __future__ import annotations

import random

import pytest

from cubescan.solver.four.solve import OLL_PARITY_FIX, reduce_to_3x3
from cubescan.solver.moves import apply_moves, layer_moves, solved_facelets
from cubescan.solver.solve import solve_detailed
from cubescan.solver.validate import validate


def _is_solved(facelets: str) -> bool:
    return all(len(set(facelets[f * 16 : f * 16 + 16])) == 1 for f in range(6))


def _flipped_edge() -> str:
    """The 4x4 with one edge flipped (its two wings exchanged): OLL parity."""
    facelets = list(solved_facelets(4))
    # U face row 3 columns 1-2 and F face (from 32) row 0 columns 1-2 share the UF edge.
    for u, f in ((13, 33), (14, 34)):
        facelets[u], facelets[f] = facelets[f], facelets[u]
    return "".join(facelets)


def test_the_oll_parity_fix_turns_one_edge_round_and_keeps_the_centres():
    assert apply_moves(solved_facelets(4), OLL_PARITY_FIX) == _flipped_edge()


@pytest.mark.parametrize("seed", range(3))
def test_random_4x4_states_are_solved(seed, table_cache):
    rng = random.Random(seed)
    facelets = apply_moves(solved_facelets(4), [rng.choice(layer_moves(4)) for _ in range(40)])
    result = solve_detailed(facelets)
    assert _is_solved(apply_moves(facelets, result.moves))
    assert [s.name for s in result.stages] == ["centers", "edges", "3x3"]


@pytest.mark.parametrize(
    "facelets",
    [_flipped_edge(), apply_moves(solved_facelets(4), "2R2 U2 2R2 Uw2 2R2 Uw2 U2")],
    ids=["one-edge-flipped", "two-edges-exchanged"],
)
def test_the_parity_states_are_solved(facelets, table_cache):
    assert validate(facelets).valid
    reduced, stages = reduce_to_3x3(facelets)
    assert validate(reduced).valid and sum(s.length for s in stages) <= 40
    after = apply_moves(facelets, solve_detailed(facelets).moves)
    assert _is_solved(after)


def test_centres_past_the_search_budget_are_finished_by_the_big_cubes_stage(table_cache):
    # With no nodes to spend, both centre searches give up at once: the big cubes'
    # centre stage (with its parity slice) must still leave a solvable reduction.
    rng = random.Random(5)
    for _ in range(3):
        facelets = apply_moves(solved_facelets(4), [rng.choice(layer_moves(4)) for _ in range(40)])
        reduced, stages = reduce_to_3x3(facelets, center_nodes=0)
        assert validate(reduced).valid
        assert reduced == apply_moves(facelets, [m for s in stages for m in s.moves])
        centres = [{reduced[16 * f + i] for i in (5, 6, 9, 10)} for f in range(6)]
        assert all(len(face) == 1 for face in centres)


def test_a_timeout_of_zero_still_gives_a_checked_solution(table_cache):
    # A timeout shrinks the centre searches' budget to nothing and cuts the 3x3 stage
    # short: the answer comes from three-cycles and the best 3x3 found, verified.
    rng = random.Random(6)
    facelets = apply_moves(solved_facelets(4), [rng.choice(layer_moves(4)) for _ in range(40)])
    result = solve_detailed(facelets, timeout=0.0)
    assert _is_solved(apply_moves(facelets, result.moves))
