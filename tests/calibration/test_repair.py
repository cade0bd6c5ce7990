"""Constraint-aware repair: fixes unsure misreads, never hides a confidently read fault."""

from __future__ import annotations

import numpy as np
import pytest

from cubescan.calibration.naming import classify
from cubescan.calibration.repair import facelet_name, repair
from cubescan.solver import cubie_to_facelets, random_cubie, validate
from cubescan.solver.cubie import CubieCube
from cubescan.synth.colors import STANDARD_FACE_COLOR, draw_brand, draw_light, render_stickers


def readings(facelets: str, rng: np.random.Generator) -> np.ndarray:
    colors = np.array([STANDARD_FACE_COLOR[f] for f in facelets])
    return render_stickers(colors, draw_light("cool", rng), rng, 0.0, draw_brand(rng))


def blur_red_orange(lab: np.ndarray, facelets: str, count: int, rng) -> list[int]:
    """Make ``count`` red and ``count`` orange stickers read halfway-ish (low contrast)."""
    red = [i for i, f in enumerate(facelets) if f == "R" and i % 9 != 4]
    orange = [i for i, f in enumerate(facelets) if f == "L" and i % 9 != 4]
    red_mean = lab[[i for i, f in enumerate(facelets) if f == "R"]].mean(axis=0)
    orange_mean = lab[[i for i, f in enumerate(facelets) if f == "L"]].mean(axis=0)
    picked = list(rng.choice(red, count, replace=False)) + list(
        rng.choice(orange, count, replace=False)
    )
    for index in picked[:count]:
        lab[index] = 0.45 * red_mean + 0.55 * orange_mean  # a red that looks a bit orange
    for index in picked[count:]:
        lab[index] = 0.55 * red_mean + 0.45 * orange_mean  # an orange that looks a bit red
    return [int(i) for i in picked]


@pytest.mark.parametrize("count", [1, 2, 3])
@pytest.mark.parametrize("seed", range(4))
def test_low_contrast_red_orange_misreads_repaired(count, seed):
    rng = np.random.default_rng([seed, count])
    truth = cubie_to_facelets(random_cubie(rng))
    lab = readings(truth, rng)
    picked = blur_red_orange(lab, truth, count, rng)
    result = classify(lab)
    wrong = [i for i in range(54) if result.facelets[i] != truth[i]]
    assert wrong, "the blurred stickers should be misread (the test would assert nothing)"
    assert set(wrong) <= set(picked)
    outcome = repair(result)
    assert outcome.facelets == truth, outcome.reason
    assert {r.index for r in outcome.repairs} == set(wrong)
    for change in outcome.repairs:
        assert change.position == facelet_name(change.index, 3)
        assert change.new == truth[change.index]
        assert change.confidence < 0.5


def twisted(cube: CubieCube) -> CubieCube:
    co = list(cube.co)
    co[0] = (co[0] + 1) % 3
    return CubieCube(cube.cp, tuple(co), cube.ep, cube.eo)


def flipped(cube: CubieCube) -> CubieCube:
    eo = list(cube.eo)
    eo[0] ^= 1
    return CubieCube(cube.cp, cube.co, cube.ep, tuple(eo))


def swapped(cube: CubieCube) -> CubieCube:
    ep = list(cube.ep)
    ep[0], ep[1] = ep[1], ep[0]
    return CubieCube(cube.cp, cube.co, tuple(ep), cube.eo)


def swapped_corners(cube: CubieCube) -> CubieCube:
    cp = list(cube.cp)
    cp[0], cp[1] = cp[1], cp[0]
    return CubieCube(tuple(cp), cube.co, cube.ep, cube.eo)


@pytest.mark.parametrize(
    ("fault", "code"),
    [
        (twisted, "corner-twist"),
        (flipped, "edge-flip"),
        (swapped, "permutation-parity"),
        (swapped_corners, "permutation-parity"),
    ],
)
@pytest.mark.parametrize("seed", range(3))
def test_physical_faults_are_diagnosed_not_repaired(fault, code, seed):
    rng = np.random.default_rng([seed, 99])
    facelets = cubie_to_facelets(fault(random_cubie(rng)))
    lab = readings(facelets, rng)
    # Some unsure red/orange stickers too: the repair must still not hide the fault.
    blur_red_orange(lab, facelets, 1, rng)
    result = classify(lab)
    outcome = repair(result)
    # The misread red/orange may be corrected, but the physical fault stays, diagnosed.
    assert all(change.confidence < 0.5 for change in outcome.repairs)
    assert all(facelets[c.index] == c.new for c in outcome.repairs)
    report = validate(outcome.facelets)
    assert not report.valid
    assert {p.code for p in report.problems} == {code}
    assert outcome.facelets == facelets


def test_valid_cube_untouched():
    rng = np.random.default_rng(5)
    truth = cubie_to_facelets(random_cubie(rng))
    outcome = repair(classify(readings(truth, rng)))
    assert outcome.facelets == truth
    assert outcome.repairs == ()


@pytest.mark.parametrize("fault", [twisted, flipped, swapped, swapped_corners])
def test_confident_physical_fault_left_alone(fault):
    # Every sticker read clearly: nothing may be recoloured, the fault is reported as read.
    rng = np.random.default_rng(42)
    facelets = cubie_to_facelets(fault(random_cubie(rng)))
    outcome = repair(classify(readings(facelets, rng)))
    assert outcome.repairs == ()
    assert outcome.facelets == facelets
    assert outcome.reason.startswith("no repair")
