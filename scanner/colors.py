"""Name sticker colours: a whole cube by balanced clustering, or one face by a reference palette.

Whole cube (:func:`classify`): k-means in CIELAB seeded from the fixed centre stickers (odd N),
refined under the balance constraint that each of the six colours has exactly N*N stickers
(an optimal assignment of stickers to cluster "slots" with
:func:`scipy.optimize.linear_sum_assignment`, iterated with centre updates), with the whole cube
white-balanced by its own white cluster between rounds. Each sticker gets the log-likelihood
of every colour and a confidence (posterior margin between its colour and the runner-up).

One face (:func:`name_face_colors`): the face's stickers are named jointly under a two-level
model (each colour's centre in this photo varies around a reference; stickers of one colour
on one face agree closely), with a white point estimated from the face itself (or the
colours of a calibration profile).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np
from scipy.optimize import linear_sum_assignment
from sklearn.cluster import KMeans

from calibration.profile import Profile
from scanner.colorspace import BRADFORD, BRADFORD_INV, adapt_lab, lab_to_xyz, xyz_to_lab
from solver.errors import BadInputError
from solver.state import faces_from_dlb_corner

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

# Lightness varies with shading and exposure far more than hue does, so it counts half.
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
_STICKER_HUE_SD = 3.0
# Hue noise of a sticker (degrees) is about this divided by its chroma (ΔE noise ~3 in a, b).
_HUE_NOISE = 170.0
_STICKER_L_SD = 0.3
# Below this chroma a hue means little: a colour pays for missing chroma, white for having it
# (scale _WHITE_CHROMA), and white also pays when it is much darker than the face's white
# point (a printed logo cap is white with black print, so only gently).
_MIN_COLOUR_CHROMA = 18.0
# Offset of white's cost against the chromatic colours' marginal likelihoods (-2 log units).
_WHITE_OFFSET = 1.0
_WHITE_CHROMA = 10.0
_WHITE_MIN_L = 0.45
# A sticker at most this chromatic (and at least half as light as the face's lightest) may be
# the white one and so define the scene's white point.
_MAX_WHITE_CHROMA = 30.0
# Prior on the light's cast (standard deviations of the white point's a and b): casts of real
# lights lie along the blue-yellow (b) axis of the Planckian locus, hardly along a.
_CAST_SD = np.array([8.0, 20.0])
# Naming sweeps over the stickers (each sweep moves every sticker to its best colour given
# the others; the joint cost never rises, so a few sweeps reach a fixed point).
_NAMING_SWEEPS = 4
# Lightness of white assumed when no sticker of the face is taken as the white one.
_DEFAULT_WHITE_L = 70.0
# Degrees of freedom of the Student-t sticker likelihood.
_DOF = 4.0


@dataclass(frozen=True)
class ColorInfo:
    """The colour of one face's stickers.

    Parameters
    ----------
    name
        ``"white"``, ``"red"``... for the standard scheme, otherwise ``"colour 1"``..``"colour 6"``.
    lab
        Mean CIELAB reading of the stickers named this colour.
    """

    name: str
    lab: tuple[float, float, float]


def colors_json(colors: Mapping[str, ColorInfo]) -> dict:
    """Face letter -> colour name and mean Lab, as the JSON reports carry them.

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


def _squared_distances(points: np.ndarray, centres: np.ndarray) -> np.ndarray:
    diff = points[:, None, :] - centres[None, :, :]
    return np.einsum("ijk,ijk->ij", diff, diff)


def _balanced_labels(cost: np.ndarray, per_cluster: int, fixed: np.ndarray) -> np.ndarray:
    """Labels minimising total cost with exactly ``per_cluster`` stickers per cluster."""
    cost = cost.copy()
    if fixed.size:
        # Centre stickers of an odd cube are their cluster by definition.
        pinned = np.full((fixed.size, cost.shape[1]), 1e9)
        pinned[np.arange(fixed.size), np.arange(fixed.size)] = 0.0
        cost[fixed] = pinned
    slots = np.repeat(cost, per_cluster, axis=1)
    rows, cols = linear_sum_assignment(slots)
    labels = np.empty(cost.shape[0], dtype=np.intp)
    labels[rows] = cols // per_cluster
    return labels


def _balanced_kmeans(
    features: np.ndarray, seeds: np.ndarray, per_cluster: int, fixed: np.ndarray
) -> np.ndarray:
    """Balanced k-means, then balanced classification EM with per-colour covariances.

    Euclidean rounds find the clusters; likelihood rounds then let each colour have its own
    spread (dark colours in dim light scatter in a and b but not in L).
    """
    centres = seeds
    labels = np.full(features.shape[0], -1)
    for _ in range(20):
        new_labels = _balanced_labels(_squared_distances(features, centres), per_cluster, fixed)
        if np.array_equal(new_labels, labels):
            break
        labels = new_labels
        centres = np.stack([features[labels == k].mean(axis=0) for k in range(6)])
    for _ in range(10):
        new_labels = _balanced_labels(-_log_likelihood(features, labels), per_cluster, fixed)
        if np.array_equal(new_labels, labels):
            break
        labels = new_labels
    return labels


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
        means = np.stack([cones[labels == k].mean(axis=0) for k in range(6)])
    else:
        means = lab_to_xyz(reference) @ BRADFORD.T
    reference = means[labels]
    corrected = cones.copy()
    for face in range(6):
        rows = slice(face * per_face, (face + 1) * per_face)
        seen, expected = cones[rows], reference[rows]
        gain = (seen * expected).sum(axis=0) / np.maximum((expected**2).sum(axis=0), 1e-12)
        corrected[rows] = seen / np.maximum(gain, 1e-3)
    return xyz_to_lab(corrected @ BRADFORD_INV.T)


def _objective(features: np.ndarray, labels: np.ndarray) -> float:
    log_likelihood = _log_likelihood(features, labels)
    return float(log_likelihood[np.arange(labels.size), labels].sum())


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
        kmeans = KMeans(n_clusters=6, init=features[fixed], n_init=1, max_iter=30)
        starts.append(kmeans.fit(features).cluster_centers_)
    if size % 2 == 0 or size >= 5:
        spread = KMeans(n_clusters=6, n_init=3, random_state=0).fit(features).cluster_centers_
        if fixed.size:
            # Cluster k must be the one holding face k's centre sticker.
            spread = spread[linear_sum_assignment(_squared_distances(features[fixed], spread))[1]]
        starts.append(spread)
    results = [_balanced_kmeans(features, seeds, per_face, fixed) for seeds in starts]
    results = [_reseat_centres(features, labels, per_face, fixed) for labels in results]
    if len(results) == 1:
        return results[0]
    scores = [_objective(features, labels) for labels in results]
    return results[int(np.argmax(scores))]


def _reseat_centres(
    features: np.ndarray, labels: np.ndarray, per_face: int, fixed: np.ndarray
) -> np.ndarray:
    """Give each centre sticker the group of other stickers it fits best, jointly.

    Clustering seeded from the centres can settle with two centres in each other's groups
    (a glared orange centre that reads closer to the reds seeds the orange cluster with the
    reds). The optimal assignment of the six centres to the six groups of non-centre
    stickers (by squared distance to each group's mean) undoes that; the labels are then
    refined again from the reassigned groups.
    """
    if not fixed.size:
        return labels
    movable = np.ones(labels.size, dtype=bool)
    movable[fixed] = False
    groups = np.stack([features[movable & (labels == k)].mean(axis=0) for k in range(6)])
    group_of_centre = linear_sum_assignment(_squared_distances(features[fixed], groups))[1]
    if np.array_equal(group_of_centre, np.arange(6)):
        return labels
    # Group group_of_centre[k] belongs with centre k, i.e. to cluster k.
    return _balanced_kmeans(features, groups[group_of_centre], per_face, fixed)


def _classify_with_profile(
    lab: np.ndarray, size: int, profile: Profile
) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[str, ...]]:
    """Balanced maximum-likelihood labels under a profile's colour distributions.

    Returns labels, log-likelihoods, Mahalanobis distances (columns = clusters) and names.
    """
    per_face = size * size
    fixed = np.arange(6) * per_face + per_face // 2 if size % 2 else np.empty(0, np.intp)
    adapted = lab
    for _ in range(3):
        maha = profile_mahalanobis(adapted, profile)
        log_likelihood = _student_t(maha, np.linalg.det(profile.covariances)[None, :])
        # Column k must be the colour of face k's centre sticker (odd N).
        order = linear_sum_assignment(-log_likelihood[fixed])[1] if fixed.size else np.arange(6)
        log_likelihood = log_likelihood[:, order]
        labels = _balanced_labels(-log_likelihood, per_face, fixed)
        # The profile is a prior, not a cage: each face may be lit differently from the
        # scan the profile was learned from (a lamp on one side, a window on the other).
        adapted = _equalise_faces(lab, labels, size, profile.means[order])
    names = tuple(profile.names[c] for c in order)
    return labels, log_likelihood, np.sqrt(maha[:, order]), names


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
    best: tuple[float, np.ndarray, bool, int] | None = None
    for white in range(6):
        balanced = adapt_lab(means, means[white], target_l=PALETTE_LAB[0, 0])
        cost = np.full((6, 6), 1e6)
        others = np.arange(6) != white
        cost[np.ix_(others, np.arange(1, 6))] = _hue_cost(balanced[others], PALETTE_LAB[1:])
        # Prior on the white: the brightest, least coloured cluster (a strong cast is rarer).
        cost[white, 0] = 0.5 * np.hypot(means[white, 1], means[white, 2]) + 0.5 * (
            means[:, 0].max() - means[white, 0]
        )
        rows, cols = linear_sum_assignment(cost)
        total = float(cost[rows, cols].sum())
        if best is None or total < best[0]:
            assignment = np.empty(6, dtype=np.intp)
            assignment[rows] = cols
            hue_gap = _hue_cost(balanced, PALETTE_LAB)[np.arange(6), assignment]
            hue_gap -= 0.5 * np.abs(balanced[:, 0] - PALETTE_LAB[assignment, 0])
            chroma = np.hypot(balanced[:, 1], balanced[:, 2])
            matches = (hue_gap <= _STANDARD_MAX_HUE) & (chroma >= _MIN_CHROMA)
            odd = np.flatnonzero(others & ~matches)
            plausible = odd.size == 0 or (
                odd.size == 1 and hue_gap[odd[0]] <= _CAST_MAX_HUE and chroma[odd[0]] >= _MIN_CHROMA
            )
            best = (total, assignment, plausible, white)
    assert best is not None
    return best[1], best[2], best[3]


def _log_likelihood(features: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Student-t log-likelihood of every sticker under every cluster (shrunk covariances)."""
    one_hot = labels[:, None] == np.arange(6)[None, :]
    counts = one_hot.sum(axis=0)
    means = (one_hot.T @ features) / counts[:, None]
    resid = features - means[labels]
    pooled = max(float(np.mean(resid**2)), _MIN_SPREAD**2)
    scatter = np.einsum("ik,ij,il->kjl", one_hot, resid, resid)
    # Shrink each cluster's own covariance towards the pooled isotropic one.
    prior_weight = 6.0
    cov = (scatter + prior_weight * pooled * np.eye(3)) / (counts + prior_weight)[:, None, None]
    diff = features[:, None, :] - means[None, :, :]
    maha = np.einsum("ikj,kjl,ikl->ik", diff, np.linalg.inv(cov), diff)
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
        Optional calibration profile; its colour means seed the clustering and its
        covariances score the stickers.

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
    >>> from scanner.colorsim import STICKER_SRGB
    >>> from scanner.colorspace import rgb_to_lab
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
        means = np.stack([lab[labels == k].mean(axis=0) for k in range(6)])
        standard = set(names) == set(PALETTE_NAMES)
    else:
        features = _features(lab)
        labels = _cluster(features, size)
        for _ in range(2):
            features = _features(_equalise_faces(lab, labels, size))
            seeds = np.stack([features[labels == k].mean(axis=0) for k in range(6)])
            labels = _balanced_kmeans(features, seeds, per_face, fixed)
        means = np.stack([lab[labels == k].mean(axis=0) for k in range(6)])
        assignment, standard, _ = _palette_fit(means)
        log_likelihood = _log_likelihood(features, labels)
        centres = np.stack([features[labels == k].mean(axis=0) for k in range(6)])
        distances = np.sqrt(_squared_distances(features, centres))
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
    >>> from calibration.profile import Profile
    >>> p = Profile.from_means("demo", PALETTE_NAMES, PALETTE_LAB)
    >>> profile_mahalanobis(PALETTE_LAB[:1], p).argmin(axis=1).tolist()
    [0]
    """
    lab = np.asarray(lab, dtype=np.float64)
    diff = lab[:, None, :] - profile.means[None, :, :]
    return np.einsum("ikj,kjl,ikl->ik", diff, np.linalg.inv(profile.covariances), diff)


def _lch(lab: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Lightness, chroma and hue angle (degrees, 0..360) of Lab colours."""
    return (
        lab[:, 0],
        np.hypot(lab[:, 1], lab[:, 2]),
        np.degrees(np.arctan2(lab[:, 2], lab[:, 1])) % 360.0,
    )


def _class_cost(
    weight: np.ndarray, first: np.ndarray, second: np.ndarray, prior_var: np.ndarray
) -> np.ndarray:
    """-2 log marginal likelihood of each colour's stickers in one feature (sufficient stats).

    Stickers x_i (noise variance 1/w_i) of one colour scatter around the photo's centre of
    that colour, which itself lies N(0, prior_var) from the colour's reference (features are
    offsets from it). ``weight``, ``first``, ``second`` are sums of w, w*x and w*x^2 per
    colour; an empty colour costs nothing.
    """
    present = weight > 0
    safe = np.where(present, weight, 1.0)
    spread = prior_var + 1.0 / safe
    cost = second - first**2 / safe + np.log(safe * spread) + (first / safe) ** 2 / spread
    return np.where(present, cost, 0.0)


def _joint_naming(balanced: np.ndarray, white_l: float) -> tuple[np.ndarray, float, np.ndarray]:
    """Name one face's balanced stickers jointly: labels, total cost, per-colour move costs.

    Minimises the face's joint cost (white stickers each pay their chroma and darkness; each
    chromatic colour pays the marginal likelihood of its stickers' hue and relative lightness
    under the two-level model) by moving one sticker at a time to its best colour.
    """
    lightness, chroma, hue = _lch(balanced)
    count = balanced.shape[0]
    hue_offset = (hue[:, None] - _FACE_HUE[None, :] + 180.0) % 360.0 - 180.0
    light_offset = (lightness / max(white_l, 1e-6))[:, None] - _FACE_L[None, :]
    hue_weight = 1.0 / (_STICKER_HUE_SD**2 + (_HUE_NOISE / np.maximum(chroma, 1.0)) ** 2)
    light_weight = 1.0 / _STICKER_L_SD**2
    # Per-sticker costs that do not depend on the other stickers, PALETTE_NAMES order.
    own = np.empty((count, 6))
    pale = np.maximum(0.0, _MIN_COLOUR_CHROMA - chroma) / (_MIN_COLOUR_CHROMA / 3.0)
    own[:, 1:] = (pale**2)[:, None]
    own[:, 0] = (
        (chroma / _WHITE_CHROMA) ** 2
        + (np.maximum(0.0, _WHITE_MIN_L - lightness / max(white_l, 1e-6)) / 0.15) ** 2
        + _WHITE_OFFSET
    )
    # Sufficient statistics per sticker and chromatic colour: (count, 5) each.
    stats = np.stack(
        [
            np.broadcast_to(hue_weight[:, None], hue_offset.shape),
            hue_weight[:, None] * hue_offset,
            hue_weight[:, None] * hue_offset**2,
            np.full(light_offset.shape, light_weight),
            light_weight * light_offset,
            light_weight * light_offset**2,
        ]
    )
    hue_var, light_var = _FACE_HUE_SD**2, _FACE_L_SD**2

    def colour_costs(totals: np.ndarray) -> np.ndarray:
        return _class_cost(*totals[:3], hue_var) + _class_cost(*totals[3:], light_var)

    labels = (own + _independent_costs(stats, hue_var, light_var)).argmin(axis=1)
    member = labels[:, None] == np.array(_CHROMATIC)[None, :]
    totals = np.einsum("sik,ik->sk", stats, member)
    base = colour_costs(totals)
    moves = np.zeros((count, 6))
    for _ in range(_NAMING_SWEEPS):
        changed = False
        for i in range(count):
            own_stats = stats[:, i, :]
            current = labels[i]
            without = totals - own_stats * member[i][None, :]
            base_without = colour_costs(without)
            with_i = colour_costs(without + own_stats)
            # Cost of the face with sticker i given each colour (white: its own cost only).
            chromatic = base_without.sum() - base_without + with_i + own[i, 1:]
            moves[i, 0] = base_without.sum() + own[i, 0]
            moves[i, 1:] = chromatic
            best = int(moves[i].argmin())
            if best != current and moves[i, best] < moves[i, current] - 1e-9:
                labels[i] = best
                member[i] = np.array(_CHROMATIC) == best
                totals = without + own_stats * member[i][None, :]
                changed = True
        if not changed:
            break
    base = colour_costs(totals)
    total = float(base.sum() + own[np.arange(count), labels].sum())
    return labels, total, moves - moves.min(axis=1, keepdims=True)


def _independent_costs(stats: np.ndarray, hue_var: np.ndarray, light_var: np.ndarray) -> np.ndarray:
    """Each sticker's chromatic cost as if it were its colour's only sticker (a first guess)."""
    return np.column_stack(
        [np.zeros(stats.shape[1])]
        + [
            _class_cost(*stats[:3, :, k], hue_var[k]) + _class_cost(*stats[3:, :, k], light_var[k])
            for k in range(stats.shape[2])
        ]
    )


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
    lightness, chroma, _ = _lch(lab)
    # White-point hypotheses: no cast (the camera balanced the light), or any sticker pale
    # and light enough to be the white one; each pays the prior on its cast.
    pale = (chroma <= _MAX_WHITE_CHROMA) & (lightness >= 0.5 * lightness.max())
    best: tuple[float, np.ndarray, np.ndarray, np.ndarray] | None = None
    for white in [None, *lab[pale]]:
        if white is None:
            # No sticker taken as white: the camera's exposure puts white at least this light.
            white_l = max(float(lightness.max()), _DEFAULT_WHITE_L)
            balanced, prior, white = lab, 0.0, np.array([white_l, 0.0, 0.0])
        else:
            balanced = adapt_lab(lab, white)
            prior = float(np.sum((white[1:] / _CAST_SD) ** 2))
        labels, total, moves = _joint_naming(balanced, float(white[0]))
        if best is None or total + prior < best[0]:
            best = (total + prior, labels, moves, white)
    assert best is not None
    _, chosen, moves, white = best
    return FaceColors(
        names=tuple(PALETTE_NAMES[c] for c in chosen),
        confidence=_posterior_margin(moves, chosen),
        white_lab=(float(white[0]), float(white[1]), float(white[2])),
    )
