"""Where frames come from: a camera, a video file or a folder of images, all alike.

Each source is an iterator of BGR frames (NumPy arrays) opened with :func:`open_source`;
it raises a :class:`~cubescan.errors.BadInputError` with a clear message when the camera
cannot be opened or the file is not a video, and :class:`SourceEnded` tells "the stream
stopped" apart from "the stream could not start", so a session can keep what it captured.
A video file and a frame folder play exactly as a camera would, frame after frame.

Examples
--------
>>> import tempfile, cv2
>>> frames = tempfile.TemporaryDirectory()
>>> folder = Path(frames.name)
>>> for i in range(3):
...     _ = cv2.imwrite(str(folder / f"frame{i:03d}.png"), np.full((4, 6, 3), i, np.uint8))
>>> with open_source(frames=folder) as source:
...     [int(frame[0, 0, 0]) for frame in source]
[0, 1, 2]
>>> frames.cleanup()
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from cubescan.errors import BadInputError

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class SourceEnded(Exception):
    """The stream stopped after it had started (a video's end, an unplugged camera)."""


@dataclass
class FrameSource:
    """An open source of frames; iterate over it, then close it.

    Attributes
    ----------
    description
        What it is, for messages ("camera 0", "video cube.mp4", "frames in shots/").
    fps
        Frames per second the source is meant to play at (0 when unknown).
    """

    description: str
    fps: float
    _capture: cv2.VideoCapture | None = None
    _files: list[Path] = field(default_factory=list)
    _is_camera: bool = False

    def __iter__(self) -> Iterator[np.ndarray]:
        if self._capture is None:
            yield from self._read_files()
            return
        delivered = 0
        while True:
            ok, frame = self._capture.read()
            if not ok or frame is None:
                if self._is_camera:
                    raise SourceEnded(
                        f"{self.description} stopped sending frames after {delivered} "
                        "(disconnected?); the faces captured so far are kept"
                    )
                return
            delivered += 1
            yield frame

    def _read_files(self) -> Iterator[np.ndarray]:
        for path in self._files:
            frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if frame is None:
                raise BadInputError(
                    "bad-image", f"{path} is not a readable image: remove it or replace it"
                )
            yield frame

    @property
    def is_camera(self) -> bool:
        """True for a live camera (frames come at its pace, and it can be unplugged)."""
        return self._is_camera

    def close(self) -> None:
        """Release the camera or file.

        A closed camera or video plays no more frames; a frame folder holds nothing to
        release and plays on. The ``with`` block of :func:`open_source` closes for you.

        Examples
        --------
        >>> import tempfile
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     path = Path(folder) / "cube.avi"
        ...     writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (16, 8))
        ...     for shade in (0, 80, 160):
        ...         _ = writer.write(np.full((8, 16, 3), shade, np.uint8))
        ...     writer.release()
        ...     source = open_source(video=path)
        ...     first = next(iter(source))
        ...     source.close()
        ...     first.shape, list(source)  # nothing left to play once closed
        ((8, 16, 3), [])
        """
        if self._capture is not None:
            self._capture.release()

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def open_source(
    camera: int | None = None, video: str | Path | None = None, frames: str | Path | None = None
) -> FrameSource:
    """Open exactly one of: a camera by index, a video file, or a folder of frame images.

    Parameters
    ----------
    camera
        Camera index (0 is the default webcam).
    video
        Path of a video file (anything OpenCV's FFmpeg or built-in readers play).
    frames
        Folder of images, played in file-name order.

    Returns
    -------
    FrameSource

    Raises
    ------
    BadInputError
        Not exactly one source given, camera not found, file or folder missing, a file
        that is not a video, or a folder without images.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     for name in ("b.png", "a.png"):
    ...         _ = cv2.imwrite(str(Path(folder) / name), np.zeros((4, 6, 3), np.uint8))
    ...     _ = (Path(folder) / "notes.txt").write_text("not a frame")  # not played
    ...     with open_source(frames=folder) as source:
    ...         source.fps, source.is_camera, [frame.shape for frame in source]
    (30.0, False, [(4, 6, 3), (4, 6, 3)])
    >>> open_source(camera=0, video="cube.mp4")
    Traceback (most recent call last):
    ...
    cubescan.errors.BadInputError: give exactly one frame source: ... (got camera, video)
    """
    given = [name for name, value in (("camera", camera), ("video", video), ("frames", frames))
             if value is not None]  # fmt: skip
    if len(given) != 1:
        raise BadInputError(
            "bad-usage",
            "give exactly one frame source: --camera N, --video FILE or --frames DIR"
            + (f" (got {', '.join(given)})" if given else ""),
        )
    if camera is not None:
        return _open_camera(camera)
    if video is not None:
        return _open_video(Path(video))
    return _open_folder(Path(frames))  # type: ignore[arg-type]


def _open_camera(index: int) -> FrameSource:
    # OpenCV logs its own warning for a missing camera; our message says it better.
    previous = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    try:
        capture = cv2.VideoCapture(index)
    finally:
        cv2.utils.logging.setLogLevel(previous)
    if not capture.isOpened():
        capture.release()
        raise BadInputError(
            "camera-not-found",
            f"camera {index} could not be opened: check that it is connected and not in use "
            "by another program, or try another index (--camera 1), --video FILE or "
            "--frames DIR",
        )
    return FrameSource(f"camera {index}", capture.get(cv2.CAP_PROP_FPS) or 30.0, capture, [], True)


def _open_video(path: Path) -> FrameSource:
    if not path.is_file():
        raise BadInputError("bad-video", f"{path} does not exist or is not a file")
    capture = cv2.VideoCapture(str(path))
    if not capture.isOpened() or capture.get(cv2.CAP_PROP_FRAME_COUNT) == 0:
        capture.release()
        raise BadInputError(
            "bad-video", f"{path} is not a video OpenCV can play (try an .mp4 or .avi file)"
        )
    return FrameSource(f"video {path.name}", capture.get(cv2.CAP_PROP_FPS) or 30.0, capture)


def _open_folder(path: Path) -> FrameSource:
    if not path.is_dir():
        raise BadInputError("bad-frames", f"{path} is not a folder of frames")
    files = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise BadInputError(
            "bad-frames",
            f"{path} holds no images ({', '.join(IMAGE_SUFFIXES)}): nothing to play",
        )
    return FrameSource(f"frames in {path}", 30.0, None, files)
