"""The on-disk array cache: atomic, checksummed, safe under concurrent first use."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from cubescan.solver.cache import (
    CACHE_ENV,
    CacheUnusableWarning,
    cache_path,
    load_or_build,
    read_arrays,
    save_arrays,
)


def test_round_trip_and_read_only(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    calls = []

    def build():
        calls.append(1)
        return {"a": np.arange(5, dtype=np.int8)}

    first = load_or_build("t", 1, build)
    second = load_or_build("t", 1, build)
    assert calls == [1]
    assert second["a"].tolist() == [0, 1, 2, 3, 4]
    assert not first["a"].flags.writeable


def test_corrupt_file_is_detected_and_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    load_or_build("t", 1, lambda: {"a": np.arange(1000)})
    path = cache_path("t", 1)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    assert read_arrays(path) is None
    rebuilt = load_or_build("t", 1, lambda: {"a": np.arange(1000)})
    assert rebuilt["a"].sum() == 499500
    assert read_arrays(path) is not None


def test_truncated_and_foreign_files_are_misses(tmp_path):
    path = tmp_path / "x.npz"
    save_arrays({"a": np.ones(10)}, path)
    path.write_bytes(path.read_bytes()[:50])
    assert read_arrays(path) is None
    path.write_text("not a table")
    assert read_arrays(path) is None


def test_two_processes_building_at_once_build_once(tmp_path):
    script = textwrap.dedent(
        f"""
        import os, time
        import numpy as np
        os.environ["{CACHE_ENV}"] = {str(tmp_path)!r}
        from cubescan.solver.cache import load_or_build

        def build():
            with open(os.path.join({str(tmp_path)!r}, "builds.log"), "a") as log:
                log.write("built\\n")
            time.sleep(1.0)
            return {{"a": np.arange(10)}}

        print(int(load_or_build("shared", 1, build)["a"].sum()))
        """
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outputs = [p.communicate(timeout=60)[0].strip() for p in procs]
    assert outputs == ["45", "45"]
    assert (tmp_path / "builds.log").read_text().count("built") == 1


def test_a_file_where_the_cache_folder_should_be_falls_back_to_memory(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file the user put here")
    monkeypatch.setenv(CACHE_ENV, str(blocker))
    with pytest.warns(CacheUnusableWarning, match="cannot be used") as caught:
        arrays = load_or_build("t", 1, lambda: {"a": np.arange(4)})
    assert arrays["a"].tolist() == [0, 1, 2, 3] and not arrays["a"].flags.writeable
    assert len(caught) == 1 and CACHE_ENV in str(caught[0].message)
    assert blocker.read_text() == "a file the user put here"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_cache_folder_falls_back_to_memory(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    folder.mkdir()
    folder.chmod(0o500)
    monkeypatch.setenv(CACHE_ENV, str(folder))
    try:
        with pytest.warns(CacheUnusableWarning):
            arrays = load_or_build("t", 1, lambda: {"a": np.arange(3)})
    finally:
        folder.chmod(0o700)
    assert arrays["a"].tolist() == [0, 1, 2] and list(folder.iterdir()) == []
