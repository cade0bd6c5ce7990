"""Speed of whole-cube colour classification: median milliseconds per cube.

Usage: python benchmarks/bench_classify.py [--cubes 200] [--repeat 5] [--sizes 3 5] [--seed 0]

Renders cubes with the sticker noise model (scanner.colorsim, mixed light) once, then times
``scanner.colors.classify`` on each, ``--repeat`` times, and prints the median (and p90) per
size. The target is <= 5 ms per 3x3 cube.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from scanner.colors import classify
from scanner.colorsim import LIGHTS, draw_light, random_color_layout, render_stickers


def main() -> None:
    """Run the benchmark and print one line per cube size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cubes", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="+", default=[3, 5])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    for size in args.sizes:
        samples = [
            render_stickers(
                random_color_layout(size, rng), draw_light(LIGHTS[i % len(LIGHTS)], rng), rng
            )
            for i in range(args.cubes)
        ]
        classify(samples[0])  # warm-up: imports, first-call allocations
        times = []
        for _ in range(args.repeat):
            for lab in samples:
                start = time.perf_counter()
                classify(lab)
                times.append(time.perf_counter() - start)
        ms = np.array(times) * 1000
        print(
            f"{size}x{size}: median {np.median(ms):.2f} ms/cube, "
            f"p90 {np.percentile(ms, 90):.2f} ms "
            f"({len(ms)} runs over {args.cubes} cubes)"
        )


if __name__ == "__main__":
    main()
