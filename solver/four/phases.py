"""The three reduction phases of the 4x4: their moves, coordinates and goals.

1. ``centers-rl``: the eight R and L centres onto the R and L faces (any of the 36
   outer-block turns ``X``, ``Xw``).
2. ``centers``: every centre solved, keeping R/L centres on R/L (turns of R, L, Rw, Lw,
   U, D, F, B and half turns Uw2, Dw2, Fw2, Bw2), ending with an even permutation of
   the 24 wings. Only inner-slice quarter turns change that parity, and only here are
   they allowed, so the OLL parity is settled in this phase.

The edges are then paired by three-cycles (:mod:`cubescan.solver.four.solve`), which
need no table.

Every coordinate is a :class:`~cubescan.solver.four.coords.Pattern` read off the solved
piece array; nothing is typed per sticker.

Examples
--------
>>> len(ALL_MOVES), len(CENTER_MOVES)
(36, 28)
>>> sorted(patterns())[:3]
['centers-axes', 'centers-fb', 'centers-rl']
"""

from __future__ import annotations

from functools import cache

import numpy as np

from cubescan.solver.four.coords import Pattern
from cubescan.solver.four.model import CENTER_START, N_CENTERS, solved_pieces
from cubescan.solver.geometry import FACES
from cubescan.solver.moves import Move

ALL_MOVES = tuple(Move(f, 1, w, t) for f in FACES for w in (1, 2) for t in (1, 2, 3))
"""The 36 outer-block turns: ``U U2 U' Uw Uw2 Uw' R ...``."""

CENTER_MOVES = tuple(m for m in ALL_MOVES if m.face in "RL" or m.last == 1 or m.turns == 2)
"""Phase 2: every turn that keeps the R/L centres on the R/L faces."""


def _face_values(faces: str) -> set[int]:
    return {FACES.index(f) for f in faces}


def _center_slots(faces: str) -> np.ndarray:
    solved = solved_pieces()
    values = _face_values(faces)
    centers = np.arange(CENTER_START, CENTER_START + N_CENTERS)
    return np.array([s for s in centers if int(solved[s]) in values], dtype=np.int64)


def _face_labels(labels: dict[str, int]) -> np.ndarray:
    return np.array([labels.get(face, 0) for face in FACES], dtype=np.int64)


@cache
def patterns() -> dict[str, Pattern]:
    """Every coordinate the phases use, by table name.

    Returns
    -------
    dict of str to Pattern
        ``centers-rl`` (phase 1); ``centers-axes``, ``centers-ud``, ``centers-fb``
        (phase 2).

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
    }
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
    return ALL_MOVES if name == "centers-rl" else CENTER_MOVES
