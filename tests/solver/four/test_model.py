"""The 4x4 piece array follows the sticker model under every layer move."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cubescan.solver.four.model import (
    N_SLOTS,
    pieces_of,
    slot_permutation,
    solved_pieces,
)
from cubescan.solver.moves import apply_moves, layer_moves, solved_facelets

MOVES = layer_moves(4)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, len(MOVES) - 1), max_size=30))
def test_slot_permutations_move_pieces_as_the_stickers_move(indices):
    facelets = solved_facelets(4)
    pieces = solved_pieces().copy()
    for i in indices:
        facelets = apply_moves(facelets, [MOVES[i]])
        pieces = pieces[slot_permutation(MOVES[i])]
    assert (pieces_of(facelets) == pieces).all()


def test_every_move_permutes_centres_wings_and_corners_among_themselves():
    for move in MOVES:
        perm = slot_permutation(move)
        assert sorted(perm.tolist()) == list(range(N_SLOTS))
        assert set(perm[:24]) <= set(range(24))
        assert set(perm[24:48]) <= set(range(24, 48))
