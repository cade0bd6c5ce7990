"""Frame sources: a video file and a frame folder play like a camera; failures are clear."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from cubescan.errors import BadInputError
from cubescan.scanner.frames.sources import open_source


def write_video(path, frames: int) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 15, (64, 48))
    for i in range(frames):
        writer.write(np.full((48, 64, 3), 20 * i, np.uint8))
    writer.release()


def test_a_video_plays_every_frame_in_order(tmp_path):
    write_video(tmp_path / "cube.avi", 9)
    with open_source(video=tmp_path / "cube.avi") as source:
        levels = [int(frame.mean()) for frame in source]
        assert source.fps == pytest.approx(15)
    assert len(levels) == 9 and levels == sorted(levels)


def test_a_frame_folder_plays_in_name_order_and_skips_other_files(tmp_path):
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), np.full((8, 8, 3), 50 * i, np.uint8))
    (tmp_path / "notes.txt").write_text("not a frame")
    with open_source(frames=tmp_path) as source:
        assert [int(f[0, 0, 0]) for f in source] == [0, 50, 100]


def test_a_broken_frame_is_a_clear_error(tmp_path):
    (tmp_path / "a.png").write_bytes(b"not a png")
    with open_source(frames=tmp_path) as source, pytest.raises(BadInputError, match=r"a\.png"):
        list(source)


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"camera": 57}, "camera-not-found"),
        ({"video": "missing.mp4"}, "bad-video"),
        ({"frames": "no/such/folder"}, "bad-frames"),
        ({}, "bad-usage"),
        ({"camera": 0, "video": "x.mp4"}, "bad-usage"),
    ],
)
def test_sources_that_cannot_start_say_why(kwargs, code):
    with pytest.raises(BadInputError) as err:
        open_source(**kwargs)
    assert err.value.code == code


def test_a_file_that_is_not_a_video(tmp_path):
    (tmp_path / "fake.mp4").write_text("hello")
    with pytest.raises(BadInputError, match="not a video"):
        open_source(video=tmp_path / "fake.mp4")


def test_an_empty_folder(tmp_path):
    with pytest.raises(BadInputError, match="no images"):
        open_source(frames=tmp_path)
