"""Every example in the public docstrings runs and shows what it says."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "solver.errors",
    "solver.geometry",
    "solver.moves",
    "solver.state",
    "solver.cubie",
    "solver.validate",
    "solver.slots",
    "solver.fixes",
    "solver.counting",
    "solver.cache",
    "solver.pocket",
    "solver",
    "scanner.render",
    "scanner.cli_validate",
    "scanner.assemble",
    "scanner.check",
    "scanner.session",
    "scanner.sources",
    "scanner.batch",
    "scanner.report_html",
    "scanner.draw",
    "scanner.grid",
    "scanner.sampling",
    "scanner.imageio",
    "scanner.observe",
    "scanner.synth",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name, table_cache):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
