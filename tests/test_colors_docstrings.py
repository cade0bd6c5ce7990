"""Every example in the colour modules' docstrings runs and shows what it says."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "scanner.colorspace",
    "scanner.colorsim",
    "scanner.colors",
    "scanner.repair",
    "scanner.cli_classify",
    "calibration.profile",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
