"""`cubescan scan`: the live session, from a camera, a video file or a folder of frames."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
import cv2
import numpy as np

from scanner.draw import annotate_face, draw_net, fills_from_names
from scanner.observe import observe
from scanner.session import ScanSession, SessionEvent
from scanner.sources import SourceEnded, open_source
from solver.errors import BadInputError
from solver.geometry import FACES
from solver.state import STANDARD_SCHEME

_WINDOW = "cubescan scan"
_NAMES = {"W": "white", "Y": "yellow", "R": "red", "O": "orange", "G": "green", "B": "blue"}


def _emit(events: list[SessionEvent], frame_number: int) -> None:
    for event in events:
        click.echo(json.dumps({"frame": frame_number, **event.to_dict()}), nl=True)
        sys.stdout.flush()


def compose_view(frame: np.ndarray, session: ScanSession, seen, message: str) -> np.ndarray:
    """The window's picture: the live frame with the grid, and a panel with the net so far,
    what to do next, and the progress of holding still.

    Parameters
    ----------
    frame
        The camera frame.
    session
        The running session.
    seen
        (observation, detection) of this frame, or None.
    message
        The latest instruction.

    Returns
    -------
    numpy.ndarray
        BGR image.
    """
    view = frame.copy()
    if seen is not None:
        observation, detection = seen
        names = [_NAMES.get(c, c) for c in observation.colors]
        fills = [fills_from_names({"U": name})["U"] for name in names]
        view = annotate_face(view, detection.cells, names, fills)
    height = view.shape[0]
    size = session.size or (seen[0].size if seen else 3)
    letters = ["?"] * (6 * size * size)
    per_face = size * size
    for number, (key, face) in enumerate(session.captured.items()):
        # Standard colours go to their own face of the net; others in capture order.
        slot = STANDARD_SCHEME.get(key, FACES[number])
        start = FACES.index(slot) * per_face
        letters[start : start + per_face] = [STANDARD_SCHEME.get(c, "?") for c in face.colors]
    net = draw_net("".join(letters), size, cell=max(6, (height // 3) // (3 * size)))
    panel = np.full((height, max(net.shape[1] + 20, 320), 3), 30, np.uint8)
    panel[10 : 10 + net.shape[0], 10 : 10 + net.shape[1]] = net
    y = net.shape[0] + 40
    for line in _wrap(message, 38):
        cv2.putText(panel, line, (10, y), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (240, 240, 240), 1)
        y += 22
    bar = int((panel.shape[1] - 20) * session.progress)
    cv2.rectangle(panel, (10, height - 30), (10 + bar, height - 15), (0, 200, 0), -1)
    return np.hstack([view, panel])


def _wrap(text: str, width: int) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if len(line) + len(word) + 1 > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return [*lines, line] if line else lines


@click.command("scan")
@click.option("--camera", type=int, help="Camera index (0: the default webcam).")
@click.option("--video", type=click.Path(path_type=Path), help="Play a video file instead.")
@click.option("--frames", type=click.Path(path_type=Path), help="Play a folder of frames.")
@click.option("--headless", is_flag=True, help="No window: print the events as JSON lines.")
@click.option("--size", type=click.IntRange(2, 7), help="Cube size N (detected when omitted).")
@click.option("--save", type=click.Path(path_type=Path), help="Save the captured faces here.")
@click.option("--resume", type=click.Path(path_type=Path), help="Start from a saved session.")
@click.option("--stable-frames", type=click.IntRange(1, 100), default=5, show_default=True)
def scan(
    camera: int | None,
    video: Path | None,
    frames: Path | None,
    headless: bool,
    size: int | None,
    save: Path | None,
    resume: Path | None,
    stable_frames: int,
) -> None:
    """Scan a cube face by face, in any order and any rotation; the session captures a
    face once it is held still, warns at once about conflicts, and ends with the
    verdict and the solution. Keys: space capture, u undo, r reset, q/Esc quit."""
    if camera is None and video is None and frames is None:
        camera = 0
    if resume is not None:
        try:
            data = json.loads(resume.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as err:
            raise BadInputError("bad-session", f"{resume}: cannot read the session: {err}") from err
        session = ScanSession.from_json(data, stable_frames=stable_frames)
    else:
        session = ScanSession(stable_frames=stable_frames)
    if not headless and not _has_window_support():
        raise BadInputError(
            "no-window",
            "this OpenCV build cannot open windows (opencv-python-headless); "
            "use --headless, or install opencv-python",
        )
    events = session.start()
    message = events[-1].message
    number = 0
    ended = ""
    with open_source(camera, video, frames) as source:
        if headless:
            _emit(events, 0)
        try:
            previous = None
            for number, frame in enumerate(source, start=1):
                seen = observe(frame, size, previous=previous)
                previous = seen[1] if seen else None
                events = session.feed(seen[0] if seen else None)
                if headless:
                    _emit(events, number)
                else:
                    events += _window_step(frame, session, seen, message)
                message = events[-1].message if events else message
                if session.report is not None and headless:
                    break
        except SourceEnded as err:
            ended = str(err)
    if save is not None:
        save.write_text(json.dumps(session.to_json()), encoding="utf-8")
    if session.report is None:
        reason = ended or f"the frames ended after {number} with {len(session.captured)} of 6 faces"
        hint = f"; saved to {save} (resume with --resume)" if save else ""
        click.echo(f"cubescan: {reason}{hint}", err=True)
        sys.exit(2)
    sys.exit(0 if session.report.valid else 1)


def _has_window_support() -> bool:
    try:
        cv2.namedWindow(_WINDOW, cv2.WINDOW_NORMAL)
    except cv2.error:
        return False
    return True


def _window_step(frame, session: ScanSession, seen, message: str) -> list[SessionEvent]:
    cv2.imshow(_WINDOW, compose_view(frame, session, seen, message))
    key = cv2.waitKey(1) & 0xFF
    if key == ord(" "):
        return session.capture_now()
    if key == ord("u"):
        return session.undo()
    if key == ord("r"):
        return session.reset()
    if key in (ord("q"), 27):
        raise SourceEnded("quit by the user")
    return []
