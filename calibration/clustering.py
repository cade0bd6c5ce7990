"""Balanced k-means in CIELAB: six clusters of exactly N*N stickers each.

k-means seeded from the fixed center stickers (odd N), refined under the balance constraint
that each color has exactly N*N stickers: an optimal assignment of stickers to cluster
"slots" (:func:`balanced_labels`, with :func:`scipy.optimize.linear_sum_assignment`),
iterated with center updates. Stickers are scored by a heavy-tailed Student-t
(:func:`student_t_log_density`), so one far from every color (glare, a misplaced sample) is
not confidently given to whichever Gaussian tail falls off more slowly.
"""

from __future__ import annotations

import warnings
from functools import lru_cache

import numpy as np
import sklearn
from scipy.optimize import linear_sum_assignment
from sklearn.cluster import KMeans
from sklearn.exceptions import ConvergenceWarning
from threadpoolctl import ThreadpoolController

from cubescan.calibration.colorspace import (
    BRADFORD,
    BRADFORD_INV,
    lab_to_xyz,
    xyz_to_lab,
)

# Weight of lightness against a and b in the whole-cube clustering features (per-face
# shading is removed by equalise_faces, so lightness counts fully).
_L_WEIGHT = 1.0
# Floor of the per-colour spread (ΔE): stops a tight cluster from claiming certainty.
_MIN_SPREAD = 2.5
#: Prior odds that a sticker's reading carries a specular highlight the sampler kept.
GLARE_ODDS = 0.05
#: Strongest highlight considered, as a share of the light a white sticker reflects: the
#: sampler rejects most of a highlight, and one that floods a sticker leaves no colour to name.
MAX_GLARE = 0.35
# Degrees of freedom of the Student-t sticker likelihood.
STUDENT_DOF = 4.0


def _features(lab: np.ndarray) -> np.ndarray:
    return lab * np.array([_L_WEIGHT, 1.0, 1.0])


def _squared_distances(points: np.ndarray, centers: np.ndarray) -> np.ndarray:
    diff = points[:, None, :] - centers[None, :, :]
    return np.einsum("ijk,ijk->ij", diff, diff)


def cluster_means(
    points: np.ndarray, labels: np.ndarray, mask: np.ndarray | None = None
) -> np.ndarray:
    """The mean of each of the six clusters' points.

    Parameters
    ----------
    points
        (M, D) points.
    labels
        (M,) cluster of each point, 0 to 5.
    mask
        Only the points where it holds count; None for all of them.

    Returns
    -------
    numpy.ndarray
        (6, D) means (NaN for a cluster with no point).

    Examples
    --------
    >>> cluster_means(np.arange(12.0).reshape(6, 2), np.arange(6))[[0, 5]].tolist()
    [[0.0, 1.0], [10.0, 11.0]]
    """
    one_hot = labels[:, None] == np.arange(6)[None, :]
    if mask is not None:
        one_hot &= mask[:, None]
    return (one_hot.T @ points) / one_hot.sum(axis=0)[:, None]


def balanced_labels(cost: np.ndarray, per_cluster: int, fixed: np.ndarray) -> np.ndarray:
    """The labels of least total cost with exactly ``per_cluster`` stickers per cluster.

    Parameters
    ----------
    cost
        (M, K) cost of giving sticker m cluster k; M = K * per_cluster.
    per_cluster
        Stickers each cluster must get (N*N for a cube).
    fixed
        Indices of stickers pinned to clusters 0, 1, ... in order (an odd cube's centers, which
        are their cluster by definition); empty for none.

    Returns
    -------
    numpy.ndarray
        (M,) cluster of each sticker, an optimal assignment of stickers to cluster slots.

    Examples
    --------
    >>> cost = np.array([[0.0, 1.0], [0.0, 2.0], [1.0, 0.0], [0.0, 5.0]])
    >>> balanced_labels(cost, 2, np.empty(0, np.intp)).tolist()  # sticker 0 gives way
    [1, 0, 1, 0]
    """
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
        new_labels = balanced_labels(_squared_distances(features, centers), per_cluster, fixed)
        if np.array_equal(new_labels, labels):
            break
        labels = new_labels
        centers = cluster_means(features, labels)
    for _ in range(10):
        log_likelihood = _log_likelihood(features, labels)
        new_labels = balanced_labels(-log_likelihood, per_cluster, fixed)
        if np.array_equal(new_labels, labels):
            return labels, log_likelihood
        labels = new_labels
    return labels, _log_likelihood(features, labels)


def equalise_faces(
    lab: np.ndarray, labels: np.ndarray, size: int, reference: np.ndarray | None = None
) -> np.ndarray:
    """Undo per-face light differences (mixed lamps, shading) using the cube's own colours.

    Each face is lit by its own light; with a first labelling, the gain per cone channel that
    best maps the face's stickers onto their colours' cube-wide means (or onto ``reference``,
    Lab per cluster, e.g. a profile's colours) is that face's light relative to the reference
    one (a von Kries model per face). Dividing it out makes every face look as if lit alike.

    Parameters
    ----------
    lab
        (6*N*N, 3) CIELAB readings in facelet order.
    labels
        (6*N*N,) a first labelling: the cluster of each sticker.
    size
        N.
    reference
        (6, 3) CIELAB color of each cluster to map onto; None for the clusters' cube-wide means.

    Returns
    -------
    numpy.ndarray
        (6*N*N, 3) the readings with each face's light divided out.

    Examples
    --------
    >>> lab = np.tile([[80.0, 0.0, 0.0]], (54, 1))
    >>> lab[:9] = [60.0, 0.0, 0.0]  # face U in shadow
    >>> labels = np.tile(np.arange(9) % 6, 6)  # every face shows colors 0-5
    >>> equalise_faces(lab, labels, 3)[[0, 9], 0].round(1).tolist()
    [77.2, 77.2]
    """
    per_face = size * size
    cones = lab_to_xyz(lab) @ BRADFORD.T
    if reference is None:
        means = cluster_means(cones, labels)
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
    on a busy machine a descheduled thread stalls every iteration's barrier.
    """
    # The inputs are checked finite CIELAB and the options fixed here: skip re-validation.
    with (
        _threadpools().limit(limits=1, user_api="openmp"),
        sklearn.config_context(assume_finite=True, skip_parameter_validation=True),
        warnings.catch_warnings(),
    ):
        # Fewer than six distinct readings: the caller refuses them (check_six_colors).
        warnings.simplefilter("ignore", ConvergenceWarning)
        return KMeans(n_clusters=6, **options).fit(features).cluster_centers_


def _cluster(features: np.ndarray, size: int) -> np.ndarray:
    """Balanced clustering labels; for odd N cluster k is the colour of face k's centre.

    Odd N starts k-means from the six fixed centre stickers (one per colour by construction).
    Even N has no fixed stickers and starts from the best of three k-means++ runs; a second
    start for odd N >= 5, where one centre sticker per colour among 25+ is a weak seed, is
    one k-means++ run (three named no cube differently in eval_colors at N = 5 and 7). The
    more likely balanced result wins.
    """
    per_face = size * size
    starts = []
    fixed = np.empty(0, np.intp)
    if size % 2 == 1:
        fixed = np.arange(6) * per_face + per_face // 2
        starts.append(_kmeans_centers(features, init=features[fixed], n_init=1, max_iter=30))
    if size % 2 == 0 or size >= 5:
        spread = _kmeans_centers(features, n_init=1 if fixed.size else 3, random_state=0)
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
    groups = cluster_means(features, labels, movable)
    group_of_center = linear_sum_assignment(_squared_distances(features[fixed], groups))[1]
    if np.array_equal(group_of_center, np.arange(6)):
        return labels, log_likelihood
    # Group group_of_centre[k] belongs with centre k, i.e. to cluster k.
    return _balanced_kmeans(features, groups[group_of_center], labels.size // 6, fixed)


def cluster_cube(lab: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cluster a whole cube's readings into six colors of exactly N*N stickers each.

    Balanced k-means (from the fixed centers for odd N), then twice: each face's light
    divided out using the colors found (:func:`equalise_faces`) and the clusters refined.

    Parameters
    ----------
    lab
        (6*N*N, 3) CIELAB readings in facelet order.
    size
        N.

    Returns
    -------
    labels : numpy.ndarray
        (6*N*N,) cluster of each sticker; for odd N cluster k holds face k's center.
    log_likelihood : numpy.ndarray
        (6*N*N, 6) log-likelihood of every sticker under every cluster.
    distances : numpy.ndarray
        (6*N*N, 6) distance of every sticker to every cluster's mean (in the light-equalised
        readings).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> colors = np.array([[90, 0, 0], [40, 60, 40], [55, -50, 40], [85, -5, 80],
    ...                    [60, 40, 60], [35, 15, -50]], float)
    >>> lab = np.repeat(colors, 9, axis=0) + rng.normal(0, 1, (54, 3))
    >>> labels, _, _ = cluster_cube(lab, 3)
    >>> labels.reshape(6, 9)[:, 0].tolist()
    [0, 1, 2, 3, 4, 5]
    """
    per_face = size * size
    fixed = np.arange(6) * per_face + per_face // 2 if size % 2 else np.empty(0, np.intp)
    features = _features(lab)
    labels = _cluster(features, size)
    for _ in range(2):
        features = _features(equalise_faces(lab, labels, size))
        seeds = cluster_means(features, labels)
        previous = labels
        labels, log_likelihood = _balanced_kmeans(features, seeds, per_face, fixed)
        if np.array_equal(labels, previous):
            # Same labels, same per-face gains: another round would change nothing.
            break
    centers = cluster_means(features, labels)
    return labels, log_likelihood, np.sqrt(_squared_distances(features, centers))


def _log_likelihood(features: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Student-t log-likelihood of every sticker under every cluster (shrunk covariances)."""
    return color_log_likelihood(features, labels)


def color_log_likelihood(
    features: np.ndarray,
    labels: np.ndarray,
    mask: np.ndarray | None = None,
    glare_toward: int | None = None,
) -> np.ndarray:
    """Student-t log-likelihood of every reading under each of six colours fitted to labels.

    Each colour's mean and covariance are fitted to the readings given it (only those where
    ``mask`` holds, when given); the covariances are shrunk towards the pooled isotropic
    spread (at least :data:`_MIN_SPREAD`), so a colour with few readings stays sensible.
    With ``glare_toward``, a reading may also be its colour plus a highlight: up to
    :data:`MAX_GLARE` of that colour's light (in XYZ) added, at prior odds
    :data:`GLARE_ODDS`. A red under a lamp's highlight then stays likelier red than orange.

    Parameters
    ----------
    features
        (M, 3) readings (CIELAB, or the clustering's features).
    labels
        (M,) colour of each reading, 0 to 5; every colour must have a reading the mask keeps.
    mask
        Readings to fit the colours to; None for all of them.
    glare_toward
        The column of the colour that shows the light (white), when the readings are CIELAB
        and highlights should be allowed for; None for none.

    Returns
    -------
    numpy.ndarray
        (M, 6) log-likelihood of every reading under every colour.

    Examples
    --------
    >>> lab = np.repeat(np.arange(6.0)[:, None] * [10.0, 0.0, 0.0], 4, axis=0)
    >>> ll = color_log_likelihood(lab, np.repeat(np.arange(6), 4))
    >>> ll.argmax(axis=1).reshape(6, 4)[:, 0].tolist()
    [0, 1, 2, 3, 4, 5]
    """
    one_hot = labels[:, None] == np.arange(6)[None, :]
    if mask is not None:
        one_hot &= mask[:, None]
    counts = one_hot.sum(axis=0)
    means = (one_hot.T @ features) / np.maximum(counts, 1)[:, None]
    resid = (features - means[labels]) * one_hot.any(axis=1)[:, None]
    pooled = max(float((resid**2).sum() / max(3 * counts.sum(), 1)), _MIN_SPREAD**2)
    scatter = (one_hot.T[:, None, :] * resid.T[None, :, :]) @ resid
    # Shrink each cluster's own covariance towards the pooled isotropic one.
    prior_weight = 6.0
    cov = (scatter + prior_weight * pooled * np.eye(3)) / (counts + prior_weight)[:, None, None]
    inverse = np.linalg.inv(cov)
    det = np.linalg.det(cov)[None, :]
    diff = features[None, :, :] - means[:, None, :]
    maha = ((diff @ inverse) * diff).sum(axis=2).T
    if glare_toward is None:
        return student_t_log_density(maha, det)
    # A highlight adds some of the light (as the white stickers show it) to a reading.
    amounts = np.linspace(0.0, MAX_GLARE, 8)[1:]
    xyz = lab_to_xyz(means)
    glared = xyz_to_lab(xyz[None] + amounts[:, None, None] * xyz[glare_toward][None, None, :])
    diff = features[None, None, :, :] - glared[:, :, None, :]  # (A, 6, M, 3)
    maha_glared = ((diff @ inverse[None]) * diff).sum(axis=3).min(axis=0).T
    return glare_mixture(maha, maha_glared, det)


def glare_mixture(maha: np.ndarray, maha_glared: np.ndarray, det: np.ndarray) -> np.ndarray:
    """Student-t log-likelihood of readings seen either as they are or under a highlight.

    The two are mixed by the prior odds of a highlight (:data:`GLARE_ODDS`).

    Parameters
    ----------
    maha
        Squared Mahalanobis distances of the readings to each colour as it is.
    maha_glared
        The same to the colour plus the amount of its light that fits best.
    det
        Determinant of each colour's covariance (broadcast against ``maha``).

    Returns
    -------
    numpy.ndarray
        Log-likelihoods, shaped as ``maha``.

    Examples
    --------
    >>> plain = glare_mixture(np.array([1.0]), np.array([50.0]), np.array([1.0]))
    >>> glared = glare_mixture(np.array([50.0]), np.array([1.0]), np.array([1.0]))
    >>> bool(plain[0] > glared[0] > glare_mixture(np.array([50.0]), np.array([50.0]), 1.0)[0])
    True
    """
    return np.logaddexp(
        student_t_log_density(maha, det) + np.log1p(-GLARE_ODDS),
        student_t_log_density(maha_glared, det) + np.log(GLARE_ODDS),
    )


def student_t_log_density(maha: np.ndarray, det: np.ndarray) -> np.ndarray:
    """Log-density of a 3-D Student-t (up to a constant) from Mahalanobis distances.

    Heavy tails: a sticker far from every colour (glare, a misplaced sample) is not
    confidently given to whichever Gaussian tail happens to fall off more slowly.

    Parameters
    ----------
    maha
        Squared Mahalanobis distances of readings to a color.
    det
        Determinant of that color's covariance (broadcast against ``maha``).

    Returns
    -------
    numpy.ndarray
        Log-densities with :data:`STUDENT_DOF` degrees of freedom, shaped as ``maha``.

    Examples
    --------
    >>> student_t_log_density(np.array([4.0, 16.0]), np.array([1.0])).round(3).tolist()
    [-2.426, -5.633]
    """
    return -0.5 * (STUDENT_DOF + 3) * np.log1p(maha / STUDENT_DOF) - 0.5 * np.log(det)
