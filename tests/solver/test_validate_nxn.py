"""Validation of 2x2 to 7x7: the reachability theorems, checked on random states and faults."""

from __future__ import annotations

import numpy as np
import pytest
from faults import codes, fixed, swap
from hypothesis import given, settings
from hypothesis import strategies as st

from cubescan.solver.counting import reachable_states
from cubescan.solver.cubie import CubieCube, cubie_to_facelets, random_reassembly
from cubescan.solver.geometry import cube_geometry, face_normal, quarter_turn_matrix
from cubescan.solver.moves import apply_moves, layer_moves, solved_facelets
from cubescan.solver.slots import center_orbits, slot_sets
from cubescan.solver.validate import validate

SIZES = range(2, 8)


def scrambled(size: int, seed: int, length: int = 40) -> str:
    rng = np.random.default_rng(seed)
    moves = layer_moves(size)
    return apply_moves(
        solved_facelets(size), [moves[i] for i in rng.integers(len(moves), size=length)]
    )


def slot_set(size: int, kind: str):
    return next(s for s in slot_sets(size) if s.kind == kind)


seeds = st.integers(0, 2**32 - 1)


@pytest.mark.parametrize("size", SIZES)
@given(seed=seeds)
@settings(max_examples=25, deadline=None)
def test_random_legal_moves_including_inner_slices_always_validate(size, seed):
    report = validate(scrambled(size, seed))
    assert report.valid, report.summary


@pytest.mark.parametrize("size", SIZES)
@given(seed=seeds, data=st.data())
@settings(max_examples=15, deadline=None)
def test_a_twisted_corner_is_caught_on_every_size(size, seed, data):
    state = scrambled(size, seed)
    corners = slot_set(size, "corner")
    slot = corners.slots[data.draw(st.integers(0, 7))]
    twisted = "".join(
        state[slot[(slot.index(i) + 2) % 3]] if i in slot else ch for i, ch in enumerate(state)
    )
    assert codes(twisted) == ["corner-twist"]
    assert validate(fixed(twisted)).valid


@pytest.mark.parametrize("size", SIZES)
@given(seed=seeds, data=st.data())
@settings(max_examples=15, deadline=None)
def test_a_mirrored_corner_is_caught_on_every_size(size, seed, data):
    state = scrambled(size, seed)
    slot = slot_set(size, "corner").slots[data.draw(st.integers(0, 7))]
    broken = swap(state, slot[0], slot[1])
    assert codes(broken) == ["corner-invalid"]
    assert fixed(broken) == validate(state).facelets


@pytest.mark.parametrize("size", [3, 5, 7])
@given(seed=seeds, data=st.data())
@settings(max_examples=15, deadline=None)
def test_odd_cubes_keep_the_3x3_laws_for_middle_edges(size, seed, data):
    state = scrambled(size, seed)
    edges = slot_set(size, "edge")
    a, b = edges.slots[data.draw(st.integers(0, 11))]
    assert codes(swap(state, a, b)) == ["edge-flip"]
    corners = slot_set(size, "corner")
    x, y = data.draw(st.lists(st.integers(0, 7), min_size=2, max_size=2, unique=True))
    swapped = state
    for i, j in zip(corners.slots[x], corners.slots[y], strict=True):
        swapped = swap(swapped, i, j)
    assert codes(swapped) == ["permutation-parity"]
    assert validate(fixed(swapped)).valid


@pytest.mark.parametrize("size", [2, 4, 6])
@given(seed=seeds, data=st.data())
@settings(max_examples=15, deadline=None)
def test_even_cubes_have_free_corner_parity(size, seed, data):
    state = scrambled(size, seed)
    corners = slot_set(size, "corner")
    x, y = data.draw(st.lists(st.integers(0, 7), min_size=2, max_size=2, unique=True))
    for i, j in zip(corners.slots[x], corners.slots[y], strict=True):
        state = swap(state, i, j)
    assert validate(state).valid


@pytest.mark.parametrize("size", [4, 5, 6, 7])
@given(seed=seeds, data=st.data())
@settings(max_examples=15, deadline=None)
def test_a_flipped_wing_is_invalid_and_re_stuck(size, seed, data):
    state = scrambled(size, seed)
    wings = [s for s in slot_sets(size) if s.kind == "wing"]
    orbit = data.draw(st.sampled_from(wings))
    a, b = orbit.slots[data.draw(st.integers(0, 23))]
    broken = swap(state, a, b)
    report = validate(broken)
    assert codes(broken) == ["wing-invalid"]
    assert report.problems[0].orbit == orbit.orbit
    assert validate(fixed(broken)).valid


@pytest.mark.parametrize("size", [4, 5, 6, 7])
@given(seed=seeds, data=st.data())
@settings(max_examples=15, deadline=None)
def test_a_re_stuck_center_is_a_center_count_problem(size, seed, data):
    state = scrambled(size, seed)
    orbit = data.draw(st.sampled_from(center_orbits(size)))
    index = data.draw(st.sampled_from(orbit.facelets))
    new = data.draw(st.sampled_from([f for f in "URFDLB" if f != state[index]]))
    broken = state[:index] + new + state[index + 1 :]
    report = validate(broken)
    assert codes(broken) == ["color-count", "center-count"]
    assert report.problems[1].orbit == orbit.orbit
    assert validate(fixed(broken)).valid


@pytest.mark.parametrize("size", SIZES)
@given(seed=seeds, data=st.data())
@settings(max_examples=20, deadline=None)
def test_a_changed_sticker_is_always_caught(size, seed, data):
    state = scrambled(size, seed)
    geo = cube_geometry(size)
    # Fixed centres define the colours, so changing one is a different cube, not a fault.
    movable = [i for p in geo.pieces if len(geo.orbits[p.orbit].pieces) > 6 for i in p.facelets]
    index = data.draw(st.sampled_from(movable))
    new = data.draw(st.sampled_from([f for f in "URFDLB" if f != state[index]]))
    broken = state[:index] + new + state[index + 1 :]
    found = codes(broken)
    assert found[0] == "color-count" and len(found) >= 2
    kind = next(p.kind for p in geo.pieces if index in p.facelets)
    expected_prefix = {"corner": "corner-", "edge": "edge-", "wing": "wing-", "center": "center-"}
    assert found[1].startswith(expected_prefix[kind])


# ------------------------------------------------------------------ 4x4 parity


def rotated_sticker(size: int, index: int, face: str, quarter_turns: int) -> int:
    geo = cube_geometry(size)
    point = geo.positions[index]
    for _ in range(quarter_turns):
        point = quarter_turn_matrix(face_normal(face)) @ point
    return geo.sticker_at(tuple(int(v) for v in point))


def test_4x4_oll_parity_state_is_valid_but_a_single_flipped_wing_is_not():
    solved = solved_facelets(4)
    geo = cube_geometry(4)
    u14, u15 = geo.facelet_index("U", 3, 1), geo.facelet_index("U", 3, 2)
    f2, f3 = geo.facelet_index("F", 0, 1), geo.facelet_index("F", 0, 2)
    # Flip the whole UF dedge: each sticker goes to the other face, mirrored along the edge.
    oll_parity = swap(swap(solved, u14, f3), u15, f2)
    assert oll_parity != solved and validate(oll_parity).valid
    scrambled_oll = apply_moves(oll_parity, "R U2 3Fw' 2L D")
    assert validate(scrambled_oll).valid
    assert codes(swap(solved, u14, f2)) == ["wing-invalid"]


def test_4x4_pll_parity_state_is_valid():
    solved = solved_facelets(4)
    geo = cube_geometry(4)
    uf = [geo.facelet_index("U", 3, 1), geo.facelet_index("U", 3, 2)]
    uf += [geo.facelet_index("F", 0, 1), geo.facelet_index("F", 0, 2)]
    state = solved
    for index in uf:
        state = swap(state, index, rotated_sticker(4, index, "U", 2))
    assert state != solved
    assert validate(state).valid


# ------------------------------------------------------------------ counting


def test_reachable_state_counts_match_the_published_totals():
    assert reachable_states(2) == 3_674_160
    assert reachable_states(3) == 43_252_003_274_489_856_000
    assert reachable_states(4) == 7_401_196_841_564_901_869_874_093_974_498_574_336_000_000_000


def test_one_random_2x2_reassembly_in_three_is_solvable():
    rng = np.random.default_rng(5)
    samples = 9000
    valid = 0
    for _ in range(samples):
        cube = random_reassembly(rng)
        valid += validate(cubie_to_facelets(CubieCube(cube.cp, cube.co, (), ()))).valid
    # Binomial standard deviation 0.005; allow 4 of them.
    assert abs(valid / samples - 1 / 3) < 0.02


def test_big_cube_problems_name_their_orbit_in_json():
    broken = swap(solved_facelets(5), *slot_set(5, "wing").slots[3])
    problem = validate(broken).to_dict()["problems"][0]
    assert problem["code"] == "wing-invalid" and problem["orbit"] == "wings U2"
