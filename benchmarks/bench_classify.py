"""Speed of colour naming: median milliseconds per whole cube and per single face.

Usage: python benchmarks/bench_classify.py [--cubes 200] [--repeat 5] [--sizes 3 5] [--seed 0]

Renders random real cubes with the sticker noise model (cubescan.synth.colors, its lights in
turn) once, then times ``cubescan.calibration.naming.classify`` on each whole cube, the whole
naming ``cubescan check`` does (classify, then ``calibration.piece_naming.name_by_pieces``
where ``needs_piece_naming`` says so, with 4 other clusterings allowed) and
``calibration.naming.name_face_colors`` on each of its faces (no profile: the webcam
preview's case), ``--repeat`` times, and prints the median (and p90) per size. Targets:
<= 5 ms per 3x3 cube, <= 10 ms per 7x7 cube named by its pieces, <= 1 ms per 3x3 face (the
preview names a face every frame at >= 60 fps).

The machine may be shared: run it pinned for steadier figures, e.g.
``taskset -c 0 python benchmarks/bench_classify.py``; medians are robust to the occasional
descheduled run, the p90 is not, and the CPU-time median (``time.process_time``) leaves out
time spent waiting for a busy core altogether.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
from record import add_record_argument, start_recording

from cubescan.calibration.face_naming import name_face_colors
from cubescan.calibration.naming import classify
from cubescan.calibration.palette import Classification
from cubescan.calibration.piece_naming import name_by_pieces, needs_piece_naming
from cubescan.synth.colors import LIGHTS, random_cube, render_cube


def named_by_pieces(lab: np.ndarray) -> Classification:
    """The whole naming of ``cubescan check``: stickers, then pieces where they are needed."""
    named = classify(lab)
    return name_by_pieces(named, lab) if needs_piece_naming(named) else named


def _time_ms(
    function: Callable[[np.ndarray], object], inputs: list, repeat: int
) -> tuple[np.ndarray, np.ndarray]:
    """Wall-clock and CPU milliseconds of each call (CPU time ignores time spent preempted)."""
    function(inputs[0])  # warm-up: imports, first-call allocations
    wall, cpu = [], []
    for _ in range(repeat):
        for item in inputs:
            start, start_cpu = time.perf_counter(), time.process_time()
            function(item)
            cpu.append(time.process_time() - start_cpu)
            wall.append(time.perf_counter() - start)
    return np.array(wall) * 1000, np.array(cpu) * 1000


def main() -> None:
    """Run the benchmark and print two lines (cube, face) per cube size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cubes", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="+", default=[3, 5])
    parser.add_argument("--seed", type=int, default=0)
    add_record_argument(parser)
    args = parser.parse_args()
    start_recording(args.record)
    rng = np.random.default_rng(args.seed)
    for size in args.sizes:
        samples = [
            render_cube(random_cube(size, rng), LIGHTS[i % len(LIGHTS)], rng)
            for i in range(args.cubes)
        ]
        faces = [face for lab in samples for face in lab.reshape(6, size * size, 3)]
        for what, function, inputs in (
            ("cube", classify, samples),
            ("piece-named cube", named_by_pieces, samples),
            ("face", name_face_colors, faces),
        ):
            ms, cpu_ms = _time_ms(function, inputs, args.repeat)
            print(
                f"{size}x{size}: median {np.median(ms):.2f} ms/{what}, "
                f"p90 {np.percentile(ms, 90):.2f} ms, CPU median {np.median(cpu_ms):.2f} ms "
                f"({len(ms)} runs over {len(inputs)} {what}s)"
            )


if __name__ == "__main__":
    main()
