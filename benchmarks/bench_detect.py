"""Speed of ``cubescan.scanner.grid.detect_grid``: median milliseconds per frame, single thread.

Frames are rendered N x N scenes (seeded) at 640x480 and 1920x1080; each frame is detected
``--repeat`` times and the median over all runs is printed, with the detection rate. The
cold cost of a frame with no cube in view (rendered clutter: boards, tiles, keyboards),
which a live session pays on every frame until a cube shows up, is measured the same way.
So is the tracking path (``previous``: a crop around the last frame's face is searched
first) on each frame that gave a face, given its own detection: the cost of a face held
still in a video (``bench_session.py`` measures it on faces that move between frames).

The peer the issue names, a contour-based 3x3 scanner (:mod:`peer_contour`), runs on the
same frames: its milliseconds (beside ours, cold and tracking, timed alternating with it),
and how many faces each finds right (all nine sticker
centres within a quarter of a pitch of the truth, in any order), on the frames above and
on frames drawn inside the peer's own window (a stickered or stickerless face turned at
most 10 degrees, neither blurred nor occluded, its stickers 30-60 px wide at 640x480).

Both wall time (``time.perf_counter``) and this process's CPU time (``time.process_time``)
are given: on a shared machine the wall time includes waiting for a core, the CPU time
does not. Neither is free of the other processes' use of the caches and memory bus; the
last figure, the median over frames of each frame's fastest run (CPU time), is the one
least moved by them (as ``timeit`` takes the fastest of its repeats).

Example: ``python benchmarks/bench_detect.py --frames 40 --repeat 5``
"""

from __future__ import annotations

import argparse
import time

import cv2
import numpy as np
from peer_contour import contour_face, same_stickers
from record import add_record_argument, start_recording

from cubescan.scanner.grid import FaceDetection, detect_grid
from cubescan.synth.scenes import render_clutter, render_scene
from cubescan.synth.specs import SceneTruth, random_scene_spec

# Scenes inside the peer's window at 640x480: three stickers of 30-60 px make a face of a
# fifth to three eighths of the frame's height.
PEER_WINDOW = {"hard": False, "max_tilt_deg": 10.0, "scale_range": (0.2, 0.36)}


def _timed(
    frames: list[np.ndarray], repeat: int, previous: list[FaceDetection] | None = None
) -> tuple[np.ndarray, np.ndarray, list[FaceDetection | None]]:
    """Wall and CPU seconds of every run (frames x repeats), and each frame's detection;
    with ``previous`` (one per frame), the tracking path's."""
    wall, cpu = np.zeros((len(frames), repeat)), np.zeros((len(frames), repeat))
    found = []
    for index, image in enumerate(frames):
        last = previous[index] if previous is not None else None
        found.append(detect_grid(image, previous=last))  # also warms caches up
        for run in range(repeat):
            start_wall, start_cpu = time.perf_counter(), time.process_time()
            detect_grid(image, previous=last)
            cpu[index, run] = time.process_time() - start_cpu
            wall[index, run] = time.perf_counter() - start_wall
    return wall, cpu, found


def _report(
    label: str, wall: np.ndarray, cpu: np.ndarray, found: list[FaceDetection | None]
) -> None:
    print(
        f"{label}: median {1000 * np.median(wall):.1f} ms wall"
        f" (p90 {1000 * np.percentile(wall, 90):.1f}),"
        f" {1000 * np.median(cpu):.1f} ms CPU (p90 {1000 * np.percentile(cpu, 90):.1f}),"
        f" fastest of each frame's runs {1000 * np.median(cpu.min(axis=1)):.1f} ms CPU,"
        f" found {sum(face is not None for face in found)}/{len(found)}"
    )


def _against_the_peer(
    label: str, frames: list[np.ndarray], truths: list[SceneTruth], repeat: int
) -> None:
    """Both detectors' median CPU milliseconds on ``frames``, and the faces each finds right;
    ours also tracking (given its own face in the frame, as in a video of a face held
    still), on the frames where it found one.

    Ours is timed again here, alternating with the peer frame by frame, so that both see
    the machine in the same state (its speed drifts between runs by a third)."""
    ours, peer = np.zeros((len(frames), repeat)), np.zeros((len(frames), repeat))
    tracked = np.full((len(frames), repeat), np.nan)
    ours_right = peer_right = 0
    for index, (image, truth) in enumerate(zip(frames, truths, strict=True)):
        true_centers = truth.centers[truth.front_face]
        face, centers = detect_grid(image), contour_face(image)
        ours_right += face is not None and same_stickers(face.centers, true_centers, 0.25)
        peer_right += centers is not None and same_stickers(centers, true_centers, 0.25)
        for run in range(repeat):
            start = time.process_time()
            detect_grid(image)
            ours[index, run] = time.process_time() - start
            if face is not None:
                start = time.process_time()
                detect_grid(image, previous=face)
                tracked[index, run] = time.process_time() - start
            start = time.process_time()
            contour_face(image)
            peer[index, run] = time.process_time() - start
    print(
        f"{label}: peer {1000 * np.median(peer):.1f} ms CPU, {peer_right}/{len(frames)} right;"
        f" ours {1000 * np.median(ours):.1f} ms CPU, {ours_right}/{len(frames)} right;"
        f" ours / peer {np.median(ours) / np.median(peer):.2f}; ours tracked"
        f" {1000 * np.nanmedian(tracked):.1f} ms CPU, / peer"
        f" {np.nanmedian(tracked) / np.median(peer):.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--size", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--no-face-frames", type=int, default=20, help="clutter frames per resolution (0: skip)"
    )
    parser.add_argument("--no-peer", action="store_true", help="skip the contour-based peer")
    add_record_argument(parser)
    args = parser.parse_args()
    start_recording(args.record)
    cv2.setNumThreads(1)
    for resolution in ((640, 480), (1920, 1080)):
        rng = np.random.default_rng(args.seed)
        scenes = [
            render_scene(random_scene_spec(rng, args.size, resolution=resolution))
            for _ in range(args.frames)
        ]
        frames = [image for image, _ in scenes]
        label = f"{resolution[0]}x{resolution[1]} N={args.size}"
        wall, cpu, found = _timed(frames, args.repeat)
        _report(label, wall, cpu, found)
        if not args.no_peer and args.size == 3:
            _against_the_peer(f"{label} against the peer", frames, [t for _, t in scenes], 3)
        faces = [
            (frame, face) for frame, face in zip(frames, found, strict=True) if face is not None
        ]
        wall, cpu, tracked = _timed([f for f, _ in faces], args.repeat, [d for _, d in faces])
        _report(f"{label} tracked", wall, cpu, tracked)
        if args.no_face_frames > 0:
            rng = np.random.default_rng(args.seed + 1)
            clutter = [render_clutter(rng, resolution) for _ in range(args.no_face_frames)]
            wall, cpu, found = _timed(clutter, args.repeat)
            _report(f"{resolution[0]}x{resolution[1]} no face", wall, cpu, found)
    if not args.no_peer and args.size == 3:
        rng = np.random.default_rng(args.seed)
        scenes = [
            render_scene(random_scene_spec(rng, 3, resolution=(640, 480), **PEER_WINDOW))
            for _ in range(args.frames)
        ]
        _against_the_peer(
            "640x480 N=3 in the peer's window", [i for i, _ in scenes], [t for _, t in scenes], 3
        )


if __name__ == "__main__":
    main()
