"""Name one face's sticker colors, with no other face to compare them with.

The face's stickers are named jointly under a two-level model: each color's center in this
photo varies around a reference (camera, light and cube brand move it), while stickers of
one color on one face agree closely. The white point is estimated from the face itself, or
taken from the colors of a calibration profile. This is what the webcam preview and
``cubescan read`` use; a whole cube is named better by :mod:`cubescan.calibration.naming`.
"""

from __future__ import annotations

import numpy as np

from cubescan.calibration.colorspace import (
    adapt_to_whites,
    lab_to_lch,
)
from cubescan.calibration.palette import PALETTE_NAMES, FaceColors, distance_margin
from cubescan.calibration.profile import Profile
from cubescan.errors import BadInputError

# Single-face naming: a two-level model of one photo's stickers. Each chromatic colour
# (yellow, red, orange, green, blue) has, in this photo, a centre in hue (degrees) and in
# lightness relative to the white point; that centre varies from photo to photo (camera,
# light, cube brand: _FACE_* prior means and SDs), while stickers of one colour on one face
# agree closely (_STICKER_* SDs, plus hue noise that grows as chroma falls). Measured on the
# labelled real faces (median per-face centre, spread of centres, spread within a face) and
# widened for cameras not in that set.
_CHROMATIC = (1, 2, 3, 4, 5)  # PALETTE_NAMES indices of the chromatic colours
_FACE_HUE = np.array([101.0, 30.0, 49.0, 146.0, 276.0])
_FACE_HUE_SD = np.array([8.0, 8.0, 8.0, 12.0, 20.0])
_FACE_L = np.array([0.96, 0.53, 0.71, 0.72, 0.48])
_FACE_L_SD = np.array([0.15, 0.15, 0.15, 0.15, 0.15])
# Within one face, a colour's stickers agree in hue to about 1-2 degrees (robust SD on the
# labelled faces) beyond the chroma-dependent noise below.
_STICKER_HUE_SD = 2.0
# Hue noise of a sticker (degrees) is about this divided by its chroma (ΔE noise ~3 in a, b).
_HUE_NOISE = 170.0
_STICKER_L_SD = 0.3
# Below this chroma (per colour, _CHROMATIC order) a hue means little: a colour pays for
# missing chroma, white for having it (scale _WHITE_CHROMA), and white also pays when it is
# much darker than the face's white point (a printed logo cap is white with black print, so
# only gently). Yellow and orange are never pale (1st percentile of their balanced chroma on
# the labelled faces: 28 and 27): a "yellow" or "orange" of chroma 10-15 is a warm-tinted white
# or a white seen through a wrong white point. Reds, greens and blues in shadow can be pale.
_MIN_COLOR_CHROMA = np.array([30.0, 18.0, 30.0, 18.0, 18.0])
# Offset of white's cost against the chromatic colours' marginal likelihoods (-2 log units).
_WHITE_OFFSET = 1.0
# Balanced to their face's white, white stickers keep little chroma (labelled faces: rms 1.7,
# 99th percentile 5.7); the scale allows for a white point taken from one sticker.
_WHITE_CHROMA = 6.0
_WHITE_MIN_L = 0.45
# A sticker at most this chromatic (and at least half as light as the face's lightest) may be
# the white one and so define the scene's white point.
_MAX_WHITE_CHROMA = 30.0
# Prior on the light's cast (standard deviations of the white point's a and b): casts of real
# lights lie along the blue-yellow (b) axis of the Planckian locus, hardly along a.
_CAST_SD = np.array([8.0, 20.0])
# Lightness of white assumed when no sticker of the face is taken as the white one.
_DEFAULT_WHITE_L = 70.0


def profile_mahalanobis(lab: np.ndarray, profile: Profile) -> np.ndarray:
    """Squared Mahalanobis distance of each Lab reading to each colour of a profile.

    Parameters
    ----------
    lab
        Array (n, 3) of CIELAB readings.
    profile
        Calibration profile (six colour means and covariances).

    Returns
    -------
    numpy.ndarray
        Array (n, 6), columns in the profile's colour order.

    Examples
    --------
    >>> from cubescan.calibration.palette import PALETTE_LAB
    >>> from cubescan.calibration.profile import Profile
    >>> p = Profile.from_means("demo", PALETTE_NAMES, PALETTE_LAB)
    >>> profile_mahalanobis(PALETTE_LAB[:1], p).argmin(axis=1).tolist()
    [0]
    """
    lab = np.asarray(lab, dtype=np.float64)
    diff = lab[:, None, :] - profile.means[None, :, :]
    return np.einsum("ikj,kjl,ikl->ik", diff, np.linalg.inv(profile.covariances), diff)


def _class_cost(
    weight: np.ndarray, first: np.ndarray, second: np.ndarray, prior_var: np.ndarray
) -> np.ndarray:
    """-2 log marginal likelihood of each colour's stickers in one feature (sufficient stats).

    Stickers x_i (noise variance 1/w_i) of one colour scatter around the photo's centre of
    that colour, which itself lies N(0, prior_var) from the colour's reference (features are
    offsets from it). ``weight``, ``first``, ``second`` are sums of w, w*x and w*x^2 per
    colour (any shape, colours last); an empty colour costs nothing.
    """
    present = weight > 0
    safe = np.where(present, weight, 1.0)
    spread = prior_var + 1.0 / safe
    cost = second - first**2 / safe + np.log(safe * spread) + (first / safe) ** 2 / spread
    return np.where(present, cost, 0.0)


def _color_costs(totals: np.ndarray) -> np.ndarray:
    """Joint cost of each chromatic colour from its summed statistics (6, ..., 5)."""
    return _class_cost(*totals[:3], _FACE_HUE_SD**2) + _class_cost(*totals[3:], _FACE_L_SD**2)


def _joint_naming(
    balanced: np.ndarray, white_l: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Name one face's stickers jointly under several white-point hypotheses at once.

    Minimises, per hypothesis, the face's joint cost (white stickers each pay their chroma
    and darkness; each chromatic colour pays the marginal likelihood of its stickers' hue and
    relative lightness under the two-level model) by moving one sticker at a time: each round
    makes, in every hypothesis, the single move that lowers its cost most (the cost never
    rises, so this ends at a fixed point).

    Parameters
    ----------
    balanced
        Array (h, n, 3): the face's Lab readings balanced to each of h white points.
    white_l
        Array (h,): lightness of each white point.

    Returns
    -------
    tuple of numpy.ndarray
        Labels (h, n) into PALETTE_NAMES, total cost (h,), and the cost of each sticker
        taking each colour with the others fixed (h, n, 6), relative to its best.
    """
    lightness, chroma, hue = lab_to_lch(balanced)
    hypotheses, count = lightness.shape
    relative_l = lightness / np.maximum(white_l, 1e-6)[:, None]
    hue_offset = (hue[..., None] - _FACE_HUE + 180.0) % 360.0 - 180.0
    light_offset = relative_l[..., None] - _FACE_L
    hue_weight = 1.0 / (_STICKER_HUE_SD**2 + (_HUE_NOISE / np.maximum(chroma, 1.0)) ** 2)
    light_weight = 1.0 / _STICKER_L_SD**2
    # Per-sticker costs that do not depend on the other stickers, PALETTE_NAMES order.
    own = np.empty((hypotheses, count, 6))
    pale = np.maximum(0.0, _MIN_COLOR_CHROMA - chroma[..., None]) / (_MIN_COLOR_CHROMA / 3.0)
    own[..., 1:] = pale**2
    own[..., 0] = (
        (chroma / _WHITE_CHROMA) ** 2
        + (np.maximum(0.0, _WHITE_MIN_L - relative_l) / 0.15) ** 2
        + _WHITE_OFFSET
    )
    # Sufficient statistics per hypothesis, sticker and chromatic colour: (6, h, n, 5).
    hue_weights = np.broadcast_to(hue_weight[..., None], hue_offset.shape)
    stats = np.stack(
        [
            hue_weights,
            hue_weights * hue_offset,
            hue_weights * hue_offset**2,
            np.full(light_offset.shape, light_weight),
            light_weight * light_offset,
            light_weight * light_offset**2,
        ]
    )
    # First guess: each sticker as if it were its colour's only one.
    alone = own.copy()
    alone[..., 1:] += _color_costs(stats)
    labels = alone.argmin(axis=2)
    rows = np.arange(hypotheses)
    chromatic = np.array(_CHROMATIC)
    for _ in range(4 * count):
        member = labels[..., None] == chromatic
        totals = np.einsum("shik,hik->shk", stats, member)
        without = totals[:, :, None, :] - stats * member
        base_without = _color_costs(without)
        rest = base_without.sum(axis=2, keepdims=True)
        moves = np.empty((hypotheses, count, 6))
        moves[..., :1] = rest + own[..., :1]
        moves[..., 1:] = rest - base_without + _color_costs(without + stats) + own[..., 1:]
        current = np.take_along_axis(moves, labels[..., None], axis=2)[..., 0]
        gain = current - moves.min(axis=2)
        sticker = gain.argmax(axis=1)
        improving = gain[rows, sticker] > 1e-9
        if not improving.any():
            break
        labels[rows[improving], sticker[improving]] = moves[
            rows[improving], sticker[improving]
        ].argmin(axis=1)
    member = labels[..., None] == chromatic
    totals = np.einsum("shik,hik->shk", stats, member)
    own_total = np.take_along_axis(own, labels[..., None], axis=2)[..., 0].sum(axis=1)
    total = _color_costs(totals).sum(axis=1) + own_total
    return labels, total, moves - moves.min(axis=2, keepdims=True)


def _posterior_margin(move_costs: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """Posterior probability of the chosen colour minus the runner-up's, from -2 log costs."""
    weights = np.exp(-0.5 * (move_costs - move_costs.min(axis=1, keepdims=True)))
    posterior = weights / weights.sum(axis=1, keepdims=True)
    rows = np.arange(move_costs.shape[0])
    own = posterior[rows, chosen]
    others = posterior.copy()
    others[rows, chosen] = -np.inf
    return np.clip(own - others.max(axis=1), 0.0, 1.0)


def name_face_colors(lab_samples: object, profile: Profile | None = None) -> FaceColors:
    """Name the colour of each sticker of one face.

    Without a profile, the face is named jointly. Its white point is chosen among "no cast"
    and each sticker bright and pale enough to be the white one (Bradford adaptation to it),
    by the face's total naming cost plus a prior on the cast (casts lie along the blue-yellow
    axis). The naming cost is a two-level model: each chromatic colour has, in this photo, a
    centre in hue and in lightness relative to the white point, which varies from photo to
    photo around a reference; stickers of one colour on one face scatter only a little around
    it (more when they are pale, since their hue is then noisy). So stickers are named
    together: a face's reds and oranges separate where they differ from each other, whatever
    the camera's exact hues. White stickers pay for chroma and for being much darker than the
    white point. With a profile, each sticker gets the profile colour of smallest
    Mahalanobis distance.

    Parameters
    ----------
    lab_samples
        Array-like (n, 3) of float CIELAB readings (one face, row-major), n >= 1.
    profile
        Optional calibration profile learned under the same camera and light.

    Returns
    -------
    FaceColors
        Colour name per sticker, confidence per sticker (posterior margin; distance margin with
        a profile), white point used.

    Raises
    ------
    BadInputError
        The samples are not finite CIELAB colours of shape (n, 3).

    Examples
    --------
    >>> face = np.array([[85, 0, 0], [42, 58, 32], [60, 45, 60], [82, -6, 75]], dtype=float)
    >>> name_face_colors(face).names
    ('white', 'red', 'orange', 'yellow')
    """
    try:
        lab = np.asarray(lab_samples, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise BadInputError("bad-format", f"colour samples are not numbers: {err}") from None
    if lab.ndim != 2 or lab.shape[1] != 3 or lab.shape[0] == 0:
        raise BadInputError("bad-format", f"face samples must have shape (n, 3), got {lab.shape}")
    if not np.isfinite(lab).all():
        raise BadInputError("bad-format", "face samples contain NaN or infinity")
    if profile is not None:
        distances = np.sqrt(profile_mahalanobis(lab, profile))
        chosen = distances.argmin(axis=1)
        return FaceColors(
            names=tuple(profile.names[c] for c in chosen),
            confidence=distance_margin(distances, chosen),
            white_lab=profile.white,
        )
    lightness, chroma, _ = lab_to_lch(lab)
    # White-point hypotheses: no cast (the camera balanced the light), or any sticker pale
    # and light enough to be the white one; each pays the prior on its cast. With no sticker
    # taken as white, the camera's exposure puts white at least _DEFAULT_WHITE_L light.
    pale = (chroma <= _MAX_WHITE_CHROMA) & (lightness >= 0.5 * lightness.max())
    whites = np.vstack([[max(float(lightness.max()), _DEFAULT_WHITE_L), 0.0, 0.0], lab[pale]])
    balanced = np.concatenate([lab[None], adapt_to_whites(lab, whites[1:])])
    prior = np.sum((whites[:, 1:] / _CAST_SD) ** 2, axis=1)
    labels, total, moves = _joint_naming(balanced, whites[:, 0])
    best = int(np.argmin(total + prior))
    chosen, white = labels[best], whites[best]
    return FaceColors(
        names=tuple(PALETTE_NAMES[c] for c in chosen),
        confidence=_posterior_margin(moves[best], chosen),
        white_lab=(float(white[0]), float(white[1]), float(white[2])),
    )
