"""The first run's preparation: the detector's kernels a helper process compiles."""

from __future__ import annotations

import ast
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from numba.core import sigutils
from numba.core.registry import CPUDispatcher

from cubescan.scanner.cli.preparation import _DETECTOR_KERNELS

CUBE = Path(__file__).resolve().parents[3] / "sample_images" / "cube_3x3"


def test_every_kernel_the_helper_compiles_exists_with_its_signature():
    for module, name, signature in _DETECTOR_KERNELS:
        kernel = getattr(importlib.import_module(f"cubescan.scanner.grid.{module}"), name)
        assert isinstance(kernel, CPUDispatcher), name
        arguments, _ = sigutils.normalize_signature(signature)
        assert len(arguments) == kernel.py_func.__code__.co_argcount, name


@pytest.mark.slow
def test_the_helper_compiles_the_kernels_a_check_compiles_in_that_order(tmp_path):
    # A fresh numba cache: the kernels a check of the sample photos compiles from Python
    # (not those compiled inside another kernel), in the order it compiles them.
    script = (
        "import sys\n"
        "from numba.core import event\n"
        "import cubescan\n"
        "depth, seen = [0], []\n"
        "class Entries(event.Listener):\n"
        "    def on_start(self, ev):\n"
        "        if depth[0] == 0:\n"
        "            f = ev.data['dispatcher'].py_func\n"
        "            seen.append((f.__module__.rsplit('.', 1)[1], f.__name__,"
        " str(ev.data['args'])))\n"
        "        depth[0] += 1\n"
        "    def on_end(self, ev):\n"
        "        depth[0] -= 1\n"
        "event.register('numba:compile', Entries())\n"
        "cubescan.check_images([sys.argv[1]], solve=False)\n"
        "print(repr(seen))\n"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "CUBESCAN_CACHE_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", script, str(CUBE)], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    compiled = ast.literal_eval(done.stdout.strip().splitlines()[-1])
    listed = [
        (module, name, str(sigutils.normalize_signature(signature)[0]))
        for module, name, signature in _DETECTOR_KERNELS
    ]
    assert compiled == listed
