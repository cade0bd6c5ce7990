"""Solving big cubes: move counts and times of the reduction solvers, per N.

Usage: python benchmarks/bench_nxn_solver.py [--sizes 4 5 6 7] [--states 200] [--seed 1]
       [--record]

For each N, draws states by applying ``20 * N`` random layer turns (inner slices and wide
turns included; seeded) to the solved cube, solves each with
``cubescan.solver.solve.solve_detailed`` (validation, the reduction, the 3x3 stage and the
proof that the moves solve the cube: the full public call), and prints the mean and max
length in the outer block turn metric (each WCA token counts one), the mean of each
stage, and the median, p95 and max time. It also times the first build of each size's
tables (the 4x4's and 5x5's centre phase tables; every size's three-cycle books) in a
fresh process with an empty cache folder, and gives the table files' size.

The peers are quoted, not run: the competition scrambler's 4x4 solver (Java) averages
44.4 moves in about 250 ms; the best-known NxN solver reduces a 4x4 in about 52 moves
plus about 20 for the 3x3, and solves a 5x5, 6x6 and 7x7 in about 100, 160 and 220 moves
in all, from tables downloaded at install.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from record import add_record_argument, start_recording

from cubescan.solver.cache import CACHE_ENV
from cubescan.solver.moves import apply_moves, layer_moves, solved_facelets
from cubescan.solver.solve import solve_detailed

TABLE_SCRIPT = (
    "import sys, time\n"
    "from cubescan.solver.big.cycles import cycle_books\n"
    "from cubescan.solver.big.center_phases import PHASE_SIZES, center_tables\n"
    "size = int(sys.argv[1])\n"
    "start = time.perf_counter()\n"
    "if size in PHASE_SIZES:\n"
    "    center_tables(size)\n"
    "cycle_books(size)\n"
    "print(time.perf_counter() - start)\n"
)
PEERS = {
    4: "competition scrambler 44.4 moves, ~250 ms (Java); best-known NxN solver ~52 + ~20",
    5: "best-known NxN solver ~100 moves",
    6: "best-known NxN solver ~160 moves",
    7: "best-known NxN solver ~220 moves",
}


def time_table_build(size: int) -> tuple[float, int]:
    """First build of one size's tables in a fresh process and empty cache; file size."""
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, **{CACHE_ENV: folder})
        done = subprocess.run(
            [sys.executable, "-c", TABLE_SCRIPT, str(size)],
            env=env,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise SystemExit(done.stderr)
        files = [*Path(folder).glob("*.npz")]
        return float(done.stdout), sum(p.stat().st_size for p in files)


def run_size(size: int, count: int, seed: int) -> None:
    rng = random.Random(seed)
    moves = layer_moves(size)
    times, lengths, stages = [], [], {}
    for _ in range(count):
        state = apply_moves(solved_facelets(size), [rng.choice(moves) for _ in range(20 * size)])
        start = time.perf_counter()
        result = solve_detailed(state)
        times.append(time.perf_counter() - start)
        lengths.append(result.length)
        for stage in result.stages:
            stages.setdefault(stage.name, []).append(stage.length)
    print(
        f"\n{size}x{size}: {count} states (seed {seed}): length mean {np.mean(lengths):.1f} "
        f"max {max(lengths)}; time median {np.median(times):.2f} s "
        f"p95 {np.percentile(times, 95):.2f} max {max(times):.2f}"
    )
    print("  stages, mean moves: " + ", ".join(f"{k} {np.mean(v):.1f}" for k, v in stages.items()))
    print(f"  peer (quoted): {PEERS[size]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 5, 6, 7])
    parser.add_argument("--states", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    add_record_argument(parser)
    args = parser.parse_args()
    start_recording(args.record)
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start")
    for size in args.sizes:
        build, file_size = time_table_build(size)
        print(
            f"{size}x{size} tables: first build {build:.1f} s (fresh process), "
            f"{file_size / 1e6:.1f} MB"
        )
    for size in args.sizes:
        solve_detailed(apply_moves(solved_facelets(size), "Rw U"))  # load tables, compile
        run_size(size, args.states, args.seed)


if __name__ == "__main__":
    main()
