"""Puzzles as data: the N x N x N cubes and the 2x2x2x2 and 3x3x3x3 tesseracts.

:mod:`.definition` builds each puzzle from geometry, :mod:`.counting` counts its positions
from its laws, :mod:`.oracle` checks both against the group its moves generate (SymPy,
optional), and :mod:`.tesseract` validates tesseract states by their invariants.

Examples
--------
>>> from cubescan.solver.puzzles import count, puzzle
>>> puzzle("3x3x3x3").orbits[0].orientation, count("2x2x2")
('A4', 3674160)
"""

from cubescan.solver.puzzles.counting import Factor, count, orbit_factors
from cubescan.solver.puzzles.definition import (
    CELLS,
    PUZZLE_NAMES,
    Puzzle,
    PuzzleOrbit,
    PuzzlePiece,
    normalize_name,
    puzzle,
)

__all__ = [
    "CELLS",
    "PUZZLE_NAMES",
    "Factor",
    "Puzzle",
    "PuzzleOrbit",
    "PuzzlePiece",
    "count",
    "normalize_name",
    "orbit_factors",
    "puzzle",
]
