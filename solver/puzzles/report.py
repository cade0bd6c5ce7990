"""The verdict on a tesseract state, shaped like the cube's :class:`ValidationReport`.

Examples
--------
>>> report = TesseractReport("2x2x2x2", "O" * 64, "OIRLUDFB", ())
>>> report.valid, report.summary
(True, 'solvable')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cubescan.solver.fixes import Fix, combined_fix, verdict_summary
from cubescan.solver.puzzles.definition import CELLS, normalize_name, puzzle
from cubescan.solver.validate import Problem

INVARIANTS = ("corner_twist", "corner_parity", "edge_flip", "ridge_flip", "parity")
"""The laws' totals a report can carry, in check order."""


@dataclass(frozen=True)
class TesseractReport:
    """The verdict on one 2x2x2x2 or 3x3x3x3 state.

    Attributes
    ----------
    puzzle
        ``"2x2x2x2"`` or ``"3x3x3x3"`` (``""`` when not even the length was right).
    facelets
        The state in cell letters, or ``""`` when it could not be read.
    symbols
        The user's symbol for each cell, in ``OIRLUDFB`` order.
    problems
        Everything found wrong, in check order; empty for a solvable state.
    invariants
        The totals of the laws that could be tested (names in :data:`INVARIANTS`):
        twist total mod 3, corner permutation parity, edge and ridge flip totals mod 2,
        and 1 when edge and ridge parities differ. All 0 for a solvable state.
    classic_error
        0 when solvable, else the cube's classic verify error number nearest to the
        first problem (see :data:`~cubescan.solver.puzzles.tesseract.CLASSIC_ERROR`).
    """

    puzzle: str
    facelets: str
    symbols: str
    problems: tuple[Problem, ...]
    invariants: dict = field(default_factory=dict, compare=False)
    classic_error: int = 0

    @property
    def size(self) -> int:
        """N of the N x N x N x N puzzle (0 when unreadable)."""
        return int(self.puzzle[0]) if self.puzzle else 0

    @property
    def valid(self) -> bool:
        """True when the puzzle can be solved."""
        return not self.problems

    @property
    def readable(self) -> bool:
        """False when the input was not a state at all (``bad-format``)."""
        return not any(p.code == "bad-format" for p in self.problems)

    @property
    def fix(self) -> tuple[Fix, ...]:
        """One combined list of steps that makes the puzzle solvable (no repeats)."""
        return combined_fix(self.problems)

    @property
    def summary(self) -> str:
        """One line: the verdict and, when unsolvable, what to do."""
        return verdict_summary(self.problems)

    def to_dict(self) -> dict:
        """A JSON-ready dictionary, with the cube report's keys.

        Returns
        -------
        dict
            ``puzzle``, ``size``, ``facelets``, ``valid``, ``problems`` (each with
            ``code``, ``message``, ``pieces``, ``facelets`` named like ``"O1"``, ``fix``
            and ``orbit``), ``fix`` (the steps' texts), ``orbit`` (the
            :attr:`invariants`, or None when no law could be tested) and
            ``classic_error``.

        Examples
        --------
        >>> from cubescan.solver.fixes import apply_fix
        >>> from cubescan.solver.puzzles.tesseract import validate_tesseract
        >>> corner = puzzle("2x2x2x2").pieces[0].stickers
        >>> turned = Fix("twist-corner", corner[1:], "turn a corner by a third", turns=1)
        >>> data = validate_tesseract(apply_fix(puzzle("2x2x2x2").solved(), turned)).to_dict()
        >>> data["valid"], data["problems"][0]["code"], data["problems"][0]["facelets"]
        (False, 'corner-twist', ['L2', 'D2', 'B2'])
        >>> data["orbit"]
        {'corner_parity': 0, 'corner_twist': 2}
        """
        names = puzzle(normalize_name(self.puzzle)).sticker_name if self.puzzle else str
        return {
            "puzzle": self.puzzle,
            "size": self.size,
            "facelets": self.facelets,
            "valid": self.valid,
            "problems": [
                {
                    "code": p.code,
                    "message": p.message,
                    "pieces": list(p.pieces),
                    "facelets": [names(i) for i in p.facelets],
                    "fix": " ".join(step.text for step in p.fix),
                    "orbit": p.orbit,
                }
                for p in self.problems
            ],
            "fix": [step.text for step in self.fix],
            "orbit": dict(self.invariants) or None,
            "classic_error": self.classic_error,
        }


__all__ = ["CELLS", "INVARIANTS", "TesseractReport"]
