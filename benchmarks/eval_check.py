"""Six rendered face photos per cube, end to end: how often is the cube read exactly?

Usage: python benchmarks/eval_check.py [--cubes 50] [--hard] [--seed 5]

Each cube is a uniformly random 3x3 (or one with an injected reassembly fault: a
twisted corner, a flipped edge, two swapped edges, a mirrored corner); each of its six
faces is rendered on its own with a random pose (tilt up to 30 degrees, any rotation in
the picture), light, palette and style, and the photos are handed to check in random
order. Reported: the share of cubes read exactly (or, for faults, diagnosed with exactly
the injected code), and where the misses come from.
"""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import replace

import numpy as np

from scanner.check import cube_report, read_face_photo
from scanner.synth import STANDARD_SCHEME, face_pose, random_scene_spec, render_scene
from solver.cubie import corner_slots, edge_slots, random_state
from solver.errors import CubescanError
from solver.fixes import Fix, apply_fix, flip_edge_fix, swap_pieces_fix, twist_corner_fix
from solver.geometry import FACES

FAULTS = {
    "none": None,
    "twist": "corner-twist",
    "flip": "edge-flip",
    "swap": "permutation-parity",
    "mirror": "corner-invalid",
}


def faulty(state: str, fault: str, rng: np.random.Generator) -> str:
    if fault == "twist":
        return apply_fix(state, twist_corner_fix(3, int(rng.integers(8)), 1))
    if fault == "flip":
        return apply_fix(state, flip_edge_fix(edge_slots(3)[int(rng.integers(12))], "edge"))
    if fault == "swap":
        a, b = (int(v) for v in rng.choice(12, 2, replace=False))
        return apply_fix(
            state, swap_pieces_fix("edge", ("a", "b"), (edge_slots(3)[a], edge_slots(3)[b]))
        )
    if fault == "mirror":
        first, second, _ = corner_slots(3)[int(rng.integers(8))]
        return apply_fix(state, Fix("swap-stickers", (first, second), "mirror"))
    return state


def photos_of(state: str, rng: np.random.Generator, hard: bool) -> list[np.ndarray]:
    colors = "".join(STANDARD_SCHEME[f] for f in state)
    base = random_scene_spec(rng, 3, hard=hard, scale_range=(0.3, 0.8), max_tilt_deg=30)
    base = replace(base, colors=colors)
    images = []
    for face in rng.permutation(list(FACES)):
        rotation = face_pose(
            str(face), rng.uniform(0, 30), rng.uniform(0, 360), rng.uniform(0, 360)
        )
        spec = replace(base, rotation=tuple(tuple(float(x) for x in row) for row in rotation))
        images.append(render_scene(spec)[0])
    return images


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cubes", type=int, default=50)
    parser.add_argument("--hard", action="store_true", help="clutter, glare, occluders, noise")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    for fault, code in FAULTS.items():
        outcome: Counter[str] = Counter()
        for _ in range(args.cubes):
            state = faulty(random_state(rng), fault, rng)
            try:
                photos = [
                    read_face_photo(image, "render", 3)
                    for image in photos_of(state, rng, args.hard)
                ]
                report = cube_report([p.lab for p in photos], solve=False)
            except CubescanError as err:
                outcome[f"error: {err.code}"] += 1
                continue
            codes = [p.code for p in report.validation.problems]
            right = report.facelets == state and (codes == ([code] if code else []))
            outcome["exact" if right else ("ambiguous" if report.ambiguous else "wrong")] += 1
        rate = outcome["exact"] / args.cubes
        print(f"fault {fault:6s}: {rate:6.1%} exact   {dict(outcome)}")


if __name__ == "__main__":
    main()
