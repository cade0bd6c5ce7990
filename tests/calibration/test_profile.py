"""Colour profiles: learning, versioned JSON storage, corrupt files, and use in naming."""

from __future__ import annotations

import json

import numpy as np
import pytest

from cubescan.calibration.face_naming import name_face_colors
from cubescan.calibration.palette import PALETTE_LAB, PALETTE_NAMES
from cubescan.calibration.profile import (
    Profile,
    delete_profile,
    learn_profile,
    list_profiles,
    load_profile,
    save_profile,
)
from cubescan.errors import BadInputError
from cubescan.solver import solved_facelets


def demo_profile(name: str = "demo") -> Profile:
    rng = np.random.default_rng(0)
    order = [0, 2, 4, 1, 3, 5]  # palette index of U R F D L B
    lab = PALETTE_LAB[np.repeat(order, 9)] + rng.normal(0, 1.5, (54, 3))
    return learn_profile(name, lab, solved_facelets(3))


def test_learn_means_and_names():
    profile = demo_profile()
    assert profile.names == ("white", "red", "green", "yellow", "orange", "blue")
    assert np.allclose(profile.means, PALETTE_LAB[[0, 2, 4, 1, 3, 5]], atol=2.0)
    assert np.all(np.linalg.eigvalsh(profile.covariances) > 0)
    assert profile.white == pytest.approx(tuple(profile.means[0]))


def test_round_trip_list_delete(tmp_path):
    profile = demo_profile()
    path = save_profile(profile, tmp_path)
    assert json.loads(path.read_text())["version"] == 1
    loaded = load_profile("demo", tmp_path)
    assert np.allclose(loaded.means, profile.means)
    assert np.allclose(loaded.covariances, profile.covariances)
    assert list_profiles(tmp_path) == ["demo"]
    with pytest.raises(BadInputError, match="already exists"):
        save_profile(profile, tmp_path)
    save_profile(profile, tmp_path, overwrite=True)
    delete_profile("demo", tmp_path)
    assert list_profiles(tmp_path) == []
    assert not list(tmp_path.glob("*.tmp"))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not readable JSON"),
        (json.dumps({"format": "other"}), "not a cubescan colour profile"),
        (json.dumps({"format": "cubescan-profile", "version": 99}), "version 99"),
        (json.dumps({"format": "cubescan-profile", "version": 1, "colors": []}), "corrupt"),
    ],
)
def test_corrupt_files_are_errors_and_never_overwritten(tmp_path, content, message):
    path = tmp_path / "demo.json"
    path.write_text(content)
    with pytest.raises(BadInputError, match=message):
        load_profile("demo", tmp_path)
    with pytest.raises(BadInputError):
        save_profile(demo_profile(), tmp_path, overwrite=True)
    assert path.read_text() == content


@pytest.mark.parametrize("name", ["", "../etc", "a/b", ".hidden", "x" * 65])
def test_bad_names(tmp_path, name):
    with pytest.raises(BadInputError, match="invalid profile name"):
        load_profile(name, tmp_path)


def test_missing_profile(tmp_path):
    with pytest.raises(BadInputError, match="no colour profile"):
        load_profile("nothing", tmp_path)


def test_face_naming_with_profile_follows_the_profile():
    # A camera that sees orange very red: the default palette says red, the profile knows.
    means = PALETTE_LAB.copy()
    means[3] = [45.0, 55.0, 36.0]
    profile = Profile.from_means("odd-camera", PALETTE_NAMES, means, spread=3.0)
    face = np.array([[45.0, 55.0, 36.0], [42.0, 56.0, 28.0], [85.0, 0.0, 0.0]])
    assert name_face_colors(face, profile).names == ("orange", "red", "white")


def test_learn_rejects_mismatch():
    with pytest.raises(BadInputError, match="facelet letters"):
        learn_profile("x", np.zeros((54, 3)), "U" * 53)
