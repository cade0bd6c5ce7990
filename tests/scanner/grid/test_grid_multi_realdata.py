"""Every face of a photo (detect_faces) on the real photos of ../shared/realdata that show two
or three labelled faces (LazyCube's corner photos).

A labelled face is located when a face found has its N and its centres lie within 15% of a
sticker width of the labelled boxes' centres (median over the stickers), the measure of
``test_grid_realdata.py`` and ``benchmarks/eval_detect.py --multi``.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np
import pytest

from cubescan.scanner.grid import detect_faces, detect_grid

# 115 of the 129 labelled faces in 49 photos since a row of spots past a predicted face's
# far side (the background's texture) no longer counts against it; 114 since a face
# predicted beside a face found may show stickers in half its cells; 112 since a face's
# neighbours are predicted from its pose and looked for at their own scale; 109 with only
# the third face at a corner predicted from the other two; 105 before that; detect_grid,
# one face a photo: 48. The faces missed are mostly top faces seen at a grazing angle, their
# stickers a few pixels tall in these 300x400 photos.
MIN_LOCATED = 115


def _located(record: dict, faces) -> bool:
    boxes = np.array([b[:4] for b in record["boxes"]], float)
    centers = (boxes[:, :2] + boxes[:, 2:]) / 2
    width = np.median(np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]))
    for face in faces:
        if face is None or face.size != record["size"]:
            continue
        found = np.asarray(face.centers).reshape(-1, 2)
        distance = np.linalg.norm(centers[:, None] - found[None], axis=2).min(axis=1)
        if np.median(distance) / width < 0.15:
            return True
    return False


@pytest.fixture(scope="module")
def multi_face_results(real_faces: list[dict], realdata: Path) -> dict[str, list[tuple]]:
    """image -> [(labelled face located by detect_faces, by detect_grid)] for every photo
    with two or more labelled faces, all with boxes."""
    by_image: dict[str, list[dict]] = defaultdict(list)
    for record in real_faces:
        by_image[record["image"]].append(record)
    results = {}
    for image_path, records in by_image.items():
        if len(records) < 2 or not all(record["boxes"] for record in records):
            continue
        image = cv2.imread(str(realdata / image_path))
        faces, best = detect_faces(image).faces, detect_grid(image)
        results[image_path] = [(_located(r, faces), _located(r, [best])) for r in records]
    return results


def test_the_corner_photos_are_there(multi_face_results) -> None:
    assert len(multi_face_results) >= 40
    assert sum(len(faces) for faces in multi_face_results.values()) >= 100


def test_labelled_faces_located_at_least_as_when_written(multi_face_results) -> None:
    located = sum(multi for faces in multi_face_results.values() for multi, _ in faces)
    assert located >= MIN_LOCATED


def test_every_face_the_single_face_detector_locates_is_located(multi_face_results) -> None:
    lost = [image for image, faces in multi_face_results.items() if any(s > m for m, s in faces)]
    assert not lost, lost


@pytest.mark.xfail(strict=True, reason="the issue's target: 115 of 129 labelled faces today")
def test_every_labelled_face_is_located(multi_face_results) -> None:
    missed = [image for image, faces in multi_face_results.items() if not all(m for m, _ in faces)]
    assert not missed, missed
