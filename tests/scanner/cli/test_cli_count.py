"""`cubescan count --puzzle P`: the position count with its orbit factors."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cubescan.scanner.cli import main


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_the_2x2x2x2_count_is_hoeys_with_its_factors():
    result = run("count", "--puzzle", "2x2x2x2")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == "2x2x2x2: 3,357,894,533,384,932,272,635,904,000 positions (about 3.358e+27)"
    assert "15! / 2" in lines[1] and "12^15 / 3" in lines[2]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("2x2", "3674160"),
        ("3x3x3", "43252003274489856000"),
        ("4x4x4", "7401196841564901869874093974498574336000000000"),
    ],
)
def test_json_count_and_factors_multiply_out(name, expected):
    from fractions import Fraction
    from math import prod

    data = json.loads(run("count", "--puzzle", name, "--json").stdout)
    assert data["count"] == expected
    assert prod(Fraction(f["value"]) for f in data["factors"]) == int(expected)


def test_the_oracle_agrees_on_the_2x2x2x2():
    result = run("count", "--puzzle", "2x2x2x2", "--oracle")
    assert result.exit_code == 0
    assert result.output.splitlines()[-1].endswith("(agrees)")


@pytest.mark.parametrize("args", [("--puzzle", "9x9"), ("--puzzle", "")])
def test_an_unknown_puzzle_is_one_line_and_exit_2(args):
    result = run("count", *args)
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and result.output.startswith("cubescan: error: ")
