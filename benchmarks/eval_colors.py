"""Accuracy of whole-cube colour classification on modelled camera readings.

Usage: python benchmarks/eval_colors.py [--cubes 1000] [--seed 0] [--sizes 3] [--glare 0.02]

For each light (warm 2700 K, cool 6500 K, dim, mixed per-face 2700..6500 K; see
scanner/colorsim.py for the noise model: uncorrected colour casts, exposure, per-face
shading, per-brand and per-sticker reflectance jitter, sensor noise growing with gain,
occasional glare, 8-bit quantisation), renders ``--cubes`` random solvable states and
reports the share of cubes whose facelet string is exactly right and the sticker error
rate, without a profile and with a profile learned from a solved cube of the same brand
scanned under the same light (a fresh noise draw).
"""

from __future__ import annotations

import argparse

import numpy as np

from calibration.profile import learn_profile
from scanner.colors import classify
from scanner.colorsim import (
    LIGHTS,
    STANDARD_FACE_COLOR,
    draw_brand,
    draw_light,
    render_stickers,
)
from solver import random_state, solved_facelets


def main() -> None:
    """Run the evaluation and print one line per light and mode."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cubes", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--glare", type=float, default=0.02)
    parser.add_argument("--sizes", type=int, nargs="+", default=[3])
    args = parser.parse_args()
    for size in args.sizes:
        for light_name in LIGHTS:
            rng = np.random.default_rng([args.seed, size, LIGHTS.index(light_name)])
            exact = {"no profile": 0, "profile": 0}
            wrong = {"no profile": 0, "profile": 0}
            for _ in range(args.cubes):
                truth = random_state(rng, size)
                color = np.array([STANDARD_FACE_COLOR[f] for f in truth])
                light = draw_light(light_name, rng)
                brand = draw_brand(rng)
                lab = render_stickers(color, light, rng, args.glare, brand)
                solved = solved_facelets(size)
                calibration = render_stickers(
                    np.array([STANDARD_FACE_COLOR[f] for f in solved]), light, rng, 0.0, brand
                )
                profile = learn_profile("eval", calibration, solved)
                for mode, result in (
                    ("no profile", classify(lab)),
                    ("profile", classify(lab, profile=profile)),
                ):
                    exact[mode] += result.facelets == truth
                    wrong[mode] += sum(a != b for a, b in zip(result.facelets, truth, strict=True))
            for mode in exact:
                print(
                    f"{size}x{size} {light_name:6s} {mode:10s}: "
                    f"{100 * exact[mode] / args.cubes:6.2f}% cubes exact, "
                    f"{100 * wrong[mode] / (args.cubes * 6 * size * size):.3f}% stickers wrong "
                    f"({args.cubes} cubes, glare rate {args.glare})"
                )


if __name__ == "__main__":
    main()
