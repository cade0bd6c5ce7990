"""The centres of a 4x4x4 or 5x5x5 in three table-driven searches, each orbit a 24-bit mask.

A 4x4's centres are one orbit of 24 pieces; a 5x5's movable centres two (the x-centres
and the t-centres). As in the 4x4's staged reduction (Norskog, Gallet), the centres are
solved in three phases, each a move set that keeps what the phase before it did:

1. every R and L centre onto R or L (all layer turns);
2. every U and D centre onto U or D, keeping R/L (turns that keep it), and each wing
   orbit's permutation even, so that the edge pairing's three-cycles can finish it (OLL
   parity: a wing orbit's parity changes with an inner slice's quarter turn, and no later
   move turns one);
3. every centre home, each on its axis (half turns and outer quarter turns).

A phase needs to know of an orbit only which positions hold some colours: in phase 1 the
R/L colours, in phase 2 the U/D colours (R/L are home), in phase 3 the R, U and F colours
(each axis is home). That is one bit per position, a 24-bit mask, which a turn permutes
with three byte lookups. The exact distances are tables: in phases 1 and 2 each orbit's,
indexed by its mask; in phase 3 each axis's, of a pair of orbits' pieces on that axis at
once (indexed by the pair's eight bits there each). A phase is an iterative-deepening search
whose estimate is the largest of those distances plus half the others, rounded up: not a
lower bound (the phases are short, not optimal), but far closer to the true distance
than the largest alone, which would make the search too slow. A table of the states
each round has reached (:func:`_seen_before`) keeps the search from walking the same
positions again by other paths; a phase visits some ten thousand to a few million
states, and gives up at :data:`NODE_LIMIT` (the beam search then solves the centres).

A wing orbit's parity is counted against the solved cube: every wing is a distinct
piece (its colours and handedness), and the edge pairing's wing targets
(:func:`~cubescan.solver.big.targets.wing_targets`) differ from the solved cube by
moving whole edges and turning an even number of them round, which is an even
permutation of each orbit; so a turn's change of parity is a constant of the turn.

Everything is read off the geometric model (orbits, turns, which turns keep a phase), so
the code takes any N; :data:`PHASE_SIZES` holds the sizes where it measures well. A
6x6 has four orbits and a 7x7 six, and every inner slice moves three orbits at once:
phase 1 gave up past 200 million states on each of three random 7x7s, and past 500
million on two 6x6s (a beam search over the tables' distances stalls with one orbit two
turns short), so their centres stay with the beam search.

Examples
--------
>>> from cubescan.solver.moves import apply_moves, solved_facelets
>>> moves = solve_centers_by_phases(apply_moves(solved_facelets(5), "2R U 2L' Fw"))
>>> moves is not None and len(moves) <= 8
True
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from itertools import product

import numba
import numpy as np

from cubescan.solver.big.targets import piece_orbits, wing_permutation_is_odd, wing_targets
from cubescan.solver.cache import load_or_build
from cubescan.solver.geometry import FACES, cube_geometry
from cubescan.solver.moves import (
    Move,
    apply_moves,
    cancel_moves,
    move_permutation,
    size_from_length,
    solved_facelets,
)
from cubescan.solver.tables import progress_reporter

PHASE_SIZES = (4, 5)
"""The N whose centres are solved here (where the phases finish; see the module text)."""

NODE_LIMIT = 30_000_000
"""States one phase may visit (about a second) before it gives up."""

TABLE_NAME = "center-phases"
TABLE_VERSION = 2
"""Bump when a table's layout or meaning changes; old cache files are then ignored."""

_PHASE_COLORS = (("R", "L"), ("U", "D"), ("U", "R", "F"))
"""The colours whose positions a phase's masks hold."""

_AXES = (("U", "D"), ("R", "L"), ("F", "B"))

_UNSEEN = 255
_MAX_DEPTH = 40
_SEEN_SLOTS = 1 << 22
"""Slots of the table of states a search round has reached (see :func:`_seen_before`)."""


@dataclass(frozen=True)
class CenterModel:
    """A cube size's centre orbits, turns and phase move sets, as plain arrays.

    Attributes
    ----------
    size
        N.
    moves
        The layer turns searched: every single layer and wide block short of the middle.
    stickers
        ``stickers[o]``: the 24 stickers of centre orbit ``o``, its positions.
    colors
        ``colors[o, i]``: the face (index into ``FACES``) position ``i`` belongs to.
    bytes_of
        ``bytes_of[o, m, b, v]``: where turn ``m`` takes the bits ``v`` of byte ``b`` of
        orbit ``o``'s mask (OR the three to turn a mask).
    phase_moves
        The indices of the turns each phase may use.
    axis, order
        Each turn's axis (0..2), and its face and layers as one number: turns of one axis
        commute, so a search tries them in increasing ``order`` only.
    wing_flips
        ``wing_flips[m, w]``: 1 when turn ``m`` changes the parity of wing orbit ``w``.
    axis_bits
        ``axis_bits[o, a, b, v]``: the bits ``v`` of byte ``b`` of orbit ``o``'s mask
        gathered into the eight bits of axis ``a``'s positions.
    pairs
        The orbits taken two at a time by phase 3's tables (consecutive orbits; a lone
        orbit with itself).
    """

    size: int
    moves: tuple[Move, ...]
    stickers: np.ndarray
    colors: np.ndarray
    bytes_of: np.ndarray
    phase_moves: tuple[np.ndarray, ...]
    axis: np.ndarray
    order: np.ndarray
    wing_flips: np.ndarray
    axis_bits: np.ndarray
    pairs: np.ndarray

    def masks(self, facelets: str, colors: tuple[str, ...]) -> np.ndarray:
        """Each orbit's mask of the positions holding one of ``colors``.

        Parameters
        ----------
        facelets
            A relabelled cube of this size.
        colors
            Face letters.

        Returns
        -------
        numpy.ndarray
            One int64 per orbit: bit ``i`` set when position ``i`` holds one of ``colors``.

        Examples
        --------
        >>> [hex(m) for m in center_model(5).masks(solved_facelets(5), ("U",))]
        ['0xf', '0xf']
        """
        holds = np.isin(np.array(list(facelets))[self.stickers], list(colors))
        return (holds.astype(np.int64) << np.arange(24)).sum(axis=1)

    def goal(self, colors: tuple[str, ...]) -> np.ndarray:
        """The masks of the solved cube (see :meth:`masks`).

        Parameters
        ----------
        colors
            Face letters.

        Returns
        -------
        numpy.ndarray

        Examples
        --------
        >>> (center_model(5).goal(("U",)) == 0xF).all()
        np.True_
        """
        return self.masks(solved_facelets(self.size), colors)


@cache
def center_model(size: int) -> CenterModel:
    """The centre orbits, turns and phases of an N x N cube, read off the geometric model.

    Parameters
    ----------
    size
        N (the sizes of :data:`PHASE_SIZES` are solved with it).

    Returns
    -------
    CenterModel

    Examples
    --------
    >>> model = center_model(5)
    >>> model.stickers.shape, len(model.moves), [len(m) for m in model.phase_moves]
    ((2, 24), 54, [54, 38, 30])
    >>> center_model(4).stickers.shape, center_model(4).pairs.tolist()
    ((1, 24), [[0, 0]])
    """
    geo = cube_geometry(size)
    orbits = piece_orbits(size, "center")
    stickers = np.array([[geo.pieces[p].facelets[0] for p in o.pieces] for o in orbits])
    # An odd cube's middle slice would move its fixed centres; an even cube has none, and
    # its two middle slices are both turned.
    limit = (size - 1) // 2 if size % 2 else size // 2
    moves = tuple(
        [Move(f, 1, last, t) for f in FACES for last in range(1, limit + 1) for t in (1, 2, 3)]
        + [Move(f, k, k, t) for f in FACES for k in range(2, limit + 1) for t in (1, 2, 3)]
    )
    # gather[o, m, i]: the position of orbit o whose piece turn m brings to position i.
    position = np.full(6 * size * size, -1)
    for row in stickers:
        position[row] = np.arange(24)
    gather = np.array(
        [[position[move_permutation(m, size)[row]] for m in moves] for row in stickers]
    )
    colors = stickers // (size * size)
    bits = 1 << np.arange(8)
    values = np.arange(256)[:, None] & bits != 0  # (256, 8): which bits each byte value has
    scatter = np.argsort(gather, axis=2)  # where each position's piece goes
    bytes_of = np.zeros((len(orbits), len(moves), 3, 256), np.int64)
    for b in range(3):
        targets = np.int64(1) << scatter[:, :, 8 * b : 8 * b + 8]  # (orbits, moves, 8)
        bytes_of[:, :, b] = (values[None, None] * targets[:, :, None, :]).sum(axis=3)

    def keeps(move: int, groups: tuple[tuple[str, ...], ...]) -> bool:
        for o in range(len(orbits)):
            for group in groups:
                inside = np.isin(colors[o], [FACES.index(f) for f in group])
                if not inside[gather[o, move][inside]].all():
                    return False
        return True

    phase_moves = tuple(
        np.array([m for m in range(len(moves)) if keeps(m, groups)], np.int64)
        for groups in ((), (("R", "L"),), _AXES)
    )
    axis_bits = np.zeros((len(orbits), 3, 3, 256), np.int64)
    for o in range(len(orbits)):
        for a, faces in enumerate(_AXES):
            on_axis = np.flatnonzero(np.isin(colors[o], [FACES.index(f) for f in faces]))
            for b in range(3):
                for k in range(8):
                    if 8 * b + k in on_axis:
                        rank = int(np.searchsorted(on_axis, 8 * b + k))
                        axis_bits[o, a, b] |= np.where(values[:, k], 1 << rank, 0)
    return CenterModel(
        size=size,
        moves=moves,
        stickers=stickers,
        colors=colors,
        bytes_of=bytes_of,
        phase_moves=phase_moves,
        axis=np.array([m.axis for m in moves], np.int64),
        order=np.array([FACES.index(m.face) * 100 + m.first * 10 + m.last for m in moves]),
        wing_flips=_wing_flips(size, moves),
        axis_bits=axis_bits,
        # A lone orbit (the 4x4's) is paired with itself: its key holds its bits twice.
        pairs=np.arange(len(orbits) + len(orbits) % 2).reshape(-1, 2) % len(orbits),
    )


def _wing_flips(size: int, moves: tuple[Move, ...]) -> np.ndarray:
    """Whether each turn changes each wing orbit's permutation parity, counted against
    the solved cube (see the module text)."""
    flips = np.zeros((len(moves), len(piece_orbits(size, "wing"))), np.int64)
    target = wing_targets(solved_facelets(size))
    for m, move in enumerate(moves):
        turned = apply_moves(solved_facelets(size), [move])
        for w, orbit in enumerate(piece_orbits(size, "wing")):
            flips[m, w] = wing_permutation_is_odd(turned, size, orbit, target)
    return flips


def _looked_up(table: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Masks (int64) through a (3, 256) byte table: turned by a turn (a ``bytes_of[o, m]``)
    or gathered onto an axis (an ``axis_bits[o, a]``); vectorised."""
    return table[0][masks & 255] | table[1][(masks >> 8) & 255] | table[2][masks >> 16]


def _distances(goal: int, bytes_of: np.ndarray, moves: np.ndarray) -> np.ndarray:
    """Exact distance of every mask of one orbit to ``goal`` under ``moves`` (breadth first;
    2^24 entries, :data:`_UNSEEN` for masks no turn reaches)."""
    distance = np.full(1 << 24, _UNSEEN, np.uint8)
    distance[goal] = 0
    frontier, level = np.array([goal], np.int64), 0
    while len(frontier):
        for move in moves:
            reached = _looked_up(bytes_of[move], frontier)
            distance[reached[distance[reached] == _UNSEEN]] = level + 1
        level += 1
        frontier = np.flatnonzero(distance == level)
    return distance


def _axis_distances(model: CenterModel, pair: np.ndarray, axis: int) -> np.ndarray:
    """Exact distance of two orbits' pieces on one axis, indexed by their 8 bits each."""
    goal_masks = model.goal(_PHASE_COLORS[2])[pair]
    count = len(pair)
    distance = np.full(1 << (8 * count), _UNSEEN, np.uint8)
    axis_bits, bytes_of = model.axis_bits[pair], model.bytes_of[pair]
    start = np.array([_axis_key(goal_masks, axis_bits, axis)], np.int64)
    distance[start] = 0
    # A key's masks: its bits put back at the axis's positions; the other bits stay 0,
    # which phase 3's turns never bring onto the axis.
    frontier, level = start, 0
    while len(frontier):
        masks = np.stack(
            [_axis_positions(frontier >> (8 * k) & 255, model, o, axis) for k, o in enumerate(pair)]
        )
        for move in model.phase_moves[2]:
            turned = np.stack([_looked_up(bytes_of[k, move], masks[k]) for k in range(count)])
            keys = sum(_looked_up(axis_bits[k, axis], turned[k]) << (8 * k) for k in range(count))
            distance[keys[distance[keys] == _UNSEEN]] = level + 1
        level += 1
        frontier = np.flatnonzero(distance == level)
    return distance


def _axis_positions(bits: np.ndarray, model: CenterModel, orbit: int, axis: int) -> np.ndarray:
    """Masks with an axis key's eight bits of one orbit at that axis's positions."""
    on_axis = np.flatnonzero(np.isin(model.colors[orbit], [FACES.index(f) for f in _AXES[axis]]))
    return ((bits[:, None] >> np.arange(8)) & 1).astype(np.int64) @ (np.int64(1) << on_axis)


def _axis_key(masks: np.ndarray, axis_bits: np.ndarray, axis: int) -> int:
    return sum(int(_looked_up(axis_bits[o, axis], m)) << (8 * o) for o, m in enumerate(masks))


def _build(size: int, progress: bool) -> dict[str, np.ndarray]:
    """The tables, kept compact: each phase's reachable masks and their distances."""
    model = center_model(size)
    out: dict[str, np.ndarray] = {}
    steps = 2 * len(model.stickers) + 3 * len(model.pairs)
    with progress_reporter(progress, steps) as advance:
        for phase in (0, 1):
            for o, goal in enumerate(model.goal(_PHASE_COLORS[phase])):
                distance = _distances(int(goal), model.bytes_of[o], model.phase_moves[phase])
                reached = np.flatnonzero(distance != _UNSEEN)
                out[f"phase{phase + 1}_orbit{o}_masks"] = reached.astype(np.uint32)
                out[f"phase{phase + 1}_orbit{o}_distances"] = distance[reached]
                advance(f"centre phase {phase + 1}, orbit {o + 1}")
        for g, pair in enumerate(model.pairs):
            for axis in range(3):
                out[f"phase3_pair{g}_axis{axis}"] = _axis_distances(model, pair, axis)
                advance(f"centre phase 3, axis {_AXES[axis][0]}{_AXES[axis][1]}")
    return out


@cache
def center_tables(size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distance tables of the three phases, built on first use and cached on disk
    (with a progress bar on a terminal while they build, about two seconds).

    Parameters
    ----------
    size
        N, one of :data:`PHASE_SIZES`.

    Returns
    -------
    tuple of numpy.ndarray
        Phases 1 and 2: ``[orbit, mask]`` (uint8, 2^24 per orbit); phase 3:
        ``[3 * pair + axis, key]`` (a key is the pair's eight bits of that axis each, the
        first orbit's lowest).

    Examples
    --------
    >>> first, second, third = center_tables(5)  # doctest: +SKIP
    >>> first.shape, third.shape  # doctest: +SKIP
    ((2, 16777216), (3, 65536))
    """
    model = center_model(size)
    count, pairs = len(model.stickers), range(len(model.pairs))
    names = {f"phase3_pair{g}_axis{a}" for g in pairs for a in range(3)}
    for phase, o, what in product((1, 2), range(count), ("masks", "distances")):
        names.add(f"phase{phase}_orbit{o}_{what}")
    arrays = load_or_build(
        f"{TABLE_NAME}-{size}",
        TABLE_VERSION,
        lambda: _build(size, sys.stderr.isatty()),
        frozenset(names),
    )
    expanded = []
    for phase in (1, 2):
        table = np.full((count, 1 << 24), _UNSEEN, np.uint8)
        for o in range(count):
            table[o, arrays[f"phase{phase}_orbit{o}_masks"]] = arrays[
                f"phase{phase}_orbit{o}_distances"
            ]
        expanded.append(table)
    third = np.stack([arrays[f"phase3_pair{g}_axis{a}"] for g in pairs for a in range(3)])
    return expanded[0], expanded[1], third


@numba.njit(cache=True, nogil=True)
def _looked_up_one(table, mask):  # pragma: no cover - numba
    """One mask through a byte table, as :func:`_looked_up` does many."""
    return table[0, mask & 255] | table[1, (mask >> 8) & 255] | table[2, mask >> 16]


@numba.njit(cache=True, nogil=True)
def _bound(masks, tables, axis_bits, pairs, by_axis):  # pragma: no cover - numba
    """The phase's estimate: of the parts' distances (each orbit's, or in phase 3 each
    pair of orbits' on each axis), the largest plus half the others, rounded up."""
    total, largest = 0, 0
    if by_axis:
        for part in range(tables.shape[0]):
            pair, a = pairs[part // 3], part % 3
            key = 0
            for k in range(2):
                key |= _looked_up_one(axis_bits[pair[k], a], masks[pair[k]]) << (8 * k)
            distance = tables[part, key]
            total += distance
            largest = max(largest, distance)
    else:
        for o in range(masks.shape[0]):
            distance = tables[o, masks[o]]
            total += distance
            largest = max(largest, distance)
    return largest + (total - largest + 1) // 2


@numba.njit(cache=True, nogil=True)
def _seen_before(masks, parities, depth, keys, depths):  # pragma: no cover - numba
    """Whether this state was reached at ``depth`` or less in this round (its subtree was
    then searched with at least as many moves to go); else remember it."""
    key = 0
    for w in range(parities.shape[0]):
        key = key << 1 | parities[w]
    for o in range(masks.shape[0]):  # a 64-bit hash of every mask (exact for two orbits)
        key = (key << 24 | key >> 40) ^ masks[o]
    key &= 0x7FFFFFFFFFFFFFFF  # -1 marks an empty slot
    slot = ((key * -7046029254386353131) >> 20) & (keys.shape[0] - 1)
    for _ in range(8):
        if keys[slot] == key:
            if depths[slot] <= depth:
                return True
            depths[slot] = depth
            return False
        if keys[slot] == -1:
            keys[slot], depths[slot] = key, depth
            return False
        slot = (slot + 1) & (keys.shape[0] - 1)
    return False


@numba.njit(cache=True, nogil=True)
def _search(
    start, tables, axis_bits, pairs, by_axis, bytes_of, moves, axis, order, flips, parity, limit
):  # pragma: no cover - numba
    """Iterative deepening under :func:`_bound` to a mask of bound 0 with every wing
    parity even (``parity`` is the start's, ``flips`` each turn's); the turns' indices and
    the states visited, or an empty path and ``limit + 1`` visits when it gave up."""
    orbits = start.shape[0]
    seen_keys = np.empty(_SEEN_SLOTS, np.int64)
    seen_depths = np.empty(_SEEN_SLOTS, np.int8)
    masks = np.zeros((_MAX_DEPTH + 1, orbits), np.int64)
    parities = np.zeros((_MAX_DEPTH + 1, parity.shape[0]), np.int64)
    path = np.zeros(_MAX_DEPTH, np.int64)
    tried = np.zeros(_MAX_DEPTH + 1, np.int64)
    visited = 0
    bound = _bound(start, tables, axis_bits, pairs, by_axis)
    while bound <= _MAX_DEPTH:
        seen_keys[:] = -1
        masks[0] = start
        parities[0] = parity
        depth, tried[0] = 0, 0
        while depth >= 0:
            if tried[depth] == 0:
                visited += 1
                if visited > limit:
                    return path[:0].copy(), visited
                estimate = _bound(masks[depth], tables, axis_bits, pairs, by_axis)
                if estimate == 0 and parities[depth].sum() == 0:
                    return path[:depth].copy(), visited
                if depth + max(estimate, 1) > bound or depth == _MAX_DEPTH:
                    depth -= 1
                    continue
                if _seen_before(masks[depth], parities[depth], depth, seen_keys, seen_depths):
                    depth -= 1
                    continue
            stepped = False
            while tried[depth] < moves.shape[0]:
                move = moves[tried[depth]]
                tried[depth] += 1
                if depth > 0:
                    last = path[depth - 1]
                    if axis[last] == axis[move] and order[move] <= order[last]:
                        continue
                for o in range(orbits):
                    masks[depth + 1, o] = _looked_up_one(bytes_of[o, move], masks[depth, o])
                for w in range(parity.shape[0]):
                    parities[depth + 1, w] = parities[depth, w] ^ flips[move, w]
                path[depth] = move
                depth += 1
                tried[depth] = 0
                stepped = True
                break
            if not stepped:
                depth -= 1
        bound += 1
    return path[:0].copy(), visited


def _phase(
    model: CenterModel, tables: np.ndarray, text: str, phase: int, limit: int
) -> list[Move] | None:
    """One phase's turns from ``text``, or None when it gave up."""
    parity = np.zeros(model.wing_flips.shape[1], np.int64)
    flips = np.zeros_like(model.wing_flips)
    if phase == 1:
        size = model.size
        target = wing_targets(solved_facelets(size))
        wings = piece_orbits(size, "wing")
        parity[:] = [wing_permutation_is_odd(text, size, o, target) for o in wings]
        flips = model.wing_flips
    path, visited = _search(
        model.masks(text, _PHASE_COLORS[phase]),
        tables,
        model.axis_bits,
        model.pairs,
        phase == 2,
        model.bytes_of,
        model.phase_moves[phase],
        model.axis,
        model.order,
        flips,
        parity,
        limit,
    )
    return None if visited > limit else [model.moves[i] for i in path]


def solve_centers_by_phases(text: str, node_limit: int = NODE_LIMIT) -> list[Move] | None:
    """Every centre of a relabelled N x N home, its wing orbits left even, in three phases.

    Parameters
    ----------
    text
        Facelets of a relabelled cube (each face's letter is its centres' colour) of a
        size in :data:`PHASE_SIZES`.
    node_limit
        States phases 1 and 3 may visit before the search gives up.

    Returns
    -------
    list of Move or None
        The turns, or None when a phase gave up.

    Examples
    --------
    >>> solve_centers_by_phases(solved_facelets(5))
    []
    """
    size = size_from_length(len(text))
    model = center_model(size)
    tables = center_tables(size)
    found: list[Move] = []
    for phase in range(3):
        moves = _phase(model, tables[phase], text, phase, node_limit)
        if moves is None:
            return None
        text = apply_moves(text, moves)
        found += moves
    return cancel_moves(found)  # a phase may start on the face the last one ended on
