"""Solving 4x4 to 7x7 by reduction: random scrambles, parity states, refusals."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubescan.errors import UnsolvableCubeError
from cubescan.solver.big.reduce import CENTRES_PAIRED, as_3x3, reduce_big, wing_targets
from cubescan.solver.fixes import apply_fix, twist_corner_fix
from cubescan.solver.geometry import cube_geometry
from cubescan.solver.moves import (
    apply_moves,
    layer_moves,
    move_permutation,
    parse_moves,
    solved_facelets,
)
from cubescan.solver.solve import solve_detailed
from cubescan.solver.validate import validate


def _scrambled(size: int, turns: int) -> str:
    """``turns`` random layer turns from solved, the same for a given size."""
    rng = np.random.default_rng(size)
    moves = layer_moves(size)
    return apply_moves(
        solved_facelets(size), [moves[i] for i in rng.integers(len(moves), size=turns)]
    )


def _is_solved(facelets: str, size: int) -> bool:
    per_face = size * size
    return all(len(set(facelets[f * per_face : (f + 1) * per_face])) == 1 for f in range(6))


@settings(deadline=None, max_examples=8)
@given(st.sampled_from([4, 5, 6, 7]), st.randoms(use_true_random=False))
def test_random_scrambles_of_any_layers_are_solved(size, rng):
    moves = layer_moves(size)
    scramble = [rng.choice(moves) for _ in range(rng.randint(0, 60))]
    state = apply_moves(solved_facelets(size), scramble)
    result = solve_detailed(state)
    assert [stage.name for stage in result.stages] == ["centers", "edges", "3x3"]
    assert _is_solved(apply_moves(state, result.moves), size)


def _edge_wings(size: int, edge: str) -> list:
    geo = cube_geometry(size)
    return [p for p in geo.pieces if p.kind == "wing" and set(p.faces) == set(edge)]


def _flip_edge(facelets: str, size: int, edge: str) -> str:
    """Every wing of one edge turned round in place (a middle edge, if any, kept)."""
    out = list(facelets)
    for piece in _edge_wings(size, edge):
        a, b = piece.facelets
        out[a], out[b] = facelets[b], facelets[a]
    return "".join(out)


def _swap_edges(facelets: str, size: int) -> str:
    """The wings of edges UF and UB exchanged, as a half turn of the cube carries them."""
    turn = move_permutation(parse_moves("y2", size)[0], size)
    out = list(facelets)
    for piece in _edge_wings(size, "UF") + _edge_wings(size, "UB"):
        for i in piece.facelets:
            out[i] = facelets[turn[i]]
    return "".join(out)


@pytest.mark.parametrize("size", [4, 5, 6, 7])
@pytest.mark.parametrize("fault", ["flipped", "swapped"])
def test_parity_states_are_solved(size, fault, table_cache):
    # The 4x4's OLL and PLL parity states and their big-cube analogues: one edge's wings
    # turned round in place, or two edges' wings exchanged, everything else solved.
    solved = solved_facelets(size)
    state = _flip_edge(solved, size, "UF") if fault == "flipped" else _swap_edges(solved, size)
    assert state != solved and validate(state).valid
    result = solve_detailed(state)
    assert _is_solved(apply_moves(state, result.moves), size)


def test_an_unsolvable_big_cube_is_never_searched():
    state = apply_fix(apply_moves(solved_facelets(5), "2R U 3F"), twist_corner_fix(5, 0, 1))
    with pytest.raises(UnsolvableCubeError) as caught:
        solve_detailed(state)
    assert caught.value.code == "corner-twist"


@pytest.mark.parametrize("size", [4, 5, 6, 7])
def test_reduction_leaves_a_solvable_3x3_of_the_same_corners(size, table_cache):
    state = _scrambled(size, 50)
    reduced, stages = reduce_big(state)
    assert [stage.name for stage in stages] == ["centers", "edges"]
    small = as_3x3(reduced)
    assert validate(small).valid
    assert reduced == apply_moves(state, [m for stage in stages for m in stage.moves])
    geo = cube_geometry(size)
    per_face = size * size
    for piece in geo.pieces:
        if piece.kind == "center":
            (sticker,) = piece.facelets
            assert reduced[sticker] == reduced[sticker // per_face * per_face + size + 1]


@pytest.mark.parametrize("size", [4, 5])
def test_pairing_the_edges_of_more_centre_answers_is_never_longer(size, monkeypatch, table_cache):
    # The shortest centre answer is always among those paired, and its pairing is the
    # same search: more candidates can only shorten the total.
    assert CENTRES_PAIRED[size] > 1
    state = _scrambled(size, 60)
    _, several = reduce_big(state)
    monkeypatch.setitem(CENTRES_PAIRED, size, 1)
    _, one = reduce_big(state)
    assert sum(s.length for s in several) <= sum(s.length for s in one)


def test_wing_targets_of_an_even_cube_are_the_edges_already_paired():
    # A cube with its edges paired, turned by outer moves only: nothing to move.
    state = apply_moves(solved_facelets(6), "R U F' D2 L B")
    target = wing_targets(state)
    wings = [i for p in cube_geometry(6).pieces if p.kind == "wing" for i in p.facelets]
    assert "".join(target[wings]) == "".join(state[i] for i in wings)


@pytest.mark.parametrize("size", [4, 5, 6, 7])
def test_a_timeout_of_zero_still_gives_a_checked_solution(size, table_cache):
    # Past the deadline the beam searches stop at once; three-cycles finish each stage.
    state = _scrambled(size, 40)
    quick = solve_detailed(state, timeout=0)
    assert _is_solved(apply_moves(state, quick.moves), size)
    assert len(quick.moves) > len(solve_detailed(state).moves)
