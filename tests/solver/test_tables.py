"""Pruning tables: exact distances, cached atomically, checksummed, safe to share."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cubescan.solver import coords, tables
from cubescan.solver.cache import CACHE_ENV, read_arrays, save_arrays

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = frozenset(tables.TABLE_NAMES)


@pytest.fixture(scope="module")
def built(table_cache):
    """Tables in this session's shared tmp cache (built once for all solver tests)."""
    return tables.load_tables(progress=False)


def test_corner_twist_distance_distribution():
    # Corner orientation alone: the known distance distribution in face turns.
    table = tables.pruning_table(coords.twist_move_table(), np.zeros((1, 18), dtype=np.int32))
    assert np.bincount(table).tolist() == [1, 4, 34, 186, 816, 1018, 128]


PRUNING = {
    "prune_corners": ("move_corners", None, tuple(range(18))),
    "prune_corners_slice_perm": ("move_corners", "move_slice_perm", coords.PHASE2_MOVES),
    "prune_ud_edges_slice_perm": ("move_ud_edges", "move_slice_perm", coords.PHASE2_MOVES),
}


@pytest.mark.parametrize("name", sorted(PRUNING))
def test_pruning_tables_are_exact_distances(built, name):
    # Exact BFS distances: 0 only at the goal, every state reached, and each move
    # changes the distance by at most one with some move lowering it.
    move_a_name, move_b_name, moves = PRUNING[name]
    move_a, table = built[move_a_name], built[name]
    move_b = built[move_b_name] if move_b_name else np.zeros((1, 18), dtype=np.int32)
    assert table.shape == (len(move_a) * len(move_b),)
    assert table[0] == 0 and np.count_nonzero(table == 0) == 1
    assert table.min() >= 0
    index = np.arange(len(table))
    a, b = np.divmod(index, len(move_b))
    lowest = np.full(len(table), 127, dtype=np.int16)
    for m in moves:
        nxt = move_a[a, m].astype(np.int64) * len(move_b) + move_b[b, m]
        assert (np.abs(table[nxt].astype(np.int16) - table) <= 1).all()
        lowest = np.minimum(lowest, table[nxt])
    assert (lowest[1:] == table[1:] - 1).all()


def test_cache_file_is_versioned_and_reloads(built):
    path = tables.table_path()
    assert path.is_file() and f"v{tables.TABLE_VERSION}" in path.name
    again = tables.load_tables(progress=False)
    assert sorted(again) == sorted(built)
    assert all(np.array_equal(again[k], built[k]) for k in built)
    assert not list(path.parent.glob("*.tmp"))


# The cache mechanics are tested on small arrays in test_cache.py; these two rebuild the
# real tables (seconds each), so they run in the slow suite.
@pytest.mark.slow
def test_corrupt_cache_is_detected_and_rebuilt(tmp_path, monkeypatch, built):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    save_arrays(dict(built), tables.table_path())
    path = tables.table_path()
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 64] = bytes(64)  # inside an array: the zip stays readable
    path.write_bytes(bytes(data))
    assert read_arrays(path, EXPECTED) is None
    rebuilt = tables.load_tables(progress=False)
    assert all(np.array_equal(rebuilt[k], built[k]) for k in built)
    assert read_arrays(path, EXPECTED) is not None


def test_a_file_with_other_arrays_is_a_miss(tmp_path, built):
    path = tmp_path / "t.npz"
    save_arrays({"a": np.arange(10)}, path)
    assert read_arrays(path) is not None
    assert read_arrays(path, EXPECTED) is None


@pytest.mark.slow
def test_concurrent_first_use_by_two_processes(tmp_path, built):
    script = (
        "import hashlib, sys\n"
        "from cubescan.solver.tables import load_tables, table_path\n"
        "t = load_tables(progress=False)\n"
        "h = hashlib.sha256()\n"
        "[h.update(t[k].tobytes()) for k in sorted(t)]\n"
        "print(h.hexdigest())\n"
    )
    env = dict(os.environ, **{CACHE_ENV: str(tmp_path)})
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", script],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    results = [w.communicate(timeout=300) for w in workers]
    assert [w.returncode for w in workers] == [0, 0], [err for _, err in results]
    digests = {out.strip() for out, _ in results}
    assert len(digests) == 1
    assert all(err == "" for _, err in results)  # not a terminal: nothing printed
    path = tmp_path / tables.table_path().name
    assert read_arrays(path, EXPECTED) is not None
    assert not list(tmp_path.glob("*.tmp"))
