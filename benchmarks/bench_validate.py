"""Validations per second for 3x3 states (one core, single state in a loop).

Usage: python benchmarks/bench_validate.py [--states 2000] [--repeats 7]

Prints the median over repeats for: solvable random states (the fast path every
scanned cube takes), random reassemblies (11 of 12 unsolvable: full diagnosis), and
single-sticker faults (diagnosis plus the search for the sticker to re-stick).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from cubescan.solver import cubie_to_facelets, random_reassembly, random_state, validate


def per_second(states: list[str], repeats: int) -> float:
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        for state in states:
            validate(state)
        rates.append(len(states) / (time.perf_counter() - start))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    solvable = [random_state(rng) for _ in range(args.states)]
    colors = [s.translate(str.maketrans("URFDLB", "WRGYOB")) for s in solvable]
    reassembled = [cubie_to_facelets(random_reassembly(rng)) for _ in range(args.states)]
    faulty = []
    for state in solvable[: args.states // 4]:
        index = int(rng.choice([i for i in range(54) if i % 9 != 4]))
        new = "URFDLB"[("URFDLB".index(state[index]) + 1) % 6]
        faulty.append(state[:index] + new + state[index + 1 :])
    print(f"validations per second (median of {args.repeats}, one core):")
    print(f"  solvable states, face letters   {per_second(solvable, args.repeats):>10,.0f}")
    print(f"  solvable states, colour letters {per_second(colors, args.repeats):>10,.0f}")
    print(f"  random reassemblies (diagnosed) {per_second(reassembled, args.repeats):>10,.0f}")
    print(f"  one wrong sticker (found)       {per_second(faulty, args.repeats):>10,.0f}")


if __name__ == "__main__":
    main()
