"""Our 3x3 solver against the `kociemba` package, side by side in one run.

Usage: python benchmarks/bench_solver.py [--states 1000] [--seeds 2024 7] [--max-length 20]
       [--match-peer] [--table-repeats 3] [--record]

Draws uniformly random solvable 3x3 states (seeded), solves each with
``cubescan.solver.solve.solve`` (validation, search, proof by re-applying the moves: the full
public call) and with ``kociemba.solve`` (C via cffi; install the ``bench`` extra:
``pip install kociemba``) on the same states, and prints per solver and seed: median /
p95 / p99 / max time, mean and max length, and the ratios ours/kociemba of the median,
p95 and p99. It also measures the table build (into a fresh temporary cache folder) and
the table load from the cache, each as a median over a few runs in fresh processes, the
size of the table file, and the first search after start-up (numba loading its on-disk
compiled code). ``--record`` writes what it prints into docs/accuracy.md.

``--match-peer`` asks of our solver, per state, no more moves than the `kociemba` package's
solution of that state has, and never more than ``--max-length`` unless the peer's is longer:
the two solvers then meet the same length bar, state by state.
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

import numpy as np
from record import add_record_argument, start_recording

from cubescan.solver.cache import CACHE_ENV
from cubescan.solver.cubie import random_state
from cubescan.solver.moves import apply_moves, parse_moves, solved_facelets
from cubescan.solver.solve import solve

PERCENTILES = (50, 95, 99)


def summary(name: str, times: list[float], lengths: list[int]) -> str:
    ms = np.array(times) * 1000
    return (
        f"{name:10s} median {np.median(ms):8.1f} ms  p95 {np.percentile(ms, 95):8.1f}  "
        f"p99 {np.percentile(ms, 99):8.1f}  max {ms.max():8.1f}  "
        f"length mean {np.mean(lengths):5.2f} max {max(lengths)}"
    )


def time_tables(repeats: int) -> tuple[float, float, int]:
    """Median first-use build and cached load times, each in a fresh process; file size."""
    script = (
        "import time\n"
        "from cubescan.solver.tables import load_tables\n"
        "start = time.perf_counter()\n"
        "load_tables(progress=False)\n"
        "print(time.perf_counter() - start)\n"
    )
    builds, loads, size = [], [], 0
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as folder:
            env = dict(os.environ, **{CACHE_ENV: folder})
            for times in (builds, loads):
                out = subprocess.run(
                    [sys.executable, "-c", script], env=env, capture_output=True, text=True
                )
                times.append(float(out.stdout))
            size = sum(p.stat().st_size for p in Path(folder).glob("*.npz"))
    return statistics.median(builds), statistics.median(loads), size


def run_seed(seed: int, count: int, max_length: int, kociemba, match_peer: bool) -> None:
    rng = np.random.default_rng(seed)
    states = [random_state(rng) for _ in range(count)]
    ours_t, ours_n, theirs_t, theirs_n, targets = [], [], [], [], []
    for state in states:
        target = max_length
        if kociemba is not None:
            start = time.perf_counter()
            answer = kociemba.solve(state)
            theirs_t.append(time.perf_counter() - start)
            theirs_moves = parse_moves(answer)
            if apply_moves(state, theirs_moves) != solved_facelets(3):
                raise SystemExit(f"kociemba returned a wrong solution for {state}")
            theirs_n.append(len(theirs_moves))
            if match_peer:
                target = max(max_length, len(theirs_moves))
        targets.append(target)
        start = time.perf_counter()
        moves = solve(state, max_length=target)
        ours_t.append(time.perf_counter() - start)
        ours_n.append(len(moves))

    bar = "the peer's length (at least max_length)" if match_peer else "max_length"
    print(f"\n{count} random states, seed {seed}, our target {bar}, max_length {max_length}")
    print(summary("ours", ours_t, ours_n))
    over = sum(n > t for n, t in zip(ours_n, targets, strict=True))
    print(f"{'':10s} solutions longer than their target: {over}")
    if kociemba is not None:
        longer = sum(a > b for a, b in zip(ours_n, theirs_n, strict=True))
        print(f"{'':10s} solutions longer than the peer's: {longer}")
    if kociemba is not None:
        print(summary("kociemba", theirs_t, theirs_n))
        ratios = [np.percentile(ours_t, q) / np.percentile(theirs_t, q) for q in PERCENTILES]
        print(
            "time ratio ours/kociemba: "
            + "  ".join(
                f"{'median' if q == 50 else f'p{q}'} {r:.2f}"
                for q, r in zip(PERCENTILES, ratios, strict=True)
            )
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=1000)
    parser.add_argument("--seeds", type=int, nargs="+", default=[2024])
    parser.add_argument("--max-length", type=int, default=20)
    parser.add_argument("--match-peer", action="store_true", help="our target: the peer's length")
    parser.add_argument("--table-repeats", type=int, default=3)
    add_record_argument(parser)
    args = parser.parse_args()
    start_recording(args.record, "bench_solver match-peer" if args.match_peer else None)

    try:
        import kociemba
    except ImportError:
        kociemba = None
        print("kociemba is not installed (pip install kociemba): only our solver runs")

    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start")
    build, load, size = time_tables(args.table_repeats)
    print(
        f"tables (fresh process, after imports): first-use build {build:.2f} s, "
        f"load from cache {load * 1000:.0f} ms (medians of {args.table_repeats}), "
        f"file {size / 1e6:.1f} MB"
    )

    start = time.perf_counter()
    solve(apply_moves(solved_facelets(3), "R U F D2 L' B"))
    print(
        "first solve in this process (table load + numba compiled-code load): "
        f"{time.perf_counter() - start:.2f} s"
    )
    for seed in args.seeds:
        run_seed(seed, args.states, args.max_length, kociemba, args.match_peer)
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
