"""Grid detection and sampling on drawn faces and the real tracker photos; bad frames."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from cubescan.errors import BadInputError
from cubescan.scanner.frames.imageio import read_image
from cubescan.scanner.grid import as_bgr, detect_grid
from cubescan.scanner.sampling import sample_colors

BGR = {"W": (235, 235, 235), "Y": (0, 213, 255), "R": (40, 30, 200), "O": (0, 120, 255),
       "G": (80, 170, 0), "B": (190, 90, 0)}  # fmt: skip


def drawn_face(colors: str, size: int, side: int = 40, gap: int = 6, tilt: float = 0.0):
    """A face drawn on a dark background, optionally in perspective; returns frame, corners."""
    frame = np.full((480, 640, 3), 25, np.uint8)
    pitch = side + gap
    origin = np.array([320 - size * pitch / 2, 240 - size * pitch / 2])
    flat = np.zeros((480, 640, 3), np.uint8)
    for k, letter in enumerate(colors):
        r, c = divmod(k, size)
        x0, y0 = origin + np.array([c * pitch, r * pitch])
        cv2.rectangle(flat, (int(x0), int(y0)), (int(x0 + side), int(y0 + side)), BGR[letter], -1)
    src = np.float32([[0, 0], [640, 0], [640, 480], [0, 480]])
    dst = src + np.float32([[tilt, 0], [-tilt, 0], [0, 0], [0, 0]])
    warp = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(flat, warp, (640, 480))
    mask = warped.any(axis=2)
    frame[mask] = warped[mask]
    return frame


@pytest.mark.parametrize("size", [2, 3, 4, 5])
@pytest.mark.parametrize("tilt", [0.0, 120.0])
def test_drawn_faces_are_found_with_their_colors(size, tilt):
    rng = np.random.default_rng(size)
    colors = "".join(rng.choice(list(BGR), size * size))
    frame = drawn_face(colors, size, side=160 // size, gap=max(3, 24 // size), tilt=tilt)
    detection = detect_grid(frame)
    assert detection is not None and detection.size == size
    samples = sample_colors(frame, detection)
    # Every cell's sample is the colour drawn there (the grid is read from the top left).
    drawn = np.array([BGR[c] for c in colors], float)
    assert np.abs(samples.bgr.astype(float) - drawn).max() < 12


def test_a_turned_face_keeps_rows_from_the_top_as_seen():
    frame = drawn_face("WRGYOBWRG", 3)
    detection = detect_grid(frame)
    turned = np.ascontiguousarray(np.rot90(frame))  # the face photographed turned a quarter
    again = detect_grid(turned)
    assert again is not None and again.size == 3
    top = again.centers[0].mean(axis=0)[1]
    assert top < again.centers[2].mean(axis=0)[1]
    assert detection.centers[0, 0, 1] < detection.centers[2, 0, 1]


def test_clutter_and_tiles_are_not_faces():
    rng = np.random.default_rng(0)
    noise = rng.integers(0, 255, (480, 640, 3), dtype=np.uint8)
    assert detect_grid(noise) is None
    tiles = np.full((480, 640, 3), 40, np.uint8)
    for y in range(0, 480, 50):
        for x in range(0, 640, 50):
            cv2.rectangle(tiles, (x + 4, y + 4), (x + 44, y + 44), (230, 230, 230), -1)
    assert detect_grid(tiles) is None  # a grid that goes on past any N x N square


def test_tracker_photos_are_found_at_full_and_webcam_resolution(real_cubes, realdata):
    for cube in real_cubes:
        if "tracker" not in cube["source"]:
            continue
        for path in cube["faces"].values():
            image = cv2.imread(str(realdata / path))
            for scale in (1.0, 1 / 3):
                small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
                detection = detect_grid(small)
                assert detection is not None and detection.size == cube["size"], (path, scale)


@pytest.mark.parametrize(
    "frame",
    [np.zeros((0, 0, 3), np.uint8), np.zeros((5, 5, 3), np.uint8), "not an array",
     np.zeros((20, 20, 7), np.uint8), np.full((20, 20, 3), np.nan)],
)  # fmt: skip
def test_bad_frames_are_clear_errors(frame):
    with pytest.raises(BadInputError):
        detect_grid(frame)


def test_grayscale_bgra_and_float_frames_are_accepted():
    assert as_bgr(np.zeros((20, 30), np.uint8)).shape == (20, 30, 3)
    assert as_bgr(np.zeros((20, 30, 4), np.uint8)).shape == (20, 30, 3)
    assert as_bgr(np.full((20, 30, 3), 0.5)).max() == 127
    assert detect_grid(np.zeros((300, 300), np.uint8)) is None


def test_unreadable_image_files(tmp_path):
    (tmp_path / "empty.png").write_bytes(b"")
    (tmp_path / "text.png").write_text("hello")
    huge = b"\x89PNG\r\n\x1a\n" + (13).to_bytes(4, "big") + b"IHDR"
    huge += (30000).to_bytes(4, "big") * 2 + bytes([8, 2, 0, 0, 0])
    (tmp_path / "huge.png").write_bytes(huge)
    cases = {
        "empty.png": "empty",
        "text.png": "not an image",
        "huge.png": "30000x30000",
        "missing.png": "does not exist",
    }
    for name, message in cases.items():
        with pytest.raises(BadInputError, match=message):
            read_image(tmp_path / name)
