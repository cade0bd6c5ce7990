"""A cube from a clip that turns it around: frames read, faces told apart, key frames read."""

from __future__ import annotations

import json
from functools import cache

import numpy as np
import pytest
from click.testing import CliRunner

from cubescan.errors import BadInputError
from cubescan.scanner.cli import main
from cubescan.scanner.pipeline import clip as clip_module
from cubescan.scanner.pipeline.clip import (
    check_clip,
    face_groups,
    key_frames,
    look_distances,
    read_clip_faces,
)
from cubescan.scanner.pipeline.views import PhotoFaces
from cubescan.solver.moves import same_cube
from cubescan.synth.specs import scramble
from cubescan.synth.turning import TurningVideo, render_turning_video
from cubescan.synth.video import write_frames, write_video


@cache
def clip_of(size: int, seed: int, frames: int = 24, turn_deg: float = 360.0) -> TurningVideo:
    facelets = scramble(np.random.default_rng(1000 * size + seed), size)[0]
    return render_turning_video(facelets, seed=seed, frames=frames, turn_deg=turn_deg)


@pytest.mark.parametrize("size", [2, 3, 4, 5, 6, 7])
def test_a_clip_turning_the_cube_once_around_gives_the_exact_cube(size):
    clip = clip_of(size, 0)
    photos, read = read_clip_faces(clip.frames, fps=10.0)
    assert read == len(clip.frames)
    report = check_clip(photos, solve=False, frames_read=read)
    assert report.views.cube.valid and same_cube(report.views.cube.facelets, clip.facelets)
    assert report.views.conflicts == ()
    assert {placement.face for placement in report.views.faces} == set("URFDLB")
    assert report.frames_read == read and report.looks >= 6
    # The faces are placed by their joins and pieces, not by the order the clip shows them.
    backwards = check_clip(photos[::-1], solve=False)
    assert same_cube(backwards.views.cube.facelets, clip.facelets)


def test_two_faces_of_one_photo_are_never_one_look():
    grey = np.full((4, 3), [50.0, 0.0, 0.0])
    photos = [PhotoFaces("a", 2, (grey, grey + 1), ()), PhotoFaces("b", 2, (grey,), ())]
    groups = face_groups(photos)
    assert groups[0][0] != groups[0][1]
    assert groups[1][0] in groups[0]


def test_two_2x2_faces_differing_in_one_sticker_are_two_looks():
    red, white = [50.0, 70.0, 50.0], [95.0, 0.0, 0.0]
    a = np.array([red, red, red, white])
    b = np.array([red, red, red, red])
    assert look_distances(np.stack([a, b]), 2)[0, 1] > 15
    photos = [PhotoFaces("a", 2, (a,), ()), PhotoFaces("b", 2, (b,), ())]
    assert face_groups(photos) == [[0], [1]]


def test_in_dim_light_faces_nearer_each_other_stay_apart():
    # Every colour dark: two faces of one frame differ by about 20, a face from itself by 1.
    rng = np.random.default_rng(0)
    dark = [rng.uniform(0, 22, (9, 3)) for _ in range(3)]
    photos = [
        PhotoFaces("frame 1", 3, (dark[0], dark[1]), ()),
        PhotoFaces("frame 2", 3, (dark[1] + 1, dark[2]), ()),
        PhotoFaces("frame 3", 3, (dark[2] + 1, dark[0] + 1), ()),
    ]
    distances = look_distances(np.stack(dark), 3)
    assert distances[np.triu_indices(3, 1)].min() < 15  # a fixed 15 would join two faces
    assert face_groups(photos) == [[0, 1], [1, 2], [2, 0]]


def test_key_frames_show_every_look_with_as_few_frames_as_may_be():
    lab = np.zeros((9, 3))

    def photo(name: str, faces: int, width: float, predicted=()) -> PhotoFaces:
        return PhotoFaces(name, 3, (lab,) * faces, (), (width,) * faces, predicted)

    photos = [photo("a", 3, 20), photo("b", 2, 30), photo("c", 3, 25), photo("d", 3, 22)]
    groups = [[0, 1, 2], [2, 3], [3, 4, 5], [1, 4, 5]]
    choices = key_frames(photos, groups)
    assert choices[0] == [0, 2]  # two opposite corners, the wider first
    assert all(set().union(*(groups[p] for p in choice)) == set(range(6)) for choice in choices)
    # A face placed at a corner, not found, does not count as shown.
    photos[2] = photo("c", 3, 25, (False, False, True))
    assert [0, 2] not in key_frames(photos, groups)


def test_a_clip_that_shows_some_faces_only_is_refused_saying_how_many():
    clip = clip_of(3, 2, frames=8, turn_deg=45.0)
    photos, _ = read_clip_faces(clip.frames, fps=10.0)
    with pytest.raises(BadInputError, match=r"show [345] different faces") as error:
        check_clip(photos)
    assert error.value.code == "missing-faces"


def test_frames_without_a_cube_are_read_and_counted_but_give_no_faces():
    frames = [np.full((120, 160, 3), 40, np.uint8)] * 9
    assert read_clip_faces(frames, fps=30.0) == ([], 3)
    with pytest.raises(BadInputError, match="no cube face found in any frame"):
        check_clip([])


def test_check_video_reads_the_cube_from_a_clip_file(tmp_path, table_cache):
    clip = clip_of(3, 0)
    path = write_video(clip.frames, tmp_path / "turn.avi", fps=10.0)
    result = CliRunner().invoke(main, ["check", "--video", str(path), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output[result.output.index("{") :])
    assert report["valid"] and same_cube(report["facelets"], clip.facelets)
    assert report["clip"]["frames_read"] == len(clip.frames)
    assert all(photo["source"].startswith("frame ") for photo in report["photos"])
    text = CliRunner().invoke(main, ["check", "--video", str(path)])
    assert text.exit_code == 0 and "frames of the clip" in text.output


def test_check_video_plays_a_folder_of_frames_as_a_clip(tmp_path, table_cache):
    clip = clip_of(3, 0)
    write_frames(clip.frames, tmp_path / "frames")
    result = CliRunner().invoke(main, ["check", "--video", str(tmp_path / "frames"), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output[result.output.index("{") :])
    assert report["valid"] and same_cube(report["facelets"], clip.facelets)
    # A folder plays at 30 frames a second: every third frame is read.
    assert report["clip"]["frames_read"] == len(clip.frames) // 3


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["check", "--video", "missing.mp4"], "does not exist"),
        (["check"], "give the photos"),
        (["check", "a.png", "--video", "b.mp4"], "give the photos"),
    ],
)
def test_check_video_refuses_a_bad_clip_with_status_2(tmp_path, arguments, message):
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 2 and message in result.output
    assert "Traceback" not in result.output


def test_faces_are_compared_in_blocks_as_they_would_be_at_once(monkeypatch):
    rng = np.random.default_rng(3)
    lab = rng.uniform(0, 90, (7, 9, 3))
    whole = look_distances(lab, 3)
    monkeypatch.setattr(clip_module, "LOOK_BLOCK", 20)  # two faces' stickers at a time
    assert np.array_equal(look_distances(lab, 3), whole)


def test_a_long_clip_is_read_from_evenly_spaced_frames(monkeypatch):
    clip = clip_of(3, 0)
    photos, read = read_clip_faces(clip.frames, fps=10.0)
    monkeypatch.setattr(clip_module, "MAX_CLIP_PHOTOS", 12)
    report = check_clip(photos, solve=False, frames_read=read)
    assert same_cube(report.views.cube.facelets, clip.facelets)
    assert report.frames_with_faces == len(photos) > 12
