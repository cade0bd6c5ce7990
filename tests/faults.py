"""Helpers shared by the validation tests: run the validator, carry out its fix."""

from __future__ import annotations

from cubescan.solver.fixes import apply_fix
from cubescan.solver.validate import validate


def codes(state: str) -> list[str]:
    """The problem codes the validator reports, in order."""
    return [p.code for p in validate(state).problems]


def fixed(state: str) -> str:
    """The state after every step of the report's combined fix (in the report's letters)."""
    report = validate(state)
    result = report.facelets
    for step in report.fix:
        result = apply_fix(result, step)
    return result


def swap(state: str, a: int, b: int) -> str:
    """Exchange two stickers."""
    letters = list(state)
    letters[a], letters[b] = letters[b], letters[a]
    return "".join(letters)
