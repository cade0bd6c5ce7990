"""Reading photos from disk with clear errors (the I/O edge of the vision stages).

Examples
--------
>>> read_image(Path("/nonexistent/face.png"))
Traceback (most recent call last):
...
cubescan.errors.BadInputError: /nonexistent/face.png does not exist
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

import cv2
import numpy as np

from cubescan.errors import BadInputError

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


_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "PNG"),
    (b"\xff\xd8\xff", "JPEG"),
    (b"GIF87a", "GIF"),
    (b"GIF89a", "GIF"),
    (b"BM", "BMP"),
    (b"II*\x00", "TIFF"),
    (b"MM\x00*", "TIFF"),
)


def image_format(data: bytes) -> str | None:
    """The image format a file's first bytes announce (PNG, JPEG, WebP...), or None.

    Parameters
    ----------
    data
        The file's content (its first 12 bytes suffice).

    Returns
    -------
    str or None
        ``"PNG"``, ``"JPEG"``, ``"GIF"``, ``"BMP"``, ``"TIFF"`` or ``"WebP"``; None when
        the bytes start no format of these.

    Examples
    --------
    >>> image_format(b"GIF89a..."), image_format(b"hello")
    ('GIF', None)
    """
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WebP"
    return next((name for magic, name in _SIGNATURES if data.startswith(magic)), None)


def cut_off_at(data: bytes, kind: str) -> str | None:
    """Where a PNG or JPEG file ends early (None when it is complete or another format).

    A PNG is complete when its chunks run up to the IEND chunk; a JPEG when an
    end-of-image marker follows its last scan.

    Parameters
    ----------
    data
        The whole file's content.
    kind
        Its format as :func:`image_format` names it; only ``"PNG"`` and ``"JPEG"`` are
        checked.

    Returns
    -------
    str or None
        Where the file stops, to complete "cut off ...": ``"inside its <chunk> chunk"``
        or ``"before its IEND chunk"`` (PNG), ``"before its image data"`` or ``"inside
        its image data"`` (JPEG); None for a complete file or another format.

    Examples
    --------
    >>> import cv2
    >>> png = cv2.imencode(".png", np.zeros((8, 8, 3), np.uint8))[1].tobytes()
    >>> cut_off_at(png, "PNG") is None, cut_off_at(png[:-20], "PNG")
    (True, 'inside its IDAT chunk')
    """
    if kind == "PNG":
        offset = 8
        while offset + 8 <= len(data):
            length = struct.unpack(">I", data[offset : offset + 4])[0]
            chunk = data[offset + 4 : offset + 8].decode("latin-1")
            if offset + 12 + length > len(data):
                return f"inside its {chunk} chunk"
            if chunk == "IEND":
                return None
            offset += 12 + length
        return "before its IEND chunk"
    if kind == "JPEG":
        scan = data.rfind(b"\xff\xda")
        if scan < 0:
            return "before its image data"
        return None if data.rfind(b"\xff\xd9") > scan else "inside its image data"
    return None


def _what_it_holds(data: bytes) -> str:
    """A few words on a file that is not an image, for the error message."""
    head = data[:200]
    # A multi-byte character may be split at the end of the head: drop up to three bytes.
    for end in range(len(head), max(len(head) - 4, 0), -1):
        try:
            text = head[:end].decode("utf-8").strip()
        except UnicodeDecodeError:
            continue
        if all(ch.isprintable() or ch.isspace() for ch in text):
            shown = text[:40] + ("..." if len(text) > 40 or len(data) > end else "")
            return f"text ({shown!r})"
        break
    return "data in no image format this program knows (PNG, JPEG, BMP, GIF, TIFF, WebP)"


def read_image(path: Path) -> np.ndarray:
    """Read a photo as an 8-bit BGR image.

    Parameters
    ----------
    path
        A PNG, JPEG or other image file OpenCV reads.

    Returns
    -------
    numpy.ndarray
        (height, width, 3) uint8 BGR.

    Raises
    ------
    BadInputError
        ``bad-image``, saying which: missing, empty, not an image at all, an image file
        cut off (an interrupted copy), too large to decode safely, or damaged inside.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     notes = Path(folder) / "U.png"
    ...     _ = notes.write_text("shopping list")
    ...     read_image(notes)
    Traceback (most recent call last):
    ...
    cubescan.errors.BadInputError: ...U.png is not an image: it holds text ('shopping list'); ...
    """
    if path.is_dir():
        raise BadInputError("bad-image", f"{path} is a folder, not an image file")
    if not path.exists():
        raise BadInputError("bad-image", f"{path} does not exist")
    data = path.read_bytes()
    if not data:
        raise BadInputError("bad-image", f"{path} is empty")
    kind = image_format(data)
    if kind is None:
        raise BadInputError(
            "bad-image",
            f"{path} is not an image: it holds {_what_it_holds(data)}; give a PNG or JPEG "
            "photo of one face",
        )
    declared = _declared_size(data)
    if declared and declared[0] * declared[1] > MAX_PIXELS:
        raise BadInputError(
            "bad-image",
            f"{path} claims {declared[0]}x{declared[1]} pixels, more than a photo of a cube "
            "needs: scale it down first",
        )
    where = cut_off_at(data, kind)
    if where is not None:
        raise BadInputError(
            "bad-image",
            f"{path} is a {kind} file cut off {where} after {len(data)} bytes (an interrupted "
            "download or copy): copy or export the photo again",
        )
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise BadInputError(
            "bad-image",
            f"{path} is a {kind} file OpenCV cannot decode (damaged inside, or a variant it "
            "does not support): save or export the photo again as PNG or JPEG",
        )
    return image


def check_image_output(path: Path) -> Path:
    """Refuse, before any work, an image output path that cannot be written.

    Parameters
    ----------
    path
        Where an image is to be written.

    Returns
    -------
    pathlib.Path
        ``path``, unchanged, when it can be written.

    Raises
    ------
    BadInputError
        ``bad-output``: its suffix names no image format OpenCV writes, it is a folder, or
        its folder does not exist or cannot be written.

    Examples
    --------
    >>> check_image_output(Path("grid.png")).name
    'grid.png'
    >>> check_image_output(Path("grid.txt"))
    Traceback (most recent call last):
    ...
    cubescan.errors.BadInputError: grid.txt: '.txt' is not an image format; end the name with ...
    """
    if path.is_dir():
        raise BadInputError("bad-output", f"{path} is a folder: give an image file name")
    if not path.suffix or not cv2.haveImageWriter(str(path)):
        what = f"{path.suffix!r} is not an image format" if path.suffix else "it has no suffix"
        raise BadInputError(
            "bad-output",
            f"{path}: {what}; end the name with .png or .jpg",
        )
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise BadInputError("bad-output", f"{path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise BadInputError("bad-output", f"{path}: the folder {folder} cannot be written")
    return path


def check_output_folder(folder: Path) -> Path:
    """Refuse, before any work, an output folder that cannot be made or written.

    Parameters
    ----------
    folder
        Where files are to be written; made (with its parents) when missing.

    Returns
    -------
    pathlib.Path
        ``folder``, which now exists.

    Raises
    ------
    BadInputError
        ``bad-output``: it is a file, or it cannot be made or written.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as parent:
    ...     check_output_folder(Path(parent) / "out" / "annotated").is_dir()
    True
    """
    if folder.exists() and not folder.is_dir():
        raise BadInputError("bad-output", f"{folder} is a file, not a folder to write into")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise BadInputError("bad-output", f"{folder} cannot be made: {err.strerror}") from None
    if not os.access(folder, os.W_OK):
        raise BadInputError("bad-output", f"{folder} cannot be written")
    return folder


def write_image(path: Path, image: np.ndarray) -> None:
    """Write an image, or say why it could not be written.

    Parameters
    ----------
    path
        Destination; its suffix chooses the format.
    image
        BGR ``uint8`` image.

    Returns
    -------
    None

    Raises
    ------
    BadInputError
        ``bad-output`` when OpenCV writes nothing (an unknown suffix, a missing or read-only
        folder, a full disk).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     write_image(Path(folder) / "black.png", np.zeros((2, 2, 3), np.uint8))
    ...     sorted(p.name for p in Path(folder).iterdir())
    ['black.png']
    """
    check_image_output(path)
    try:
        written = cv2.imwrite(str(path), image)
    except cv2.error as err:
        raise BadInputError("bad-output", f"{path} could not be written: {err}") from None
    if not written:
        raise BadInputError("bad-output", f"{path} could not be written (is the disk full?)")
