"""Exceptions with stable codes.

Every error cubescan raises on purpose is a :class:`CubescanError` carrying a
stable machine-readable ``code`` (the strings DESIGN.md lists for cube problems,
plus input codes such as ``bad-move``) and a message a person can act on.
The CLI turns them into a one-line reason and exit status 2 (unreadable input)
or 1 (a cube that was read but cannot be solved).
"""

from __future__ import annotations


class CubescanError(Exception):
    """Base class: an error with a stable ``code`` and a human message.

    Parameters
    ----------
    code
        Stable identifier, e.g. ``"bad-format"``; never changes between releases.
    message
        What is wrong, where, and what to do about it.

    Examples
    --------
    >>> err = CubescanError("bad-format", "expected 54 letters, got 53")
    >>> err.code, str(err)
    ('bad-format', 'expected 54 letters, got 53')
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class BadInputError(CubescanError):
    """The input could not be read at all (wrong length, unknown move, corrupt file...).

    The command line answers it with one line on stderr and exit status 2.

    Examples
    --------
    >>> from cubescan.solver.moves import parse_moves
    >>> try:
    ...     parse_moves("R U Q")
    ... except BadInputError as err:
    ...     print(err.code)
    bad-move
    """


class UnsolvableCubeError(CubescanError):
    """The cube was read but cannot be solved; ``report`` holds the full diagnosis.

    Parameters
    ----------
    code
        The first problem's stable code, e.g. ``"corner-twist"``.
    message
        What is wrong.
    report
        The validator's report (a :class:`~cubescan.solver.validate.ValidationReport`).

    Examples
    --------
    >>> from cubescan.solver.solve import solve
    >>> twisted = "UUUUUUUUFURRRRRRRRFFRFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"  # corner UFR turned
    >>> try:
    ...     solve(twisted)
    ... except UnsolvableCubeError as err:
    ...     print(err.code, [p.code for p in err.report.problems])
    corner-twist ['corner-twist']
    """

    def __init__(self, code: str, message: str, report: object | None = None) -> None:
        super().__init__(code, message)
        self.report = report
