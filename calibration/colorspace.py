"""Colour-space conversions: 8-bit sRGB / BGR <-> CIELAB (float, L 0..100, D65), vectorised.

OpenCV's 8-bit Lab packs L into 0..255 and offsets a, b by 128, which is easy to mix up
with real CIELAB; every function here works in float CIELAB with L in 0..100 and a, b
signed, relative to the D65 white of sRGB.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

# sRGB primaries with D65 white (IEC 61966-2-1), linear RGB -> XYZ.
RGB_TO_XYZ = np.array(
    [
        [0.4124564, 0.3575761, 0.1804375],
        [0.2126729, 0.7151522, 0.0721750],
        [0.0193339, 0.1191920, 0.9503041],
    ]
)
XYZ_TO_RGB = np.linalg.inv(RGB_TO_XYZ)
D65_XYZ = RGB_TO_XYZ @ np.ones(3)

# Bradford cone-response matrix, used for von Kries style chromatic adaptation.
BRADFORD = np.array(
    [
        [0.8951, 0.2664, -0.1614],
        [-0.7502, 1.7135, 0.0367],
        [0.0389, -0.0685, 1.0296],
    ]
)
BRADFORD_INV = np.linalg.inv(BRADFORD)

_EPSILON = 216 / 24389
_KAPPA = 24389 / 27


def srgb_to_linear(rgb: np.ndarray) -> np.ndarray:
    """Decode sRGB values in 0..255 to linear light in 0..1.

    Parameters
    ----------
    rgb
        Array (..., 3) of sRGB values on the 0..255 scale (float or integer).

    Returns
    -------
    numpy.ndarray
        Linear RGB in 0..1, same shape, float64.

    Examples
    --------
    >>> srgb_to_linear(np.array([255, 0, 0])).tolist()
    [1.0, 0.0, 0.0]
    """
    c = np.asarray(rgb, dtype=np.float64) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(linear: np.ndarray) -> np.ndarray:
    """Encode linear light in 0..1 to sRGB on the 0..255 scale (float, clipped).

    Parameters
    ----------
    linear
        Array (..., 3) of linear RGB.

    Returns
    -------
    numpy.ndarray
        sRGB values in 0..255 (float64, not rounded).

    Examples
    --------
    >>> np.round(linear_to_srgb(np.array([1.0, 0.0, 0.0]))).tolist()
    [255.0, 0.0, 0.0]
    """
    c = np.clip(np.asarray(linear, dtype=np.float64), 0.0, 1.0)
    encoded = np.where(c <= 0.0031308, 12.92 * c, 1.055 * c ** (1 / 2.4) - 0.055)
    return encoded * 255.0


def xyz_to_lab(xyz: np.ndarray, white: np.ndarray = D65_XYZ) -> np.ndarray:
    """Convert CIE XYZ to CIELAB relative to ``white``.

    Parameters
    ----------
    xyz
        Array (..., 3) of XYZ with the white's Y equal to 1.
    white
        Reference white XYZ, D65 by default.

    Returns
    -------
    numpy.ndarray
        Lab (..., 3), L in 0..100.

    Examples
    --------
    >>> np.round(xyz_to_lab(D65_XYZ), 6).tolist()
    [100.0, 0.0, 0.0]
    """
    t = np.asarray(xyz, dtype=np.float64) / np.asarray(white, dtype=np.float64)
    f = np.where(t > _EPSILON, np.cbrt(t), (_KAPPA * t + 16) / 116)
    lightness = 116 * f[..., 1] - 16
    a = 500 * (f[..., 0] - f[..., 1])
    b = 200 * (f[..., 1] - f[..., 2])
    return np.stack([lightness, a, b], axis=-1)


def lab_to_xyz(lab: np.ndarray, white: np.ndarray = D65_XYZ) -> np.ndarray:
    """Convert CIELAB to CIE XYZ relative to ``white`` (inverse of :func:`xyz_to_lab`).

    Parameters
    ----------
    lab
        Array (..., 3) of Lab.
    white
        Reference white XYZ, D65 by default.

    Returns
    -------
    numpy.ndarray
        XYZ (..., 3).

    Examples
    --------
    >>> np.allclose(lab_to_xyz(np.array([100.0, 0, 0])), D65_XYZ)
    True
    """
    lab = np.asarray(lab, dtype=np.float64)
    fy = (lab[..., 0] + 16) / 116
    fx = fy + lab[..., 1] / 500
    fz = fy - lab[..., 2] / 200
    f = np.stack([fx, fy, fz], axis=-1)
    t = np.where(f**3 > _EPSILON, f**3, (116 * f - 16) / _KAPPA)
    return t * np.asarray(white, dtype=np.float64)


def lab_to_lch(lab: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Lightness, chroma and hue angle of CIELAB colours.

    Parameters
    ----------
    lab
        Array (..., 3) of CIELAB; NaN stays NaN.

    Returns
    -------
    tuple of numpy.ndarray
        L (...), chroma (...) and hue angle (...) in degrees, 0..360.

    Examples
    --------
    >>> lightness, chroma, hue = lab_to_lch(np.array([[50.0, 0, 20], [70, -3, -4]]))
    >>> chroma.tolist(), np.round(hue, 1).tolist()
    ([20.0, 5.0], [90.0, 233.1])
    """
    lab = np.asarray(lab)
    return (
        lab[..., 0],
        np.hypot(lab[..., 1], lab[..., 2]),
        np.degrees(np.arctan2(lab[..., 2], lab[..., 1])) % 360.0,
    )


def rgb_to_lab(rgb: np.ndarray) -> np.ndarray:
    """Convert 8-bit-scale sRGB (0..255) to float CIELAB (D65).

    Parameters
    ----------
    rgb
        Array (..., 3) in R, G, B order, values 0..255.

    Returns
    -------
    numpy.ndarray
        Lab (..., 3) float64, L in 0..100.

    Examples
    --------
    >>> np.round(rgb_to_lab(np.array([255, 255, 255])), 3).tolist()
    [100.0, 0.0, 0.0]
    >>> np.round(rgb_to_lab(np.array([255, 0, 0])), 1).tolist()
    [53.2, 80.1, 67.2]
    """
    return xyz_to_lab(srgb_to_linear(rgb) @ RGB_TO_XYZ.T)


def lab_to_rgb(lab: np.ndarray) -> np.ndarray:
    """Convert float CIELAB (D65) to sRGB on the 0..255 scale (float, clipped to gamut).

    Parameters
    ----------
    lab
        Array (..., 3) of Lab.

    Returns
    -------
    numpy.ndarray
        sRGB (..., 3) in 0..255, float64.

    Examples
    --------
    >>> np.round(lab_to_rgb(np.array([100.0, 0.0, 0.0]))).tolist()
    [255.0, 255.0, 255.0]
    """
    return linear_to_srgb(lab_to_xyz(lab) @ XYZ_TO_RGB.T)


def bgr_to_lab(bgr: np.ndarray) -> np.ndarray:
    """Convert OpenCV-order 8-bit BGR (0..255) to float CIELAB (D65).

    Parameters
    ----------
    bgr
        Array (..., 3) in B, G, R order, e.g. pixels of an OpenCV image.

    Returns
    -------
    numpy.ndarray
        Lab (..., 3) float64, L in 0..100.

    Examples
    --------
    >>> np.round(bgr_to_lab(np.array([0, 0, 255])), 1).tolist()
    [53.2, 80.1, 67.2]
    >>> np.round(bgr_to_lab(np.array([0, 0, 255], np.uint8)), 1).tolist()
    [53.2, 80.1, 67.2]
    """
    bgr = np.asarray(bgr)
    if bgr.dtype == np.uint8:
        # Pixels, the common case: each 8-bit level is decoded once, by table (the same
        # numbers as the general path, a few times faster).
        table = _xyz_of_bgr_levels()
        return xyz_to_lab(table[0][bgr[..., 0]] + table[1][bgr[..., 1]] + table[2][bgr[..., 2]])
    return rgb_to_lab(bgr[..., ::-1])


@lru_cache(maxsize=1)
def _xyz_of_bgr_levels() -> np.ndarray:
    """(3, 256, 3): the XYZ contribution of each 8-bit B, G and R level (sRGB decoded)."""
    linear = srgb_to_linear(np.arange(256.0))
    table = np.stack([np.outer(linear, RGB_TO_XYZ[:, channel]) for channel in (2, 1, 0)])
    table.flags.writeable = False
    return table


def lab_to_bgr(lab: np.ndarray) -> np.ndarray:
    """Convert float CIELAB (D65) to OpenCV-order BGR on the 0..255 scale (float).

    Parameters
    ----------
    lab
        Array (..., 3) of Lab.

    Returns
    -------
    numpy.ndarray
        BGR (..., 3) in 0..255, float64.

    Examples
    --------
    >>> np.round(lab_to_bgr(np.array([53.2408, 80.0925, 67.2032]))).tolist()
    [0.0, 0.0, 255.0]
    """
    return lab_to_rgb(lab)[..., ::-1]


def adaptation_matrix(source_white: np.ndarray, target_white: np.ndarray) -> np.ndarray:
    """Bradford (von Kries in a sharpened cone space) adaptation matrix for XYZ.

    Parameters
    ----------
    source_white
        XYZ of the white under the source illuminant.
    target_white
        XYZ of the white it should map to.

    Returns
    -------
    numpy.ndarray
        3x3 matrix ``M`` with ``xyz_target = M @ xyz_source``.

    Examples
    --------
    >>> m = adaptation_matrix(np.array([1.0, 1.0, 1.0]), D65_XYZ)
    >>> np.allclose(m @ np.array([1.0, 1.0, 1.0]), D65_XYZ)
    True
    """
    src = BRADFORD @ np.asarray(source_white, dtype=np.float64)
    dst = BRADFORD @ np.asarray(target_white, dtype=np.float64)
    return BRADFORD_INV @ np.diag(dst / src) @ BRADFORD


def adapt_lab(lab: np.ndarray, white_lab: np.ndarray, target_l: float | None = None) -> np.ndarray:
    """White-balance Lab colours so that ``white_lab`` becomes neutral (Bradford adaptation).

    Parameters
    ----------
    lab
        Array (..., 3) of Lab colours seen under some light.
    white_lab
        Lab of a white surface seen under the same light.
    target_l
        Lightness that white should get after adaptation; by default it keeps its own
        lightness (pure chromatic adaptation, no exposure change).

    Returns
    -------
    numpy.ndarray
        Adapted Lab (..., 3).

    Examples
    --------
    >>> warm_white = np.array([90.0, 8.0, 30.0])
    >>> bool(np.allclose(adapt_lab(warm_white, warm_white), [90.0, 0.0, 0.0], atol=1e-3))
    True
    """
    white_xyz = lab_to_xyz(white_lab)
    target_y = white_xyz[1] if target_l is None else lab_to_xyz(np.array([target_l, 0, 0]))[1]
    matrix = adaptation_matrix(white_xyz, D65_XYZ * target_y)
    return xyz_to_lab(lab_to_xyz(lab) @ matrix.T)


def cct_to_xyz(kelvin: float) -> np.ndarray:
    """XYZ (Y = 1) of a blackbody-like light of correlated colour temperature ``kelvin``.

    Uses the Kim et al. cubic-spline approximation of the Planckian locus (1667..25000 K).

    Parameters
    ----------
    kelvin
        Colour temperature in kelvin.

    Returns
    -------
    numpy.ndarray
        XYZ with Y = 1.

    Examples
    --------
    >>> xyz = cct_to_xyz(2700)  # incandescent: more X (red), much less Z (blue) than D65
    >>> bool(xyz[0] > D65_XYZ[0] and xyz[2] < 0.5 * D65_XYZ[2])
    True
    """
    t = float(kelvin)
    if not 1667 <= t <= 25000:
        raise ValueError(f"colour temperature {t} K outside 1667..25000 K")
    if t <= 4000:
        x = -0.2661239e9 / t**3 - 0.2343589e6 / t**2 + 0.8776956e3 / t + 0.179910
    else:
        x = -3.0258469e9 / t**3 + 2.1070379e6 / t**2 + 0.2226347e3 / t + 0.240390
    if t <= 2222:
        y = -1.1063814 * x**3 - 1.34811020 * x**2 + 2.18555832 * x - 0.20219683
    elif t <= 4000:
        y = -0.9549476 * x**3 - 1.37418593 * x**2 + 2.09137015 * x - 0.16748867
    else:
        y = 3.0817580 * x**3 - 5.87338670 * x**2 + 3.75112997 * x - 0.37001483
    return np.array([x / y, 1.0, (1 - x - y) / y])


def adapt_to_whites(
    lab: np.ndarray, whites: np.ndarray, target_l: float | None = None
) -> np.ndarray:
    """``lab`` white-balanced to each of several white points at once (as :func:`adapt_lab`).

    Parameters
    ----------
    lab
        (M, 3) CIELAB readings.
    whites
        (K, 3) CIELAB readings of the candidate white points.
    target_l
        Lightness each white is taken to; None keeps each white's own lightness (pure
        chromatic adaptation, no exposure change).

    Returns
    -------
    numpy.ndarray
        (K, M, 3): the readings balanced to each white in turn.

    Examples
    --------
    >>> whites = np.array([[80.0, 0.0, 20.0], [80.0, 0.0, 0.0]])
    >>> balanced = adapt_to_whites(whites[:1], whites)  # the warm white, to each white
    >>> np.abs(balanced[:, 0, 2]).round(1).tolist()  # neutral under itself, warm under white
    [0.0, 20.0]
    """
    white_xyz = lab_to_xyz(whites)
    # A black "white" (no light at all) has no cone response to divide by: floor it.
    white_cones = np.maximum(white_xyz @ BRADFORD.T, 1e-6)
    if target_l is None:
        target_y = white_xyz[:, 1:2]
    else:
        target_y = np.full((len(whites), 1), lab_to_xyz(np.array([target_l, 0.0, 0.0]))[1])
    target_cones = (BRADFORD @ D65_XYZ)[None, :] * target_y
    cones = lab_to_xyz(lab) @ BRADFORD.T
    adapted = cones[None, :, :] * (target_cones / white_cones)[:, None, :]
    return xyz_to_lab(adapted @ BRADFORD_INV.T)
