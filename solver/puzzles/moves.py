"""Twists of the tesseracts in Hoey's notation: parse them and apply them to a state.

A twist is a cell letter (``O I R L U D F B``), the lower-case letter of the axis it
turns about (``f u r o``, never the cell's own axis), and an optional ``'``
(counterclockwise) or ``2`` (half twist): ``Of``, ``Ru'``, ``Uo2``.

Examples
--------
>>> parse_twists("Of Ru' Uo2")
[('Of', 1), ('Ru', 3), ('Uo', 2)]
>>> apply_twists("2x2x2x2", "Of Of'") == puzzle("2x2x2x2").solved()
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

from cubescan.errors import BadInputError
from cubescan.solver.puzzles.definition import all_twists, normalize_name, puzzle

_TOKEN = re.compile(r"^([OIRLUDFB])([furo])(2'|2|'|)$")
_TURNS = {"": 1, "2": 2, "2'": 2, "'": 3}


def parse_twists(text: str) -> list[tuple[str, int]]:
    """Read twists separated by white space.

    Parameters
    ----------
    text
        E.g. ``"Of Ru' Uo2"``.

    Returns
    -------
    list of (str, int)
        The clockwise twist's name and how many clockwise quarters (1, 2 or 3).

    Raises
    ------
    BadInputError
        ``bad-move`` naming the first token that is not a twist.

    Examples
    --------
    >>> parse_twists("Fr'")
    [('Fr', 3)]
    """
    twists = []
    for position, token in enumerate(text.split(), start=1):
        match = _TOKEN.match(token)
        if not match or match.group(2).upper() in (match.group(1), _opposite(match.group(1))):
            raise BadInputError(
                "bad-move",
                f"twist {position} {token!r} is not a tesseract twist (a cell OIRLUDFB, an "
                "axis f u r o other than its own, then ' or 2)",
            )
        twists.append((match.group(1) + match.group(2), _TURNS[match.group(3)]))
    return twists


def _opposite(cell: str) -> str:
    return dict(zip("OIRLUDFB", "IOLRDUBF", strict=True))[cell]


def apply_twists(name: str, twists: str | Iterable[tuple[str, int]], state: str = "") -> str:
    """Apply twists to a tesseract state (by default the solved one).

    Parameters
    ----------
    name
        ``"2x2x2x2"`` or ``"3x3x3x3"``.
    twists
        Text such as ``"Of Ru'"`` or the pairs :func:`parse_twists` returns.
    state
        The state to twist, in any symbols; the solved state when empty.

    Returns
    -------
    str

    Examples
    --------
    >>> twisted = apply_twists("3x3x3x3", "Of")
    >>> twisted != puzzle("3x3x3x3").solved(), apply_twists("3x3x3x3", "Of'", twisted)[:5]
    (True, 'OOOOO')
    """
    canonical = normalize_name(name)
    permutations = all_twists(canonical)
    letters = np.array(list(state or puzzle(canonical).solved()))
    for twist, turns in parse_twists(twists) if isinstance(twists, str) else twists:
        for _ in range(turns):
            letters = letters[permutations[twist]]
    return "".join(letters.tolist())
