"""Each photo's light: balancing photos against each other and re-lighting misfits."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cubescan.calibration.colorspace import BRADFORD, BRADFORD_INV, lab_to_xyz, xyz_to_lab
from cubescan.calibration.light import balance_photos, relight_misfits
from cubescan.calibration.palette import PALETTE_LAB
from cubescan.scanner.pipeline.check import cube_report
from cubescan.solver.cubie import random_state
from cubescan.synth.colors import render_cube

# Six photos' samples of rendered cubes, as `eval_check` read them, that the photos'
# own naming misled: a photo or two several times darker than the rest, named on
# its own with its greens or oranges as whites (see each case's source).
DIM_PHOTO_CUBES = json.loads((Path(__file__).parent / "data" / "dim_photo_cubes.json").read_text())


def under_light(lab: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """The samples under a light ``gain`` times the original per Bradford cone channel."""
    return xyz_to_lab(lab_to_xyz(lab) @ BRADFORD.T * gain @ BRADFORD_INV.T)


@pytest.mark.parametrize("case", DIM_PHOTO_CUBES, ids=lambda case: case["source"][-18:])
def test_cubes_with_photos_named_wrong_on_their_own_are_read_exactly(case):
    report = cube_report([np.array(photo) for photo in case["photos"]], solve=False)
    assert report.facelets == case["facelets"]
    assert [p.code for p in report.validation.problems] == case["problems"]


def test_photos_that_match_each_other_are_left_as_they_are():
    # One light, one shade: each sticker is its colour plus a little sensor noise.
    rng = np.random.default_rng(3)
    for _ in range(10):
        color = np.array(["URFDLB".index(c) for c in random_state(rng)])
        lab = PALETTE_LAB[[0, 2, 4, 1, 3, 5]][color] + rng.normal(0.0, 1.5, (54, 3))
        faces = [lab[9 * f : 9 * f + 9] for f in range(6)]
        for relit, face in zip(relight_misfits(faces), faces, strict=True):
            np.testing.assert_allclose(relit, face, atol=1e-6)


def reads_right(photos: list[np.ndarray], truth: str, photo: int) -> bool:
    """Is each sticker of ``photo`` nearest the other photos' mean of its own colour?"""
    letters = np.array(list(truth)).reshape(len(photos), -1)
    others = [f for f in range(len(photos)) if f != photo]
    colors = sorted(set(truth))
    means = np.array(
        [np.concatenate([photos[f][letters[f] == c] for f in others]).mean(axis=0) for c in colors]
    )
    nearest = np.linalg.norm(photos[photo][:, None] - means[None], axis=-1).argmin(axis=1)
    return "".join(colors[k] for k in nearest) == "".join(letters[photo])


def test_a_photo_in_a_light_of_its_own_is_relit_onto_the_others_colors():
    # One photo 2 to 12 times darker and tinted: afterwards it reads as it did before.
    rng = np.random.default_rng(8)
    before = after = untouched = 0
    for _ in range(40):
        truth = random_state(rng)
        lab = render_cube(truth, "cool", rng)
        faces = [lab[9 * f : 9 * f + 9] for f in range(6)]
        photo = int(rng.integers(6))
        untouched += reads_right(faces, truth, photo)
        faces[photo] = under_light(faces[photo], rng.uniform(0.08, 0.5) * rng.uniform(0.7, 1.3, 3))
        before += reads_right(faces, truth, photo)
        after += reads_right(relight_misfits(faces), truth, photo)
    assert before <= 10
    assert after >= untouched - 1


def test_balancing_undoes_a_photo_s_own_light():
    rng = np.random.default_rng(4)
    truth = random_state(rng)
    lab = render_cube(truth, "cool", rng)
    faces = [lab[9 * f : 9 * f + 9] for f in range(6)]
    shadowed = xyz_to_lab(lab_to_xyz(faces[0]) * np.array([0.25, 0.25, 0.2]))  # dim, warmer

    def nearest_colors(photos: list[np.ndarray]) -> str:
        """For each sticker of the first photo, the true colour of the most alike other one."""
        others = np.concatenate(photos[1:])
        distance = np.linalg.norm(photos[0][:, None] - others[None], axis=-1)
        return "".join(truth[9 + int(k)] for k in distance.argmin(axis=1))

    assert nearest_colors([shadowed, *faces[1:]]) != truth[:9]
    balanced = balance_photos([shadowed, *faces[1:]])
    assert [b.shape for b in balanced] == [(9, 3)] * 6
    assert nearest_colors(balanced) == truth[:9]


@pytest.mark.parametrize("balance", [balance_photos, relight_misfits])
def test_the_faces_of_a_solved_cube_keep_their_light(balance):
    # A face of one colour says nothing of its light, and its colour is on no other photo:
    # that is no reason to re-light it (each would be moved onto another face's colour).
    rng = np.random.default_rng(2)
    lab = PALETTE_LAB[[0, 2, 4, 1, 3, 5]][np.repeat(np.arange(6), 9)] + rng.normal(0, 1.5, (54, 3))
    faces = [lab[9 * f : 9 * f + 9] for f in range(6)]
    faces[1] = under_light(faces[1], np.array([0.3, 0.3, 0.25]))  # in shade, warmer
    for kept, face in zip(balance(faces), faces, strict=True):
        np.testing.assert_allclose(kept, face, atol=1e-6)
