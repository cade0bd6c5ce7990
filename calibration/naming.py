"""Name sticker colours: a whole cube by balanced clustering, or one face by a reference palette.

Whole cube (:func:`classify`): k-means in CIELAB seeded from the fixed centre stickers (odd N),
refined under the balance constraint that each of the six colours has exactly N*N stickers
(an optimal assignment of stickers to cluster "slots" with
:func:`scipy.optimize.linear_sum_assignment`, iterated with centre updates), with the whole cube
white-balanced by its own white cluster between rounds. Each sticker gets the log-likelihood
of every colour and a confidence (posterior margin between its colour and the runner-up).
With a calibration profile, each colour's expected reading on each face is the profile's
mean under that face's light (fitted from the scan: a light per face, or the calibration's
light per face position, whichever explains the cube better), stickers are scored by the
profile's covariances with glare allowed for, and labels are balanced the same way.

One face (:func:`name_face_colors`): the face's stickers are named jointly under a two-level
model (each colour's centre in this photo varies around a reference; stickers of one colour
on one face agree closely), with a white point estimated from the face itself (or the
colours of a calibration profile).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

import numpy as np
import sklearn
from scipy.optimize import linear_sum_assignment
from sklearn.cluster import KMeans
from threadpoolctl import ThreadpoolController

from cubescan.calibration.colorspace import (
    BRADFORD,
    BRADFORD_INV,
    D65_XYZ,
    lab_to_lch,
    lab_to_xyz,
    xyz_to_lab,
)
from cubescan.calibration.profile import Profile
from cubescan.errors import BadInputError
from cubescan.solver.facelets import faces_from_dlb_corner

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

# Weight of lightness against a and b in the whole-cube clustering features (per-face
# shading is removed by _equalise_faces, so lightness counts fully).
_L_WEIGHT = 1.0
# After white balance, a colour whose hue is farther than this (degrees) from its palette
# colour, or a "colour" with less chroma than _MIN_CHROMA, does not match the standard scheme.
# One such colour is tolerated (a lamp or sensor cast that turns green teal): the scheme is
# still standard when the other five match and the odd one is a distinct, chromatic colour
# within _CAST_MAX_HUE of its palette hue. Two or more odd colours (or a colour clipped to
# white) mean a non-standard scheme.
_STANDARD_MAX_HUE = 40.0
_MIN_CHROMA = 12.0
_CAST_MAX_HUE = 120.0
# Floor of the per-colour spread (ΔE): stops a tight cluster from claiming certainty.
_MIN_SPREAD = 2.5
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
# Typical residual (log cone response) of a sticker around its face's light model: reading
# noise plus sticker-to-sticker dye differences; larger residuals are reweighted (Cauchy).
_GAIN_RESIDUAL = 0.1
# Prior odds that a sticker's reading carries a specular highlight the sampler kept.
_GLARE_ODDS = 0.05
# Strongest highlight considered, as a share of the light a white sticker reflects: the
# sampler rejects most of a highlight, and one that floods a sticker leaves no colour to name.
_MAX_GLARE = 0.35
# Degrees of freedom of the Student-t sticker likelihood.
_DOF = 4.0


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


def _features(lab: np.ndarray) -> np.ndarray:
    return lab * np.array([_L_WEIGHT, 1.0, 1.0])


def _squared_distances(points: np.ndarray, centers: np.ndarray) -> np.ndarray:
    diff = points[:, None, :] - centers[None, :, :]
    return np.einsum("ijk,ijk->ij", diff, diff)


def _cluster_means(
    points: np.ndarray, labels: np.ndarray, mask: np.ndarray | None = None
) -> np.ndarray:
    """Mean of the points of each of the six clusters (only points where ``mask`` holds)."""
    one_hot = labels[:, None] == np.arange(6)[None, :]
    if mask is not None:
        one_hot &= mask[:, None]
    return (one_hot.T @ points) / one_hot.sum(axis=0)[:, None]


def _balanced_labels(cost: np.ndarray, per_cluster: int, fixed: np.ndarray) -> np.ndarray:
    """Labels minimising total cost with exactly ``per_cluster`` stickers per cluster."""
    cost = cost.copy()
    if fixed.size:
        # Centre stickers of an odd cube are their cluster by definition.
        pinned = np.full((fixed.size, cost.shape[1]), 1e9)
        pinned[np.arange(fixed.size), np.arange(fixed.size)] = 0.0
        cost[fixed] = pinned
    nearest = cost.argmin(axis=1)
    if (np.bincount(nearest, minlength=cost.shape[1]) == per_cluster).all():
        # Every sticker's own best colour already balances: no assignment can do better.
        return nearest
    slots = np.repeat(cost, per_cluster, axis=1)
    rows, cols = linear_sum_assignment(slots)
    labels = np.empty(cost.shape[0], dtype=np.intp)
    labels[rows] = cols // per_cluster
    return labels


def _balanced_kmeans(
    features: np.ndarray, seeds: np.ndarray, per_cluster: int, fixed: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Balanced k-means, then balanced classification EM with per-colour covariances.

    Euclidean rounds find the clusters; likelihood rounds then let each colour have its own
    spread (dark colours in dim light scatter in a and b but not in L). Returns the labels
    and every sticker's log-likelihood under every cluster of that labelling.
    """
    centers = seeds
    labels = np.full(features.shape[0], -1)
    for _ in range(20):
        new_labels = _balanced_labels(_squared_distances(features, centers), per_cluster, fixed)
        if np.array_equal(new_labels, labels):
            break
        labels = new_labels
        centers = _cluster_means(features, labels)
    for _ in range(10):
        log_likelihood = _log_likelihood(features, labels)
        new_labels = _balanced_labels(-log_likelihood, per_cluster, fixed)
        if np.array_equal(new_labels, labels):
            return labels, log_likelihood
        labels = new_labels
    return labels, _log_likelihood(features, labels)


def _equalise_faces(
    lab: np.ndarray, labels: np.ndarray, size: int, reference: np.ndarray | None = None
) -> np.ndarray:
    """Undo per-face light differences (mixed lamps, shading) using the cube's own colours.

    Each face is lit by its own light; with a first labelling, the gain per cone channel that
    best maps the face's stickers onto their colours' cube-wide means (or onto ``reference``,
    Lab per cluster, e.g. a profile's colours) is that face's light relative to the reference
    one (a von Kries model per face). Dividing it out makes every face look as if lit alike.
    """
    per_face = size * size
    cones = lab_to_xyz(lab) @ BRADFORD.T
    if reference is None:
        means = _cluster_means(cones, labels)
    else:
        means = lab_to_xyz(reference) @ BRADFORD.T
    seen = cones.reshape(6, per_face, 3)
    expected = means[labels].reshape(6, per_face, 3)
    gain = (seen * expected).sum(axis=1) / np.maximum((expected**2).sum(axis=1), 1e-12)
    corrected = (seen / np.maximum(gain, 1e-3)[:, None, :]).reshape(-1, 3)
    return xyz_to_lab(corrected @ BRADFORD_INV.T)


@lru_cache(maxsize=1)
def _threadpools() -> ThreadpoolController:
    # Inspecting the loaded thread pools takes milliseconds: do it once.
    return ThreadpoolController()


def _kmeans_centers(features: np.ndarray, **options: object) -> np.ndarray:
    """Cluster centres of scikit-learn's k-means (six clusters), run on one thread.

    A cube has a few hundred points at most: OpenMP threads cost far more than they save, and
    on a busy machine a descheduled thread stalls every iteration's barrier (a 1 ms fit took
    30 ms on two shared cores).
    """
    # The inputs are checked finite CIELAB and the options fixed here: skip re-validation.
    with (
        _threadpools().limit(limits=1, user_api="openmp"),
        sklearn.config_context(assume_finite=True, skip_parameter_validation=True),
    ):
        return KMeans(n_clusters=6, **options).fit(features).cluster_centers_


def _cluster(features: np.ndarray, size: int) -> np.ndarray:
    """Balanced clustering labels; for odd N cluster k is the colour of face k's centre.

    Odd N starts k-means from the six fixed centre stickers (one per colour by construction).
    Even N has no fixed stickers and starts from k-means++; so does a second start for
    N >= 5, where one centre sticker per colour among 25+ is a weak seed. The more likely
    balanced result wins.
    """
    per_face = size * size
    starts = []
    fixed = np.empty(0, np.intp)
    if size % 2 == 1:
        fixed = np.arange(6) * per_face + per_face // 2
        starts.append(_kmeans_centers(features, init=features[fixed], n_init=1, max_iter=30))
    if size % 2 == 0 or size >= 5:
        spread = _kmeans_centers(features, n_init=3, random_state=0)
        if fixed.size:
            # Cluster k must be the one holding face k's centre sticker.
            spread = spread[linear_sum_assignment(_squared_distances(features[fixed], spread))[1]]
        starts.append(spread)
    results = [
        _reseat_centers(features, *_balanced_kmeans(features, seeds, per_face, fixed), fixed)
        for seeds in starts
    ]
    scores = [
        log_likelihood[np.arange(labels.size), labels].sum() for labels, log_likelihood in results
    ]
    return results[int(np.argmax(scores))][0]


def _reseat_centers(
    features: np.ndarray, labels: np.ndarray, log_likelihood: np.ndarray, fixed: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Give each centre sticker the group of other stickers it fits best, jointly.

    Clustering seeded from the centres can settle with two centres in each other's groups
    (a glared orange centre that reads closer to the reds seeds the orange cluster with the
    reds). The optimal assignment of the six centres to the six groups of non-centre
    stickers (by squared distance to each group's mean) undoes that; the labels are then
    refined again from the reassigned groups.
    """
    if not fixed.size:
        return labels, log_likelihood
    movable = np.ones(labels.size, dtype=bool)
    movable[fixed] = False
    groups = _cluster_means(features, labels, movable)
    group_of_center = linear_sum_assignment(_squared_distances(features[fixed], groups))[1]
    if np.array_equal(group_of_center, np.arange(6)):
        return labels, log_likelihood
    # Group group_of_centre[k] belongs with centre k, i.e. to cluster k.
    return _balanced_kmeans(features, groups[group_of_center], labels.size // 6, fixed)


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
    of glare (up to _MAX_GLARE) that best explains it, the two mixed by the prior odds of
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
    amounts = np.linspace(0.0, _MAX_GLARE, 8)
    glare = expected_cones[:, white, :]
    # Expected Lab of each colour on each face under each amount of glare: (amounts, 6, k, 3).
    glared = xyz_to_lab(
        (expected_cones[None] + amounts[:, None, None, None] * glare[None, :, None, :])
        @ BRADFORD_INV.T
    )
    maha = _quadratic_form(lab[None, :, None, :] - glared[:, face], inverse)
    det = np.exp(log_det)[None, :]
    return np.logaddexp(
        _student_t(maha[0], det) + np.log1p(-_GLARE_ODDS),
        _student_t(maha[1:].min(axis=0), det) + np.log(_GLARE_ODDS),
    )


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
            new_labels = _balanced_labels(-log_likelihood[:, order], per_face, fixed)
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
    distances = np.sqrt(_DOF * np.expm1(np.maximum(0.0, -2.0 * spread / (_DOF + 3))))
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
    balanced_by_white = _adapt_to_whites(means, means, target_l=PALETTE_LAB[0, 0])
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


def _log_likelihood(features: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Student-t log-likelihood of every sticker under every cluster (shrunk covariances)."""
    one_hot = labels[:, None] == np.arange(6)[None, :]
    counts = one_hot.sum(axis=0)
    means = (one_hot.T @ features) / counts[:, None]
    resid = features - means[labels]
    pooled = max(float(np.mean(resid**2)), _MIN_SPREAD**2)
    scatter = (one_hot.T[:, None, :] * resid.T[None, :, :]) @ resid
    # Shrink each cluster's own covariance towards the pooled isotropic one.
    prior_weight = 6.0
    cov = (scatter + prior_weight * pooled * np.eye(3)) / (counts + prior_weight)[:, None, None]
    diff = features[None, :, :] - means[:, None, :]
    maha = ((diff @ np.linalg.inv(cov)) * diff).sum(axis=2).T
    return _student_t(maha, np.linalg.det(cov)[None, :])


def _student_t(maha: np.ndarray, det: np.ndarray) -> np.ndarray:
    """Log-density of a 3-D Student-t (up to a constant) from Mahalanobis distances.

    Heavy tails: a sticker far from every colour (glare, a misplaced sample) is not
    confidently given to whichever Gaussian tail happens to fall off more slowly.
    """
    return -0.5 * (_DOF + 3) * np.log1p(maha / _DOF) - 0.5 * np.log(det)


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
    per_face = size * size
    fixed = np.arange(6) * per_face + per_face // 2 if size % 2 else np.empty(0, np.intp)
    if profile is not None:
        labels, log_likelihood, distances, names = _classify_with_profile(lab, size, profile)
        means = _cluster_means(lab, labels)
        standard = set(names) == set(PALETTE_NAMES)
    else:
        features = _features(lab)
        labels = _cluster(features, size)
        for _ in range(2):
            features = _features(_equalise_faces(lab, labels, size))
            seeds = _cluster_means(features, labels)
            previous = labels
            labels, log_likelihood = _balanced_kmeans(features, seeds, per_face, fixed)
            if np.array_equal(labels, previous):
                # Same labels, same per-face gains: another round would change nothing.
                break
        means = _cluster_means(lab, labels)
        assignment, standard, _ = _palette_fit(means)
        centers = _cluster_means(features, labels)
        distances = np.sqrt(_squared_distances(features, centers))
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


def _adapt_to_whites(
    lab: np.ndarray, whites: np.ndarray, target_l: float | None = None
) -> np.ndarray:
    """``lab`` white-balanced to each of several white points at once (as ``adapt_lab``).

    Returns an array (len(whites), len(lab), 3). Without ``target_l`` each white keeps its
    own lightness (pure chromatic adaptation, no exposure change).
    """
    white_xyz = lab_to_xyz(whites)
    white_cones = white_xyz @ BRADFORD.T
    if target_l is None:
        target_y = white_xyz[:, 1:2]
    else:
        target_y = np.full((len(whites), 1), lab_to_xyz(np.array([target_l, 0.0, 0.0]))[1])
    target_cones = (BRADFORD @ D65_XYZ)[None, :] * target_y
    cones = lab_to_xyz(lab) @ BRADFORD.T
    adapted = cones[None, :, :] * (target_cones / white_cones)[:, None, :]
    return xyz_to_lab(adapted @ BRADFORD_INV.T)


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
    balanced = np.concatenate([lab[None], _adapt_to_whites(lab, whites[1:])])
    prior = np.sum((whites[:, 1:] / _CAST_SD) ** 2, axis=1)
    labels, total, moves = _joint_naming(balanced, whites[:, 0])
    best = int(np.argmin(total + prior))
    chosen, white = labels[best], whites[best]
    return FaceColors(
        names=tuple(PALETTE_NAMES[c] for c in chosen),
        confidence=_posterior_margin(moves[best], chosen),
        white_lab=(float(white[0]), float(white[1]), float(white[2])),
    )
