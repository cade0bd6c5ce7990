"""Move notation and move algebra on every cube size."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubescan.errors import BadInputError
from cubescan.solver.geometry import FACES
from cubescan.solver.moves import (
    Move,
    apply_moves,
    format_moves,
    invert_moves,
    layer_moves,
    move_permutation,
    parse_moves,
    sequence_permutation,
    solved_facelets,
)

SOLVED = solved_facelets(3)


def test_single_turns_move_the_right_stickers():
    # Checked against the classic facelet definition of U and R.
    assert apply_moves(SOLVED, "U") == ("UUUUUUUUUBBBRRRRRRRRRFFFFFFDDDDDDDDDFFFLLLLLLLLLBBBBBB")
    assert apply_moves(SOLVED, "R") == ("UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB")


@pytest.mark.parametrize("size", range(2, 8))
def test_every_move_and_its_inverse_cancel(size):
    identity = np.arange(6 * size * size)
    for move in layer_moves(size):
        perm = sequence_permutation([move, move.inverse], size)
        assert (perm == identity).all(), move
        quarter = Move(move.face, move.first, move.last, 1)
        assert (sequence_permutation([quarter] * 4, size) == identity).all()


def test_sexy_move_has_order_six():
    seq = parse_moves("R U R' U'")
    assert apply_moves(SOLVED, seq * 6) == SOLVED
    assert apply_moves(SOLVED, seq * 3) != SOLVED


def test_slices_wide_moves_and_rotations_agree():
    assert apply_moves(SOLVED, "M") == apply_moves(SOLVED, "R L' x'")
    assert apply_moves(SOLVED, "E") == apply_moves(SOLVED, "U D' y'")
    assert apply_moves(SOLVED, "S") == apply_moves(SOLVED, "F' B z")
    assert apply_moves(SOLVED, "r") == apply_moves(SOLVED, "Rw") == apply_moves(SOLVED, "L x")
    assert apply_moves(SOLVED, "2R") == apply_moves(SOLVED, "M'")
    big = solved_facelets(5)
    assert apply_moves(big, "3Rw") == apply_moves(big, "R 2R 3R")


def test_whole_cube_rotations_give_24_orientations():
    seen = {SOLVED}
    frontier = [SOLVED]
    while frontier:
        nxt = []
        for state in frontier:
            for rot in ("x", "y", "z"):
                turned = apply_moves(state, rot)
                if turned not in seen:
                    seen.add(turned)
                    nxt.append(turned)
        frontier = nxt
    assert len(seen) == 24


@pytest.mark.parametrize(
    ("text", "position", "token"),
    [
        ("R U X", 3, "X"),
        ("R U2' F3", 3, "F3"),
        ("Rw Q", 2, "Q"),
        ("R, U", 1, "R,"),
        ("2r", 1, "2r"),
    ],
)
def test_parser_names_the_bad_token_and_its_position(text, position, token):
    with pytest.raises(BadInputError) as err:
        parse_moves(text)
    assert err.value.code == "bad-move"
    assert f"move {position} ({token!r})" in err.value.message


def test_parser_checks_layers_against_the_size():
    with pytest.raises(BadInputError, match="has 3"):
        parse_moves("4Rw", size=3)
    with pytest.raises(BadInputError, match="no middle layer"):
        parse_moves("M", size=4)
    assert format_moves(parse_moves("3Rw 2U' Fw2", size=5)) == "3Rw 2U' Fw2"


@given(st.text(max_size=30))
@settings(max_examples=300)
def test_parser_never_fails_with_anything_but_a_bad_move_error(text):
    try:
        moves = parse_moves(text)
    except BadInputError as err:
        assert err.code == "bad-move"
    else:
        assert len(moves) == len(text.split())


move_tokens = st.sampled_from(
    [f + s for f in "URFDLB" for s in ("", "'", "2")] + ["M", "E2", "S'", "x", "y'", "z2", "r"]
)


@given(st.lists(move_tokens, max_size=25))
def test_a_sequence_followed_by_its_inverse_is_the_identity(tokens):
    moves = parse_moves(" ".join(tokens))
    assert apply_moves(SOLVED, moves + invert_moves(moves)) == SOLVED
    assert parse_moves(format_moves(moves)) == moves


@given(st.integers(2, 7), st.data())
def test_moves_keep_each_color_count(size, data):
    moves = data.draw(st.lists(st.sampled_from(layer_moves(size)), max_size=15))
    after = apply_moves(solved_facelets(size), moves)
    assert sorted(after) == sorted(solved_facelets(size))
    assert set(after) == set(FACES)


def test_move_permutations_are_read_only():
    perm = move_permutation(Move("U"), 3)
    with pytest.raises(ValueError):
        perm[0] = 1
