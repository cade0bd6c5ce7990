"""Every subcommand, fed random input in-process: each case ends in exit 0, 1 or 2, a refusal
is one line on stderr, and nothing is written outside the paths the command was given.

The default run tries a few dozen cases per subcommand; ``pytest -m slow`` runs about 2,000.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import cv2
import numpy as np
import pytest
from cli_lines import message_lines
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cubescan.scanner.cli import main

FACE_LETTERS = "URFDLB"
COLOR_LETTERS = "WYRGOB"


def _settings(default: int, slow: bool):
    return settings(
        max_examples=2000 if slow else default,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        derandomize=not slow,
    )


@st.composite
def facelet_strings(draw) -> str:
    """Facelet strings near and far from real cubes: right and wrong lengths, face letters,
    colour letters, stray symbols, white space, scrambled real cubes."""
    size = draw(st.integers(2, 7))
    kind = draw(st.sampled_from(["letters", "colors", "noise", "shuffled", "length"]))
    n = 6 * size * size
    if kind == "letters":
        return draw(st.text(FACE_LETTERS, min_size=n, max_size=n))
    if kind == "colors":
        return draw(st.text(COLOR_LETTERS, min_size=n, max_size=n))
    if kind == "shuffled":
        letters = list("".join(f * size * size for f in FACE_LETTERS))
        return "".join(draw(st.permutations(letters)))
    if kind == "length":
        return draw(st.text(FACE_LETTERS + " \n", max_size=2 * n))
    return draw(st.text(max_size=400))


readings = st.lists(
    st.floats(allow_nan=True, allow_infinity=True, width=32), min_size=3, max_size=3
)


@st.composite
def rgb_json(draw) -> str:
    """JSON for --rgb: lists and objects of readings, of good and bad lengths and values."""
    count = draw(st.sampled_from([0, 1, 24, 53, 54, 96, 150, 216, 294]))
    kind = draw(st.sampled_from(["values", "uniform", "levels", "object", "junk"]))
    if kind == "junk":
        return draw(st.text(max_size=200))
    if kind == "uniform":
        level = draw(st.integers(0, 255))
        rows = [[level] * 3] * count
    elif kind == "levels":
        rows = draw(
            st.lists(
                st.lists(st.integers(-5, 260), min_size=3, max_size=3),
                min_size=count,
                max_size=count,
            )
        )
    else:
        rows = draw(st.lists(readings, min_size=count, max_size=count))
    if kind == "object":
        return json.dumps({str(k + 1): row for k, row in enumerate(rows)})
    return json.dumps(rows)


@st.composite
def image_bytes(draw) -> bytes:
    """Image files and things that pose as them: random bytes, PNGs and JPEGs cut short,
    odd shapes, one or four channels, 16-bit and float data."""
    kind = draw(st.sampled_from(["bytes", "png", "jpeg", "cut", "text"]))
    if kind == "bytes":
        return draw(st.binary(max_size=2000))
    if kind == "text":
        return draw(st.text(max_size=200)).encode()
    height = draw(st.integers(1, 96))
    width = draw(st.integers(1, 96))
    channels = draw(st.sampled_from([1, 3, 4]))
    depth = draw(st.sampled_from([np.uint8, np.uint16])) if kind == "png" else np.uint8
    seed = draw(st.integers(0, 2**16))
    pixels = np.random.default_rng(seed).integers(0, np.iinfo(depth).max, (height, width, channels))
    _, encoded = cv2.imencode(".jpg" if kind == "jpeg" else ".png", pixels.astype(depth))
    data = encoded.tobytes()
    if kind == "cut":
        data = data[: draw(st.integers(0, len(data)))]
    return data


def _files(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*")}


def _case_folder(sandbox: Path) -> Path:
    return Path(tempfile.mkdtemp(dir=sandbox))


def _invoke(args: list[str], sandbox: Path, allowed: tuple[Path, ...] = ()):
    """Run ``cubescan ARGS`` in-process with the working folder, cache and config in
    ``sandbox``; check the exit status, stderr and that only ``allowed`` paths were written."""
    before = _files(sandbox)
    env = {
        "CUBESCAN_CACHE_DIR": os.environ.get("CUBESCAN_CACHE_DIR", str(sandbox / "cache")),
        "XDG_CONFIG_HOME": str(sandbox / "config"),
    }
    result = CliRunner().invoke(main, args, env=env, catch_exceptions=True)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{args}: {result.exception!r}"
    )
    assert result.exit_code in (0, 1, 2), (args, result.exit_code, result.stderr)
    if result.exit_code == 2:
        assert len(message_lines(result.stderr)) == 1, (args, result.stderr)
    new = {p for p in _files(sandbox) - before if not any(p.is_relative_to(a) for a in allowed)}
    assert not new, (args, sorted(map(str, new)))
    return result


@pytest.fixture()
def sandbox(tmp_path_factory, table_cache) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def _validate(sandbox: Path, state: str, as_json: bool) -> None:
    _invoke(["validate", *(["--json"] if as_json else []), "--", state], sandbox)


def _solve(sandbox: Path, state: str, max_length: int) -> None:
    _invoke(["solve", "--max-length", str(max_length), "--timeout", "2", "--", state], sandbox)


def _classify(sandbox: Path, text: str) -> None:
    path = _case_folder(sandbox) / "readings.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    _invoke(["classify", "--rgb", str(path)], sandbox)


def _calibrate(sandbox: Path, text: str, name: str) -> None:
    path = _case_folder(sandbox) / "solved.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    _invoke(["calibrate", "--rgb", str(path), "--name", name], sandbox, (sandbox / "config",))


def _read(sandbox: Path, data: bytes) -> None:
    folder = _case_folder(sandbox)
    path = folder / "photo.png"
    path.write_bytes(data)
    annotate = folder / "annotated.png"
    _invoke(["read", str(path), "--annotate", str(annotate)], sandbox, (annotate,))


def _check(sandbox: Path, photos: list[bytes]) -> None:
    folder = _case_folder(sandbox)
    for face, data in zip(FACE_LETTERS, photos, strict=False):
        (folder / f"{face}.png").write_bytes(data)
    _invoke(["check", str(folder)], sandbox)


def _scan(sandbox: Path, frames: list[bytes]) -> None:
    folder = _case_folder(sandbox)
    for k, data in enumerate(frames):
        (folder / f"frame{k:03d}.png").write_bytes(data)
    _invoke(["scan", "--headless", "--frames", str(folder)], sandbox)


def _batch(sandbox: Path, shelves: list[list[bytes]]) -> None:
    root = _case_folder(sandbox)
    for k, photos in enumerate(shelves):
        (root / f"cube{k}").mkdir()
        for face, data in zip(FACE_LETTERS, photos, strict=False):
            (root / f"cube{k}" / f"{face}.png").write_bytes(data)
    _invoke(["batch", str(root)], sandbox, (root / "cubescan-report",))


def _cases(slow: bool):
    """The fuzz tests for one speed: default (few cases) or slow (about 2,000 each)."""
    few = {
        "validate": 200,
        "solve": 60,
        "classify": 60,
        "calibrate": 60,
        "read": 40,
        "check": 12,
        "scan": 8,
        "batch": 4,
    }

    def n(name: str) -> int:
        return few[name]

    @_settings(n("validate"), slow)
    @given(state=facelet_strings(), as_json=st.booleans())
    def validate_case(sandbox, state, as_json):
        _validate(sandbox, state, as_json)

    @_settings(n("solve"), slow)
    @given(state=facelet_strings(), max_length=st.integers(0, 25))
    def solve_case(sandbox, state, max_length):
        _solve(sandbox, state, max_length)

    @_settings(n("classify"), slow)
    @given(text=rgb_json())
    def classify_case(sandbox, text):
        _classify(sandbox, text)

    @_settings(n("calibrate"), slow)
    @given(text=rgb_json(), name=st.text(max_size=20))
    def calibrate_case(sandbox, text, name):
        _calibrate(sandbox, text, name)

    @_settings(n("read"), slow)
    @given(data=image_bytes())
    def read_case(sandbox, data):
        _read(sandbox, data)

    @_settings(n("check"), slow)
    @given(photos=st.lists(image_bytes(), min_size=0, max_size=7))
    def check_case(sandbox, photos):
        _check(sandbox, photos)

    @_settings(n("scan"), slow)
    @given(frames=st.lists(image_bytes(), min_size=0, max_size=4))
    def scan_case(sandbox, frames):
        _scan(sandbox, frames)

    @_settings(n("batch"), slow)
    @given(shelves=st.lists(st.lists(image_bytes(), max_size=6), min_size=1, max_size=2))
    def batch_case(sandbox, shelves):
        _batch(sandbox, shelves)

    return {
        "validate": validate_case,
        "solve": solve_case,
        "classify": classify_case,
        "calibrate": calibrate_case,
        "read": read_case,
        "check": check_case,
        "scan": scan_case,
        "batch": batch_case,
    }


DEFAULT = _cases(slow=False)
SLOW = _cases(slow=True)


@pytest.mark.parametrize("command", list(DEFAULT))
def test_random_input_never_gives_a_traceback(sandbox, command):
    DEFAULT[command](sandbox)


@pytest.mark.slow
@pytest.mark.parametrize("command", list(SLOW))
def test_random_input_never_gives_a_traceback_2000_cases(sandbox, command):
    SLOW[command](sandbox)
