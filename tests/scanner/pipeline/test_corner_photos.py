"""A cube from photos of two or three faces each: placed by their joins, decided by pieces."""

from __future__ import annotations

import json
from dataclasses import replace

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from cubescan.errors import BadInputError
from cubescan.scanner.cli import main
from cubescan.scanner.pipeline.views import PhotoFaces, check_views, read_photo_faces
from cubescan.solver.moves import apply_moves, same_cube, solved_facelets
from cubescan.synth.corners import render_cube_corners, render_cube_edges

# Seeds whose two rendered photos each show the detector three whole faces: how often it
# finds them is eval_detect --multi's to measure; these tests check what follows.
PAIRS = [(2, 1), (3, 2), (4, 0), (5, 1)]


def corner_photos(size: int, seed: int) -> tuple[str, list[np.ndarray]]:
    truth = apply_moves(solved_facelets(size), "R U Fw' D2 L" if size > 3 else "R U F' D2 L")
    images = render_cube_corners(truth, np.random.default_rng(seed), scale_range=(0.6, 0.9))
    return truth, list(images)


@pytest.mark.parametrize(("size", "seed"), PAIRS)
def test_two_opposite_corner_photos_give_the_exact_cube(size, seed):
    truth, images = corner_photos(size, seed)
    photos = [read_photo_faces(image, f"corner {k}") for k, image in enumerate(images)]
    for order in (photos, photos[::-1]):
        report = check_views(order, solve=False)
        assert report.cube.valid and same_cube(report.cube.facelets, truth)
        assert not report.ambiguous and report.conflicts == ()
        assert sorted(p.face for p in report.faces) == sorted("URFDLB")


@pytest.mark.parametrize(("size", "seed"), [(3, 1), (4, 0), (5, 0)])
def test_three_edge_photos_give_the_exact_cube(size, seed):
    # Each photo along an edge shows two faces, every face of the cube in one of them, and
    # may graze a third (read too, but the face shown wider names the face).
    truth = apply_moves(solved_facelets(size), "R U Fw' D2 L" if size > 3 else "R U F' D2 L")
    images = render_cube_edges(truth, np.random.default_rng(seed), scale_range=(0.6, 0.9))
    photos = [read_photo_faces(image, f"edge {k}") for k, image in enumerate(images)]
    assert all(len(photo.lab) >= 2 for photo in photos)
    report = check_views(photos[::-1], solve=False)
    assert report.cube.valid and same_cube(report.cube.facelets, truth)
    assert not report.ambiguous
    assert set(p.face for p in report.faces) == set("URFDLB")
    # A grazed face read otherwise than where it is seen whole is said, not hidden.
    assert all(line.split(" than in ")[0].endswith("#3") for line in report.conflicts)


def test_a_face_placed_at_a_corner_never_makes_the_cube_unsound():
    # A third face placed from the two beside it (detect_faces) and read wrong: without
    # it the photos miss a face, so the answer is a refusal, not a false verdict.
    _, images = corner_photos(3, 2)
    photos = [read_photo_faces(image, f"corner {k}") for k, image in enumerate(images)]
    lab = (*photos[0].lab[:2], photos[0].lab[0])  # the third face read as the first
    misread = replace(photos[0], lab=lab)
    assert not check_views([misread, photos[1]], solve=False).cube.valid
    placed = replace(misread, predicted=(False, False, True))
    with pytest.raises(BadInputError) as refused:
        check_views([placed, photos[1]], solve=False)
    assert refused.value.code == "missing-faces"


def _two_faces_found(photo: PhotoFaces, third: np.ndarray) -> PhotoFaces:
    """The photo as if its third face had not been found, with that face read as ``third``
    where the other two place it (:attr:`PhotoFaces.with_third`)."""
    joins = tuple(join for join in photo.joins if join[0][0] < 2 and join[1][0] < 2)
    found = replace(photo, lab=photo.lab[:2], joins=joins, widths=photo.widths[:2])
    with_third = replace(photo, lab=(*photo.lab[:2], third), predicted=(False, False, True))
    return replace(found, with_third=with_third)


def test_a_third_face_not_found_is_placed_when_the_cube_it_makes_is_sound():
    truth, images = corner_photos(3, 2)
    photos = [read_photo_faces(image, f"corner {k}") for k, image in enumerate(images)]
    two = _two_faces_found(photos[0], photos[0].lab[2])
    for order in ([two, photos[1]], [photos[1], two]):
        report = check_views(order, solve=False)
        assert report.cube.valid and same_cube(report.cube.facelets, truth)
        assert report.placed == ("corner 0 #3",)
    # Read wrong where it is placed (here as the first face), the cube is unsound: the
    # photos still miss a face, and say so.
    misread = _two_faces_found(photos[0], photos[0].lab[0])
    with pytest.raises(BadInputError) as refused:
        check_views([misread, photos[1]], solve=False)
    assert refused.value.code == "missing-faces"


def test_two_third_faces_not_found_are_placed_when_every_sticker_is_settled():
    # Each photo's third face placed: the edge they share has no sticker found, so the
    # cube is taken only when no sticker is left unsure (this one has none).
    truth, images = corner_photos(3, 2)
    photos = [read_photo_faces(image, f"corner {k}") for k, image in enumerate(images)]
    both = [_two_faces_found(photo, photo.lab[2]) for photo in photos]
    report = check_views(both, solve=False)
    assert report.cube.valid and same_cube(report.cube.facelets, truth)
    assert report.cube.unsure_stickers == ()
    assert sorted(report.placed) == ["corner 0 #3", "corner 1 #3"]


def test_a_face_shown_again_differently_is_a_conflict():
    truth, images = corner_photos(3, 2)
    photos = [read_photo_faces(image, f"corner {k}") for k, image in enumerate(images)]
    # The first corner again, one sticker of its first face read as another colour.
    again = photos[0]
    lab = [face.copy() for face in again.lab]
    lab[0][0] = again.lab[1][4]  # the colour of its second face's centre
    report = check_views([*photos, replace(again, source="again", lab=tuple(lab))], solve=False)
    assert report.cube.valid and same_cube(report.cube.facelets, truth)
    assert len(report.conflicts) == 1 and "again #1" in report.conflicts[0]


def test_photos_that_miss_faces_are_refused_saying_how_many_were_found():
    _, images = corner_photos(3, 2)
    photo = read_photo_faces(images[0], "corner.png")
    with pytest.raises(BadInputError, match=r"\(3 in corner.png\)"):
        check_views([photo])


def test_check_takes_two_corner_photos(tmp_path, table_cache):
    truth, images = corner_photos(3, 2)
    for k, image in enumerate(images):
        cv2.imwrite(str(tmp_path / f"corner{k}.png"), image)
    result = CliRunner().invoke(main, ["check", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["valid"] and same_cube(data["facelets"], truth)
    assert apply_moves(data["facelets"], data["solution"]) == solved_facelets(3)
    assert len(data["photos"]) == 6 and data["conflicts"] == [] and data["placed"] == []
    refused = CliRunner().invoke(main, ["check", str(tmp_path), "--annotate", str(tmp_path)])
    assert refused.exit_code == 2 and "cubescan read" in refused.output


def test_check_chooses_among_more_photos_than_can_be_placed_together(tmp_path, table_cache):
    # Two corners and three edges: five photos of joined faces are too many to place
    # together (24 ways each), so the photos that show every face are chosen and read.
    truth, corners = corner_photos(3, 2)
    edges = render_cube_edges(truth, np.random.default_rng(1), scale_range=(0.6, 0.9))
    for k, image in enumerate([*edges, *corners]):
        cv2.imwrite(str(tmp_path / f"photo{k}.png"), image)
    result = CliRunner().invoke(main, ["check", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["valid"] and same_cube(data["facelets"], truth)
    assert {photo["face"] for photo in data["photos"]} == set("URFDLB")
    text = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert text.exit_code == 0 and "Read 5 photos" in text.output
