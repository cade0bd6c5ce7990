"""The six cube colors and what naming them returns.

The reference palette (how a sensibly white-balanced camera records the standard sticker
colors), the standard scheme's face of each color, the results of naming a whole cube
(:class:`Classification`) or one face (:class:`FaceColors`), and the checks every reading
passes first (:func:`check_lab_samples`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from cubescan.errors import BadInputError

FACES = "URFDLB"

#: Default reference palette: how a camera with a sensible white balance typically records
#: the standard sticker colours (float CIELAB, D65). Order: white, yellow, red, orange,
#: green, blue.
PALETTE_NAMES = ("white", "yellow", "red", "orange", "green", "blue")
PALETTE_LAB = np.array(
    [
        [85.0, 0.0, 0.0],
        [82.0, -6.0, 75.0],
        [42.0, 56.0, 28.0],
        [58.0, 40.0, 52.0],
        [54.0, -50.0, 32.0],
        [36.0, 12.0, -50.0],
    ]
)

#: Face of each standard colour (U white, R red, F green, D yellow, L orange, B blue).
STANDARD_FACE_OF_COLOR = MappingProxyType(
    {"white": "U", "red": "R", "green": "F", "yellow": "D", "orange": "L", "blue": "B"}
)


@dataclass(frozen=True)
class ColorInfo:
    """The colour of one face's stickers.

    Parameters
    ----------
    name
        ``"white"``, ``"red"``... for the standard scheme, otherwise ``"color 1"``..``"color 6"``.
    lab
        Mean CIELAB reading of the stickers named this colour.
    """

    name: str
    lab: tuple[float, float, float]


def colors_json(colors: Mapping[str, ColorInfo]) -> dict:
    """Face letter -> colour name and mean Lab, as the JSON reports carry them.

    Parameters
    ----------
    colors
        Face letter -> :class:`ColorInfo` (as :attr:`Classification.colors`).

    Returns
    -------
    dict
        Face letter -> ``{"name": str, "lab": [L, a, b]}``, Lab rounded to 2 decimals, in
        the order of ``colors``.

    Examples
    --------
    >>> colors_json({"U": ColorInfo("white", (90.0, 0.123, -1.0))})
    {'U': {'name': 'white', 'lab': [90.0, 0.12, -1.0]}}
    """
    return {
        face: {"name": info.name, "lab": [round(float(v), 2) for v in info.lab]}
        for face, info in colors.items()
    }


@dataclass(frozen=True, eq=False)
class Classification:
    """Colour names of a whole cube.

    Parameters
    ----------
    size
        Cube size N.
    facelets
        6*N*N letters URFDLB in facelet order; a letter names the face whose colour the
        sticker has.
    colors
        Face letter -> :class:`ColorInfo`.
    confidence
        Float array (6*N*N,) in 0..1: posterior probability of the chosen colour minus that of
        the runner-up.
    log_likelihood
        Float array (6*N*N, 6): log-likelihood of each sticker's reading under each face's
        colour, columns in URFDLB order (for constraint-aware repair).
    standard
        True when the six colours were recognised as the standard scheme.
    """

    size: int
    facelets: str
    colors: Mapping[str, ColorInfo]
    confidence: np.ndarray
    log_likelihood: np.ndarray
    standard: bool


@dataclass(frozen=True, eq=False)
class FaceColors:
    """Colour names of the stickers of one face.

    Parameters
    ----------
    names
        Colour name of each sticker, row-major.
    confidence
        Float array (n,) in 0..1, posterior margin between best and second-best colour.
    white_lab
        The white point (Lab) the face was balanced with.
    """

    names: tuple[str, ...]
    confidence: np.ndarray
    white_lab: tuple[float, float, float]


def check_lab_samples(samples: object, size: int | None = None) -> tuple[np.ndarray, int]:
    """Validate a whole cube's Lab samples and infer its size.

    Parameters
    ----------
    samples
        Array-like (6*N*N, 3) of CIELAB readings in facelet order.
    size
        Expected N, or None to infer it from the sample count.

    Returns
    -------
    tuple of (numpy.ndarray, int)
        The samples as float64 (6*N*N, 3) and N.

    Raises
    ------
    BadInputError
        Wrong shape or count, non-finite values, values outside CIELAB.

    Examples
    --------
    >>> lab, n = check_lab_samples(np.zeros((54, 3)))
    >>> n
    3
    """
    try:
        lab = np.asarray(samples, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise BadInputError("bad-format", f"colour samples are not numbers: {err}") from None
    if lab.ndim != 2 or lab.shape[1] != 3:
        raise BadInputError(
            "bad-format", f"colour samples must have shape (6*N*N, 3), got {lab.shape}"
        )
    count = lab.shape[0]
    if size is None:
        size = round((count / 6) ** 0.5)
        if not 2 <= size <= 7 or 6 * size * size != count:
            raise BadInputError(
                "bad-format",
                f"got {count} colour samples; a cube needs 6*N*N (24, 54, 96, 150, 216, 294)",
            )
    elif not 2 <= size <= 7:
        raise BadInputError("bad-format", f"cube size must be 2..7, got {size}")
    elif count != 6 * size * size:
        raise BadInputError(
            "bad-format", f"a {size}x{size} cube needs {6 * size * size} samples, got {count}"
        )
    bad = ~np.isfinite(lab).all(axis=1)
    if bad.any():
        raise BadInputError(
            "bad-format", f"sample {int(np.argmax(bad)) + 1} is not finite (NaN or infinity)"
        )
    out_of_range = (lab[:, 0] < -1) | (lab[:, 0] > 101) | (np.abs(lab[:, 1:]) > 200).any(axis=1)
    if out_of_range.any():
        index = int(np.argmax(out_of_range))
        raise BadInputError(
            "bad-format",
            f"sample {index + 1} = {lab[index].tolist()} is not a CIELAB colour (L 0..100)",
        )
    return lab, size


def distance_margin(distances: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """Confidence from the margin between the chosen colour and the nearest other one.

    ``(d_other - d_chosen) / (d_other + d_chosen)``, clipped to 0..1: 1 on the chosen colour's
    centre, 0 halfway between two colours (or when the balance constraint had to give the
    sticker to a farther colour).

    Parameters
    ----------
    distances
        Array (n, k) of distances from each reading to each colour.
    chosen
        Integer array (n,) of the chosen column per row.

    Returns
    -------
    numpy.ndarray
        Confidence per row in 0..1.

    Examples
    --------
    >>> distance_margin(np.array([[1.0, 3.0, 9.0], [2.0, 2.0, 5.0]]), np.array([0, 1])).tolist()
    [0.5, 0.0]
    """
    rows = np.arange(distances.shape[0])
    own = distances[rows, chosen]
    others = distances.astype(np.float64, copy=True)
    others[rows, chosen] = np.inf
    nearest = others.min(axis=1)
    return np.clip((nearest - own) / np.maximum(nearest + own, 1e-12), 0.0, 1.0)


MIN_READING_SPREAD = 4.0
"""Least RMS distance (ΔE) of a cube's readings from their mean: less is one color."""

MIN_CHROMA_OF_A_COLOR = 8.0
"""Chroma (CIELAB) above which a group of readings counts as colored, not grey."""


def check_six_colors(lab: np.ndarray, means: np.ndarray) -> None:
    """Refuse readings that cannot hold a cube's six colors.

    Readings of one color, all grey or all black (a sensor that saw nothing, a photo without
    color) would otherwise be named into six groups and printed as a solved cube. Colors that
    merely read close (an over-exposed yellow beside white) are not refused: the clustering
    and the pieces tell them apart.

    Parameters
    ----------
    lab
        (6*N*N, 3) the CIELAB readings.
    means
        (6, 3) CIELAB mean of each of the six groups the stickers were named into.

    Returns
    -------
    None

    Raises
    ------
    BadInputError
        ``indistinct-colors``, saying what the readings show instead.

    Examples
    --------
    >>> lab = np.repeat(PALETTE_LAB, 9, axis=0)
    >>> check_six_colors(lab, PALETTE_LAB)  # the six standard colors: fine
    >>> grey = np.column_stack([np.linspace(10, 90, 54), np.zeros((54, 2))])
    >>> check_six_colors(grey, grey[::9])
    Traceback (most recent call last):
    ...
    cubescan.errors.BadInputError: the readings are all grey (no sticker shows a colour): ...
    """
    lab = np.asarray(lab, dtype=np.float64)
    distinct = len(np.unique(np.round(lab * 2), axis=0))
    spread = float(np.sqrt(((lab - lab.mean(axis=0)) ** 2).sum(axis=1).mean()))
    if distinct < 6 or spread < MIN_READING_SPREAD:
        shown = "one colour" if spread < MIN_READING_SPREAD else f"only {distinct} colours"
        raise BadInputError(
            "indistinct-colors",
            f"the readings show {shown}, not six (a camera that saw nothing, or readings of "
            "one face only): read the six faces of the cube again",
        )
    colored = int((np.hypot(means[:, 1], means[:, 2]) >= MIN_CHROMA_OF_A_COLOR).sum())
    if colored < 3:
        raise BadInputError(
            "indistinct-colors",
            "the readings are all grey (no sticker shows a colour): they come from a photo "
            "without colour or a camera that saw almost nothing; read the cube again in colour",
        )
