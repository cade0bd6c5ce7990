"""Six rendered face photos per cube, end to end: how often is the cube read exactly?

Usage: python benchmarks/eval_check.py [--cubes 40] [--hard] [--seed 5] [--size-known]
                                       [--corners | --edges | --clips [--frames 30]]
                                       [--faults none,twist,flip,swap,mirror]
                                       [--save-misses /tmp/misses_check] [--no-sides]
                                       [--start random|solved|near-solved]

Each cube is a uniformly random 3x3, or one with an injected reassembly fault (a twisted
corner, a flipped edge, two swapped edges, a mirrored corner). With ``--start solved``
the fault goes into a solved cube instead (a cube taken apart and put back together),
with ``near-solved`` into a cube one to three random face turns from solved: faces of
one colour, or nearly, say little of their own light or of which way up they are. Its six faces are
photographed one by one in random order, each with its own random pose (tilt up to 30
degrees, any rotation in the picture, anywhere in the frame), light (neutral, warm, cool,
dim; any direction) and background; the cube's palette, sticker style and the camera's
resolution are the cube's own. The photos go through what ``cubescan check`` runs
(:func:`~pipeline.check.read_cube_photos`, then :func:`~pipeline.check.cube_report`), with
the cube size unknown unless ``--size-known``.

A cube is exact when the reported facelets are the truth and the problems are exactly
the injected fault's code (none for a sound cube). Every miss is put in the first
category that explains it, by comparing each stage with the renderer's ground truth:

* detection (no face / wrong N / wrong grid): a photo without a face found, a face read
  at another N, or cell centres more than a third of a sticker off the true ones;
* colour: every grid right, but the stickers' colour names do not map one to one onto
  the true colours;
* assembly: colours right, but the faces put together into another cube (``ambiguous``
  when the truth was among the equally good alternatives);
* repair: the assembled reading was the truth, but a repair changed it;
* diagnosis: the cube is the truth, but the problems are not exactly the injected one.

With ``--save-misses DIR`` the photos behind detection misses are written there as PNG.

``--corners`` measures instead a cube read from two photos taken from opposite corners
(:func:`~cubescan.synth.corners.render_cube_corners`: any roll, the cube 35-90% of the
shorter side, the looks of the detector's scenes), in random order, for each N of
``--sizes``: exact (the same cube, however held), wrong, or refused (with the refusal's
code: mostly a face the detector did not find).

``--edges`` measures the same for three photos, each along an edge of the cube (two faces
in view, :func:`~cubescan.synth.corners.render_cube_edges`), every face in one of them.

``--clips`` measures the same for a clip that turns the cube once around
(:func:`~cubescan.synth.turning.render_turning_video`, ``--frames`` frames at 640x480,
played at 10 frames a second), read as ``cubescan check --video`` reads it.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from record import add_record_argument, start_recording

from cubescan.errors import BadInputError, CubescanError
from cubescan.scanner.pipeline.check import CubeReport, cube_report
from cubescan.scanner.pipeline.clip import check_clip, read_clip_faces
from cubescan.scanner.pipeline.photos import FacePhoto, read_cube_photos
from cubescan.scanner.pipeline.views import check_views, read_photos_faces
from cubescan.scanner.placements import rotate_face
from cubescan.solver.cubie import random_state
from cubescan.solver.fixes import reassembly_fault
from cubescan.solver.geometry import FACES
from cubescan.solver.moves import (
    apply_moves,
    layer_moves,
    outer_moves,
    same_cube,
    solved_facelets,
)
from cubescan.synth.corners import render_cube_corners, render_cube_edges
from cubescan.synth.scenes import render_scene
from cubescan.synth.specs import RESOLUTIONS, STANDARD_SCHEME, SceneTruth, cube_photo_specs
from cubescan.synth.turning import render_turning_video

FAULTS = {
    "none": None,
    "twist": "corner-twist",
    "flip": "edge-flip",
    "swap": "permutation-parity",
    "mirror": "corner-invalid",
}
CATEGORIES = (
    "exact",
    "detection: no face",
    "detection: wrong N",
    "detection: wrong grid",
    "colour",
    "assembly",
    "ambiguous",
    "repair",
    "diagnosis",
)

GRID_TOLERANCE = 1 / 3  # of a sticker's pitch


def starting_state(start: str, rng: np.random.Generator) -> str:
    """A uniformly random cube, the solved cube, or one 1-3 random face turns from it."""
    if start == "random":
        return random_state(rng)
    turns = 0 if start == "solved" else int(rng.integers(1, 4))
    moves = [outer_moves()[int(k)] for k in rng.integers(18, size=turns)]
    return apply_moves(solved_facelets(3), moves)


def photos_of(
    state: str, rng: np.random.Generator, hard: bool
) -> list[tuple[np.ndarray, SceneTruth]]:
    """Six photos of the cube, one face each, in random order; with their ground truth."""
    colors = "".join(STANDARD_SCHEME[f] for f in state)
    resolution = RESOLUTIONS[int(rng.integers(len(RESOLUTIONS)))]
    specs = cube_photo_specs(
        rng, colors, resolution, max_tilt_deg=30, scale_range=(0.3, 0.8), hard=hard, shuffle=True
    )
    return [render_scene(spec) for spec in specs]


def grid_turns(photo: FacePhoto, truth: SceneTruth) -> int | None:
    """Quarter turns k with ``rot90(true centers, k)`` = the detected cells; None if off."""
    n = truth.centers[truth.front_face].shape[0]
    if len(photo.cells) != n * n:
        return None
    return truth.quarter_turns(photo.cells.mean(axis=1).reshape(n, n, 2), GRID_TOLERANCE)


def colors_consistent(
    report: CubeReport, truths: list[SceneTruth], turns: list[int]
) -> tuple[bool, int]:
    """Whether the read colours map one to one onto the true colours, and how many stickers
    disagree with the majority mapping."""
    per_face = 9
    pairs: Counter[tuple[str, str]] = Counter()
    for placement in report.photos:
        photo = int(placement.source.removeprefix("photo"))
        start = FACES.index(placement.face) * per_face
        block = report.read_facelets[start : start + per_face]
        read = rotate_face(block, 3, (4 - placement.quarter_turns) % 4)
        truth = truths[photo]
        grid = np.array(list(truth.colors[truth.front_face])).reshape(3, 3)
        true = "".join(np.rot90(grid, turns[photo]).ravel())
        pairs.update(zip(true, read, strict=True))
    best: dict[str, tuple[int, str]] = {}
    for (true, read), count in pairs.items():
        best[true] = max(best.get(true, (0, "")), (count, read))
    wrong = 6 * per_face - sum(count for count, _ in best.values())
    one_to_one = len({read for _, read in best.values()}) == len(best) == 6
    return wrong == 0 and one_to_one, wrong


@dataclass(frozen=True)
class Outcome:
    """One cube's category, and for detection misses the photos to look at."""

    category: str
    detail: str
    missed_photos: tuple[int, ...] = ()


def judge(
    state: str,
    code: str | None,
    photos: list[tuple[np.ndarray, SceneTruth]],
    size: int | None,
    sides: bool = True,
) -> Outcome:
    """Run the check on the photos and put the result in its category."""
    images = [image for image, _ in photos]
    truths = [truth for _, truth in photos]
    sources = [f"photo{i}" for i in range(len(images))]
    try:
        read = read_cube_photos(images, sources, size)
    except CubescanError as err:
        missed = tuple(i for i, name in enumerate(sources) if f"{name}:" in err.message)
        return Outcome("detection: no face", err.message[:80], missed or tuple(range(6)))
    wrong_n = tuple(i for i, p in enumerate(read) if len(p.lab) != 9)
    if wrong_n:
        return Outcome("detection: wrong N", f"N={round(len(read[0].lab) ** 0.5)}", wrong_n)
    turns = [grid_turns(photo, truth) for photo, truth in zip(read, truths, strict=True)]
    off = tuple(i for i, k in enumerate(turns) if k is None)
    try:
        side_samples = [p.sides for p in read] if sides else None
        report = cube_report([p.lab for p in read], sources, solve=False, side_samples=side_samples)
    except CubescanError as err:
        if off:
            return Outcome("detection: wrong grid", err.code, off)
        return Outcome("colour", f"{err.code}: {err.message[:60]}")
    codes = [p.code for p in report.validation.problems]
    expected = [code] if code else []
    if report.facelets == state and codes == expected:
        return Outcome("exact", "")
    if off:
        return Outcome("detection: wrong grid", " ".join(codes), off)
    consistent, wrong = colors_consistent(report, truths, [int(k) for k in turns])
    if not consistent:
        return Outcome("colour", f"{wrong} stickers misnamed; {' '.join(codes)}")
    if report.read_facelets != state:
        if state in report.alternatives:
            return Outcome("ambiguous", f"{len(report.alternatives)} alternatives")
        return Outcome("assembly", " ".join(codes))
    if report.facelets != state:
        return Outcome("repair", f"{len(report.repairs)} repairs: {report.repair_note[:60]}")
    return Outcome("diagnosis", f"got {codes}, injected {expected}")


def run_cubes(
    cubes: int,
    sizes: list[int],
    seed: int,
    draw: Callable[[str, np.random.Generator], list[np.ndarray]],
    read: Callable[[list[np.ndarray]], CubeReport],
    unit: str,
) -> None:
    """Random cubes of each N: ``draw(truth, rng)`` renders the images of one, ``read`` reads
    them as ``cubescan check`` does (timed); exact (the same cube, however held), wrong or
    refused (with the refusal's code), per N."""
    for size in sizes:
        rng = np.random.default_rng([seed, size])
        outcome: Counter[str] = Counter()
        seconds = []
        moves = layer_moves(size)
        for _ in range(cubes):
            turns = rng.integers(len(moves), size=10 * size + 10)
            truth = apply_moves(solved_facelets(size), [moves[i] for i in turns])
            images = draw(truth, rng)
            start = time.perf_counter()
            try:
                report = read(images)
                outcome["exact" if same_cube(report.facelets, truth) else "wrong"] += 1
            except BadInputError as error:
                outcome[f"refused ({error.code})"] += 1
            seconds.append(time.perf_counter() - start)
        shown = ", ".join(f"{k}: {v}" for k, v in sorted(outcome.items()) if k != "exact")
        print(
            f"N={size}: {outcome['exact'] / cubes:6.1%} exact of {cubes} ({shown or 'no misses'}); "
            f"median {np.median(seconds):.2f} s {unit}"
        )


def photos_in_any_order(render: Callable) -> Callable[[str, np.random.Generator], list]:
    """``render(truth, rng)``'s photos of a few faces each, shuffled."""

    def draw(truth: str, rng: np.random.Generator) -> list[np.ndarray]:
        drawn = render(truth, rng)
        return [drawn[k] for k in rng.permutation(len(drawn))]

    return draw


def read_views(images: list[np.ndarray]) -> CubeReport:
    """Photos of a few faces each, read as ``cubescan check`` reads them."""
    sources = [f"photo {k}" for k in range(len(images))]
    return check_views(read_photos_faces(images, sources), solve=False).cube


def clip_drawer(frames: int) -> Callable[[str, np.random.Generator], list[np.ndarray]]:
    """A clip of ``frames`` frames turning the cube once around."""

    def draw(truth: str, rng: np.random.Generator) -> list[np.ndarray]:
        seed = int(rng.integers(2**31))
        return list(render_turning_video(truth, seed=seed, frames=frames).frames)

    return draw


def read_clip(frames: list[np.ndarray]) -> CubeReport:
    """A clip's frames, played at 10 a second, read as ``cubescan check --video`` reads them."""
    photos, read = read_clip_faces(frames, fps=10.0)
    return check_clip(photos, solve=False, frames_read=read).views.cube


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cubes", type=int, default=40, help="cubes per fault kind")
    parser.add_argument("--hard", action="store_true", help="clutter, glare, occluders, noise")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--size-known", action="store_true", help="give N=3 to the detector")
    parser.add_argument("--faults", default=",".join(FAULTS), help="comma-separated kinds")
    parser.add_argument("--save-misses", type=Path, help="write detection-miss photos here")
    parser.add_argument("--verbose", action="store_true", help="print every miss")
    parser.add_argument(
        "--no-sides", action="store_true", help="ignore the stickers seen beside each face"
    )
    parser.add_argument(
        "--start",
        choices=["random", "solved", "near-solved"],
        default="random",
        help="the cube the fault goes into",
    )
    parser.add_argument("--corners", action="store_true", help="two corner photos per cube")
    parser.add_argument("--edges", action="store_true", help="three edge photos per cube")
    parser.add_argument("--clips", action="store_true", help="a turning clip per cube")
    parser.add_argument("--frames", type=int, default=30, help="frames of each clip")
    parser.add_argument("--sizes", type=int, nargs="+", default=[2, 3, 4, 5, 6, 7])
    add_record_argument(parser)
    args = parser.parse_args()
    views = {"corners": render_cube_corners, "edges": render_cube_edges}
    chosen = next((name for name in (*views, "clips") if getattr(args, name)), None)
    start_recording(args.record, f"eval_check {chosen}" if chosen else None)
    if chosen == "clips":
        unit = f"a clip of {args.frames} frames"
        run_cubes(args.cubes, args.sizes, args.seed, clip_drawer(args.frames), read_clip, unit)
        return
    if chosen:
        draw = photos_in_any_order(views[chosen])
        run_cubes(args.cubes, args.sizes, args.seed, draw, read_views, "a cube")
        return
    size = 3 if args.size_known else None
    if args.save_misses:
        args.save_misses.mkdir(parents=True, exist_ok=True)
    total: Counter[str] = Counter()
    seconds = []
    for fault in args.faults.split(","):
        # One generator per fault kind: each kind's cubes do not depend on the others run.
        rng = np.random.default_rng([args.seed, list(FAULTS).index(fault)])
        outcome: Counter[str] = Counter()
        for number in range(args.cubes):
            state = reassembly_fault(starting_state(args.start, rng), fault, rng)
            photos = photos_of(state, rng, args.hard)
            start = time.perf_counter()
            result = judge(state, FAULTS[fault], photos, size, not args.no_sides)
            seconds.append(time.perf_counter() - start)
            outcome[result.category] += 1
            if result.category != "exact" and args.verbose:
                print(f"  {fault} cube {number}: {result.category} ({result.detail})")
            if args.save_misses and result.category.startswith("detection"):
                kind = result.category.split(": ")[1].replace(" ", "-")
                for photo in result.missed_photos:
                    name = f"{fault}-{number:03d}-photo{photo}-{kind}.png"
                    cv2.imwrite(str(args.save_misses / name), photos[photo][0])
        total += outcome
        shown = ", ".join(f"{c}: {outcome[c]}" for c in CATEGORIES if outcome[c])
        print(f"fault {fault:6s}: {outcome['exact'] / args.cubes:6.1%} exact   ({shown})")
    cubes = sum(total.values())
    detection = sum(v for k, v in total.items() if k.startswith("detection"))
    other = cubes - total["exact"] - detection
    print(
        f"all {cubes} cubes: {total['exact'] / cubes:.1%} exact; misses from detection "
        f"{detection} ({detection / cubes:.1%}), from later stages {other} ({other / cubes:.1%})"
    )
    print(f"check time per cube: median {np.median(seconds):.2f} s (shared machine)")


if __name__ == "__main__":
    main()
