"""The scanning session: captures steady faces, warns at once, finishes with the verdict."""

from __future__ import annotations

import numpy as np
import pytest
from session_views import show, views

from cubescan.errors import BadInputError
from cubescan.scanner.pipeline.session import FaceObservation, ScanSession
from cubescan.scanner.placements import rotate_face
from cubescan.solver.cubie import random_state
from cubescan.solver.moves import apply_moves, solved_facelets


@pytest.mark.parametrize("size", [2, 3])
def test_six_faces_in_any_order_end_with_the_exact_cube(size):
    rng = np.random.default_rng(size)
    truth = random_state(rng, size=size)
    session = ScanSession(stable_frames=4)
    events = session.start()
    for view in [views(truth, rng)[i] for i in rng.permutation(6)]:
        events += show(session, view, 6)
    kinds = [e.kind for e in events]
    assert kinds.count("face-captured") == 6 and kinds[-1] == "done"
    assert "conflict" not in kinds
    report = events[-1].data
    assert report["valid"] is True
    if size == 3:
        assert report["facelets"] == truth
    assert report["solution"]


def test_a_moving_or_flickering_face_is_not_captured():
    rng = np.random.default_rng(1)
    view = views(solved_facelets(3), rng)[0]
    session = ScanSession(stable_frames=3)
    for step in range(10):
        moved = FaceObservation(3, view.colors, view.lab, view.quad + 40 * step)
        assert session.feed(moved) == []
    flicker = FaceObservation(3, view.colors[:-1] + "Y", view.lab, view.quad)
    for step in range(10):
        assert session.feed(view if step % 2 else flicker) == []
    assert not session.captured


def test_the_same_face_again_is_ignored_but_a_different_reading_is_a_conflict_at_once():
    rng = np.random.default_rng(2)
    truth = random_state(rng)
    first = views(truth, rng)
    session = ScanSession(stable_frames=2)
    show(session, first[0], 3)
    assert show(session, first[0], 3) == []  # shown again, same colours: nothing new
    changed = FaceObservation(3, "Y" + first[0].colors[1:], first[0].lab, first[0].quad)
    events = show(session, changed, 3)
    assert [e.kind for e in events] == ["conflict"]
    assert events[0].data["code"] == "same-face-twice"
    assert len(session.captured) == 1
    session.feed(changed)  # still in view: space keeps the new reading
    forced = session.capture_now()
    assert forced[0].kind == "face-captured"
    assert session.captured[changed.colors[4]].colors == changed.colors


def test_a_mis_stuck_sticker_is_flagged_when_its_piece_is_complete_not_at_the_end():
    truth = apply_moves(solved_facelets(3), "R U")
    # U's edge stickers all turned yellow: whichever way U is held, its edge with any
    # side face has yellow beside that face's colour, or yellow beside white below.
    broken = "UYUYUYUYU".translate(str.maketrans("Y", "D")) + truth[9:]
    rng = np.random.default_rng(3)
    session = ScanSession(stable_frames=2)
    order = [0, 2, 1, 5, 4, 3]  # U, F, R, B, L, D
    captured_before_conflict = None
    for number, face in enumerate(order, start=1):
        events = show(session, views(broken, rng)[face], 3)
        if any(e.kind == "conflict" for e in events) and captured_before_conflict is None:
            captured_before_conflict = number
            conflict = next(e for e in events if e.kind == "conflict")
    assert captured_before_conflict is not None and captured_before_conflict < 6
    assert conflict.data["code"] in ("color-count", "impossible-piece")


def test_undo_reset_and_guidance():
    rng = np.random.default_rng(4)
    faces = views(solved_facelets(3), rng)
    session = ScanSession(stable_frames=2)
    events = show(session, faces[2], 3)  # green
    hint = events[-1]
    assert hint.kind == "need-face" and hint.face in "WROY"  # a face beside green
    assert [e.kind for e in session.undo()] == ["undone", "need-face"]
    assert not session.captured
    show(session, faces[0], 3)
    assert [e.kind for e in session.reset()] == ["reset", "need-face"]
    assert session.capture_now()[0].kind == "need-face"  # nothing in view


def test_save_and_resume_keeps_the_captured_faces():
    rng = np.random.default_rng(5)
    truth = random_state(rng)
    faces = views(truth, rng)
    session = ScanSession(stable_frames=2)
    for view in faces[:4]:
        show(session, view, 3)
    resumed = ScanSession.from_json(session.to_json(), stable_frames=2)
    assert list(resumed.captured) == list(session.captured)
    events = []
    for view in faces[4:]:
        events += show(resumed, view, 3)
    assert events[-1].kind == "done" and events[-1].data["facelets"] == truth
    with pytest.raises(BadInputError):
        ScanSession.from_json({"version": 99})


def test_a_resumed_session_with_all_six_faces_finishes_at_start():
    rng = np.random.default_rng(8)
    truth = random_state(rng)
    session = ScanSession(stable_frames=2)
    for view in views(truth, rng):
        show(session, view, 3)
    resumed = ScanSession.from_json(session.to_json(), stable_frames=2)
    events = resumed.start()
    assert [e.kind for e in events] == ["done"] and events[0].data["facelets"] == truth
    assert resumed.report is not None and resumed.feed(None) == []


def test_a_new_face_never_takes_the_key_of_a_face_still_captured():
    def face(colors: str, center: list[float]) -> FaceObservation:
        lab = np.full((9, 3), 60.0)
        lab[4] = center
        return FaceObservation(3, colors, lab)

    session = ScanSession(stable_frames=1)
    white = face("WWWWWWWWW", [90, 0, 0])
    for view in (white, face("RRRRRRRRR", [45, 60, 40]), face("GGGGWGGGG", [20, -40, 30])):
        show(session, view, 1)  # the third is named white, its centre is not: "face 3"
    session.feed(white)
    session.capture_now()  # white again: now the last captured
    session.feed(None)
    session.undo()
    show(session, face("BBBBRBBBB", [30, 10, -50]), 1)  # named red, its centre is not
    assert list(session.captured) == ["R", "face 3", "face 4"]


def test_a_face_shown_again_after_another_is_a_conflict_at_once():
    rng = np.random.default_rng(6)
    faces = views(random_state(rng), rng)
    session = ScanSession(stable_frames=2)
    show(session, faces[0], 3)
    for _ in range(3):  # lost from view for a moment while held: not news
        session.feed(None)
    assert show(session, faces[0], 3) == []
    show(session, faces[1], 3)
    events = show(session, faces[0], 3)
    assert [(e.kind, e.data.get("code")) for e in events] == [
        ("conflict", "face-repeated"),
        ("need-face", None),
    ]
    assert events[0].face == faces[0].colors[4] and len(session.captured) == 2


def test_a_face_held_at_45_degrees_is_captured_though_its_top_flips():
    rng = np.random.default_rng(7)
    view = views(random_state(rng), rng)[0]
    turned = FaceObservation(
        3, rotate_face(view.colors, 3, 1), view.lab, np.roll(view.quad, 1, axis=0)
    )
    session = ScanSession(stable_frames=4)
    events = []
    for step in range(4):
        events += session.feed(view if step % 2 else turned)
    assert [e.kind for e in events] == ["face-captured", "need-face"]


def test_the_samples_in_facelet_order_match_the_report(table_cache):
    rng = np.random.default_rng(8)
    truth = random_state(rng)
    session = ScanSession(stable_frames=2)
    for view in views(truth, rng):
        show(session, view, 3)
    lab = session.facelet_lab()
    for face, info in session.report.colors.items():
        mine = lab[np.array(list(session.report.facelets)) == face]
        assert np.allclose(mine.mean(axis=0), info.lab, atol=0.5)


def test_unsure_stickers_make_the_session_ask_for_their_faces_once_more():
    # A white and a yellow centre sticker of a 4x4 read halfway between the two colours:
    # nothing about the pieces settles which is which, so the session asks to see their
    # faces again, takes only those, and reads the cube again with the new readings.
    rng = np.random.default_rng(1)
    truth = apply_moves(solved_facelets(4), "R U2 Fw' L 2R D")
    clear = views(truth, rng)
    lab = np.concatenate([view.lab for view in clear])
    colors = "".join(view.colors for view in clear)
    halfway = (
        lab[[c == "W" for c in colors]].mean(0) + lab[[c == "Y" for c in colors]].mean(0)
    ) / 2
    blurred, seen = list(clear), set()
    for f, view in enumerate(clear):
        center = next((i for i in (5, 6, 9, 10) if view.colors[i] in "WY"), None)
        if center is not None and view.colors[center] not in seen:
            seen.add(view.colors[center])
            changed = view.lab.copy()
            changed[center] = halfway
            blurred[f] = FaceObservation(4, view.colors, changed, view.quad)
    session = ScanSession(stable_frames=2)
    events = [e for view in blurred for e in show(session, view, 3)]
    assert [e.kind for e in events[-2:]] == ["done", "look-again"]
    asked = events[-1].data["faces"]
    assert asked and set(events[-1].data["stickers"]) == set(session.report.unsure_stickers)
    keys = list(session.captured)
    others = [clear[keys.index(k)] for k in keys if k not in asked]
    assert show(session, others[0], 3) == []  # a face not asked for is not taken
    for key in asked:
        again = show(session, clear[keys.index(key)], 3)
        assert [e.kind for e in again[:2]] == ["face-captured", "done"]
        assert again[0].face == key
    assert session.report.valid and session.report.unsure_stickers == ()
    assert show(session, clear[keys.index(asked[0])], 3) == []  # asked once, not again


# A cube held by a corner: the face held still is fed; the faces beside it in that frame
# are given to capture_beside. views() gives U R F D L B: U, R, F meet at a corner, and
# D, L, B at the opposite one.


def test_the_faces_beside_a_captured_face_are_captured_with_it():
    rng = np.random.default_rng(9)
    truth = random_state(rng)
    up, right, front, *_ = views(truth, rng)
    session = ScanSession(stable_frames=2)
    session.start()
    held = show(session, up, 2)
    assert [e.kind for e in held] == ["face-captured", "need-face"]
    events = session.capture_beside([right, front])
    assert [(e.kind, e.face) for e in events[:2]] == [
        ("face-captured", "R"),
        ("face-captured", "G"),
    ]
    assert events[1].message == "captured the green-centred face beside it (3 of 6)"
    assert events[1].data["colors"] == front.colors
    # A fresh instruction, for a face not captured, supersedes the held face's.
    assert events[-1].kind == "need-face" and events[-1].face in "YOB"
    assert list(session.captured) == ["W", "R", "G"]
    # The held face is still the one shown: holding it on, or showing it again after a
    # moment out of view, is not news.
    assert show(session, up, 3) == []


def test_faces_captured_already_are_passed_over_without_a_conflict():
    rng = np.random.default_rng(10)
    up, right, front, down, *_ = views(random_state(rng), rng)
    session = ScanSession(stable_frames=2)
    show(session, right, 2)
    show(session, up, 2)
    turned = FaceObservation(3, rotate_face(right.colors, 3, 1), right.lab, right.quad)
    assert session.capture_beside([turned]) == []  # nothing new: no event at all
    events = session.capture_beside([turned, front])
    assert [e.kind for e in events] == ["face-captured", "need-face"]
    assert events[0].message == "captured the green-centred face beside it (3 of 6)"
    # A face read aslant with its centre named as a captured face's, but not reading as
    # that face: more likely a misread than a new face, so not taken as a seventh key.
    misread = FaceObservation(3, down.colors[:4] + "W" + down.colors[5:], down.lab, down.quad)
    assert session.capture_beside([misread]) == []
    assert list(session.captured) == ["R", "W", "G"]


def test_two_corners_capture_all_six_faces_and_finish(table_cache):
    rng = np.random.default_rng(11)
    truth = random_state(rng)
    up, right, front, down, left, back = views(truth, rng)
    session = ScanSession(stable_frames=2)
    show(session, front, 2)
    session.capture_beside([up, right])
    show(session, back, 2)
    events = session.capture_beside([left, down])
    assert [e.kind for e in events] == ["face-captured", "face-captured", "done"]
    assert events[1].message.endswith("beside it (6 of 6)")
    assert events[-1].data["facelets"] == truth and session.report.valid
    # The cube is finished: nothing more is taken.
    assert session.capture_beside([up]) == []


def test_at_six_faces_no_more_are_taken(table_cache):
    rng = np.random.default_rng(12)
    truth = random_state(rng)
    faces = views(truth, rng)
    session = ScanSession(stable_frames=2)
    for view in faces[:4]:
        show(session, view, 2)
    # A seventh face, new by its centre (a purple one): the cube has six.
    extra = FaceObservation(3, "P" * 9, np.tile([[40.0, 50.0, -50.0]], (9, 1)))
    events = session.capture_beside([*faces[4:], extra])
    assert [e.kind for e in events] == ["face-captured", "face-captured", "done"]
    assert len(session.captured) == 6 and events[-1].data["facelets"] == truth


def test_a_face_of_another_size_beside_is_passed_over():
    rng = np.random.default_rng(13)
    up, right, *_ = views(random_state(rng), rng)
    small = views(random_state(rng, size=2), rng)[0]
    session = ScanSession(stable_frames=2)
    assert session.capture_beside([right]) == []  # nothing captured yet: no cube to add to
    show(session, up, 2)
    assert session.capture_beside([small]) == []
    assert list(session.captured) == ["W"]


def test_a_face_captured_beside_then_held_up_is_no_conflict_and_its_new_reading_wins():
    rng = np.random.default_rng(13)
    up, right, front, down, *_ = views(random_state(rng), rng)
    session = ScanSession(stable_frames=2)
    session.feed(up)
    assert not session.holding_completed
    session.feed(up)
    assert session.holding_completed  # the frame to look for faces beside it in
    session.capture_beside([right, front])
    session.feed(up)
    assert not session.holding_completed  # held on: it was looked at already
    show(session, down, 2)
    # Held up after another face: the user never saw it captured, so not "shown twice".
    events = show(session, right, 2)
    assert [e.kind for e in events] == ["need-face"]
    # Read differently when held up (aslant it read one sticker wrong): the new reading,
    # face on, replaces it, with no conflict.
    session.capture_beside([front])
    show(session, down, 2)
    held = FaceObservation(3, front.colors[:8] + "W", front.lab, front.quad)
    events = show(session, held, 2)
    assert [e.kind for e in events[:1]] == ["face-captured"]
    assert "again, held up" in events[0].message
    assert session.captured["G"].colors == held.colors
    assert not any(e.kind == "conflict" and e.data.get("code") == "same-face-twice" for e in events)
    # Held up again after another face: now that is the user losing track.
    show(session, down, 2)
    assert show(session, held, 2)[0].data["code"] == "face-repeated"


def test_the_faces_left_at_one_corner_are_asked_for_together():
    rng = np.random.default_rng(14)
    up, right, front, _, left, back = views(random_state(rng), rng)
    session = ScanSession(stable_frames=2)
    show(session, up, 2)
    hint = session.capture_beside([right, front])[-1]
    assert hint.message == (
        "show the yellow-centred, orange-centred and blue-centred faces together: hold the "
        "cube by the corner where they meet; 3 to go"
    )
    assert hint.data["missing"] == ["Y", "O", "B"]
    hint = show(session, back, 2)[-1]
    assert "yellow-centred and orange-centred faces together" in hint.message
    assert "by the edge" in hint.message
    # Two opposite faces left share no corner: one at a time, as before.
    session = ScanSession(stable_frames=2)
    for view in (right, front, left, back):
        show(session, view, 2)
    assert "together" not in show(session, right, 2)[-1].message
    assert session.start()[-1].face in "WY"
