"""Every public function documents its parameters, its result and an example, and every
example in the public docstrings runs and shows what it says."""

from __future__ import annotations

import ast
import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("cubescan", "cubescan.solver", "cubescan.calibration", "cubescan.scanner")


def _modules() -> list[str]:
    """Every module of the installed packages (found by walking them, never listed by
    hand), but ``__main__``, which runs the command line when imported."""
    names = set()
    for package in PACKAGES:
        names.add(package)
        path = importlib.import_module(package).__path__
        for info in pkgutil.walk_packages(path, prefix=f"{package}."):
            if not info.name.endswith("__main__"):
                names.add(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name, table_cache):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def _public_functions() -> list[tuple[str, ast.FunctionDef]]:
    """(module file, function) for every public module-level function of the packages, and
    every public method of their public classes but properties (a property's one line says
    what it is) and a framework's methods overridden (click's ``Group``: documented there)."""
    found = []
    for name in _modules():
        path = Path(importlib.util.find_spec(name).origin)
        if any(part.startswith("_") for part in name.split(".")):
            continue  # a private module (compiled kernels): its callers document the stage
        where = path.relative_to(ROOT)
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
                found.append((where, node))
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                if any(isinstance(base, ast.Attribute) for base in node.bases):
                    continue  # a subclass of another package's class (click.Group)
                found.extend(
                    (where, method)
                    for method in node.body
                    if isinstance(method, ast.FunctionDef)
                    and not method.name.startswith("_")
                    and not _is_property(method)
                )
    return found


def _is_property(function: ast.FunctionDef) -> bool:
    return any(getattr(d, "id", None) == "property" for d in function.decorator_list)


def _is_cli_command(function: ast.FunctionDef) -> bool:
    """A click command's docstring is its ``--help`` text; its options document themselves."""
    for decorator in function.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in ("command", "group"):
            return True
    return False


def _missing_sections(function: ast.FunctionDef) -> list[str]:
    """The numpydoc sections a function's docstring lacks: Parameters (when it takes any),
    Returns or Yields (unless it returns None) and Examples."""
    doc = ast.get_docstring(function) or ""
    args = function.args
    takes = args.posonlyargs + args.args + args.kwonlyargs
    takes = [a for a in takes if a.arg not in ("self", "cls")]
    missing = []
    if (takes or args.vararg or args.kwarg) and "Parameters\n----------" not in doc:
        missing.append("Parameters")
    returns_none = isinstance(function.returns, ast.Constant) and function.returns.value is None
    if not returns_none and not any(f"{s}\n{'-' * len(s)}" in doc for s in ("Returns", "Yields")):
        missing.append("Returns")
    if "Examples\n--------" not in doc:
        missing.append("Examples")
    return missing


def test_every_public_function_documents_parameters_returns_and_an_example():
    lacking = [
        f"{where}:{function.lineno} {function.name} lacks {', '.join(missing)}"
        for where, function in _public_functions()
        if not _is_cli_command(function) and (missing := _missing_sections(function))
    ]
    assert not lacking, "\n".join(lacking)
