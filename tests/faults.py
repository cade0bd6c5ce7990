"""Helpers shared by the validation tests: run the validator, carry out its fix."""

from __future__ import annotations

import numpy as np

from cubescan.solver.cubie import corner_slots
from cubescan.solver.fixes import apply_fix
from cubescan.solver.slots import center_orbits, slot_sets
from cubescan.solver.validate import validate


def codes(state: str) -> list[str]:
    """The problem codes the validator reports, in order."""
    return [p.code for p in validate(state).problems]


def fixed(state: str) -> str:
    """The state after every step of the report's combined fix (in the report's letters)."""
    report = validate(state)
    result = report.facelets
    for step in report.fix:
        result = apply_fix(result, step)
    return result


def swap(state: str, a: int, b: int) -> str:
    """Exchange two stickers."""
    letters = list(state)
    letters[a], letters[b] = letters[b], letters[a]
    return "".join(letters)


def reassembly_fault_nxn(truth: str, size: int, fault: str, rng: np.random.Generator) -> str:
    """A reassembly fault at any size: twist, mirror, re-stuck sticker, swapped centres."""
    letters = list(truth)
    slot = corner_slots(size)[int(rng.integers(8))]
    if fault == "twist":
        for a, b in zip(slot, slot[1:] + slot[:1], strict=True):
            letters[b] = truth[a]
    elif fault == "mirror":
        letters[slot[0]], letters[slot[1]] = truth[slot[1]], truth[slot[0]]
    elif fault == "restuck":
        # A sticker peeled off an edge or wing and stuck on a corner in exchange.
        edge = slot_sets(size)[-1].slots[0][0] if size > 2 else slot[1]
        corner = next(i for i in slot if truth[i] != truth[edge])
        letters[edge], letters[corner] = truth[corner], truth[edge]
    elif fault == "centres":
        # Two centre caps exchanged: fixed centres (odd) or two movable centres of
        # different orbits; a 2x2 has none and a 4x4 one orbit: a centre and a wing.
        if size % 2:
            a, b = size * size // 2, 2 * size * size + size * size // 2
        else:
            orbits = center_orbits(size)
            a = orbits[0].facelets[0]
            others = orbits[1].facelets if len(orbits) > 1 else slot_sets(size)[-1].slots[0]
            b = next(i for i in others if truth[i] != truth[a]) if size > 2 else slot[1]
        letters[a], letters[b] = truth[b], truth[a]
    return "".join(letters)


#: Every (size, fault) :func:`reassembly_fault_nxn` makes (a 2x2 has no centres).
FAULT_CASES_NXN = [
    (size, fault)
    for size in range(2, 8)
    for fault in ("twist", "mirror", "restuck", "centres")
    if (size, fault) != (2, "centres")
]
