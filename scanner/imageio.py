"""Reading photos from disk with clear errors (the I/O edge of the vision stages).

Examples
--------
>>> read_image(Path("/nonexistent/face.png"))
Traceback (most recent call last):
...
solver.errors.BadInputError: /nonexistent/face.png does not exist
"""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np

from solver.errors import BadInputError

MAX_PIXELS = 120_000_000
"""Largest image accepted (about 11,000 x 11,000): bigger ones are refused before decoding."""


def _declared_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG or JPEG header, without decoding the pixels."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    if data[:2] == b"\xff\xd8":
        index = 2
        while index + 9 < len(data):
            if data[index] != 0xFF:
                return None
            marker = data[index + 1]
            length = struct.unpack(">H", data[index + 2 : index + 4])[0]
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                height, width = struct.unpack(">HH", data[index + 5 : index + 9])
                return width, height
            index += 2 + length
    return None


def read_image(path: Path) -> np.ndarray:
    """Read a photo as an 8-bit BGR image.

    Raises
    ------
    BadInputError
        Missing, empty, not an image, damaged, or too large to decode safely.
    """
    if not path.is_file():
        raise BadInputError("bad-image", f"{path} does not exist")
    data = path.read_bytes()
    if not data:
        raise BadInputError("bad-image", f"{path} is empty")
    declared = _declared_size(data)
    if declared and declared[0] * declared[1] > MAX_PIXELS:
        raise BadInputError(
            "bad-image",
            f"{path} claims {declared[0]}x{declared[1]} pixels, more than a photo of a cube "
            "needs: scale it down first",
        )
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise BadInputError(
            "bad-image", f"{path} is not an image OpenCV can read (damaged, or another format)"
        )
    return image
