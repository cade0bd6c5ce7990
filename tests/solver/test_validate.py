"""Validation and diagnosis: every fault is named with the right code and a fix that works."""

from __future__ import annotations

from collections import Counter

import numpy as np
from faults import codes, fixed, swap
from hypothesis import given, settings
from hypothesis import strategies as st

from cubescan.solver.cubie import (
    CORNERS,
    CubieCube,
    corner_lookup,
    corner_slots,
    cubie_to_facelets,
    edge_lookup,
    edge_slots,
    random_cubie,
    random_reassembly,
)
from cubescan.solver.geometry import OPPOSITE
from cubescan.solver.moves import apply_moves, layer_moves, outer_moves, solved_facelets
from cubescan.solver.validate import problem_codes, validate

SOLVED = solved_facelets(3)
seeds = st.integers(0, 2**32 - 1)


def with_twist(cube: CubieCube, slot: int, turns: int) -> CubieCube:
    co = list(cube.co)
    co[slot] = (co[slot] + turns) % 3
    return CubieCube(cube.cp, tuple(co), cube.ep, cube.eo)


def with_flip(cube: CubieCube, slot: int) -> CubieCube:
    eo = list(cube.eo)
    eo[slot] ^= 1
    return CubieCube(cube.cp, cube.co, cube.ep, tuple(eo))


def with_swap(cube: CubieCube, kind: str, a: int, b: int) -> CubieCube:
    if kind == "corner":
        cp, co = list(cube.cp), list(cube.co)
        cp[a], cp[b], co[a], co[b] = cp[b], cp[a], co[b], co[a]
        return CubieCube(tuple(cp), tuple(co), cube.ep, cube.eo)
    ep, eo = list(cube.ep), list(cube.eo)
    ep[a], ep[b], eo[a], eo[b] = ep[b], ep[a], eo[b], eo[a]
    return CubieCube(cube.cp, cube.co, tuple(ep), tuple(eo))


def mirrored(state: str, slot: int, pair: tuple[int, int]) -> str:
    letters = list(state)
    a, b = (corner_slots(3)[slot][k] for k in pair)
    letters[a], letters[b] = letters[b], letters[a]
    return "".join(letters)


# ----------------------------------------------------------------- reachable states


@given(st.lists(st.sampled_from(layer_moves(3)), max_size=40))
def test_any_move_sequence_from_solved_is_valid(moves):
    report = validate(apply_moves(SOLVED, moves))
    assert report.valid, report.summary
    assert report.orbit == 0 and report.classic_error == 0


@given(seeds)
def test_random_states_in_color_letters_are_valid(seed):
    state = cubie_to_facelets(random_cubie(np.random.default_rng(seed)))
    colors = state.translate(str.maketrans("URFDLB", "WRGYOB"))
    report = validate(colors)
    assert report.valid and report.facelets == state and report.symbols == "WRGYOB"


# ------------------------------------------------------------------- single faults


@given(seeds, st.integers(0, 7), st.sampled_from([1, 2]))
def test_a_twisted_corner_is_diagnosed_and_fixed(seed, slot, turns):
    state = cubie_to_facelets(with_twist(random_cubie(np.random.default_rng(seed)), slot, turns))
    report = validate(state)
    assert codes(state) == ["corner-twist"]
    assert report.twist == turns and report.classic_error == 5
    assert validate(fixed(state)).valid


@given(seeds, st.integers(0, 11))
def test_a_flipped_edge_is_diagnosed_and_fixed(seed, slot):
    state = cubie_to_facelets(with_flip(random_cubie(np.random.default_rng(seed)), slot))
    assert codes(state) == ["edge-flip"]
    assert validate(state).classic_error == 3
    assert validate(fixed(state)).valid


@given(seeds, st.sampled_from(["corner", "edge"]), st.data())
def test_two_swapped_pieces_are_a_parity_problem(seed, kind, data):
    count = 8 if kind == "corner" else 12
    a, b = data.draw(st.lists(st.integers(0, count - 1), min_size=2, max_size=2, unique=True))
    state = cubie_to_facelets(with_swap(random_cubie(np.random.default_rng(seed)), kind, a, b))
    report = validate(state)
    assert codes(state) == ["permutation-parity"]
    assert report.parity == 1 and report.classic_error == 6
    assert validate(fixed(state)).valid


def test_swap_on_a_solved_cube_names_the_two_pieces():
    state = cubie_to_facelets(with_swap(CubieCube(), "edge", 1, 3))
    problem = validate(state).problems[0]
    assert set(problem.pieces) == {"UF", "UB"}
    assert "UF and UB" in problem.fix[0].text


def test_twist_on_a_solved_cube_names_that_corner_and_direction():
    state = cubie_to_facelets(with_twist(CubieCube(), CORNERS.index("DLF"), 1))
    report = validate(state)
    assert report.problems[0].pieces == ("DLF",)
    assert report.fix[0].text == "twist the corner at DLF once counterclockwise (seen from outside)"


@given(seeds, st.integers(0, 7), st.sampled_from([(0, 1), (1, 2), (0, 2)]))
def test_a_mirrored_corner_is_two_swapped_stickers(seed, slot, pair):
    original = cubie_to_facelets(random_cubie(np.random.default_rng(seed)))
    state = mirrored(original, slot, pair)
    report = validate(state)
    assert codes(state) == ["corner-invalid"]
    assert "mirror order" in report.problems[0].message
    assert report.problems[0].pieces == (CORNERS[slot],)
    assert fixed(state) == original


def expected_piece_codes(state: str, index: int) -> list[str]:
    """Which piece code a single changed sticker must cause."""
    for kind, slots, lookup in (
        ("corner", corner_slots(3), corner_lookup()),
        ("edge", edge_slots(3), edge_lookup()),
    ):
        for slot in slots:
            if index in slot:
                letters = "".join(state[i] for i in slot)
                return [f"{kind}-duplicate" if letters in lookup else f"{kind}-invalid"]
    raise AssertionError("centre sticker")


non_center = st.integers(0, 53).filter(lambda i: i % 9 != 4)


PHYSICAL = {"corner-twist", "edge-flip", "permutation-parity"}


@given(seeds, st.integers(2, 7), st.lists(st.integers(0, 10**6), max_size=3))
def test_problem_codes_give_validates_verdict_without_the_fixes(seed, size, swaps):
    # The colour repair weighs thousands of readings by these codes alone: sound, made
    # of real pieces (only twist, flip or parity wrong), or broken pieces.
    rng = np.random.default_rng(seed)
    moves = layer_moves(size)
    scramble = [moves[i] for i in rng.integers(len(moves), size=30)]
    state = apply_moves(solved_facelets(size), scramble)
    for k in swaps:
        state = swap(state, k % len(state), (k // len(state)) % len(state))
    quick, full = problem_codes(state), {p.code for p in validate(state).problems}
    assert (not quick) == (not full) == validate(state).valid
    assert (not quick - PHYSICAL) == (not full - PHYSICAL)
    if not full - PHYSICAL:
        assert quick == full


@given(seeds, non_center, st.integers(1, 5))
def test_a_changed_sticker_is_found_and_re_stuck(seed, index, shift):
    original = cubie_to_facelets(random_cubie(np.random.default_rng(seed)))
    new = "URFDLB"[("URFDLB".index(original[index]) + shift) % 6]
    state = original[:index] + new + original[index + 1 :]
    report = validate(state)
    assert codes(state) == ["color-count", *expected_piece_codes(state, index)]
    assert report.classic_error == 1
    assert report.fix[0].action == "restick" and report.fix[0].facelets == (index,)
    assert fixed(state) == original


def test_swapped_center_stickers_are_recognised():
    letters = list(SOLVED)
    letters[4], letters[13] = "R", "U"
    report = validate("".join(letters))
    assert not report.valid
    assert report.fix[0].action == "swap-centers"
    assert validate(fixed("".join(letters))).valid


# ------------------------------------------------------------------ combinations


@given(seeds, st.data())
@settings(max_examples=150)
def test_combined_faults_get_all_codes_and_one_combined_fix(seed, data):
    rng = np.random.default_rng(seed)
    cube = random_cubie(rng)
    expected = []
    if data.draw(st.booleans(), "twist"):
        cube = with_twist(cube, data.draw(st.integers(0, 7)), data.draw(st.sampled_from([1, 2])))
        expected.append("corner-twist")
    if data.draw(st.booleans(), "flip"):
        cube = with_flip(cube, data.draw(st.integers(0, 11)))
        expected.append("edge-flip")
    if data.draw(st.booleans(), "swap"):
        kind = data.draw(st.sampled_from(["corner", "edge"]))
        a, b = data.draw(st.lists(st.integers(0, 7), min_size=2, max_size=2, unique=True))
        cube = with_swap(cube, kind, a, b)
        expected.append("permutation-parity")
    state = cubie_to_facelets(cube)
    assert codes(state) == expected
    assert validate(fixed(state)).valid


@given(seeds, st.integers(0, 7), st.integers(0, 11))
def test_mirrored_corner_plus_flipped_edge(seed, corner, edge):
    original = cubie_to_facelets(with_flip(random_cubie(np.random.default_rng(seed)), edge))
    state = mirrored(original, corner, (0, 1))
    assert codes(state) == ["corner-invalid", "edge-flip"]
    assert validate(fixed(state)).valid


# ------------------------------------------------------------- the orbit statistic


def test_one_random_reassembly_in_twelve_is_solvable():
    rng = np.random.default_rng(2024)
    samples = 12_000
    orbits = Counter()
    for _ in range(samples):
        orbits[validate(cubie_to_facelets(random_reassembly(rng))).orbit] += 1
    assert set(orbits) == set(range(12))
    # Four binomial standard deviations at p = 1/12 (0.010 here): an orbit counted a
    # seventh too often or too rarely fails.
    allowed = 4 * np.sqrt(1 / 12 * 11 / 12 / samples)
    for orbit in range(12):
        assert abs(orbits[orbit] / samples - 1 / 12) < allowed, (orbit, orbits[orbit])


# -------------------------------------------------------------------- structure


def test_color_count_and_center_problems():
    assert codes("U" * 54)[0] in ("center-duplicate",)
    bad = "".join(OPPOSITE[c] if i == 0 else c for i, c in enumerate(SOLVED))
    assert codes(bad)[0] == "color-count"


@given(st.text(max_size=80))
@settings(max_examples=400)
def test_validate_never_raises_on_garbage(text):
    report = validate(text)
    assert report.valid or report.problems


def test_2x2_twist_is_diagnosed():
    state = solved_facelets(2)
    for move in outer_moves()[:5]:
        state = apply_moves(state, [move])
    assert validate(state).valid
    slots = corner_slots(2)[0]
    twisted = "".join(
        state[slots[(slots.index(i) - 1) % 3]] if i in slots else ch for i, ch in enumerate(state)
    )
    assert codes(twisted) == ["corner-twist"]
