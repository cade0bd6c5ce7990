"""Edge pairing of the 4x4: pair coordinates, wing three-cycles, the pairing itself."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubescan.solver.four.cycles import finish_pairing, wing_cycles
from cubescan.solver.four.model import edge_slots, slot_permutation, solved_pieces
from cubescan.solver.four.pairing import has_pll_parity, pair_distance, parity_fix
from cubescan.solver.four.pairs import n_pair_values, rank_pairs, unrank_pairs
from cubescan.solver.four.phases import EDGE_MOVES
from cubescan.solver.four.tables import load_tables
from cubescan.solver.moves import apply_moves, layer_moves, solved_facelets


@settings(deadline=None)  # the first call loads compiled code
@given(st.integers(1, 4), st.randoms(use_true_random=False))
def test_pair_rank_round_trips_and_ignores_order(k, rng):
    slots = rng.sample(range(24), 2 * k)
    pairs = np.array(slots).reshape(k, 2)
    value = rank_pairs(pairs)
    assert 0 <= value < n_pair_values(k)
    shuffled = pairs[rng.sample(range(k), k)][:, ::-1]
    assert rank_pairs(shuffled) == value
    assert sorted(map(sorted, pairs.tolist())) == unrank_pairs(value, k).tolist()


def _unpaired(pieces: np.ndarray) -> list[int]:
    where = np.empty(24, dtype=np.int64)
    where[pieces[24:48].astype(np.int64)] = np.arange(24)
    position = np.empty(24, dtype=np.int64)
    for p, (a, b) in enumerate(edge_slots()):
        position[a] = position[b] = p
    return [e for e, (a, b) in enumerate(edge_slots()) if position[where[a]] != position[where[b]]]


def test_every_wing_cycle_moves_three_wings_and_nothing_else():
    cycles = wing_cycles()
    assert len(cycles) == 24 * 23 * 22 // 3
    rng = random.Random(3)
    for (a, b, c), moves in rng.sample(sorted(cycles.items()), 300):
        pieces = solved_pieces()
        for move in moves:
            pieces = pieces[slot_permutation(move)]
        expected = solved_pieces().copy()
        expected[24 + b], expected[24 + c], expected[24 + a] = a, b, c
        assert (pieces == expected).all(), (a, b, c)


def test_pair_distance_is_a_lower_bound():
    tables = load_tables(progress=False)
    rng = random.Random(5)
    for length in range(7):
        pieces = solved_pieces()
        for _ in range(length):
            pieces = pieces[slot_permutation(rng.choice(EDGE_MOVES))]
        edges = tuple(rng.sample(range(12), 3))
        assert pair_distance(pieces, edges, tables) <= length


def test_the_parity_fix_exchanges_two_edges_and_keeps_the_centres():
    pieces = solved_pieces()
    for move in parity_fix():
        pieces = pieces[slot_permutation(move)]
    assert has_pll_parity(pieces) and not has_pll_parity(solved_pieces())
    assert (pieces[:24] == solved_pieces()[:24]).all()
    assert _unpaired(pieces) == []


@settings(max_examples=15, deadline=None)
@given(st.randoms(use_true_random=False))
def test_three_cycles_pair_any_unpaired_edges(rng):
    # Scramble the wings only (an even permutation), keeping centres and corners.
    pieces = solved_pieces().copy()
    wings = list(range(24))
    rng.shuffle(wings)
    pieces[24:48] = wings
    odd = sum(1 for i in range(24) for j in range(i) if wings[j] > wings[i]) % 2
    if odd:
        pieces[[24, 25]] = pieces[[25, 24]]
    for move in finish_pairing(pieces, _unpaired(pieces)):
        pieces = pieces[slot_permutation(move)]
    assert _unpaired(pieces) == []
    assert (pieces[:24] == solved_pieces()[:24]).all()


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_random_4x4_states_are_solved(seed):
    from cubescan.solver.solve import solve_detailed

    rng = random.Random(seed)
    facelets = apply_moves(solved_facelets(4), [rng.choice(layer_moves(4)) for _ in range(40)])
    result = solve_detailed(facelets)
    after = apply_moves(facelets, result.moves)
    assert all(len(set(after[f * 16 : f * 16 + 16])) == 1 for f in range(6))
    assert [s.name for s in result.stages] == ["centers", "edges", "3x3"]


def _flipped_edge() -> str:
    """The 4x4 with one edge flipped (its two wings exchanged): OLL parity."""
    facelets = list(solved_facelets(4))
    # U face row 3 columns 1-2 and F face (from 32) row 0 columns 1-2 share the UF edge.
    for u, f in ((13, 33), (14, 34)):
        facelets[u], facelets[f] = facelets[f], facelets[u]
    return "".join(facelets)


@pytest.mark.slow
@pytest.mark.parametrize(
    "facelets",
    [_flipped_edge(), apply_moves(solved_facelets(4), "2R2 U2 2R2 Uw2 2R2 Uw2 U2")],
    ids=["one-edge-flipped", "two-edges-exchanged"],
)
def test_the_parity_states_are_solved(facelets):
    from cubescan.solver.solve import solve_detailed
    from cubescan.solver.validate import validate

    assert validate(facelets).valid
    after = apply_moves(facelets, solve_detailed(facelets).moves)
    assert all(len(set(after[f * 16 : f * 16 + 16])) == 1 for f in range(6))
