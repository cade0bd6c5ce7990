"""`cubescan solve`: moves for people and JSON, exit codes, --steps, Ctrl-C."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from cubescan.scanner.cli import main
from cubescan.solver import solve as solve_module
from cubescan.solver.cubie import random_state
from cubescan.solver.moves import apply_moves, solved_facelets

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module", autouse=True)
def shared_cache(table_cache):
    """Tables in this session's shared tmp cache (built once for all solver tests)."""
    solve_module.forget_tables()
    yield
    solve_module.forget_tables()


def run(*args: str):
    return CliRunner().invoke(main, ["solve", *args])


def test_human_output_shows_moves_that_solve():
    state = random_state(np.random.default_rng(3))
    result = run(state)
    assert result.exit_code == 0, result.output
    line = result.stdout.splitlines()[0]
    moves, count = line.split("  (")
    assert count == f"{len(moves.split())} moves)"
    assert apply_moves(state, moves) == solved_facelets(3)


def test_json_output():
    state = apply_moves(solved_facelets(3), "R U R' U'")
    result = run(state, "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["valid"] is True and data["target_met"] is True and data["timed_out"] is False
    assert data["length"] == len(data["moves"]) <= 20
    assert apply_moves(state, data["solution"]) == solved_facelets(3)


def test_steps_show_a_net_per_move():
    state = apply_moves(solved_facelets(3), "R U")
    result = run(state, "--steps")
    assert result.exit_code == 0
    assert "start" in result.output
    assert "1. " in result.output and "2. " in result.output
    # The last net is the solved cube: its U rows are all U.
    assert result.output.rstrip().splitlines()[-1].split() == ["D", "D", "D"]


def test_solved_cube():
    result = run(solved_facelets(3))
    assert result.exit_code == 0 and "Already solved" in result.output


def test_unsolvable_exits_1_with_diagnosis():
    state = list(solved_facelets(3))
    state[5], state[10] = state[10], state[5]  # flip the UR edge
    result = run("".join(state), "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["valid"] is False and data["problems"][0]["code"] == "edge-flip"


def test_unreadable_exits_2_with_one_line():
    result = run("UUUUUUUUU")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_timeout_flag_in_json():
    state = random_state(np.random.default_rng(4))
    result = run(state, "--max-length", "10", "--timeout", "0.2", "--json")
    assert result.exit_code == 1  # the target was missed: said on stderr, and by the status
    assert "time ran out first" in result.stderr
    data = json.loads(result.stdout)
    assert data["timed_out"] is True and data["target_met"] is False
    assert apply_moves(state, data["solution"]) == solved_facelets(3)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_exits_130_without_traceback():
    state = random_state(np.random.default_rng(5))
    env = dict(os.environ)
    process = subprocess.Popen(
        [sys.executable, "-m", "cubescan", "solve", state, "--max-length", "12"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # A test run started in the background inherits an ignored SIGINT, and Python
        # keeps it ignored: give the child the default, as a terminal would.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(4.0)  # imports, table load and the search under way
    process.send_signal(signal.SIGINT)
    try:
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:  # never leave a search running past the test
            process.kill()
            process.wait()
    assert process.returncode == 130
    assert "Traceback" not in err and "interrupted" in err


def test_the_json_says_what_is_known_of_the_length():
    # Four moves from solved: the direct search proves its answer optimal.
    state = apply_moves(solved_facelets(3), "R U R' U'")
    data = json.loads(run(state, "--json").stdout)
    assert data["length"] == data["lower_bound"] == 4 and data["optimal"] is True
    assert data["stages"] == []  # a 3x3 is solved in one stage


def test_a_5x5_is_solved_and_its_stages_listed(table_cache):
    state = apply_moves(solved_facelets(5), "2R U 3F' Rw2 D 2B L' 3U")
    data = json.loads(run(state, "--json").stdout)
    after = apply_moves(state, data["solution"])
    assert all(len(set(after[25 * f : 25 * f + 25])) == 1 for f in range(6))
    text = run(state)
    assert text.exit_code == 0, text.output
    # The moves wrap over several lines; the stages follow them. The reduction is the
    # same in both runs; the 3x3 stage may not be, as its search runs on two threads and
    # keeps whichever finds a short enough solution first.
    listed = re.findall(r"(\w+): (\d+) moves", text.stdout.splitlines()[-1])
    expected = [(s["name"], str(len(s["solution"].split()))) for s in data["stages"]]
    assert (
        [name for name, _ in listed]
        == [name for name, _ in expected]
        == ["centers", "edges", "3x3"]
    )
    assert listed[:2] == expected[:2]
    assert int(listed[2][1]) <= 20
