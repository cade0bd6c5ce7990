"""Assembly: six photos in any order and rotation become the right cube, or the right diagnosis."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubescan.errors import BadInputError
from cubescan.scanner.assemble import assemble, diagnose_leaders, rank_candidates
from cubescan.scanner.placements import count_placements, rotate_face
from cubescan.solver.cubie import corner_slots, edge_slots, random_state
from cubescan.solver.fixes import Fix, apply_fix, flip_edge_fix, swap_pieces_fix, twist_corner_fix
from cubescan.solver.moves import apply_moves, layer_moves, solved_facelets
from cubescan.solver.slots import slot_sets
from cubescan.solver.validate import validate

TO_COLORS = str.maketrans("URFDLB", "WRGYOB")
seeds = st.integers(0, 2**32 - 1)


def photos_of(facelets: str, size: int, rng: np.random.Generator) -> list[str]:
    """The six faces in colour letters, shuffled and each turned by a random quarter."""
    per_face = size * size
    colors = facelets.translate(TO_COLORS)
    faces = [colors[f * per_face : (f + 1) * per_face] for f in range(6)]
    order = rng.permutation(6)
    return [rotate_face(faces[o], size, int(rng.integers(4))) for o in order]


def standard_held(size: int, seed: int) -> str:
    """A scrambled cube held in the standard orientation (even N: DBL corner home)."""
    rng = np.random.default_rng(seed)
    moves = layer_moves(size)
    state = validate(
        apply_moves(solved_facelets(size), [moves[i] for i in rng.integers(len(moves), size=30)])
    ).facelets
    if size % 2 == 0:
        # Hold it so that the D-B-L piece is home, as assembly reports even cubes.
        for rotation in ("", "y", "y2", "y'", "x", "x'", "x2", "z", "z'"):
            for spin in ("", "y", "y2", "y'"):
                turned = apply_moves(state, f"{rotation} {spin}")
                slot = corner_slots(size)[6]
                if "".join(turned[i] for i in slot) == "DBL":
                    return turned
    return state


def test_rotate_face_turns_clockwise():
    assert rotate_face("123456789", 3, 1) == "741852963"
    assert rotate_face("123456789", 3, 4) == "123456789"


@pytest.mark.parametrize("size", range(2, 8))
@given(seed=seeds)
@settings(max_examples=8, deadline=None)
def test_shuffled_rotated_photos_give_the_exact_cube(size, seed):
    truth = standard_held(size, seed)
    result = assemble(photos_of(truth, size, np.random.default_rng(seed)))
    # A face whose turned photo also makes a valid cube is a real ambiguity: it must be
    # reported, with the truth among the alternatives.
    assert truth in result.alternatives
    assert result.ambiguous == (len(result.alternatives) > 1)
    if not result.ambiguous:
        assert result.facelets == truth
    assert result.report.valid and result.broken_pieces == 0


@given(seed=seeds)
@settings(max_examples=20, deadline=None)
def test_placements_say_where_each_photo_went(seed):
    rng = np.random.default_rng(seed)
    truth = random_state(rng)
    photos = photos_of(truth, 3, rng)
    result = assemble(photos)
    for placement in result.placements:
        face = "URFDLB".index(placement.face)
        block = result.facelets[9 * face : 9 * face + 9].translate(TO_COLORS)
        assert rotate_face(photos[placement.photo], 3, placement.quarter_turns) == block


def inject(state: str, fault: str, rng: np.random.Generator) -> str:
    if fault == "twist":
        return apply_fix(state, twist_corner_fix(3, int(rng.integers(8)), int(rng.integers(1, 3))))
    if fault == "flip":
        return apply_fix(state, flip_edge_fix(edge_slots(3)[int(rng.integers(12))], "edge"))
    if fault == "swap":
        a, b = rng.choice(12, size=2, replace=False)
        slots = (edge_slots(3)[int(a)], edge_slots(3)[int(b)])
        return apply_fix(state, swap_pieces_fix("edge", ("a", "b"), slots))
    a, b, _ = corner_slots(3)[int(rng.integers(8))]
    return apply_fix(state, Fix("swap-stickers", (a, b), "mirror"))


@pytest.mark.parametrize(
    ("fault", "code"),
    [
        ("twist", "corner-twist"),
        ("flip", "edge-flip"),
        ("swap", "permutation-parity"),
        ("mirror", "corner-invalid"),
    ],
)
@given(seed=seeds)
@settings(max_examples=10, deadline=None)
def test_reassembly_faults_are_diagnosed_exactly(fault, code, seed):
    rng = np.random.default_rng(seed)
    broken = inject(random_state(rng), fault, rng)
    result = assemble(photos_of(broken, 3, rng))
    assert broken in result.alternatives
    codes = [p.code for p in result.report.problems]
    # Either the fault is named, or a photo turned half way reads as a sound cube: then
    # the reading is flagged as ambiguous, with the faulty cube among the alternatives.
    assert codes == [code] or (result.ambiguous and not codes)


def test_a_mirrored_corner_is_not_mistaken_for_duplicated_pieces():
    # Six photos of a cube with one corner's stickers swapped (one broken piece). Turned
    # another way, two photos make every slot a real piece, but with a corner and an
    # edge each there twice: fewer broken slots, yet a cube that cannot exist either.
    # The mirrored corner is the simpler explanation and must win.
    photos = ["WRYYYGGGY", "GOBOBGBOY", "BRGYGWYBG", "RYOYRWRWR", "OBBROWOOR", "WGWBWBWRO"]
    truth = "UBURUFLBURDLDRURURDDBBFRFUFURDDDFFFDLBBRLULLRFLBLBFBLD"
    result = assemble(photos)
    assert result.facelets == truth and not result.ambiguous
    assert [p.code for p in result.report.problems] == ["corner-invalid"]
    assert result.broken_pieces == 1


def test_net_orientation_takes_the_photos_as_given():
    truth = apply_moves(solved_facelets(3), "R U")
    colors = truth.translate(TO_COLORS)
    result = assemble([colors[9 * f : 9 * f + 9] for f in range(6)], orientation="net")
    assert result.facelets == truth


def test_same_face_twice_is_a_clear_error():
    faces = ["W" * 9, "R" * 9, "G" * 9, "Y" * 9, "O" * 9, "W" * 9]
    with pytest.raises(BadInputError, match="photographed twice"):
        assemble(faces)


def test_wrong_number_of_faces_or_mixed_sizes():
    with pytest.raises(BadInputError, match="six faces"):
        assemble(["W" * 9] * 5)
    with pytest.raises(BadInputError, match="different grid sizes"):
        assemble(["W" * 9] * 5 + ["B" * 4])


def test_even_cube_in_unknown_colors_needs_the_net_orientation():
    with pytest.raises(BadInputError, match="orientation net"):
        assemble(["a" * 4, "b" * 4, "c" * 4, "d" * 4, "e" * 4, "f" * 4])


def test_a_symmetric_cube_is_reported_as_ambiguous_not_hidden():
    # Plain faces look the same in every rotation, so the one wrong sticker on U could
    # sit on any of U's four corners: four different cubes, equally good.
    faces = ["W" * 9, "R" * 9, "G" * 9, "Y" * 9, "O" * 9, "B" * 9]
    faces[0] = "WWWWWWWWY"  # one wrong sticker: it can sit on any of U's four corners
    result = assemble(faces)
    assert result.ambiguous
    assert len(result.alternatives) == 4
    assert result.report.problems[0].code == "color-count"
    # Which corner of U it sits on depends on how U was held, which plain faces hide.
    assert {result.facelets[i] for i in (0, 2, 6, 8)} == {"U", "D"}


def misread(state: str, count: int, rng: np.random.Generator) -> str:
    """``state`` with ``count`` non-centre stickers read as another colour."""
    letters = list(state)
    for index in rng.choice([i for i in range(len(state)) if i % 9 != 4], count, replace=False):
        letters[index] = "URFDLB"[int(rng.integers(6))]
    return "".join(letters)


@given(seed=seeds, count=st.integers(0, 3))
@settings(max_examples=30, deadline=None)
def test_every_placement_is_counted_as_a_slot_by_slot_reading_would(seed, count):
    # The array search counts, for all 120 x 4^6 placements at once, the slots that are
    # not real pieces; read one placement's cube slot by slot and the counts must agree.
    rng = np.random.default_rng(seed)
    photos = photos_of(misread(random_state(rng), count, rng), 3, rng)
    placings = count_placements(tuple(photos), 3)
    total = placings.broken.total
    cells = rng.choice(total.size, 40, replace=False)
    cells.sort()
    for candidate in placings.candidates(cells):
        per_face = {p.face: p.photo for p in candidate.placements}
        scheme = {photos[photo][4]: face for face, photo in per_face.items()}
        letters = "".join(scheme.get(ch, "?") for ch in candidate.letters)
        broken = [
            number
            for number, slot_set in enumerate(slot_sets(3))
            for slot in slot_set.slots
            if "".join(letters[i] for i in slot) not in slot_set.pieces
        ]
        assert candidate.broken == len(broken)
    orbits = placings.broken.orbits(cells)
    assert ((orbits >= 1) == (total.flat[cells] >= 1)).all() and orbits.max() <= 2


@pytest.mark.parametrize("fault", ["mirror", "swap", "misread"])
@given(seed=seeds)
@settings(max_examples=8, deadline=None)
def test_the_bounded_second_look_weighs_every_placement_that_could_win(fault, seed):
    # Placements with one more broken piece are weighed only where they could still rank
    # first; weighing all of them must give the same cube, diagnosis and alternatives.
    rng = np.random.default_rng(seed)
    state = random_state(rng)
    state = misread(state, 2, rng) if fault == "misread" else inject(state, fault, rng)
    photos = photos_of(state, 3, rng)
    result = assemble(photos)
    placings = count_placements(tuple(photos), 3)
    total = placings.broken.total
    fewest = int(total.min())
    centers = [p[4] for p in photos]
    up, front = ("W", "G") if {"W", "G"} <= set(centers) else (centers[0], centers[2])
    everything = placings.candidates(np.flatnonzero(total <= fewest + 1))
    scored = diagnose_leaders(rank_candidates(everything, 3, up, front))
    best = [item for item in scored if item[0][:3] == scored[0][0][:3]]
    assert result.facelets == scored[0][4].facelets
    assert result.broken_pieces == scored[0][2].broken
    assert set(result.alternatives) == {item[4].facelets for item in best}


@pytest.mark.parametrize(
    "truth",
    [
        # D turned half way is another solvable cube.
        "BDDDURLBFUUFFRRLUFULRFFLLDUDRBLDFBLDRBFBLRRUBLFUBBURDD",
        # One mirrored corner; R turned half way is another cube with one mirrored corner.
        "DDFUUUUDBLLULRRUBLLBDFFBRFRFRBDDUBRDFRBFLLDFULLRBBUFDR",
    ],
)
def test_among_equally_good_cubes_the_photos_as_taken_come_first(truth):
    # No sticker can tell these cubes apart, so both are reported; the only cue left is
    # how the photos were taken: in the net orientation (shuffled), that reading leads.
    colors = truth.translate(TO_COLORS)
    faces = [colors[9 * f : 9 * f + 9] for f in range(6)]
    for seed in range(4):
        order = np.random.default_rng(seed).permutation(6)
        result = assemble([faces[o] for o in order])
        assert result.ambiguous and len(result.alternatives) == 2
        assert result.facelets == truth
        assert all(p.quarter_turns == 0 for p in result.placements)
