"""Single-face naming on the real photos of ../shared/realdata (no profile, boxes sampled here).

The issue's target is every labelled 3x3 face named 100% correctly; the naming is not there
yet (see the floors), so these floors guard the level reached against regressions.
Two sets per source: the faces whose ``colors`` are labelled (mostly flat-on views), and
every face with sticker boxes (LazyCube adds steep side faces of two-face photos, where a
box is a few pixels wide). Upstream labels confirmed wrong by eye are excluded, each listed
with the reason in WRONG_LABELS.

Each box is read by the production sampler (cubescan.scanner.sampling.sample_cells: the middle half
of the box, highlights dropped, a cell flooded by a highlight read from its unglared part),
as a detected cell would be.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from cubescan.calibration.face_naming import name_face_colors
from cubescan.calibration.naming import classify
from cubescan.scanner.sampling import sample_cells

NAMES = {"W": "white", "Y": "yellow", "R": "red", "O": "orange", "G": "green", "B": "blue"}
_LAZY = "SawaXV+LazyCube/f-s2v1/train/"
_RUBY = "tanmay-sketch+rubyrizz-data/train/"
#: Labels confirmed wrong by eye: (image, box index) -> why.
WRONG_LABELS = {
    (_LAZY + "PXL_20221103_100340307-MP_jpg.rf.544b5c9d3dc52205b817ab6a44670129.jpg", 6): (
        "labelled R, the sticker is yellow"
    ),
    (_LAZY + "PXL_20221103_100340307-MP_jpg.rf.544b5c9d3dc52205b817ab6a44670129.jpg", 7): (
        "labelled R, the sticker is yellow"
    ),
    (_RUBY + "55.rf.8560376bf70b2827901fceb6020cea64.jpg", 4): "labelled W, the sticker is yellow",
    (_RUBY + "55.rf.8560376bf70b2827901fceb6020cea64.jpg", 3): (
        "labelled Y, the sticker is orange, the same as its neighbours boxes 1 and 2"
    ),
    (_RUBY + "image_5_jpg.rf.19503767d0e7321f1dc3b1b13512e57d.jpg", 8): (
        "labelled R, the sticker is orange: the same hue as box 5 (O), only in shadow; the "
        "face's reds (boxes 4, 7) are crimson"
    ),
    (_LAZY + "IMG_0976_jpg.rf.1dc61823c9de83b54cecfa040f02fd84.jpg", 8): (
        "labelled O, the box is the white logo centre cap"
    ),
    (
        _RUBY + "WhatsApp-Image-2021-02-16-at-7-56-53-PM-1-_jpeg.rf."
        "10c22e989eff055ad3908c7bad981d17.jpg",
        2,
    ): "labelled R, the sticker is blue",
    (
        _RUBY + "WhatsApp-Image-2021-02-16-at-7-57-26-PM-2-_jpeg.rf."
        "7b2e395e63bb7986cd7a4a410ab3b326.jpg",
        8,
    ): "labelled R, the sticker is blue",
    (_RUBY + "32.rf.008e5f3c014c3e0d21e9f2b101ecd6d4.jpg", 5): (
        "labelled Y, the sticker is the same pale cyan-white as its neighbour box 6 (W), "
        "nothing like the face's yellows (boxes 0, 8)"
    ),
}
# Sticker accuracy reached per source (no profile), floored a little below the measured
# rate: labelled faces 765/771, 346/351, 868/876; all boxed faces 1535/1602, 346/351, 883/892.
# What is still wrong on labelled faces (checked by eye, labels right):
# - blues whose every inner patch is glare with no unglared colour beside it: stickerless
#   sky-blue faces washed out to L 73-80, chroma 10-17 over the whole tile, the rim hardly more
#   chromatic (retinanet Cube_00018 boxes 0-2, 5), and a blue under a warm highlight covering
#   all but a thin rim (Cube_00034 box 0: inner patch L 90, chroma 14, hue 93, a yellowish
#   white): one face alone cannot tell them from whites under a cast. (The sampler reads a
#   flooded cell from its unglared part when it shows one: Cube_00018 box 4, LazyCube
#   095843866 box 2 and 100034454 box 1 are read so.)
# - red against orange where they share a hue: vermilion oranges (hue 37-43) on faces with no
#   red or beside crimson reds (rubyrizz 7-56-4x series; only lightness tells them apart, and
#   lightness across a face varies with shading), reddish oranges and orange-looking reds of
#   one LazyCube series (095656455, 095903372, 100053860, 100500587), an orange glared to salmon
#   over most of its cell (LazyCube 100151982 box 2: its unglared corners, too small a share of
#   the cell for the sampler, read L 56, chroma 41, hue 36, still nearer the face's crimson red
#   than the model's orange);
# - an amber orange (hue 78) on a camera that turns every hue (rubyrizz 29 box 6).
FLOORS_LABELLED = {
    "SawaXV/LazyCube": 0.990,
    "itsiiromiuy/model-rubik-cube-recognition-with-tensorflow.js-retinanet": 0.985,
    "tanmay-sketch/rubyrizz-data": 0.990,
}
FLOORS_ALL_BOXES = {
    "SawaXV/LazyCube": 0.957,
    "itsiiromiuy/model-rubik-cube-recognition-with-tensorflow.js-retinanet": 0.985,
    "tanmay-sketch/rubyrizz-data": 0.989,
}


def box_samples(image: np.ndarray, boxes: list) -> np.ndarray:
    """Lab of each sticker box, read by the production sampler (inner patch, glare dropped)."""
    cells = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]] for x0, y0, x1, y1, _ in boxes])
    return sample_cells(image, cells.astype(np.float64)).lab


def _accuracy(realdata, real_faces, source: str, labelled_only: bool) -> tuple[int, int]:
    right = total = 0
    for record in real_faces:
        if record["source"] != source or not record["boxes"] or record["size"] != 3:
            continue
        if labelled_only and record["colors"] is None:
            continue
        lab = box_samples(cv2.imread(str(realdata / record["image"])), record["boxes"])
        names = name_face_colors(lab).names
        for index, (box, name) in enumerate(zip(record["boxes"], names, strict=True)):
            if (record["image"], index) in WRONG_LABELS:
                continue
            right += NAMES[box[4]] == name
            total += 1
    return right, total


@pytest.mark.parametrize("source", sorted(FLOORS_LABELLED))
def test_single_face_naming_labelled_faces(realdata, real_faces, source):
    right, total = _accuracy(realdata, real_faces, source, labelled_only=True)
    assert total > 300
    assert right / total >= FLOORS_LABELLED[source], f"{right}/{total}"


@pytest.mark.parametrize("source", sorted(FLOORS_ALL_BOXES))
def test_single_face_naming_all_boxed_faces(realdata, real_faces, source):
    right, total = _accuracy(realdata, real_faces, source, labelled_only=False)
    assert total > 300
    assert right / total >= FLOORS_ALL_BOXES[source], f"{right}/{total}"


def test_wrong_labels_are_in_the_data(real_faces):
    boxes = {record["image"]: record["boxes"] for record in real_faces if record["boxes"]}
    for image, index in WRONG_LABELS:
        assert image in boxes and index < len(boxes[image])


@pytest.mark.parametrize("size", [2, 3, 4])
def test_tracker_cubes_classified_exactly(realdata, real_cubes, size):
    # Six face photos -> grid -> samples -> whole-cube classification, no profile. The 2x2
    # rig's green reads teal: still the standard scheme, named by assignment. The 3x3's
    # yellow is over-exposed to white (two white clusters): numbered colours, exact letters.
    from cubescan.scanner.pipeline.photos import read_face

    cube = next(c for c in real_cubes if "tracker" in c["source"] and c["size"] == size)
    lab = np.concatenate(
        [
            read_face(cv2.imread(str(realdata / cube["faces"][face])), face, size).lab
            for face in "URFDLB"
        ]
    )
    result = classify(lab)
    assert result.facelets == cube["facelets"]
    if size == 3:
        assert not result.standard
        return
    assert result.standard
    names = {"W": "white", "Y": "yellow", "R": "red", "O": "orange", "G": "green", "B": "blue"}
    expected = {cube["facelets"][i]: names[cube["colors"][i]] for i in range(len(lab))}
    assert {face: info.name for face, info in result.colors.items()} == expected
