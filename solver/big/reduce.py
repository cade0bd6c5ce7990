"""Reduce a 4x4x4 to 7x7x7 to the 3x3 it stands for.

Everything is read off the geometric model, so one code serves every size:

1. *Orientation.* The cube is relabelled by the whole-cube rotation that leaves the
   most centres in place (on an odd cube, the one that puts the fixed centres home);
   each centre sticker's target is then its face's colour.
2. *Centres* (:func:`solve_centers`). On a 4x4 and a 5x5, three table-driven phases
   (:mod:`cubescan.solver.big.center_phases`); else, or when those give up, a beam search
   (:func:`cubescan.solver.big.beam.beam_search`) over layer turns and inserts brings
   centres to their faces; three-cycles (:mod:`cubescan.solver.big.cycles`) finish
   each centre orbit, after one inner slice quarter turn for each wing orbit whose
   wings must make an odd permutation to reach their targets (OLL parity: a
   three-cycle is even).
3. *Edges* (:func:`pair_edges`). Each wing's target
   (:func:`~cubescan.solver.big.targets.wing_targets`) is the colours of its composite
   edge (PLL parity decided there, not repaired). A beam search over sequences that
   keep the centres home pairs wings; three-cycles finish each wing orbit.

Each stage is searched with the cube held in several orientations
(:mod:`cubescan.solver.big.orientations`), and the edges of the few shortest centre
answers are each paired (:data:`CENTRES_PAIRED`): the shortest total is kept.

Examples
--------
>>> from cubescan.solver.moves import apply_moves, solved_facelets
>>> reduced, stages = reduce_big(apply_moves(solved_facelets(5), "2R U 3F"))  # doctest: +SKIP
>>> [stage.name for stage in stages]  # doctest: +SKIP
['centers', 'edges']
"""

from __future__ import annotations

import time
from functools import cache

import numpy as np

from cubescan.solver.big.beam import MacroSet, beam_search, macro_set
from cubescan.solver.big.center_phases import PHASE_SIZES, solve_centers_by_phases
from cubescan.solver.big.cycles import CycleBook, cycle_books
from cubescan.solver.big.orientations import answers_in_orientations, shortest_in_orientations
from cubescan.solver.big.targets import (
    center_stickers,
    piece_orbits,
    piece_stickers,
    wing_permutation_is_odd,
    wing_targets,
)
from cubescan.solver.geometry import FACES, Orbit, cube_geometry, face_rotations
from cubescan.solver.moves import (
    Move,
    apply_moves,
    move_permutation,
    size_from_length,
)
from cubescan.solver.stages import SolveStage


def as_3x3(facelets: str) -> str:
    """The 3x3 a reduced N x N stands for: corners, one wing per edge, one centre per face.

    Parameters
    ----------
    facelets
        6*N*N facelets of a cube whose centres are solved and edges paired.

    Returns
    -------
    str
        54 facelets in the same alphabet: rows and columns 0, N // 2 and N - 1 of
        every face.

    Examples
    --------
    >>> from cubescan.solver.moves import solved_facelets
    >>> as_3x3(solved_facelets(6)) == solved_facelets(3)
    True
    """
    size = size_from_length(len(facelets))
    lines = (0, size // 2, size - 1)
    return "".join(
        facelets[face * size * size + row * size + col]
        for face in range(len(FACES))
        for row in lines
        for col in lines
    )


def _relabelled(facelets: str, size: int) -> str:
    """``facelets`` relabelled by the rotation leaving the most centre stickers in place.

    On an odd cube only the rotation that puts the fixed centres home is allowed.
    """
    per_face = size * size
    centers = center_stickers(size)
    home = np.array([FACES[i // per_face] for i in centers])
    views = [facelets.translate(str.maketrans(rotation)) for rotation in face_rotations()]
    if size % 2:
        middle = size // 2 * (size + 1)
        views = [v for v in views if all(v[f * per_face + middle] == FACES[f] for f in range(6))]
    return max(views, key=lambda text: int((np.array(list(text))[centers] == home).sum()))


def _parity_slice(size: int, orbit: Orbit) -> Move:
    """A quarter turn of an inner slice holding wings of ``orbit``."""
    stickers = {i for p in orbit.pieces for i in piece_stickers(size, p)}
    for layer in range(2, size):
        move = Move("R", layer, layer, 1)
        moved = np.flatnonzero(move_permutation(move, size) != np.arange(6 * size * size))
        if stickers & set(moved.tolist()):
            return move
    raise AssertionError(f"no slice moves {orbit.name}")


@cache
def _centre_turns(size: int) -> MacroSet:
    """Layer turns, and the centre builder's inserts: an inner slice or a wide block out,
    an outer turn, and back (or an outer turn around an inner slice).

    The layer turns are every single layer and every wide block (``Rw``, ``3Rw``); a wide
    insert (``3Rw U 3Rw'``) carries a bar of centres across several orbits at once, which
    a single slice's insert places one sticker at a time. Odd cubes' middle slices are
    left out: they would move the fixed centres. Each slice is counted from its nearer
    face, so no turn is listed twice.
    """
    limit = (size - 1) // 2 if size % 2 else size // 2
    single = [
        Move(face, layer, layer, turns)
        for face in FACES
        for layer in range(1, limit + 1)
        for turns in (1, 2, 3)
    ]
    wide = [
        Move(face, 1, last, turns)
        for face in FACES
        for last in range(2, limit + 1)
        for turns in (1, 2, 3)
    ]
    outer = [m for m in single if m.first == 1]
    inner = [m for m in single if m.first > 1 and m.turns != 2]
    sequences = [(m,) for m in single + wide]
    for block in inner + [m for m in wide if m.turns != 2]:
        sequences += [(block, o, block.inverse) for o in outer if o.axis != block.axis]
    sequences += [(o, s, o.inverse) for s in inner for o in outer if o.axis != s.axis]
    return macro_set(sequences, size)


@cache
def _wing_partners(size: int) -> tuple[np.ndarray, np.ndarray]:
    """Each wing's stickers, and the stickers on the same faces of its edge's reference
    piece: the middle edge (odd N) or the wing just past the middle (even N).

    A wing showing its reference's colours is paired, wherever the edge stands.
    """
    geo = cube_geometry(size)
    reference = {}
    for piece in geo.pieces:
        free = [v for v in piece.position if abs(v) != size - 1]
        if piece.kind == "edge" or (piece.kind == "wing" and size % 2 == 0 and free == [1]):
            reference[frozenset(piece.faces)] = dict(zip(piece.faces, piece.facelets, strict=True))
    wings, partners = [], []
    for piece in geo.pieces:
        if piece.kind == "wing":
            wings.append(piece.facelets)
            partners.append([reference[frozenset(piece.faces)][f] for f in piece.faces])
    return np.array(wings), np.array(partners)


CENTRE_WIDTH = {4: 50, 5: 200, 6: 100, 7: 100}
"""States the centre stage's beam search keeps per depth (:func:`solve_centers`), by N.

Wider keeps more partial solutions alive, for fewer moves at more time per depth. The
widths were chosen on a few random cubes per size so that a whole solve stays well
inside its time budget (``benchmarks/bench_nxn_solver.py`` measures the moves and times;
figures in ``docs/accuracy.md``). The 4x4 and 5x5 come here when their table-driven
phases give up, or find a short answer the beam may beat.
"""


def _parity_and_centres(text: str) -> list[Move]:
    """Moves that fix OLL parity and then solve every centre by three-cycles."""
    size = size_from_length(len(text))
    target = wing_targets(text)
    moves: list[Move] = []
    for orbit in piece_orbits(size, "wing"):
        if wing_permutation_is_odd(text, size, orbit, target):
            moves.append(_parity_slice(size, orbit))
            text = apply_moves(text, moves[-1:])
    return moves + _solve_orbits(text, "center", target)


def _solve_orbits(text: str, kind: str, target: np.ndarray) -> list[Move]:
    """Moves solving every orbit of ``kind`` ("center" or "wing") by three-cycles."""
    size = size_from_length(len(text))
    moves: list[Move] = []
    for orbit in piece_orbits(size, kind):
        text, found = solve_orbit(text, cycle_books(size)[orbit.name], target)
        moves += found
    return moves


def solve_centers(text: str, deadline: float | None = None) -> list[Move]:
    """Solve every centre of a big cube, leaving no wing orbit in OLL parity.

    A 4x4 or 5x5 (:data:`~cubescan.solver.big.center_phases.PHASE_SIZES`) is first solved in
    three table-driven phases (:mod:`cubescan.solver.big.center_phases`); the beam search
    below solves the cubes those give up on, and those they solve in at most
    :data:`FEW_CENTRE_MOVES` (the shorter answer is kept).

    A beam search (:func:`cubescan.solver.big.beam.beam_search`, width
    :data:`CENTRE_WIDTH`) over layer turns and inserts (:func:`_centre_turns`)
    brings centres to their faces while the cube is scrambled enough for plain turns
    to place several at once. At each depth the best states are finished: a slice
    quarter turn for each wing orbit whose wings must make an odd permutation to reach
    their targets (OLL parity; a three-cycle is even), then every centre orbit by
    three-cycles (:func:`solve_orbit`). The shortest total is kept.

    Parameters
    ----------
    text
        Facelets of a relabelled cube of size 4 to 7 (each face's letter is its
        centres' colour).
    deadline
        A ``time.monotonic()`` value past which the search stops deepening.

    Returns
    -------
    list of Move

    Examples
    --------
    >>> from cubescan.solver.moves import apply_moves, solved_facelets
    >>> scrambled = apply_moves(solved_facelets(5), "2R U 2L'")
    >>> moves = solve_centers(scrambled)
    >>> done = apply_moves(scrambled, moves)
    >>> len(moves) <= 4, all(done[i] == done[i // 25 * 25 + 12] for i in center_stickers(5))
    (True, True)
    """
    size = size_from_length(len(text))
    phased = solve_centers_by_phases(text) if size in PHASE_SIZES else None
    if phased is not None and len(phased) > FEW_CENTRE_MOVES:
        return phased
    centers = np.sort(center_stickers(size))
    wanted = np.frombuffer("".join(FACES[i // (size * size)] for i in centers).encode(), np.uint8)

    def on_face(states: np.ndarray) -> np.ndarray:
        return np.count_nonzero(states == wanted, axis=-1)

    macros = _centre_turns(size)
    width = CENTRE_WIDTH[size]
    found = beam_search(text, macros, centers, on_face, _parity_and_centres, width, deadline)
    return found if phased is None or len(found) < len(phased) else phased


FEW_CENTRE_MOVES = 12
"""Phased centres (:func:`~cubescan.solver.big.center_phases.solve_centers_by_phases`) this
short mean a cube a few turns from solved, where the beam search, which starts by undoing
turns, is quick and often shorter: both are run and the shorter kept."""

PAIRING_WIDTH = 50
"""States the edge pairing's beam search keeps per depth (:func:`pair_edges`)."""

PAIRING_PATIENCE = 4
"""Depths the edge pairing searches past the last one that shortened its best total.

Once a finish has shortened the total, a later one seldom does: on 60 random 4x4s the
edges took 29.5 moves with a patience of 3 to 8 (2: 29.8), and 0.125 s a search with 4
against 0.179 s with 8; six 6x6s, 96.5 moves either way, 1.02 s against 1.27 s.
"""

CENTRE_TRIES = {4: 6, 5: 6, 6: 1, 7: 1}
"""Orientations the centre stage is searched in, by N; the shortest is kept (see
:mod:`cubescan.solver.big.orientations`).

Each try costs a whole stage's time. A try of the table-driven phases takes about 0.04 s
at 4x4 and a tenth of a second at 5x5; six tries gave 16.3 centre moves against 18.4
for one at 4x4 (30 random cubes; twelve gave 16.2, 24 gave 15.7), and 29.8 against
31.9 at 5x5 (20 random cubes); at 6x6 and 7x7 the beam's centre stage alone takes most
of a solve's budget (``benchmarks/bench_nxn_solver.py`` measures moves and times;
figures in ``docs/accuracy.md``).
"""

CENTRES_PAIRED = {4: 4, 5: 3, 6: 1, 7: 1}
"""Centre answers, the shortest of those the :data:`CENTRE_TRIES` gave, whose edges are
paired, by N; the shortest centres and edges together are kept.

Which centre answer leaves the easiest edges is not seen from the centres: on the same
random cubes the shortest total came from the second or third shortest centres often
enough that three paired at 4x4 gave 44.6 centre and edge moves against 45.6 for one
(one edge try each instead of two, in about the same time), and 75.2 against 77.7 at
5x5 (0.7 s more). Whole solves (60 random 4x4s, 20 5x5s): at 4x4 three gave 63.4
moves, four 62.1, five 61.9, six 61.8 (median 0.66, 0.79, 0.91, 1.06 s); at 5x5 three
92.5, four 92.2 (2.07, 2.56 s). At 6x6 and 7x7 there is a single centre answer.
"""

EDGE_TRIES = {4: 1, 5: 1, 6: 2, 7: 1}
"""Orientations the edge pairing is searched in, by N (as :data:`CENTRE_TRIES`).

Two tries pay at 6x6, whose edge pairing's length varies most with the orientation. At
4x4 and 5x5 the time goes to pairing the edges of several centre answers instead
(:data:`CENTRES_PAIRED`, which gains more in the same time); at 7x7 a solve has no time
to spare.
"""


@cache
def _pairing_turns(size: int) -> MacroSet:
    """Sequences that keep every centre on its face: the outer turns, and an inner
    slice turn, then one outer turn or three (``a b a'``), then the slice back.

    The slice takes a wing out of its edge, the outer turns bring another edge
    beside it (turning it round or not), the slice puts the centres back: the way
    edges are paired by hand ("freeslice").
    """
    outer = [Move(face, 1, 1, turns) for face in FACES for turns in (1, 2, 3)]
    slices = [
        Move(face, layer, layer, turns)
        for face in FACES
        for layer in range(2, (size + 1) // 2 + 1)
        if not (size % 2 and layer == (size + 1) // 2 and face in "DLB")
        for turns in (1, 2, 3)
    ]
    middles = [(o,) for o in outer]
    middles += [(a, b, a.inverse) for a in outer if a.turns != 2 for b in outer if a.face != b.face]
    sequences = [(o,) for o in outer]
    sequences += [(s, *m, s.inverse) for s in slices for m in middles if m[0].face != s.face]
    # Keep those that leave every centre sticker on its own face.
    candidates = macro_set(sequences, size)
    centers = center_stickers(size)
    face = np.arange(6 * size * size) // (size * size)
    keep = (face[candidates.permutations[:, centers]] == face[centers]).all(axis=1)
    return MacroSet(
        tuple(seq for seq, kept in zip(sequences, keep, strict=True) if kept),
        candidates.permutations[keep],
        candidates.lengths[keep],
    )


def pair_edges(text: str, deadline: float | None = None) -> list[Move]:
    """Pair every edge of a cube whose centres are solved, keeping them solved.

    A beam search (:func:`cubescan.solver.big.beam.beam_search`, width
    :data:`PAIRING_WIDTH`) over the sequences of :func:`_pairing_turns` brings wings
    beside their edge's reference piece (:func:`_wing_partners`); three-cycles
    (:func:`solve_orbit`) finish the edges, and the search keeps whichever split of
    the work is shortest.

    Parameters
    ----------
    text
        Facelets of a relabelled cube of size 4 to 7 with every centre on its face and
        an even wing permutation in each orbit (no OLL parity).
    deadline
        A ``time.monotonic()`` value past which the search stops deepening (the
        three-cycles still finish).

    Returns
    -------
    list of Move
        Moves after which the edges are paired as :func:`wing_targets` requires.

    Examples
    --------
    >>> from cubescan.solver.moves import apply_moves, format_moves, solved_facelets
    >>> format_moves(pair_edges(apply_moves(solved_facelets(4), "2U R U R' 2U'")))
    "2U R U' R' 2U'"
    """
    size = size_from_length(len(text))
    wings, partners = _wing_partners(size)
    stickers = np.union1d(wings, partners)
    wings, partners = np.searchsorted(stickers, wings), np.searchsorted(stickers, partners)

    def paired(states: np.ndarray) -> np.ndarray:
        # Column by column: np.take on a 2-D array is several times faster than
        # fancy-indexing both sticker columns of every wing at once.
        same = [
            np.take(states, wings[:, k], -1) == np.take(states, partners[:, k], -1) for k in (0, 1)
        ]
        return np.count_nonzero(same[0] & same[1], axis=-1)

    def finish(end: str) -> list[Move]:
        return _solve_orbits(end, "wing", wing_targets(end))

    macros = _pairing_turns(size)
    return beam_search(
        text, macros, stickers, paired, finish, PAIRING_WIDTH, deadline, PAIRING_PATIENCE
    )


def solve_orbit(text: str, book: CycleBook, target: np.ndarray) -> tuple[str, list[Move]]:
    """Put every piece of one orbit in place, three at a time, greedily.

    Parameters
    ----------
    text
        Facelets of the cube.
    book
        The orbit's three-cycles (:func:`cubescan.solver.big.cycles.cycle_book`).
    target
        The colour each sticker must end with (:func:`wing_targets`); the orbit's
        colours must be a rearrangement of its targets, reachable by an even permutation.

    Returns
    -------
    tuple of (str, list of Move)
        The facelets with the orbit solved, and the moves that did it.

    Examples
    --------
    >>> from cubescan.solver.moves import apply_moves, solved_facelets
    >>> text = apply_moves(solved_facelets(5), "2R U 2L' U' 2R' U 2L U'")  # 3 centres moved
    >>> book = cycle_books(5)["centres U7"]
    >>> solved, moves = solve_orbit(text, book, wing_targets(solved_facelets(5)))
    >>> solved == solved_facelets(5), len(moves)
    (True, 10)
    """
    state = np.frombuffer(text.encode(), dtype=np.uint8).copy()
    codes = np.array([ord(letter) if letter else 0 for letter in target], dtype=np.uint8)
    wanted = codes[book.targets]
    lengths = book.lengths
    moves: list[Move] = []
    while True:
        placed = (state[book.targets] == wanted).all(axis=2)
        if placed.all():
            break
        gain = (state[book.sources] == wanted).all(axis=2).sum(axis=1) - placed.sum(axis=1)
        best = int(np.lexsort((lengths, -gain))[0])
        if gain[best] <= 0:
            raise AssertionError(f"no three-cycle helps {book.orbit}: not an even permutation")
        after = state.copy()
        after[book.targets[best]] = state[book.sources[best]]
        state = after
        moves += book.moves[best]
    return state.tobytes().decode(), moves


def reduce_big(facelets: str, deadline: float | None = None) -> tuple[str, list[SolveStage]]:
    """Solve the centres and pair the edges of a valid 4x4x4 to 7x7x7.

    Parameters
    ----------
    facelets
        6*N*N facelets of a cube that passed validation.
    deadline
        A ``time.monotonic()`` value past which the centre and edge searches stop
        deepening (three-cycles still finish each).

    Returns
    -------
    tuple of (str, list of SolveStage)
        The reduced cube's facelets (same alphabet), and the stages ``"centers"`` (with
        the parity slice turns) and ``"edges"``.

    Examples
    --------
    >>> from cubescan.solver.moves import apply_moves, solved_facelets
    >>> reduced, stages = reduce_big(apply_moves(solved_facelets(5), "2R U"))  # doctest: +SKIP
    >>> as_3x3(reduced) == apply_moves(solved_facelets(3), "U")  # doctest: +SKIP
    True
    """
    size = size_from_length(len(facelets))
    text = _relabelled(facelets, size)
    answers = answers_in_orientations(solve_centers, text, CENTRE_TRIES[size], deadline)
    # Shortest first; the same answer from two orientations is paired once.
    distinct = list({tuple(moves): moves for moves in sorted(answers, key=len)}.values())
    paired = []
    for centers in distinct[: CENTRES_PAIRED[size]]:
        if paired and deadline is not None and time.monotonic() > deadline:
            break
        after = apply_moves(text, centers)
        edges = shortest_in_orientations(pair_edges, after, EDGE_TRIES[size], deadline)
        paired.append((centers, edges))
    centers, edges = min(paired, key=lambda pair: len(pair[0]) + len(pair[1]))
    reduced = apply_moves(facelets, [*centers, *edges])
    return reduced, [SolveStage("centers", tuple(centers)), SolveStage("edges", tuple(edges))]
