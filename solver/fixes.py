"""Physical fixes: what a person does to a cube, and the same action on the string.

Examples
--------
>>> from solver.moves import solved_facelets
>>> fix = twist_corner_fix(3, 0, 1)
>>> fix.text
'twist the corner at URF once clockwise (seen from outside)'
>>> apply_fix(solved_facelets(3), fix)[8], apply_fix(solved_facelets(3), fix)[9]
('F', 'U')
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.cubie import CORNERS, corner_slots

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
    >>> from solver.moves import solved_facelets
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
        Corner slot index (see :data:`solver.cubie.CORNERS`).
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
        :func:`solver.cubie.edge_slots`); :func:`apply_fix` swaps their letters.
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
