"""What validation reports: each problem, the whole report, the classic error numbers.

:func:`cubescan.solver.validate.validate` builds these; the command line, the JSON report
and the Python API read them.

Examples
--------
>>> from cubescan.solver.moves import solved_facelets
>>> from cubescan.solver.validate import validate
>>> report = validate(solved_facelets(3))
>>> isinstance(report, ValidationReport), report.valid, report.classic_error
(True, True, 0)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cubescan.solver.fixes import Fix, combined_fix, verdict_summary
from cubescan.solver.geometry import cube_geometry

# Error numbers of the classic two-phase solver's verify step, by problem code, so
# robot code written against that solver can keep its error handling. Big-cube codes
# map to their nearest classic meaning (wings are edges, centre counts are counts).
CLASSIC_ERROR = {
    "bad-format": 1,
    "color-count": 1,
    "center-duplicate": 1,
    "center-count": 1,
    "edge-invalid": 2,
    "edge-duplicate": 2,
    "wing-invalid": 2,
    "wing-duplicate": 2,
    "edge-flip": 3,
    "corner-invalid": 4,
    "corner-duplicate": 4,
    "corner-twist": 5,
    "permutation-parity": 6,
}


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a cube.

    Attributes
    ----------
    code
        Stable code from DESIGN.md (``corner-twist``, ``edge-flip``, ...).
    message
        What is wrong, in words, naming the pieces.
    pieces
        Slot names involved (``"URF"``, ``"UF"``), where pieces apply.
    facelets
        Facelet indices involved.
    fix
        Steps that repair this problem (possibly shared with other problems).
    orbit
        The orbit the problem sits in (``"corners"``, ``"wings U2"``, ...), or ``""``
        for whole-cube problems such as colour counts.
    """

    code: str
    message: str
    pieces: tuple[str, ...] = ()
    facelets: tuple[int, ...] = ()
    fix: tuple[Fix, ...] = ()
    orbit: str = ""


@dataclass(frozen=True)
class ValidationReport:
    """The verdict on one cube state.

    Attributes
    ----------
    size
        N (0 when even the length was unreadable).
    facelets
        The state in face letters, or ``""`` when it could not be read.
    symbols
        The user's symbol for each face, in URFDLB order.
    problems
        Everything found wrong, in check order; empty for a solvable cube.
    twist, flip, parity
        Corner twist total (0-2), edge flip total (0-1) and permutation parity (0 when
        corner and edge parities agree), or None when the pieces did not allow the test.
        Even cubes have no flip or parity law: both are 0 there.
    classic_error
        0 when solvable, else the classic two-phase verify error number (1-6) of the
        first failing check in that solver's order.
    repaired_facelets
        When a single re-sticking explains every broken piece: the state after it.
    """

    size: int
    facelets: str
    symbols: str
    problems: tuple[Problem, ...]
    twist: int | None = None
    flip: int | None = None
    parity: int | None = None
    classic_error: int = 0
    repaired_facelets: str | None = field(default=None, compare=False)

    @property
    def valid(self) -> bool:
        """True when the cube can be solved."""
        return not self.problems

    @property
    def readable(self) -> bool:
        """False when the input was not a cube state at all (``bad-format``)."""
        return not any(p.code == "bad-format" for p in self.problems)

    @property
    def orbit(self) -> int | None:
        """Which of the 12 orbits (twist x flip x parity) the cube is in; 0 = solvable."""
        if self.twist is None or self.flip is None or self.parity is None:
            return None
        return self.twist * 4 + self.flip * 2 + self.parity

    @property
    def fix(self) -> tuple[Fix, ...]:
        """One combined list of steps that makes the cube solvable (no repeats)."""
        return combined_fix(self.problems)

    @property
    def summary(self) -> str:
        """One line: the verdict and, when unsolvable, what to do."""
        return verdict_summary(self.problems)

    def to_dict(self) -> dict:
        """A JSON-ready dictionary (the ``valid``/``problems`` part of DESIGN.md's report).

        Returns
        -------
        dict
            ``size``, ``facelets`` (face letters), ``valid``; ``problems``, one dict each
            with ``code``, ``message``, ``pieces``, ``facelets`` (names such as ``"U9"``),
            ``fix`` (its steps' texts joined by spaces) and ``orbit``; ``fix`` (the texts
            of :attr:`fix`); ``orbit`` (``{"twist", "flip", "parity"}``, or None when not
            tested) and ``classic_error``. The symbols and ``repaired_facelets`` are not
            included.

        Examples
        --------
        >>> from cubescan.solver.validate import apply_fix, twist_corner_fix, validate
        >>> twisted = apply_fix("U" * 9 + "R" * 9 + "F" * 9 + "D" * 9 + "L" * 9 + "B" * 9,
        ...                     twist_corner_fix(3, 0, 1))
        >>> data = validate(twisted).to_dict()
        >>> data["valid"], data["problems"][0]["code"], data["problems"][0]["facelets"]
        (False, 'corner-twist', ['U9', 'R1', 'F3'])
        >>> data["orbit"], data["classic_error"]
        ({'twist': 1, 'flip': 0, 'parity': 0}, 5)
        """
        names = _facelet_namer(self.size)
        return {
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
            "orbit": None
            if self.orbit is None
            else {"twist": self.twist, "flip": self.flip, "parity": self.parity},
            "classic_error": self.classic_error,
        }


def _facelet_namer(size: int):
    if size == 0:
        return str
    return cube_geometry(size).facelet_name
