"""Detection-rate evaluation of ``cubescan.scanner.grid.detect_grid`` on rendered and real photos.

Rendered: ``--scenes`` single-face scenes (seeded, N cycling through ``--sizes``, every style,
palette, tilt, scale, light, occluder, glare, blur, noise, JPEG and resolution the renderer
draws) plus ``--negatives`` scenes with no cube (clutter, checkerboards, tiles, keyboards).
Rates are also given for the faces filling >= 10% of the frame, as for the real photos.
A detection counts when N is right and every centre is within ``--tolerance`` of a cell width
of the truth (up to the face's quarter-turn, which is ambiguous near 45 degrees).

Real: every faces.jsonl photo; with sticker boxes, N must be right and the centres must lie
within 15% of a cell width of the box centres (median), the face matched being any of the
photo's labelled faces; photos without boxes (tracker, cubecolor) count when N is right, the
tracker's also at 640x360. Per source: (a) every photo and (b) the photos whose largest labelled
face (convex hull of its boxes) covers >= 10% of the frame, the issue's target;
``--verbose`` lists the missed photos.

``--clutter-seeds START STOP`` adds the no-cube scenes of those seeds, drawn as the negatives
test draws them (odd seeds at 320x240, even ones at 640x480), and lists the seeds found.

``--peer`` also runs the contour-based peer the issue names (:mod:`peer_contour`, 3x3 only)
on every real 3x3 photo (found when its nine centres lie within 15% of a cell width of one
labelled face's box centres, in any order; photos without boxes: when it sees a face), and
on the no-cube scenes.

``--transformed`` also reads every real photo whose face fills >= 10% of the frame after each
of :data:`cubescan.synth.retake.RETAKES` (turned, shrunk, darker, lighter, warm or cool light, heavy
JPEG, blur, noise): what another person's photo of a cube may differ by. The boxes move with
the photo.

``--multi`` measures :func:`cubescan.scanner.grid.detect_faces` instead (every face of a
frame): on ``--scenes`` rendered corner views (:mod:`cubescan.synth.corners`, N cycling through
2..7, two or three faces in view) the share of visible faces found (a found face: N right and
every centre within ``--tolerance`` of a cell width of the truth, in any quarter turn or
mirror), in all and for the faces whose stickers are 12 px or more across; the faces found that
match no face in view; the pairs of faces found whose shared edge is linked; and the time per
frame beside :func:`detect_grid`'s on the same frames (medians; the two take turns at running
first on a frame). Then the false faces on the
clutter seeds (``--clutter-seeds``, default 0..2000) against the single-face detector's, and
on the real photos that show two or more labelled faces, the share of labelled faces located
(a face of the right N whose centres lie within 15% of a sticker width of the boxes' centres,
median), per source.

Example: ``python benchmarks/eval_detect.py --scenes 2000 --negatives 500``
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np
from peer_contour import contour_face, same_stickers
from record import add_record_argument, start_recording

from cubescan.scanner.grid import detect_faces, detect_grid
from cubescan.synth.corners import random_corner_spec, render_corner_view
from cubescan.synth.retake import RETAKES, moved_boxes
from cubescan.synth.scenes import render_clutter, render_scene, seeded_clutter
from cubescan.synth.specs import random_scene_spec

REALDATA = Path(__file__).resolve().parents[2] / "shared" / "realdata"


def centers_of(detection) -> np.ndarray:
    """The detection's (N, N, 2) cell centres."""
    return np.asarray(detection.centers).reshape(detection.size, detection.size, 2)


def rendered(
    scenes: int, sizes: list[int], seed: int, tolerance: float, peer: bool = False
) -> dict:
    """Per N, the detection rate and the faces filling >= 10% of the frame found; with
    ``peer``, the contour-based peer's faces found right among the 3x3 scenes."""
    rng = np.random.default_rng(seed)
    peer_hits: list[bool] = []
    hits: dict[int, list[bool]] = defaultdict(list)
    large: dict[int, list[bool]] = defaultdict(list)  # faces >= MIN_FACE_FRACTION of the frame
    wrong_size = 0
    for index in range(scenes):
        n = sizes[index % len(sizes)]
        image, truth = render_scene(random_scene_spec(rng, n))
        detection = detect_grid(image)
        ok = False
        if detection is not None and detection.size == n:
            ok = truth.quarter_turns(centers_of(detection), tolerance) is not None
        elif detection is not None:
            wrong_size += 1
        hits[n].append(ok)
        if peer and n == 3:
            centers, front = contour_face(image), truth.centers[truth.front_face]
            peer_hits.append(centers is not None and same_stickers(centers, front, tolerance))
        quad = np.asarray(truth.corners[truth.front_face], np.float32)
        if cv2.contourArea(quad) >= MIN_FACE_FRACTION * image.shape[0] * image.shape[1]:
            large[n].append(ok)
    return {
        "rates": {n: float(np.mean(v)) for n, v in hits.items()},
        "large": {n: (int(np.sum(v)), len(v)) for n, v in large.items()},
        "wrong_size": wrong_size,
        "peer": (int(np.sum(peer_hits)), len(peer_hits)),
    }


def negatives(count: int, seed: int, detectors=(detect_grid,)) -> list[int]:
    """False faces each of ``detectors`` (``detect_grid``, and the peer's ``contour_face``)
    finds in ``count`` rendered no-cube scenes, each scene rendered once for all."""
    rng = np.random.default_rng(seed + 1)
    false = [0] * len(detectors)
    for _ in range(count):
        image = render_clutter(rng)
        for index, detect in enumerate(detectors):
            false[index] += detect(image) is not None
    return false


def false_clutter_seeds(start: int, stop: int) -> list[int]:
    """The seeds in [start, stop) whose no-cube scene (:func:`cubescan.synth.scenes.seeded_clutter`,
    as the negatives test draws it) gives a face."""
    return [seed for seed in range(start, stop) if detect_grid(seeded_clutter(seed)) is not None]


MIN_FACE_FRACTION = 0.10  # the target: faces filling at least ~10% of the frame


def face_fraction(faces: list[dict], shape: tuple[int, ...]) -> float | None:
    """Share of the frame covered by the largest labelled face (convex hull of its boxes)."""
    areas = []
    for face in faces:
        if not face["boxes"]:
            continue
        boxes = np.array([b[:4] for b in face["boxes"]], np.float32)
        corners = np.concatenate(
            [boxes[:, [0, 1]], boxes[:, [2, 1]], boxes[:, [2, 3]], boxes[:, [0, 3]]]
        )
        areas.append(cv2.contourArea(cv2.convexHull(corners)))
    return max(areas) / (shape[0] * shape[1]) if areas else None


def box_centers(face: dict) -> tuple[np.ndarray, float]:
    """A labelled face's sticker box centres (K, 2), in its row order, and the median
    sticker width (the shorter side of each box)."""
    boxes = np.array([b[:4] for b in face["boxes"]], float)
    width = np.median(np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]))
    return (boxes[:, :2] + boxes[:, 2:]) / 2, float(width)


def center_error(detection, faces: list[dict]) -> float | None:
    """Median distance from the labelled box centres to the nearest found centre, in cell widths,
    for the best-matching labelled face of the photo (None when no face has boxes)."""
    found = centers_of(detection).reshape(-1, 2)
    best = None
    for face in faces:
        if not face["boxes"]:
            continue
        center, width = box_centers(face)
        dist = np.linalg.norm(center[:, None] - found[None], axis=2).min(axis=1)
        rel = float(np.median(dist) / width)
        best = rel if best is None else min(best, rel)
    return best


def real_photos(root: Path) -> dict[str, list[dict]]:
    """faces.jsonl's records by photo."""
    with open(root / "faces.jsonl", encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    by_image: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_image[row["image"]].append(row)
    return by_image


def read_photo(frame: np.ndarray, faces: list[dict], tolerance: float) -> tuple[bool, float | None]:
    """Whether the photo's face is found (N right, centres within ``tolerance`` of a cell
    width of one labelled face's boxes when it has them), and the centre error."""
    detection = detect_grid(frame)
    right_size = detection is not None and detection.size == faces[0]["size"]
    error = center_error(detection, faces) if right_size else None
    has_boxes = any(face["boxes"] for face in faces)
    return right_size and (not has_boxes or error < tolerance), error


def peer_reads(frame: np.ndarray, faces: list[dict], tolerance: float) -> bool:
    """Whether the contour-based peer finds the photo's 3x3 face (see ``--peer``)."""
    centers = contour_face(frame)
    if centers is None or not any(face["boxes"] for face in faces):
        return centers is not None
    for face in faces:
        if not face["boxes"] or len(face["boxes"]) != 9:
            continue
        center, width = box_centers(face)
        # In the labelled row order, so that the pitch is measured along its rows.
        truth = center.reshape(3, 3, 2)
        pitch = float(np.median(np.linalg.norm(np.diff(truth, axis=1), axis=-1)))
        if same_stickers(centers, truth, tolerance * width / pitch):
            return True
    return False


def real(root: Path, tolerance: float = 0.15, peer: bool = False) -> list[dict]:
    """One row per (photo, resolution): source key, image, face fraction, found, centre error
    and, with ``peer``, for 3x3 photos whether the contour-based peer found the face."""
    results = []
    for image_path, faces in real_photos(root).items():
        image = cv2.imread(str(root / image_path))
        source = faces[0]["source"]
        variants = [("full", image)]
        if faces[0]["boxes"] is None and image.shape[1] >= 1280:
            variants.append(
                ("640x360", cv2.resize(image, (640, 360), interpolation=cv2.INTER_AREA))
            )
        fraction = face_fraction(faces, image.shape)
        for label, frame in variants:
            found, error = read_photo(frame, faces, tolerance)
            results.append(
                {
                    "key": source if label == "full" else f"{source} @{label}",
                    "image": image_path,
                    "fraction": fraction,
                    "found": found,
                    "error": error,
                    "peer": peer_reads(frame, faces, tolerance)
                    if peer and faces[0]["size"] == 3
                    else None,
                }
            )
    return results


def _moved_faces(faces: list[dict], matrix: np.ndarray) -> list[dict]:
    """The records with their sticker boxes moved by a retake (see
    :func:`cubescan.synth.retake.moved_boxes`)."""
    return [
        {**face, "boxes": moved_boxes(np.array([b[:4] for b in face["boxes"]]), matrix).tolist()}
        if face["boxes"]
        else face
        for face in faces
    ]


def transformed_real(root: Path, tolerance: float = 0.15) -> dict[str, list[tuple[str, bool]]]:
    """Per retake (:data:`cubescan.synth.retake.RETAKES`), (photo, found) for every photo whose
    face fills >= 10% of the frame (or has no boxes)."""
    results: dict[str, list[tuple[str, bool]]] = defaultdict(list)
    for image_path, faces in real_photos(root).items():
        image = cv2.imread(str(root / image_path))
        fraction = face_fraction(faces, image.shape)
        if fraction is not None and fraction < MIN_FACE_FRACTION:
            continue
        for name, retake in RETAKES.items():
            frame, matrix = retake(image)
            found, _ = read_photo(frame, _moved_faces(faces, matrix), tolerance)
            results[name].append((image_path, found))
    return results


def summarise(rows: list[dict]) -> str:
    """'found/total, median centre error' of some rows."""
    found = sum(r["found"] for r in rows)
    errors = [r["error"] for r in rows if r["error"] is not None]
    line = f"{found}/{len(rows)} found"
    return line + (f", median centre error {np.median(errors):.3f} cell" if errors else "")


def report_real(results: list[dict], verbose: bool) -> None:
    """Print per source (a) every photo and (b) photos whose largest labelled face fills
    >= MIN_FACE_FRACTION of the frame (sources without boxes: every photo, N must be right)."""
    by_key: dict[str, list[dict]] = defaultdict(list)
    for row in results:
        by_key[row["key"]].append(row)
    for key, rows in by_key.items():
        big = [r for r in rows if r["fraction"] is None or r["fraction"] >= MIN_FACE_FRACTION]
        boxless = all(r["fraction"] is None for r in rows)
        print(f"real {key}: all {summarise(rows)}")
        label = "no boxes, N right" if boxless else f"face >= {MIN_FACE_FRACTION:.0%}"
        print(f"real {key}: {label}: {summarise(big)}")
        judged = [r for r in big if r["peer"] is not None]
        if judged:
            print(
                f"real {key}: {label}, 3x3, the contour-based peer:"
                f" {sum(r['peer'] for r in judged)}/{len(judged)} found"
                f" (ours {sum(r['found'] for r in judged)}/{len(judged)})"
            )
        if verbose:
            for row in rows:
                if not row["found"]:
                    fraction = "" if row["fraction"] is None else f" face {row['fraction']:.3f}"
                    error = "" if row["error"] is None else f" error {row['error']:.2f}"
                    print(f"    missed {row['image']}{fraction}{error}")


MULTI_SIZES = (2, 3, 4, 5, 6, 7)
MIN_STICKER_PX = 12.0  # the target: faces whose stickers are this wide or wider


def _same_face(centers: np.ndarray, truth_centers: np.ndarray, tolerance: float) -> bool:
    """Whether found centres (N, N, 2) are the true ones in some quarter turn or mirror,
    each within ``tolerance`` of a cell width."""
    if centers.shape != truth_centers.shape:
        return False
    pitch = float(np.median(np.linalg.norm(np.diff(truth_centers, axis=1), axis=-1)))
    for turns in range(4):
        turned = np.rot90(truth_centers, turns, axes=(0, 1))
        for candidate in (turned, turned[:, ::-1]):
            if np.linalg.norm(candidate - centers, axis=-1).max() < tolerance * pitch:
                return True
    return False


def _timed(detect, image: np.ndarray):
    """``detect(image)`` and its time in seconds."""
    start = time.perf_counter()
    result = detect(image)
    return result, time.perf_counter() - start


def rendered_corners(scenes: int, seed: int, tolerance: float) -> dict:
    """Per N: visible faces found (all, and those with stickers >= MIN_STICKER_PX), faces
    found that match none in view, shared edges linked, and both detectors' times."""
    rng = np.random.default_rng(seed)
    counts: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    multi_times, single_times = [], []
    for index in range(scenes):
        n = MULTI_SIZES[index % len(MULTI_SIZES)]
        image, truth = render_corner_view(random_corner_spec(rng, n))
        # Whichever runs first meets the frame fresh from the renderer, out of the CPU's
        # caches: the two take turns at it.
        if index % 2:
            _, single_time = _timed(detect_grid, image)
            view, multi_time = _timed(detect_faces, image)
        else:
            view, multi_time = _timed(detect_faces, image)
            _, single_time = _timed(detect_grid, image)
        multi_times.append(multi_time)
        single_times.append(single_time)
        row = counts[n]
        matched: dict[str, int] = {}
        for face in truth.faces:
            hit = next(
                (
                    k
                    for k, found in enumerate(view.faces)
                    if _same_face(found.centers, face.centers, tolerance)
                ),
                None,
            )
            big = face.sticker_px >= MIN_STICKER_PX
            row["visible"] += 1
            row["found"] += hit is not None
            row["big"] += big
            row["big_found"] += big and hit is not None
            if hit is not None:
                matched[face.face] = hit
        row["extra"] += len(view.faces) - len(set(matched.values()))
        linked = {tuple(sorted(link.faces)) for link in view.links}
        letters = sorted(matched)
        for a in range(len(letters)):
            for b in range(a + 1, len(letters)):
                row["pairs"] += 1
                pair = tuple(sorted((matched[letters[a]], matched[letters[b]])))
                row["pairs_linked"] += pair in linked
        row["wrong_links"] += len(linked) - sum(
            1 for pair in linked if all(k in matched.values() for k in pair)
        )
    return {
        "counts": {n: dict(row) for n, row in counts.items()},
        "multi_ms": 1000 * float(np.median(multi_times)),
        "single_ms": 1000 * float(np.median(single_times)),
        "multi_mean_ms": 1000 * float(np.mean(multi_times)),
        "single_mean_ms": 1000 * float(np.mean(single_times)),
    }


def multi_clutter(start: int, stop: int) -> tuple[int, int, int]:
    """On the no-cube scenes of seeds [start, stop): the scenes where :func:`detect_grid`
    finds a face, those where :func:`detect_faces` finds any, and the faces it finds."""
    single = scenes = faces = 0
    for seed in range(start, stop):
        image = seeded_clutter(seed)
        single += detect_grid(image) is not None
        found = len(detect_faces(image).faces)
        scenes += found > 0
        faces += found
    return single, scenes, faces


def located(face: dict, found, tolerance: float = 0.15) -> bool:
    """Whether a labelled face (with boxes) is one of the faces found: the right N, its
    centres within ``tolerance`` of a sticker width of the boxes' centres (median)."""
    center, width = box_centers(face)
    for detection in found:
        if detection.size != face["size"]:
            continue
        points = centers_of(detection).reshape(-1, 2)
        distance = np.linalg.norm(center[:, None] - points[None], axis=2).min(axis=1)
        if np.median(distance) / width < tolerance:
            return True
    return False


def real_multi(root: Path) -> dict[str, dict]:
    """Per source, on the photos with two or more labelled faces (all with boxes): labelled
    faces located by :func:`detect_faces` and by :func:`detect_grid`, photos, times."""
    by_source: dict[str, dict] = defaultdict(lambda: defaultdict(list))
    for image_path, faces in real_photos(root).items():
        if len(faces) < 2 or not all(face["boxes"] for face in faces):
            continue
        image = cv2.imread(str(root / image_path))
        view, multi_time = _timed(detect_faces, image)
        single, single_time = _timed(detect_grid, image)
        row = by_source[faces[0]["source"]]
        row["multi"] += [located(face, view.faces) for face in faces]
        row["single"] += [located(face, [single] if single else []) for face in faces]
        row["multi_times"].append(multi_time)
        row["single_times"].append(single_time)
        row["missed"] += [f"{image_path} ({len(faces)} labelled)"] * (
            not all(located(face, view.faces) for face in faces)
        )
    return by_source


def report_multi(args) -> None:
    """Print the ``--multi`` measures (see the module's docstring)."""
    result = rendered_corners(args.scenes, args.seed, args.tolerance)
    totals: dict[str, int] = defaultdict(int)
    for n, row in sorted(result["counts"].items()):
        for key, value in row.items():
            totals[key] += value
        print(
            f"corner views N={n}: faces found {row['found']}/{row['visible']},"
            f" stickers >= {MIN_STICKER_PX:.0f} px {row['big_found']}/{row['big']},"
            f" shared edges linked {row['pairs_linked']}/{row['pairs']},"
            f" faces matching none in view {row['extra']}"
        )
    print(
        f"corner views, all N: faces found {totals['found']}/{totals['visible']}"
        f" ({totals['found'] / max(1, totals['visible']):.1%}), stickers >="
        f" {MIN_STICKER_PX:.0f} px {totals['big_found']}/{totals['big']}"
        f" ({totals['big_found'] / max(1, totals['big']):.1%}), shared edges linked"
        f" {totals['pairs_linked']}/{totals['pairs']}, links between faces not both in view"
        f" {totals['wrong_links']}, faces matching none in view {totals['extra']}"
    )
    print(
        f"corner views, time per frame (median): detect_faces {result['multi_ms']:.1f} ms,"
        f" detect_grid {result['single_ms']:.1f} ms,"
        f" ratio {result['multi_ms'] / result['single_ms']:.2f}"
        f" (means {result['multi_mean_ms']:.1f} / {result['single_mean_ms']:.1f} ms)"
    )
    start, stop = args.clutter_seeds or (0, 2000)
    single, scenes, faces = multi_clutter(start, stop)
    print(
        f"no-cube scenes of seeds {start}..{stop - 1}: detect_grid finds a face in {single},"
        f" detect_faces finds faces in {scenes} ({faces} faces)"
    )
    if not args.no_real and (REALDATA / "faces.jsonl").is_file():
        for source, row in real_multi(REALDATA).items():
            multi, single = row["multi"], row["single"]
            print(
                f"real {source}, {len(row['multi_times'])} photos with 2-3 labelled faces:"
                f" labelled faces located {sum(multi)}/{len(multi)}"
                f" ({sum(multi) / len(multi):.1%}; detect_grid {sum(single)}/{len(single)}),"
                f" time per photo (median) {1000 * np.median(row['multi_times']):.0f} ms,"
                f" detect_grid {1000 * np.median(row['single_times']):.0f} ms"
            )
            if args.verbose:
                print("".join(f"    missed some of {image}\n" for image in row["missed"]), end="")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenes", type=int, default=2000)
    parser.add_argument("--negatives", type=int, default=500)
    parser.add_argument("--sizes", default="2,3,4,5")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--tolerance", type=float, default=0.25)
    parser.add_argument("--no-real", action="store_true")
    parser.add_argument("--verbose", action="store_true", help="list the missed real photos")
    parser.add_argument(
        "--transformed", action="store_true", help="also the real photos under each retake"
    )
    parser.add_argument(
        "--peer", action="store_true", help="also the contour-based peer (3x3 and no-cube scenes)"
    )
    parser.add_argument(
        "--clutter-seeds",
        type=int,
        nargs=2,
        metavar=("START", "STOP"),
        help="also the no-cube scenes of these seeds at the test suite's small resolutions",
    )
    parser.add_argument(
        "--multi",
        action="store_true",
        help="every face of a frame (detect_faces) on rendered corner views and real photos",
    )
    add_record_argument(parser)
    args = parser.parse_args()
    start_recording(args.record, "eval_detect multi" if args.multi else None)
    cv2.setNumThreads(1)
    if args.multi:
        report_multi(args)
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    result = rendered(args.scenes, sizes, args.seed, args.tolerance, args.peer)
    for n, rate in sorted(result["rates"].items()):
        found, total = result["large"].get(n, (0, 0))
        print(
            f"rendered N={n}: detection rate {rate:.3f}"
            f" (faces >= {MIN_FACE_FRACTION:.0%} of the frame: {found}/{total})"
        )
    print(f"rendered: {result['wrong_size']} detections with the wrong N")
    if args.peer:
        found, total = result["peer"]
        print(f"rendered N=3, the contour-based peer: {found}/{total} found")
    detectors = (detect_grid, contour_face) if args.peer else (detect_grid,)
    false = negatives(args.negatives, args.seed, detectors)
    print(f"no-cube scenes: {false[0]}/{args.negatives} false detections")
    if args.peer:
        print(f"no-cube scenes, the contour-based peer: {false[1]}/{args.negatives} false faces")
    if args.clutter_seeds:
        start, stop = args.clutter_seeds
        seeds = false_clutter_seeds(start, stop)
        print(f"no-cube scenes of seeds {start}..{stop - 1} (320x240 and 640x480): ", end="")
        print(f"{len(seeds)}/{stop - start} false detections, seeds {seeds}")
    if not args.no_real and (REALDATA / "faces.jsonl").is_file():
        report_real(real(REALDATA, peer=args.peer), args.verbose)
    if args.transformed and (REALDATA / "faces.jsonl").is_file():
        for name, rows in transformed_real(REALDATA).items():
            missed = [image for image, found in rows if not found]
            print(f"real photos, {name}: {len(rows) - len(missed)}/{len(rows)} found")
            if args.verbose:
                print("".join(f"    missed {image}\n" for image in missed), end="")


if __name__ == "__main__":
    main()
