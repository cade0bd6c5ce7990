"""Three-cycles of the centres and wings of a big cube, found as commutators.

A commutator ``X Y X' Y'`` moves only the pieces that ``X`` and ``Y`` both disturb. With
``X`` one inner slice quarter turn and ``Y`` chosen so that it takes exactly one piece
out of ``X``'s slice and brings one back, exactly three pieces move and everything else
stays put: a pure three-cycle. Two kinds are searched, for every size alike:

- centres: ``Y = O s O'``, an outer turn ``O`` around an inner slice quarter turn ``s``
  (the classic ``r U l' U' r' U l U'``);
- wings: ``Y`` one to three outer turns (a wing leaves ``X``'s slice and comes back).

Every such commutator that is pure is then conjugated by a short setup (one layer turn,
or one and an outer turn), which moves the same three-cycle onto other pieces of the
orbit, and the shortest sequence for each three-cycle is kept. The few three-cycles no
conjugate reaches are written as products of two that are known. Everything is derived
from the sticker permutations of the geometric model
(:func:`cubescan.solver.moves.move_permutation`): no size has a table of its own.

Examples
--------
>>> book = cycle_book(5, "centres U7")
>>> book.n_cycles, book.sources.shape[1:]
(4048, (3, 1))
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import permutations, product

import numpy as np

from cubescan.solver.cache import load_or_build
from cubescan.solver.geometry import FACES, cube_geometry
from cubescan.solver.moves import Move, invert_moves, move_permutation, sequence_permutation
from cubescan.solver.tables import progress_reporter

MAX_Y_OUTER = 3
"""Longest run of outer turns tried as the ``Y`` of a wing commutator."""

BOOK_VERSION = 3
"""Version of the cached cycle books; bump it when their layout or content changes."""


@dataclass(frozen=True, eq=False)
class CycleBook:
    """The three-cycles known for one orbit of pieces.

    Attributes
    ----------
    orbit
        The orbit's name, as in :attr:`cubescan.solver.geometry.CubeGeometry.orbits`.
    sources, targets
        Shape (n_cycles, 3, stickers per piece): cycle ``i`` carries the sticker at
        ``sources[i, p, s]`` to ``targets[i, p, s]``; ``targets[i, p]`` are the stickers
        of the ``p``-th piece position the cycle fills.
    moves
        The sequence making each cycle.
    """

    orbit: str
    sources: np.ndarray
    targets: np.ndarray
    moves: tuple[tuple[Move, ...], ...]

    @property
    def n_cycles(self) -> int:
        """How many distinct three-cycles the book holds."""
        return len(self.moves)

    @cached_property
    def lengths(self) -> np.ndarray:
        """Length of each cycle's sequence, in moves (computed once).

        Returns
        -------
        numpy.ndarray
            One int per cycle.

        Examples
        --------
        >>> int(cycle_book(5, "centres U7").lengths.min())
        8
        """
        return np.array([len(m) for m in self.moves])


def _inner_slices(size: int) -> list[Move]:
    """Every single inner layer quarter turn, each slice named from its nearer face.

    An odd cube's middle slice is named from U, R and F only (``3D`` is ``3U'``).
    """
    middle = (size + 1) // 2 if size % 2 else None
    return [
        Move(face, layer, layer, turns)
        for face in FACES
        for layer in range(2, size // 2 + 1 + (size % 2))
        if layer != middle or face in "URF"
        for turns in (1, 3)
    ]


def _outer_runs(max_length: int) -> list[tuple[Move, ...]]:
    """Outer-turn sequences of 1..max_length moves, no face turned twice in a row."""
    outer = [Move(face, 1, 1, turns) for face in FACES for turns in (1, 2, 3)]
    out = []
    for length in range(1, max_length + 1):
        for seq in product(outer, repeat=length):
            if all(seq[i].face != seq[i + 1].face for i in range(length - 1)):
                out.append(seq)
    return out


def _setups(size: int) -> list[tuple[Move, ...]]:
    """Conjugating sequences: none, one single-layer turn, or one then an outer turn.

    Layers up to the middle suffice: a layer counted from the far face is the same turn.
    """
    single = [
        Move(face, layer, layer, turns)
        for face in FACES
        for layer in range(1, size // 2 + 1)
        for turns in (1, 2, 3)
    ]
    outer = [move for move in single if move.first == 1]
    out: list[tuple[Move, ...]] = [()]
    out += [(m,) for m in single]
    out += [(a, b) for a in single for b in outer if a.face != b.face]
    return out


def _y_sequences(kind: str, size: int) -> list[tuple[Move, ...]]:
    if kind == "wing":
        return _outer_runs(MAX_Y_OUTER)
    return [(o, s, o.inverse) for (o,) in _outer_runs(1) for s in _inner_slices(size)]


def _pure_commutators(
    size: int, kind: str, sticker_piece: np.ndarray, stickers_per_piece: int
) -> list[tuple[tuple[Move, ...], np.ndarray]]:
    """(sequence, permutation) of every commutator moving three pieces of one orbit only.

    ``sticker_piece`` numbers the orbit's stickers by piece and is -1 elsewhere.
    """
    identity = np.arange(6 * size * size)
    ys = _y_sequences(kind, size)
    y_perms = np.array([sequence_permutation(y, size) for y in ys])
    y_inverse = np.argsort(y_perms, axis=1)
    found = []
    for x in _inner_slices(size):
        px = move_permutation(x, size)
        px_inverse = np.argsort(px)
        # total[t] = px[py[px'[py'[t]]]]: X first, then Y, X', Y'.
        inner = px_inverse[y_inverse]
        total = px[np.take_along_axis(y_perms, inner, axis=1)]
        moved = total != identity
        counts = moved.sum(axis=1)
        for row in np.flatnonzero(counts == 3 * stickers_per_piece):
            where = np.flatnonzero(moved[row])
            if (sticker_piece[where] >= 0).all():
                seq = (x, *ys[row], x.inverse, *invert_moves(ys[row]))
                found.append((seq, total[row]))
    return found


def cycle_book(size: int, orbit: str) -> CycleBook:
    """Every three-cycle of ``orbit``'s pieces reachable as a short conjugated commutator.

    Parameters
    ----------
    size
        N, 4 to 7.
    orbit
        A centre or wing orbit's name (``"centres U7"``, ``"wings U2"``...).

    Returns
    -------
    CycleBook
        For each three-cycle of the orbit's piece positions, the shortest sequence found.

    Examples
    --------
    >>> book = cycle_book(6, "wings U3")  # built: about 2 s
    >>> book.n_cycles, int(book.lengths.min())
    (4048, 8)
    """
    geo = cube_geometry(size)
    members = next(o for o in geo.orbits if o.name == orbit)
    stickers = np.array([geo.pieces[p].facelets for p in members.pieces])
    sticker_piece = np.full(6 * size * size, -1)
    sticker_piece[stickers] = np.arange(len(stickers))[:, None]
    commutators = _pure_commutators(size, members.kind, sticker_piece, stickers.shape[1])
    perms = np.array([total for _, total in commutators])
    moved_targets = np.array([np.flatnonzero(row != np.arange(len(row))) for row in perms])
    moved_sources = np.take_along_axis(perms, moved_targets, axis=1)
    setups = _setups(size)
    setup_perms = np.array([sequence_permutation(setup, size) for setup in setups])
    # Conjugating by S moves the cycle's positions: the sticker S takes to a moved
    # position q is the one the commutator moves, and S' brings it back: q -> S(q).
    targets = setup_perms[:, moved_targets].reshape(-1, moved_targets.shape[1])
    sources = setup_perms[:, moved_sources].reshape(-1, moved_targets.shape[1])
    lengths = (
        np.array([len(s) for s in setups])[:, None] * 2 + [len(seq) for seq, _ in commutators]
    ).ravel()
    keys = _cycle_keys(sticker_piece[sources], sticker_piece[targets], len(stickers))
    by_length = np.argsort(lengths, kind="stable")
    keys, first = np.unique(keys[by_length], return_index=True)
    book: dict[tuple[int, int, int], tuple[Move, ...]] = {}
    for key, row in zip(keys.tolist(), by_length[first].tolist(), strict=True):
        setup, (seq, _) = setups[row // len(commutators)], commutators[row % len(commutators)]
        a, rest = divmod(key, len(stickers) ** 2)
        book[(a, *divmod(rest, len(stickers)))] = (*setup, *seq, *invert_moves(setup))
    _fill_with_products(book, len(stickers))
    return _as_book(orbit, size, book, stickers, sticker_piece)


def _cycle_keys(source_pieces: np.ndarray, target_pieces: np.ndarray, n: int) -> np.ndarray:
    """Each row's three-cycle ``(a, b, c)`` (see :func:`_canonical`) as ``(a * n + b) * n + c``.

    Row ``i`` carries the piece in ``source_pieces[i, j]`` to ``target_pieces[i, j]``
    (a piece's stickers all go the same way).
    """
    rows = np.arange(len(source_pieces))
    a = target_pieces.min(axis=1)
    b = target_pieces[rows, np.argmax(source_pieces == a[:, None], axis=1)]
    c = target_pieces[rows, np.argmax(source_pieces == b[:, None], axis=1)]
    return (a.astype(np.int64) * n + b) * n + c


def _canonical(goes_to: dict) -> tuple[int, int, int]:
    """A three-cycle as ``(a, b, c)``, a the smallest piece: a goes to b, b to c, c to a."""
    a = min(goes_to)
    return (int(a), int(goes_to[a]), int(goes_to[goes_to[a]]))


def _fill_with_products(book: dict[tuple[int, int, int], tuple[Move, ...]], n: int) -> None:
    """Add each three-cycle the commutators missed as a product of two known ones.

    ``a -> b -> c`` is ``a -> b -> d`` followed by ``a -> d -> c``, for any fourth piece
    ``d``: the shortest such product is kept.
    """

    def known(x: int, y: int, z: int) -> tuple[Move, ...] | None:
        return book.get(_canonical({x: y, y: z, z: x}))

    for a, b, c in permutations(range(n), 3):
        if a > b or a > c or (a, b, c) in book:
            continue
        products = []
        for d in set(range(n)) - {a, b, c}:
            first, second = known(a, b, d), known(a, d, c)
            if first is not None and second is not None:
                products.append(first + second)
        if products:
            book[(a, b, c)] = min(products, key=len)


def _as_book(
    orbit: str,
    size: int,
    book: dict[tuple[int, int, int], tuple[Move, ...]],
    stickers: np.ndarray,
    sticker_piece: np.ndarray,
) -> CycleBook:
    """The cycles as arrays, read off each sequence's own sticker permutation."""
    moves, sources, targets = [], [], []
    for (a, b, c), seq in sorted(book.items()):
        perm = sequence_permutation(seq, size)
        by_piece = stickers[[b, c, a]]
        assert set(sticker_piece[perm[by_piece]].ravel()) == {a, b, c}
        moves.append(seq)
        targets.append(by_piece)
        sources.append(perm[by_piece])
    return CycleBook(orbit, np.array(sources), np.array(targets), tuple(moves))


def cycled_orbits(size: int) -> tuple[str, ...]:
    """Names of the orbits the three-cycles solve: every centre and wing orbit of 24.

    Parameters
    ----------
    size
        N, 4 to 7.

    Returns
    -------
    tuple of str
        Centre orbits first, in the geometric model's order, then wing orbits.

    Examples
    --------
    >>> cycled_orbits(5)
    ('centres U7', 'centres U8', 'wings U2')
    """
    orbits = cube_geometry(size).orbits
    return tuple(
        o.name
        for kind in ("center", "wing")
        for o in orbits
        if o.kind == kind and len(o.pieces) == 24
    )


def _move_code(move: Move) -> int:
    return ((FACES.index(move.face) * 8 + move.first) * 8 + move.last) * 4 + move.turns


def _code_move(code: int) -> Move:
    rest, turns = divmod(code, 4)
    rest, last = divmod(rest, 8)
    face, first = divmod(rest, 8)
    return Move(FACES[face], first, last, turns)


def _build_books(size: int, progress: bool) -> dict[str, np.ndarray]:
    out = {}
    names = cycled_orbits(size)
    with progress_reporter(progress, len(names)) as advance:
        for index, name in enumerate(names):
            book = cycle_book(size, name)
            codes = np.full((book.n_cycles, int(book.lengths.max())), -1, dtype=np.int16)
            for row, seq in enumerate(book.moves):
                codes[row, : len(seq)] = [_move_code(m) for m in seq]
            out[f"{index}-sources"] = book.sources.astype(np.int16)
            out[f"{index}-targets"] = book.targets.astype(np.int16)
            out[f"{index}-moves"] = codes
            advance(f"{size}x{size} {name}")
    return out


@cache
def cycle_books(size: int) -> dict[str, CycleBook]:
    """Every cycled orbit's book: read from the cache, or built and cached on first use.

    A build shows a progress bar when stderr is a terminal. The books are kept for the
    process, so each size is read once.

    Parameters
    ----------
    size
        N, 4 to 7.

    Returns
    -------
    dict of str to CycleBook
        By orbit name (see :func:`cycled_orbits`).

    Examples
    --------
    >>> sorted(cycle_books(5))  # doctest: +SKIP
    ['centres U7', 'centres U8', 'wings U2']
    """
    progress = sys.stderr.isatty()
    names = cycled_orbits(size)
    arrays = load_or_build(
        f"cycles-{size}x{size}",
        BOOK_VERSION,
        lambda: _build_books(size, progress),
        frozenset(
            f"{i}-{part}" for i in range(len(names)) for part in ("sources", "targets", "moves")
        ),
    )
    books = {}
    for index, name in enumerate(names):
        codes = arrays[f"{index}-moves"]
        moves = tuple(tuple(_code_move(int(c)) for c in row if c >= 0) for row in codes)
        books[name] = CycleBook(
            name,
            arrays[f"{index}-sources"].astype(np.intp),
            arrays[f"{index}-targets"].astype(np.intp),
            moves,
        )
    return books
