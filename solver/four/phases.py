"""The three reduction phases of the 4x4: their moves, coordinates and goals.

1. ``centers-rl``: the eight R and L centres onto the R and L faces (any of the 36
   outer-block turns ``X``, ``Xw``).
2. ``centers``: every centre solved, keeping R/L centres on R/L (turns of R, L, Rw, Lw,
   U, D, F, B and half turns Uw2, Dw2, Fw2, Bw2), ending with an even permutation of
   the 24 wings. Only inner-slice quarter turns change that parity, and only here are
   they allowed, so the OLL parity is settled in this phase.
3. ``edges``: the twelve edges paired, two at a time, keeping the centres solved at
   the end of each step (outer turns and wide half turns, which keep each colour's
   centres on its axis). The last step also asks for the edge permutation parity to
   equal the corner permutation parity (no PLL parity), so the 3x3 left is solvable.

Every coordinate is a :class:`~cubescan.solver.four.coords.Pattern` read off the solved
piece array; nothing is typed per sticker.

Examples
--------
>>> len(ALL_MOVES), len(CENTER_MOVES), len(EDGE_MOVES)
(36, 28, 24)
>>> sorted(patterns())[:3]
['centers', 'centers-axes', 'centers-fb']
"""

from __future__ import annotations

from functools import cache

import numpy as np

from cubescan.solver.four.coords import Pattern
from cubescan.solver.four.model import (
    CENTER_START,
    N_CENTERS,
    WING_START,
    solved_pieces,
    wing_edges,
)
from cubescan.solver.geometry import FACES
from cubescan.solver.moves import Move

ALL_MOVES = tuple(Move(f, 1, w, t) for f in FACES for w in (1, 2) for t in (1, 2, 3))
"""The 36 outer-block turns: ``U U2 U' Uw Uw2 Uw' R ...``."""

CENTER_MOVES = tuple(m for m in ALL_MOVES if m.face in "RL" or m.last == 1 or m.turns == 2)
"""Phase 2: every turn that keeps the R/L centres on the R/L faces."""

EDGE_MOVES = tuple(m for m in ALL_MOVES if m.last == 1 or m.turns == 2)
"""Phase 3: outer turns and wide half turns (each colour's centres stay on its axis)."""

EDGE_GROUPS = ((0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11))
"""The edges paired together in each step of phase 3."""


def _face_values(faces: str) -> set[int]:
    return {FACES.index(f) for f in faces}


def _center_slots(faces: str) -> np.ndarray:
    solved = solved_pieces()
    values = _face_values(faces)
    centers = np.arange(CENTER_START, CENTER_START + N_CENTERS)
    return np.array([s for s in centers if int(solved[s]) in values], dtype=np.int64)


def _face_labels(labels: dict[str, int]) -> np.ndarray:
    return np.array([labels.get(face, 0) for face in FACES], dtype=np.int64)


def _edge_pattern(group: tuple[int, ...]) -> Pattern:
    edges = wing_edges()
    label_of = np.zeros(24, dtype=np.int64)
    label = 1
    for edge in group:
        for wing in np.flatnonzero(edges == edge):
            label_of[wing] = label
            label += 1
    slots = np.arange(WING_START, WING_START + 24, dtype=np.int64)
    return Pattern.build(label_of, [slots], solved_pieces())


@cache
def patterns() -> dict[str, Pattern]:
    """Every coordinate the phases use, by table name.

    Returns
    -------
    dict of str to Pattern
        ``centers-rl`` (phase 1); ``centers-axes``, ``centers-ud``, ``centers-fb``
        (phase 2); ``centers`` and ``edges-0`` .. ``edges-5`` (phase 3).

    Examples
    --------
    >>> patterns()["centers-rl"].size
    735471
    """
    solved = solved_pieces()
    all_centers = _center_slots(FACES)
    side = _center_slots("UDFB")
    out = {
        "centers-rl": Pattern.build(_face_labels({"R": 1, "L": 1}), [all_centers], solved),
        "centers-axes": Pattern.build(
            _face_labels({"R": 1, "U": 1, "D": 1}), [_center_slots("RL"), side], solved
        ),
        "centers-ud": Pattern.build(_face_labels({"U": 1, "D": 2}), [side], solved),
        "centers-fb": Pattern.build(_face_labels({"F": 1, "B": 2}), [side], solved),
        "centers": Pattern.build(
            _face_labels({"U": 1, "R": 1, "F": 1}),
            [_center_slots("UD"), _center_slots("RL"), _center_slots("FB")],
            solved,
        ),
    }
    for index, group in enumerate(EDGE_GROUPS):
        out[f"edges-{index}"] = _edge_pattern(group)
    return out


def moves_of(name: str) -> tuple[Move, ...]:
    """The move set a table is built over (and its phase searches with).

    Parameters
    ----------
    name
        A key of :func:`patterns`.

    Returns
    -------
    tuple of Move

    Examples
    --------
    >>> len(moves_of("centers-ud"))
    28
    """
    if name == "centers-rl":
        return ALL_MOVES
    if name in ("centers-axes", "centers-ud", "centers-fb"):
        return CENTER_MOVES
    return EDGE_MOVES


def goal_labels(name: str) -> list[np.ndarray]:
    """The label arrays of a coordinate's goal states (a table's depth 0).

    Parameters
    ----------
    name
        A key of :func:`patterns`.

    Returns
    -------
    list of numpy.ndarray
        Label arrays over the whole piece array (int8): for a centre coordinate the
        solved cube's; for an edge coordinate every placement of its edges paired.

    Examples
    --------
    >>> len(goal_labels("centers")), len(goal_labels("edges-0"))
    (1, 528)
    """
    pattern = patterns()[name]
    solved = solved_pieces()
    base = np.zeros(len(solved), dtype=np.int8)
    base[pattern.slots] = pattern.label_of[solved[pattern.slots]]
    if not name.startswith("edges"):
        return [base]
    edges = wing_edges()
    pairs = [np.flatnonzero(edges == e) for e in range(12)]
    out = []
    # Edge a's two wings fill one edge position (either way round: a wing cannot sit
    # flipped in its slot, so both ways are a paired edge), edge b's another.
    for pos_a in range(12):
        for a_first in (0, 1):
            for pos_b in range(12):
                if pos_b == pos_a:
                    continue
                for b_first in (0, 1):
                    labels = np.zeros(len(solved), dtype=np.int8)
                    wa, wb = pairs[pos_a], pairs[pos_b]
                    labels[WING_START + wa[a_first]] = 1
                    labels[WING_START + wa[1 - a_first]] = 2
                    labels[WING_START + wb[b_first]] = 3
                    labels[WING_START + wb[1 - b_first]] = 4
                    out.append(labels)
    return out
