"""`cubescan read IMAGE`: grid and samples as JSON or a table; bad files give exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
from click.testing import CliRunner

from cubescan.scanner.cli import main
from cubescan.synth.corners import random_corner_spec, render_corner_view
from cubescan.synth.scenes import render_clutter, render_scene
from cubescan.synth.specs import random_scene_spec


def _face_photo(tmp_path: Path, size: int = 3) -> Path:
    spec = random_scene_spec(np.random.default_rng(40 + size), size, resolution=(640, 480))
    spec = spec.__class__(**{**spec.__dict__, "occluder": None, "glare": None, "blur": 0.0})
    image, _ = render_scene(spec)
    path = tmp_path / f"face{size}.jpg"
    cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path


def test_json_reading_has_every_cell(tmp_path: Path) -> None:
    path = _face_photo(tmp_path, 4)
    result = CliRunner().invoke(main, ["read", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["size"] == 4 and len(data["cells"]) == 16
    first = data["cells"][0]
    assert {"row", "col", "center", "lab"} <= set(first)
    assert (first["row"], first["col"]) == (0, 0)


def test_table_and_annotation(tmp_path: Path) -> None:
    path = _face_photo(tmp_path, 3)
    out = tmp_path / "annotated.png"
    result = CliRunner().invoke(main, ["read", str(path), "--size", "3", "--annotate", str(out)])
    assert result.exit_code == 0, result.output
    assert "3x3" in result.output
    annotated = cv2.imread(str(out))
    assert annotated is not None and annotated.shape == (480, 640, 3)


def test_missing_corrupt_and_faceless_files_exit_2(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(main, ["read", str(tmp_path / "nope.png")])
    assert missing.exit_code == 2 and "does not exist" in missing.output
    corrupt = tmp_path / "broken.jpg"
    corrupt.write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")
    assert runner.invoke(main, ["read", str(corrupt)]).exit_code == 2
    text = tmp_path / "notes.png"
    text.write_text("hello", encoding="utf-8")
    assert runner.invoke(main, ["read", str(text)]).exit_code == 2
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    assert runner.invoke(main, ["read", str(empty)]).exit_code == 2
    nothing = tmp_path / "wall.png"
    cv2.imwrite(str(nothing), np.full((240, 320, 3), 128, np.uint8))
    result = runner.invoke(main, ["read", str(nothing)])
    assert result.exit_code == 2 and "no cube face" in result.output
    clutter = tmp_path / "clutter.png"
    cv2.imwrite(str(clutter), render_clutter(np.random.default_rng(0), (320, 240)))
    assert runner.invoke(main, ["read", str(clutter)]).exit_code in (0, 2)


def test_grey_and_alpha_png_are_read(tmp_path: Path) -> None:
    path = _face_photo(tmp_path, 3)
    image = cv2.imread(str(path))
    rgba = tmp_path / "alpha.png"
    cv2.imwrite(str(rgba), np.dstack([image, np.full(image.shape[:2], 255, np.uint8)]))
    assert CliRunner().invoke(main, ["read", str(rgba), "--json"]).exit_code == 0
    grey = tmp_path / "grey.png"
    cv2.imwrite(str(grey), cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    assert CliRunner().invoke(main, ["read", str(grey)]).exit_code in (0, 2)


def test_a_corner_photo_lists_every_face_and_their_joins(tmp_path: Path) -> None:

    spec = random_corner_spec(np.random.default_rng(2), 3, faces=3, resolution=(640, 480))
    image, truth = render_corner_view(spec)
    path = tmp_path / "corner.png"
    cv2.imwrite(str(path), image)
    out = tmp_path / "annotated.png"
    result = CliRunner().invoke(main, ["read", str(path), "--json", "--annotate", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert len(data["faces"]) == len(truth.faces) == 3
    assert data["cells"] == data["faces"][0]["cells"]  # the best face, as before
    for face in data["faces"]:
        assert face["size"] == 3 and len(face["cells"]) == 9
        assert sorted(join["face"] for join in face["joins"]) == sorted({1, 2, 3} - {face["face"]})
    annotated = cv2.imread(str(out))
    assert annotated.shape == image.shape and not np.array_equal(annotated, image)
    table = CliRunner().invoke(main, ["read", str(path)])
    assert table.exit_code == 0 and "face 3 of 3" in table.output
