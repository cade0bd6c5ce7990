"""Every input gets a true answer: a clear line and exit 2 for bad input, exit 3 with a crash
report for anything unforeseen, never a traceback and never a false "Solvable"."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from cli_lines import message_lines
from click.testing import CliRunner

import cubescan.scanner.cli.validate as validate_module
from cubescan import apply_moves, solved_facelets
from cubescan.scanner.cli import main

ROOT = Path(__file__).resolve().parents[3]
CUBE = ROOT / "sample_images" / "cube_3x3"
SIX = [[235, 235, 235], [200, 30, 30], [30, 160, 60], [240, 220, 30], [250, 130, 20], [20, 60, 190]]


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def one_line_error(result) -> str:
    lines = message_lines(result.stderr)
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_an_unforeseen_error_is_one_line_exit_3_and_a_crash_report(monkeypatch, tmp_path):
    monkeypatch.setenv("CUBESCAN_CACHE_DIR", str(tmp_path))

    def broken(*args, **kwargs):
        raise RuntimeError("a bug nobody foresaw")

    monkeypatch.setattr(validate_module, "validate", broken)
    result = run("validate", "U" * 9 + "R" * 9 + "F" * 9 + "D" * 9 + "L" * 9 + "B" * 9)
    assert result.exit_code == 3
    line = one_line_error(result)
    assert "internal error: RuntimeError: a bug nobody foresaw" in line
    report = Path(line.rsplit("please report it with ", 1)[1])
    assert (
        report.parent == tmp_path / "crash-reports" and "a bug nobody foresaw" in report.read_text()
    )


def test_help_lists_every_subcommand_without_importing_them():
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from cubescan.scanner.cli import main\n"
        "out = CliRunner().invoke(main, ['--help']).output\n"
        "heavy = [m for m in ('cv2', 'sklearn', 'numba', 'scipy') if m in sys.modules]\n"
        "print(heavy, 'check' in out and 'validate' in out)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "[] True", done.stdout + done.stderr


def test_the_help_table_says_what_each_command_says_of_itself():
    from cubescan.scanner.cli import SUBCOMMANDS, CubescanGroup

    group = CubescanGroup()
    for name, (_, line) in SUBCOMMANDS.items():
        command = group.get_command(None, name)
        assert command.help.splitlines()[0] == line, name


@pytest.mark.parametrize(
    ("readings", "says"),
    [
        ([[0, 0, 0]] * 54, "one colour"),
        ([[128, 128, 128]] * 54, "one colour"),
        ([[g, g, g] for g in np.linspace(20, 230, 54).round()], "all grey"),
    ],
)
def test_readings_without_six_colours_are_refused_not_named(tmp_path, readings, says):
    path = tmp_path / "readings.json"
    path.write_text(json.dumps([list(map(float, r)) for r in readings]))
    result = run("classify", "--rgb", str(path))
    assert result.exit_code == 2 and "Solvable" not in result.output
    assert says in one_line_error(result)


def test_a_face_of_black_readings_is_named_not_a_crash(tmp_path):
    readings = [[0, 0, 0]] * 9 + [c for c in SIX[1:] for _ in range(9)]
    path = tmp_path / "readings.json"
    path.write_text(json.dumps(readings))
    result = run("classify", "--rgb", str(path), "--json")
    assert result.exit_code in (0, 1), result.output
    assert json.loads(result.stdout)["facelets"]


@pytest.mark.parametrize(
    "readings",
    [
        [[0, 0, 0]] * 54,  # black: no white point
        [[128, 128, 128]] * 54,  # grey: six colours the same
        np.random.default_rng(0).integers(0, 256, (54, 3)).tolist(),  # noise
    ],
)
def test_a_profile_is_not_learned_from_readings_that_show_no_cube(tmp_path, monkeypatch, readings):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    path = tmp_path / "solved.json"
    path.write_text(json.dumps(readings))
    result = run("calibrate", "--rgb", str(path), "--name", "desk")
    assert result.exit_code == 2
    assert "colour" in one_line_error(result)
    assert not (tmp_path / "config").exists() or not list((tmp_path / "config").rglob("*.json"))


def test_a_stored_profile_of_overlapping_colours_is_refused_when_loaded(tmp_path):
    from cubescan.calibration.profile import load_profile

    grey = {"mean": [50.0, 0.0, 0.0], "covariance": np.eye(3).tolist()}
    data = {
        "format": "cubescan-profile",
        "version": 1,
        "name": "grey",
        "white": [50.0, 0.0, 0.0],
        "colors": [{**grey, "name": n, "face": f} for n, f in zip("abcdef", "URFDLB", strict=True)],
    }
    (tmp_path / "grey.json").write_text(json.dumps(data))
    with pytest.raises(Exception, match="overlap") as caught:
        load_profile("grey", tmp_path)
    assert getattr(caught.value, "code", None) == "bad-profile"


def test_messages_name_the_file_and_the_real_cause(tmp_path):
    missing = run("check", str(tmp_path / "no-such-folder"))
    assert missing.exit_code == 2 and "does not exist" in one_line_error(missing)
    folder = run("read", str(tmp_path))
    assert folder.exit_code == 2 and "is a folder" in one_line_error(folder)
    tiny = tmp_path / "tiny.png"
    cv2.imwrite(str(tiny), np.zeros((1, 1, 3), np.uint8))
    small = run("read", str(tiny))
    assert small.exit_code == 2 and "tiny.png" in one_line_error(small)


def test_greyscale_photos_are_said_to_be_greyscale(tmp_path):
    for photo in CUBE.glob("*.png"):
        grey = cv2.cvtColor(cv2.imread(str(photo)), cv2.COLOR_BGR2GRAY)
        cv2.imwrite(str(tmp_path / photo.name), grey)
    result = run("check", str(tmp_path))
    assert result.exit_code == 2 and "greyscale" in one_line_error(result)


@pytest.mark.parametrize("again", [[], ["--resume"]])
def test_batch_reruns_never_take_their_own_report_for_a_cube(tmp_path, again):
    shutil.copytree(CUBE, tmp_path / "desk-cube")
    first = run("batch", str(tmp_path))
    second = run("batch", str(tmp_path), *again)
    assert first.exit_code == 0 and second.exit_code == 0, second.stderr
    rows = [
        json.loads(line)
        for line in (tmp_path / "cubescan-report" / "report.jsonl").read_text().splitlines()
    ]
    assert [row["cube"] for row in rows] == ["desk-cube"]


@pytest.mark.parametrize("name", ["out.txt", "no-suffix", "missing-folder/x.png"])
def test_an_unwritable_annotation_path_is_refused_before_the_work(tmp_path, name):
    result = run(
        "read",
        str(ROOT / "sample_images" / "face_3x3_stickered.jpg"),
        "--annotate",
        str(tmp_path / name),
    )
    assert result.exit_code == 2 and str(tmp_path / name) in one_line_error(result)
    assert list(tmp_path.iterdir()) == []


def test_check_refuses_a_file_given_as_its_annotation_folder(tmp_path):
    taken = tmp_path / "taken"
    taken.write_text("a file")
    result = run("check", str(CUBE), "--annotate", str(taken))
    assert result.exit_code == 2 and "is a file" in one_line_error(result)


def test_a_missed_max_length_is_said_and_exits_1():
    state = (ROOT / "sample_images" / "scrambled_3x3.txt").read_text().strip()
    result = run("solve", "--max-length", "5", state)
    assert result.exit_code == 1
    assert "no solution of at most 5 moves" in one_line_error(result)
    assert result.stdout.strip()  # the best solution found is still printed


def test_steps_with_json_are_in_the_json():
    result = run("solve", "--steps", "--json", "UUFFUBRRRRFDDBDBFDLLLLUB")
    assert result.exit_code == 0
    steps = json.loads(result.stdout)["steps"]
    assert steps[-1]["facelets"] == "UUUURRRRFFFFDDDDLLLLBBBB"


def test_an_unusable_cache_is_one_warning_line_and_the_answer_still_comes(tmp_path):
    blocker = tmp_path / "cache-is-a-file"
    blocker.write_text("")
    scrambled_2x2 = apply_moves(solved_facelets(2), "R U F")
    done = subprocess.run(
        [sys.executable, "-m", "cubescan", "solve", scrambled_2x2],
        capture_output=True,
        text=True,
        env={**os.environ, "CUBESCAN_CACHE_DIR": str(blocker)},
    )
    assert done.returncode == 0, done.stderr
    lines = message_lines(done.stderr)
    assert len(lines) == 1 and lines[0].startswith("cubescan: warning: the cache folder")


def test_the_first_run_says_what_it_prepares_and_the_second_is_quiet(tmp_path, table_cache):
    # A fresh cache folder holding only the session's solver tables: the markers are new,
    # so the run announces itself, without paying for another table build.
    from cubescan.solver.tables import load_tables

    load_tables(progress=False)
    for table in Path(table_cache).glob("*.npz"):
        shutil.copy(table, tmp_path / table.name)
    env = {**os.environ, "CUBESCAN_CACHE_DIR": str(tmp_path)}
    command = [sys.executable, "-m", "cubescan", "check", str(CUBE)]
    first = subprocess.run(command, capture_output=True, text=True, env=env)
    second = subprocess.run(command, capture_output=True, text=True, env=env)
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    assert first.stderr.startswith("cubescan: preparing the detector and the solver, once")
    assert second.stderr == "" and first.stdout == second.stdout
    assert {p.name.rsplit("-", 1)[0] for p in tmp_path.glob("prepared-*")} == {
        "prepared-detector",
        "prepared-solver",
    }


def test_the_verdict_is_printed_before_the_solver_is_waited_for(monkeypatch):
    # On a first run the solver may take half a minute to prepare: a user who stops it
    # then (Ctrl-C) already has the verdict, which needs no solver.
    import cubescan.scanner.cli.check as check_module

    def interrupted(report):
        raise KeyboardInterrupt

    monkeypatch.setattr(check_module, "with_solution", interrupted)
    result = CliRunner().invoke(main, ["check", str(CUBE)])
    assert result.exit_code == 130
    assert "Solvable." in result.stdout and "Solution" not in result.stdout


def test_a_bad_input_is_refused_before_any_preparation(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "cubescan", "check", str(tmp_path / "missing")],
        capture_output=True,
        text=True,
        env={**os.environ, "CUBESCAN_CACHE_DIR": str(tmp_path)},
    )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "does not exist" in result.stderr
