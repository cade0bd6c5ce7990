"""`cubescan scan --headless`: frame folders and video files play like a camera."""

from __future__ import annotations

import json
import subprocess
import sys

import cv2
import numpy as np
import pytest
from click.testing import CliRunner
from cube_equivalence import same_cube

from scanner.cli import main
from scanner.cli_scan import compose_view
from scanner.session import ScanSession


def tracker_frames(realdata, cube: dict) -> list[np.ndarray]:
    """The six face photos at webcam size, each held for 7 frames, with the cube turned
    (an empty view) for 2 frames in between, in an order a person might use."""
    blank = np.full((360, 640, 3), 30, np.uint8)
    frames = []
    for face in "FRUBLD":
        image = cv2.imread(str(realdata / cube["faces"][face]))
        image = cv2.resize(image, (640, 360), interpolation=cv2.INTER_AREA)
        frames += [image] * 7 + [blank] * 2
    return frames


@pytest.fixture(scope="module")
def cube3(real_cubes):
    return next(c for c in real_cubes if "tracker" in c["source"] and c["size"] == 3)


def events_of(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def test_frame_folder_session_ends_with_the_cube(realdata, cube3, tmp_path, table_cache):
    for number, frame in enumerate(tracker_frames(realdata, cube3)):
        cv2.imwrite(str(tmp_path / f"{number:04d}.png"), frame)
    result = CliRunner().invoke(main, ["scan", "--headless", "--frames", str(tmp_path)])
    assert result.exit_code == 0, result.output
    events = events_of(result.output)
    assert sum(e["event"] == "face-captured" for e in events) == 6
    done = events[-1]
    assert done["event"] == "done" and done["valid"] is True
    assert same_cube(done["facelets"], cube3["facelets"]) and done["solution"]


def test_a_video_file_gives_the_same_events(realdata, cube3, tmp_path, table_cache):
    frames = tracker_frames(realdata, cube3)
    video = tmp_path / "cube.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 30, (640, 360))
    for frame in frames:
        writer.write(frame)
    writer.release()
    result = CliRunner().invoke(main, ["scan", "--headless", "--video", str(video)])
    assert result.exit_code == 0, result.output
    captured = [e["frame"] for e in events_of(result.output) if e["event"] == "face-captured"]
    assert len(captured) == 6


def test_a_session_cut_short_is_saved_and_resumed(realdata, cube3, tmp_path, table_cache):
    frames = tracker_frames(realdata, cube3)
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    for number, frame in enumerate(frames):
        folder = first if number < 4 * 9 else second
        cv2.imwrite(str(folder / f"{number:04d}.png"), frame)
    saved = tmp_path / "session.json"
    cut = CliRunner().invoke(
        main, ["scan", "--headless", "--frames", str(first), "--save", str(saved)]
    )
    assert cut.exit_code == 2 and "4 of 6 faces" in cut.output
    resumed = CliRunner().invoke(
        main, ["scan", "--headless", "--frames", str(second), "--resume", str(saved)]
    )
    assert resumed.exit_code == 0, resumed.output
    assert events_of(resumed.output)[-1]["event"] == "done"


def test_missing_camera_and_window_are_clear_errors():
    proc = subprocess.run(
        [sys.executable, "-m", "scanner", "scan", "--headless", "--camera", "57"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2 and "camera 57 could not be opened" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_the_window_picture_shows_the_frame_and_a_panel():
    frame = np.full((360, 640, 3), 80, np.uint8)
    view = compose_view(frame, ScanSession(), None, "show any face of the cube")
    assert view.shape[0] == 360 and view.shape[1] > 640
    assert (view[:, :640] == 80).all() and view[:, 640:].std() > 0
