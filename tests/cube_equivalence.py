"""Are two facelet strings the same physical cube, however held and whatever the letters?"""

from __future__ import annotations

from functools import cache

from cubescan.solver.moves import apply_moves


@cache
def _rotations() -> tuple[str, ...]:
    return tuple(
        f"{first} {second}".strip()
        for first in ("", "x", "x2", "x'", "z", "z'")
        for second in ("", "y", "y2", "y'")
    )


def same_cube(a: str, b: str) -> bool:
    """True when some whole-cube rotation and renaming of colours turns ``a`` into ``b``."""
    if len(a) != len(b):
        return False
    for rotation in _rotations():
        turned = apply_moves(a, rotation) if rotation else a
        mapping: dict[str, str] = {}
        if all(mapping.setdefault(x, y) == y for x, y in zip(turned, b, strict=True)) and len(
            set(mapping.values())
        ) == len(mapping):
            return True
    return False
