"""The first run after install: say what takes time, and overlap what can be overlapped.

The detector's and the solver's inner loops are compiled by numba on first use and the
solver's tables are built then; both are cached on disk, so only the first run waits. That
run says so on stderr. While the photos are read, a second process compiles half of the
detector's kernels (from the other end), and behind both a third compiles the solver's
search while a fourth builds its tables, so the waits overlap on a machine with two cores.

Whether a part is prepared is kept as a marker file in the cache folder, stamped with the
installed code (file names, sizes and modification times), so a new version or an edited
source prepares again, as numba's own cache does.
"""

from __future__ import annotations

import contextlib
import hashlib
import multiprocessing
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from pathlib import Path

import click

# Rough first-run waits on a 2-core machine (benchmarks/bench_first_run.py): what the status
# line promises, so that a user knows whether to wait or worry. The solver's table build
# already uses both cores, so the two parts are counted as if one after the other. Measured
# with nothing else running: check's verdict after 10 s, its solution after 26 s; solve 13 s.
PREPARE_SECONDS = {"detector": 10, "solver": 15}


def code_stamp() -> str:
    """A short stamp of the installed code: changes when any of its Python files changes.

    Returns
    -------
    str
        16 hex digits from the relative paths, sizes and modification times of the
        ``.py`` files of the installed ``cubescan`` packages.

    Examples
    --------
    >>> len(code_stamp()), code_stamp() == code_stamp()
    (16, True)
    """
    import cubescan.calibration
    import cubescan.scanner
    import cubescan.solver

    digest = hashlib.blake2b(digest_size=8)
    for package in (cubescan, cubescan.calibration, cubescan.scanner, cubescan.solver):
        root = Path(package.__file__).parent
        for path in sorted(root.rglob("*.py")):
            stat = path.stat()
            digest.update(f"{path.relative_to(root)}:{stat.st_size}:{stat.st_mtime_ns};".encode())
    return digest.hexdigest()


def marker_path(part: str, stamp: str) -> Path:
    """Where the marker saying that ``part`` is prepared for this code lives.

    Parameters
    ----------
    part
        ``"detector"`` or ``"solver"``.
    stamp
        The installed code's :func:`code_stamp`.

    Returns
    -------
    pathlib.Path
        A file in the cache folder; it may not exist.

    Examples
    --------
    >>> marker_path("solver", code_stamp()).name.startswith("prepared-solver-")
    True
    """
    from cubescan.solver.cache import cache_dir

    return cache_dir() / f"prepared-{part}-{stamp}"


# The detector's kernels a photo check compiles, in the order it first calls them: module of
# cubescan.scanner.grid, kernel, argument types (numba's notation). On the first run a
# second process compiles them last first while the command compiles them as it meets
# them; each finds in numba's on-disk cache what the other has compiled, so the two meet
# halfway and the detector is ready in about half the time. A kernel left out is compiled
# by the command as before; one the check no longer calls costs only the helper's time.
_C2 = "float64[:, ::1]"
_DETECTOR_KERNELS = (
    ("_regions_kernels", "level_percentiles", "(uint8[:, ::1], int64, float64[::1])"),
    ("_regions_kernels", "free_region_stats", "(uint8[:, ::1],)"),
    ("_regions_kernels", "_region_shapes", f"({_C2}, float64[::1], float64[::1])"),
    (
        "_kernels",
        "_grow_lattices",
        f"(int64[::1], int64[::1], int64[::1], {_C2}, {_C2}, float64)",
    ),
    ("_geometry_kernels", "on_one_line", "(int64[:, ::1],)"),
    ("_geometry_kernels", "_on_one_line_but_one", "(int64[:, ::1],)"),
    ("_kernels", "_lattice_shapes", f"({_C2}, {_C2}, float64[:, :, ::1])"),
    ("_kernels", "_elongation", "(float64[:, :, ::1],)"),
    ("_kernels", "_least_squares_homography", f"({_C2}, {_C2})"),
    (
        "_windows_kernels",
        "_block_cells",
        f"({_C2}, {_C2}, float64[:, :, ::1], float64[::1], float64[::1])",
    ),
    ("_kernels", "_nearest", f"({_C2}, {_C2})"),
    ("_kernels", "_pitch_cell_areas", f"({_C2}, {_C2})"),
    (
        "_windows_kernels",
        "_windows",
        f"(int64[:, ::1], int64[:, ::1], {_C2}, int64[::1], int64[::1], int64[::1])",
    ),
    ("_cells_kernels", "inner_patch_statistics", "(uint8[:, :, ::1], int64, int64)"),
    ("_cells_kernels", "_glared_cells", "(uint8[:, :, :, ::1], float64, float64)"),
    ("_kernels", "_project", f"(Array(float64, 2, 'C', readonly=True), {_C2})"),
    (
        "_rejection_kernels",
        "_doubled_angle_sums",
        "(float32[:, :, ::1], float32[:, :, ::1], Array(boolean, 2, 'C', readonly=True))",
    ),
    (
        "_continuation_kernels",
        "ring_squares",
        f"(Array(float64, 2, 'C', readonly=True), int64, {_C2}, {_C2}, float64[:, :, ::1], "
        "float64[::1], float64, float64, float64)",
    ),
)


def warm_up_detector() -> None:
    """Compile the detector's kernels a photo check uses, the last it calls first.

    Run in a second process on the first run, beside the command reading the photos (see
    ``_DETECTOR_KERNELS``); what it compiles lands in numba's on-disk cache.

    Returns
    -------
    None

    Examples
    --------
    >>> warm_up_detector()  # doctest: +SKIP
    """
    import importlib

    from numba.core.sigutils import normalize_signature

    for module, name, signature in reversed(_DETECTOR_KERNELS):
        kernel = getattr(importlib.import_module(f"cubescan.scanner.grid.{module}"), name)
        # As types, not as the text: numba's cache files a compile under the signature it
        # was asked for, and a call asks with types.
        kernel.compile(normalize_signature(signature)[0])


def warm_up_solver() -> None:
    """Build or load the solver's tables and compile its search by solving two cubes.

    Run in a second process on the first run; everything it makes lands in the on-disk
    caches, where the first process then finds it.

    Returns
    -------
    None

    Examples
    --------
    >>> warm_up_solver()  # doctest: +SKIP
    """
    from cubescan.solver.moves import apply_moves, solved_facelets
    from cubescan.solver.solve import solve
    from cubescan.solver.tables import load_tables

    load_tables(progress=False)  # no bar from a process the user did not start
    # The 3x3 search is normally in numba's cache by now (search.compile_search: the
    # tables take longer), so this loads it; else it is compiled here too.
    for size in (2, 3):
        solve(apply_moves(solved_facelets(size), "R U F' L2 D B'"))


def at_low_priority(work: Callable[[], None]) -> None:
    """Run ``work`` at a lower priority (nice 10), in a process started for it.

    The command that started it, reading photos and compiling the detector, comes first,
    so a verdict is not kept waiting for the solver; the solver's preparation takes both
    cores once the command waits for it.

    Parameters
    ----------
    work
        What to run: :func:`warm_up_solver` or
        :func:`~cubescan.solver.search.compile_search`.

    Returns
    -------
    None

    Examples
    --------
    >>> at_low_priority(warm_up_solver)  # doctest: +SKIP
    """
    with contextlib.suppress(OSError):
        os.nice(10)
    work()


@dataclass
class Preparation:
    """What the first run prepares, and the second process preparing the solver.

    Attributes
    ----------
    parts
        The parts not prepared yet when the command started.
    stamp
        The installed code's :func:`code_stamp`, which names the markers.
    solver_process
        The process preparing the solver meanwhile, or None.
    detector_process
        The process compiling half of the detector meanwhile (:func:`warm_up_detector`),
        or None.
    search_process
        The process compiling the solver's search meanwhile
        (:func:`~cubescan.solver.search.compile_search`), or None.
    """

    parts: tuple[str, ...]
    stamp: str = ""
    solver_process: BaseProcess | None = None
    detector_process: BaseProcess | None = None
    search_process: BaseProcess | None = None

    def wait_for_solver(self) -> None:
        """Wait until the processes preparing the solver are done (at once if none).

        Returns
        -------
        None

        Examples
        --------
        >>> Preparation(()).wait_for_solver()
        """
        for process in (self.search_process, self.solver_process):
            if process is not None:
                process.join()
        self.search_process = self.solver_process = None

    def finish(self) -> None:
        """Mark the parts prepared that are; stop a solver preparation nobody waited for.

        Call it when the command has done its work. A cache folder that cannot be
        written only means that the next run says it again.

        Returns
        -------
        None

        Examples
        --------
        >>> Preparation(()).finish()
        """
        helper, self.detector_process = self.detector_process, None
        if helper is not None:
            # By now the command has compiled what the helper had not.
            helper.terminate()
            helper.join()
        solver = [p for p in (self.solver_process, self.search_process) if p is not None]
        self.solver_process = self.search_process = None
        prepared = list(self.parts)
        if solver:
            # The command did not solve (an unsolvable cube, bad input): the solver's
            # preparation is left for a run that needs it.
            for process in solver:
                process.terminate()
                process.join()
            prepared.remove("solver")
        for part in prepared:
            try:
                marker = marker_path(part, self.stamp)
                marker.parent.mkdir(parents=True, exist_ok=True)
                marker.touch()
            except OSError:
                continue


def start_preparation(parts: Sequence[str], overlap: bool = True) -> Preparation:
    """Announce the first run's preparation on stderr; start helper processes for it.

    Parameters
    ----------
    parts
        What the command will use: ``"detector"``, ``"solver"`` or both. Parts already
        prepared for this code are left out. The solver's tables are built in a process of
        their own only when the detector is prepared too (otherwise there is nothing to
        overlap them with); its search is compiled in one whenever the solver is.
    overlap
        Compile half of the detector in a second process (:func:`warm_up_detector`),
        compile the solver's search in a third
        (:func:`~cubescan.solver.search.compile_search`) and build its tables in a fourth,
        both behind the command (:func:`at_low_priority`); False when the command runs
        its own worker processes (``batch``).

    Returns
    -------
    Preparation
        Call :meth:`Preparation.wait_for_solver` before solving and
        :meth:`Preparation.finish` when the command succeeded.

    Examples
    --------
    >>> preparation = start_preparation([])  # nothing to prepare: no line, no process
    >>> preparation.parts, preparation.solver_process
    ((), None)
    """
    if not parts:
        return Preparation(())
    stamp = code_stamp()
    order = ("detector", "solver")
    needed = tuple(
        part for part in order if part in parts and not marker_path(part, stamp).exists()
    )
    if not needed:
        return Preparation(())
    seconds = sum(PREPARE_SECONDS[part] for part in needed)
    click.echo(
        f"cubescan: preparing the {' and the '.join(needed)}, once after install: "
        f"about {seconds} s",
        err=True,
    )
    process = helper = search = None
    # Daemons: they die with the command, whatever way the command ends.
    context = multiprocessing.get_context("spawn")
    if "detector" in needed and overlap:
        helper = context.Process(target=warm_up_detector, daemon=True)
        helper.start()
    if "solver" in needed and overlap:
        from cubescan.solver.search import compile_search

        search = context.Process(target=at_low_priority, args=(compile_search,), daemon=True)
        search.start()
    if needed == ("detector", "solver") and overlap:
        process = context.Process(target=at_low_priority, args=(warm_up_solver,), daemon=True)
        process.start()
    sys.stderr.flush()
    return Preparation(needed, stamp, process, helper, search)


@contextlib.contextmanager
def waiting(text: str) -> Iterator[None]:
    """A pulsing progress bar with the elapsed time on stderr, in an interactive terminal.

    Nothing is shown when stderr is not a terminal (a pipe, a file, a test), and the bar
    is removed when the block ends, so the command's own output stays as it was.

    Parameters
    ----------
    text
        What is being waited for ("reading the photos").

    Returns
    -------
    contextlib.AbstractContextManager
        Use as ``with waiting("..."):``.

    Examples
    --------
    >>> with waiting("reading the photos"):  # stderr is not a terminal here: no bar
    ...     pass
    """
    if not sys.stderr.isatty():
        yield
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        progress.add_task(text, total=None)
        yield
