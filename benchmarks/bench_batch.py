"""Cubes per second for `cubescan batch` on 1080p photos: --jobs 1 and 2, and on Dask.

Usage: python benchmarks/bench_batch.py [--cubes 8] [--repeats 3] [--seed 1] [--no-cluster]

Renders a batch root of random 3x3 cubes, six 1920x1080 face photos each (the project's
renderer: every photo with its own pose, light and rotation in the picture, saved as
JPEG like a phone photo), then times whole batch runs, reports and annotated photos
included, with one and with two worker processes, then on Dask with two workers: a
``--cluster local:2`` run (the cluster started and stopped within the run, as a user pays
for it) and a run on a cluster already running (``--cluster tcp://...``). Prints the
median over repeats of each, and their ratios to --jobs 2 measured in the same run. The
machine may be shared: medians, not single runs, and the ratios say more than the rates.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np
from record import add_record_argument, start_recording

from cubescan.scanner.pipeline.batch import read_rows, run_batch
from cubescan.scanner.pipeline.check import check_folder
from cubescan.solver.cubie import random_state
from cubescan.solver.geometry import FACES
from cubescan.synth.scenes import render_scene
from cubescan.synth.specs import STANDARD_SCHEME, cube_photo_specs


def write_cube(folder: Path, rng: np.random.Generator) -> None:
    """Six 1080p JPEG photos of one random cube, named by face."""
    colors = "".join(STANDARD_SCHEME[f] for f in random_state(rng))
    folder.mkdir(parents=True)
    specs = cube_photo_specs(rng, colors, (1920, 1080), max_tilt_deg=25, scale_range=(0.4, 0.8))
    for face, spec in zip(FACES, specs, strict=True):
        cv2.imwrite(
            str(folder / f"{face}.jpg"), render_scene(spec)[0], [cv2.IMWRITE_JPEG_QUALITY, 92]
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cubes", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-cluster", action="store_true", help="skip the Dask runs")
    add_record_argument(parser)
    args = parser.parse_args()
    start_recording(args.record)
    rng = np.random.default_rng(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "root"
        for i in range(args.cubes):
            write_cube(root / f"cube{i:03d}", rng)
        check_folder(root / "cube000", Path(folder) / "warm")  # tables and caches in place
        runs = {"--jobs 1": {"jobs": 1}, "--jobs 2": {"jobs": 2}}
        running = None
        if not args.no_cluster:
            from dask.distributed import LocalCluster

            running = LocalCluster(
                n_workers=2, threads_per_worker=1, dashboard_address=None, silence_logs=40
            )
            runs["--cluster local:2"] = {"cluster": "local:2"}
            runs["--cluster (running, 2 workers)"] = {"cluster": running.scheduler_address}
        medians = {}
        for label, options in runs.items():
            rates = []
            for repeat in range(args.repeats):
                out = Path(folder) / f"out-{len(medians)}-{repeat}"
                start = time.perf_counter()
                summary = run_batch(root, out, check_folder, show_progress=False, **options)
                rates.append(summary.checked / (time.perf_counter() - start))
            medians[label] = statistics.median(rates)
            rows = read_rows(out / "report.jsonl")
            verdicts = sum(row["status"] == "ok" for row in rows)
            print(
                f"{label}: {medians[label]:.2f} cubes/s (median of {args.repeats} runs of "
                f"{args.cubes} cubes; {verdicts} with a verdict, {len(rows) - verdicts} errors)"
            )
        if running is not None:
            running.close()
        for label in medians:
            if label != "--jobs 2":
                ratio = medians[label] / medians["--jobs 2"]
                print(f"{label} / --jobs 2: {ratio:.2f}x (2 cores, shared machine)")


if __name__ == "__main__":
    main()
