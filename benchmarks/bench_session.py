"""Frames per second of the whole scan loop (observe + session), single thread.

Usage: python benchmarks/bench_session.py [--frames 120] [--repeats 3] [--source real video]

Two kinds of frames, each at 640x480 and 1280x720:

* ``real``: the real tracker 3x3 face photos (read from ../shared/realdata) scaled to the
  resolution, each held for 10 frames as a camera would show them;
* ``video``: a rendered scanning video (:mod:`scanner.synth_video`: a 3x3 turned through
  its six faces with fingers, motion blur between faces and pauses), rendered once at
  the resolution and played in a loop.

Each frame goes through grid detection, colour sampling and naming, and the session state
machine (the session is reset when it finishes, so every frame does the full work). The
share of the time spent in grid detection (scanner/grid.py) is reported beside the rate.
Timings are medians over ``--repeats`` runs; the machine may be shared, so treat them as
noisy.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import cv2
import numpy as np

import scanner.observe
from scanner.observe import observe
from scanner.session import ScanSession
from scanner.synth import scramble
from scanner.synth_video import colors_of_facelets, render_scan_video

REALDATA = Path(__file__).resolve().parents[2] / "shared" / "realdata"
CUBE = REALDATA / "dwalton76+rubiks-cube-tracker" / "3x3x3-random-01"
RESOLUTIONS = ((640, 480), (1280, 720))


class DetectionClock:
    """Wraps grid detection as observe() calls it, adding up its time."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.detect = scanner.observe.detect_grid

    def __call__(self, *args, **kwargs):
        start = time.perf_counter()
        try:
            return self.detect(*args, **kwargs)
        finally:
            self.seconds += time.perf_counter() - start


def real_frames(width: int, height: int) -> list[np.ndarray]:
    photos = [cv2.imread(str(p)) for p in sorted(CUBE.glob("*.png"))]
    if not photos:
        raise SystemExit(f"the real source needs the photos at {CUBE}")
    frames = [cv2.resize(p, (width, height), interpolation=cv2.INTER_AREA) for p in photos]
    return [frame for frame in frames for _ in range(10)]


def video_frames(width: int, height: int) -> list[np.ndarray]:
    facelets, _ = scramble(np.random.default_rng(1), 3)
    video = render_scan_video(colors_of_facelets(facelets), seed=1, resolution=(width, height))
    return list(video.frames)


def run(frames: list[np.ndarray], count: int, clock: DetectionClock) -> tuple[float, float]:
    """(frames per second, share of the time in detection) for one pass of ``count``."""
    session, previous = ScanSession(), None
    clock.seconds = 0.0
    start = time.perf_counter()
    for number in range(count):
        seen = observe(frames[number % len(frames)], session.size, previous=previous)
        previous = seen[1] if seen else None
        session.feed(seen[0] if seen else None)
        if session.report is not None:
            session.reset()
    elapsed = time.perf_counter() - start
    return count / elapsed, clock.seconds / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=120)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--source", nargs="+", choices=("real", "video"), default=["real", "video"])
    args = parser.parse_args()
    cv2.setNumThreads(1)
    clock = DetectionClock()
    scanner.observe.detect_grid = clock
    for source in args.source:
        for width, height in RESOLUTIONS:
            frames = (real_frames if source == "real" else video_frames)(width, height)
            run(frames, min(10, args.frames), clock)  # warm-up: caches, lazy imports
            results = [run(frames, args.frames, clock) for _ in range(args.repeats)]
            rate = statistics.median(r[0] for r in results)
            share = statistics.median(r[1] for r in results)
            print(f"{source:5s} {width}x{height}: {rate:6.1f} frames/s, {share:4.0%} in grid "
                  f"detection (median of {args.repeats} runs of {args.frames} frames)")  # fmt: skip


if __name__ == "__main__":
    main()
