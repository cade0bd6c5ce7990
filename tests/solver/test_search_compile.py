"""The 3x3 search compiled ahead of its tables (compile_search): the first run's overlap."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from cubescan.solver.search import table_tuple
from cubescan.solver.tables import load_tables


def test_the_stand_in_tables_have_the_tables_types(table_cache):
    from cubescan.solver.search import _KERNEL_TABLES

    tables = table_tuple(load_tables())
    for (name, dtype, ndim), table in zip(_KERNEL_TABLES, tables, strict=True):
        assert (table.dtype, table.ndim) == (np.dtype(dtype), ndim), name
        assert table.flags.c_contiguous and not table.flags.writeable, name


@pytest.mark.slow
def test_a_search_after_compile_search_compiles_nothing(tmp_path, table_cache):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    ahead = "from cubescan.solver.search import compile_search\ncompile_search()\n"
    done = subprocess.run([sys.executable, "-c", ahead], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    search = (
        "from numba.core import event\n"
        "from cubescan.solver.moves import apply_moves, solved_facelets\n"
        "from cubescan.solver.solve import solve\n"
        "compiled = []\n"
        "class Compiles(event.Listener):\n"
        "    def on_start(self, ev):\n"
        "        compiled.append(ev.data['dispatcher'].py_func.__module__)\n"
        "    def on_end(self, ev):\n"
        "        pass\n"
        "event.register('numba:compile', Compiles())\n"
        "solve(apply_moves(solved_facelets(3), \"R U F' L2 D B' R2 U' F D2\"))\n"
        "print(sorted(set(compiled)))\n"
    )
    done = subprocess.run([sys.executable, "-c", search], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert "cubescan.solver.search" not in done.stdout.strip().splitlines()[-1]
