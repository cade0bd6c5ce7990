"""Physical fixes: what a person does to a cube, and the same action on the string.

Examples
--------
>>> from cubescan.solver.moves import solved_facelets
>>> fix = twist_corner_fix(3, 0, 1)
>>> fix.text
'twist the corner at URF once clockwise (seen from outside)'
>>> apply_fix(solved_facelets(3), fix)[8], apply_fix(solved_facelets(3), fix)[9]
('F', 'U')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Protocol

import numpy as np

from cubescan.solver.cubie import CORNERS, corner_slots, edge_slots

TURN_WORDS = {1: "clockwise", 2: "counterclockwise"}


@dataclass(frozen=True)
class Fix:
    """One physical action that repairs (part of) a cube.

    Attributes
    ----------
    action
        ``"twist-corner"``, ``"flip-edge"``, ``"swap-pieces"``, ``"swap-stickers"``,
        ``"restick"``, ``"swap-centers"``, or ``"inspect"`` (no single mechanical fix
        is known; a person must look).
    facelets
        The stickers it touches: a corner's three in clockwise order, an edge's two,
        two pieces' stickers one after the other, two stickers, or one sticker.
    text
        The instruction in words.
    turns
        For ``twist-corner``: 1 = clockwise, 2 = counterclockwise (seen from outside).
    letter
        For ``restick``: the face letter the sticker must get.
    """

    action: str
    facelets: tuple[int, ...]
    text: str
    turns: int = 0
    letter: str = ""


class Diagnosed(Protocol):
    """A problem found by a validator: a stable code and the steps that fix it."""

    code: str
    fix: tuple[Fix, ...]


def combined_fix(problems: Sequence[Diagnosed]) -> tuple[Fix, ...]:
    """One list of the steps that fix every problem, in order, each step once.

    Parameters
    ----------
    problems
        A validator's problems (cube or tesseract), in the order found.

    Returns
    -------
    tuple of Fix
        Their steps, a step shared by two problems listed once.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> flip = Fix("flip-edge", (7, 19), "flip the edge at UF in place")
    >>> problems = [SimpleNamespace(code="edge-flip", fix=(flip,))] * 2
    >>> [step.text for step in combined_fix(problems)]
    ['flip the edge at UF in place']
    """
    steps: list[Fix] = []
    for problem in problems:
        for step in problem.fix:
            if step not in steps:
                steps.append(step)
    return tuple(steps)


def verdict_summary(problems: Sequence[Diagnosed]) -> str:
    """One line: the verdict and, when not solvable, what to do.

    Parameters
    ----------
    problems
        A validator's problems; none means solvable.

    Returns
    -------
    str
        ``"solvable"``, or ``"not solvable (codes): step; then step"``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> flip = Fix("flip-edge", (7, 19), "flip the edge at UF in place")
    >>> verdict_summary([]), verdict_summary([SimpleNamespace(code="edge-flip", fix=(flip,))])
    ('solvable', 'not solvable (edge-flip): flip the edge at UF in place')
    """
    if not problems:
        return "solvable"
    codes = ", ".join(dict.fromkeys(p.code for p in problems))
    steps = "; then ".join(step.text for step in combined_fix(problems))
    return f"not solvable ({codes}): {steps}" if steps else f"not solvable ({codes})"


def apply_fix(facelets: str, fix: Fix) -> str:
    """Carry out a fix on a facelet string (face letters) and return the new string.

    Parameters
    ----------
    facelets
        The state the fix was computed for.
    fix
        A step from a problem or from a report's combined fix.

    Returns
    -------
    str

    Raises
    ------
    ValueError
        For ``inspect`` fixes, which need a person.

    Examples
    --------
    >>> from cubescan.solver.moves import solved_facelets
    >>> s = apply_fix(solved_facelets(3), Fix("flip-edge", (5, 10), "flip UR"))
    >>> s[5], s[10]
    ('R', 'U')
    """
    letters = list(facelets)
    f = fix.facelets
    if fix.action == "twist-corner":
        for k in range(3):
            letters[f[(k + fix.turns) % 3]] = facelets[f[k]]
    elif fix.action in ("flip-edge", "swap-stickers"):
        letters[f[0]], letters[f[1]] = facelets[f[1]], facelets[f[0]]
    elif fix.action == "swap-pieces":
        half = len(f) // 2
        for a, b in zip(f[:half], f[half:], strict=True):
            letters[a], letters[b] = facelets[b], facelets[a]
    elif fix.action == "restick":
        letters[f[0]] = fix.letter
    elif fix.action == "swap-centers":
        # Swapped centre caps relabel two colours everywhere but on the caps themselves.
        x, y = facelets[f[0]], facelets[f[1]]
        swap = {x: y, y: x}
        letters = [ch if i in f else swap.get(ch, ch) for i, ch in enumerate(facelets)]
    else:
        raise ValueError(f"the fix {fix.action!r} needs a person: {fix.text}")
    return "".join(letters)


def twist_corner_fix(size: int, slot: int, turns: int) -> Fix:
    """The fix "twist the corner in ``slot`` clockwise (1) or counterclockwise (2)".

    Parameters
    ----------
    size
        N.
    slot
        Corner slot index (see :data:`cubescan.solver.cubie.CORNERS`).
    turns
        1 clockwise, 2 counterclockwise, seen from outside the corner.

    Returns
    -------
    Fix

    Examples
    --------
    >>> twist_corner_fix(2, 6, 2).text
    'twist the corner at DBL once counterclockwise (seen from outside)'
    """
    return Fix(
        "twist-corner",
        corner_slots(size)[slot],
        f"twist the corner at {CORNERS[slot]} once {TURN_WORDS[turns]} (seen from outside)",
        turns=turns,
    )


def flip_edge_fix(facelets: tuple[int, int], name: str) -> Fix:
    """The fix "flip the edge at ``name`` in place".

    Parameters
    ----------
    facelets
        The two sticker indices of the middle-edge slot (see
        :func:`cubescan.solver.cubie.edge_slots`); :func:`apply_fix` swaps their letters.
    name
        The slot's name for the text, e.g. ``"UR"``.

    Returns
    -------
    Fix
        A ``"flip-edge"`` fix on ``facelets``.

    Examples
    --------
    >>> flip_edge_fix((5, 10), "UR").text
    'flip the edge at UR in place'
    """
    return Fix("flip-edge", facelets, f"flip the edge at {name} in place")


def swap_pieces_fix(kind: str, names: tuple[str, str], slots: tuple[tuple[int, ...], ...]) -> Fix:
    """The fix "swap the two pieces at these two slots" (stickers keep their order).

    Parameters
    ----------
    kind
        ``"corner"``, ``"edge"`` or ``"wing"`` (for the text).
    names
        The two slots' names (for the text).
    slots
        The two slots' sticker indices, each in reading order and of equal length:
        sticker k of one slot trades places with sticker k of the other.

    Returns
    -------
    Fix
        A ``"swap-pieces"`` fix whose facelets are the first slot's followed by the
        second's.

    Examples
    --------
    >>> swap_pieces_fix("edge", ("UF", "UB"), ((7, 19), (1, 46))).facelets
    (7, 19, 1, 46)
    """
    return Fix(
        "swap-pieces",
        tuple(slots[0]) + tuple(slots[1]),
        f"swap the two {kind}s at {names[0]} and {names[1]}",
    )


def sticker_fixes(
    letters: str,
    suspects: Sequence[int],
    per_letter: int,
    alphabet: str,
    sticker_name: Callable[[int], str],
    color_of: Callable[[str], str],
) -> list[Fix]:
    """The single sticker changes that might mend broken pieces: re-stick one, or swap two.

    When some letter is seen too often and another too rarely, a suspect sticker of a
    surplus letter is re-stuck with each missing one; otherwise two suspects of different
    letters trade places.

    Parameters
    ----------
    letters
        The state, one letter per sticker.
    suspects
        The stickers of the broken pieces, in order.
    per_letter
        How many stickers each letter has on a sound puzzle.
    alphabet
        The letters, in order.
    sticker_name
        A sticker's name for the text (``"U1"``).
    color_of
        How the text names a letter's colour (``"W (the U face's colour)"``).

    Returns
    -------
    list of Fix
        ``"restick"`` fixes (with their ``letter``) or ``"swap-stickers"`` fixes.

    Examples
    --------
    >>> fixes = sticker_fixes("UUUR", [2, 3], 2, "UR", str, lambda c: f"the {c} colour")
    >>> [(f.action, f.facelets, f.letter) for f in fixes]
    [('restick', (2,), 'R')]
    >>> [f.text for f in sticker_fixes("URUR", [0, 1], 2, "UR", str, str)]
    ['the stickers at 0 and 1 were swapped: swap them back']
    """
    counts = Counter(letters)
    surplus = [c for c in alphabet if counts.get(c, 0) > per_letter]
    deficit = [c for c in alphabet if counts.get(c, 0) < per_letter]
    if surplus and deficit:
        return [
            Fix(
                "restick",
                (i,),
                f"the sticker at {sticker_name(i)} has the wrong colour: re-stick it with "
                f"{color_of(c)}",
                letter=c,
            )
            for i in suspects
            if letters[i] in surplus
            for c in deficit
        ]
    return [
        Fix(
            "swap-stickers",
            (a, b),
            f"the stickers at {sticker_name(a)} and {sticker_name(b)} were swapped: swap them back",
        )
        for a, b in combinations(suspects, 2)
        if letters[a] != letters[b]
    ]


REASSEMBLY_FAULTS = ("twist", "flip", "swap", "mirror")
"""The faults :func:`reassembly_fault` makes: a corner twisted, an edge flipped, two edges
swapped, two of a corner's stickers swapped (its mirror image)."""


def reassembly_fault(facelets: str, fault: str, rng: np.random.Generator) -> str:
    """A 3x3 state with one reassembly fault of the given kind, at a random place.

    What a cube taken apart and put back together carelessly shows: the opposite of the
    fix that mends it (each fix is its own kind of fault, carried out on a sound cube).

    Parameters
    ----------
    facelets
        A 3x3 state (face letters, facelet order).
    fault
        One of :data:`REASSEMBLY_FAULTS`, or ``"none"`` for the state unchanged.
    rng
        Draws the corner, edge or pair of edges, and the twist's direction.

    Returns
    -------
    str
        The state with the fault.

    Raises
    ------
    ValueError
        For an unknown fault.

    Examples
    --------
    >>> from cubescan.solver.moves import solved_facelets
    >>> from cubescan.solver.validate import validate
    >>> rng = np.random.default_rng(0)
    >>> [[p.code for p in validate(reassembly_fault(solved_facelets(3), f, rng)).problems]
    ...  for f in REASSEMBLY_FAULTS]
    [['corner-twist'], ['edge-flip'], ['permutation-parity'], ['corner-invalid']]
    """
    if fault == "none":
        return facelets
    if fault == "twist":
        slot = int(rng.integers(8))
        return apply_fix(facelets, twist_corner_fix(3, slot, int(rng.integers(1, 3))))
    if fault == "flip":
        return apply_fix(facelets, flip_edge_fix(edge_slots(3)[int(rng.integers(12))], "edge"))
    if fault == "swap":
        a, b = (edge_slots(3)[int(k)] for k in rng.choice(12, 2, replace=False))
        return apply_fix(facelets, swap_pieces_fix("edge", ("a", "b"), (a, b)))
    if fault == "mirror":
        first, second, _ = corner_slots(3)[int(rng.integers(8))]
        return apply_fix(facelets, Fix("swap-stickers", (first, second), "mirror"))
    raise ValueError(f"unknown fault {fault!r}: one of none, {', '.join(REASSEMBLY_FAULTS)}")
