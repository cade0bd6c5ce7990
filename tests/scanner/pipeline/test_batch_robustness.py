"""`cubescan batch` on rendered cubes and broken folders, killed midway and resumed.

Cube folders of six rendered face photos each (50 in the slow version, as the issue asks;
12 by default, to stay fast on a shared 2-core machine), every photo with its own pose,
light and in-picture rotation (the project's renderer); half the folders name the photos
by face, half give them shuffled under neutral names. Beside them five broken folders: a
missing face, a damaged PNG, an empty folder, a text file posing as a photo, and a PNG
whose header claims 30000 x 30000 pixels. The batch runs as its own process (two
workers), is killed with SIGKILL once some results are on disk, and is run again with
--resume.

The invariant does not depend on how many faces the detector finds: every cube is
reported exactly once, each good cube with a verdict or a ``no-face`` error that names
the photo, each broken one with its own specific error. How many came out as the exact
rendered cube is printed (run with ``-s`` to see it).
"""

from __future__ import annotations

import csv
import os
import signal
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from cubescan.scanner.pipeline.batch import read_rows
from cubescan.solver.cubie import random_state
from cubescan.solver.fixes import apply_fix, twist_corner_fix
from cubescan.solver.geometry import FACES
from cubescan.synth.scenes import render_scene
from cubescan.synth.specs import STANDARD_SCHEME, cube_photo_specs

ROOT = Path(__file__).resolve().parents[3]
RESOLUTION = (480, 360)

# Broken folder -> (error code, words the one-line reason must contain).
BROKEN = {
    "broken-missing-face": ("missing-face", "found 5"),
    "broken-corrupt-file": ("bad-image", "F.png is a PNG file cut off"),
    "broken-empty-folder": ("missing-face", "found 0"),
    "broken-non-image": ("bad-image", "R.png is not an image: it holds text"),
    "broken-huge-header": ("bad-image", "30000x30000"),
}


def render_cube(facelets: str, rng: np.random.Generator) -> list[np.ndarray]:
    """Six photos of one cube, one face each in URFDLB order, each posed and lit on its own."""
    colors = "".join(STANDARD_SCHEME[f] for f in facelets)
    specs = cube_photo_specs(rng, colors, RESOLUTION, max_tilt_deg=25, scale_range=(0.45, 0.8))
    return [render_scene(spec)[0] for spec in specs]


def png_claiming(width: int, height: int) -> bytes:
    """A small PNG file whose header declares ``width`` x ``height`` pixels."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        checksum = struct.pack(">I", zlib.crc32(kind + data))
        return struct.pack(">I", len(data)) + kind + data + checksum

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00" + b"\x80" * 30)
    chunks = chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + chunks


def write_good_cube(folder: Path, photos: list[np.ndarray], rng: np.random.Generator, named: bool):
    folder.mkdir(parents=True)
    if named:
        for face, photo in zip(FACES, photos, strict=True):
            cv2.imwrite(str(folder / f"cube_{face}.png"), photo)
    else:
        for number, index in enumerate(rng.permutation(6)):
            cv2.imwrite(str(folder / f"IMG_{number:04d}.jpg"), photos[index])


def write_broken(root: Path, photos: list[np.ndarray]) -> None:
    """The five broken folders, made from one good cube's photos."""
    for name in BROKEN:
        (root / name).mkdir()
    for face, photo in zip(FACES[:5], photos, strict=False):
        cv2.imwrite(str(root / "broken-missing-face" / f"{face}.png"), photo)
    for folder in ("broken-corrupt-file", "broken-non-image", "broken-huge-header"):
        for face, photo in zip(FACES, photos, strict=True):
            cv2.imwrite(str(root / folder / f"{face}.png"), photo)
    damaged = root / "broken-corrupt-file" / "F.png"
    data = damaged.read_bytes()
    damaged.write_bytes(data[: len(data) // 2])  # cut off, as by an interrupted copy
    (root / "broken-non-image" / "R.png").write_text("U: white, R: red, F: green\n")
    (root / "broken-huge-header" / "D.png").write_bytes(png_claiming(30000, 30000))


@pytest.fixture(
    scope="module", params=[12, pytest.param(50, marks=pytest.mark.slow)], ids=lambda n: f"{n}cubes"
)
def batch_root(request, tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """The batch folder and the true facelets of each good cube."""
    root = tmp_path_factory.mktemp("robust") / "cubes"
    root.mkdir()
    rng = np.random.default_rng(2024)
    truth = {}
    for number in range(request.param):
        facelets = random_state(rng)
        if number % 10 == 9:  # some reassembled cubes: a verdict of "not solvable"
            facelets = apply_fix(facelets, twist_corner_fix(3, int(rng.integers(8)), 1))
        name = f"cube{number:03d}"
        truth[name] = facelets
        write_good_cube(root / name, render_cube(facelets, rng), rng, named=number % 2 == 0)
    write_broken(root, render_cube(random_state(rng), rng))
    return root, truth


def batch_command(root: Path, out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "cubescan", "batch", str(root), "--out", str(out), *extra]


def test_killed_batch_resumes_with_every_cube_reported_exactly_once(
    batch_root, tmp_path, table_cache
):
    root, truth = batch_root
    out = tmp_path / "report"
    env = {**os.environ, "CUBESCAN_CACHE_DIR": table_cache}
    # Its own process group, so that SIGKILL takes the batch and its workers together.
    first = subprocess.Popen(
        batch_command(root, out, "--jobs", "2"),
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    total = len(truth) + len(BROKEN)
    kill_after = max(4, total // 7)
    deadline = time.time() + 300
    while time.time() < deadline and len(read_rows(out / "report.jsonl")) < kill_after:
        assert first.poll() is None, "the batch ended before it could be killed"
        time.sleep(0.05)
    os.killpg(first.pid, signal.SIGKILL)
    first.wait()
    before = read_rows(out / "report.jsonl")
    assert kill_after <= len(before) < total, "the kill must land midway"

    second = subprocess.run(
        batch_command(root, out, "--jobs", "2", "--resume"),
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    # The broken folders are error rows in the report, whichever run wrote them.
    assert second.returncode == 1, second.stderr
    said = " ".join(second.stderr.split())  # rich wraps long lines
    assert "Traceback" not in said
    assert f"{total - len(before)} cubes checked, {len(before)} already done" in said

    rows = read_rows(out / "report.jsonl")
    names = [row["cube"] for row in rows]
    assert len(names) == len(set(names)) == total
    assert set(names) == set(truth) | set(BROKEN)
    by_name = {row["cube"]: row for row in rows}
    for name, (code, words) in BROKEN.items():
        row = by_name[name]
        assert (row["status"], row["code"]) == ("error", code), row
        assert words in row["error"] and "Traceback" not in row["error"]
    right = 0
    for name, facelets in truth.items():
        row = by_name[name]
        if row["status"] == "error":
            # A face the detector missed: a clear error that names the photo.
            assert row["code"] == "no-face", row
            assert str(root / name) in row["error"] or "any of the photos" in row["error"]
            continue
        assert len(row["facelets"]) == 54 and isinstance(row["valid"], bool)
        assert sorted(photo["face"] for photo in row["photos"]) == sorted(FACES)
        right += row["facelets"] == facelets
    with open(out / "report.csv", newline="", encoding="utf-8") as handle:
        assert sorted(r["cube"] for r in csv.DictReader(handle)) == sorted(names)
    page = (out / "report.html").read_text(encoding="utf-8")
    assert all(name in page for name in names)
    reported = sum(by_name[name]["status"] == "ok" for name in truth)
    assert f"in the report {total - reported} unreadable" in said
    print(f"\n{right} of {len(truth)} rendered cubes read exactly; {reported} with a verdict")
