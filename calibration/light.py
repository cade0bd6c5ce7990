"""Each face photo's light, and the photos' colours as if all were taken under one light.

The six photos of a cube are often taken under different light: a window on one side, a
lamp on the other, one face in shadow (five times darker, or warmer). Before the whole
cube's colours are named at once, each photo's light is divided out:

1. each photo's stickers are named on their own
   (:func:`cubescan.calibration.naming.name_face_colors`, which finds the photo's white point in the
   photo itself);
2. the gain per cone channel that best maps a photo's stickers onto the cube-wide means
   of their colours is that photo's light relative to the cube's average light, a von
   Kries model per photo (:func:`light_gains`); means and gains are refined in turn;
3. a photo whose own naming went wrong is found and re-lit from the other photos
   (:func:`relight_misfits`): a dim face of three colours and no white can read its
   greens as whites, and the gain fitted to those names leaves its stickers far from
   every colour the other photos show.

A face of one colour (a solved cube's) says nothing of its light: it is left as taken.
Nor is a colour that a photo shows k times expected on the other photos more than the
N*N - k times the cube has it (on a solved cube, not at all).

Step 3 alone, on the photos as taken, is the other way to read a cube: when most
photos share one light, it re-lights only the few that do not, and no photo's naming
can mislead it.

The gains are in Bradford cone space (:data:`cubescan.calibration.colorspace.BRADFORD`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.spatial import cKDTree

from cubescan.calibration.colorspace import BRADFORD, BRADFORD_INV, lab_to_xyz, xyz_to_lab
from cubescan.calibration.face_naming import name_face_colors

MISFIT_DISTANCE = 12.0
"""ΔE beyond which a sticker counts as matching none of the other photos' colours."""

MISFIT_MARGIN = 2.0
"""How many stickers' worth of misfit a new light must explain before it replaces the
old one: a face of one or two colours fits many lights nearly as well."""

GAIN_CHANGE_COST = 2.0
"""Cost per squared log gain of a change of light, so that among lights that fit alike
the smallest change wins (a one-colour face fits every light that puts it on a colour)."""

ONE_COLOR_SPREAD = 16.0
"""ΔE within which a photo's stickers count as one colour when its misfit is weighed. A
cube's colours lie 30 or more apart (red and orange the closest); noise in a dim photo
spreads one colour's stickers over 10-25. Chosen on the rendered sets of eval_check:
12 left dim solved faces in pieces, 20 cost a random cube."""

COLOR_GROUP_DISTANCE = 6.0
"""ΔE within which readings count as one colour when light hypotheses are listed."""


def light_gains(face_lab: Sequence[np.ndarray], labels: Sequence[Sequence[str]]) -> np.ndarray:
    """Each photo's light relative to the cube's average light, per cone channel.

    A von Kries model per photo: the gain that best (least squares) maps a photo's
    stickers onto the cube-wide mean of their colours.

    Parameters
    ----------
    face_lab
        Per photo, (n, 3) CIELAB samples.
    labels
        Per photo, the n colour names (or letters) of its stickers.

    Returns
    -------
    numpy.ndarray
        (photos, 3) gains in Bradford cone space.

    Examples
    --------
    >>> face = np.array([[85.0, 0, 0], [42, 58, 32]])
    >>> dark = xyz_to_lab(lab_to_xyz(face) * 0.5)
    >>> np.round(light_gains([face, dark], ["WR", "WR"]), 2).tolist()
    [[1.33, 1.33, 1.33], [0.67, 0.67, 0.67]]
    """
    cones = [_cones(lab) for lab in face_lab]
    names = np.array([name for photo_labels in labels for name in photo_labels])
    stacked = np.concatenate(cones)
    means = {name: stacked[names == name].mean(axis=0) for name in set(names)}
    gains = []
    for seen, photo_labels in zip(cones, labels, strict=True):
        wanted = np.stack([means[name] for name in photo_labels])
        gains.append(_least_squares_gain(seen, wanted))
    return np.array(gains)


def balanced_lab(lab: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """CIELAB samples of one photo with its light's ``gain`` divided out.

    Parameters
    ----------
    lab
        (n, 3) CIELAB samples.
    gain
        (3,) gain in Bradford cone space, as from :func:`light_gains`.

    Returns
    -------
    numpy.ndarray
        (n, 3) CIELAB.

    Examples
    --------
    >>> np.round(balanced_lab(np.array([[50.0, 20, 10]]), np.ones(3)), 6).tolist()
    [[50.0, 20.0, 10.0]]
    """
    return _lab(_cones(lab) / gain)


def balance_photos(face_samples: Sequence[np.ndarray], rounds: int = 3) -> list[np.ndarray]:
    """The photos' colour samples as if every photo had been taken under one light.

    Steps 1-3 of the module's description: each photo named on its own, von Kries gains
    onto the cube-wide means of those names (``rounds`` refinements), then photos whose
    own naming went wrong re-lit from the others. A few misnamed stickers on a face
    shift its gain only a little (least squares over the face's stickers); a face named
    wholly wrong is what the last step is for.

    Parameters
    ----------
    face_samples
        Six (or any number of) arrays (n, 3) of CIELAB samples, one per photo.
    rounds
        Refinements of the cube-wide means and the per-photo gains.

    Returns
    -------
    list of numpy.ndarray
        The balanced samples, shaped as given, L clipped to 0..100 (a sticker brighter
        than the cube's average white stays the brightest white).

    Examples
    --------
    >>> from cubescan.calibration.colorspace import adapt_lab
    >>> face = np.array([[85.0, 0, 0], [42, 58, 32], [60, 45, 60], [82, -6, 75]])
    >>> dim_warm = adapt_lab(face, np.array([85.0, -8, -25]), target_l=45.0)  # a dim lamp
    >>> balanced = balance_photos([face, dim_warm])
    >>> bool(np.abs(balanced[0] - balanced[1]).max() < 1.0)
    True
    """
    balanced = [np.asarray(samples, dtype=float) for samples in face_samples]
    # A photo of one colour says nothing of its light (a face of a solved cube): it is
    # taken as it is, and its name, which it had to guess its own white for, is left out.
    telling = [p for p, lab in enumerate(balanced) if not _one_color(lab)]
    names = [name_face_colors(balanced[p]).names for p in telling]
    for _ in range(rounds):
        gains = light_gains([balanced[p] for p in telling], names) if telling else []
        for p, gain in zip(telling, gains, strict=True):
            balanced[p] = balanced_lab(balanced[p], gain)
    return relight_misfits(balanced)


def relight_misfits(face_samples: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The photos' colour samples with each photo that matches none of the others re-lit.

    Step 3 of the module's description, see :func:`_relit_misfits`. A photo whose
    stickers lie near colours the other photos show is left as it is.

    Parameters
    ----------
    face_samples
        Arrays (n, 3) of CIELAB samples, one per photo.

    Returns
    -------
    list of numpy.ndarray
        The samples, shaped as given, L clipped to 0..100 (a sticker brighter than the
        cube's average white stays the brightest white).

    Examples
    --------
    Three photos of four colours each; the third in a dim, bluish light:

    >>> white, red, green = [85.0, 0, 0], [42, 58, 32], [48, -45, 30]
    >>> blue, yellow, orange = [32, 20, -55], [82, -6, 75], [60, 45, 60]
    >>> faces = [np.array(colors) for colors in ([white, red, green, blue],
    ...     [yellow, orange, white, red], [green, blue, yellow, orange])]
    >>> dim = xyz_to_lab(lab_to_xyz(faces[2]) @ BRADFORD.T * [0.25, 0.3, 0.6] @ BRADFORD_INV.T)
    >>> relit = relight_misfits([faces[0], faces[1], dim])
    >>> bool(np.abs(relit[2] - faces[2]).max() < 1.0), bool(np.allclose(relit[0], faces[0]))
    (True, True)
    """
    cones = _relit_misfits([_cones(samples) for samples in face_samples])
    relit = [_lab(photo) for photo in cones]
    for lab in relit:
        lab[:, 0] = np.clip(lab[:, 0], 0.0, 100.0)
    return relit


def _relit_misfits(cones: list[np.ndarray]) -> list[np.ndarray]:
    """Re-light, worst first, each photo whose stickers another light explains far better.

    A photo's misfit under a light is the summed distance (capped at
    :data:`MISFIT_DISTANCE`) from each of its stickers to the nearest colour the other
    photos show. The lights tried are those that put one of the photo's colours exactly
    on one of the others' colours (:func:`_light_hypotheses`); the best, if it lowers the
    misfit by more than :data:`MISFIT_MARGIN` stickers' worth, is refined by least
    squares onto the colours it matched. The photo that fits worst goes first: a photo
    named wholly wrong also pulls the cube-wide means, so the photos it shares colours
    with fit a little worse too, and would fit its false colours if re-lit before it.
    Each photo is re-lit at most once.
    """
    cones = list(cones)
    settled: set[int] = set()
    for _ in range(len(cones)):
        fits = {p: _best_light(cones, p) for p in range(len(cones)) if p not in settled}
        movable = [p for p in fits if fits[p].gained > MISFIT_MARGIN * MISFIT_DISTANCE]
        if not movable:
            break
        photo = max(movable, key=lambda p: fits[p].misfit)
        cones[photo] = cones[photo] / fits[photo].gain
        settled.add(photo)
    return cones


@dataclass(frozen=True)
class _Relighting:
    """A photo's misfit under its present light, how much the best other light lowers
    its cost, and that light's gain relative to the present one."""

    misfit: float
    gained: float
    gain: np.ndarray


def _best_light(cones: list[np.ndarray], photo: int) -> _Relighting:
    """The best of ``photo``'s light hypotheses against the other photos' colours."""
    seen = cones[photo]
    others = np.concatenate([c for p, c in enumerate(cones) if p != photo])
    other_lab = _lab(others)
    targets = _cones(other_lab[_color_leaders(other_lab)])
    gains = np.vstack([np.ones((1, 3)), _light_hypotheses(seen, targets)])
    moved = _lab(seen[None, :, :] / gains[:, None, :])
    tree = cKDTree(other_lab)
    distance, _ = tree.query(moved, distance_upper_bound=MISFIT_DISTANCE)
    misfit = (np.minimum(distance, MISFIT_DISTANCE) * _matchable_share(_lab(seen))).sum(axis=1)
    cost = misfit + GAIN_CHANGE_COST * (np.log(gains) ** 2).sum(axis=1)
    best = int(np.argmin(cost))
    _, nearest = tree.query(moved[best])
    return _Relighting(
        float(misfit[0]), float(cost[0] - cost[best]), _least_squares_gain(seen, others[nearest])
    )


def _one_color(lab: np.ndarray) -> bool:
    """True when a photo's stickers are one colour, as far as :func:`_matchable_share`
    tells colours apart."""
    return len(_color_leaders(lab, ONE_COLOR_SPREAD)) == 1


def _matchable_share(lab: np.ndarray) -> np.ndarray:
    """Per sticker of a photo, how much its misfit counts: each colour has as many
    stickers on the cube as a face, so a colour shown k times on this photo is shown
    ``n - k`` times on the others. A group of k counts at most that many stickers' worth
    (a face of one colour, which the other photos cannot show, counts for nothing).
    Stickers within :data:`ONE_COLOR_SPREAD` of a group's first are that group."""
    leaders = _color_leaders(lab, ONE_COLOR_SPREAD)
    group = np.linalg.norm(lab[:, None] - lab[leaders][None], axis=2).argmin(axis=1)
    k = np.bincount(group, minlength=len(leaders))[group].astype(float)
    return np.minimum(1.0, (len(lab) - k) / k)


def _light_hypotheses(seen: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Every gain that maps one of the photo's colours exactly onto one target colour."""
    own = seen[_color_leaders(_lab(seen))]
    ratios = own[:, None, :] / np.maximum(targets[None, :, :], 1e-6)
    return np.maximum(ratios.reshape(-1, 3), 1e-3)


def _color_leaders(lab: np.ndarray, distance: float = COLOR_GROUP_DISTANCE) -> np.ndarray:
    """Indices of one reading per colour: each reading further than ``distance`` from
    every earlier leader leads a new colour."""
    leaders: list[int] = []
    for index, reading in enumerate(lab):
        if not leaders or np.linalg.norm(lab[leaders] - reading, axis=1).min() > distance:
            leaders.append(index)
    return np.array(leaders)


def _least_squares_gain(seen: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Per cone channel, the gain g minimising |seen - g * wanted|^2."""
    gain = (seen * wanted).sum(axis=0) / np.maximum((wanted**2).sum(axis=0), 1e-12)
    return np.maximum(gain, 1e-3)


def _cones(lab: np.ndarray) -> np.ndarray:
    return lab_to_xyz(np.asarray(lab, dtype=float)) @ BRADFORD.T


def _lab(cones: np.ndarray) -> np.ndarray:
    return xyz_to_lab(cones @ BRADFORD_INV.T)
