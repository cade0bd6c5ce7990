"""How many positions a puzzle has, as a product of orbit factors from its laws.

Each orbit contributes its places (``n!``, or ``n!/2`` when only even permutations
occur) and its orientations (``|O|^n``, divided by the size of the quotient its
orientation law fixes); laws that tie two orbits together divide once more. These are
the same laws the validators check (:mod:`cubescan.solver.validate` for the cubes,
:mod:`cubescan.solver.puzzles.tesseract` for the tesseracts); the oracle
(:mod:`cubescan.solver.puzzles.oracle`) counts the same numbers from the group alone.

Examples
--------
>>> count("2x2x2x2")
3357894533384932272635904000
>>> [f.label for f in orbit_factors("2x2x2x2")]
['corner places', 'corner orientations']
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import factorial, prod

from cubescan.solver.puzzles.definition import normalize_name, puzzle


@dataclass(frozen=True)
class Factor:
    """One factor of a position count.

    Attributes
    ----------
    label
        What it counts, e.g. ``"corner orientations"``.
    value
        The factor (a fraction when it is a law dividing the count).
    reason
        How it is made, in words, e.g. ``"12^15 / 3 (twist total 0 mod 3)"``.
    """

    label: str
    value: Fraction
    reason: str


def _cube_factors(size: int) -> list[Factor]:
    p = puzzle(f"{size}x{size}x{size}")
    held = size % 2 == 0  # even cubes: the DBL corner holds the cube's orientation
    factors = []
    for orbit in p.orbits:
        n = len(orbit.pieces)
        if orbit.kind == "corner":
            places = n - 1 if held else n
            factors.append(
                Factor(
                    "corner places",
                    Fraction(factorial(places)),
                    f"{places}!" + (" (DBL held still)" if held else ""),
                )
            )
            factors.append(
                Factor(
                    "corner orientations",
                    Fraction(3 ** (places - 1)),
                    f"3^{places} / 3 (twist total 0 mod 3)",
                )
            )
        elif orbit.kind == "edge":
            factors.append(Factor("edge places", Fraction(factorial(n)), f"{n}!"))
            factors.append(
                Factor(
                    "edge orientations", Fraction(2 ** (n - 1)), f"2^{n} / 2 (flip total 0 mod 2)"
                )
            )
            factors.append(
                Factor(
                    "corner/edge parity",
                    Fraction(1, 2),
                    "1/2 (corner and edge permutation parities equal)",
                )
            )
        elif orbit.kind == "wing":
            factors.append(
                Factor(f"{orbit.name} places", Fraction(factorial(n)), f"{n}! (wings never flip)")
            )
        elif orbit.kind == "center" and n > 6:  # not the fixed middle centres
            alike = n // 6
            factors.append(
                Factor(
                    f"{orbit.name} places",
                    Fraction(factorial(n), factorial(alike) ** 6),
                    f"{n}! / ({alike}!)^6 (alike centres look the same)",
                )
            )
    return factors


def _tesseract_factors(size: int) -> list[Factor]:
    held = size == 2  # nothing is fixed on the 2x2x2x2: one corner holds it still
    corners = 15 if held else 16
    held_text = " (one corner held still)" if held else ""
    factors = [
        Factor(
            "corner places",
            Fraction(factorial(corners), 2),
            f"{corners}! / 2 (only even permutations){held_text}",
        ),
        Factor(
            "corner orientations",
            Fraction(12**corners, 3),
            f"12^{corners} / 3 (A4 each; twist total 0 mod 3)",
        ),
    ]
    if size == 3:
        factors += [
            Factor("edge places", Fraction(factorial(32)), "32!"),
            Factor("edge orientations", Fraction(6**32, 2), "6^32 / 2 (S3 each; flips even)"),
            Factor("ridge places", Fraction(factorial(24)), "24!"),
            Factor("ridge orientations", Fraction(2**24, 2), "2^24 / 2 (flips even)"),
            Factor(
                "edge/ridge parity",
                Fraction(1, 2),
                "1/2 (edge and ridge permutation parities equal)",
            ),
        ]
    return factors


def orbit_factors(name: str) -> list[Factor]:
    """The factors whose product is the puzzle's number of positions.

    Parameters
    ----------
    name
        A puzzle name (see :data:`~cubescan.solver.puzzles.definition.PUZZLE_NAMES`).

    Returns
    -------
    list of Factor
        Orbit by orbit, places then orientations, then laws tying orbits together.

    Examples
    --------
    >>> [f.reason for f in orbit_factors("2x2x2")]
    ['7! (DBL held still)', '3^7 / 3 (twist total 0 mod 3)']
    """
    canonical = normalize_name(name)
    size = int(canonical[0])
    if canonical.count("x") == 3:
        return _tesseract_factors(size)
    return _cube_factors(size)


def count(name: str) -> int:
    """The number of positions of a puzzle, from its orbit rules.

    Positions that differ only in how the whole puzzle is held count once.

    Parameters
    ----------
    name
        A puzzle name.

    Returns
    -------
    int

    Examples
    --------
    >>> count("3x3x3")
    43252003274489856000
    """
    return int(prod((f.value for f in orbit_factors(name)), start=Fraction(1)))
