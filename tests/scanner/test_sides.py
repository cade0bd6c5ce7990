"""The stickers beside a face: where they are, what colour, how sure, and ties they settle."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import cv2
import numpy as np
import pytest

from cubescan.calibration.colorspace import bgr_to_lab
from cubescan.scanner.assemble import assemble
from cubescan.scanner.grid import detect_grid
from cubescan.scanner.pipeline.check import cube_report
from cubescan.scanner.pipeline.photos import read_cube_photos
from cubescan.scanner.placements import rotate_face
from cubescan.scanner.sides import (
    SideSamples,
    border_cells,
    fitted_pose,
    partner_facelets,
    sample_sides,
    shade_distance,
    side_cells,
    weigh_alternatives,
)
from cubescan.solver.cubie import random_state
from cubescan.solver.geometry import FACES, cube_geometry
from cubescan.synth.scenes import render_scene
from cubescan.synth.specs import PALETTES, STANDARD_SCHEME, cube_photo_specs, random_scene_spec


@cache
def rendered_faces() -> tuple:
    """Tilted single-face photos of sound cubes, with detection and the truth beside them.

    Each item: (image, detection, side samples, truth, (4, N) facelets beside the face's
    sides, (4, N) their true colour letters with "." where that neighbour faces away,
    palette name).
    """
    rng = np.random.default_rng(41)
    items = []
    while len(items) < 24:
        spec = random_scene_spec(
            rng, 3, resolution=(640, 480), max_tilt_deg=30, scale_range=(0.35, 0.7), hard=False
        )
        spec = replace(spec, colors="".join(STANDARD_SCHEME[f] for f in random_state(rng)))
        image, truth = render_scene(spec)
        detection = detect_grid(image, 3, thorough=True)
        turns = None if detection is None else truth.quarter_turns(detection.centers)
        if turns is None:
            continue
        partners = partner_facelets(3, truth.front_face, turns)
        seen = np.isin([FACES[p // 9] for p in partners.ravel()], truth.visible_faces)
        letters = np.where(seen, [spec.colors[p] for p in partners.ravel()], ".").reshape(4, 3)
        sides = sample_sides(image, detection)
        items.append((image, detection, sides, truth, partners, letters, spec.palette))
    return tuple(items)


def nearest_palette_letter(lab: np.ndarray, palette: str) -> np.ndarray:
    letters = "WYROGB"
    bgr = np.array([[PALETTES[palette][x] for x in letters]], np.uint8)
    references = bgr_to_lab(bgr)[0]
    return np.array(list(letters))[shade_distance(lab, references).argmin(axis=-1)]


def test_partners_are_the_other_stickers_of_the_border_pieces():
    geometry = cube_geometry(3)
    piece_of = {i: piece for piece in geometry.pieces for i in piece.facelets}
    for face in FACES:
        for turns in range(4):
            partners = partner_facelets(3, face, turns)
            grid = np.arange(9).reshape(3, 3)
            # Photo cell k is net cell net[k] of the face.
            net = np.empty(9, int)
            net[np.rot90(grid, -turns).ravel()] = np.arange(9)
            for side, cells in enumerate(border_cells(3)):
                for cell, partner in zip(cells, partners[side], strict=True):
                    facelet = FACES.index(face) * 9 + int(net[cell])
                    assert piece_of[facelet] is piece_of[int(partner)]
                    assert FACES[partner // 9] != face
                # One side of the photo faces one neighbouring face.
                assert len({FACES[p // 9] for p in partners[side]}) == 1


def test_strip_outlines_lie_on_the_true_neighbouring_stickers():
    errors = []
    for image, detection, _, truth, partners, letters, _ in rendered_faces():
        centers = side_cells(fitted_pose(image, detection), 3).mean(axis=2)
        pitch = float(np.median(np.linalg.norm(np.diff(detection.centers, axis=1), axis=-1)))
        for side, cell in zip(*np.nonzero(letters != "."), strict=True):
            partner = int(partners[side, cell])
            row, col = divmod(partner % 9, 3)
            true_center = truth.centers[FACES[partner // 9]][row, col]
            errors.append(np.linalg.norm(centers[side, cell] - true_center) / pitch)
    # A neighbour's first row is a fraction of a pitch deep in the image: its centre must
    # be predicted well within that.
    assert len(errors) > 50
    assert np.median(errors) < 0.05
    assert np.mean(np.array(errors) < 0.2) > 0.9


def test_confident_side_samples_are_the_true_neighbouring_colors():
    right = wrong = visible_read = visible = background_confident = background = 0
    for _, _, sides, _, _, letters, palette in rendered_faces():
        confident = sides.confidence > 0.5
        seen = letters != "."
        named = nearest_palette_letter(np.nan_to_num(sides.lab), palette)
        right += (confident & seen & (named == letters)).sum()
        wrong += (confident & seen & (named != letters)).sum()
        visible += seen.sum()
        visible_read += (confident & seen).sum()
        background += (~seen).sum()
        background_confident += (confident & ~seen).sum()
    assert right >= 0.9 * (right + wrong)
    assert visible_read >= 0.5 * visible
    assert background_confident <= 0.03 * background


@pytest.mark.parametrize("paint", [(60, 140, 90), (24, 22, 26)], ids=["green", "dark"])
def test_a_side_showing_only_background_gets_low_confidence(paint):
    # The same photos with every neighbouring face painted over, in a flat sticker-like
    # green or a dark grey like a shadowed background (with sensor noise): the geometry
    # still predicts strips there, but no seams cut them, or they are not stickers.
    noise = np.random.default_rng(3)
    checked = 0
    for image, detection, sides, truth, _, letters, _ in rendered_faces():
        # Sides read over a neighbouring face in view: those are the ones painted over.
        shown = (sides.confidence.max(axis=1) > 0.5) & (letters != ".").any(axis=1)
        if not shown.any():
            continue
        mask = np.zeros(image.shape[:2], np.uint8)
        for face in truth.visible_faces[1:]:
            cv2.fillConvexPoly(mask, np.round(truth.corners[face]).astype(np.int32), 1)
        grain = noise.normal(0, 3, image.shape)
        painted = np.where(mask[..., None] > 0, np.clip(np.add(paint, grain), 0, 255), image)
        repainted = sample_sides(painted.astype(np.uint8), detection)
        assert repainted.confidence[shown].max() < 0.3
        checked += 1
    assert checked >= 5


@cache
def tie_cube() -> str:
    """A random sound cube whose six faces' stickers fit two cubes equally well.

    Found as the scanner would meet it: uniformly random states, the faces' exact
    readings assembled, until one is reported as ambiguous with the truth among the
    alternatives (about one cube in 100).
    """
    rng = np.random.default_rng(6)
    while True:
        state = random_state(rng)
        colors = "".join(STANDARD_SCHEME[f] for f in state)
        result = assemble([colors[9 * f : 9 * f + 9] for f in range(6)])
        if result.ambiguous and state in result.alternatives:
            return state


def check_photos(state: str, seed: int, max_tilt_deg: float) -> tuple:
    """Six rendered photos of ``state`` in random order and rotation, read and reported
    without and with the colours seen beside the faces."""
    rng = np.random.default_rng(seed)
    colors = "".join(STANDARD_SCHEME[f] for f in state)
    specs = cube_photo_specs(
        rng, colors, (640, 480), max_tilt_deg=max_tilt_deg, scale_range=(0.35, 0.6), shuffle=True
    )
    images = [render_scene(spec)[0] for spec in specs]
    sources = [f"photo{i}" for i in range(1, 7)]
    photos = read_cube_photos(images, sources, 3)
    lab = [p.lab for p in photos]
    plain = cube_report(lab, sources, solve=False)
    with_sides = cube_report(lab, sources, solve=False, side_samples=[p.sides for p in photos])
    return plain, with_sides


def test_a_true_tie_is_settled_by_the_stickers_beside_the_faces():
    state = tie_cube()
    settled = 0
    for seed in range(3):
        plain, report = check_photos(state, seed, max_tilt_deg=30)
        # Without the sides, the two cubes cannot be told apart ...
        assert plain.ambiguous and state in plain.alternatives
        # ... with them, never the wrong one; settled when the strips show enough.
        assert report.read_facelets == state or report.ambiguous
        if not report.ambiguous:
            settled += 1
            assert report.valid and report.facelets == state
            assert report.alternatives[0] == state and len(report.alternatives) == 2
            assert "settle it" in report.ambiguity_note and "photo" in report.ambiguity_note
            assert report.to_dict()["ambiguity_note"] == report.ambiguity_note
    assert settled >= 1


def test_photos_showing_no_side_leave_the_tie_reported():
    # Faces photographed square on show no strip of their neighbours.
    plain, report = check_photos(tie_cube(), 7, max_tilt_deg=1.0)
    assert plain.ambiguous
    assert report.ambiguous and set(report.alternatives) == set(plain.alternatives)
    assert report.ambiguity_note.startswith("the stickers seen beside the faces do not settle")


def test_weighing_counts_only_confident_samples_against_the_cube_colors():
    lab = {
        "U": [95.0, 0, 0],
        "R": [45, 60, 45],
        "F": [55, -50, 30],
        "D": [85, -5, 80],
        "L": [62, 40, 65],
        "B": [40, 10, -50],
    }
    cube = "".join(face * 9 for face in FACES)
    faces = [np.array([lab[f]] * 9) for f in FACES]
    as_taken = [(p, f, 0) for p, f in enumerate(FACES)]
    f_upside_down = [(p, f, 2 if f == "F" else 0) for p, f in enumerate(FACES)]
    nothing = SideSamples(np.full((4, 3, 3), np.nan), np.zeros((4, 3)))
    shaded_white = np.array([0.7 * 111 - 16, 0, 0])  # U above F, in shadow
    above = np.full((4, 3, 3), np.nan)
    above[0] = shaded_white
    for confidence, settled in ((1.0, True), (0.05, False)):
        sides = [nothing] * 6
        sides[2] = SideSamples(above, np.array([[confidence] * 3, [0] * 3, [0] * 3, [0] * 3]))
        verdict = weigh_alternatives(
            sides, faces, [f * 9 for f in FACES], [cube, cube], [f_upside_down, as_taken]
        )
        assert verdict.best == 1 and verdict.settled == settled
    # Unreadable sides everywhere: no lead at all.
    verdict = weigh_alternatives(
        [nothing] * 6, faces, [f * 9 for f in FACES], [cube, cube], [as_taken, f_upside_down]
    )
    assert verdict.margin == 0 and not verdict.settled


def test_each_alternative_comes_with_the_placement_that_gives_it():
    state = tie_cube()
    colors = "".join(STANDARD_SCHEME[f] for f in state)
    rng = np.random.default_rng(2)
    readings = [rotate_face(colors[9 * f : 9 * f + 9], 3, int(rng.integers(4))) for f in range(6)]
    result = assemble(readings)
    assert len(result.alternative_placements) == len(result.alternatives) == 2
    for cube, placements in zip(result.alternatives, result.alternative_placements, strict=True):
        letter_of = {readings[p.photo][4]: p.face for p in placements}
        for p in placements:
            block = rotate_face(readings[p.photo], 3, p.quarter_turns)
            start = FACES.index(p.face) * 9
            assert "".join(letter_of[c] for c in block) == cube[start : start + 9]
