"""One ``validate`` for every puzzle: the cubes' validator or the tesseracts'.

Examples
--------
>>> from cubescan.solver.puzzles.moves import apply_twists
>>> validate(apply_twists("2x2x2x2", "Of Uo'"), puzzle="2x2x2x2").valid
True
>>> validate("UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB").valid
True
"""

from __future__ import annotations

from cubescan.errors import BadInputError
from cubescan.solver.facelets import CubeState
from cubescan.solver.fixes import Fix
from cubescan.solver.puzzles.definition import normalize_name
from cubescan.solver.puzzles.report import TesseractReport
from cubescan.solver.puzzles.tesseract import validate_tesseract
from cubescan.solver.validate import Problem, ValidationReport
from cubescan.solver.validate import validate as validate_cube


def validate(
    state: str | CubeState, puzzle: str | None = None
) -> ValidationReport | TesseractReport:
    """Check whether a state is solvable and diagnose it when it is not.

    Parameters
    ----------
    state
        A facelet string in any alphabet (or, for a cube, a parsed :class:`CubeState`).
    puzzle
        ``None`` for any N x N x N cube (N told from the length), or a puzzle name:
        ``"3x3x3"`` (the length must then fit), ``"2x2x2x2"``, ``"3x3x3x3"``.

    Returns
    -------
    ValidationReport or TesseractReport
        The cube's report (:func:`cubescan.solver.validate.validate`) or the
        tesseract's (:func:`cubescan.solver.puzzles.tesseract.validate_tesseract`);
        never raises for a bad state (``bad-format`` problem).

    Raises
    ------
    BadInputError
        ``bad-puzzle`` for an unknown puzzle name, or a parsed cube given with a
        tesseract's name.

    Examples
    --------
    >>> validate("UUU").problems[0].code
    'bad-format'
    >>> validate("O" * 216, puzzle="3x3x3x3").problems[0].code
    'center-duplicate'
    >>> validate("U" * 24, puzzle="3x3").problems[0].message
    'a 3x3x3 state has 54 stickers, this one has 24'
    """
    if puzzle is None:
        return validate_cube(state)
    name = normalize_name(puzzle)
    if name.count("x") == 3:
        if isinstance(state, CubeState):
            raise BadInputError("bad-puzzle", f"a parsed cube is not a {name} state")
        return validate_tesseract(state, name)
    size = int(name[0])
    length = 6 * size * size
    stickers = len(state.facelets) if isinstance(state, CubeState) else len("".join(state.split()))
    if stickers != length:
        message = f"a {name} state has {length} stickers, this one has {stickers}"
        problem = Problem("bad-format", message, fix=(Fix("inspect", (), message),))
        return ValidationReport(0, "", "URFDLB", (problem,), classic_error=1)
    return validate_cube(state)
