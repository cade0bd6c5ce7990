"""The cube itself: facelet, cubie and coordinate levels, moves, validation, solving.

``solver`` imports nothing from ``scanner`` or ``calibration``.

Examples
--------
>>> from cubescan.solver import apply_moves, solved_facelets, validate
>>> validate(apply_moves(solved_facelets(3), "R U R' U'")).valid
True
"""

from cubescan.errors import BadInputError, CubescanError, UnsolvableCubeError
from cubescan.solver.cubie import (
    CORNERS,
    EDGES,
    CubieCube,
    cubie_to_facelets,
    facelets_to_cubie,
    random_cubie,
    random_reassembly,
    random_state,
)
from cubescan.solver.facelets import CubeState, parse_state
from cubescan.solver.geometry import FACES, CubeGeometry, cube_geometry
from cubescan.solver.moves import (
    Move,
    apply_moves,
    format_moves,
    invert_moves,
    parse_moves,
    size_from_length,
    solved_facelets,
)
from cubescan.solver.validate import (
    Fix,
    Problem,
    ValidationReport,
    apply_fix,
    is_solvable,
    validate,
)

__all__ = [
    "CORNERS",
    "EDGES",
    "FACES",
    "BadInputError",
    "CubeGeometry",
    "CubeState",
    "CubescanError",
    "CubieCube",
    "Fix",
    "Move",
    "Problem",
    "UnsolvableCubeError",
    "ValidationReport",
    "apply_fix",
    "apply_moves",
    "cube_geometry",
    "cubie_to_facelets",
    "facelets_to_cubie",
    "format_moves",
    "invert_moves",
    "is_solvable",
    "parse_moves",
    "parse_state",
    "random_cubie",
    "random_reassembly",
    "random_state",
    "size_from_length",
    "solved_facelets",
    "validate",
]
