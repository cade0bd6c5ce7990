"""A rendered 4x4 whose reading the pieces cannot settle, for the naming and output tests."""

from __future__ import annotations

import numpy as np

from cubescan.solver.slots import center_orbits
from cubescan.synth.colors import random_cube, render_cube


def pale_centre_pair(seed: int) -> tuple[str, np.ndarray, int, int]:
    """A 4x4 under cool light whose first centre orbit has a white and a yellow sticker
    read halfway between the two (a hair apart, the wrong way round): either way round
    every piece is real.

    Returns the true facelets, the Lab readings, and the white and the yellow sticker's
    indices.
    """
    rng = np.random.default_rng(seed)
    truth = random_cube(4, rng)
    lab = render_cube(truth, "cool", rng)
    orbit = center_orbits(4)[0].facelets
    white = next(i for i in orbit if truth[i] == "U")
    yellow = next(i for i in orbit if truth[i] == "D")
    pale = (lab[white] + lab[yellow]) / 2
    lab[white], lab[yellow] = pale + 0.25, pale - 0.25
    return truth, lab, white, yellow
