"""Beam search over move sequences, and the centre and edge stages built on it."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubescan.solver.big.beam import beam_search, macro_set, restricted
from cubescan.solver.big.cycles import cycle_books
from cubescan.solver.big.reduce import pair_edges, solve_centers, solve_orbit, wing_targets
from cubescan.solver.geometry import cube_geometry
from cubescan.solver.moves import (
    Move,
    apply_moves,
    cancel_moves,
    layer_moves,
    outer_moves,
    parse_moves,
    solved_facelets,
)


def _orbits(size: int, kind: str) -> list:
    return [o for o in cube_geometry(size).orbits if o.kind == kind and len(o.pieces) == 24]


def _paired(facelets: str) -> bool:
    """Every wing shows the colours its edge must have, and every centre is home."""
    target = wing_targets(facelets)
    moving = target != ""
    return bool((np.array(list(facelets))[moving] == target[moving]).all())


def _centre_stickers(size: int) -> np.ndarray:
    geo = cube_geometry(size)
    return np.array(
        [i for o in _orbits(size, "center") for p in o.pieces for i in geo.pieces[p].facelets]
    )


def _centres_home(facelets: str, size: int) -> bool:
    per_face = size * size
    return all(
        facelets[i] == facelets[i // per_face * per_face + size + 1] for i in _centre_stickers(size)
    )


def _three_cycle_pairing(facelets: str, size: int) -> list[Move]:
    moves: list[Move] = []
    target = wing_targets(facelets)
    for orbit in _orbits(size, "wing"):
        facelets, found = solve_orbit(facelets, cycle_books(size)[orbit.name], target)
        moves += found
    return moves


def _edge_scramble(size: int, rng) -> str:
    """A cube with solved centres and scrambled edges: commutator-free, parity-free.

    Wing three-cycles and outer turns keep the centres home and each wing orbit even.
    """
    facelets = solved_facelets(size)
    books = cycle_books(size)
    for _ in range(6):
        for orbit in _orbits(size, "wing"):
            facelets = apply_moves(facelets, books[orbit.name].moves[rng.randrange(4048)])
        facelets = apply_moves(facelets, [rng.choice(outer_moves())])
    return facelets


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_savings_are_the_moves_cancel_moves_drops_where_two_sequences_meet(data):
    # Short written sequences over few layers, so that seams merge, cancel and cascade.
    layer_turns = [
        Move(face, layer, layer, turns) for face in "RU" for layer in (1, 2) for turns in (1, 2, 3)
    ]
    written = (
        st.lists(st.sampled_from(layer_turns), min_size=1, max_size=5)
        .map(lambda moves: tuple(cancel_moves(moves)))
        .filter(len)
    )
    macros = macro_set([data.draw(written), data.draw(written)], 4)
    for i, j in ((0, 0), (0, 1), (1, 0), (1, 1)):
        a, b = macros.sequences[i], macros.sequences[j]
        assert macros.savings[i, j] == len(a) + len(b) - len(cancel_moves([*a, *b]))


def test_restricted_refuses_a_subset_the_moves_leave():
    turns = macro_set([tuple(parse_moves("R"))], 3)
    with pytest.raises(ValueError, match="outside"):
        restricted(turns, np.arange(9))  # R carries U stickers onto B


def test_the_search_never_returns_more_than_the_finish_alone():
    start = apply_moves(solved_facelets(3), "R U F")
    fallback = parse_moves("F' U' R' R R'")  # a finish that wastes two moves
    turns = macro_set([(m,) for m in outer_moves()], 3)
    solved = np.frombuffer(solved_facelets(3).encode(), np.uint8)

    def placed(states):
        return (states == solved).sum(axis=-1)

    def finish(text):
        return fallback if text == start else ([] if text == solved_facelets(3) else None)

    moves = beam_search(start, turns, np.arange(54), placed, finish, width=30)
    assert apply_moves(start, moves) == solved_facelets(3)
    assert len(moves) == 3


def test_no_finishable_state_is_a_clear_error():
    turns = macro_set([(m,) for m in outer_moves()], 3)

    def nowhere(text):
        return None

    with pytest.raises(ValueError, match="finishable"):
        beam_search(
            solved_facelets(3), turns, np.arange(54), lambda s: s.sum(-1), nowhere, 5, max_moves=3
        )


@settings(deadline=None, max_examples=8)
@given(st.sampled_from([4, 5, 6, 7]), st.randoms(use_true_random=False))
def test_pairing_pairs_every_edge_keeps_the_centres_and_beats_three_cycles(size, rng):
    scrambled = _edge_scramble(size, rng)
    moves = pair_edges(scrambled)
    paired = apply_moves(scrambled, moves)
    assert _paired(paired) and _centres_home(paired, size)
    assert len(moves) <= len(cancel_moves(_three_cycle_pairing(scrambled, size)))


def test_a_passed_deadline_still_pairs_by_three_cycles():
    import random

    scrambled = _edge_scramble(5, random.Random(3))
    moves = pair_edges(scrambled, deadline=time.monotonic() - 1)
    assert _paired(apply_moves(scrambled, moves))
    assert len(moves) == len(cancel_moves(_three_cycle_pairing(scrambled, 5)))


def test_pairing_takes_far_fewer_moves_than_three_cycles_alone():
    import random

    ours, cycles = 0, 0
    for seed in range(3):
        scrambled = _edge_scramble(4, random.Random(seed))
        ours += len(pair_edges(scrambled))
        cycles += len(cancel_moves(_three_cycle_pairing(scrambled, 4)))
    assert ours < 0.8 * cycles


@pytest.mark.parametrize(("size", "insert"), [(6, "3Rw U' 3Rw'"), (7, "3Rw F 3Rw'")])
def test_a_bar_moved_by_a_wide_insert_is_put_back_by_one(size: int, insert: str):
    # Single slices would need an insert per layer: twice the moves.
    scrambled = apply_moves(solved_facelets(size), insert)
    moves = solve_centers(scrambled)
    assert len(moves) == 3
    assert _centres_home(apply_moves(scrambled, moves), size)


def test_centres_are_solved_without_parity_in_far_fewer_moves_than_three_cycles_alone():
    import random

    rng = random.Random(5)
    turns = [m for m in layer_moves(5) if 3 not in m.layers(5)]  # the fixed centres stay
    ours, cycles = 0, 0
    for _ in range(3):
        scrambled = apply_moves(solved_facelets(5), [rng.choice(turns) for _ in range(60)])
        moves = solve_centers(scrambled)
        done = apply_moves(scrambled, moves)
        assert _centres_home(done, 5)
        assert _paired(apply_moves(done, _three_cycle_pairing(done, 5)))  # no OLL parity
        ours += len(moves)
        target = wing_targets(scrambled)
        for orbit in _orbits(5, "center"):
            scrambled, found = solve_orbit(scrambled, cycle_books(5)[orbit.name], target)
            cycles += len(found)
    assert ours < 0.8 * cycles
