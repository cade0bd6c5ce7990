"""`cubescan validate`: exit codes, JSON, and no traceback on any input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cubescan.scanner.cli import main
from cubescan.solver.moves import apply_moves, solved_facelets

SOLVED = solved_facelets(3)
COLORS = SOLVED.translate(str.maketrans("URFDLB", "WRGYOB"))


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_solvable_cube_exits_0_and_shows_the_net():
    result = run("validate", apply_moves(SOLVED, "R U"))
    assert result.exit_code == 0
    assert "Solvable" in result.output
    assert result.output.count("U") >= 9


def test_unsolvable_cube_exits_1_with_problem_and_fix():
    flipped = SOLVED[:5] + "R" + SOLVED[6:10] + "U" + SOLVED[11:]
    result = run("validate", flipped)
    assert result.exit_code == 1
    assert "edge-flip" in result.output
    assert "flip the edge at UR in place" in result.output


def test_json_report_has_the_design_fields():
    result = run("validate", "--json", COLORS)
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["valid"] is True and data["size"] == 3
    assert data["facelets"] == SOLVED
    assert data["colors"]["F"] == {"name": "G"}
    assert data["problems"] == [] and data["classic_error"] == 0


def test_json_for_an_unsolvable_cube_lists_codes_pieces_and_fix():
    twisted = SOLVED[:8] + "R" + "F" + SOLVED[10:20] + "U" + SOLVED[21:]
    result = run("validate", "--json", twisted)
    assert result.exit_code == 1
    problem = json.loads(result.stdout)["problems"][0]
    assert problem["code"] == "corner-twist"
    assert problem["pieces"] == ["URF"]
    assert problem["facelets"] == ["U9", "R1", "F3"]
    assert "twist the corner at URF" in problem["fix"]


def test_one_color_everywhere_is_read_but_not_solvable():
    result = run("validate", "X" * 54)
    assert result.exit_code == 1
    assert "center-duplicate" in result.output


@pytest.mark.parametrize("state", ["", "UUU", "ABCDEFG" + SOLVED[7:], SOLVED + "U", "é" * 53])
def test_unreadable_states_exit_2_with_one_line(state):
    result = run("validate", state)
    assert result.exit_code == 2
    assert result.output.startswith("cubescan: error:") or "Usage" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@given(st.text(max_size=70))
@settings(max_examples=300, deadline=None)
def test_fuzzed_states_never_crash(state):
    result = run("validate", "--", state)
    assert result.exit_code in (0, 1, 2)
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("state", ["", "🙂" * 54, "U" * 96, "\x01" * 24, SOLVED[::-1]])
def test_real_process_prints_no_traceback(state):
    proc = subprocess.run(
        [sys.executable, "-m", "cubescan", "validate", "--", state],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode in (0, 1, 2)
    assert "Traceback" not in proc.stderr
    if proc.returncode == 2:
        assert proc.stderr.startswith("cubescan: error:") and proc.stderr.count("\n") == 1


# ------------------------------------------------------------------ tesseracts


def _tesseract(name: str, twists: str) -> str:
    from cubescan.solver.puzzles.moves import apply_twists

    return apply_twists(name, twists)


@pytest.mark.parametrize("name", ["2x2x2x2", "3x3x3x3"])
def test_a_twisted_tesseract_is_solvable_in_cell_letters_and_in_colours(name):
    state = _tesseract(name, "Of Ru' Uo2 Bu")
    result = run("validate", "--puzzle", name, state)
    assert result.exit_code == 0, result.output
    assert "Solvable" in result.output
    colored = state.translate(str.maketrans("OIRLUDFB", "wyrobgpk"))
    data = json.loads(run("validate", "--puzzle", name, "--json", colored).stdout)
    assert data["valid"] is True and data["puzzle"] == name
    assert set(data["orbit"].values()) == {0}
    assert {c["name"] for c in data["colors"].values()} == set("wyrobgpk")


def test_a_tesseract_corner_turned_by_a_third_exits_1_with_code_and_fix():
    from cubescan.solver.fixes import Fix, apply_fix
    from cubescan.solver.puzzles import puzzle

    corner = puzzle("3x3x3x3").pieces[0].stickers
    state = apply_fix(_tesseract("3x3x3x3", "Of"), Fix("twist-corner", corner[1:], "", turns=2))
    result = run("validate", "--puzzle", "3x3x3x3", state)
    assert result.exit_code == 1
    assert "corner-twist" in result.output and "a third of a turn" in result.output
    data = json.loads(run("validate", "--puzzle", "3x3x3x3", "--json", state).stdout)
    assert [p["code"] for p in data["problems"]] == ["corner-twist"]
    assert data["orbit"]["corner_twist"] != 0 and data["classic_error"] == 5
    assert all(name[0] in "OIRLUDFB" for name in data["problems"][0]["facelets"])


@pytest.mark.parametrize(
    "args",
    [
        ("--puzzle", "3x3x3x3", "OOO"),
        ("--puzzle", "5x5x5x5", "OOO"),
        ("--puzzle", "2x2x2x2", "0123456789" * 6 + "0123"),
        ("--puzzle", "3x3", "U" * 24),
    ],
)
def test_bad_tesseract_input_is_one_line_and_exit_2(args):
    result = CliRunner().invoke(main, ["validate", *args])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and result.output.startswith("cubescan: error: ")


@given(
    name=st.sampled_from(["2x2x2x2", "3x3x3x3"]),
    data=st.data(),
)
@settings(max_examples=40, deadline=None)
def test_random_tesseract_states_never_give_a_traceback(name, data):
    length = data.draw(st.sampled_from([0, 1, 63, 64, 65, 215, 216]))
    alphabet = data.draw(st.sampled_from(["OIRLUDFB", "OIRLUDF", "abcdefghi", "OIRLUDFB "]))
    state = data.draw(st.text(alphabet=alphabet, min_size=length, max_size=length))
    result = CliRunner().invoke(main, ["validate", "--puzzle", name, "--json", state or " "])
    assert result.exit_code in (0, 1, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    if result.exit_code == 2:
        assert result.output.count("\n") == 1
    else:
        json.loads(result.stdout)
