"""Constraint-aware repair of colour misreads, without hiding physical faults.

When a classified cube fails validation, the most probable *valid* state is searched by
exchanging the colours of low-confidence stickers in pairs (an exchange keeps every colour's
count, like a red/orange or white/yellow mix-up), scored by the classification
log-likelihood. A repair is accepted only when it is valid, costs little likelihood, and is
clearly more probable than every other valid candidate found; a confidently read sticker is
never changed, so a twisted corner, flipped edge or swapped pair stays diagnosed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from cubescan.calibration.palette import FACES, Classification, ColorInfo
from cubescan.solver.validate import problem_codes

#: Stickers above this confidence are never recoloured.
MAX_REPAIR_CONFIDENCE = 0.5
#: At most this many of the least confident stickers take part in the search.
MAX_CANDIDATES = 10
#: A repair may cost at most this much log-likelihood (nats) per exchanged pair ...
MAX_LOSS = 10.0
#: ... and must beat the runner-up valid candidate by at least this much.
MIN_MARGIN = 2.0
#: Problems a real cube can have with every piece real: these are never "repaired" away
#: unless unsure stickers alone explain them.
PHYSICAL_FAULTS = frozenset({"corner-twist", "edge-flip", "permutation-parity"})


@dataclass(frozen=True)
class Repair:
    """One sticker whose reading was changed to reach a valid cube.

    Parameters
    ----------
    index
        0-based facelet index.
    position
        Facelet name such as ``"U3"`` (face letter, 1-based index within the face).
    old
        Face letter read by the classifier.
    new
        Face letter after the repair.
    confidence
        The classifier's confidence in the old reading.
    why
        A sentence for people.
    """

    index: int
    position: str
    old: str
    new: str
    confidence: float
    why: str

    def to_dict(self, colors: Mapping[str, ColorInfo]) -> dict:
        """The JSON form of DESIGN.md's ``repairs`` entries, with the colours' names.

        Parameters
        ----------
        colors
            Face letter -> :class:`~cubescan.calibration.naming.ColorInfo` (as
            :attr:`Classification.colors`); must hold both :attr:`old` and :attr:`new`.

        Returns
        -------
        dict
            ``position``, ``index``, ``old``, ``new``, ``old_color`` and ``new_color``
            (the colours' names), ``confidence`` (rounded to 3 decimals) and ``why``.

        Examples
        --------
        >>> colors = {"R": ColorInfo("red", (45.0, 60.0, 40.0)),
        ...           "L": ColorInfo("orange", (60.0, 40.0, 60.0))}
        >>> fix = Repair(11, "R3", "L", "R", 0.12345, "red and orange mixed up")
        >>> fix.to_dict(colors)  # doctest: +NORMALIZE_WHITESPACE
        {'position': 'R3', 'index': 11, 'old': 'L', 'new': 'R', 'old_color': 'orange',
         'new_color': 'red', 'confidence': 0.123, 'why': 'red and orange mixed up'}
        """
        return {
            "position": self.position,
            "index": self.index,
            "old": self.old,
            "new": self.new,
            "old_color": colors[self.old].name,
            "new_color": colors[self.new].name,
            "confidence": round(float(self.confidence), 3),
            "why": self.why,
        }


@dataclass(frozen=True)
class RepairResult:
    """Outcome of :func:`repair`.

    Parameters
    ----------
    facelets
        The repaired facelet string, or the original when no repair was accepted.
    repairs
        The changed stickers (empty when nothing changed).
    reason
        Why a repair was or was not made.
    """

    facelets: str
    repairs: tuple[Repair, ...]
    reason: str


def facelet_name(index: int, size: int) -> str:
    """Name of a facelet: face letter plus its 1-based index within the face.

    Parameters
    ----------
    index
        0-based facelet index.
    size
        Cube size N.

    Returns
    -------
    str
        E.g. ``"U3"``.

    Examples
    --------
    >>> facelet_name(2, 3), facelet_name(9, 3)
    ('U3', 'R1')
    """
    per_face = size * size
    return f"{FACES[index // per_face]}{index % per_face + 1}"


def repair(classification: Classification) -> RepairResult:
    """Find the most probable valid cube reachable by recolouring only unsure stickers.

    Parameters
    ----------
    classification
        Output of :func:`cubescan.calibration.naming.classify`.

    Returns
    -------
    RepairResult
        The repaired string and the list of changes, or the original string and the reason
        no repair was accepted.

    Examples
    --------
    >>> from cubescan.calibration.naming import classify
    >>> from cubescan.synth.colors import STICKER_SRGB
    >>> from cubescan.calibration.colorspace import rgb_to_lab
    >>> result = repair(classify(rgb_to_lab(STICKER_SRGB[[0, 2, 4, 1, 3, 5]].repeat(9, axis=0))))
    >>> result.repairs, result.reason
    ((), 'the cube is valid as read')
    """
    facelets = classification.facelets
    if not problem_codes(facelets):
        return RepairResult(facelets, (), "the cube is valid as read")
    confidence = classification.confidence
    log_likelihood = classification.log_likelihood
    unsure = [i for i in np.argsort(confidence) if confidence[i] < MAX_REPAIR_CONFIDENCE]
    unsure = [int(i) for i in unsure[:MAX_CANDIDATES]]
    if len(unsure) < 2:
        return RepairResult(
            facelets, (), "no repair: every sticker was read confidently, so the fault is real"
        )
    column = {face: k for k, face in enumerate(FACES)}

    def loss_of(i: int, j: int) -> float:
        a, b = column[facelets[i]], column[facelets[j]]
        return float(
            log_likelihood[i, a]
            + log_likelihood[j, b]
            - log_likelihood[i, b]
            - log_likelihood[j, a]
        )

    pairs = [
        (i, j, loss_of(i, j))
        for i, j in combinations(unsure, 2)
        if facelets[i] != facelets[j] and loss_of(i, j) <= MAX_LOSS
    ]
    # Different exchange sets can give the same string; keep each string once, cheapest.
    seen: dict[str, tuple[float, tuple[tuple[int, int], ...]]] = {}
    solvable: dict[str, float] = {}
    real_pieces: dict[str, float] = {}
    for count in (1, 2, 3):
        for chosen in combinations(pairs, count):
            used = [k for i, j, _ in chosen for k in (i, j)]
            loss = sum(c[2] for c in chosen)
            if len(set(used)) != len(used) or loss > MAX_LOSS * count:
                continue
            letters = list(facelets)
            for i, j, _ in chosen:
                letters[i], letters[j] = letters[j], letters[i]
            candidate = "".join(letters)
            if candidate in seen:
                if loss < seen[candidate][0]:
                    seen[candidate] = (loss, tuple((i, j) for i, j, _ in chosen))
                continue
            seen[candidate] = (loss, tuple((i, j) for i, j, _ in chosen))
            codes = problem_codes(candidate)
            if not codes:
                solvable[candidate] = loss
            elif not codes - PHYSICAL_FAULTS:
                real_pieces[candidate] = loss
        if solvable:
            break
    structural = bool(problem_codes(facelets) - PHYSICAL_FAULTS)
    # Prefer a solvable cube; failing that, when the reading is not even made of real pieces,
    # the likeliest reading made of real pieces (its twist/flip/parity fault is then real).
    tier = solvable or (real_pieces if structural else {})
    if not tier:
        return RepairResult(
            facelets, (), "no repair: no exchange of unsure stickers gives a solvable cube"
        )
    ranked = sorted((seen[text][0], text) for text in tier)
    best_loss, candidate = ranked[0]
    swaps = seen[candidate][1]
    if len(ranked) > 1 and ranked[1][0] - best_loss < MIN_MARGIN:
        return RepairResult(
            facelets,
            (),
            f"no repair: {len(ranked)} different recolourings fit and none is clearly more "
            "likely; rescan the unsure stickers",
        )
    size = classification.size
    changes = []
    for i, j in swaps:
        for index, other in ((i, j), (j, i)):
            old, new = facelets[index], facelets[other]
            changes.append(
                Repair(
                    index=index,
                    position=facelet_name(index, size),
                    old=old,
                    new=new,
                    confidence=float(confidence[index]),
                    why=(
                        f"read as {classification.colors[old].name} with low confidence "
                        f"{confidence[index]:.2f}; as {classification.colors[new].name} every "
                        "piece is a real piece, and this is the most likely such reading"
                    ),
                )
            )
    changes.sort(key=lambda r: r.index)
    verdict = "" if candidate in solvable else "; the cube is still not solvable (real fault)"
    return RepairResult(
        candidate,
        tuple(changes),
        f"repaired {len(changes)} unsure stickers (log-likelihood cost {best_loss:.1f}){verdict}",
    )
