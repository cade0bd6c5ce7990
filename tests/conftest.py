"""Shared test fixtures: where the real photos live, and a skip when they are absent."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

REALDATA = Path(__file__).resolve().parents[1].parent / "shared" / "realdata"
WARM_UP_ENV = "CUBESCAN_TEST_WARM_UP"
WARM_UP_PARTS = ("detector", "solver")
_WARM_UP_KEY = pytest.StashKey[tuple[list, list[str]]]()


def pytest_sessionstart(session: pytest.Session) -> None:
    """In an xdist controller: prepare the kernels and tables once, before the workers.

    Runs before xdist starts its workers (its hook is ``trylast``), so they inherit the
    cache folder and the warm-up folder through the environment.
    """
    from cubescan.solver.cache import CACHE_ENV

    workers = session.config.getoption("numprocesses", None)
    if os.environ.get("PYTEST_XDIST_WORKER") or not workers:
        return
    made = []
    if CACHE_ENV not in os.environ:
        os.environ[CACHE_ENV] = tempfile.mkdtemp(prefix="cubescan-test-cache-")
        made.append(os.environ[CACHE_ENV])
    done = tempfile.mkdtemp(prefix="cubescan-test-warm-up-")
    made.append(done)
    os.environ[WARM_UP_ENV] = done
    processes = [
        subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("warm_up.py")), part, done],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for part in WARM_UP_PARTS
    ]
    session.config.stash[_WARM_UP_KEY] = (processes, made)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Stop a warm-up still running and remove the folders the controller made."""
    processes, made = session.config.stash.get(_WARM_UP_KEY, ([], []))
    for process in processes:
        process.kill()
        process.wait()
    for folder in made:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session", autouse=True)
def _detector_warmed_up() -> None:
    """Wait (in a worker) until the controller's warm-up compiled the detector's kernels.

    The solver needs no wait here: its table cache's lock already makes a worker wait
    for the build in progress.
    """
    done = os.environ.get(WARM_UP_ENV)
    if done is None:
        return
    deadline = time.monotonic() + 300
    while not (Path(done) / "detector.done").exists() and time.monotonic() < deadline:
        time.sleep(0.2)


def _load_jsonl(name: str) -> list[dict]:
    with open(REALDATA / name, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@pytest.fixture(scope="session")
def realdata() -> Path:
    """Path of ../shared/realdata; skips the test when that folder is not beside the repo."""
    if not (REALDATA / "faces.jsonl").is_file():
        pytest.skip(f"real photos not available: {REALDATA} is missing (see DESIGN.md)")
    return REALDATA


@pytest.fixture(scope="session")
def real_faces(realdata: Path) -> list[dict]:
    """The records of realdata/faces.jsonl (one single-face photo each)."""
    return _load_jsonl("faces.jsonl")


@pytest.fixture(scope="session")
def real_cubes(realdata: Path) -> list[dict]:
    """The records of realdata/cubes.jsonl (one six-face set each)."""
    return _load_jsonl("cubes.jsonl")


@pytest.fixture(scope="session")
def table_cache(tmp_path_factory: pytest.TempPathFactory):
    """One cache folder for solver tables for the whole test session (built once).

    Under pytest-xdist the workers share one folder beside their own temporary folders
    (the cache's lock makes one build while the others wait), so the tables are built
    once per run, not once per worker.
    """
    import os

    from cubescan.solver.cache import CACHE_ENV

    previous = os.environ.get(CACHE_ENV)
    if previous is None:
        if os.environ.get("PYTEST_XDIST_WORKER"):
            folder = tmp_path_factory.getbasetemp().parent / "cubescan-cache"
            folder.mkdir(exist_ok=True)
        else:
            folder = tmp_path_factory.mktemp("cubescan-cache")
        os.environ[CACHE_ENV] = str(folder)
    yield os.environ[CACHE_ENV]
    if previous is None:
        os.environ.pop(CACHE_ENV, None)
