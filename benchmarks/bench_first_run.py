"""Wall time of `cubescan --help`, `check` and `solve`: cold (first run) and warm.

Cold means what a fresh install meets: empty numba and table caches (fresh
``NUMBA_CACHE_DIR`` and ``CUBESCAN_CACHE_DIR`` per run), so every kernel is compiled and
every table built. Warm is the next run on the same caches. Each command runs in its own
process, as a user runs it; medians over ``--repeats`` runs.

Give ``--python`` more than once to time other installs in the same run, e.g. an older
commit's virtualenv as "before":

    python benchmarks/bench_first_run.py --python /path/to/before/.venv/bin/python \\
        --python .venv/bin/python --record
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from record import add_record_argument, start_recording

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = {
    "--help": ["--help"],
    "check": ["check", str(ROOT / "sample_images" / "cube_3x3")],
    "solve": ["solve", (ROOT / "sample_images" / "scrambled_3x3.txt").read_text().strip()],
}


def timed(python: str, args: list[str], env: dict[str, str]) -> float:
    """Seconds one command takes, start to exit; a failure stops the benchmark."""
    start = time.perf_counter()
    done = subprocess.run([python, "-m", "cubescan", *args], env=env, capture_output=True)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.exit(f"{python} cubescan {args[0]} failed: {done.stderr.decode()[-500:]}")
    return elapsed


def cold_and_warm(python: str, args: list[str], repeats: int) -> tuple[float, float]:
    """Median cold and warm seconds of one command."""
    cold, warm = [], []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as numba_dir, tempfile.TemporaryDirectory() as ours:
            env = {**os.environ, "NUMBA_CACHE_DIR": numba_dir, "CUBESCAN_CACHE_DIR": ours}
            cold.append(timed(python, args, env))
            warm.append(timed(python, args, env))
    return statistics.median(cold), statistics.median(warm)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", action="append", help="interpreter of an install to time")
    parser.add_argument("--repeats", type=int, default=3)
    add_record_argument(parser)
    options = parser.parse_args()
    start_recording(options.record)
    pythons = options.python or [sys.executable]
    print(f"{os.cpu_count()} cores; median of {options.repeats} runs; seconds, cold / warm")
    for name, args in COMMANDS.items():
        for python in pythons:
            cold, warm = cold_and_warm(python, args, options.repeats)
            print(f"{name:>7}  {cold:6.2f} / {warm:5.2f}  ({python})", flush=True)


if __name__ == "__main__":
    main()
