"""Are two facelet strings the same physical cube, however held and whatever the letters?"""

from cubescan.solver.moves import same_cube

__all__ = ["same_cube"]
