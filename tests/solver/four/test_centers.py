"""The centre phases of the 4x4 reduction: tables and searches."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cubescan.solver.cache import CACHE_ENV
from cubescan.solver.four.coords import rank
from cubescan.solver.four.model import pieces_of
from cubescan.solver.four.phases import ALL_MOVES, CENTER_MOVES, patterns
from cubescan.solver.four.search import GOAL_EVEN_WINGS, GOAL_NONE, Phase, heuristic, search
from cubescan.solver.four.tables import load_tables, table_names, table_path
from cubescan.solver.moves import apply_moves, layer_moves, solved_facelets


def test_centre_distance_is_a_lower_bound_on_scramble_length():
    table = load_tables(progress=False)["centers-ud"]
    pattern = patterns()["centers-ud"]
    rng = random.Random(7)
    for length in range(8):
        moves = [rng.choice(CENTER_MOVES) for _ in range(length)]
        pieces = pieces_of(apply_moves(solved_facelets(4), moves))
        assert table[rank(pieces, *pattern.arrays)] <= length


@pytest.mark.slow
def test_corrupt_table_file_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    first = load_tables(progress=False)
    table_path().write_bytes(b"not a table")
    again = load_tables(progress=False)
    assert sorted(again) == sorted(table_names())
    assert all((first[n] == again[n]).all() for n in first)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_centre_phases_solve_the_centres_with_even_wings(seed):
    tables = load_tables(progress=False)
    rng = random.Random(seed)
    facelets = apply_moves(solved_facelets(4), [rng.choice(layer_moves(4)) for _ in range(12)])

    def phase(moves, names, goal):
        return Phase.build(moves, [(patterns()[n], tables[n]) for n in names], goal)

    first = phase(ALL_MOVES, ["centers-rl"], GOAL_NONE)
    moves, _ = search(first, pieces_of(facelets))
    facelets = apply_moves(facelets, moves)
    assert heuristic(first, pieces_of(facelets)) == 0
    second = phase(CENTER_MOVES, ["centers-axes", "centers-ud", "centers-fb"], GOAL_EVEN_WINGS)
    moves, _ = search(second, pieces_of(facelets))
    facelets = apply_moves(facelets, moves)
    for face in range(6):
        block = np.array(list(facelets[face * 16 : face * 16 + 16])).reshape(4, 4)
        assert len(set(block[1:3, 1:3].ravel())) == 1
