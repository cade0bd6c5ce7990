"""`cubescan check`: which pieces differ from the expected state (--expect/--scramble), and
the verdict as printed."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from pale_pairs import pale_centre_pair
from rich.console import Console

from cubescan.scanner.cli.check import mismatched_pieces, print_verdict
from cubescan.scanner.pipeline.check import cube_report
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


def test_a_valid_cube_with_stickers_the_pieces_cannot_settle_says_so():
    # A white and a yellow centre of one orbit read halfway between the two: every piece is
    # real either way round, so the verdict stands but both stickers are named as unsure.
    _, lab, _, _ = pale_centre_pair(3)
    report = cube_report([lab[16 * f : 16 * f + 16] for f in range(6)], solve=False)
    console = Console(file=io.StringIO(), width=200)
    print_verdict(console, report)
    text = console.file.getvalue()
    assert report.valid and "Solvable." in text
    assert "Unsure: 2 sticker(s) could be read as another colour" in text
