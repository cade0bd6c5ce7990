"""Cubes per second for `cubescan batch` on 1080p photos, with --jobs 1 and --jobs 2.

Usage: python benchmarks/bench_batch.py [--cubes 8] [--repeats 3]

Builds a batch root of copies of the real 1920x1080 tracker 3x3 set (from
../shared/realdata; the photos are not copied into the project) and times whole runs,
reports included; medians over repeats.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from scanner.batch import run_batch
from scanner.check import check_folder

REALDATA = Path(__file__).resolve().parents[2] / "shared" / "realdata"
CUBE = REALDATA / "dwalton76+rubiks-cube-tracker" / "3x3x3-random-01"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cubes", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if not CUBE.is_dir():
        raise SystemExit(f"needs the real photos at {CUBE}")
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "root"
        for i in range(args.cubes):
            shutil.copytree(CUBE, root / f"cube{i:03d}")
        check_folder(root / "cube000", Path(folder) / "warm")  # tables and caches in place
        for jobs in (1, 2):
            rates = []
            for repeat in range(args.repeats):
                out = Path(folder) / f"out{jobs}-{repeat}"
                start = time.perf_counter()
                summary = run_batch(root, out, check_folder, jobs=jobs, show_progress=False)
                rates.append(summary.checked / (time.perf_counter() - start))
            rate = statistics.median(rates)
            cubes = f"median of {args.repeats}, {args.cubes} cubes"
            print(f"--jobs {jobs}: {rate:.2f} cubes/s ({cubes})")


if __name__ == "__main__":
    main()
