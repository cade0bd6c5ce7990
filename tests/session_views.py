"""Faces as a scanning session sees them, for the session's tests and the CLI's."""

from __future__ import annotations

import numpy as np

from cubescan.scanner.pipeline.session import FaceObservation, ScanSession
from cubescan.scanner.placements import rotate_face
from cubescan.synth.colors import render_cube

TO_LETTERS = str.maketrans("URFDLB", "WRGYOB")


def views(truth: str, rng: np.random.Generator) -> list[FaceObservation]:
    """One observation per face, each turned by a random quarter, as a camera sees it."""
    size = round((len(truth) // 6) ** 0.5)
    per_face = size * size
    lab = render_cube(truth, "cool", rng)
    colors = truth.translate(TO_LETTERS)
    result = []
    for face in range(6):
        turns = int(rng.integers(4))
        grid = lab[face * per_face : (face + 1) * per_face].reshape(size, size, 3)
        result.append(
            FaceObservation(
                size,
                rotate_face(colors[face * per_face : (face + 1) * per_face], size, turns),
                np.rot90(grid, -turns, axes=(0, 1)).reshape(per_face, 3),
                np.array([[100, 100], [300, 100], [300, 300], [100, 300]], dtype=float),
            )
        )
    return result


def show(session: ScanSession, view: FaceObservation, frames: int) -> list:
    events = []
    for _ in range(frames):
        events += session.feed(view)
    events += session.feed(None)  # the cube is turned: no face in view for a moment
    return events
