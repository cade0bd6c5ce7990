"""`cubescan scan --headless`: frame folders and video files play like a camera."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from dataclasses import replace

import cv2
import numpy as np
import pytest
from click.testing import CliRunner
from cube_equivalence import same_cube
from session_views import show, views

from cubescan.calibration.profile import load_profile
from cubescan.scanner.cli import main
from cubescan.scanner.cli.scan import WindowState, calibrate_from_session, compose_view
from cubescan.scanner.pipeline.session import ScanSession, SessionEvent
from cubescan.solver.cubie import random_state
from cubescan.solver.moves import apply_moves, parse_moves, solved_facelets
from cubescan.synth.corners import random_corner_spec, render_corner_view
from cubescan.synth.video import colors_of_facelets, write_frames


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
    # The verdict, then (under this rig's lamp) a request to look at unsure faces again.
    done = next(e for e in reversed(events) if e["event"] == "done")
    assert events[-1] is done or events[-1]["event"] == "look-again"
    assert done["valid"] is True
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
    # The last two faces are captured, then the verdict (after it, at most a request to
    # look at unsure faces again).
    events = events_of(resumed.output)
    assert sum(e["event"] == "face-captured" for e in events) == 2
    done = next(e for e in reversed(events) if e["event"] == "done")
    assert events[-1] is done or events[-1]["event"] == "look-again"
    assert done["valid"] is True and same_cube(done["facelets"], cube3["facelets"])


def test_missing_camera_and_window_are_clear_errors():
    proc = subprocess.run(
        [sys.executable, "-m", "cubescan", "scan", "--headless", "--camera", "57"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2 and "camera 57 could not be opened" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_the_window_picture_shows_the_frame_and_a_panel():
    frame = np.full((360, 640, 3), 80, np.uint8)
    view = compose_view(frame, ScanSession(), None, "show any face of the cube")
    assert view.shape[0] == 480 and view.shape[1] > 640  # short frames are padded below
    assert (view[:360, :640] == 80).all() and view[:, 640:].std() > 0


def finished_session(seed: int) -> ScanSession:
    rng = np.random.default_rng(seed)
    session = ScanSession(stable_frames=2)
    for view in views(random_state(rng), rng):
        show(session, view, 3)
    assert session.report is not None
    return session


def test_the_finished_view_shows_the_verdict_and_steps_through_the_solution(table_cache):
    session = finished_session(6)
    frame = np.full((480, 640, 3), 80, np.uint8)
    state = WindowState("all six faces read: solvable")
    first = compose_view(frame, session, None, state)
    state.step = 1
    second = compose_view(frame, session, None, state)
    panel_first, panel_second = first[:, 640:], second[:, 640:]
    # The net is the whole cube now: every sticker in a cube colour, none grey.
    net = panel_first[30:200]
    assert (np.abs(net.astype(int) - (90, 90, 90)).sum(axis=-1) < 10).sum() == 0
    # Moving to the next move moves the highlight: only the solution area changes.
    changed = np.nonzero((panel_first != panel_second).any(axis=(1, 2)))[0]
    assert changed.size and changed.min() > 250


def test_a_big_cubes_long_solution_keeps_the_next_move_in_view(table_cache):
    # A 7x7's solution runs to hundreds of moves: deep into it, stepping on still moves
    # the highlight inside the panel's solution area.
    session = finished_session(6)
    session.report = replace(session.report, solution=tuple(parse_moves("R 2U' 3Fw2") * 200))
    frame = np.full((480, 640, 3), 80, np.uint8)
    state = WindowState("all six faces read: solvable")
    panels = []
    for step in (450, 451):
        state.step = step
        panels.append(compose_view(frame, session, None, state)[:, 640:])
    changed = np.nonzero((panels[0] != panels[1]).any(axis=(1, 2)))[0]
    # Below the line saying which move is next: the highlighted move itself.
    assert changed.size and changed.max() > changed.min() + 30


def test_window_state_keeps_a_conflict_visible_with_the_next_step():
    state = WindowState("show any face")
    state.update([])
    assert state.message == "show any face"
    session = ScanSession(stable_frames=1)
    rng = np.random.default_rng(8)
    faces = views(random_state(rng), rng)
    show(session, faces[0], 1)
    show(session, faces[1], 1)
    events = []
    for _ in range(2):
        events += session.feed(faces[0])
    state.update(events)
    assert state.alert and "shown twice" in state.message and "; show " in state.message


def test_window_state_shows_the_verdict_over_a_conflict_of_the_sixth_face():
    state = WindowState("show any face")
    state.update(
        [
            SessionEvent("face-captured", "captured the blue-centred face (6 of 6)", "B"),
            SessionEvent("conflict", "with the blue-centred face, these pieces cannot exist"),
            SessionEvent("done", "all six faces read: not solvable: a corner is twisted"),
        ]
    )
    assert state.message.startswith("all six faces read") and not state.alert


def test_calibrate_from_a_scanned_cube(tmp_path, table_cache):
    assert calibrate_from_session(ScanSession(), "cam", tmp_path).startswith("cannot calibrate")
    session = finished_session(9)
    note = calibrate_from_session(session, "cam", tmp_path)
    assert "learned colour profile 'cam'" in note
    profile = load_profile("cam", tmp_path)
    report = session.report
    for name, mean in zip(profile.names, profile.means, strict=True):
        face = next(f for f, info in report.colors.items() if info.name == name)
        # The learned mean is the mean of exactly the stickers the report put on that face.
        assert np.allclose(mean, report.colors[face].lab, atol=1.0)


def corner_frames(facelets: str, seed: int) -> list[np.ndarray]:
    """The cube held still by one corner for 8 frames, turned (an empty view, 3 frames),
    then held by the opposite corner: each face is in view in one of the two holdings."""
    rng = np.random.default_rng(seed)
    size = round((len(facelets) // 6) ** 0.5)
    corner = rng.choice([-1, 1], 3)
    frames = []
    for signs in (corner, -corner):
        spec = random_corner_spec(
            rng, size, faces=3, resolution=(640, 480), corner=tuple(int(v) for v in signs)
        )
        image, _ = render_corner_view(replace(spec, colors=colors_of_facelets(facelets)))
        frames += [image] * 8 + [np.full_like(image, 30)] * 3
    return frames


@pytest.mark.parametrize(("size", "seed"), [(3, 1), (3, 2), (3, 4), (4, 4)])
def test_two_corners_held_capture_all_six_faces(size, seed, tmp_path, table_cache):
    truth = apply_moves(solved_facelets(size), "R U F' D2 L")
    write_frames(corner_frames(truth, seed), tmp_path)
    result = CliRunner().invoke(main, ["scan", "--headless", "--frames", str(tmp_path)])
    assert result.exit_code == 0, result.output
    events = events_of(result.output)
    captured = [e for e in events if e["event"] == "face-captured"]
    # Three faces at each holding, on the frame the held face is captured on: the held
    # face first, then the two beside it.
    frames = Counter(e["frame"] for e in captured)
    assert sorted(frames.values()) == [3, 3] and min(frames) <= 8 < 11 < max(frames)
    assert ["beside it" in e["message"] for e in captured] == [False, True, True] * 2
    assert not [e for e in events if e["event"] == "conflict"]
    done = next(e for e in reversed(events) if e["event"] == "done")
    assert events[-1] is done or events[-1]["event"] == "look-again"
    assert done["valid"] is True and same_cube(done["facelets"], truth) and done["solution"]
