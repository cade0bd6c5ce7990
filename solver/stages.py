"""The named stages of a solution: what a reduction solver did, in order.

A 3x3 or 2x2 is solved in one stage. A big cube is reduced first (its centres, then its
edges), and the stages say how many moves each step took, for ``--steps`` and the JSON.

Examples
--------
>>> from cubescan.solver.moves import parse_moves
>>> stage = SolveStage("centers", tuple(parse_moves("Rw U2 Rw'", 4)))
>>> stage.name, stage.length
('centers', 3)
"""

from __future__ import annotations

from dataclasses import dataclass

from cubescan.solver.moves import Move, format_moves


@dataclass(frozen=True)
class SolveStage:
    """One stage of a solution.

    Attributes
    ----------
    name
        What the stage achieves, e.g. ``"centers"``, ``"edges"``, ``"3x3"``.
    moves
        Its moves, in order; the stages' moves joined are the whole solution.
    """

    name: str
    moves: tuple[Move, ...]

    @property
    def length(self) -> int:
        """Number of moves (each WCA token counts one).

        Returns
        -------
        int

        Examples
        --------
        >>> SolveStage("3x3", ()).length
        0
        """
        return len(self.moves)

    @property
    def text(self) -> str:
        """The moves as WCA text.

        Returns
        -------
        str

        Examples
        --------
        >>> from cubescan.solver.moves import parse_moves
        >>> SolveStage("edges", tuple(parse_moves("Uw2 R", 4))).text
        'Uw2 R'
        """
        return format_moves(self.moves)
