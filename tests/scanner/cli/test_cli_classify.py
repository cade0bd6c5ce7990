"""`cubescan classify --rgb FILE` and `cubescan calibrate` end to end (click runner)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from cubescan.calibration.colorspace import lab_to_rgb
from cubescan.scanner.cli import main
from cubescan.solver import random_state, solved_facelets
from cubescan.synth.colors import STANDARD_FACE_COLOR, draw_light, render_stickers


def rgb_readings(facelets: str, seed: int) -> list[list[int]]:
    rng = np.random.default_rng(seed)
    colors = np.array([STANDARD_FACE_COLOR[f] for f in facelets])
    lab = render_stickers(colors, draw_light("warm", rng), rng, 0.0)
    return np.round(lab_to_rgb(lab)).astype(int).tolist()


@pytest.fixture
def isolated_config(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path


@pytest.mark.parametrize("keyed", [False, True])
def test_classify_json_both_forms(tmp_path, keyed):
    truth = random_state(np.random.default_rng(3))
    readings = rgb_readings(truth, 3)
    data = {str(i + 1): v for i, v in enumerate(readings)} if keyed else readings
    path = tmp_path / "cube.json"
    path.write_text(json.dumps(data))
    result = CliRunner().invoke(main, ["classify", "--rgb", str(path), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["facelets"] == truth
    assert report["valid"] is True
    assert report["colors"]["U"]["name"] == "white"
    assert len(report["confidence"]) == 54
    assert report["repairs"] == []


def test_classify_unsolvable_exit_1(tmp_path):
    truth = solved_facelets(3)
    # Twist a corner: U9 R1 F3 -> colours rotated.
    letters = list(truth)
    letters[8], letters[9], letters[20] = letters[20], letters[8], letters[9]
    path = tmp_path / "cube.json"
    path.write_text(json.dumps(rgb_readings("".join(letters), 4)))
    result = CliRunner().invoke(main, ["classify", "--rgb", str(path), "--json"])
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert "corner-twist" in {p["code"] for p in report["problems"]}
    assert report["repairs"] == []


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not JSON"),
        ("[[1, 2, 3]]", "needs 6*N*N"),
        (json.dumps([[1, 2]] * 54), "not [r, g, b]"),
        (json.dumps([[1, 2, -3]] * 54), "outside 0..255"),
        (json.dumps([[1, 2, 300]] * 54), "outside 0..255"),
        ("[" + ",".join(["[NaN, 1, 2]"] * 54) + "]", "outside 0..255"),
        (json.dumps({"1": [1, 2, 3], "3": [1, 2, 3]}), "keys must be"),
        (json.dumps("text"), "expected a list"),
    ],
)
def test_classify_bad_input_exit_2(tmp_path, content, message):
    path = tmp_path / "cube.json"
    path.write_text(content)
    result = CliRunner().invoke(main, ["classify", "--rgb", str(path)])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_calibrate_learn_list_use_delete(tmp_path, isolated_config):
    runner = CliRunner()
    path = tmp_path / "solved.json"
    path.write_text(json.dumps(rgb_readings(solved_facelets(3), 5)))
    learned = runner.invoke(main, ["calibrate", "--rgb", str(path), "--name", "desk"])
    assert learned.exit_code == 0, learned.output
    again = runner.invoke(main, ["calibrate", "--rgb", str(path), "--name", "desk"])
    assert again.exit_code == 2 and "already exists" in again.output
    listed = runner.invoke(main, ["calibrate", "--list", "--json"])
    assert json.loads(listed.stdout) == {"profiles": ["desk"]}
    truth = random_state(np.random.default_rng(6))
    cube = tmp_path / "cube.json"
    cube.write_text(json.dumps(rgb_readings(truth, 6)))
    used = runner.invoke(main, ["classify", "--rgb", str(cube), "--profile", "desk", "--json"])
    assert used.exit_code == 0, used.output
    assert json.loads(used.stdout)["facelets"] == truth
    assert runner.invoke(main, ["calibrate", "--delete", "desk"]).exit_code == 0
    missing = runner.invoke(main, ["classify", "--rgb", str(cube), "--profile", "desk"])
    assert missing.exit_code == 2 and "no colour profile" in missing.output
