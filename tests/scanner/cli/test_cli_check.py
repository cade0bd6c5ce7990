"""`cubescan check --expect/--scramble`: which pieces differ from the expected state."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cubescan.scanner.cli.check import mismatched_pieces
from cubescan.solver.moves import apply_moves, layer_moves, solved_facelets


@settings(max_examples=60, deadline=None)
@given(size=st.integers(2, 7), data=st.data())
def test_a_state_matches_exactly_when_no_piece_or_center_differs(size, data):
    moves = layer_moves(size)
    turns = data.draw(st.lists(st.sampled_from(moves), max_size=6))
    solved = solved_facelets(size)
    scrambled = apply_moves(solved, turns)
    assert (mismatched_pieces(scrambled, solved, size) == []) == (scrambled == solved)


def test_centers_moved_among_themselves_are_a_mismatch():
    # A commutator of inner slices cycles centre pieces of a 4x4 and leaves every corner
    # and wing home: compared piece by piece only, it would pass for solved.
    inner = apply_moves(solved_facelets(4), "2R 2U 2R' 2U'")
    assert mismatched_pieces(inner, solved_facelets(4), 4) == ["U11", "R7", "F7", "D7", "L6", "B6"]
