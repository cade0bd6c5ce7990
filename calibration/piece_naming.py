"""Name a whole cube's colours as its pieces demand.

Sticker by sticker, two colours that a lamp pushes together (white and a pale yellow, red
and orange) can read alike. The cube's structure still tells them apart: every corner,
middle edge and wing is one real piece, each exactly once, and each orbit of centres holds
every colour equally often. :func:`name_by_pieces` takes the sticker-level naming
(:func:`cubescan.calibration.naming.classify`, in facelet order) and, orbit by orbit,
chooses the piece in every slot that the colour evidence (each sticker's log-likelihood
under each colour) supports best, with each real piece used at most once: an assignment
problem over piece hypotheses (:func:`scipy.optimize.linear_sum_assignment`). The slots,
their reading order and the table of real pieces come from the geometric model
(:func:`cubescan.solver.slots.slot_sets`, :func:`cubescan.solver.slots.center_orbits`).

A slot may also keep its stickers' own colours as read, at a cost of :data:`NOT_A_PIECE`
nats: a physically wrong piece (a re-stuck sticker, a mirrored corner) whose stickers are
read clearly stays as it is and is diagnosed by validation, never forced into a valid
cube; a piece-level naming that would leave a colour on more or fewer than N*N stickers
is dropped for the stickers' own. Between rounds the light is estimated again from the
cube itself: each face's light from the colours its stickers were given
(:func:`cubescan.calibration.clustering.equalise_faces`: the confusable colours seen side by
side on the same faces and pieces, not the brightest sticker alone), and each colour's
reading from the stickers on real pieces that clearly show it.

Confidence is the margin, in nats, between the chosen piece of a slot and the best other
way to fill it (another piece, another turn of it, or the stickers as read), as
``tanh(margin / 2)``: a sticker the pieces cannot settle stays unsure.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from functools import cache
from types import MappingProxyType

import numpy as np
from scipy.optimize import linear_sum_assignment

from cubescan.calibration.clustering import cluster_means, color_log_likelihood, equalise_faces
from cubescan.calibration.naming import standard_names_by_faces
from cubescan.calibration.palette import (
    FACES,
    STANDARD_FACE_OF_COLOR,
    Classification,
    ColorInfo,
)
from cubescan.calibration.repair import MAX_REPAIR_CONFIDENCE
from cubescan.solver.slots import center_orbits, slot_sets
from cubescan.solver.validate import is_solvable

#: Log-likelihood cost (nats) of leaving a slot's stickers as read when that is no real piece.
NOT_A_PIECE = 10.0
#: Log-likelihood lead (nats) over every other colour a confidently read sticker must also
#: have to be kept as read whatever the pieces say.
SURE_ODDS = 3.0
#: Sticker-level confidence below which a 2x2 or 3x3 reading counts as unsure.
UNSURE = 0.5
#: Rounds of assignment and re-estimated colours.
ROUNDS = 3
# Lead (nats) over every other colour from which a sticker on a real piece shapes the
# colours re-estimated for the next round.
_CERTAIN_MARGIN = 2.0
# Cost standing for "impossible" in the assignment matrices.
_IMPOSSIBLE = 1e9


@dataclass(frozen=True)
class PieceOrbit:
    """The slots of one orbit and every way a real piece can fill one.

    Attributes
    ----------
    name
        The orbit's name (``"corners"``, ``"wings U2"``, ``"centres U7"``...).
    slots
        (S, k) facelet indices of each slot, in its reading order.
    colors
        (P, m, k) colour (column of URFDLB) of each sticker of each real piece, in each of
        its ``m`` turns.
    """

    name: str
    slots: np.ndarray
    colors: np.ndarray


@cache
def piece_orbits(size: int) -> tuple[PieceOrbit, ...]:
    """Every orbit of corners, middle edges, wings and movable centres of an N x N cube.

    Built from the geometric model: corners have three turns, middle edges two, wings one
    (a wing cannot flip in place); each centre orbit of 24 holds four pieces of each colour.

    Parameters
    ----------
    size
        N, 2..7.

    Returns
    -------
    tuple of PieceOrbit
        Corners, middle edges (odd N), wing orbits, then centre orbits.

    Examples
    --------
    >>> [(o.name, o.slots.shape, o.colors.shape) for o in piece_orbits(4)]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('corners', (8, 3), (8, 3, 3)), ('wings U2', (24, 2), (24, 1, 2)),
     ('centres U6', (24, 1), (24, 1, 1))]
    """
    orbits = []
    for slot_set in slot_sets(size):
        turns: dict[int, list[tuple[int, list[int]]]] = {}
        for reading, (piece, turn) in slot_set.pieces.items():
            turns.setdefault(piece, []).append((turn, [FACES.index(f) for f in reading]))
        colors = np.array([[c for _, c in sorted(turns[p])] for p in sorted(turns)])
        orbits.append(PieceOrbit(slot_set.orbit, np.array(slot_set.slots), colors))
    for center in center_orbits(size):
        count = len(center.facelets)
        colors = np.repeat(np.arange(6), count // 6).reshape(count, 1, 1)
        orbits.append(PieceOrbit(center.orbit, np.array(center.facelets)[:, None], colors))
    return tuple(orbits)


@cache
def _flat_indices(size: int) -> tuple[np.ndarray, ...]:
    """Per orbit, (S, P, m, k) indices into a flattened (n, 6) cost of each sticker of each
    slot taking the colour each piece gives it in each turn."""
    return tuple(
        orbit.slots[:, None, None, :] * 6 + orbit.colors[None, :, :, :]
        for orbit in piece_orbits(size)
    )


@dataclass(frozen=True)
class _Filled:
    """One orbit's assignment: the colour of every slot sticker, whether each slot holds a
    real piece, and what the margins need (the cost matrix, the column of each slot and
    every turn's cost)."""

    colors: np.ndarray
    real: np.ndarray
    matrix: np.ndarray
    chosen: np.ndarray
    turn_cost: np.ndarray


def _fill_orbit(orbit: PieceOrbit, cost: np.ndarray, index: np.ndarray) -> _Filled:
    """The best real piece (or the stickers as read) for every slot of one orbit.

    ``cost`` is (n, 6): minus each sticker's log-likelihood under each colour; ``index``
    the orbit's :func:`_flat_indices`.
    """
    count, pieces = orbit.slots.shape[0], orbit.colors.shape[0]
    turn_cost = cost.ravel()[index].sum(axis=3)  # (S, P, m)
    best_turn = turn_cost.argmin(axis=2)
    piece_cost = np.take_along_axis(turn_cost, best_turn[..., None], axis=2)[..., 0]
    sticker_cost = cost[orbit.slots]
    as_read = sticker_cost.min(axis=2).sum(axis=1) + NOT_A_PIECE
    matrix = np.full((count, pieces + count), _IMPOSSIBLE)
    matrix[:, :pieces] = piece_cost
    matrix[np.arange(count), pieces + np.arange(count)] = as_read
    chosen = piece_cost.argmin(axis=1)
    if np.unique(chosen).size < count or (piece_cost[np.arange(count), chosen] > as_read).any():
        # Not every slot can have its own best piece: solve the assignment.
        rows, columns = linear_sum_assignment(matrix)
        chosen = np.empty(count, dtype=np.intp)
        chosen[rows] = columns
    real = chosen < pieces
    colors = sticker_cost.argmin(axis=2)
    piece = chosen[real]
    colors[real] = orbit.colors[piece, best_turn[real, piece]]
    return _Filled(colors, real, matrix, chosen, turn_cost)


def _margins(filled: _Filled) -> np.ndarray:
    """Per slot, the least extra cost of filling it otherwise (one exchange with another slot).

    Giving slot s the column q held by slot t sends t to s's column (or to t's own
    "as read" column when s's is its own); a free column costs only the move of s.
    """
    matrix, chosen = filled.matrix, filled.chosen
    count = chosen.size
    pieces = matrix.shape[1] - count
    own = matrix[np.arange(count), chosen]
    holder = np.full(matrix.shape[1], -1)
    holder[chosen] = np.arange(count)
    other = holder[None, :]  # (1, C): slot holding each column, -1 when free
    t = np.maximum(other, 0)
    # Where t goes: s's column if t may take it, else t's own "as read" column.
    t_to_s = matrix[t, chosen[:, None]]
    t_as_read = matrix[t, pieces + t]
    t_cost = np.minimum(t_to_s, t_as_read) - matrix[t, np.arange(matrix.shape[1])[None, :]]
    delta = matrix - own[:, None] + np.where(other >= 0, t_cost, 0.0)
    delta[np.arange(count), chosen] = np.inf
    margin = delta.min(axis=1)
    # Another turn of the same piece in the same slot.
    if filled.turn_cost.shape[2] > 1:
        ordered = np.sort(filled.turn_cost, axis=2)
        second = ordered[np.arange(count), np.minimum(chosen, pieces - 1), 1] - own
        margin = np.where(filled.real, np.minimum(margin, second), margin)
    return np.maximum(margin, 0.0)


@dataclass(frozen=True)
class _Assignment:
    """Every orbit's assignment: labels, and per orbit what :func:`_margins` needs."""

    labels: np.ndarray
    on_piece: np.ndarray
    filled: tuple[_Filled, ...]

    def margins(self, size: int) -> np.ndarray:
        """Per sticker, its slot's margin (infinite for fixed centres)."""
        margin = np.full(self.labels.size, np.inf)
        for orbit, filled in zip(piece_orbits(size), self.filled, strict=True):
            margin[orbit.slots] = _margins(filled)[:, None]
        return margin


def _assign(cost: np.ndarray, size: int, sure: np.ndarray, letters: np.ndarray) -> _Assignment:
    """Every orbit filled; a ``sure`` sticker keeps its letter whatever its cost."""
    cost = cost.copy()
    cost[sure] += _IMPOSSIBLE
    cost[sure, letters[sure]] -= _IMPOSSIBLE
    labels = cost.argmin(axis=1)
    on_piece = np.ones(cost.shape[0], dtype=bool)
    filled_orbits = []
    for orbit, index in zip(piece_orbits(size), _flat_indices(size), strict=True):
        filled = _fill_orbit(orbit, cost, index)
        labels[orbit.slots] = filled.colors
        on_piece[orbit.slots] = filled.real[:, None]
        filled_orbits.append(filled)
    if size % 2:
        # The fixed centres are their face's colour by definition.
        centers = np.arange(6) * size * size + size * size // 2
        labels[centers] = np.arange(6)
    return _Assignment(labels, on_piece, tuple(filled_orbits))


@cache
def _order_indices(size: int) -> tuple[np.ndarray, np.ndarray]:
    """Every order of the six colour columns (720, 6; the identity first) and, per order,
    the flat index (720, 24) into a slot's (6, 6, 6) table of colour triples of each real
    corner reading shown in those columns."""
    orders = np.array(list(itertools.permutations(range(6))))
    readings = piece_orbits(size)[0].colors.reshape(-1, 3)
    shown = orders[:, readings]
    return orders, shown[..., 0] * 36 + shown[..., 1] * 6 + shown[..., 2]


def _letter_order(cost: np.ndarray, size: int, sure: np.ndarray) -> np.ndarray:
    """Which colour column each face letter should take: the order under which the corners
    are likeliest real pieces.

    An even cube's letters come from colour names or one corner, either of which a
    washed-out light can get wrong. An odd cube's letters are its centres', and a centre
    sticker read between two colours (red and orange under a lamp) can give both colours
    each other's letter: every corner then reads mirrored. Unless the corners already read
    as eight different real pieces, every order of the six colours is scored by each corner
    slot's best real piece (or its stickers as read, at :data:`NOT_A_PIECE`), plus on an odd
    cube its centres' cost under the order; a ``sure`` centre keeps its colour, so centre
    caps that really were swapped stay a fault. The identity wins ties.
    """
    corners = piece_orbits(size)[0]
    sticker_cost = cost[corners.slots]  # (8, 3, 6)
    orders, index = _order_indices(size)
    read = sticker_cost.argmin(axis=2)
    read_index = read[:, 0] * 36 + read[:, 1] * 6 + read[:, 2]
    match = index[0][None, :] == read_index[:, None]  # (8, 24): slot reads real reading r
    if match.any(axis=1).all() and np.unique(match.argmax(axis=1) // 3).size == 8:
        return orders[0]
    as_read = sticker_cost.min(axis=2).sum(axis=1) + NOT_A_PIECE
    triples = (
        sticker_cost[:, 0, :, None, None]
        + sticker_cost[:, 1, None, :, None]
        + sticker_cost[:, 2, None, None, :]
    ).reshape(8, 216)
    # (8, 720): each slot's best real corner under each order, or its stickers as read.
    per_slot = np.minimum(triples[:, index].min(axis=2), as_read[:, None])
    score = per_slot.sum(axis=0)
    if size % 2:
        centers = np.arange(6) * size * size + size * size // 2
        score = score + cost[centers[None, :], orders].sum(axis=1)
        fixed = np.flatnonzero(sure[centers])
        score[(orders[:, fixed] != fixed).any(axis=1)] = np.inf
    return orders[int(np.argmin(score))]


def _white_column(means: np.ndarray) -> int:
    """The colour that shows the light: the lightest for its paleness (CIELAB means, 6 x 3)."""
    return int(np.argmax(means[:, 0] - 2.0 * np.hypot(means[:, 1], means[:, 2])))


def _tied(log_likelihood: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Stickers whose label is not clearly likelier than every other colour (by
    :data:`_CERTAIN_MARGIN` nats): they do not shape the colours fitted for the next round."""
    rows = np.arange(labels.size)
    others = log_likelihood.copy()
    others[rows, labels] = -np.inf
    return log_likelihood[rows, labels] - others.max(axis=1) < _CERTAIN_MARGIN


def needs_piece_naming(classification: Classification) -> bool:
    """Whether the pieces should name this cube's colours.

    Always from 4x4 up; a 2x2 or 3x3 only when its sticker-level naming is unsure (a
    sticker under :data:`UNSURE` confidence), is not a solvable cube, or its colours were
    not recognised as the standard scheme (the pieces may recognise them).

    Parameters
    ----------
    classification
        A whole cube's sticker-level naming, in facelet order.

    Returns
    -------
    bool

    Examples
    --------
    >>> from cubescan.calibration.naming import classify
    >>> from cubescan.synth.colors import render_cube
    >>> from cubescan.solver.moves import apply_moves, solved_facelets
    >>> truth = apply_moves(solved_facelets(3), "R U F")
    >>> needs_piece_naming(classify(render_cube(truth, "cool", np.random.default_rng(0))))
    False
    """
    if classification.size >= 4 or not classification.standard:
        return True
    return bool(classification.confidence.min() < UNSURE) or not is_solvable(
        classification.facelets
    )


def name_by_pieces(classification: Classification, lab: np.ndarray) -> Classification:
    """The colour of every sticker, chosen so that as many slots as the colours allow hold
    real pieces.

    Parameters
    ----------
    classification
        The sticker-level naming (:func:`cubescan.calibration.naming.classify`) in facelet
        order, with face letters that name a real cube's colours (the centres of an odd
        cube; an even cube's letters may have two colours' names exchanged, which its
        corners' handedness undoes).
    lab
        (6*N*N, 3) the CIELAB readings it was named from, in the same order.

    Returns
    -------
    Classification
        The piece-level naming: facelets, colours (mean Lab of their stickers), confidence
        (``tanh(margin / 2)`` of each sticker's slot, or the sticker-level one where the
        pieces left the sticker as it was read) and the re-estimated log-likelihoods.

    Examples
    --------
    A white corner sticker that reads halfway to yellow: the corner's handedness says white.

    >>> from cubescan.calibration.naming import classify
    >>> from cubescan.synth.colors import render_cube
    >>> from cubescan.solver.moves import apply_moves, solved_facelets
    >>> truth = apply_moves(solved_facelets(4), "R Uw F' 2L")
    >>> lab = render_cube(truth, "lamp", np.random.default_rng(0))
    >>> white, yellow = (lab[[c == f for c in truth]].mean(axis=0) for f in "UD")
    >>> lab[0] = (white + yellow) / 2  # U1, on the ULB corner, is white
    >>> named = name_by_pieces(classify(lab), lab)
    >>> truth[0], named.facelets == truth
    ('U', True)
    """
    size = classification.size
    lab = np.asarray(lab, dtype=float)
    log_likelihood = np.asarray(classification.log_likelihood, dtype=float)
    letters = np.array([FACES.index(f) for f in classification.facelets])
    # A sticker read confidently is never recoloured (the repair rule): a real fault stays.
    # Confidently means both: clearly nearest its colour (the repair's confidence) and
    # far likelier under it than under any other (not one that the other colour's
    # readings, spread as they are, explain nearly as well).
    own = log_likelihood[np.arange(letters.size), letters]
    others = log_likelihood.copy()
    others[np.arange(letters.size), letters] = -np.inf
    sure = (classification.confidence >= MAX_REPAIR_CONFIDENCE) & (
        own - others.max(axis=1) >= SURE_ODDS
    )
    # Which colour carries which letter: the corners' handedness settles it.
    order = _letter_order(-log_likelihood, size, sure)
    log_likelihood = log_likelihood[:, order]
    letters = np.argsort(order)[letters]
    assignment = _assign(-log_likelihood, size, sure, letters)
    for _ in range(ROUNDS - 1):
        # The light and the colours again, from the cube as its pieces name it, now allowing
        # for highlights: even when the pieces agree with the stickers, a glared red read as
        # orange and an orange read as red still make real pieces; only the colours tell.
        labels = assignment.labels
        features = equalise_faces(lab, labels, size)
        certain = assignment.on_piece & ~_tied(log_likelihood, labels)
        if np.bincount(labels[certain], minlength=6).min() < 2:
            certain = np.ones_like(certain)
        white = _white_column(cluster_means(features, labels, certain))
        log_likelihood = color_log_likelihood(features, labels, certain, glare_toward=white)
        previous, assignment = assignment, _assign(-log_likelihood, size, sure, letters)
        if np.array_equal(assignment.labels, previous.labels):
            break
    labels, on_piece = assignment.labels, assignment.on_piece
    margin = assignment.margins(size)
    piece_confidence = np.tanh(np.minimum(margin, 50.0) / 2.0)
    kept = labels == letters
    confidence = np.where(
        kept & ~on_piece,
        classification.confidence,
        np.where(kept, np.maximum(piece_confidence, classification.confidence), piece_confidence),
    )
    means = cluster_means(lab, labels)
    standard = classification.standard
    # Standard names go with the face letter (white is U); other names with their colour.
    named_by = np.arange(6) if standard else order
    names = [classification.colors[FACES[named_by[k]]].name for k in range(6)]
    if not standard:
        # Washed-out colours the palette test alone refused: the pieces say which colours
        # are opposite and which way round the scheme goes, leaving 24 ways to hold it.
        by_faces = standard_names_by_faces(means)
        if by_faces is not None:
            standard, names = True, list(by_faces)
            if size % 2 == 0:
                # An even cube's letters follow its colours' names.
                column = np.array([FACES.index(STANDARD_FACE_OF_COLOR[n]) for n in by_faces])
                labels = column[labels]
                moved = np.empty_like(log_likelihood)
                moved[:, column] = log_likelihood
                log_likelihood = moved
                means = cluster_means(lab, labels)
                names = [by_faces[int(np.flatnonzero(column == k)[0])] for k in range(6)]
    colors = {
        face: ColorInfo(names[k], tuple(float(v) for v in np.round(means[k], 2)))
        for k, face in enumerate(FACES)
    }
    if (np.bincount(labels, minlength=6) != size * size).any():
        # Pieces that leave a colour on more or fewer than N*N stickers name no real cube:
        # the stickers' own naming stands (its problems are the cube's to report).
        return classification
    return replace(
        classification,
        facelets="".join(FACES[k] for k in labels),
        colors=MappingProxyType(colors),
        confidence=confidence,
        log_likelihood=log_likelihood,
        standard=standard,
    )
