"""cubescan: scan a twisty cube, tell whether it can be solved, explain why not, solve it.

The public API, one import away. Names are loaded when first used, so that ``import
cubescan`` (and the command line's ``--help``) does not pay for the vision and search
libraries.

Examples
--------
>>> import cubescan
>>> state = cubescan.apply_moves(cubescan.solved_facelets(3), "R U R' U'")
>>> cubescan.validate(state).valid
True
>>> cubescan.validate(state.replace("U", "X", 1)).valid
False
>>> solved_tesseract = "".join(cell * 8 for cell in "OIRLUDFB")
>>> cubescan.validate(solved_tesseract, puzzle="2x2x2x2").valid
True
"""

from __future__ import annotations

import importlib

# public name -> the module that defines it
_HOMES = {
    "check_images": "cubescan.scanner.pipeline.check",
    "read_face": "cubescan.scanner.pipeline.photos",
    "detect_grid": "cubescan.scanner.grid",
    "classify": "cubescan.calibration.naming",
    "name_face_colors": "cubescan.calibration.face_naming",
    "validate": "cubescan.solver.puzzles.api",
    "solve": "cubescan.solver.solve",
    "parse_state": "cubescan.solver.facelets",
    "apply_moves": "cubescan.solver.moves",
    "format_moves": "cubescan.solver.moves",
    "solved_facelets": "cubescan.solver.moves",
    "CubescanError": "cubescan.errors",
    "BadInputError": "cubescan.errors",
    "UnsolvableCubeError": "cubescan.errors",
}

__all__ = ["__version__", *_HOMES]


def __getattr__(name: str) -> object:
    if name == "__version__":  # importlib.metadata is slow to import: only when asked
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("cubescan")
        except PackageNotFoundError:  # a source tree that was never installed
            return "0+unknown"
    if name in _HOMES:
        value = getattr(importlib.import_module(_HOMES[name]), name)
        globals()[name] = value  # later lookups skip this hook
        return value
    raise AttributeError(f"module 'cubescan' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
