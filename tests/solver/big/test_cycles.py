"""Three-cycles of the big cubes' centre and wing orbits: all of them, each one pure."""

from __future__ import annotations

import numpy as np
import pytest

from cubescan.solver.big.cycles import cycle_book, cycle_books, cycled_orbits
from cubescan.solver.geometry import cube_geometry
from cubescan.solver.moves import sequence_permutation


@pytest.mark.parametrize("size", [5, 6, 7])
def test_every_three_cycle_of_every_orbit_is_known_and_pure(size, table_cache):
    books = cycle_books(size)
    geo = cube_geometry(size)
    assert sorted(books) == sorted(cycled_orbits(size))
    rng = np.random.default_rng(size)
    for name, book in books.items():
        orbit = next(o for o in geo.orbits if o.name == name)
        stickers = {i for p in orbit.pieces for i in geo.pieces[p].facelets}
        # 24 pieces: 24 * 23 * 22 / 3 three-cycles, each found once.
        moved = {
            tuple(sorted(zip(t.ravel(), s.ravel(), strict=True)))
            for s, t in zip(book.sources, book.targets, strict=True)
        }
        assert book.n_cycles == len(moved) == 4048
        for row in rng.choice(book.n_cycles, 60, replace=False):
            perm = sequence_permutation(book.moves[row], size)
            changed = np.flatnonzero(perm != np.arange(len(perm)))
            targets = book.targets[row].ravel()
            assert sorted(changed) == sorted(targets) and set(targets) <= stickers
            assert (perm[targets] == book.sources[row].ravel()).all()


def test_a_book_read_from_the_cache_is_the_one_built(table_cache):
    built = cycle_book(5, "centres U7")
    cached = cycle_books(5)["centres U7"]
    assert built.moves == cached.moves
    assert (built.sources == cached.sources).all() and (built.targets == cached.targets).all()
    assert built.lengths.min() >= 8 and built.lengths.mean() < 12
