"""A noise model of how a camera sees cube stickers, for tests and accuracy benchmarks.

Stickers are modelled as linear-sRGB reflectances (the official Rubik's colours, jittered
per cube brand and per sticker), lit by a light of some colour temperature that the camera
does *not* white-balance away (the von Kries / Bradford adaptation to D65 is missing, so the
whole scene keeps the light's colour cast), scaled by exposure and per-face shading, with
sensor noise, occasional glare and 8-bit sRGB quantisation. The output is float CIELAB, the
same thing the scanner's sampling stage hands to the classifier.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cubescan.calibration.colorspace import (
    D65_XYZ,
    RGB_TO_XYZ,
    XYZ_TO_RGB,
    adaptation_matrix,
    cct_to_xyz,
    linear_to_srgb,
    rgb_to_lab,
    srgb_to_linear,
)
from cubescan.solver.cubie import random_state
from cubescan.synth.specs import scramble

#: Official sticker colours (sRGB 0..255) in the order white, yellow, red, orange, green, blue.
STICKER_SRGB = np.array(
    [
        [240, 240, 240],
        [255, 213, 0],
        [183, 18, 52],
        [255, 88, 0],
        [0, 155, 72],
        [0, 70, 173],
    ],
    dtype=np.float64,
)

#: Sticker colour of each face letter for the standard scheme (U white, R red, F green,
#: D yellow, L orange, B blue), as indices into :data:`STICKER_SRGB`.
STANDARD_FACE_COLOR = {"U": 0, "R": 2, "F": 4, "D": 1, "L": 3, "B": 5}

LIGHTS = ("warm", "cool", "dim", "mixed", "lamp")

#: Range of the colour temperature (kelvin) the ``"lamp"`` light leaves on the photo.
LAMP_KELVIN = (3000.0, 4200.0)


@dataclass(frozen=True)
class Light:
    """One lighting condition of the noise model.

    Parameters
    ----------
    name
        Condition name, one of :data:`LIGHTS`.
    kelvin
        Colour temperature per face (6 values; equal for a uniform light).
    exposure
        Overall exposure (1.0 puts a white sticker near the top of the 8-bit range).
    noise
        Standard deviation of a sticker reading's sensor noise in linear RGB at unit gain
        (the reading is a median over a patch of pixels, so this is well below pixel noise;
        it grows with the square root of the gain in dim light).
    flare
        Veiling light added to every sticker, as a share of what a white sticker reflects
        (lens flare, a glossy finish under a broad lamp): it washes colours out.
    saturation
        The camera's colour saturation: each reading moves towards its own luminance by
        ``1 - saturation`` (1 leaves it as it is).
    """

    name: str
    kelvin: tuple[float, ...]
    exposure: float
    noise: float
    flare: float = 0.0
    saturation: float = 1.0


def draw_light(name: str, rng: np.random.Generator) -> Light:
    """Draw the parameters of one lighting condition.

    Parameters
    ----------
    name
        ``"warm"`` (2700 K incandescent), ``"cool"`` (6500 K daylight lamp), ``"dim"``
        (4000 K at a quarter of the exposure: low signal, strong noise) or ``"mixed"``
        (each face under its own light between 2700 K and 6500 K, e.g. lamp plus window) or
        ``"lamp"`` (a warm desk lamp the camera half corrects: a cast of
        :data:`LAMP_KELVIN`, flare and low saturation that wash the colours out and an
        exposure that clips white, so that white reads pale yellow; see
        :func:`lamp_light`).
    rng
        Random generator.

    Returns
    -------
    Light
        The drawn condition.

    Examples
    --------
    >>> draw_light("warm", np.random.default_rng(0)).kelvin[0]
    2700.0
    """
    if name == "warm":
        return Light(name, (2700.0,) * 6, float(rng.uniform(0.6, 1.0)), 0.002)
    if name == "cool":
        return Light(name, (6500.0,) * 6, float(rng.uniform(0.6, 1.0)), 0.002)
    if name == "dim":
        return Light(name, (4000.0,) * 6, float(rng.uniform(0.2, 0.35)), 0.002)
    if name == "mixed":
        kelvins = tuple(float(k) for k in rng.uniform(2700.0, 6500.0, size=6))
        return Light(name, kelvins, float(rng.uniform(0.5, 1.0)), 0.002)
    if name == "lamp":
        return lamp_light(float(rng.uniform(*LAMP_KELVIN)), rng)
    raise ValueError(f"unknown light {name!r}; expected one of {', '.join(LIGHTS)}")


def lamp_light(kelvin: float, rng: np.random.Generator) -> Light:
    """A warm, washed-out lamp that leaves a cast of ``kelvin`` on the photo.

    The light of a colour-temperature sweep: one cast for all six faces, veiling flare of
    5..15 % of white, a camera saturation of 0.5..0.8 and an exposure of 1.0..1.5 (white
    and the palest yellows clip towards the top of the 8-bit range, where they differ
    least). At a few thousand kelvin white reads pale yellow and yellow not much more so.

    Parameters
    ----------
    kelvin
        Colour temperature of the cast left on the photo (after whatever white balance
        the camera did).
    rng
        Random generator (draws the exposure, flare and saturation).

    Returns
    -------
    Light
        A light named ``"lamp"``.

    Examples
    --------
    >>> light = lamp_light(3500.0, np.random.default_rng(0))
    >>> light.kelvin[0], 0.5 <= light.saturation <= 0.8
    (3500.0, True)
    """
    exposure = float(rng.uniform(1.0, 1.5))
    flare = float(rng.uniform(0.05, 0.15))
    return Light("lamp", (kelvin,) * 6, exposure, 0.002, flare, float(rng.uniform(0.5, 0.8)))


def draw_brand(rng: np.random.Generator) -> np.ndarray:
    """Linear-RGB reflectance of the six sticker colours of one cube brand.

    Parameters
    ----------
    rng
        Random generator.

    Returns
    -------
    numpy.ndarray
        Array (6, 3): the official colours with each channel scaled by 0.9..1.1
        (different plastics and dyes).

    Examples
    --------
    >>> draw_brand(np.random.default_rng(0)).shape
    (6, 3)
    """
    return srgb_to_linear(STICKER_SRGB) * rng.uniform(0.9, 1.1, size=(6, 3))


def render_stickers(
    color_index: np.ndarray,
    light: Light,
    rng: np.random.Generator,
    glare_rate: float = 0.02,
    brand: np.ndarray | None = None,
) -> np.ndarray:
    """Render the camera's Lab reading of every sticker of a cube under ``light``.

    Parameters
    ----------
    color_index
        Integer array (6*N*N,) in facelet order: index into :data:`STICKER_SRGB` of each
        sticker's true colour.
    light
        Lighting condition from :func:`draw_light`.
    rng
        Random generator.
    glare_rate
        Probability that a sticker's reading is partly washed out by a specular highlight.
    brand
        Sticker reflectances from :func:`draw_brand`; a new brand is drawn when None.

    Returns
    -------
    numpy.ndarray
        Float CIELAB (6*N*N, 3) as sampled from the 8-bit image.

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> lab = render_stickers(np.repeat(np.arange(6), 9), draw_light("cool", rng), rng)
    >>> lab.shape
    (54, 3)
    """
    color_index = np.asarray(color_index)
    count = color_index.size
    per_face = count // 6
    if brand is None:
        brand = draw_brand(rng)
    reflectance = brand[color_index] * rng.uniform(0.96, 1.04, size=(count, 3))
    face = np.repeat(np.arange(6), per_face)
    shading = rng.uniform(0.7, 1.0, size=6)[face] * rng.uniform(0.9, 1.0, size=count)
    linear = np.empty((count, 3))
    light_rgb = np.empty((count, 3))
    for f in range(6):
        rows = face == f
        illum = cct_to_xyz(light.kelvin[f])
        # The camera keeps its D65 balance: the scene's cast is not adapted away.
        cast = XYZ_TO_RGB @ adaptation_matrix(D65_XYZ, illum / illum[1]) @ RGB_TO_XYZ
        linear[rows] = reflectance[rows] @ cast.T
        light_rgb[rows] = cast @ np.ones(3)
    # Auto exposure targets the brightest channel of white; low light means high gain.
    gain = 1.0 / max(light.exposure, 1e-3)
    signal = (linear + light.flare * light_rgb) * shading[:, None] * light.exposure
    luminance = signal @ RGB_TO_XYZ[1]
    signal = luminance[:, None] + light.saturation * (signal - luminance[:, None])
    noise_sd = light.noise * np.sqrt(gain)
    camera = (signal + rng.normal(0.0, noise_sd, size=signal.shape)) * min(gain, 1.6)
    # A highlight the sampler could not reject: light of the lamp's colour added on top.
    glare = rng.random(count) < glare_rate
    strength = rng.uniform(0.05, 0.25, size=(int(glare.sum()), 1))
    camera[glare] += strength * light_rgb[glare] * light.exposure * min(gain, 1.6)
    srgb = np.round(linear_to_srgb(camera))
    return rgb_to_lab(srgb)


def render_cube(facelets: str, light: str, rng: np.random.Generator) -> np.ndarray:
    """The camera's Lab reading of every sticker of a cube in the standard colour scheme.

    :func:`render_stickers` under a light drawn by :func:`draw_light`, each face letter
    taking its colour from :data:`STANDARD_FACE_COLOR`.

    Parameters
    ----------
    facelets
        The cube in face letters (URFDLB), facelet order, any N.
    light
        A name of :data:`LIGHTS`.
    rng
        Random generator (draws the light, then the stickers).

    Returns
    -------
    numpy.ndarray
        Float CIELAB (6*N*N, 3), facelet order: face f's samples are rows
        ``f*N*N .. (f+1)*N*N - 1``.

    Examples
    --------
    >>> cube = "UUUURRRRFFFFDDDDLLLLBBBB"  # a solved 2x2
    >>> render_cube(cube, "warm", np.random.default_rng(0)).shape
    (24, 3)
    >>> rng = np.random.default_rng(0)  # the same as, at length:
    >>> index = np.array([STANDARD_FACE_COLOR[letter] for letter in cube])
    >>> same = render_stickers(index, draw_light("warm", rng), rng)
    >>> bool(np.array_equal(same, render_cube(cube, "warm", np.random.default_rng(0))))
    True
    """
    index = np.array([STANDARD_FACE_COLOR[letter] for letter in facelets])
    return render_stickers(index, draw_light(light, rng), rng)


def random_cube(size: int, rng: np.random.Generator) -> str:
    """A random real cube of any size, in face letters (standard orientation).

    A 2x2 or 3x3 is drawn uniformly (:func:`cubescan.solver.cubie.random_state`); a bigger
    cube is scrambled by ``25 * N`` random outer and wide turns
    (:func:`cubescan.synth.specs.scramble`), which mixes every orbit.

    Parameters
    ----------
    size
        N, 2..7.
    rng
        Random generator.

    Returns
    -------
    str
        6*N*N face letters, facelet order.

    Examples
    --------
    >>> len(random_cube(5, np.random.default_rng(0)))
    150
    """
    if size <= 3:
        return random_state(rng, size)
    return scramble(rng, size, 25 * size)[0]


def random_color_layout(size: int, rng: np.random.Generator) -> np.ndarray:
    """A random colour layout for classification tests: fixed centres, shuffled rest.

    Odd sizes keep the six fixed centre stickers in the standard scheme; every other sticker
    is a random permutation of the remaining colour multiset (exactly N*N of each colour).
    The layout need not be a solvable cube: classification does not look at pieces.

    Parameters
    ----------
    size
        Cube size N (2..7).
    rng
        Random generator.

    Returns
    -------
    numpy.ndarray
        Integer array (6*N*N,) of indices into :data:`STICKER_SRGB`, in facelet order.

    Examples
    --------
    >>> layout = random_color_layout(3, np.random.default_rng(0))
    >>> np.bincount(layout).tolist(), layout[4].item()
    ([9, 9, 9, 9, 9, 9], 0)
    """
    per_face = size * size
    face_colors = np.array([STANDARD_FACE_COLOR[f] for f in "URFDLB"])
    layout = np.repeat(face_colors, per_face)
    movable = np.ones(layout.size, dtype=bool)
    if size % 2 == 1:
        movable[np.arange(6) * per_face + per_face // 2] = False
    layout[movable] = rng.permutation(layout[movable])
    return layout
