"""Every way to place six face photos on a cube, and the broken pieces of each, at once.

A placement puts each photo on a face, turned by some quarter turns. Odd N: the face shown by
the first candidate for U (the white-centered photo, else the first) is held fixed; the other
five photos are tried on the five other faces (120 ways), every photo in each of its four
rotations: 120 x 4^6 placements. Even N: the first photo is held as U in its own rotation.
Every corner, edge and wing slot is read for all placements at once, as arrays: a slot's
reading depends only on the two or three faces it touches, so each group of slots is read
over those faces' rotations (4 x 4 or 4 x 4 x 4 per assignment) and the counts are
broadcast over the rest (:func:`count_placements`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import permutations

import numpy as np

from cubescan.solver.facelets import STANDARD_SCHEME
from cubescan.solver.geometry import FACES
from cubescan.solver.slots import slot_sets

# Faces in the order they are placed: each new face completes as many pieces as possible.
PLACEMENT_ORDER = "UFRBLD"


@dataclass(frozen=True)
class Placement:
    """Where one photo went: the face it shows and the clockwise quarter turns applied.

    Attributes
    ----------
    photo
        Index of the photo in the input.
    face
        The face letter (URFDLB) in the final orientation.
    quarter_turns
        Clockwise quarter turns (0-3) that bring the photo to the net orientation.
    """

    photo: int
    face: str
    quarter_turns: int


def rotate_face(symbols: str, size: int, quarter_turns: int) -> str:
    """Turn one face's N*N symbols (row-major) clockwise by ``quarter_turns``.

    Parameters
    ----------
    symbols
        The face's N*N one-character symbols, row-major from the top.
    size
        N.
    quarter_turns
        Clockwise quarter turns (any integer; negative turns counter-clockwise).

    Returns
    -------
    str
        The turned face's symbols, row-major.

    Examples
    --------
    >>> rotate_face("abcd", 2, 1)
    'cadb'
    """
    grid = np.array(list(symbols)).reshape(size, size)
    return "".join(np.rot90(grid, -quarter_turns).ravel())


@cache
def _slot_groups(size: int, faces: str) -> tuple[tuple[int, tuple[int, ...], np.ndarray], ...]:
    """The slots whose stickers all lie on ``faces``, grouped by the faces they touch.

    Returns triples (index into ``slot_sets(size)``, the positions in ``faces`` of the
    faces each sticker lies on, an (n, width) array of the stickers' cells on their faces).
    """
    per_face = size * size
    groups: dict[tuple[int, tuple[int, ...]], list[list[int]]] = {}
    for number, slot_set in enumerate(slot_sets(size)):
        for slot in slot_set.slots:
            on = tuple(FACES[i // per_face] for i in slot)
            if all(face in faces for face in on):
                key = (number, tuple(faces.index(face) for face in on))
                groups.setdefault(key, []).append([i % per_face for i in slot])
    return tuple((number, axes, np.array(cells)) for (number, axes), cells in groups.items())


@cache
def _piece_tables(size: int) -> tuple[np.ndarray, ...]:
    """Per orbit, whether face indices (0-5 = URFDLB, 6 = no face) read as a real piece."""
    tables = []
    for slot_set in slot_sets(size):
        width = len(slot_set.slots[0])
        table = np.zeros((7,) * width, dtype=bool)
        for reading in slot_set.pieces:
            table[tuple(FACES.index(face) for face in reading)] = True
        tables.append(table)
    return tuple(tables)


@dataclass(frozen=True)
class BrokenPieces:
    """Broken pieces for every assignment of photos to faces and every rotation.

    Attributes
    ----------
    total
        (assignments, len(turns[0]), len(turns[1]), ...) slots that do not read as a
        real piece, over the slots whose faces are all placed.
    groups
        Per group of slots on the same faces: (orbit, the grid axes of those faces in
        increasing order, the group's broken slots over the assignment and those axes).
    """

    total: np.ndarray
    groups: tuple[tuple[int, tuple[int, ...], np.ndarray], ...]

    def orbits(self, cells: np.ndarray) -> np.ndarray:
        """How many orbits have a broken piece, at each of the grid's flat ``cells``.

        Parameters
        ----------
        cells
            Flat indices into :attr:`total`.

        Returns
        -------
        numpy.ndarray
            Per cell, the number of orbits (corners, edges, each wing orbit...) with at least
            one broken piece.

        Examples
        --------
        >>> readings = ("W" * 4, "R" * 4, "G" * 4, "Y" * 4, "O" * 4, "B" * 4)
        >>> broken = count_placements(readings, 2).broken
        >>> broken.orbits(np.flatnonzero(broken.total == 0)[:1]).tolist()
        [0]
        """
        where = np.unravel_index(cells, self.total.shape)
        per_orbit: dict[int, np.ndarray] = {}
        for orbit, axes, counts in self.groups:
            at = counts[(where[0], *(where[1 + axis] for axis in axes))]
            per_orbit[orbit] = per_orbit.get(orbit, 0) + at
        return sum((counts > 0).astype(int) for counts in per_orbit.values())


def _spread(counts: np.ndarray, axes: tuple[int, ...], onto: tuple[int, ...]) -> np.ndarray:
    """``counts`` over the assignment and ``axes``, shaped to broadcast over ``onto``."""
    shape = [counts.shape[0]] + [1] * len(onto)
    for k, axis in enumerate(axes):
        shape[1 + onto.index(axis)] = counts.shape[1 + k]
    return counts.reshape(shape)


def broken_pieces_grid(
    size: int,
    faces: str,
    photo_of: np.ndarray,
    codes: np.ndarray,
    face_of_color: np.ndarray,
    turns: Sequence[Sequence[int]],
) -> BrokenPieces:
    """Broken pieces for every assignment of photos and every rotation at once.

    Parameters
    ----------
    size
        N.
    faces
        The faces placed (grid axes after the assignment axis), e.g. ``"UFRBLD"``.
    photo_of
        (assignments, len(faces)) the photo placed on each face, per assignment.
    codes
        (photos, 4, N*N) each photo's colour codes, turned 0-3 quarter turns.
    face_of_colour
        (assignments, colours) the face index (0-5, 6 for none) each colour code names.
    turns
        Per face, the quarter turns tried (a grid axis of that length).

    Returns
    -------
    BrokenPieces

    Examples
    --------
    >>> readings = ("W" * 4, "R" * 4, "G" * 4, "Y" * 4, "O" * 4, "B" * 4)
    >>> codes = color_codes(readings, 2, "WRGYOB")
    >>> photo_of = np.array([[0, 2, 1, 5, 4, 3]])  # photo k on its own face, PLACEMENT_ORDER
    >>> face_of_color = np.array([[0, 1, 2, 3, 4, 5, 6]])  # color k names face k
    >>> grid = broken_pieces_grid(2, PLACEMENT_ORDER, photo_of, codes, face_of_color, [[0]] * 6)
    >>> grid.total.shape, int(grid.total.sum())
    ((1, 1, 1, 1, 1, 1, 1), 0)
    """
    assignments = len(photo_of)
    tables = _piece_tables(size)
    groups = []
    for number, axes, cells in _slot_groups(size, faces):
        width = len(axes)
        # One index array per sticker, each turning along its own face's axis.
        index = [np.arange(assignments).reshape(-1, *[1] * width, 1)]
        for j, axis in enumerate(axes):
            sticker = codes[photo_of[:, axis]][:, list(turns[axis])][:, :, cells[:, j]]
            color_shape = [assignments] + [1] * width + [len(cells)]
            color_shape[1 + j] = len(turns[axis])
            index.append(face_of_color[index[0], sticker.reshape(color_shape)])
        broken = np.count_nonzero(~tables[number][tuple(index[1:])], axis=-1).astype(np.int8)
        order = np.argsort(axes)
        groups.append((number, tuple(sorted(axes)), broken.transpose(0, *(1 + order))))
    # Sum small first: each group into a block over a superset of its faces (an edge into
    # a corner's block), then the few blocks into the whole grid.
    blocks: dict[tuple[int, ...], np.ndarray] = {}
    for _, axes, counts in sorted(groups, key=lambda group: -len(group[1])):
        host = next((block for block in blocks if set(axes) <= set(block)), None)
        if host is None:
            blocks[axes] = counts.copy()
        else:
            blocks[host] += _spread(counts, axes, host)
    everything = tuple(range(len(faces)))
    total = np.zeros((assignments, *(len(t) for t in turns)), dtype=np.int8)
    for axes, counts in blocks.items():
        total += _spread(counts, axes, everything)
    return BrokenPieces(total, tuple(groups))


def color_codes(readings: Sequence[str], size: int, colors: str) -> np.ndarray:
    """Each photo's symbols, turned 0-3 quarter turns, as indices into ``colors``.

    Parameters
    ----------
    readings
        Each photo's N*N symbols, row-major.
    size
        N.
    colors
        The symbols in code order.

    Returns
    -------
    numpy.ndarray
        (photos, 4, N*N) codes; ``len(colors)`` for a symbol not among ``colors``.

    Examples
    --------
    >>> color_codes(["WRGY"], 2, "WRG")[0].tolist()
    [[0, 1, 2, 3], [2, 0, 3, 1], [3, 2, 1, 0], [1, 3, 0, 2]]
    """
    code = {symbol: i for i, symbol in enumerate(colors)}
    return np.array(
        [
            [[code.get(s, len(colors)) for s in rotate_face(r, size, k)] for k in range(4)]
            for r in readings
        ]
    )


@dataclass(frozen=True)
class Candidate:
    broken: int
    letters: str  # the cube in the user's symbols, facelet order, as placed
    placements: tuple[Placement, ...]


@dataclass(frozen=True)
class Placings:
    """Every placement of the six photos, with the broken pieces of each, per orbit."""

    readings: tuple[str, ...]
    size: int
    photo_of: np.ndarray  # (assignments, 6) photo on each face of PLACEMENT_ORDER
    turns: tuple[tuple[int, ...], ...]  # per face of PLACEMENT_ORDER, the turns tried
    broken: BrokenPieces

    def candidates(self, cells: np.ndarray) -> list[Candidate]:
        """The placements at the grid's flat ``cells``, as cubes.

        Parameters
        ----------
        cells
            Flat indices into ``broken.total``, in increasing order.

        Returns
        -------
        list of Candidate
            In search order (assignment, then U's, F's, ... turns); of placements giving the
            same cube, only the first is kept.

        Examples
        --------
        >>> readings = ("W" * 4, "R" * 4, "G" * 4, "Y" * 4, "O" * 4, "B" * 4)
        >>> placings = count_placements(readings, 2)
        >>> found = placings.candidates(np.flatnonzero(placings.broken.total == 0))
        >>> [c.letters[4:8] for c in found]  # a solved 2x2 held by U, turned four ways
        ['BBBB', 'RRRR', 'GGGG', 'OOOO']
        """
        per_face = self.size * self.size
        rotated = [[rotate_face(r, self.size, k) for k in range(4)] for r in self.readings]
        # A face that looks the same turned (a plain face) is taken in its fewest turns:
        # drop the other cells at once, there can be hundreds of thousands of them.
        repeats = np.array([[r[k] in r[:k] for k in range(4)] for r in rotated])
        where = np.unravel_index(cells, self.broken.total.shape)
        first = np.ones(len(cells), dtype=bool)
        for k, turns in enumerate(self.turns):
            first &= ~repeats[self.photo_of[where[0], k], np.asarray(turns)[where[1 + k]]]
        found: dict[str, Candidate] = {}
        for flat in cells[first]:
            assignment, *steps = np.unravel_index(flat, self.broken.total.shape)
            placed = [
                Placement(int(self.photo_of[assignment, k]), face, self.turns[k][steps[k]])
                for k, face in enumerate(PLACEMENT_ORDER)
            ]
            letters = ["?"] * (6 * per_face)
            for p in placed:
                start = FACES.index(p.face) * per_face
                letters[start : start + per_face] = rotated[p.photo][p.quarter_turns]
            symbols = "".join(letters)
            if symbols not in found:
                found[symbols] = Candidate(
                    int(self.broken.total.flat[flat]), symbols, tuple(placed)
                )
        return list(found.values())


@lru_cache(maxsize=4)
def count_placements(readings: tuple[str, ...], size: int) -> Placings:
    """The broken pieces of every placement of the photos (see the module's notes).

    The first candidate for U stays on U; the other five photos take the five other faces
    in each of the 120 orders, every photo in each of its four rotations (even N: U's
    photo only as taken). Every slot is read for every placement at once, as arrays.
    Cached, so that assembly's soundness check and its search read the slots once.

    Parameters
    ----------
    readings
        The six photos' N*N color symbols, row-major as each photo shows its face.
    size
        N.

    Returns
    -------
    Placings

    Examples
    --------
    >>> readings = ("W" * 9, "R" * 9, "G" * 9, "Y" * 9, "O" * 9, "B" * 9)
    >>> total = count_placements(readings, 3).broken.total
    >>> total.shape, int((total == 0).sum())  # one-color faces: every placement is sound
    ((120, 4, 4, 4, 4, 4, 4), 491520)
    """
    per_face = size * size
    odd = size % 2 == 1
    if odd:
        centers = "".join(r[per_face // 2] for r in readings)
        anchor = centers.index("W") if "W" in centers else 0
        anchor_turns: tuple[int, ...] = (0, 1, 2, 3)
    else:
        centers = "".join(STANDARD_SCHEME)
        anchor, anchor_turns = 0, (0,)
    others = [p for p in range(6) if p != anchor]
    photo_of = np.array([(anchor, *order) for order in permutations(others)])
    face_index = [FACES.index(face) for face in PLACEMENT_ORDER]
    if odd:
        # A colour names the face its centre's photo is placed on.
        face_of_color = np.full((len(photo_of), 7), 6)
        face_of_color[np.arange(len(photo_of))[:, None], photo_of] = face_index
    else:
        standard = [FACES.index(STANDARD_SCHEME[c]) for c in centers] + [6]
        face_of_color = np.tile(standard, (len(photo_of), 1))
    turns = (anchor_turns, *[(0, 1, 2, 3)] * 5)
    codes = color_codes(readings, size, centers)
    broken = broken_pieces_grid(size, PLACEMENT_ORDER, photo_of, codes, face_of_color, turns)
    return Placings(tuple(readings), size, photo_of, turns, broken)
