"""Validations per second for 3x3 and tesseract states (one core, single state in a loop).

Usage: python benchmarks/bench_validate.py [--states 2000] [--repeats 7] [--record]

Prints the median over repeats for: solvable random states (the fast path every
scanned cube takes), random reassemblies (11 of 12 unsolvable: full diagnosis), and
single-sticker faults (diagnosis plus the search for the sticker to re-stick). Then the
same for the 2x2x2x2 and 3x3x3x3 (``validate_tesseract``, laws only, no group
computation): solvable states after 60 random twists (in cell and in colour letters),
random reassemblies (every piece in a random slot, turned at random; 5 of 6 or 47 of 48
unsolvable), and one sticker of the wrong colour (diagnosis plus the re-sticking search).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from record import add_record_argument, start_recording

from cubescan.solver import cubie_to_facelets, random_reassembly, random_state, validate
from cubescan.solver.puzzles import puzzle
from cubescan.solver.puzzles.definition import all_twists
from cubescan.solver.puzzles.moves import apply_twists
from cubescan.solver.puzzles.tesseract import validate_tesseract


def per_second(states: list[str], repeats: int, check=validate) -> float:
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        for state in states:
            check(state)
        rates.append(len(states) / (time.perf_counter() - start))
    return statistics.median(rates)


def tesseract_twisted(name: str, rng: np.random.Generator, length: int = 60) -> str:
    names = list(all_twists(name))
    picks = rng.integers(len(names), size=length)
    return apply_twists(
        name, [(names[i], int(t)) for i, t in zip(picks, rng.integers(1, 4, length), strict=True)]
    )


def tesseract_reassembly(name: str, rng: np.random.Generator) -> str:
    """Every piece in a random slot of its orbit, turned by a random rotation of it."""
    p = puzzle(name)
    solved = p.solved()
    letters = list(solved)
    for orbit in p.orbits:
        slots = list(orbit.pieces)
        if orbit.kind == "center":
            continue
        for slot, piece in zip(slots, rng.permutation(slots), strict=True):
            turn = orbit.orientations[int(rng.integers(len(orbit.orientations)))]
            for k, sticker in enumerate(p.pieces[int(piece)].stickers):
                letters[p.pieces[slot].stickers[turn[k]]] = solved[sticker]
    return "".join(letters)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=7)
    add_record_argument(parser)
    args = parser.parse_args()
    start_recording(args.record)
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
    for name in ("2x2x2x2", "3x3x3x3"):
        count = args.states // 4
        legal = [tesseract_twisted(name, rng) for _ in range(count)]
        random = [tesseract_reassembly(name, rng) for _ in range(count)]
        solvable = sum(validate_tesseract(s).valid for s in random)
        print(f"{name} (validate_tesseract, {count} states each):")
        rate = per_second(legal, args.repeats, validate_tesseract)
        print(f"  solvable states, cell letters   {rate:>10,.0f}")
        painted = [s.translate(str.maketrans("OIRLUDFB", "wyrobgpk")) for s in legal]
        rate = per_second(painted, args.repeats, validate_tesseract)
        print(f"  solvable states, colour letters {rate:>10,.0f}")
        rate = per_second(random, args.repeats, validate_tesseract)
        print(
            f"  random reassemblies (diagnosed) {rate:>10,.0f}   ({solvable} of {count} solvable)"
        )
        faulty = []
        for state in legal:
            # One non-centre sticker of the wrong colour (centres are X14 on the 3x3x3x3).
            stickers = [i for i in range(len(state)) if name[0] == "2" or i % 27 != 13]
            index = int(rng.choice(stickers))
            new = "OIRLUDFB"[("OIRLUDFB".index(state[index]) + 1) % 8]
            faulty.append(state[:index] + new + state[index + 1 :])
        found = sum(validate_tesseract(s).fix[0].action == "restick" for s in faulty)
        rate = per_second(faulty, args.repeats, validate_tesseract)
        print(f"  one wrong sticker (found)       {rate:>10,.0f}   ({found} of {count} re-stuck)")


if __name__ == "__main__":
    main()
