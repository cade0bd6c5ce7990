"""How many states can a cube reach? Counted from the same orbit rules the validator checks.

Each orbit contributes its arrangements, divided by its laws:

* corners: 8! places x 3^8 orientations, twist total fixed (/3);
* middle edges (odd N): 12! x 2^12, flip total fixed (/2), and their permutation parity
  tied to the corners' (/2);
* wings: 24! places, no orientation freedom (a wing cannot flip), no parity law;
* movable centres: 24 pieces in 6 colours of 4 identical pieces each, 24! / (4!)^6;
* even cubes have no fixed centres, so the 24 ways to hold the cube are one state (/24).

Examples
--------
>>> reachable_states(2)
3674160
>>> reachable_states(3)
43252003274489856000
"""

from __future__ import annotations

from math import factorial

from cubescan.solver.slots import center_orbits, slot_sets

# Orientations per piece and the law on their total, by kind of slot.
_ORIENTATIONS = {"corner": 3, "edge": 2, "wing": 1}


def reachable_states(size: int) -> int:
    """The number of distinct states an N x N cube can be turned into.

    Parameters
    ----------
    size
        N, 2..7.

    Returns
    -------
    int
        Exact count (states that differ only by how the cube is held count once).

    Examples
    --------
    >>> reachable_states(4) == 7401196841564901869874093974498574336000000000
    True
    """
    total = 1
    kinds = set()
    for slot_set in slot_sets(size):
        pieces = len(slot_set.names)
        turns = _ORIENTATIONS[slot_set.kind]
        # Orientations are free but for their total, which must be 0.
        total *= factorial(pieces) * turns ** (pieces - 1)
        kinds.add(slot_set.kind)
    if "edge" in kinds:
        total //= 2  # corner and middle-edge permutation parities are equal
    for centers in center_orbits(size):
        each = len(centers.facelets) // 6
        total *= factorial(len(centers.facelets)) // factorial(each) ** 6
    if size % 2 == 0:
        total //= 24
    return total
