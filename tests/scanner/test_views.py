"""Placing the faces of one photo on the cube from the joins between them."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubescan.scanner.views import neighbor, view_placements
from cubescan.solver.geometry import FACES


def test_across_a_side_and_back_again_is_where_one_started():
    for face in FACES:
        for side in range(4):
            other, back = neighbor(face, side)
            assert other != face and neighbor(other, back) == (face, side)


def true_joins(letters: list[str], turns: list[int]) -> list:
    """The joins a camera shows between faces ``letters`` seen turned ``turns``."""
    joins = []
    for i, j in combinations(range(len(letters)), 2):
        for side in range(4):
            other, back = neighbor(letters[i], side)
            if other == letters[j]:
                joins.append(((i, (side + turns[i]) % 4), (j, (back + turns[j]) % 4)))
    return joins


# The faces along each edge and around each corner: what an edge or a corner photo shows.
VIEWS = [
    list(v)
    for count in (2, 3)
    for v in combinations(FACES, count)
    if all(any(neighbor(a, k)[0] == b for k in range(4)) for a, b in combinations(v, 2))
]


@settings(max_examples=200, deadline=None)
@given(view=st.sampled_from(VIEWS), data=st.data())
def test_the_true_placement_is_one_of_24(view, data):
    order = data.draw(st.permutations(view))
    turns = data.draw(st.lists(st.integers(0, 3), min_size=len(order), max_size=len(order)))
    placements = view_placements(len(order), true_joins(order, turns))
    assert len(placements) == len(set(placements)) == 24
    assert tuple(zip(order, turns, strict=True)) in placements


def test_joins_no_cube_shows_give_no_placement():
    joins = true_joins(["U", "F", "R"], [0, 1, 2])
    (i, side), (j, other) = joins[0]
    wrong = [((i, (side + 1) % 4), (j, other)), *joins[1:]]
    assert view_placements(3, wrong) == []


def test_a_face_joined_to_nothing_is_refused():
    with pytest.raises(ValueError, match="joined"):
        view_placements(2, [])


def test_views_are_every_pair_and_triple_of_touching_faces():
    assert len([v for v in VIEWS if len(v) == 2]) == 12  # the edges
    assert len([v for v in VIEWS if len(v) == 3]) == 8  # the corners
