"""Speed of ``scanner.grid.detect_grid``: median milliseconds per frame, single thread.

Frames are rendered 3x3 scenes (seeded) at 640x480 and 1920x1080; each frame is detected
``--repeat`` times and the median over all runs is printed, with the detection rate.

Example: ``python benchmarks/bench_detect.py --frames 40 --repeat 5``
"""

from __future__ import annotations

import argparse
import time

import cv2
import numpy as np

from scanner.grid import detect_grid
from scanner.synth import random_scene_spec, render_scene


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--size", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    for resolution in ((640, 480), (1920, 1080)):
        rng = np.random.default_rng(args.seed)
        times, found = [], 0
        for _ in range(args.frames):
            image, _ = render_scene(random_scene_spec(rng, args.size, resolution=resolution))
            found += detect_grid(image) is not None
            for _ in range(args.repeat):
                start = time.perf_counter()
                detect_grid(image)
                times.append(time.perf_counter() - start)
        print(
            f"{resolution[0]}x{resolution[1]} N={args.size}: "
            f"median {1000 * np.median(times):.1f} ms"
            f" (p90 {1000 * np.percentile(times, 90):.1f} ms), found {found}/{args.frames}"
        )


if __name__ == "__main__":
    main()
