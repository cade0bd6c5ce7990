"""The live scanning session as a state machine: observations in, events out.

No window, no camera: the webcam loop (or a test, or a video file) turns each frame into
a :class:`FaceObservation` (the face in view, its colours) or None, and feeds it to
:meth:`ScanSession.feed`. The session decides when a face is held still and read
consistently for several frames, captures it (and the faces seen beside it in that frame,
given to :meth:`ScanSession.capture_beside`), checks it at once against the faces
already captured (a face shown twice with different colours, too many stickers of one
colour, pieces that cannot exist), tells the user which face to show next, and when all
six faces are in, assembles, validates, diagnoses and solves the cube.

Faces may be shown in any order and any rotation. Events are plain data
(:class:`SessionEvent`) for the window, the ``--headless`` JSON lines, and tests.

Examples
--------
>>> session = ScanSession(stable_frames=2)
>>> [e.kind for e in session.start()]
['need-face']
>>> view = FaceObservation(3, "WWWWWWWWW", np.full((9, 3), 90.0))
>>> [e.kind for e in session.feed(view)], [e.kind for e in session.feed(view)]
([], ['face-captured', 'need-face'])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from cubescan.calibration.profile import Profile
from cubescan.errors import BadInputError, CubescanError
from cubescan.scanner.assemble import check_partial
from cubescan.scanner.pipeline.check import cube_report
from cubescan.scanner.placements import rotate_face
from cubescan.solver.facelets import STANDARD_SCHEME
from cubescan.solver.geometry import FACES, OPPOSITE

SESSION_VERSION = 1
_SAME_CENTER = 12.0  # ΔE: two centre readings closer than this are the same face
_COLOR_WORDS = {"W": "white", "Y": "yellow", "R": "red", "O": "orange", "G": "green", "B": "blue"}


@dataclass(frozen=True, eq=False)
class FaceObservation:
    """The face seen in one frame.

    Attributes
    ----------
    size
        N.
    colors
        N*N colour letters (W Y R O G B for the standard colours), row-major as seen.
    lab
        CIELAB samples, shape (N*N, 3), same order.
    quad
        The face's corners in the image, shape (4, 2), to tell a still cube from a moving
        one; None when unknown.
    """

    size: int
    colors: str
    lab: np.ndarray
    quad: np.ndarray | None = None


@dataclass(frozen=True)
class SessionEvent:
    """Something the user should see or hear.

    Attributes
    ----------
    kind
        ``"need-face"``, ``"face-captured"``, ``"conflict"``, ``"done"``, ``"look-again"``,
        ``"undone"``, ``"reset"``.
    message
        What happened and what to do, in words.
    face
        The face concerned (its centre colour letter on odd cubes), if any.
    data
        JSON-ready details (the conflict's code and pieces; the full report when done).
    """

    kind: str
    message: str
    face: str = ""
    data: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """A JSON line's worth.

        Returns
        -------
        dict
            ``event`` (the kind), ``message`` and ``face``, then the entries of
            :attr:`data` (which may override those three).

        Examples
        --------
        >>> SessionEvent("conflict", "shown twice", "W", {"code": "face-repeated"}).to_dict()
        {'event': 'conflict', 'message': 'shown twice', 'face': 'W', 'code': 'face-repeated'}
        """
        return {"event": self.kind, "message": self.message, "face": self.face, **self.data}


@dataclass(frozen=True, eq=False)
class CapturedFace:
    """A face the session has captured."""

    key: str
    colors: str
    lab: np.ndarray


def _color_word(letter: str) -> str:
    return _COLOR_WORDS.get(letter, f"colour {letter}")


def _agreement(a: str, b: str, size: int) -> float:
    """Share of stickers that agree between two readings, in the best relative rotation."""
    return max(
        sum(x == y for x, y in zip(rotate_face(a, size, k), b, strict=True)) for k in range(4)
    ) / len(a)


def _same_face(a: str, b: str, size: int) -> bool:
    return a == b or any(rotate_face(a, size, k) == b for k in range(1, 4))


@dataclass
class ScanSession:
    """A scan in progress. Feed it observations; read its events.

    Parameters
    ----------
    stable_frames
        Consecutive frames with the same reading and a still face needed to capture.
    max_motion
        Largest movement of the face's middle between frames, as a fraction of the
        face's size, that still counts as held still.
    profile
        Colour profile for naming the whole cube's colours at the end.
    """

    stable_frames: int = 5
    max_motion: float = 0.04
    profile: Profile | None = None
    captured: dict[str, CapturedFace] = field(default_factory=dict)
    report: object | None = None
    # The face in view and for how many consecutive steady frames it has been held (the
    # count goes on past stable_frames: a face is captured once per holding).
    _in_view: FaceObservation | None = None
    _held: int = 0
    # Key of the face last held still: holding it longer, or losing it from view for a
    # moment, is not news; showing it again after another face is.
    _shown: str | None = None
    # Faces of the finished cube holding stickers the reading could not settle, asked for
    # once more; and the faces already looked at again (never asked a second time).
    _look_again: tuple[str, ...] = ()
    _looked_again: set[str] = field(default_factory=set)
    # Faces captured beside a held one and not held up since: the user may not know they
    # are captured, so holding one up is not "shown twice", and its reading then, face on,
    # replaces the one seen aslant.
    _beside: set[str] = field(default_factory=set)

    # ------------------------------------------------------------------ the loop

    def start(self) -> list[SessionEvent]:
        """The first instruction; for a resumed session holding all six faces, the verdict.

        Returns
        -------
        list of SessionEvent
            One ``need-face`` event: which face to show (any, when none is captured yet).
            With six faces captured (:meth:`from_json`) and no report yet, the cube is
            read at once: ``done``, or a ``conflict`` when the six make no cube (then
            undo and show a face again).

        Examples
        --------
        >>> [(e.kind, e.message) for e in ScanSession().start()]
        [('need-face', 'show any face of the cube to the camera and hold it still')]
        """
        if len(self.captured) == 6 and self.report is None:
            return self._finish()
        return [self._need_face()]

    @property
    def progress(self) -> float:
        """How far the face in view is towards being captured (0..1), for the UI."""
        return min(1.0, self._held / self.stable_frames)

    @property
    def holding_completed(self) -> bool:
        """True when the last frame fed completed a holding: its face held still for
        :attr:`stable_frames` frames (captured then, or found captured already), and the
        cube not finished. The frame to look for the faces beside it in
        (:meth:`capture_beside`)."""
        return self.report is None and self._held == self.stable_frames

    @property
    def size(self) -> int | None:
        """N, once a face has been captured."""
        first = next(iter(self.captured.values()), None)
        return None if first is None else round(len(first.colors) ** 0.5)

    def feed(self, observation: FaceObservation | None) -> list[SessionEvent]:
        """One frame's observation (None: no face in view). Returns the new events.

        A face is captured on the frame that completes :attr:`stable_frames` consecutive
        frames of it held still with the same reading (any rotation); holding it longer
        adds nothing. Once the cube is finished (:attr:`report` set) only a face it asked
        to see again (a ``look-again`` event) is taken: its new reading replaces the old
        one and the cube is read again.

        Parameters
        ----------
        observation
            The face seen in this frame, or None when no face is in view.

        Returns
        -------
        list of SessionEvent
            Empty on most frames. On a capture: ``face-captured``, any ``conflict``
            the new face proves, then ``need-face`` (or, with the sixth face, ``done``
            or a ``conflict`` when the six faces make no cube; after ``done``, a
            ``look-again`` naming the faces whose stickers the reading could not settle).
            A face captured already gives a ``conflict`` when shown again after another
            face, or when it now reads differently.

        Examples
        --------
        >>> ScanSession().feed(None)
        []
        >>> session = ScanSession(stable_frames=3)
        >>> white = FaceObservation(3, "WWWWWWWWW", np.full((9, 3), 90.0))
        >>> [[e.kind for e in session.feed(white)] for _ in range(4)]
        [[], [], ['face-captured', 'need-face'], []]
        """
        if self.report is not None and not self._look_again:
            return []
        if observation is None or not self._steady(observation):
            self._in_view, self._held = observation, int(observation is not None)
            return []
        self._in_view, self._held = observation, self._held + 1
        if self._held != self.stable_frames:
            return []  # not steady long enough yet, or already dealt with
        if self.report is not None:
            return self._read_again(observation)
        return self._capture(observation, force=False)

    def capture_now(self) -> list[SessionEvent]:
        """Capture the face in view at once (the space key), replacing an earlier reading.

        Returns
        -------
        list of SessionEvent
            As :meth:`feed` gives on a capture; a single ``need-face`` event when no face
            is in view (the last frame fed was None, or none was fed).

        Examples
        --------
        >>> session = ScanSession(stable_frames=5)
        >>> session.capture_now()[0].message
        'no face in view to capture: show one first'
        >>> session.feed(FaceObservation(3, "WWWWWWWWW", np.full((9, 3), 90.0)))
        []
        >>> [(e.kind, e.face) for e in session.capture_now()]  # without holding it 5 frames
        [('face-captured', 'W'), ('need-face', 'R')]
        """
        if self._in_view is None:
            return [SessionEvent("need-face", "no face in view to capture: show one first")]
        self.captured.pop(self._key(self._in_view), None)
        return self._capture(self._in_view, force=True)

    def capture_beside(self, observations: Sequence[FaceObservation]) -> list[SessionEvent]:
        """Capture the faces seen beside the face held, in the frame its holding completed.

        A cube held by a corner shows the camera two or three faces at once: :meth:`feed`
        captures the one held still, this the others (read by
        :func:`cubescan.scanner.pipeline.observe.observe_beside`), each one not captured
        yet. A face captured already is passed over without a conflict: turning the cube
        from corner to corner shows faces again, which is not the user losing track. So is
        a face of another N than the cube's, and, on an odd cube, a face whose centre is
        named as a captured face's (more likely that face read differently, seen aslant,
        than a new one: it can still be held up by itself). The face held stays the one
        shown (holding it on is not news), and at six faces no more are taken.

        Parameters
        ----------
        observations
            The other faces of the held face's cube, seen in the frame its holding
            completed in (:attr:`holding_completed`).

        Returns
        -------
        list of SessionEvent
            Empty when no face is new, or once the cube is finished. Else per new face
            ``face-captured`` and any ``conflict`` it proves, then as :meth:`feed` ends
            a capture: ``need-face`` (which supersedes the capture's), or with the sixth
            face ``done`` (or a ``conflict`` when the six make no cube).

        Examples
        --------
        >>> session = ScanSession(stable_frames=1)
        >>> white, red, green = (
        ...     FaceObservation(3, c * 9, np.full((9, 3), value))
        ...     for c, value in (("W", 90.0), ("R", 50.0), ("G", 20.0))
        ... )
        >>> [e.kind for e in session.feed(white)]
        ['face-captured', 'need-face']
        >>> [(e.kind, e.face) for e in session.capture_beside([red, green, white])]
        [('face-captured', 'R'), ('face-captured', 'G'), ('need-face', 'Y')]
        >>> session.capture_beside([red]), list(session.captured)
        ([], ['W', 'R', 'G'])
        """
        if self.report is not None:
            return []
        events = []
        for observation in observations:
            if len(self.captured) == 6:
                break
            if observation.size != self.size:
                continue
            key = self._key(observation)
            # On an odd cube a new face's key is its centre's name; a "face k" key means
            # that name is a captured face's.
            center = observation.colors[len(observation.colors) // 2]
            if key in self.captured or (observation.size % 2 and key != center):
                continue
            events += self._take(key, observation, " beside it")
            self._beside.add(key)
        return [*events, *self._next()] if events else []

    def undo(self) -> list[SessionEvent]:
        """Forget the last captured face.

        Also forgets the finished cube's report, so that the scan can go on.

        Returns
        -------
        list of SessionEvent
            ``undone`` (its ``face`` the forgotten face's key) and the next ``need-face``;
            a single ``need-face`` event when nothing is captured.

        Examples
        --------
        >>> session = ScanSession(stable_frames=1)
        >>> _ = session.feed(FaceObservation(3, "WWWWWWWWW", np.full((9, 3), 90.0)))
        >>> [(e.kind, e.message) for e in session.undo()][0], session.captured
        (('undone', 'forgot the white-centred face'), {})
        >>> session.undo()[0].message
        'nothing to undo yet'
        """
        if not self.captured:
            return [SessionEvent("need-face", "nothing to undo yet")]
        key = list(self.captured)[-1]
        del self.captured[key]
        self._beside.discard(key)
        self.report = None
        self._shown, self._look_again = None, ()
        return [
            SessionEvent("undone", f"forgot {self._describe(key)}", key),
            self._need_face(),
        ]

    def reset(self) -> list[SessionEvent]:
        """Start again from nothing.

        Forgets the captured faces, the report and the face in view; the options
        (:attr:`stable_frames`, :attr:`max_motion`, :attr:`profile`) stay.

        Returns
        -------
        list of SessionEvent
            ``reset``, then the first ``need-face``.

        Examples
        --------
        >>> session = ScanSession(stable_frames=1)
        >>> _ = session.feed(FaceObservation(3, "WWWWWWWWW", np.full((9, 3), 90.0)))
        >>> [e.kind for e in session.reset()], session.captured, session.size
        (['reset', 'need-face'], {}, None)
        """
        self.captured.clear()
        self.report = None
        self._in_view, self._held, self._shown = None, 0, None
        self._look_again = ()
        self._looked_again.clear()
        self._beside.clear()
        return [SessionEvent("reset", "starting again"), self._need_face()]

    # ------------------------------------------------------------- internals

    def _key(self, observation: FaceObservation) -> str:
        """Which face this is: on odd cubes the captured face with the same centre colour as
        measured (not as named: two centres can get one name under hard light), else the
        centre's colour name; on even cubes the captured face with the same stickers."""
        if self.size is not None and observation.size != self.size:
            return f"a {observation.size}x{observation.size} face"
        if observation.size % 2:
            middle = len(observation.colors) // 2
            center = observation.lab[middle]
            for face in self.captured.values():
                # The same centre colour and mostly the same stickers: the same face. (An
                # over-exposed yellow centre can measure like the white one.)
                close = np.linalg.norm(face.lab[middle] - center) < _SAME_CENTER
                if close and _agreement(face.colors, observation.colors, observation.size) > 0.5:
                    return face.key
            name = observation.colors[middle]
            return name if name not in self.captured else self._new_key()
        for key, face in self.captured.items():
            if _same_face(face.colors, observation.colors, observation.size):
                return key
        return self._new_key()

    def _new_key(self) -> str:
        """``face k`` for the first k from the number of faces captured on that no captured
        face has: after an undo of a re-captured face, "face 3" may be left among two."""
        number = len(self.captured) + 1
        while f"face {number}" in self.captured:
            number += 1
        return f"face {number}"

    def _describe(self, key: str) -> str:
        return f"the {_color_word(key)}-centred face" if len(key) == 1 else key

    def _steady(self, observation: FaceObservation) -> bool:
        last = self._in_view
        if last is None:
            return True
        if last.size != observation.size or not _same_face(
            last.colors, observation.colors, observation.size
        ):
            return False
        if last.quad is None or observation.quad is None:
            return True
        # The face's middle, not its corners: a fitted corner jitters by several percent
        # from frame to frame where a finger covers a sticker, the middle barely moves.
        # (Corner order may also flip for a face held near 45 degrees.)
        extent = np.ptp(last.quad, axis=0).max()
        motion = np.linalg.norm(np.mean(observation.quad, axis=0) - np.mean(last.quad, axis=0))
        return bool(motion <= self.max_motion * max(extent, 1.0))

    def _capture(self, observation: FaceObservation, force: bool) -> list[SessionEvent]:
        key = self._key(observation)
        size = observation.size
        if self.captured and self.size != size:
            return [
                SessionEvent(
                    "conflict",
                    f"this face reads as {size}x{size} but the cube is "
                    f"{self.size}x{self.size}: hold the whole face in view",
                    key,
                    {"code": "size-mismatch"},
                )
            ]
        earlier = self.captured.get(key)
        shown_before, self._shown = self._shown, key
        if earlier is not None and not force and key in self._beside:
            # Captured beside another face, now held up: not news to the user if it
            # reads the same; a new reading, face on, is the better one.
            self._beside.discard(key)
            if _same_face(earlier.colors, observation.colors, size):
                return [self._need_face()]
            del self.captured[key]
            return [*self._take(key, observation, " again, held up"), *self._next()]
        if earlier is not None and not force:
            if _same_face(earlier.colors, observation.colors, size):
                if key == shown_before:
                    return []  # still (or again) in view since it was captured
                # Shown again after another face: the user has lost track; say so at once.
                return [
                    SessionEvent(
                        "conflict",
                        f"{self._describe(key)} is captured already (shown twice)",
                        key,
                        {"code": "face-repeated"},
                    ),
                    self._need_face(),
                ]
            return [
                SessionEvent(
                    "conflict",
                    f"{self._describe(key)} was captured before and now reads "
                    "differently: press space to keep this reading, or u to undo",
                    key,
                    {"code": "same-face-twice"},
                )
            ]
        return [*self._take(key, observation, ""), *self._next()]

    def _take(self, key: str, observation: FaceObservation, where: str) -> list[SessionEvent]:
        """Capture a face under ``key``: its ``face-captured`` event (``where`` follows the
        face's name in the message), then the conflicts it proves."""
        self.captured[key] = CapturedFace(key, observation.colors, np.asarray(observation.lab))
        captured = SessionEvent(
            "face-captured",
            f"captured {self._describe(key)}{where} ({len(self.captured)} of 6)",
            key,
            {"colors": observation.colors},
        )
        return [captured, *self._conflicts(key)]

    def _next(self) -> list[SessionEvent]:
        """After a capture: the verdict at six faces, else the next face to show."""
        return self._finish() if len(self.captured) == 6 else [self._need_face()]

    def _conflicts(self, key: str) -> list[SessionEvent]:
        """What the new face already proves wrong, with the faces captured so far."""
        size = self.size or 3
        counts = Counter("".join(face.colors for face in self.captured.values()))
        events = [
            SessionEvent(
                "conflict",
                f"there are now {n} {_color_word(color)} stickers (a cube has {size * size}): "
                f"a sticker on {self._describe(key)} was misread or mis-stuck",
                key,
                {"code": "color-count", "color": color},
            )
            for color, n in counts.items()
            if n > size * size
        ]
        standard = all(
            key in STANDARD_SCHEME and set(face.colors) <= set(STANDARD_SCHEME)
            for key, face in self.captured.items()
        )
        if size % 2 and standard and len(self.captured) >= 2:
            faces = {STANDARD_SCHEME[k]: face.colors for k, face in self.captured.items()}
            partial = check_partial(faces, size)
            if partial.broken:
                events.append(
                    SessionEvent(
                        "conflict",
                        f"with {self._describe(key)}, these pieces cannot exist: "
                        f"{', '.join(partial.pieces)} (a misread, or a mis-stuck sticker: "
                        "look at them, or press u to undo and show the face again)",
                        key,
                        {"code": "impossible-piece", "pieces": list(partial.pieces)},
                    )
                )
        return events

    def _need_face(self) -> SessionEvent:
        if not self.captured:
            return SessionEvent(
                "need-face", "show any face of the cube to the camera and hold it still"
            )
        last = list(self.captured)[-1]
        missing = [c for c in "WYRGOB" if c not in self.captured]
        named = all(key in STANDARD_SCHEME for key in self.captured)
        corner = [STANDARD_SCHEME[c] for c in missing]
        if named and len(missing) in (2, 3) and all(OPPOSITE[f] not in corner for f in corner):
            # The faces left meet at one corner (or one edge): one holding shows them all.
            words = [f"{_color_word(c)}-centred" for c in missing]
            listed = " and ".join([", ".join(words[:-1]), words[-1]])
            where = "corner" if len(missing) == 3 else "edge"
            return SessionEvent(
                "need-face",
                f"show the {listed} faces together: hold the cube by the {where} where "
                f"they meet; {len(missing)} to go",
                missing[0],
                {"missing": missing},
            )
        if len(last) == 1 and last in STANDARD_SCHEME and missing:
            face = STANDARD_SCHEME[last]
            beside = [c for c in missing if STANDARD_SCHEME[c] not in (face, OPPOSITE[face])]
            color = (beside or missing)[0]
            how = (
                "it is beside the one you just showed: a quarter turn brings it round"
                if beside
                else "it is opposite the one you just showed: turn the cube half way round"
            )
            return SessionEvent(
                "need-face",
                f"show the {_color_word(color)}-centred face next ({how}); "
                f"{6 - len(self.captured)} to go",
                color,
                {"missing": missing},
            )
        return SessionEvent(
            "need-face",
            f"show another face, any way up ({6 - len(self.captured)} to go)",
        )

    def _finish(self) -> list[SessionEvent]:
        faces = list(self.captured.values())
        try:
            report = cube_report(
                [f.lab for f in faces], sources=[f.key for f in faces], profile=self.profile
            )
        except CubescanError as err:
            return [
                SessionEvent(
                    "conflict",
                    f"the six faces do not make one cube: {err.message}",
                    data={"code": err.code},
                )
            ]
        self.report = report
        verdict = "solvable" if report.valid else "not solvable: " + report.validation.summary
        events = [SessionEvent("done", f"all six faces read: {verdict}", data=report.to_dict())]
        # The face each unsure sticker lies on, as the user knows it (its key).
        key_of_face = {photo.face: photo.source for photo in report.photos}
        unsure = [s for s in report.unsure_stickers if key_of_face[s[0]] not in self._looked_again]
        self._look_again = tuple(dict.fromkeys(key_of_face[s[0]] for s in unsure))
        if self._look_again:
            faces = ", ".join(self._describe(key) for key in self._look_again)
            events.append(
                SessionEvent(
                    "look-again",
                    f"{len(unsure)} sticker(s) could be another colour ({', '.join(unsure)}): "
                    f"show {faces} once more, in even light, to read them again",
                    self._look_again[0],
                    {"faces": list(self._look_again), "stickers": unsure},
                )
            )
        return events

    def _read_again(self, observation: FaceObservation) -> list[SessionEvent]:
        """A face held still after the cube was finished: read again if it was asked for."""
        if observation.size != self.size:
            return []
        # The captured face it agrees with most (its unsure stickers may read differently).
        agreement = {
            k: _agreement(face.colors, observation.colors, self.size)
            for k, face in self.captured.items()
        }
        key = max(agreement, key=agreement.__getitem__)
        if key not in self._look_again or agreement[key] <= 0.5:
            return []
        self._look_again = tuple(k for k in self._look_again if k != key)
        self._looked_again.add(key)
        self.captured[key] = CapturedFace(key, observation.colors, np.asarray(observation.lab))
        self.report = None
        read = SessionEvent(
            "face-captured",
            f"read {self._describe(key)} again",
            key,
            {"colors": observation.colors},
        )
        return [read, *self._finish()]

    def facelet_lab(self) -> np.ndarray | None:
        """The captured Lab samples in the finished cube's facelet order (None before).

        What :func:`cubescan.calibration.profile.learn_profile` needs to learn a colour profile
        from this scan (the ``c`` key of the window).

        Returns
        -------
        numpy.ndarray or None
            Shape (6*N*N, 3), facelet order of ``report.facelets``.

        Examples
        --------
        >>> ScanSession().facelet_lab() is None
        True
        """
        if self.report is None:
            return None
        size = self.report.size
        per_face = size * size
        grid = np.arange(per_face).reshape(size, size)
        lab = np.empty((6 * per_face, 3))
        for placement in self.report.photos:
            # The photo's sticker turned[j] is facelet j of its face in the net.
            turned = np.rot90(grid, -placement.quarter_turns).ravel()
            start = FACES.index(placement.face) * per_face
            lab[start : start + per_face] = self.captured[placement.source].lab[turned]
        return lab

    # ---------------------------------------------------------- save and resume

    def to_json(self) -> dict:
        """The captured faces as JSON, to resume later or finish with ``cubescan check``.

        Returns
        -------
        dict
            ``{"version": SESSION_VERSION, "faces": [...]}``, the faces in capture order,
            each ``{"key", "colors", "lab"}`` with ``lab`` as N*N ``[L, a, b]`` lists
            rounded to 3 decimals. The options and the report are not saved.

        Examples
        --------
        >>> session = ScanSession(stable_frames=1)
        >>> _ = session.feed(FaceObservation(2, "WWWW", np.full((4, 3), 90.12345)))
        >>> session.to_json()  # doctest: +NORMALIZE_WHITESPACE
        {'version': 1, 'faces': [{'key': 'face 1', 'colors': 'WWWW',
          'lab': [[90.123, 90.123, 90.123], [90.123, 90.123, 90.123],
                  [90.123, 90.123, 90.123], [90.123, 90.123, 90.123]]}]}
        """
        return {
            "version": SESSION_VERSION,
            "faces": [
                {"key": f.key, "colors": f.colors, "lab": np.round(f.lab, 3).tolist()}
                for f in self.captured.values()
            ],
        }

    @classmethod
    def from_json(cls, data: object, **options: float) -> ScanSession:
        """A session with the faces of :meth:`to_json` already captured.

        Parameters
        ----------
        data
            The parsed JSON of :meth:`to_json`.
        **options
            Options for the new session: ``stable_frames``, ``max_motion``, ``profile``
            (see :class:`ScanSession`).

        Returns
        -------
        ScanSession
            Its :attr:`captured` faces restored in their saved order; nothing in view,
            no report.

        Raises
        ------
        BadInputError
            When the data is not a saved session of this version.

        Examples
        --------
        >>> session = ScanSession(stable_frames=1)
        >>> _ = session.feed(FaceObservation(3, "WWWWWWWWW", np.full((9, 3), 90.0)))
        >>> resumed = ScanSession.from_json(session.to_json(), stable_frames=4)
        >>> list(resumed.captured), resumed.size, resumed.stable_frames
        (['W'], 3, 4)
        >>> ScanSession.from_json({"version": 0})
        Traceback (most recent call last):
        ...
        cubescan.errors.BadInputError: not a saved cubescan session (version 1 expected)
        """
        if not isinstance(data, dict) or data.get("version") != SESSION_VERSION:
            raise BadInputError(
                "bad-session",
                f"not a saved cubescan session (version {SESSION_VERSION} expected)",
            )
        session = cls(**options)  # type: ignore[arg-type]
        try:
            for face in data["faces"]:
                lab = np.asarray(face["lab"], dtype=float).reshape(-1, 3)
                session.captured[str(face["key"])] = CapturedFace(
                    str(face["key"]), str(face["colors"]), lab
                )
        except (KeyError, TypeError, ValueError) as err:
            raise BadInputError("bad-session", f"the saved session is damaged: {err}") from err
        return session
