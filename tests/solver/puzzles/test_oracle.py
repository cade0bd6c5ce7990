"""The group-theory oracle: position counts from the group equal the published totals and
the orbit-rule counts; membership agrees with the laws on hand-made states."""

from __future__ import annotations

import numpy as np
import pytest

from cubescan.solver.counting import reachable_states
from cubescan.solver.puzzles import count, orbit_factors, puzzle
from cubescan.solver.puzzles.oracle import (
    arrangement,
    contains,
    even_rearrangements_realised,
    move_group,
    oracle_count,
    reachable_colouring,
)

PUBLISHED = {
    "2x2x2": 3_674_160,
    "3x3x3": 43_252_003_274_489_856_000,
    "4x4x4": 7_401_196_841_564_901_869_874_093_974_498_574_336_000_000_000,
    "2x2x2x2": 3_357_894_533_384_932_272_635_904_000,
}
# The 3x3x3x3 (Magic Cube 4D's figure, about 1.757e120).
THREE_FOUR = int(
    "1756772880709135843168526079081025059614484630149557651477156021733236798970168550"
    "600274887650082354207129600000000000000"
)


@pytest.mark.parametrize("name", ["2x2x2", "3x3x3", "2x2x2x2"])
def test_oracle_counts_equal_published_totals(name):
    assert oracle_count(puzzle(name)) == PUBLISHED[name] == count(name)


@pytest.mark.slow
def test_oracle_counts_the_4x4_with_alike_centres():
    p = puzzle("4x4x4")
    assert even_rearrangements_realised(p)
    assert oracle_count(p) == PUBLISHED["4x4x4"] == count("4x4x4") == reachable_states(4)


@pytest.mark.slow
def test_oracle_counts_the_3x3x3x3_and_finds_its_monoflip():
    p = puzzle("3x3x3x3")
    assert oracle_count(p) == THREE_FOUR == count("3x3x3x3")
    klein = _klein(p.orbits[0].orientations)
    assert contains(p, _one_corner_turned(p, klein[0]))
    assert not contains(p, _one_corner_turned(p, next(k for k in range(1, 12) if k not in klein)))


def test_orbit_rule_counts_match_the_cube_counter_and_the_factors():
    for size in range(2, 8):
        assert count(f"{size}x{size}") == reachable_states(size)
    assert count("3x3x3x3") == THREE_FOUR
    reasons = [f.reason for f in orbit_factors("3x3x3x3")]
    assert reasons[0] == "16! / 2 (only even permutations)"


def test_hoeys_count_is_the_order_of_the_four_positive_cells_twists():
    group = move_group(puzzle("2x2x2x2"))
    assert group.degree == 60  # 15 corners x 4 stickers; the held corner never moves


def _klein(orientations):
    """The three double transpositions of a corner's four stickers (the monoflips)."""
    return [
        k
        for k, t in enumerate(orientations)
        if t != (0, 1, 2, 3) and all(t[t[i]] == i for i in range(4))
    ]


def _one_corner_turned(p, turn):
    state = [(k, 0) for k in range(len(p.pieces))]
    state[0] = (0, turn)
    return arrangement(p, state)


def test_a_corner_turned_in_place_is_reachable_exactly_when_monoflipped():
    p = puzzle("2x2x2x2")
    orientations = p.orbits[0].orientations
    klein = _klein(orientations)
    assert len(orientations) == 12 and len(klein) == 3
    for turn in range(1, 12):
        assert contains(p, _one_corner_turned(p, turn)) == (turn in klein), orientations[turn]
    home = [(k, 0) for k in range(len(p.pieces))]
    swapped = list(home)
    swapped[0], swapped[1] = (1, 0), (0, 0)
    assert not contains(p, arrangement(p, swapped))


def test_alike_centres_make_a_swap_invisible():
    p = puzzle("4x4x4")
    solved = np.arange(len(p.positions))
    a, b = (p.pieces[k].stickers[0] for k in p.orbits[2].pieces[:2])
    swapped = solved.copy()
    swapped[[a, b]] = swapped[[b, a]]
    assert not contains(p, swapped) and reachable_colouring(p, swapped)
