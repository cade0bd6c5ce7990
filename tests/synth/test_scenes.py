"""The scene renderer: exact ground truth, valid cube states, deterministic scenes."""

from __future__ import annotations

import numpy as np
import pytest

from cubescan.solver.geometry import cube_geometry
from cubescan.synth import scenes as synth
from cubescan.synth import specs
from cubescan.synth.raster import fill_polygons, rounded_square

SOLVED3 = "".join(face * 9 for face in "URFDLB")


def test_the_renderer_uses_the_solvers_sticker_model() -> None:
    # One geometric model for the whole project (moves are tested in test_moves.py).
    for size in (2, 3, 5):
        assert np.allclose(specs.sticker_positions(size) * 2, cube_geometry(size).positions)


def test_scramble_gives_a_cube_with_fixed_centers() -> None:
    facelets, moves = specs.scramble(np.random.default_rng(1), 3)
    assert len(moves.split()) == 30
    assert [facelets[9 * k + 4] for k in range(6)] == list("URFDLB")
    assert facelets != SOLVED3


@pytest.mark.parametrize("size", [2, 3, 5, 7])
def test_truth_centers_are_on_the_rendered_stickers(size: int) -> None:
    rng = np.random.default_rng(size)
    spec = specs.random_scene_spec(rng, size, resolution=(640, 480), hard=False)
    image, truth = synth.render_scene(spec)
    assert image.shape == (480, 640, 3) and image.dtype == np.uint8
    centers = truth.centers[truth.front_face]
    assert centers.shape == (size, size, 2)
    assert truth.front_tilt_deg <= 35.0 + 1e-6
    palette = specs.PALETTES[spec.palette]
    # Every front sticker's centre pixel has the hue family of its colour (lighting aside):
    # the channel that is largest in the palette colour is not the smallest in the image.
    for (x, y), letter in zip(centers.reshape(-1, 2), truth.colors[truth.front_face], strict=True):
        pixel = image[round(y), round(x)].astype(int)
        reference = np.array(palette[letter])
        if np.ptp(reference) > 120:
            assert np.argmax(reference) != np.argmin(pixel)


def test_face_corners_enclose_the_centers() -> None:
    spec = specs.random_scene_spec(np.random.default_rng(5), 4, resolution=(800, 600))
    _, truth = synth.render_scene(spec)
    quad = truth.corners[truth.front_face]
    centers = truth.centers[truth.front_face].reshape(-1, 2)
    # All centres are convex combinations inside the quad: same side of every edge.
    edges = np.roll(quad, -1, axis=0) - quad
    rel = centers[:, None, :] - quad[None]
    cross = edges[None, :, 0] * rel[..., 1] - edges[None, :, 1] * rel[..., 0]
    assert np.all(cross > 0) or np.all(cross < 0)


def test_rendering_is_deterministic_and_backgrounds_persist_across_poses() -> None:
    spec = specs.random_scene_spec(np.random.default_rng(9), 3, resolution=(320, 240))
    first, _ = synth.render_scene(spec)
    again, _ = synth.render_scene(spec)
    assert np.array_equal(first, again)
    moved = specs.with_pose(spec, specs.face_pose("U", 20, 10, 5), np.array([0.0, 0.0, 30.0]))
    _, truth = synth.render_scene(moved)
    assert truth.front_face == "U"


def test_corner_view_shows_three_faces() -> None:
    rotation = specs.face_pose("F", 30, 135, 0, yaw_extra_deg=-45)
    spec = specs.SceneSpec(
        size=3,
        colors="".join(specs.STANDARD_SCHEME[f] for f in SOLVED3),
        width=640,
        height=480,
        rotation=tuple(map(tuple, rotation)),
        center=(0.0, 0.0, 14.0),
        focal=700.0,
    )
    _, truth = synth.render_scene(spec)
    assert len(truth.visible_faces) == 3


def test_occluder_and_glare_are_reported_on_the_right_cells() -> None:
    rng = np.random.default_rng(0)
    for _ in range(40):
        spec = specs.random_scene_spec(rng, 3, resolution=(320, 240))
        _, truth = synth.render_scene(spec)
        if spec.occluder is not None:
            covered = np.argwhere(truth.occluded)
            assert len(covered) >= 1
            # The finger comes from outside: it covers a border cell.
            assert any(min(r, c) == 0 or max(r, c) == 2 for r, c in covered)
        if spec.glare is None:
            assert not truth.glared.any()


def test_canonical_view_puts_the_top_row_up() -> None:
    spec = specs.random_scene_spec(np.random.default_rng(3), 3, resolution=(640, 480))
    _, truth = synth.render_scene(spec)
    centers, _ = specs.canonical_view(truth.centers[truth.front_face])
    up = centers[0].mean(axis=0) - centers[-1].mean(axis=0)
    assert abs(np.degrees(np.arctan2(up[0], -up[1]))) <= 45.0 + 1e-6


def test_clutter_scenes_have_no_cube_and_vary() -> None:
    rng = np.random.default_rng(4)
    images = [synth.render_clutter(rng, (320, 240)) for _ in range(3)]
    assert all(image.shape == (240, 320, 3) for image in images)
    assert not np.array_equal(images[0], images[1])


def test_a_shape_paints_each_pixel_by_the_share_it_covers():
    # A camera pixel sums the light over its area: a half-covered pixel is a half mix (to
    # the coverage's resolution, 1/8 px).
    canvas = np.zeros((3, 3, 3), np.float32)
    fill_polygons(canvas, [rounded_square(0.5, 0.5, 1.0, 1.5, 0.0)], (200,) * 3)
    assert canvas[1, 1] == pytest.approx([100.0] * 3, abs=200 / 16)
    assert canvas[1, 0].max() == 0 and canvas[1, 2].max() == 0 and canvas[0, 1].max() == 0


def test_shapes_cover_their_area_on_average():
    rng = np.random.default_rng(0)
    excess = []
    for _ in range(200):
        (x0, y0), (w, h) = rng.uniform(2, 4, 2), rng.uniform(1, 6, 2)
        canvas = np.zeros((12, 12, 3), np.float32)
        fill_polygons(canvas, [rounded_square(x0, y0, x0 + w, y0 + h, 0.0)], (1,) * 3)
        excess.append(canvas[..., 0].sum() - w * h)
    assert abs(np.mean(excess)) < 0.05  # px^2, on rectangles of 14 px perimeter on average


def test_a_seam_narrower_than_a_pixel_still_darkens_it():
    # Two tiles 0.45 px apart over dark plastic (a stickerless cube's seam at 16 px stickers):
    # the pixel the seam crosses is a mix. With no anti-aliasing the seam vanished.
    canvas = np.full((8, 21, 3), 20.0, np.float32)
    for x0, x1 in ((-2.0, 9.78), (10.23, 22.0)):
        fill_polygons(canvas, [rounded_square(x0, -2.0, x1, 10.0, 0.0)], (200.0,) * 3)
    row = canvas[4, :, 0]
    assert 60 < row[10] < 160
    assert row[:10] == pytest.approx([200.0] * 10) and row[11:] == pytest.approx([200.0] * 10)
