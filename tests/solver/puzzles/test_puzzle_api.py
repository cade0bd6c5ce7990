"""`validate(state, puzzle=...)`: one entry point for the cubes and the tesseracts."""

from __future__ import annotations

import pytest

import cubescan
from cubescan.errors import BadInputError
from cubescan.solver.facelets import parse_state
from cubescan.solver.moves import apply_moves, solved_facelets
from cubescan.solver.puzzles.api import validate
from cubescan.solver.puzzles.moves import apply_twists
from cubescan.solver.puzzles.report import TesseractReport
from cubescan.solver.validate import ValidationReport


def test_cubescan_validate_is_the_dispatcher():
    assert cubescan.validate is validate


@pytest.mark.parametrize("name", [None, "4x4", "4x4x4"])
def test_a_cube_goes_to_the_cube_validator(name):
    state = apply_moves(solved_facelets(4), "Rw U 2F'")
    report = validate(state, puzzle=name)
    assert isinstance(report, ValidationReport) and report.valid and report.size == 4
    assert validate(parse_state(state), puzzle=name).valid


def test_a_cube_of_another_size_than_named_is_bad_format():
    report = validate(solved_facelets(3), puzzle="2x2x2")
    assert [p.code for p in report.problems] == ["bad-format"] and not report.readable


@pytest.mark.parametrize("name", ["2x2x2x2", "3x3x3x3"])
def test_a_tesseract_goes_to_the_tesseract_validator(name):
    report = validate(apply_twists(name, "Lu Of' Dr2"), puzzle=name)
    assert isinstance(report, TesseractReport) and report.valid and report.puzzle == name
    assert report.to_dict()["orbit"]["corner_twist"] == 0


def test_unknown_puzzles_and_parsed_cubes_named_as_tesseracts_raise():
    with pytest.raises(BadInputError) as err:
        validate(solved_facelets(3), puzzle="megaminx")
    assert err.value.code == "bad-puzzle"
    with pytest.raises(BadInputError):
        validate(parse_state(solved_facelets(3)), puzzle="3x3x3x3")
