"""Validation of the 2x2x2x2 and 3x3x3x3 by their invariants: legal twists always pass,
each kind of reassembly fault is caught with its code and undone by its fix, and the
laws agree with the group-theory oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reassembly import colours, random_labels

from cubescan.solver.fixes import Fix, apply_fix
from cubescan.solver.puzzles import puzzle
from cubescan.solver.puzzles.definition import all_twists
from cubescan.solver.puzzles.moves import apply_twists
from cubescan.solver.puzzles.oracle import contains
from cubescan.solver.puzzles.tesseract import corner_twist, validate_tesseract

NAMES = ("2x2x2x2", "3x3x3x3")
seeds = st.integers(0, 2**32 - 1)


def scrambled(name: str, seed: int, length: int = 50) -> str:
    rng = np.random.default_rng(seed)
    twists = list(all_twists(name))
    return apply_twists(
        name,
        [
            (twists[i], int(t))
            for i, t in zip(
                rng.integers(len(twists), size=length), rng.integers(1, 4, size=length), strict=True
            )
        ],
    )


def pieces_of(name: str, kind: str):
    return [piece for piece in puzzle(name).pieces if piece.kind == kind]


def codes(state: str) -> list[str]:
    return [p.code for p in validate_tesseract(state).problems]


def repaired(state: str) -> bool:
    report = validate_tesseract(state)
    fixed = report.facelets
    for step in report.fix:
        fixed = apply_fix(fixed, step)
    return validate_tesseract(fixed).valid


@pytest.mark.parametrize("name", NAMES)
@given(seed=seeds)
@settings(max_examples=30, deadline=None)
def test_random_legal_twists_always_validate_in_any_colours(name, seed):
    state = scrambled(name, seed)
    report = validate_tesseract(state)
    assert report.valid, report.summary
    assert set(report.invariants.values()) == {0}
    colored = state.translate(str.maketrans("OIRLUDFB", "wyrobgpk"))
    assert validate_tesseract(colored).valid
    # The 3x3x3x3's centres name the cells; the 2x2x2x2 is named as it is held.
    symbols = validate_tesseract(colored).symbols
    assert symbols == "wyrobgpk" if name == "3x3x3x3" else sorted(symbols) == sorted("wyrobgpk")


@pytest.mark.parametrize("name", NAMES)
@given(seed=seeds, which=st.integers(0, 15), turns=st.sampled_from([1, 2]))
@settings(max_examples=20, deadline=None)
def test_a_corner_turned_by_a_third_is_a_corner_twist_and_the_fix_undoes_it(
    name, seed, which, turns
):
    corner = pieces_of(name, "corner")[which]
    state = apply_fix(
        scrambled(name, seed), Fix("twist-corner", corner.stickers[1:], "", turns=turns)
    )
    assert codes(state) == ["corner-twist"]
    assert repaired(state)


@pytest.mark.parametrize("name", NAMES)
@given(
    seed=seeds,
    which=st.integers(0, 15),
    flip=st.sampled_from([(1, 0, 3, 2), (2, 3, 0, 1), (3, 2, 1, 0)]),
)
@settings(max_examples=20, deadline=None)
def test_a_single_monoflip_is_valid(name, seed, which, flip):
    corner = pieces_of(name, "corner")[which].stickers
    state = list(scrambled(name, seed))
    before = [state[i] for i in corner]
    for k, i in enumerate(corner):
        state[i] = before[flip[k]]
    assert corner_twist(flip) == 0
    assert validate_tesseract("".join(state)).valid


@pytest.mark.parametrize("name", NAMES)
@given(seed=seeds, pair=st.sets(st.integers(0, 15), min_size=2, max_size=2))
@settings(max_examples=20, deadline=None)
def test_two_corners_exchanged_are_an_odd_corner_permutation(name, seed, pair):
    a, b = (pieces_of(name, "corner")[k].stickers for k in sorted(pair))
    state = apply_fix(scrambled(name, seed), Fix("swap-pieces", a + b, ""))
    assert codes(state) == ["corner-parity"]
    assert repaired(state)


@pytest.mark.parametrize("name", NAMES)
@given(
    seed=seeds, which=st.integers(0, 15), pair=st.sets(st.integers(0, 3), min_size=2, max_size=2)
)
@settings(max_examples=20, deadline=None)
def test_a_mirrored_corner_is_caught_and_the_fix_undoes_it(name, seed, which, pair):
    corner = pieces_of(name, "corner")[which].stickers
    a, b = (corner[k] for k in sorted(pair))
    state = apply_fix(scrambled(name, seed), Fix("swap-stickers", (a, b), ""))
    report = validate_tesseract(state)
    assert [p.code for p in report.problems] == ["corner-invalid"]
    assert "mirror" in report.problems[0].message
    assert repaired(state)


@given(
    seed=seeds, which=st.integers(0, 31), pair=st.sets(st.integers(0, 2), min_size=2, max_size=2)
)
@settings(max_examples=20, deadline=None)
def test_an_edge_with_two_stickers_exchanged_is_an_edge_flip(seed, which, pair):
    edge = pieces_of("3x3x3x3", "edge")[which].stickers
    a, b = (edge[k] for k in sorted(pair))
    state = apply_fix(scrambled("3x3x3x3", seed), Fix("swap-stickers", (a, b), ""))
    assert codes(state) == ["edge-flip"]
    assert repaired(state)


@given(seed=seeds, which=st.integers(0, 23))
@settings(max_examples=20, deadline=None)
def test_a_flipped_ridge_is_a_ridge_flip(seed, which):
    ridge = pieces_of("3x3x3x3", "ridge")[which].stickers
    state = apply_fix(scrambled("3x3x3x3", seed), Fix("swap-stickers", ridge, ""))
    assert codes(state) == ["ridge-flip"]
    assert repaired(state)


@given(seed=seeds, kind=st.sampled_from(["edge", "ridge"]), data=st.data())
@settings(max_examples=20, deadline=None)
def test_two_edges_or_two_ridges_exchanged_break_the_parity_law(seed, kind, data):
    pieces = pieces_of("3x3x3x3", kind)
    pair = data.draw(st.sets(st.integers(0, len(pieces) - 1), min_size=2, max_size=2))
    a, b = (pieces[k].stickers for k in sorted(pair))
    state = apply_fix(scrambled("3x3x3x3", seed), Fix("swap-pieces", a + b, ""))
    assert codes(state) == ["permutation-parity"]
    assert repaired(state)


@pytest.mark.parametrize(
    ("state", "code"),
    [
        ("O" * 63, "bad-format"),
        ("0123456789" * 6 + "0123", "bad-format"),
        ("O" * 216, "center-duplicate"),
    ],
)
def test_unreadable_states(state, code):
    report = validate_tesseract(state)
    assert [p.code for p in report.problems] == [code]
    assert report.to_dict()["valid"] is False


@given(seed=seeds, sticker=st.integers(0, 215), shift=st.integers(1, 7))
@settings(max_examples=30, deadline=None)
def test_one_sticker_of_the_wrong_colour_is_found_and_re_stuck(seed, sticker, shift):
    p = puzzle("3x3x3x3")
    if sticker % 27 == 13:  # a centre: that is a center-duplicate, tested above
        sticker += 1
    state = scrambled("3x3x3x3", seed)
    wrong = "OIRLUDFB"[("OIRLUDFB".index(state[sticker]) + shift) % 8]
    report = validate_tesseract(state[:sticker] + wrong + state[sticker + 1 :])
    assert report.problems[0].code == "color-count"
    assert report.fix[0].action == "restick"
    assert report.fix[0].facelets == (sticker,), report.fix[0].text
    assert p.sticker_name(sticker) in report.fix[0].text
    assert repaired(state[:sticker] + wrong + state[sticker + 1 :])


@pytest.mark.parametrize("name", NAMES)
def test_two_swapped_stickers_are_mostly_found_and_every_fix_offered_repairs(name):
    rng = np.random.default_rng(4)
    offered = 0
    for trial in range(60):
        state = scrambled(name, trial)
        a, b = (int(i) for i in rng.choice(len(state), size=2, replace=False))
        if state[a] == state[b]:
            b = next(i for i in range(len(state)) if state[i] != state[a])
        faulty = list(state)
        faulty[a], faulty[b] = state[b], state[a]
        report = validate_tesseract("".join(faulty))
        if not report.valid and report.fix[0].action != "inspect":
            offered += 1
            assert repaired("".join(faulty)), report.summary
    # About 1 in 20 swaps cannot be told from another single change: "inspect".
    assert offered >= 50


def test_oracle_and_laws_agree_on_random_2x2x2x2_reassemblies():
    p = puzzle("2x2x2x2")
    rng = np.random.default_rng(2)
    verdicts = []
    for _ in range(200):
        labels = random_labels(p, rng)
        verdicts.append(validate_tesseract(colours(p, labels)).valid)
        assert verdicts[-1] == contains(p, labels)
    assert 0 < sum(verdicts) < len(verdicts)  # both kinds met (1 in 6 is solvable)


@pytest.mark.slow
def test_oracle_and_laws_agree_on_random_3x3x3x3_reassemblies():
    p = puzzle("3x3x3x3")
    rng = np.random.default_rng(3)
    verdicts = []
    for _ in range(300):
        labels = random_labels(p, rng)
        verdicts.append(validate_tesseract(colours(p, labels)).valid)
        assert verdicts[-1] == contains(p, labels)
    assert 0 < sum(verdicts) < len(verdicts)


@pytest.mark.parametrize("colours", ["OIRLUDFB", "wyrobgpk"])
@pytest.mark.parametrize("fault", ["mirror", "twist"])
def test_a_fault_on_the_corner_that_names_the_2x2x2x2s_colours_is_still_found(colours, fault):
    # With no fixed centres the corner on L, D, B, I names the colours; a fault there
    # must not make every other corner look wrong.
    corner = next(
        piece for piece in pieces_of("2x2x2x2", "corner") if set(piece.cells) == set("LDBI")
    )
    if fault == "mirror":
        step = Fix("swap-stickers", corner.stickers[:2], "")
    else:
        step = Fix("twist-corner", corner.stickers[1:], "", turns=1)
    state = apply_fix(scrambled("2x2x2x2", 5), step).translate(str.maketrans("OIRLUDFB", colours))
    report = validate_tesseract(state)
    assert [p.code for p in report.problems] == [
        "corner-invalid" if fault == "mirror" else "corner-twist"
    ]
    assert len(report.problems[0].pieces) == 1
    assert repaired(state)
