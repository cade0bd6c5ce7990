"""The public API: ``import cubescan`` gives every name in ``__all__``, each documented with
an example, and importing it stays light (the command line's ``--help`` pays for it)."""

from __future__ import annotations

import inspect
import subprocess
import sys

import cubescan


def test_every_public_name_is_there_and_documented_with_an_example():
    assert cubescan.__all__[0] == "__version__" and cubescan.__version__
    for name in cubescan.__all__[1:]:
        value = getattr(cubescan, name)
        doc = inspect.getdoc(value) or ""
        assert "Examples\n--------" in doc, f"{name} has no example"
        if inspect.isfunction(value):
            assert "Parameters\n----------" in doc and "Returns\n-------" in doc, name


def test_importing_cubescan_loads_no_vision_or_search_library():
    code = (
        "import sys, cubescan; "
        "print(sorted(m for m in ('cv2', 'sklearn', 'numba', 'scipy') if m in sys.modules))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert loaded.returncode == 0 and loaded.stdout.strip() == "[]", loaded.stdout + loaded.stderr


def test_an_unknown_name_is_an_attribute_error():
    try:
        cubescan.no_such_function  # noqa: B018
    except AttributeError as err:
        assert "no_such_function" in str(err)
    else:
        raise AssertionError("cubescan.no_such_function did not raise")
