"""Name the colors of a whole cube's stickers at once.

Without a profile (:func:`classify`), the readings are clustered into six colors of exactly N*N
stickers each (:mod:`cubescan.calibration.clustering`), and the clusters are matched to the
reference palette (:mod:`cubescan.calibration.palette`) to tell whether the cube has the
standard scheme. Each sticker gets the log-likelihood of every color and a confidence (the
margin between its color and the runner-up).

With a calibration profile, each color's expected reading on each face is the profile's mean
under that face's light (fitted from the scan: a light per face, or the calibration's light
per face position, whichever explains the cube better), stickers are scored by the profile's
covariances with glare allowed for, and labels are balanced the same way.

One face alone is named by :mod:`cubescan.calibration.face_naming`.
"""

from __future__ import annotations

from types import MappingProxyType

import numpy as np
from scipy.optimize import linear_sum_assignment

from cubescan.calibration.clustering import (
    MAX_GLARE,
    STUDENT_DOF,
    balanced_labels,
    cluster_cube,
    cluster_means,
    glare_mixture,
)
from cubescan.calibration.colorspace import (
    BRADFORD,
    BRADFORD_INV,
    adapt_to_whites,
    lab_to_xyz,
    xyz_to_lab,
)
from cubescan.calibration.palette import (
    FACES,
    PALETTE_LAB,
    PALETTE_NAMES,
    STANDARD_FACE_OF_COLOR,
    Classification,
    ColorInfo,
    check_lab_samples,
    check_six_colors,
    distance_margin,
)
from cubescan.calibration.profile import Profile
from cubescan.solver.facelets import faces_from_dlb_corner
from cubescan.solver.geometry import face_normal, face_of_normal, rotation_matrices

# After white balance, a colour whose hue is farther than this (degrees) from its palette
# colour, or a "colour" with less chroma than _MIN_CHROMA, does not match the standard scheme.
# One such colour is tolerated (a lamp or sensor cast that turns green teal): the scheme is
# still standard when the other five match and the odd one is a distinct, chromatic colour
# within _CAST_MAX_HUE of its palette hue. Two or more odd colours (or a colour clipped to
# white) mean a non-standard scheme.
_STANDARD_MAX_HUE = 40.0
_MIN_CHROMA = 12.0
_CAST_MAX_HUE = 120.0
_COLOR_OF_STANDARD_FACE = {face: color for color, face in STANDARD_FACE_OF_COLOR.items()}
# Typical residual (log cone response) of a sticker around its face's light model: reading
# noise plus sticker-to-sticker dye differences; larger residuals are reweighted (Cauchy).
_GAIN_RESIDUAL = 0.1


def _profile_gains(
    cones: np.ndarray,
    labels: np.ndarray,
    means: np.ndarray,
    home: np.ndarray,
    size: int,
    tied: bool,
) -> np.ndarray:
    """Log cone gains (6 scan faces x 6 colours x 3 cones) mapping profile colours to a scan.

    Two models of how a scan's light relates to the light the profile was learned under:

    * untied: every face of the scan has its own light relative to the profile's (a gain
      per face and cone channel; a camera or lamp moved since calibration);
    * tied: the light at each face position is the one it had at calibration (a rig, or
      a lamp and a window that stayed put), up to a brightness per face. A colour learned
      on face h and seen on face f then carries the ratio of the two faces' lights.

    Solved by weighted least squares in log cone space, the weights following how far each
    cone reading is from zero (a small cone response is a noisy log).
    """
    per_face = size * size
    count = labels.size
    face = np.arange(count) // per_face
    expected = means[labels]
    floor = 1e-3
    target = np.log(np.maximum(cones, floor)) - np.log(np.maximum(expected, floor))
    lightness = 116.0 * np.cbrt(np.maximum(expected[:, 1:2], 0.0))  # about L + 16
    weight = np.maximum(np.minimum(cones, expected), floor) / expected.max(axis=1, keepdims=True)
    weight = (weight * lightness / 100.0) ** 2
    channel = np.tile(np.arange(3), count)
    rows = np.arange(3 * count)
    sticker_face = np.repeat(face, 3)
    if tied:
        # Unknowns: brightness per face (6), then light per face and cone (18).
        design = np.zeros((3 * count, 24))
        design[rows, sticker_face] = 1.0
        design[rows, 6 + 3 * sticker_face + channel] += 1.0
        design[rows, 6 + 3 * np.repeat(home[labels], 3) + channel] -= 1.0
    else:
        design = np.zeros((3 * count, 18))
        design[rows, 3 * sticker_face + channel] = 1.0
    values = target.reshape(-1)
    base_weight = weight.reshape(-1)
    # A weak pull towards no change fixes the free overall light of the tied model and keeps
    # a face with few usable readings sensible.
    ridge = 1e-4 * np.eye(design.shape[1])
    robust = base_weight
    for _ in range(3):
        weighted = design.T * robust
        solution = np.linalg.solve(weighted @ design + ridge, weighted @ values)
        # Reweighting (Cauchy): a glared or misread sticker must not set its face's light.
        resid = values - design @ solution
        robust = base_weight / (1.0 + base_weight * (resid / _GAIN_RESIDUAL) ** 2)
    if tied:
        light = solution[6:].reshape(6, 3)
        return solution[:6, None, None] + light[:, None, :] - light[home][None, :, :]
    return np.broadcast_to(solution.reshape(6, 1, 3), (6, 6, 3))


def _quadratic_form(diff: np.ndarray, inverse: np.ndarray) -> np.ndarray:
    """``d^T A_k d`` for differences (..., k, 3) and symmetric matrices (k, 3, 3)."""
    d0, d1, d2 = diff[..., 0], diff[..., 1], diff[..., 2]
    # Written out: numpy's batched products of 3x3 matrices cost far more than the arithmetic.
    return (
        inverse[:, 0, 0] * d0 * d0
        + inverse[:, 1, 1] * d1 * d1
        + inverse[:, 2, 2] * d2 * d2
        + 2.0
        * (inverse[:, 0, 1] * d0 * d1 + inverse[:, 0, 2] * d0 * d2 + inverse[:, 1, 2] * d1 * d2)
    )


def _glare_log_likelihood(
    lab: np.ndarray,
    face: np.ndarray,
    expected_cones: np.ndarray,
    inverse: np.ndarray,
    log_det: np.ndarray,
    white: int,
) -> np.ndarray:
    """Student-t log-likelihood of readings under expected colours, allowing for glare.

    A specular highlight adds some of the light itself to a sticker's reading: in cone space
    the reading is the sticker's expected colour plus a non-negative amount of the light's
    colour (white's, on that face). Each reading is scored both as it is and with the amount
    of glare (up to MAX_GLARE) that best explains it, the two mixed by the prior odds of
    glare. Glare only ever moves a colour towards the light, so a pale reading between a
    colour and white is that colour glared, never white.

    Parameters
    ----------
    lab
        Readings (n, 3).
    face
        Face index of each reading (n,).
    expected_cones
        Expected cone response of each colour on each face (6, k, 3).
    inverse, log_det
        Inverse covariance (k, 3, 3) and its log determinant (k,) per colour.
    white
        Column of the white (least chromatic) colour, whose reading is the light's colour.

    Returns
    -------
    numpy.ndarray
        Log-likelihoods (n, k).
    """
    amounts = np.linspace(0.0, MAX_GLARE, 8)
    glare = expected_cones[:, white, :]
    # Expected Lab of each colour on each face under each amount of glare: (amounts, 6, k, 3).
    glared = xyz_to_lab(
        (expected_cones[None] + amounts[:, None, None, None] * glare[None, :, None, :])
        @ BRADFORD_INV.T
    )
    maha = _quadratic_form(lab[None, :, None, :] - glared[:, face], inverse)
    det = np.exp(log_det)[None, :]
    return glare_mixture(maha[0], maha[1:].min(axis=0), det)


def _classify_with_profile(
    lab: np.ndarray, size: int, profile: Profile
) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[str, ...]]:
    """Balanced maximum-likelihood labels under a profile's colour distributions.

    Each colour's expected reading on each face is the profile's mean under that face's light
    relative to calibration (:func:`_profile_gains`, the better-fitting of the two light
    models); stickers are scored by the profile's covariances (Mahalanobis, Student-t) with
    glare allowed for (:func:`_glare_log_likelihood`). Returns labels, log-likelihoods,
    effective Mahalanobis distances (columns = clusters) and names.
    """
    per_face = size * size
    fixed = np.arange(6) * per_face + per_face // 2 if size % 2 else np.empty(0, np.intp)
    face = np.arange(lab.shape[0]) // per_face
    cones = lab_to_xyz(lab) @ BRADFORD.T
    profile_cones = lab_to_xyz(profile.means) @ BRADFORD.T
    inverse = np.linalg.inv(profile.covariances)
    log_det = np.log(np.linalg.det(profile.covariances))
    home_of_color = np.array([FACES.index(f) for f in profile.faces])
    # Glare has the light's colour: the profile's white (its least chromatic colour).
    white = int(np.argmin(np.linalg.norm(profile.means - np.array(profile.white), axis=1)))
    best = None
    for tied in (False, True):
        gains = np.zeros((6, 6, 3))
        labels = None
        for _ in range(8):
            expected_cones = profile_cones[None] * np.exp(gains)
            log_likelihood = _glare_log_likelihood(
                lab, face, expected_cones, inverse, log_det, white
            )
            # Column k must be the colour of face k's centre sticker (odd N).
            order = linear_sum_assignment(-log_likelihood[fixed])[1] if fixed.size else np.arange(6)
            new_labels = balanced_labels(-log_likelihood[:, order], per_face, fixed)
            if labels is not None and np.array_equal(new_labels, labels):
                break
            labels = new_labels
            gains = _profile_gains(cones, order[labels], profile_cones, home_of_color, size, tied)
        score = float(log_likelihood[np.arange(labels.size), order[labels]].sum())
        if best is None or score > best[0]:
            best = (score, labels, log_likelihood[:, order], order)
    assert best is not None
    _, labels, log_likelihood, order = best
    # Distances equivalent to the scores (exact where glare plays no part), for confidences.
    spread = log_likelihood + 0.5 * log_det[order][None, :]
    distances = np.sqrt(STUDENT_DOF * np.expm1(np.maximum(0.0, -2.0 * spread / (STUDENT_DOF + 3))))
    names = tuple(profile.names[c] for c in order)
    return labels, log_likelihood, distances, names


def _hue_cost(lab: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Naming cost between colours: hue difference (degrees) plus half the lightness gap.

    Hue survives exposure changes and (after white balance) most of a light's cast, while
    chroma does not: a clipped, cast-corrected yellow loses half its chroma but keeps its hue.
    """
    hue = np.degrees(np.arctan2(lab[:, 2], lab[:, 1]))
    ref_hue = np.degrees(np.arctan2(reference[:, 2], reference[:, 1]))
    diff = np.abs((hue[:, None] - ref_hue[None, :] + 180.0) % 360.0 - 180.0)
    return diff + 0.5 * np.abs(lab[:, None, 0] - reference[None, :, 0])


def _palette_fit(means: np.ndarray) -> tuple[np.ndarray, bool, int]:
    """Match six cluster means to the palette, trying each cluster as the scene's white.

    Returns the palette index of each cluster (an optimal assignment of clusters to palette
    colours, by hue after balancing to the white), whether the match is plausible for the
    standard scheme (every colour within _STANDARD_MAX_HUE degrees of its palette hue and
    clearly chromatic, except at most one colour distorted by a cast), and the
    index of the cluster taken as white.
    """
    balanced_by_white = adapt_to_whites(means, means, target_l=PALETTE_LAB[0, 0])
    hue_costs = _hue_cost(balanced_by_white.reshape(-1, 3), PALETTE_LAB).reshape(6, 6, 6)
    # Prior on the white: the brightest, least coloured cluster (a strong cast is rarer).
    white_prior = 0.5 * np.hypot(means[:, 1], means[:, 2]) + 0.5 * (means[:, 0].max() - means[:, 0])
    best_total, assignment, white = np.inf, np.arange(6), 0
    for candidate in range(6):
        others = np.arange(6) != candidate
        cost = np.full((6, 6), 1e6)
        cost[others, 1:] = hue_costs[candidate, others, 1:]
        cost[candidate, 0] = white_prior[candidate]
        rows, cols = linear_sum_assignment(cost)
        total = float(cost[rows, cols].sum())
        if total < best_total:
            best_total, white = total, candidate
            assignment = np.empty(6, dtype=np.intp)
            assignment[rows] = cols
    balanced = balanced_by_white[white]
    others = np.arange(6) != white
    hue_gap = hue_costs[white][np.arange(6), assignment]
    hue_gap -= 0.5 * np.abs(balanced[:, 0] - PALETTE_LAB[assignment, 0])
    chroma = np.hypot(balanced[:, 1], balanced[:, 2])
    matches = (hue_gap <= _STANDARD_MAX_HUE) & (chroma >= _MIN_CHROMA)
    odd = np.flatnonzero(others & ~matches)
    plausible = odd.size == 0 or (
        odd.size == 1 and hue_gap[odd[0]] <= _CAST_MAX_HUE and chroma[odd[0]] >= _MIN_CHROMA
    )
    return assignment, bool(plausible), white


# A colour of the standard scheme recognised through the cube's own structure (which colours
# are opposite, the corners' handedness) may be this washed out: a warm lamp with flare.
_MIN_CHROMA_BY_STRUCTURE = 5.0


def standard_names_by_faces(means: object) -> tuple[str, ...] | None:
    """The standard scheme's colour names for a real cube's six face colours, if they fit.

    The face letters of a real cube (odd: its centres; even: its corners) fix which colours
    are opposite and the scheme's handedness, so only the 24 ways of holding the standard
    scheme remain: the one whose colours' hues (after balancing to the colour it calls
    white) fit best is taken when each is within the hue bound of the palette test (one
    colour within the cast bound) and chromatic, if only faintly.

    Parameters
    ----------
    means
        (6, 3) mean CIELAB reading of each face letter's colour, URFDLB order.

    Returns
    -------
    tuple of str or None
        The colour name of each face letter (URFDLB order), or None when no way of holding
        the standard scheme fits.

    Examples
    --------
    >>> from cubescan.calibration.palette import PALETTE_LAB
    >>> means = PALETTE_LAB[[1, 2, 5, 0, 3, 4]]  # turned over: yellow up, blue in front
    >>> standard_names_by_faces(means)
    ('yellow', 'red', 'blue', 'white', 'orange', 'green')
    """
    means = np.asarray(means, dtype=float)
    best_cost, best = np.inf, None
    for matrix in rotation_matrices():
        shown = [face_of_normal(matrix @ face_normal(face)) for face in FACES]
        names = tuple(_COLOR_OF_STANDARD_FACE[face] for face in shown)
        palette = [PALETTE_NAMES.index(name) for name in names]
        white = palette.index(0)
        balanced = adapt_to_whites(means, means[[white]], target_l=PALETTE_LAB[0, 0])[0]
        gap = _hue_cost(balanced, PALETTE_LAB)[np.arange(6), palette]
        gap -= 0.5 * np.abs(balanced[:, 0] - PALETTE_LAB[palette, 0])
        chroma = np.hypot(balanced[:, 1], balanced[:, 2])
        others = np.arange(6) != white
        cost = float(gap[others].sum())
        odd = np.flatnonzero(others & (gap > _STANDARD_MAX_HUE))
        fits = (chroma[others] >= _MIN_CHROMA_BY_STRUCTURE).all() and (
            odd.size == 0 or (odd.size == 1 and gap[odd[0]] <= _CAST_MAX_HUE)
        )
        if fits and cost < best_cost:
            best_cost, best = cost, names
    return best


def _even_faces(labels: np.ndarray, size: int, names: tuple[str, ...], standard: bool) -> list[str]:
    """Face letter of each cluster of an even cube (no fixed centres)."""
    if standard:
        return [STANDARD_FACE_OF_COLOR[name] for name in names]
    # Orientation as scanned: the corner at DLB names D, L and B, their opposites U, R, F.
    mapping = faces_from_dlb_corner("".join(str(k) for k in labels), size)
    face_of = [mapping.get(str(k), "") for k in range(6)]
    if sorted(face_of) != sorted(FACES):
        # Not a real cube (no consistent corners): name the remaining colours in order.
        face_of = [f if f in FACES and face_of.count(f) == 1 else "" for f in face_of]
        free = [f for f in FACES if f not in face_of]
        face_of = [f if f else free.pop(0) for f in face_of]
    return face_of


def classify(
    samples: object, size: int | None = None, profile: Profile | None = None
) -> Classification:
    """Name the colour of every sticker of a whole cube.

    Parameters
    ----------
    samples
        Array-like (6*N*N, 3) of float CIELAB readings (L 0..100), in facelet order
        (U, R, F, D, L, B, each row-major as in DESIGN.md's net), N = 2..7.
    size
        N, or None to infer it from the number of samples.
    profile
        Optional calibration profile learned under the same camera and light; its colour
        means, moved to each face's light, are the expected readings and its covariances
        score the stickers (see :func:`_classify_with_profile`).

    Returns
    -------
    Classification
        Facelet string, colour names with mean Lab, per-sticker confidence and the per-face
        log-likelihoods.

    Raises
    ------
    BadInputError
        The samples are not 6*N*N finite CIELAB colours.

    Examples
    --------
    >>> from cubescan.synth.colors import STICKER_SRGB
    >>> from cubescan.calibration.colorspace import rgb_to_lab
    >>> lab = rgb_to_lab(STICKER_SRGB[[0, 2, 4, 1, 3, 5]].repeat(9, axis=0))
    >>> result = classify(lab)
    >>> result.facelets == "".join(face * 9 for face in "URFDLB")
    True
    >>> result.colors["F"].name
    'green'
    """
    lab, size = check_lab_samples(samples, size)
    if profile is not None:
        labels, log_likelihood, distances, names = _classify_with_profile(lab, size, profile)
        means = cluster_means(lab, labels)
        check_six_colors(lab, means)
        standard = set(names) == set(PALETTE_NAMES)
    else:
        labels, log_likelihood, distances = cluster_cube(lab, size)
        means = cluster_means(lab, labels)
        check_six_colors(lab, means)
        assignment, standard, _ = _palette_fit(means)
        if standard:
            names = tuple(PALETTE_NAMES[c] for c in assignment)
        else:
            names = tuple(f"colour {k + 1}" for k in range(6))
    if size % 2 == 1:
        face_of = list(FACES)
    elif profile is not None:
        face_of = list(profile.faces)
    else:
        face_of = _even_faces(labels, size, names, standard)
    order = [face_of.index(face) for face in FACES]
    facelets = "".join(face_of[k] for k in labels)
    colors = {
        face_of[k]: ColorInfo(names[k], tuple(float(v) for v in np.round(means[k], 2)))
        for k in range(6)
    }
    confidence = distance_margin(distances, labels)
    return Classification(
        size=size,
        facelets=facelets,
        colors=MappingProxyType({face: colors[face] for face in FACES}),
        confidence=confidence,
        log_likelihood=log_likelihood[:, order],
        standard=standard,
    )
