"""Detection-rate evaluation of ``scanner.grid.detect_grid`` on rendered and real photos.

Rendered: ``--scenes`` single-face scenes (seeded, N cycling through ``--sizes``, every style,
palette, tilt, scale, light, occluder, glare, blur, noise, JPEG and resolution the renderer
draws) plus ``--negatives`` scenes with no cube (clutter, checkerboards, tiles, keyboards).
A detection counts when N is right and every centre is within ``--tolerance`` of a cell width
of the truth (up to the face's quarter-turn, which is ambiguous near 45 degrees).

Real: every faces.jsonl photo; with sticker boxes, N must be right and the centres must lie
within 15% of a cell width of the box centres (median), the face matched being any of the
photo's labelled faces;
tracker photos (no boxes) count when N is right, at full size and at 640x360.

Example: ``python benchmarks/eval_detect.py --scenes 2000 --negatives 500``
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

from scanner.grid import detect_grid
from scanner.synth import random_scene_spec, render_clutter, render_scene

REALDATA = Path(__file__).resolve().parents[2] / "shared" / "realdata"


def centres_of(detection) -> np.ndarray:
    """The detection's (N, N, 2) cell centres."""
    return np.asarray(detection.centres).reshape(detection.size, detection.size, 2)


def rendered(scenes: int, sizes: list[int], seed: int, tolerance: float) -> dict:
    rng = np.random.default_rng(seed)
    hits: dict[int, list[bool]] = defaultdict(list)
    wrong_size = 0
    for index in range(scenes):
        n = sizes[index % len(sizes)]
        image, truth = render_scene(random_scene_spec(rng, n))
        detection = detect_grid(image)
        ok = False
        if detection is not None and detection.size == n:
            expected = truth.centers[truth.front_face]
            cell = np.median(np.linalg.norm(np.diff(expected, axis=1), axis=-1))
            found = centres_of(detection)
            error = min(
                np.linalg.norm(np.rot90(expected, k) - found, axis=-1).max() for k in range(4)
            )
            ok = bool(error < tolerance * cell)
        elif detection is not None:
            wrong_size += 1
        hits[n].append(ok)
    return {"rates": {n: float(np.mean(v)) for n, v in hits.items()}, "wrong_size": wrong_size}


def negatives(count: int, seed: int) -> int:
    rng = np.random.default_rng(seed + 1)
    return sum(detect_grid(render_clutter(rng)) is not None for _ in range(count))


def real(root: Path) -> dict[str, str]:
    with open(root / "faces.jsonl", encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    by_image: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_image[row["image"]].append(row)
    report: dict[str, list] = defaultdict(list)
    errors: dict[str, list[float]] = defaultdict(list)
    for image_path, faces in by_image.items():
        image = cv2.imread(str(root / image_path))
        source = faces[0]["source"]
        variants = [("full", image)]
        if faces[0]["boxes"] is None and image.shape[1] >= 1280:
            variants.append(
                ("640x360", cv2.resize(image, (640, 360), interpolation=cv2.INTER_AREA))
            )
        for label, frame in variants:
            detection = detect_grid(frame)
            key = source if label == "full" else f"{source} @640x360"
            if faces[0]["boxes"] is None:
                report[key].append(detection is not None and detection.size == faces[0]["size"])
                continue
            best = None
            if detection is not None and detection.size == faces[0]["size"]:
                found = centres_of(detection).reshape(-1, 2)
                for face in faces:
                    if not face["boxes"]:
                        continue
                    boxes = np.array([b[:4] for b in face["boxes"]], float)
                    centre = (boxes[:, :2] + boxes[:, 2:]) / 2
                    width = np.median(
                        np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
                    )
                    dist = np.linalg.norm(centre[:, None] - found[None], axis=2).min(axis=1)
                    rel = float(np.median(dist) / width)
                    best = rel if best is None else min(best, rel)
            ok = best is not None and best < 0.15
            report[key].append(ok)
            if best is not None:
                errors[key].append(best)
    return {
        key: f"{sum(v)}/{len(v)} found"
        + (f", median centre error {np.median(errors[key]):.3f} cell" if errors[key] else "")
        for key, v in report.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenes", type=int, default=2000)
    parser.add_argument("--negatives", type=int, default=500)
    parser.add_argument("--sizes", default="2,3,4,5")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--tolerance", type=float, default=0.25)
    parser.add_argument("--no-real", action="store_true")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    sizes = [int(s) for s in args.sizes.split(",")]
    result = rendered(args.scenes, sizes, args.seed, args.tolerance)
    for n, rate in sorted(result["rates"].items()):
        print(f"rendered N={n}: detection rate {rate:.3f}")
    print(f"rendered: {result['wrong_size']} detections with the wrong N")
    false = negatives(args.negatives, args.seed)
    print(f"no-cube scenes: {false}/{args.negatives} false detections")
    if not args.no_real and (REALDATA / "faces.jsonl").is_file():
        for source, line in real(REALDATA).items():
            print(f"real {source}: {line}")


if __name__ == "__main__":
    main()
