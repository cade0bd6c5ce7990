"""A face's pose from its homography: the focal length a square tells, and where the
faces beside it are (checked against the renderer's camera and cube)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from cubescan.scanner.grid import detect_grid
from cubescan.scanner.grid.geometry import warp_points
from cubescan.scanner.grid.pose import TYPICAL_FOCAL, focal_length, neighbor_homographies
from cubescan.synth.corners import random_corner_spec, render_corner_view


def _corner_view(size: int, seed: int):
    spec = random_corner_spec(np.random.default_rng(seed), size, faces=3, resolution=(800, 600))
    image, truth = render_corner_view(spec)
    return spec, image, truth


def _cell_centers(homography: np.ndarray, n: int) -> np.ndarray:
    cells = np.stack(np.meshgrid(np.arange(n), np.arange(n)), -1).reshape(-1, 2) + 0.5
    return warp_points(cells, homography).reshape(n, n, 2)


def _miss(found: np.ndarray, truth: np.ndarray) -> float:
    """Largest distance between found and true centres, in pitches, in the best turn."""
    pitch = float(np.median(np.linalg.norm(np.diff(truth, axis=1), axis=-1)))
    turns = [np.rot90(truth, k, axes=(0, 1)) for k in range(4)]
    return min(
        float(np.linalg.norm(c - found, axis=-1).max()) / pitch
        for turned in turns
        for c in (turned, turned[:, ::-1])
    )


@pytest.mark.parametrize("seed", range(6))
def test_a_rendered_face_tells_the_camera_focal_length(seed: int) -> None:
    spec, image, _ = _corner_view(3, seed)
    face = detect_grid(image)
    assert face is not None
    assert focal_length(face.homography, image.shape) == pytest.approx(spec.focal, rel=0.2)


def test_a_face_seen_square_on_takes_the_typical_focal_length() -> None:
    square_on = np.array([[40.0, 0, 200], [0, 40, 150], [0, 0, 1]])
    assert focal_length(square_on, (480, 640)) == TYPICAL_FOCAL * 640


def _pinhole(rotation_vector, center, n: int = 3, focal: float = 700.0, shape=(600, 800)):
    """A face's homography under a known camera, and its neighbours' (the faces turned a
    right angle back from each side), as (homography, visible) pairs."""
    rotation = cv2.Rodrigues(np.array(rotation_vector, float))[0]
    across, down, normal = rotation.T
    origin = np.array(center, float) - n / 2 * (across + down)
    inward = normal if normal @ center > 0 else -normal
    camera = np.array([[focal, 0, shape[1] / 2], [0, focal, shape[0] / 2], [0, 0, 1]])
    face = camera @ np.column_stack([across, down, origin])
    beside = []
    for start, along, outward in (
        (origin, across, -down),
        (origin + n * across, down, across),
        (origin + n * down, across, down),
        (origin, down, -across),
    ):
        middle = start + n / 2 * (along + inward)
        homography = camera @ np.column_stack([along, inward, start])
        beside.append((homography / homography[2, 2], bool(outward @ middle < 0)))
    return face, beside, focal, shape


@pytest.mark.parametrize(
    ("rotation_vector", "center"),
    [
        ((0.4, -0.5, 0.1), (30, -20, 40)),
        ((-0.6, 0.2, 0.3), (-10, 15, 25)),
        ((0.3, 0.9, -0.2), (0, 0, 30)),
    ],
)
def test_an_exact_face_gives_the_camera_and_its_neighbours_exactly(rotation_vector, center):
    face, beside, focal, shape = _pinhole(rotation_vector, center)
    assert focal_length(face, shape) == pytest.approx(focal, rel=1e-6)
    found = [h / h[2, 2] for h in neighbor_homographies(face, 3, shape)]
    visible = [h for h, shown in beside if shown]
    assert 1 <= len(found) == len(visible) <= 2
    for h in found:
        assert any(np.allclose(h, truth, rtol=1e-6, atol=1e-6) for truth in visible)


def test_the_faces_beside_a_rendered_face_are_predicted_near_where_they_are() -> None:
    # Exact above; here the face's own fit (a few hundredths of a pitch off) and the focal
    # length's error turn its normal by a few degrees, which moves a neighbour seen
    # obliquely by up to about half of its (foreshortened) pitch.
    misses = []
    for seed in range(12):
        size = 2 + seed % 6
        _, image, truth = _corner_view(size, seed)
        face = detect_grid(image)
        assert face is not None and face.size == size
        homographies = neighbor_homographies(face.homography, size, image.shape)
        predicted = [_cell_centers(h, size) for h in homographies]
        own = min(truth.faces, key=lambda t: _miss(face.centers, t.centers))
        others = [t for t in truth.faces if t is not own]
        assert len(predicted) == len(others) == 2
        misses += [min(_miss(centers, t.centers) for centers in predicted) for t in others]
    assert max(misses) < 0.75
    assert np.median(misses) < 0.1


def test_a_face_square_on_shows_only_the_sides_turned_to_the_camera() -> None:
    n, focal, shape = 3, 800.0, (600, 800)
    # A face 3 cells of 40 px, square on: in the middle its sides hide the cube's; to the
    # right of the middle, the cube's left face shows beside it.
    middle = np.array([[40.0, 0, 340], [0, 40, 240], [0, 0, 1]])
    assert neighbor_homographies(middle, n, shape, focal) == []
    right = np.array([[40.0, 0, 600], [0, 40, 240], [0, 0, 1]])
    (beside,) = neighbor_homographies(right, n, shape, focal)
    shared = warp_points(np.array([[0.0, 0], [n, 0]]), beside)
    assert np.allclose(shared[:, 0], 600)  # it shares the face's left side
    far = warp_points(np.array([[0.0, n], [n, n]]), beside)
    assert (far[:, 0] < 600).all()  # and lies to its left
