"""Single-face naming on the real photos of ../shared/realdata (no profile, boxes sampled here).

The issue's target is every labelled 3x3 face named 100% correctly; the naming is not there
yet (see the floors), so these floors guard the level reached against regressions.
Two sets per source: the faces whose ``colors`` are labelled (mostly flat-on views), and
every face with sticker boxes (LazyCube adds steep side faces of two-face photos, where a
box is a few pixels wide). Upstream labels confirmed wrong by eye are excluded, each listed
with the reason in WRONG_LABELS.

The box sampler here stands in for the production one (scanner/sampling.py, grid issue),
which did not exist yet when these floors were measured.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scanner.colors import classify, name_face_colors
from scanner.colorspace import bgr_to_lab

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
# rate: labelled faces 763/771, 345/351, 865/876; all boxed faces 1531/1602, 345/351, 880/892.
# What is still wrong (checked by eye): washed-out sky-blue stickerless blues and a fully
# glared blue read as white (retinanet Cube_00018, Cube_00034), glared blues beside no other
# blue taken as the white point, vermilion oranges beside crimson reds of the same hue in one
# photo series (only lightness tells them apart), an over-exposed side face (Picture1).
FLOORS_LABELLED = {
    "SawaXV/LazyCube": 0.988,
    "itsiiromiuy/model-rubik-cube-recognition-with-tensorflow.js-retinanet": 0.982,
    "tanmay-sketch/rubyrizz-data": 0.987,
}
FLOORS_ALL_BOXES = {
    "SawaXV/LazyCube": 0.955,
    "itsiiromiuy/model-rubik-cube-recognition-with-tensorflow.js-retinanet": 0.982,
    "tanmay-sketch/rubyrizz-data": 0.986,
}
# Glare: in a chromatic sticker, pixels this much lighter than the median and with less than
# this share of its chroma are a specular highlight, not the sticker's colour.
_GLARE_EXTRA_L = 5.0
_GLARE_CHROMA_SHARE = 0.5
_CHROMATIC = 15.0


def box_sample(image: np.ndarray, box: list) -> np.ndarray:
    """Median Lab of the central half of a sticker box, specular highlights dropped."""
    height, width = image.shape[:2]
    x0, y0, x1, y1 = box[:4]
    w, h = x1 - x0, y1 - y0
    top, bottom = max(0, int(y0 + 0.25 * h)), min(height, int(np.ceil(y1 - 0.25 * h)))
    left, right = max(0, int(x0 + 0.25 * w)), min(width, int(np.ceil(x1 - 0.25 * w)))
    patch = image[top : max(bottom, top + 1), left : max(right, left + 1)]
    lab = bgr_to_lab(patch.reshape(-1, 3))
    median = np.median(lab, axis=0)
    median_chroma = np.hypot(median[1], median[2])
    if median_chroma >= _CHROMATIC:
        chroma = np.hypot(lab[:, 1], lab[:, 2])
        glare = (chroma < _GLARE_CHROMA_SHARE * median_chroma) & (
            lab[:, 0] > median[0] + _GLARE_EXTRA_L
        )
        if (~glare).sum() >= max(3, 0.2 * lab.shape[0]):
            lab = lab[~glare]
    return np.median(lab, axis=0)


def _accuracy(realdata, real_faces, source: str, labelled_only: bool) -> tuple[int, int]:
    right = total = 0
    for record in real_faces:
        if record["source"] != source or not record["boxes"] or record["size"] != 3:
            continue
        if labelled_only and record["colors"] is None:
            continue
        image = cv2.imread(str(realdata / record["image"]))
        lab = np.array([box_sample(image, box) for box in record["boxes"]])
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


def test_box_sample_drops_glare():
    # A shaded red sticker (brightness varies across it) with a highlight over 40% of the
    # inner patch: the highlight must not drag the median towards the sticker's lit side.
    rng = np.random.default_rng(0)
    shade = rng.uniform(0.4, 1.0, size=(20, 20, 1))
    image = np.round(shade * np.array([40.0, 30.0, 200.0])).astype(np.uint8)
    image[8:12, 5:15] = (250, 250, 250)
    lab = box_sample(image, [0, 0, 20, 20, "R"])
    sticker = np.ones((10, 10), bool)
    sticker[3:7, :] = False  # the highlight's rows inside the inner patch (rows 5..14)
    truth = np.median(bgr_to_lab(image[5:15, 5:15][sticker]), axis=0)
    assert np.linalg.norm(lab - truth) < 1.0


@pytest.mark.parametrize("size", [2, 3, 4])
def test_tracker_cubes_classified_exactly(realdata, real_cubes, size):
    # Six face photos -> grid -> samples -> whole-cube classification, no profile. The 2x2
    # rig's green reads teal: still the standard scheme, named by assignment. The 3x3's
    # yellow is over-exposed to white (two white clusters): numbered colours, exact letters.
    from scanner.check import read_face_photo

    cube = next(c for c in real_cubes if "tracker" in c["source"] and c["size"] == size)
    lab = np.concatenate(
        [
            read_face_photo(cv2.imread(str(realdata / cube["faces"][face])), face, size).lab
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
