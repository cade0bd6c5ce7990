"""Test support shared by the grid test files."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import cubescan.scanner.grid as grid_package


def patch_grid(monkeypatch: pytest.MonkeyPatch, name: str, value: object) -> None:
    """Set ``name`` to ``value`` in every module of the grid package that holds it, as
    ``monkeypatch.setattr`` did in the one module that held them all before the split."""
    for info in pkgutil.iter_modules(grid_package.__path__, f"{grid_package.__name__}."):
        module = importlib.import_module(info.name)
        if hasattr(module, name):
            monkeypatch.setattr(module, name, value)
