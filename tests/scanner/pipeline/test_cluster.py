"""Batch on a Dask cluster: a LocalCluster of two worker processes gives the same reports,
resume and interruption as ``--jobs``; a bad address or a silent scheduler is one clear line."""

from __future__ import annotations

import csv
import json
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import batch_fakes
import cloudpickle
import pytest
from batch_fakes import row_from_folder
from click.testing import CliRunner
from test_batch import CHILD_PREAMBLE, make_root

import cubescan.scanner.pipeline.cluster as cluster_module
from cubescan.errors import BadInputError
from cubescan.scanner.cli import main
from cubescan.scanner.pipeline.batch import find_cubes, read_rows, run_batch
from cubescan.scanner.pipeline.cluster import parse_cluster

ROOT = Path(__file__).resolve().parents[3]

# The workers are fresh interpreters without the tests folder on their path: send the
# stand-in checks by value.
cloudpickle.register_pickle_by_value(batch_fakes)


def test_a_local_cluster_reports_every_cube_once_and_resumes(tmp_path):
    root = make_root(tmp_path, good=6, broken=2)
    out = tmp_path / "out"
    summary = run_batch(root, out, row_from_folder, show_progress=False, cluster="local:2")
    assert (summary.checked, summary.errors, summary.interrupted) == (8, 2, False)
    rows = read_rows(out / "report.jsonl")
    assert sorted(r["cube"] for r in rows) == sorted(p.name for p in find_cubes(root))
    assert {r["cube"] for r in rows if r["status"] == "error"} == {"broken0", "broken1"}
    with open(out / "report.csv", newline="") as handle:
        assert len(list(csv.DictReader(handle))) == 8
    again = run_batch(
        root, out, row_from_folder, resume=True, show_progress=False, cluster="local:2"
    )
    assert (again.checked, again.skipped) == (0, 8)
    assert len(read_rows(out / "report.jsonl")) == 8


def test_ctrl_c_on_a_cluster_run_leaves_consistent_reports(tmp_path):
    root = make_root(tmp_path, good=40)
    out = tmp_path / "out"
    script = CHILD_PREAMBLE + (
        "import cloudpickle, batch_fakes; cloudpickle.register_pickle_by_value(batch_fakes)\n"
        f"s = run_batch(Path({str(root)!r}), Path({str(out)!r}), slow_row_from_folder,"
        " show_progress=False, cluster='local:2')\n"
        "print(s.checked, s.interrupted)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.time() + 60
    while time.time() < deadline and len(read_rows(out / "report.jsonl")) < 2:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert "Traceback" not in stderr, stderr
    checked, interrupted = stdout.split()
    assert interrupted == "True" and 2 <= int(checked) < 40
    rows = read_rows(out / "report.jsonl")
    with open(out / "report.csv", newline="") as handle:
        assert len(list(csv.DictReader(handle))) == len(rows) == int(checked)


def test_a_scheduler_that_does_not_answer_is_one_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(cluster_module, "CONNECT_TIMEOUT", "1s")
    root = make_root(tmp_path, good=1)
    with pytest.raises(
        BadInputError, match=re.escape("no Dask scheduler answers at tcp://127.0.0.1:9")
    ):
        run_batch(
            root,
            tmp_path / "out",
            row_from_folder,
            show_progress=False,
            cluster="tcp://127.0.0.1:9",
        )


@pytest.mark.parametrize("address", ["local:0", "localhost:8786", "4"])
def test_a_bad_cluster_address_is_refused(address):
    with pytest.raises(BadInputError, match="--cluster"):
        parse_cluster(address)


def test_the_command_line_checks_real_photos_on_a_local_cluster(tmp_path, table_cache):
    for name in ("desk", "shelf"):
        shutil.copytree(ROOT / "sample_images" / "cube_3x3", tmp_path / name)
    result = CliRunner().invoke(main, ["batch", str(tmp_path), "--cluster", "local:2"])
    assert result.exit_code == 0, result.stderr
    rows = [
        json.loads(line)
        for line in (tmp_path / "cubescan-report" / "report.jsonl").read_text().splitlines()
    ]
    truth = json.loads((ROOT / "sample_images" / "cube_3x3" / "truth.json").read_text())
    assert sorted(r["cube"] for r in rows) == ["desk", "shelf"]
    assert all(r["facelets"] == truth["facelets"] for r in rows)
    both = CliRunner().invoke(main, ["batch", str(tmp_path), "--cluster", "local:2", "--jobs", "2"])
    assert both.exit_code == 2 and "not both" in both.stderr
