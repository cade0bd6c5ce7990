"""Validations per second for every N, and optimal 2x2 solves per second (one core).

Usage: python benchmarks/bench_nxn.py [--states 300] [--repeats 5]

States are scrambled with random legal moves, inner slices included. Also prints the
2x2 distance table's build and load times.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from record import add_record_argument, start_recording

from cubescan.solver.cache import cache_path, read_arrays
from cubescan.solver.cubie import random_state
from cubescan.solver.moves import apply_moves, layer_moves, solved_facelets
from cubescan.solver.pocket import TABLE_VERSION, pocket_tables, solve_pocket
from cubescan.solver.validate import validate


def median_rate(items: list, work, repeats: int) -> float:
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        for item in items:
            work(item)
        rates.append(len(items) / (time.perf_counter() - start))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    add_record_argument(parser)
    args = parser.parse_args()
    start_recording(args.record)
    rng = np.random.default_rng(0)
    print(f"validations per second (median of {args.repeats}, one core):")
    for size in range(2, 8):
        moves = layer_moves(size)
        states = [
            apply_moves(
                solved_facelets(size), [moves[i] for i in rng.integers(len(moves), size=60)]
            )
            for _ in range(args.states)
        ]
        print(f"  {size}x{size}  {median_rate(states, validate, args.repeats):>10,.0f}")

    path = cache_path("pocket-distances", TABLE_VERSION)
    if read_arrays(path) is None:
        start = time.perf_counter()
        pocket_tables()
        print(f"2x2 distance table: built in {time.perf_counter() - start:.2f} s")
    loads = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        read_arrays(path)
        loads.append(time.perf_counter() - start)
    print(f"2x2 distance table: loaded in {statistics.median(loads) * 1000:.1f} ms (median)")
    pocket_tables()
    states = [random_state(rng, size=2) for _ in range(args.states)]
    lengths = [len(solve_pocket(s)) for s in states]
    rate = median_rate(states, solve_pocket, args.repeats)
    print(
        f"2x2 optimal solves per second: {rate:,.0f} "
        f"(mean length {np.mean(lengths):.2f}, max {max(lengths)} moves)"
    )


if __name__ == "__main__":
    main()
