"""The cube validator and the group-theory oracle never disagree on random reassemblies:
the hand-derived laws (twist, flip, parity; the orbit rules of big cubes) are exactly
the group's."""

from __future__ import annotations

import numpy as np
import pytest
from reassembly import colours, random_labels

from cubescan.solver.puzzles import puzzle
from cubescan.solver.puzzles.oracle import contains, reachable_colouring
from cubescan.solver.validate import validate


def agreement(name: str, states: int, seed: int, decide=contains) -> tuple[int, int]:
    p = puzzle(name)
    rng = np.random.default_rng(seed)
    solvable = 0
    for _ in range(states):
        labels = random_labels(p, rng)
        verdict = validate(colours(p, labels)).valid
        assert verdict == decide(p, labels), colours(p, labels)
        solvable += verdict
    return solvable, states


@pytest.mark.parametrize(("name", "states"), [("2x2x2", 300), ("3x3x3", 300)])
def test_validate_and_oracle_agree_on_random_reassemblies(name, states):
    solvable, total = agreement(name, states, seed=11)
    assert 0 < solvable < total  # 1 in 3 (2x2) or 1 in 12 (3x3) is solvable


@pytest.mark.slow
def test_validate_and_oracle_agree_on_10000_random_3x3_reassemblies():
    solvable, _ = agreement("3x3x3", 10_000, seed=12)
    assert 600 < solvable < 1100  # 1 in 12


@pytest.mark.slow
def test_validate_and_oracle_agree_on_random_4x4_reassemblies_with_labelled_centres():
    solvable, total = agreement("4x4x4", 200, seed=13, decide=reachable_colouring)
    assert 0 < solvable < total  # 1 in 3: the corner twist law alone
