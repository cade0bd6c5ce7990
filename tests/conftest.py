"""Shared test fixtures: where the real photos live, and a skip when they are absent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

REALDATA = Path(__file__).resolve().parents[1].parent / "shared" / "realdata"


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
