"""Pruning tables of the 4x4 reduction: built once by breadth-first search, cached.

Each table gives, for every value of one coordinate of :mod:`cubescan.solver.four.phases`,
the exact number of its phase's moves needed to reach a goal value. The search is
compiled with numba and walks the coordinates directly (unrank, turn, rank), so no
move table is ever held. The arrays are kept by :mod:`cubescan.solver.cache` (versioned,
checksummed, written atomically, rebuilt when corrupt) under :data:`TABLE_NAME`, and
a build shows a rich progress bar on a terminal, as the 3x3 tables do.

Examples
--------
>>> table_path().name
'four-tables-v3.npz'
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import numba
import numpy as np

from cubescan.solver.cache import cache_path, load_or_build
from cubescan.solver.four.coords import Pattern, label_pattern, rank, unrank
from cubescan.solver.four.model import slot_permutation, solved_pieces
from cubescan.solver.four.phases import moves_of, patterns
from cubescan.solver.tables import progress_reporter

TABLE_NAME = "four-tables"
TABLE_VERSION = 3
"""Bump when a table's layout or meaning changes; old cache files are then ignored."""

UNSEEN = 255


def table_path() -> Path:
    """Path of the versioned 4x4 table file in the cache folder.

    Returns
    -------
    pathlib.Path
        ``four-tables-v{TABLE_VERSION}.npz``; the file may not exist yet.

    Examples
    --------
    >>> table_path().suffix
    '.npz'
    """
    return cache_path(TABLE_NAME, TABLE_VERSION)


@numba.njit(cache=True)
def _bfs_level(
    depth, level, perms, slots, label_of, group_ends, counts, radix, n_slots
):  # pragma: no cover - numba
    """Give depth ``level + 1`` to every unseen neighbour of depth ``level``; return how many."""
    size = len(depth)
    frontier = 0
    unseen = 0
    for i in range(size):
        if depth[i] == level:
            frontier += 1
        elif depth[i] == 255:
            unseen += 1
    state = np.zeros(n_slots, dtype=np.int8)
    added = 0
    if frontier <= unseen:
        for i in range(size):
            if depth[i] != level:
                continue
            unrank(i, state, slots, label_of, group_ends, counts, radix)
            for m in range(perms.shape[0]):
                value = rank(state[perms[m]], slots, label_of, group_ends, counts, radix)
                if depth[value] == 255:
                    depth[value] = level + 1
                    added += 1
    else:
        # Most values are reached: ask each unseen one whether a neighbour is on the
        # frontier (every move set here is closed under inversion).
        for i in range(size):
            if depth[i] != 255:
                continue
            unrank(i, state, slots, label_of, group_ends, counts, radix)
            for m in range(perms.shape[0]):
                value = rank(state[perms[m]], slots, label_of, group_ends, counts, radix)
                if depth[value] == level:
                    depth[i] = level + 1
                    added += 1
                    break
    return added


def distance_table(name: str, on_level: Callable[[int], None] | None = None) -> np.ndarray:
    """Exact distance to the goal of every value of one coordinate.

    Parameters
    ----------
    name
        A key of :func:`cubescan.solver.four.phases.patterns`.
    on_level
        Called with each depth as it is finished.

    Returns
    -------
    numpy.ndarray
        uint8, one entry per coordinate value; 255 for a value the moves cannot reach.

    Examples
    --------
    >>> int(distance_table("centers-ud").max())  # doctest: +SKIP
    8
    """
    pattern: Pattern = label_pattern(patterns()[name])
    perms = np.array([slot_permutation(m) for m in moves_of(name)], dtype=np.int64)
    depth = np.full(pattern.size, UNSEEN, dtype=np.uint8)
    depth[rank(solved_pieces(), *patterns()[name].arrays)] = 0
    level = 0
    while _bfs_level(depth, level, perms, *pattern.arrays, perms.shape[1]):
        level += 1
        if on_level is not None:
            on_level(level)
    return depth


def build_tables(progress: bool = False) -> dict[str, np.ndarray]:
    """Build every 4x4 table from scratch (no cache involved).

    Parameters
    ----------
    progress
        Show a rich progress bar on stderr once the build has taken a moment.

    Returns
    -------
    dict of str to numpy.ndarray
        One uint8 distance table per coordinate name.

    Examples
    --------
    >>> sorted(build_tables())[0]  # doctest: +SKIP
    'centers-axes'
    """
    names = sorted(patterns())
    out: dict[str, np.ndarray] = {}
    # About a dozen levels per table; the bar counts levels.
    with progress_reporter(progress, 14 * len(names)) as advance:
        for name in names:
            out[name] = distance_table(name, lambda level, n=name: advance(f"{n}: depth {level}"))
            advance(name)
    return out


def table_names() -> frozenset[str]:
    """Names of the arrays in the 4x4 table file.

    Returns
    -------
    frozenset of str

    Examples
    --------
    >>> sorted(table_names())[-1]
    'centers-ud'
    """
    return frozenset(patterns())


def load_tables(progress: bool | None = None) -> dict[str, np.ndarray]:
    """The 4x4 tables: read from the cache, or built and cached on first use.

    Parameters
    ----------
    progress
        Show a progress bar while building; default: when stderr is a terminal.

    Returns
    -------
    dict of str to numpy.ndarray
        Read-only arrays (see :func:`build_tables`).

    Examples
    --------
    >>> int(load_tables()["centers-rl"][0]) >= 0  # doctest: +SKIP
    True
    """
    if progress is None:
        progress = sys.stderr.isatty()
    return load_or_build(TABLE_NAME, TABLE_VERSION, lambda: build_tables(progress), table_names())
