"""Move and pruning tables of the two-phase solver, built once and cached on disk.

The pruning tables give, for a pair of coordinates, the exact number of moves needed
to bring both to 0 (a lower bound for the whole phase); they are filled by a
breadth-first search written with NumPy over all states at once (forward from the
frontier while it is small, backward from the unvisited states when it is not).
Phase 1 has an exact distance table over all three of its coordinates, reduced by
symmetry (:mod:`cubescan.solver.phase1`).

The tables are kept by :mod:`cubescan.solver.cache` (versioned with :data:`TABLE_VERSION`,
checksummed, written atomically, built once even when two processes start together).
A build longer than a moment shows a progress bar on stderr, but only when stderr is
a terminal.

Examples
--------
>>> tables = load_tables()  # doctest: +SKIP
>>> int(tables["prune_corners"][0])  # doctest: +SKIP
0
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from cubescan.solver import coords
from cubescan.solver.cache import cache_path, load_or_build
from cubescan.solver.phase1 import PHASE1_TABLE_NAMES, build_phase1_tables
from cubescan.solver.phase2 import PHASE2_TABLE_NAMES, build_phase2_tables

TABLE_VERSION = 3
"""Bump when a table's layout or meaning changes; old cache files are then ignored."""

TABLE_NAMES = (
    "move_twist",
    "move_flip",
    "move_slice_sorted",
    "move_u_edges",
    "move_d_edges",
    "move_corners",
    "move_ud_edges",
    "merge_ud_edges",
    "move_slice",
    "move_slice_perm",
    "prune_corners_slice_perm",
    "prune_ud_edges_slice_perm",
    "prune_corners",
    *PHASE1_TABLE_NAMES,
    *PHASE2_TABLE_NAMES,
)
"""The arrays a table file holds (besides its checksum)."""

_PROGRESS_DELAY = 1.5
"""Seconds of building after which a progress bar appears (on a terminal)."""

TABLE_NAME = "twophase-tables"


def table_path() -> Path:
    """Path of the versioned table file in the cache folder.

    Returns
    -------
    pathlib.Path
        ``twophase-tables-v{TABLE_VERSION}.npz`` in :func:`cubescan.solver.cache.cache_dir`; the
        file may not exist yet.

    Examples
    --------
    >>> table_path().name
    'twophase-tables-v3.npz'
    """
    return cache_path(TABLE_NAME, TABLE_VERSION)


# --- breadth-first search -------------------------------------------------------------


def pruning_table(
    move_a: np.ndarray, move_b: np.ndarray, moves: tuple[int, ...] = tuple(range(18))
) -> np.ndarray:
    """Exact distance to ``(0, 0)`` of every pair of coordinates ``(a, b)``.

    Parameters
    ----------
    move_a, move_b
        Move tables ``(n_a, 18)`` and ``(n_b, 18)`` of two coordinates.
    moves
        The move indices allowed (a set closed under inversion).

    Returns
    -------
    numpy.ndarray
        int8 array of length ``n_a * n_b``, index ``a * n_b + b``; -1 for a pair the
        moves cannot reach.

    Examples
    --------
    >>> from cubescan.solver.coords import twist_move_table
    >>> table = pruning_table(twist_move_table(), np.zeros((1, 18), dtype=np.int32))
    >>> int(table.max())  # corner orientation alone takes at most 6 moves
    6
    """
    n_a, n_b = len(move_a), len(move_b)
    total = n_a * n_b
    depth = np.full(total, -1, dtype=np.int8)
    depth[0] = 0
    filled, level = 1, 0
    while filled < total:
        frontier = np.flatnonzero(depth == level)
        unvisited = total - filled
        if len(frontier) <= unvisited:
            a, b = np.divmod(frontier, n_b)
            for m in moves:
                nxt = move_a[a, m].astype(np.int64) * n_b + move_b[b, m]
                depth[nxt[depth[nxt] < 0]] = level + 1
        else:
            # Most states are already reached: ask each unreached one whether a
            # neighbour is on the frontier (the move set is closed under inversion).
            todo = np.flatnonzero(depth < 0)
            a, b = np.divmod(todo, n_b)
            found = np.zeros(len(todo), dtype=bool)
            for m in moves:
                nxt = move_a[a, m].astype(np.int64) * n_b + move_b[b, m]
                found |= depth[nxt] == level
            depth[todo[found]] = level + 1
        now = int(np.count_nonzero(depth >= 0))
        if now == filled:
            break
        filled, level = now, level + 1
    return depth


def _phase2_columns(table: np.ndarray) -> np.ndarray:
    """A move table with non-phase-2 columns set to 0 (they are never used)."""
    out = np.zeros_like(table)
    out[:, list(coords.PHASE2_MOVES)] = table[:, list(coords.PHASE2_MOVES)]
    return out


_Step = Callable[[dict[str, np.ndarray], Callable[[str], None]], None]


def _build_steps() -> list[tuple[str, int, _Step]]:
    """The build as (name, stages, step): each step adds arrays to a dict and may call its
    second argument, ``advance(what)``, as it goes (for the progress bar)."""

    def move_tables(out: dict[str, np.ndarray], _: Callable[[str], None]) -> None:
        out["move_twist"] = coords.twist_move_table()
        out["move_flip"] = coords.flip_move_table()
        out["move_slice_sorted"] = coords.edge4_move_table(coords.SLICE_EDGES)
        out["move_u_edges"] = coords.edge4_move_table(coords.U_EDGES)
        out["move_d_edges"] = coords.edge4_move_table(coords.D_EDGES)
        out["move_corners"] = coords.corners_move_table()
        out["move_ud_edges"] = _phase2_columns(coords.ud_edges_move_table())
        out["merge_ud_edges"] = coords.ud_edges_merge_table()
        out["move_slice"] = (out["move_slice_sorted"][:: coords.N_PERM4] // coords.N_PERM4).astype(
            np.int32
        )
        out["move_slice_perm"] = _phase2_columns(out["move_slice_sorted"][: coords.N_PERM4])

    def phase1(out: dict[str, np.ndarray], advance: Callable[[str], None]) -> None:
        def level(depth: int) -> None:
            advance(f"phase 1: flip x slice x twist, depth {depth}")

        out.update(
            build_phase1_tables(out["move_twist"], out["move_flip"], out["move_slice"], level)
        )

    def phase2(out: dict[str, np.ndarray], advance: Callable[[str], None]) -> None:
        def level(depth: int) -> None:
            advance(f"phase 2: corners x edges, depth {depth}")

        out.update(build_phase2_tables(out["move_corners"], out["move_ud_edges"], level))

    def corners(out: dict[str, np.ndarray], _: Callable[[str], None]) -> None:
        # Corner permutation alone under all 18 moves: a bound for the direct search.
        no_coordinate = np.zeros((1, coords.N_MOVES), dtype=np.int32)
        out["prune_corners"] = pruning_table(out["move_corners"], no_coordinate)

    def corners_slice(out: dict[str, np.ndarray], _: Callable[[str], None]) -> None:
        out["prune_corners_slice_perm"] = pruning_table(
            out["move_corners"], out["move_slice_perm"], coords.PHASE2_MOVES
        )

    def edges_slice(out: dict[str, np.ndarray], _: Callable[[str], None]) -> None:
        out["prune_ud_edges_slice_perm"] = pruning_table(
            out["move_ud_edges"], out["move_slice_perm"], coords.PHASE2_MOVES
        )

    # Stages: how often a step advances the bar, its end included: once per breadth-first
    # level (phase 1 is 12 moves deep, phase 2 18; one more level finds nothing) + 1.
    return [
        ("move tables", 1, move_tables),
        ("phase 1: flip x slice x twist", 14, phase1),
        ("phase 2: corners x edges", 20, phase2),
        ("corners", 1, corners),
        ("phase 2: corners x slice", 1, corners_slice),
        ("phase 2: edges x slice", 1, edges_slice),
    ]


def build_tables(progress: bool = False) -> dict[str, np.ndarray]:
    """Build every table from scratch (no cache involved).

    Parameters
    ----------
    progress
        Show a rich progress bar on stderr once the build has taken a moment.

    Returns
    -------
    dict of str to numpy.ndarray
        Move tables ``move_*`` (``[coordinate, move]``), the merge table, the
        pruning tables ``prune_*`` (flat int8, index ``a * n_b + b``) and the arrays of
        :func:`cubescan.solver.phase1.build_phase1_tables` and
        :func:`cubescan.solver.phase2.build_phase2_tables`.

    Examples
    --------
    >>> tables = build_tables()  # doctest: +SKIP
    >>> int(tables["prune_corners_slice_perm"].max())  # doctest: +SKIP
    14
    """
    out: dict[str, np.ndarray] = {}
    steps = _build_steps()
    with progress_reporter(progress, sum(stages for _, stages, _ in steps)) as advance:
        for name, _, step in steps:
            step(out, advance)
            advance(name)
    # Every coordinate is below 65536: half-size move tables keep the search in cache.
    for name in out:
        if name.startswith("move_") or name == "merge_ud_edges":
            out[name] = out[name].astype(np.uint16)
    return out


@contextlib.contextmanager
def progress_reporter(enabled: bool, total: int) -> Iterator[Callable[[str], None]]:
    """A rich progress bar for a table build, shown only once the build takes a moment.

    Parameters
    ----------
    enabled
        Whether a bar may appear at all (typically: stderr is a terminal).
    total
        How many steps the build has.

    Yields
    ------
    callable
        ``advance(step_name)``, to call after each step; the bar appears only after
        :data:`_PROGRESS_DELAY` seconds.

    Examples
    --------
    >>> with progress_reporter(False, 2) as advance:
    ...     advance("first")
    ...     advance("second")
    """
    start = time.perf_counter()
    state: dict[str, object] = {"done": 0, "bar": None}

    def advance(name: str) -> None:
        state["done"] = int(state["done"]) + 1
        if state["bar"] is None and enabled and time.perf_counter() - start > _PROGRESS_DELAY:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            bar = Progress(
                TextColumn("building solver tables (once)"),
                BarColumn(),
                TextColumn("{task.description}"),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            bar.start()
            state["bar"] = bar
            state["task"] = bar.add_task(name, total=total, completed=int(state["done"]))
        if state["bar"] is not None:
            state["bar"].update(state["task"], completed=state["done"], description=name)

    try:
        yield advance
    finally:
        if state["bar"] is not None:
            state["bar"].stop()


def load_tables(progress: bool | None = None) -> dict[str, np.ndarray]:
    """The solver's tables: read from the cache, or built and cached on first use.

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
    >>> sorted(load_tables())[:2]  # doctest: +SKIP
    ['merge_ud_edges', 'move_corners']
    """
    if progress is None:
        progress = sys.stderr.isatty()
    return load_or_build(
        TABLE_NAME, TABLE_VERSION, lambda: build_tables(progress), frozenset(TABLE_NAMES)
    )
