"""The slots of each piece orbit, and which sticker readings are real pieces.

A *slot* is a place for one piece; reading its stickers in a fixed order gives letters
such as ``"URF"``. For every orbit of corners, middle edges and wings this module
computes, from the geometric model, the slots, their reading order and the table of
readings that are real pieces (with their orientation). Centre orbits have no slots to
speak of: their pieces are interchangeable, only their colour counts matter.

Reading orders:

* corners: clockwise seen from outside, starting on U or D (the classic order);
* middle edges: U/D sticker first, or F/B for the middle layer (the classic order);
* wings: the order (a, b) for which the wing sits on the positive side of the edge's
  midpoint along ``normal_a x normal_b``. With it the 24 wings of an orbit read as the 24
  ordered pairs of adjacent faces, each once, and a wing read backwards is another
  wing: a wing cannot be flipped in place, so a backwards wing shows up as a duplicate.

Examples
--------
>>> [(s.kind, s.orbit, len(s.names)) for s in slot_sets(4)]
[('corner', 'corners', 8), ('wing', 'wings U2', 24)]
>>> slot_sets(4)[1].names[0]
'U2/B3'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

import numpy as np

from cubescan.solver.cubie import (
    CORNERS,
    EDGES,
    corner_lookup,
    corner_slots,
    edge_lookup,
    edge_slots,
)
from cubescan.solver.geometry import cube_geometry


@dataclass(frozen=True)
class SlotSet:
    """The slots of one orbit of corners, middle edges or wings.

    Attributes
    ----------
    kind
        ``"corner"``, ``"edge"`` or ``"wing"``.
    orbit
        The orbit's name (see :class:`cubescan.solver.geometry.Orbit`).
    names
        Slot names; the piece that belongs in a slot has the same name.
    slots
        Facelet indices of each slot, in reading order.
    pieces
        Reading (face letters) -> (piece index, orientation) for every real piece.
    """

    kind: str
    orbit: str
    names: tuple[str, ...]
    slots: tuple[tuple[int, ...], ...]
    pieces: MappingProxyType

    def mirror_of(self, reading: str) -> int | None:
        """The piece whose mirror image ``reading`` is, when that is not itself a piece.

        A mirror image is the piece's letters read backwards; only corners can show one
        (a reversed edge or wing reading is itself a real piece).

        Parameters
        ----------
        reading
            Face letters read on a slot in its reading order, e.g. ``"UFR"``.

        Returns
        -------
        int or None
            Index of that piece in :attr:`names`, or None when ``reading`` is a real
            piece or the mirror image of none.

        Examples
        --------
        >>> slot_sets(3)[0].mirror_of("UFR")  # URF read anticlockwise
        0
        >>> slot_sets(3)[0].mirror_of("URF"), slot_sets(3)[0].mirror_of("UUF")
        (None, None)
        """
        if reading in self.pieces:
            return None
        hit = self.pieces.get(reading[::-1])
        return hit[0] if hit else None


@dataclass(frozen=True)
class CenterOrbit:
    """One orbit of interchangeable centre pieces (24 on cubes from 4x4 up).

    Attributes
    ----------
    orbit
        The orbit's name.
    facelets
        The stickers of its pieces (one each).
    """

    orbit: str
    facelets: tuple[int, ...]


def _wing_slot_sets(size: int) -> list[SlotSet]:
    geo = cube_geometry(size)
    name = geo.facelet_name
    sets = []
    for orbit in geo.orbits:
        if orbit.kind != "wing":
            continue
        slots, names, pieces = [], [], {}
        for number, piece_index in enumerate(orbit.pieces):
            piece = geo.pieces[piece_index]
            a, b = piece.facelets
            side = np.cross(geo.normals[a], geo.normals[b]) @ np.array(piece.position)
            order = (a, b) if side > 0 else (b, a)
            slots.append(order)
            names.append(f"{name(order[0])}/{name(order[1])}")
            reading = "".join(geo.pieces[piece_index].faces[piece.facelets.index(i)] for i in order)
            pieces[reading] = (number, 0)
        sets.append(
            SlotSet("wing", orbit.name, tuple(names), tuple(slots), MappingProxyType(pieces))
        )
    return sets


@cache
def slot_sets(size: int) -> tuple[SlotSet, ...]:
    """Every orbit of corner, middle-edge and wing slots of an N x N cube.

    Parameters
    ----------
    size
        N, 2..7.

    Returns
    -------
    tuple of SlotSet
        Corners first, then the middle edges (odd N >= 3), then each wing orbit.

    Examples
    --------
    >>> [s.orbit for s in slot_sets(5)]
    ['corners', 'edges', 'wings U2']
    """
    sets = [
        SlotSet("corner", "corners", CORNERS, corner_slots(size), MappingProxyType(corner_lookup()))
    ]
    if size % 2 and size >= 3:
        sets.append(
            SlotSet("edge", "edges", EDGES, edge_slots(size), MappingProxyType(edge_lookup()))
        )
    sets.extend(_wing_slot_sets(size))
    return tuple(sets)


@cache
def center_orbits(size: int) -> tuple[CenterOrbit, ...]:
    """The orbits of movable centre pieces (not the fixed centres of odd cubes).

    Parameters
    ----------
    size
        N, 2..7.

    Returns
    -------
    tuple of CentreOrbit
        ``(N - 2)**2 // 4`` orbits of 24 stickers each; none for N = 2 and 3.

    Examples
    --------
    >>> [(c.orbit, len(c.facelets)) for c in center_orbits(5)]
    [('centres U7', 24), ('centres U8', 24)]
    >>> len(center_orbits(3)), len(center_orbits(6))
    (0, 4)
    """
    geo = cube_geometry(size)
    return tuple(
        CenterOrbit(orbit.name, tuple(geo.pieces[p].facelets[0] for p in orbit.pieces))
        for orbit in geo.orbits
        if orbit.kind == "center" and len(orbit.pieces) == 24
    )
