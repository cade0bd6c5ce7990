"""`cubescan scan --headless --video V` on rendered scanning videos, end to end.

Each video is a cube turned through its faces in a random order and rotations, with
fingers at the border of the held face and motion blur between faces
(:mod:`cubescan.synth.video`); its ground truth says which face is held on which frames.
"""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest
from click.testing import CliRunner

from cubescan.scanner.assemble import check_partial
from cubescan.scanner.cli import main
from cubescan.scanner.placements import rotate_face
from cubescan.solver.geometry import FACES
from cubescan.solver.moves import apply_moves
from cubescan.solver.slots import slot_sets
from cubescan.solver.validate import validate
from cubescan.synth.specs import scramble
from cubescan.synth.video import (
    ScanVideo,
    colors_of_facelets,
    render_scan_video,
    write_video,
)

HOLD, TURN = 8, 3  # short pauses keep the suite fast; still above the 5 steady frames needed


def run_scan(video: ScanVideo, tmp_path, *extra: str) -> tuple[int, list[dict]]:
    path = write_video(video.frames, tmp_path / "scan.avi")
    result = CliRunner().invoke(main, ["scan", "--headless", "--video", str(path), *extra])
    events = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    return result.exit_code, events


def held_standard_2x2(facelets: str) -> str:
    """The 2x2 held as the report holds an even cube: the yellow-blue-orange corner at DBL."""
    dbl = slot_sets(2)[0].slots[slot_sets(2)[0].names.index("DBL")]
    for first in ("", "x", "x2", "x'", "z", "z'"):
        for second in ("", "y", "y2", "y'"):
            rotation = f"{first} {second}".strip()
            turned = apply_moves(facelets, rotation) if rotation else facelets
            if "".join(turned[i] for i in dbl) == "DBL":
                return turned
    raise AssertionError("no rotation brings DBL home")


def expected_facelets(facelets: str, size: int) -> str:
    # Odd cubes: the centres fix the orientation (white U, green F), so the report is
    # exactly the truth. Even cubes have no centres: the report holds the cube with
    # its DBL corner home, which is one definite rotation of the truth.
    return facelets if size % 2 else held_standard_2x2(facelets)


def captures(events: list[dict]) -> list[dict]:
    return [e for e in events if e["event"] == "face-captured"]


def verdict(events: list[dict]) -> dict:
    """The session's ``done`` event: the last one, followed by nothing but a request to
    look at faces with unsure stickers again."""
    done = next(e for e in reversed(events) if e["event"] == "done")
    assert all(e["event"] == "look-again" for e in events[events.index(done) + 1 :])
    return done


def assert_captured_while_held(video: ScanVideo, events: list[dict]) -> None:
    """Every capture happens during a pause, of the face held, with its true colours."""
    per_face = video.size**2
    for event in captures(events):
        index = event["frame"] - 1
        face = video.shown[index]
        assert face, f"captured at frame {event['frame']}, while the cube was turning"
        start = "URFDLB".index(face) * per_face
        truth = video.colors[start : start + per_face]
        assert any(rotate_face(truth, video.size, k) == event["colors"] for k in range(4))


# Each light, each sticker style and each size at least once in the default run; the
# rest of the matrix (about 4 s a video) runs with the slow tests.
slow = pytest.mark.slow
CASES = [
    pytest.param(3, "warm", "stickered", 11, id="3x3-warm-stickered"),
    pytest.param(3, "cool", "stickerless", 12, id="3x3-cool-stickerless", marks=slow),
    pytest.param(3, "dim", "stickerless", 14, id="3x3-dim-stickerless"),
    pytest.param(3, "dim", "stickered", 13, id="3x3-dim-stickered", marks=slow),
    pytest.param(2, "warm", "stickerless", 21, id="2x2-warm-stickerless", marks=slow),
    pytest.param(2, "cool", "stickered", 22, id="2x2-cool-stickered"),
    pytest.param(2, "dim", "stickered", 23, id="2x2-dim-stickered", marks=slow),
]


@pytest.mark.parametrize(("size", "light", "style", "seed"), CASES)
def test_a_scanning_video_ends_with_the_exact_cube(size, light, style, seed, tmp_path, table_cache):
    facelets, _ = scramble(np.random.default_rng(seed), size)
    video = render_scan_video(
        colors_of_facelets(facelets),
        seed=seed,
        light=light,
        style=style,
        hold_frames=HOLD,
        turn_frames=TURN,
    )
    code, events = run_scan(video, tmp_path)
    assert len(captures(events)) == 6, events
    assert_captured_while_held(video, events)
    assert not [e for e in events if e["event"] == "conflict"]
    done = verdict(events)
    assert code == 0
    assert done["facelets"] == expected_facelets(facelets, size)
    assert done["valid"] is True and done["solution"]
    solved = apply_moves(done["facelets"], done["solution"])
    assert all(len(set(solved[f * size * size : (f + 1) * size * size])) == 1 for f in range(6))


def reassembled(seed: int) -> str:
    """A 3x3 put back together wrongly: one corner twisted, one edge flipped."""
    facelets, _ = scramble(np.random.default_rng(seed), 3)
    letters = list(facelets)
    corner = slot_sets(3)[0].slots[5]
    edge = slot_sets(3)[1].slots[7]
    for slot, turn in ((corner, 1), (edge, 1)):
        stickers = [letters[i] for i in slot]
        for i, letter in zip(slot, stickers[turn:] + stickers[:turn], strict=True):
            letters[i] = letter
    return "".join(letters)


def test_a_reassembled_cube_ends_with_the_exact_diagnosis(tmp_path, table_cache):
    facelets = reassembled(31)
    truth = validate(facelets)
    assert {p.code for p in truth.problems} == {"corner-twist", "edge-flip"}
    video = render_scan_video(
        colors_of_facelets(facelets), seed=31, light="cool", hold_frames=HOLD, turn_frames=TURN
    )
    code, events = run_scan(video, tmp_path)
    done = verdict(events)
    assert code == 1
    assert done["facelets"] == facelets and done["valid"] is False
    assert [(p["code"], p["pieces"]) for p in done["problems"]] == [
        (p.code, list(p.pieces)) for p in truth.problems
    ]
    assert done["classic_error"] == truth.classic_error
    assert done["solution"] is None


def test_a_face_shown_twice_is_a_conflict_at_that_moment(tmp_path, table_cache):
    facelets, _ = scramble(np.random.default_rng(41), 3)
    video = render_scan_video(
        colors_of_facelets(facelets),
        seed=41,
        light="warm",
        order="UFRFBLD",  # F again after R
        hold_frames=HOLD,
        turn_frames=TURN,
    )
    code, events = run_scan(video, tmp_path)
    conflicts = [e for e in events if e["event"] == "conflict"]
    assert [c["code"] for c in conflicts] == ["face-repeated"]
    again = video.holds[3]
    assert again.face == "F" and again.first < conflicts[0]["frame"] - 1 <= again.last
    assert conflicts[0]["face"] == "G"
    assert len(captures(events)) == 6 and code == 0
    assert verdict(events)["facelets"] == facelets


def mis_stuck(seed: int) -> str:
    """A 3x3 with one sticker of its URF corner replaced by a copy of another sticker of
    the same corner: a piece with one colour twice, and ten stickers of that colour."""
    facelets, _ = scramble(np.random.default_rng(seed), 3)
    urf = slot_sets(3)[0].slots[0]
    letters = list(facelets)
    letters[urf[2]] = letters[urf[0]]
    return "".join(letters)


def first_provable(colors: str, order: str) -> tuple[int, tuple[str, ...]]:
    """The capture (0-based) after which the faces shown so far cannot all be real, from
    the ground truth alone: too many stickers of a colour, or pieces no way of turning
    the faces makes real. Until then the faces' unknown turns can explain everything."""
    for count in range(2, len(order) + 1):
        faces = {f: colors[9 * FACES.index(f) : 9 * FACES.index(f) + 9] for f in order[:count]}
        too_many = max(Counter("".join(faces.values())).values()) > 9
        partial = check_partial(faces, 3)
        if too_many or partial.broken:
            return count - 1, partial.pieces
    raise AssertionError("the fault is never provable")


def test_a_mis_stuck_sticker_is_a_conflict_as_soon_as_it_is_provable(tmp_path, table_cache):
    colors = colors_of_facelets(mis_stuck(51))
    order = "UFRBLD"
    proof, pieces = first_provable(colors, order)
    assert proof < 5, "the test needs a fault provable before the last face"
    video = render_scan_video(
        colors,
        seed=51,
        light="neutral",
        style="stickerless",
        order=order,
        hold_frames=HOLD,
        turn_frames=TURN,
    )
    code, events = run_scan(video, tmp_path)
    proving = captures(events)[proof]
    assert video.shown[proving["frame"] - 1] == order[proof]
    conflicts = [e for e in events if e["event"] == "conflict"]
    assert conflicts, "the impossible piece was not reported"
    first = conflicts[0]
    assert first["frame"] == proving["frame"] < verdict(events)["frame"]
    if first["code"] == "impossible-piece":
        assert tuple(first["pieces"]) == pieces
    else:
        assert first["code"] == "color-count"
    done = verdict(events)
    assert done["valid"] is False and code == 1


def test_the_video_truth_is_consistent():
    video = render_scan_video(
        "W" * 9 + "R" * 9 + "G" * 9 + "Y" * 9 + "O" * 9 + "B" * 9,
        seed=3,
        hold_frames=3,
        turn_frames=2,
        resolution=(320, 240),
    )
    assert sorted(video.order) == sorted("URFDLB") and len(video.frames) == 6 * 5
    assert all(frame.shape == (240, 320, 3) for frame in video.frames)
    for hold in video.holds:
        assert set(video.shown[hold.first : hold.last + 1]) == {hold.face}
        assert video.shown[hold.first - 1] == ""
    again = render_scan_video(
        video.colors, seed=3, hold_frames=3, turn_frames=2, resolution=(320, 240)
    )
    assert all(np.array_equal(a, b) for a, b in zip(video.frames, again.frames, strict=True))
    with pytest.raises(ValueError, match="NxN"):
        render_scan_video("W" * 10, seed=0)
