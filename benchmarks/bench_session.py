"""Frames per second of the whole scan loop (observe + session), single thread.

Usage: python benchmarks/bench_session.py [--repeats 5] [--hold 10] [--source real video empty]
                                          [--resolution 640x480 1280x720] [--name-every-frame]

Three kinds of frames, each at 640x480 and 1280x720:

* ``real``: the real tracker 3x3 face photos (read from ../shared/realdata) scaled to the
  resolution, each held for ``--hold`` frames as a camera would show them (six faces: one
  scan);
* ``video``: a rendered scanning video (:mod:`cubescan.synth.video`: a 3x3 turned through
  its six faces with fingers, motion blur between faces and pauses of ``--hold`` frames);
* ``empty``: a still view with no cube (a rendered cluttered table) and fresh sensor noise
  in each of as many frames as six held faces: the loop before a cube shows up (no scan
  finishes).

One run is one scan: a fresh session fed every frame of the sequence exactly as
``cubescan scan`` does (grid detection tracking the previous frame's face, colour sampling,
naming unless the face reads as before, the session state machine). The once-per-scan
finish (assemble, validate, solve) happens inside it, once, and is counted; the rate without
it (the steady per-frame rate) is printed beside. Each stage's time per frame (detection,
sampling, naming, the rest of observe, the session, the finish), the share of frames whose
grid detection took the cold (untracked) path, and the time of tracked and of cold detection
calls (cold: found a face or not; with no previous face, or after tracking lost it; in
motion or not, see ``pipeline.observe.view_changed``) are printed too. Every figure is the
median over ``--repeats`` runs, on two clocks: the CPU time of this process (what the loop
costs on a core of its own: the figure to hold against the target) and the wall time
(which on a shared machine also holds the waits for a core; the load average is printed
with the results).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np
from record import add_record_argument, start_recording

import cubescan.scanner.grid.detection
import cubescan.scanner.pipeline.observe
from cubescan.scanner.pipeline.observe import LiveObserver
from cubescan.scanner.pipeline.session import ScanSession
from cubescan.synth.scenes import render_clutter
from cubescan.synth.specs import scramble
from cubescan.synth.video import colors_of_facelets, render_scan_video

REALDATA = Path(__file__).resolve().parents[2] / "shared" / "realdata"
CUBE = REALDATA / "dwalton76+rubiks-cube-tracker" / "3x3x3-random-01"
TARGET_FPS = 60.0


def now() -> np.ndarray:
    """(wall, CPU) seconds: the CPU time of this process is what the loop costs on a core of
    its own; the wall time also holds the waits for a core on a shared machine."""
    return np.array([time.perf_counter(), time.process_time()])


class Clocks:
    """Stopwatches around the stages as observe() calls them, and around grid tracking.

    Installed by replacing the module attributes the pipeline looks up at call time, so the
    code measured is the code ``cubescan scan`` runs.
    """

    def __init__(self) -> None:
        self.seconds: dict[str, np.ndarray] = defaultdict(lambda: np.zeros(2))
        self.counts: dict[str, int] = defaultdict(int)
        self.calls: list[tuple[str, np.ndarray]] = []  # (kind of detection call, seconds)
        self._tracked: bool | None = None
        self.originals = {
            "detect": cubescan.scanner.pipeline.observe.detect_grid,
            "sample": cubescan.scanner.pipeline.observe.sample_colors,
            "name": cubescan.scanner.pipeline.observe.name_face_colors,
            # The tracking path inside detect_grid (None if detection.py no longer has it).
            "track": getattr(cubescan.scanner.grid.detection, "track", None),
        }

    def install(self) -> None:
        cubescan.scanner.pipeline.observe.detect_grid = self._detect
        cubescan.scanner.pipeline.observe.sample_colors = self._timed(
            "sampling", self.originals["sample"]
        )
        cubescan.scanner.pipeline.observe.name_face_colors = self._timed(
            "naming", self.originals["name"]
        )
        if self.originals["track"] is not None:
            cubescan.scanner.grid.detection.track = self._track

    def reset(self) -> None:
        self.seconds.clear()
        self.counts.clear()
        self.calls.clear()

    def _timed(self, stage, function):
        def timed(*args, **kwargs):
            start = now()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds[stage] += now() - start
                self.counts[stage] += 1

        return timed

    def _track(self, *args, **kwargs):
        found = self.originals["track"](*args, **kwargs)
        self._tracked = found is not None
        return found

    def _detect(self, frame, size=None, previous=None, *, in_motion=False):
        self._tracked = None
        start = now()
        found = self.originals["detect"](frame, size, previous, in_motion=in_motion)
        seconds = now() - start
        self.seconds["detection"] += seconds
        if previous is not None and self._tracked is None:
            kind = "with previous (path unknown)"
        elif self._tracked:
            kind = "tracked"
        else:
            # Cold: no previous face, or tracking lost it and the whole frame was searched.
            kind = "cold, found" if found is not None else "cold, none"
            kind += " (track lost" if self._tracked is False else " (no previous"
            kind += ", in motion)" if in_motion else ")"
        self.calls.append((kind, seconds))
        return found


def real_frames(width: int, height: int, hold: int) -> list[np.ndarray]:
    photos = [cv2.imread(str(p)) for p in sorted(CUBE.glob("*.png"))]
    if not photos:
        raise SystemExit(f"the real source needs the photos at {CUBE}")
    frames = [cv2.resize(p, (width, height), interpolation=cv2.INTER_AREA) for p in photos]
    return [frame for frame in frames for _ in range(hold)]


def video_frames(width: int, height: int, hold: int) -> list[np.ndarray]:
    facelets, _ = scramble(np.random.default_rng(1), 3)
    video = render_scan_video(
        colors_of_facelets(facelets), seed=1, resolution=(width, height), hold_frames=hold
    )
    return list(video.frames)


def scan_once(
    frames: list[np.ndarray], clocks: Clocks, keep_names: bool = True
) -> dict[str, float]:
    """One scan over ``frames``, as ``cubescan scan`` runs it; its figures.

    With ``keep_names`` False every face is named afresh (the peer of keeping the names of
    a face that reads as before).

    Keys ending in ``wall`` and ``cpu`` are measured on the two clocks of :func:`now`.
    """
    clocks.reset()
    session = ScanSession()
    session.start()
    live = LiveObserver(keep_names=keep_names)
    frame_seconds, finish, observed = [], np.zeros(2), 0
    for frame in frames:
        start = now()
        seen = live.observe(frame, session.size)
        between = now()
        events = session.feed(seen[0] if seen else None)
        end = now()
        observed += seen is not None
        clocks.seconds["observe"] += between - start
        if any(event.kind == "done" for event in events):
            finish = end - between
        else:
            clocks.seconds["session"] += end - between
        frame_seconds.append(end - start)
    count = len(frames)
    total = np.sum(frame_seconds, axis=0)
    seconds = clocks.seconds
    stages = ("detection", "sampling", "naming")
    seconds["other"] = seconds["observe"] - sum(seconds[stage] for stage in stages)
    seconds["finish"] = finish
    figures = {
        "done": float(session.report is not None),
        "observed": observed / count,
        "named": clocks.counts["naming"] / count,
    }
    for index, clock in enumerate(("wall", "cpu")):
        figures[f"fps {clock}"] = count / total[index]
        figures[f"fps_steady {clock}"] = (count - (finish[index] > 0)) / (
            total[index] - finish[index]
        )
        figures[f"frame_ms {clock}"] = 1000 * statistics.median(s[index] for s in frame_seconds)
        figures[f"finish_once_ms {clock}"] = 1000 * finish[index]
        for stage in (*stages, "other", "session", "finish"):
            figures[f"{stage}_ms {clock}"] = 1000 * seconds[stage][index] / count
    kinds = defaultdict(list)
    for kind, call_seconds in clocks.calls:
        kinds[kind].append(call_seconds)
    figures["cold_share"] = sum(len(c) for k, c in kinds.items() if k.startswith("cold")) / count
    for kind, calls in kinds.items():
        figures[f"calls {kind}"] = len(calls)
        for index, clock in enumerate(("wall", "cpu")):
            figures[f"each_ms {kind} {clock}"] = 1000 * statistics.median(c[index] for c in calls)
            figures[f"per_frame_ms {kind} {clock}"] = 1000 * sum(c[index] for c in calls) / count
    return figures


def empty_frames(width: int, height: int, hold: int) -> list[np.ndarray]:
    rng = np.random.default_rng(1)
    scene = render_clutter(rng, (width, height)).astype(float)
    noisy = [scene + rng.normal(0, 2, scene.shape) for _ in range(6 * hold)]
    return [np.clip(frame, 0, 255).astype(np.uint8) for frame in noisy]


def median_figures(runs: list[dict[str, float]]) -> dict[str, float]:
    keys = dict.fromkeys(key for run in runs for key in run)
    return {key: statistics.median(run.get(key, 0.0) for run in runs) for key in keys}


def report(source: str, width: int, height: int, frames: int, f: dict, repeats: int) -> None:
    print(f"{source} {width}x{height}: {frames} frames per scan, median of {repeats} scans")
    for clock in ("cpu", "wall"):
        verdict = "meets" if f[f"fps {clock}"] >= TARGET_FPS else "BELOW"
        print(
            f"  {clock:4s}: {f[f'fps {clock}']:6.1f} frames/s with the finish, "
            f"{f[f'fps_steady {clock}']:6.1f} without ({verdict} the {TARGET_FPS:.0f} fps target); "
            f"median frame {f[f'frame_ms {clock}']:.2f} ms; finish once "
            f"{f[f'finish_once_ms {clock}']:.0f} ms{'' if f['done'] else ' (scan NOT finished)'}"
        )
        print(
            "        ms per frame: "
            + ", ".join(
                f"{stage} {f[f'{stage}_ms {clock}']:.2f}"
                for stage in ("detection", "sampling", "naming", "other", "session", "finish")
            )
        )
    print(
        f"  face seen in {f['observed']:.0%} of frames, named afresh in {f['named']:.0%}; "
        f"cold (untracked) detection in {f['cold_share']:.0%} of frames"
    )
    for key in sorted(k for k in f if k.startswith("calls ")):
        kind = key[len("calls ") :]
        print(
            f"    detect {kind:28s} {f[key]:4.0f} calls; ms each (median) "
            f"cpu {f[f'each_ms {kind} cpu']:6.2f} wall {f[f'each_ms {kind} wall']:6.2f}; "
            f"ms per frame of the scan cpu {f[f'per_frame_ms {kind} cpu']:5.2f} "
            f"wall {f[f'per_frame_ms {kind} wall']:5.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--hold", type=int, default=10, help="frames each face is held")
    sources = {"real": real_frames, "video": video_frames, "empty": empty_frames}
    parser.add_argument("--source", nargs="+", choices=tuple(sources), default=list(sources))
    parser.add_argument("--resolution", nargs="+", default=["640x480", "1280x720"])
    parser.add_argument(
        "--name-every-frame", action="store_true", help="the peer: never keep a face's names"
    )
    add_record_argument(parser)
    args = parser.parse_args()
    start_recording(args.record)
    cv2.setNumThreads(1)
    clocks = Clocks()
    clocks.install()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for source in args.source:
        for resolution in args.resolution:
            width, height = (int(x) for x in resolution.split("x"))
            frames = sources[source](width, height, args.hold)
            keep = not args.name_every_frame
            scan_once(frames, clocks, keep)  # warm-up: caches, lazy imports, compiled code
            runs = [scan_once(frames, clocks, keep) for _ in range(args.repeats)]
            report(source, width, height, len(frames), median_figures(runs), args.repeats)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
