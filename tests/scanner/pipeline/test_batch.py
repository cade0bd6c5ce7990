"""The batch runner: every cube reported once, broken folders as error rows, resumable."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from batch_fakes import row_from_folder

from cubescan.errors import BadInputError
from cubescan.scanner.pipeline.batch import find_cubes, read_rows, run_batch
from cubescan.solver.moves import apply_moves, solved_facelets

ROOT = Path(__file__).resolve().parents[3]


def make_root(tmp_path: Path, good: int, broken: int = 0) -> Path:
    root = tmp_path / "cubes"
    for i in range(good):
        folder = root / f"cube{i:03d}"
        folder.mkdir(parents=True)
        state = apply_moves(solved_facelets(3), " ".join(["R U"] * (i % 3)))
        row = {"size": 3, "facelets": state, "valid": True, "problems": [], "solution": "U' R'"}
        (folder / "cube.json").write_text(json.dumps(row))
    for i in range(broken):
        folder = root / f"broken{i}"
        folder.mkdir(parents=True)
        if i % 2:
            (folder / "cube.json").write_text("{not json")
    return root


@pytest.mark.parametrize("jobs", [1, 2])
def test_every_cube_is_reported_and_broken_ones_are_error_rows(tmp_path, jobs):
    root = make_root(tmp_path, good=6, broken=2)
    out = tmp_path / "out"
    summary = run_batch(root, out, row_from_folder, jobs=jobs, show_progress=False)
    assert (summary.checked, summary.errors, summary.interrupted) == (8, 2, False)
    rows = read_rows(out / "report.jsonl")
    assert sorted(r["cube"] for r in rows) == sorted(p.name for p in find_cubes(root))
    errors = {r["cube"]: r for r in rows if r["status"] == "error"}
    assert set(errors) == {"broken0", "broken1"}
    assert "no cube.json" in errors["broken0"]["error"]
    with open(out / "report.csv", newline="") as handle:
        assert len(list(csv.DictReader(handle))) == 8
    page = (out / "report.html").read_text()
    assert page.count("<svg") == 6 and "broken1" in page


def test_resume_skips_finished_cubes_and_drops_a_cut_off_line(tmp_path):
    root = make_root(tmp_path, good=5)
    out = tmp_path / "out"
    out.mkdir()
    first = {"cube": "cube000", "status": "ok", "size": 3, "facelets": solved_facelets(3)}
    (out / "report.jsonl").write_text(json.dumps(first) + "\n" + '{"cube": "cube001", "sta')
    summary = run_batch(root, out, row_from_folder, resume=True, show_progress=False)
    assert (summary.checked, summary.skipped) == (4, 1)
    names = [r["cube"] for r in read_rows(out / "report.jsonl")]
    assert sorted(names) == [f"cube{i:03d}" for i in range(5)]


# A child batch run's first lines. It restores Python's Ctrl-C handler: started from a
# shell's background job, it would inherit SIGINT ignored, and could never be interrupted.
CHILD_PREAMBLE = (
    "import signal, sys; from pathlib import Path; sys.path.insert(0, 'tests')\n"
    "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
    "from batch_fakes import slow_row_from_folder\n"
    "from cubescan.scanner.pipeline.batch import run_batch\n"
)


def test_a_killed_run_resumes_with_every_cube_exactly_once(tmp_path):
    root = make_root(tmp_path, good=12, broken=2)
    out = tmp_path / "out"
    script = CHILD_PREAMBLE + (
        f"run_batch(Path({str(root)!r}), Path({str(out)!r}), slow_row_from_folder, jobs=2,"
        " show_progress=False)\n"
    )
    # Its own process group, killed as a whole: the batch and its workers die together.
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, start_new_session=True)
    deadline = time.time() + 30
    while time.time() < deadline and len(read_rows(out / "report.jsonl")) < 3:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    finished = len(read_rows(out / "report.jsonl"))
    assert 3 <= finished < 14
    summary = run_batch(root, out, row_from_folder, resume=True, show_progress=False)
    names = [r["cube"] for r in read_rows(out / "report.jsonl")]
    assert len(names) == len(set(names)) == 14
    assert summary.skipped == finished


def test_ctrl_c_leaves_consistent_reports(tmp_path):
    root = make_root(tmp_path, good=40)
    out = tmp_path / "out"
    script = CHILD_PREAMBLE + (
        f"s = run_batch(Path({str(root)!r}), Path({str(out)!r}), slow_row_from_folder, jobs=2,"
        " show_progress=False)\n"
        "print(s.checked, s.interrupted)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.time() + 30
    while time.time() < deadline and len(read_rows(out / "report.jsonl")) < 2:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=30)
    assert "Traceback" not in stderr, stderr
    checked, interrupted = stdout.split()
    assert interrupted == "True" and 2 <= int(checked) < 40
    rows = read_rows(out / "report.jsonl")
    with open(out / "report.csv", newline="") as handle:
        assert len(list(csv.DictReader(handle))) == len(rows) == int(checked)
    assert (out / "report.html").is_file()


def test_an_interrupt_just_after_a_row_is_written_keeps_the_reports_level(tmp_path, monkeypatch):
    # Ctrl-C lands after the second row reached report.jsonl and before anything else
    # happened: the CSV and the count must still include that row (CI caught it once).
    root = make_root(tmp_path, good=5)
    out = tmp_path / "out"
    synced = []

    def fsync_then_interrupt(descriptor: int) -> None:
        synced.append(descriptor)
        if len(synced) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", fsync_then_interrupt)
    summary = run_batch(root, out, row_from_folder, show_progress=False)
    rows = read_rows(out / "report.jsonl")
    with open(out / "report.csv", newline="") as handle:
        assert len(list(csv.DictReader(handle))) == len(rows) == summary.checked == 2
    assert summary.interrupted


def test_a_root_that_is_not_a_folder_of_cubes(tmp_path):
    with pytest.raises(BadInputError, match="not a folder"):
        find_cubes(tmp_path / "missing")
    with pytest.raises(BadInputError, match="no sub-folders"):
        find_cubes(tmp_path)
