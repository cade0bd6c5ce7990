"""Random reassemblies of a puzzle: every movable piece put into a random slot of its orbit,
turned by a random element of the orbit's orientation group (pieces no move displaces
stay home)."""

from __future__ import annotations

import numpy as np

from cubescan.solver.puzzles import Puzzle
from cubescan.solver.puzzles.oracle import arrangement, moved_stickers


def random_labels(p: Puzzle, rng: np.random.Generator) -> np.ndarray:
    moved = set(moved_stickers(p))
    placements = [(k, 0) for k in range(len(p.pieces))]
    for orbit in p.orbits:
        slots = [k for k in orbit.pieces if moved.issuperset(p.pieces[k].stickers)]
        for slot, piece in zip(slots, rng.permutation(slots), strict=True):
            placements[slot] = (int(piece), int(rng.integers(len(orbit.orientations))))
    return arrangement(p, placements)


def colours(p: Puzzle, labels: np.ndarray) -> str:
    solved = p.solved()
    return "".join(solved[i] for i in labels)
