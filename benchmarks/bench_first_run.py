"""Wall time of `cubescan --help`, `check` and `solve`: cold (first run) and warm.

Cold means what a fresh install meets: empty numba and table caches (fresh
``NUMBA_CACHE_DIR`` and ``CUBESCAN_CACHE_DIR`` per run), so every kernel is compiled and
every table built. Warm is the next run on the same caches. Each command runs in its own
process, as a user runs it; medians over ``--repeats`` runs. Beside the whole run, the time
to its first line of output: for ``check``, the verdict, which comes before the solver is
waited for.

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


def timed(python: str, args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Seconds to the first line on stdout and to exit; a failure stops the benchmark."""
    start = time.perf_counter()
    process = subprocess.Popen(
        [python, "-m", "cubescan", *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    process.stdout.readline()
    first = time.perf_counter() - start
    _, stderr = process.communicate()
    elapsed = time.perf_counter() - start
    if process.returncode not in (0, 1):
        sys.exit(f"{python} cubescan {args[0]} failed: {stderr.decode()[-500:]}")
    return first, elapsed


def cold_and_warm(python: str, args: list[str], repeats: int) -> dict[str, float]:
    """Median seconds of one command: cold and warm, to its first line and to its end."""
    runs: dict[str, list[float]] = {"cold first": [], "cold": [], "warm first": [], "warm": []}
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as numba_dir, tempfile.TemporaryDirectory() as ours:
            env = {**os.environ, "NUMBA_CACHE_DIR": numba_dir, "CUBESCAN_CACHE_DIR": ours}
            for kind in ("cold", "warm"):
                first, whole = timed(python, args, env)
                runs[f"{kind} first"].append(first)
                runs[kind].append(whole)
    return {kind: statistics.median(times) for kind, times in runs.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", action="append", help="interpreter of an install to time")
    parser.add_argument("--repeats", type=int, default=3)
    add_record_argument(parser)
    options = parser.parse_args()
    start_recording(options.record)
    pythons = options.python or [sys.executable]
    print(
        f"{os.cpu_count()} cores; median of {options.repeats} runs; seconds, cold / warm, "
        "each as first output line / end"
    )
    for name, args in COMMANDS.items():
        for python in pythons:
            t = cold_and_warm(python, args, options.repeats)
            print(
                f"{name:>7}  cold {t['cold first']:6.2f} / {t['cold']:6.2f}   "
                f"warm {t['warm first']:5.2f} / {t['warm']:5.2f}  ({python})",
                flush=True,
            )


if __name__ == "__main__":
    main()
