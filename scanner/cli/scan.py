"""`cubescan scan`: the live session, from a camera, a video file or a folder of frames.

A face held still is captured, and with it the other faces of the cube in the same frame
(a cube held by a corner shows two or three): the multi-face search runs once a holding,
every other frame costs the single-face tracker only.

With a window (OpenCV HighGUI) the picture shows the detected grid over the live frame
with each sticker's colour name, and a panel with the net of the faces captured so far,
what to do next, the verdict and, at the end, the solution one move at a time. Keys:
space capture now, u undo, r reset, c calibrate (learn a colour profile from the scanned
cube once it validated), n / right arrow next move, p / left arrow previous move, q or
Esc quit. ``--headless`` runs the same session without a window and prints its events as
JSON lines.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import click
import cv2
import numpy as np
from rich.console import Console

from cubescan.calibration.profile import Profile, learn_profile, load_profile, save_profile
from cubescan.errors import BadInputError
from cubescan.scanner.cli.preparation import start_preparation
from cubescan.scanner.cli.validate import print_report
from cubescan.scanner.frames.sources import FrameSource, SourceEnded, open_source
from cubescan.scanner.grid import FaceDetection
from cubescan.scanner.output.draw import annotate_face, draw_net, fills_from_names
from cubescan.scanner.pipeline.observe import LiveObserver, observe_beside
from cubescan.scanner.pipeline.session import FaceObservation, ScanSession, SessionEvent
from cubescan.solver.facelets import STANDARD_SCHEME
from cubescan.solver.geometry import FACES
from cubescan.solver.moves import format_moves

_WINDOW = "cubescan scan"
_NAMES = {"W": "white", "Y": "yellow", "R": "red", "O": "orange", "G": "green", "B": "blue"}
_PANEL_WIDTH = 380
_FONT = cv2.FONT_HERSHEY_SIMPLEX
_TEXT = (235, 235, 235)
_DIM = (150, 150, 150)
_ALERT = (60, 110, 255)
_GOOD = (90, 210, 90)
_BAD = (70, 70, 240)
# Key codes: letters as ASCII; arrows as Qt, GTK and Windows HighGUI report them.
_NEXT_KEYS = {ord("n"), 0x1000014, 65363, 2555904}
_BACK_KEYS = {ord("p"), 0x1000012, 65361, 2424832}
_KEY_HELP = "space capture  u undo  r reset  c calibrate  n/p moves  q quit"

Seen = tuple[FaceObservation, FaceDetection] | None


@dataclass
class WindowState:
    """What the window shows besides the session itself.

    Attributes
    ----------
    message
        The latest instruction or warning.
    alert
        True when ``message`` is a warning (a conflict).
    step
        Index of the solution's next move to make (the highlighted one).
    notice
        A reply to a key (calibration done, nothing to undo, ...).
    """

    message: str
    alert: bool = False
    step: int = 0
    notice: str = ""

    def update(self, events: list[SessionEvent]) -> None:
        """Take in the session's new events: the last instruction, a conflict stays visible.

        The message becomes the last event's; when there is a conflict, the last
        conflict's message instead (an alert), followed by the next instruction when the
        events end with one, unless they end with the verdict (``done``), which says
        what is wrong with the cube itself. A ``done``, ``reset`` or ``undone`` event
        sets :attr:`step` back to 0; :attr:`notice` is left alone.

        Parameters
        ----------
        events
            The events of one frame (:meth:`ScanSession.feed`, then, when a holding
            completes, ``capture_beside``) or one key (``capture_now``, ``undo``, ``reset``), in
            order; an empty list changes nothing.

        Examples
        --------
        >>> state = WindowState("show any face", step=3)
        >>> state.update([SessionEvent("conflict", "white shown twice", "W"),
        ...               SessionEvent("need-face", "show red next", "R")])
        >>> state.message, state.alert, state.step
        ('white shown twice; show red next', True, 3)
        >>> state.update(ScanSession().reset())  # a reset also rewinds the solution
        >>> state.message, state.alert, state.step
        ('show any face of the cube to the camera and hold it still', False, 0)
        """
        if not events:
            return
        conflicts = [e for e in events if e.kind == "conflict"]
        last = events[-1]
        if conflicts and not any(e.kind == "done" for e in events):
            # The warning first, then what to do next.
            after = f"; {last.message}" if last.kind == "need-face" else ""
            self.message, self.alert = conflicts[-1].message + after, True
        else:
            self.message, self.alert = last.message, False
        if any(e.kind in ("done", "reset", "undone") for e in events):
            self.step = 0


def _emit(events: list[SessionEvent], frame_number: int) -> None:
    for event in events:
        click.echo(json.dumps({"frame": frame_number, **event.to_dict()}), nl=True)
        sys.stdout.flush()


def _net_image(session: ScanSession, size: int, cell: int) -> np.ndarray:
    """The net: the finished cube in its colours, or the faces captured so far."""
    report = session.report
    if report is not None:
        names = {face: info.name for face, info in report.colors.items()}
        labs = {face: info.lab for face, info in report.colors.items()}
        return draw_net(report.facelets, size, fills_from_names(names, labs), cell=cell)
    per_face = size * size
    letters = ["?"] * (6 * per_face)
    for number, (key, face) in enumerate(session.captured.items()):
        if len(face.colors) != per_face:
            continue
        # Standard colours go to their own face of the net; others in capture order.
        slot = STANDARD_SCHEME.get(key, FACES[number])
        start = FACES.index(slot) * per_face
        letters[start : start + per_face] = [STANDARD_SCHEME.get(c, "?") for c in face.colors]
    return draw_net("".join(letters), size, cell=cell)


def _text(panel: np.ndarray, text: str, y: int, color=_TEXT, scale: float = 0.5) -> int:
    """Write wrapped text from ``y``; returns the next free line's y."""
    width = max(10, int((panel.shape[1] - 20) / (scale * 19)))
    for line in _wrap(text, width):
        cv2.putText(panel, line, (10, y), _FONT, scale, color, 1, cv2.LINE_AA)
        y += int(44 * scale)
    return y


_MOVES_SHOWN = 48
"""How many moves of the solution the panel shows at once."""
_MOVES_BEHIND = 6
"""How many of those are moves already made."""


def _solution_lines(panel: np.ndarray, moves: list[str], step: int, y: int) -> int:
    """The moves in rows, done ones dimmed, the next one boxed.

    A big cube's solution runs to hundreds of moves: only a window of them is shown,
    a few done ones and then those to come.
    """
    x = 10
    first = max(0, step - _MOVES_BEHIND)
    for index, move in enumerate(moves[first : first + _MOVES_SHOWN], start=first):
        (width, height), _ = cv2.getTextSize(move, _FONT, 0.55, 1)
        if x + width > panel.shape[1] - 10:
            x, y = 10, y + 24
        color = _DIM if index < step else _TEXT
        if index == step:
            cv2.rectangle(panel, (x - 3, y - height - 4), (x + width + 3, y + 5), _GOOD, -1)
            color = (0, 0, 0)
        cv2.putText(panel, move, (x, y), _FONT, 0.55, color, 1, cv2.LINE_AA)
        x += width + 12
    return y + 28


def _verdict(panel: np.ndarray, session: ScanSession, step: int, y: int) -> int:
    report = session.report
    if report.valid:
        y = _text(panel, "SOLVABLE", y + 6, _GOOD, 0.8)
    else:
        y = _text(panel, "NOT SOLVABLE", y + 6, _BAD, 0.8)
        for problem in report.validation.problems[:3]:
            y = _text(panel, f"{problem.code}: {problem.message}", y, _ALERT, 0.42)
        return y
    if report.solution is None:
        return _text(panel, report.solution_note, y, _DIM, 0.42)
    moves = format_moves(report.solution).split()
    if not moves:
        return _text(panel, "already solved", y)
    if step >= len(moves):
        y = _text(panel, f"all {len(moves)} moves done: the cube is solved", y, _GOOD)
    else:
        y = _text(panel, f"move {step + 1} of {len(moves)}:  {moves[step]}", y + 4, _TEXT, 0.7)
    return _solution_lines(panel, moves, step, y)


def compose_view(
    frame: np.ndarray,
    session: ScanSession,
    seen: Seen,
    state: WindowState | str,
) -> np.ndarray:
    """The window's picture: the live frame with the grid, and a panel with the net so far,
    what to do next, the progress of holding still, the verdict and the solution.

    Parameters
    ----------
    frame
        The camera frame (BGR).
    session
        The running session.
    seen
        (observation, detection) of this frame, or None.
    state
        The window's state, or just the latest instruction.

    Returns
    -------
    numpy.ndarray
        BGR image: the frame (padded below to at least 480 rows) and a panel to its right.

    Examples
    --------
    >>> view = compose_view(np.zeros((480, 640, 3), np.uint8), ScanSession(), None, "hello")
    >>> view.shape
    (480, 1020, 3)
    """
    state = WindowState(state) if isinstance(state, str) else state
    view = frame.copy()
    if seen is not None:
        observation, detection = seen
        names = [_NAMES.get(c, c) for c in observation.colors]
        fills = [fills_from_names({"U": name})["U"] for name in names]
        view = annotate_face(view, detection.cells, names, fills)
    height = max(view.shape[0], 480)
    if height > view.shape[0]:
        view = np.vstack([view, np.zeros((height - view.shape[0], *view.shape[1:]), np.uint8)])
    panel = np.full((height, _PANEL_WIDTH, 3), 30, np.uint8)
    size = session.size or (seen[0].size if seen else 3)
    cell = max(5, min((_PANEL_WIDTH - 20) // (4 * size), (height // 3) // (3 * size)))
    y = _text(panel, f"{size}x{size} cube: {len(session.captured)} of 6 faces", 22)
    net = _net_image(session, size, cell)
    panel[y - 8 : y - 8 + net.shape[0], 10 : 10 + net.shape[1]] = net
    y += net.shape[0] + 14
    y = _text(panel, state.message, y, _ALERT if state.alert else _TEXT)
    if state.notice:
        y = _text(panel, state.notice, y, (230, 200, 120), 0.45)
    if session.report is not None:
        _verdict(panel, session, state.step, y)
    else:
        bar = int((_PANEL_WIDTH - 20) * session.progress)
        cv2.putText(panel, "hold still", (10, height - 58), _FONT, 0.45, _DIM, 1, cv2.LINE_AA)
        cv2.rectangle(panel, (10, height - 50), (_PANEL_WIDTH - 10, height - 38), (60, 60, 60), -1)
        cv2.rectangle(panel, (10, height - 50), (10 + bar, height - 38), (0, 200, 0), -1)
    cv2.putText(panel, _KEY_HELP, (10, height - 14), _FONT, 0.38, _DIM, 1, cv2.LINE_AA)
    return np.hstack([view, panel])


def _wrap(text: str, width: int) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + len(word) + 1 > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return [*lines, line] if line else lines


def calibrate_from_session(session: ScanSession, name: str, directory: Path | None = None) -> str:
    """The ``c`` key: learn and store a colour profile from the scanned cube, if it validated.

    Parameters
    ----------
    session
        The session.
    name
        Profile name (replaced if it exists).
    directory
        Profiles folder (the user's config folder by default).

    Returns
    -------
    str
        What happened, for the window: the profile saved, or why it cannot be.

    Examples
    --------
    >>> calibrate_from_session(ScanSession(), "webcam")[:40]
    'cannot calibrate yet: scan all six faces'
    """
    report = session.report
    if report is None:
        return "cannot calibrate yet: scan all six faces first"
    if not report.valid:
        return (
            "cannot calibrate from this scan: the cube did not validate, so its "
            "colours are not known for sure"
        )
    names = {face: info.name for face, info in report.colors.items()}
    try:
        profile = learn_profile(name, session.facelet_lab(), report.facelets, names)
        path = save_profile(profile, directory, overwrite=True)
    except (BadInputError, OSError) as err:
        return f"calibration failed: {getattr(err, 'message', err)}"
    return f"learned colour profile '{name}' ({path}); use it with --profile {name}"


@click.command("scan")
@click.option("--camera", type=int, help="Camera index (0: the default webcam).")
@click.option("--video", type=click.Path(path_type=Path), help="Play a video file instead.")
@click.option("--frames", type=click.Path(path_type=Path), help="Play a folder of frames.")
@click.option("--headless", is_flag=True, help="No window: print the events as JSON lines.")
@click.option("--size", type=click.IntRange(2, 7), help="Cube size N (detected when omitted).")
@click.option("--save", type=click.Path(path_type=Path), help="Save the captured faces here.")
@click.option("--resume", type=click.Path(path_type=Path), help="Start from a saved session.")
@click.option("--profile", "profile_name", help="Name colours with a stored colour profile.")
@click.option(
    "--learn",
    "learn_name",
    default="webcam",
    show_default=True,
    help="Profile name the c key saves a learned profile under.",
)
@click.option("--stable-frames", type=click.IntRange(1, 100), default=5, show_default=True)
def scan(
    camera: int | None,
    video: Path | None,
    frames: Path | None,
    headless: bool,
    size: int | None,
    save: Path | None,
    resume: Path | None,
    profile_name: str | None,
    learn_name: str,
    stable_frames: int,
) -> None:
    """Scan a cube face by face with a camera, a video or a folder of frames.

    Scan a cube face by face, in any order and any rotation; the session captures a
    face once it is held still (and the other faces in view with it: hold the cube by
    a corner to capture two or three at once), warns at once about conflicts, and ends with
    the verdict and the solution. Keys: space capture, u undo, r reset, c calibrate,
    n/p next/previous move, q/Esc quit. A window run ends when the source ends."""
    if camera is None and video is None and frames is None:
        camera = 0
    profile = load_profile(profile_name) if profile_name else None
    if resume is not None:
        try:
            data = json.loads(resume.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as err:
            raise BadInputError("bad-session", f"{resume}: cannot read the session: {err}") from err
        session = ScanSession.from_json(data, stable_frames=stable_frames)
        session.profile = profile
    else:
        session = ScanSession(stable_frames=stable_frames, profile=profile)
    if not headless and not _has_window_support():
        raise BadInputError(
            "no-window",
            "cannot open a window: no display (DISPLAY is not set), or an OpenCV build "
            "without HighGUI (opencv-python-headless); use --headless",
        )
    with open_source(camera, video, frames) as source:
        # No second process here: the session solves as soon as the sixth face is in.
        preparation = start_preparation(["detector", "solver"], overlap=False)
        if headless:
            number, ended = _run_headless(source, session, size, profile)
        else:
            number, ended = _run_window(source, session, size, profile, learn_name)
    if save is not None:
        save.write_text(json.dumps(session.to_json()), encoding="utf-8")
    if session.report is not None:  # the solver was used only when the cube was complete
        preparation.finish()
    if session.report is None:
        reason = ended or f"the frames ended after {number} with {len(session.captured)} of 6 faces"
        hint = f"; saved to {save} (resume with --resume)" if save else ""
        click.echo(f"cubescan: {reason}{hint}", err=True)
        sys.exit(2)
    if not headless:
        _print_summary(session)
    sys.exit(0 if session.report.valid else 1)


def _step(
    frame: np.ndarray, live: LiveObserver, session: ScanSession, size: int | None
) -> tuple[Seen, list[SessionEvent]]:
    """One frame observed and fed to the session: what was seen, and the session's events.

    When a face has just been held still long enough (captured, or captured already),
    the frame is searched for the other faces of the cube too, and those not captured yet
    are captured; their events follow (the last ``need-face`` or the verdict is then
    theirs)."""
    seen = live.observe(frame, size or session.size)
    events = session.feed(seen[0] if seen else None)
    if seen is not None and session.holding_completed:
        events += session.capture_beside(observe_beside(frame, seen[1], live.profile))
    return seen, events


def _run_headless(
    source: FrameSource, session: ScanSession, size: int | None, profile: Profile | None
) -> tuple[int, str]:
    """Feed every frame to the session, printing events; stops at the verdict."""
    _emit(session.start(), 0)
    number, live = 0, LiveObserver(profile)
    try:
        for number, frame in enumerate(source, start=1):
            _emit(_step(frame, live, session, size)[1], number)
            if session.report is not None:
                break
    except SourceEnded as err:
        return number, str(err)
    return number, ""


def _run_window(
    source: FrameSource,
    session: ScanSession,
    size: int | None,
    profile: Profile | None,
    learn_name: str,
) -> tuple[int, str]:
    """The window loop: a frame, its view, a key; until the source ends or q/Esc."""
    state = WindowState(session.start()[-1].message)
    # A file plays at its own pace, as a camera would deliver it.
    pace = 0.0 if source.is_camera else 1.0 / max(source.fps, 1.0)
    number, live = 0, LiveObserver(profile)
    try:
        for number, frame in enumerate(source, start=1):
            started = time.perf_counter()
            seen, events = _step(frame, live, session, size)
            state.update(events)
            cv2.imshow(_WINDOW, compose_view(frame, session, seen, state))
            wait = pace - (time.perf_counter() - started)
            key = cv2.waitKeyEx(max(1, int(wait * 1000)))
            if key in (ord("q"), 27):
                return number, "quit by the user"
            _on_key(key, session, state, learn_name)
    except SourceEnded as err:
        return number, str(err)
    finally:
        cv2.destroyAllWindows()
    return number, ""


def _on_key(key: int, session: ScanSession, state: WindowState, learn_name: str) -> None:
    state.notice = "" if key != -1 else state.notice
    if key == ord(" "):
        state.update(session.capture_now())
    elif key == ord("u"):
        state.update(session.undo())
    elif key == ord("r"):
        state.update(session.reset())
    elif key == ord("c"):
        state.notice = calibrate_from_session(session, learn_name)
    elif key in _NEXT_KEYS or key in _BACK_KEYS:
        report = session.report
        moves = len(report.solution) if report is not None and report.solution else 0
        step = state.step + (1 if key in _NEXT_KEYS else -1)
        state.step = min(max(step, 0), moves)


def _print_summary(session: ScanSession) -> None:
    """After a window run: the verdict and the solution in the terminal too."""
    console = Console()
    report = session.report
    print_report(console, report.validation)
    if report.solution is not None:
        console.print(
            f"[bold]Solution[/] ({len(report.solution)} moves): {format_moves(report.solution)}"
        )


def _has_window_support() -> bool:
    # Without a display Qt aborts the whole process instead of raising: check first.
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY")
        or os.environ.get("WAYLAND_DISPLAY")
        or os.environ.get("QT_QPA_PLATFORM", "").startswith(("offscreen", "vnc"))
    ):
        return False
    try:
        # The picture at its own size (no scaling), without the toolbar.
        cv2.namedWindow(_WINDOW, cv2.WINDOW_AUTOSIZE | cv2.WINDOW_GUI_NORMAL)
    except cv2.error:
        return False
    return True
