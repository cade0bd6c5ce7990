"""Reading photos: every kind of unreadable file gets its own message.

What is wrong, which file, and what to do.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubescan.errors import BadInputError
from cubescan.scanner.frames.imageio import cut_off_at, image_format, read_image


@pytest.fixture(scope="module")
def photo() -> np.ndarray:
    rng = np.random.default_rng(0)
    return (rng.random((60, 80, 3)) * 255).astype(np.uint8)


def encoded(image: np.ndarray, suffix: str) -> bytes:
    ok, data = cv2.imencode(suffix, image)
    assert ok
    return data.tobytes()


def reason(path) -> str:
    with pytest.raises(BadInputError) as caught:
        read_image(path)
    assert caught.value.code == "bad-image"
    assert path.name in caught.value.message
    return caught.value.message


@pytest.mark.parametrize(("suffix", "kind"), [(".png", "PNG"), (".jpg", "JPEG")])
def test_a_cut_off_file_is_called_cut_off(tmp_path, photo, suffix, kind):
    data = encoded(photo, suffix)
    path = tmp_path / f"U{suffix}"
    path.write_bytes(data[: len(data) // 2])
    message = reason(path)
    assert f"is a {kind} file cut off" in message
    assert f"after {len(data) // 2} bytes" in message
    assert "copy or export the photo again" in message
    assert "not an image" not in message


def test_a_text_file_is_not_an_image_and_says_it_holds_text(tmp_path):
    path = tmp_path / "R.png"
    path.write_text("U: white, R: red, F: green\n")
    message = reason(path)
    assert "is not an image: it holds text ('U: white, R: red, F: green')" in message
    assert "give a PNG or JPEG photo" in message
    assert "cut off" not in message


def test_binary_data_of_no_image_format(tmp_path):
    path = tmp_path / "F.jpg"
    path.write_bytes(bytes(range(256)) * 4)
    message = reason(path)
    assert "is not an image: it holds data in no image format" in message


def test_a_complete_png_damaged_inside_cannot_be_decoded(tmp_path, photo):
    data = bytearray(encoded(photo, ".png"))
    start = data.index(b"IDAT") + 4
    data[start : start + 40] = bytes(40)  # the compressed pixels, chunk structure intact
    path = tmp_path / "D.png"
    path.write_bytes(bytes(data))
    assert cut_off_at(bytes(data), "PNG") is None
    message = reason(path)
    assert "is a PNG file OpenCV cannot decode" in message


def test_missing_and_empty_files(tmp_path):
    assert "does not exist" in reason(tmp_path / "L.png")
    (tmp_path / "B.png").write_bytes(b"")
    assert "is empty" in reason(tmp_path / "B.png")


@pytest.mark.parametrize(("suffix", "kind"), [(".png", "PNG"), (".jpg", "JPEG"), (".bmp", "BMP")])
def test_good_images_are_read_and_recognised(tmp_path, photo, suffix, kind):
    data = encoded(photo, suffix)
    assert image_format(data) == kind
    assert cut_off_at(data, kind) is None
    path = tmp_path / f"U{suffix}"
    path.write_bytes(data)
    assert read_image(path).shape == photo.shape


@given(cut=st.floats(0.05, 0.98))
@settings(max_examples=25, deadline=None)
def test_every_early_end_of_a_png_or_jpeg_is_found(cut):
    rng = np.random.default_rng(1)
    image = (rng.random((40, 50, 3)) * 255).astype(np.uint8)
    for suffix, kind in ((".png", "PNG"), (".jpg", "JPEG")):
        data = encoded(image, suffix)
        assert cut_off_at(data[: max(12, int(len(data) * cut))], kind) is not None
