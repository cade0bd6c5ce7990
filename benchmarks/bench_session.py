"""Frames per second of the whole scan loop (observe + session), single thread.

Usage: python benchmarks/bench_session.py [--frames 120] [--repeats 3]

Frames are the real tracker 3x3 face photos scaled to 640x480 and 1280x720 (read from
../shared/realdata), cycled as a camera would show them; each frame goes through grid
detection, colour sampling and naming, and the session state machine.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import cv2

from scanner.observe import observe
from scanner.session import ScanSession

REALDATA = Path(__file__).resolve().parents[2] / "shared" / "realdata"
CUBE = REALDATA / "dwalton76+rubiks-cube-tracker" / "3x3x3-random-01"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=120)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    photos = [cv2.imread(str(p)) for p in sorted(CUBE.glob("*.png"))]
    if not photos:
        raise SystemExit(f"needs the real photos at {CUBE}")
    for width, height in ((640, 480), (1280, 720)):
        frames = [cv2.resize(p, (width, height), interpolation=cv2.INTER_AREA) for p in photos]
        rates = []
        for _ in range(args.repeats):
            session = ScanSession()
            previous = None
            start = time.perf_counter()
            for number in range(args.frames):
                seen = observe(frames[(number // 10) % len(frames)], previous=previous)
                previous = seen[1] if seen else None
                session.feed(seen[0] if seen else None)
            rates.append(args.frames / (time.perf_counter() - start))
        print(f"{width}x{height}: {statistics.median(rates):.1f} frames/s "
              f"(median of {args.repeats} runs of {args.frames} frames)")  # fmt: skip


if __name__ == "__main__":
    main()
