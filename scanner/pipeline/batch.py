"""Check every cube under a folder: one sub-folder per cube, reports written as they finish.

The runner writes ``report.jsonl`` (one line per cube, appended and flushed to disk as
each cube finishes, so a killed run loses nothing that finished), then ``report.csv``
and ``report.html`` from it. ``resume`` skips cubes already in ``report.jsonl``. A cube
that cannot be read becomes an error row with the reason; it never costs the others.
Ctrl-C stops the run and still writes consistent reports of what finished.

The per-cube work is a function ``check_folder(folder, out) -> dict`` (by default
:func:`cubescan.scanner.pipeline.check.check_folder`), run in worker processes.

Examples
--------
>>> import tempfile
>>> shelf = tempfile.TemporaryDirectory()
>>> root = Path(shelf.name)
>>> (root / "cube1").mkdir()
>>> find_cubes(root)[0].name
'cube1'
>>> shelf.cleanup()
"""

from __future__ import annotations

import csv
import json
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from rich.progress import Progress

from cubescan.errors import BadInputError, CubescanError
from cubescan.scanner.output.report_html import render_batch_html

REPORT_JSONL = "report.jsonl"
REPORT_CSV = "report.csv"
REPORT_HTML = "report.html"
REPORT_MARKER = ".cubescan-report"
"""A file in every report folder, so that a rerun never takes the report for a cube."""
CSV_COLUMNS = ("cube", "status", "valid", "size", "problems", "solution", "error", "facelets")


@dataclass(frozen=True)
class BatchSummary:
    """What a batch run did.

    Attributes
    ----------
    checked
        Cubes checked in this run.
    skipped
        Cubes skipped because ``report.jsonl`` already had them (resume).
    errors
        Rows of this run that are errors (unreadable cube folders).
    interrupted
        True when the run was stopped (Ctrl-C) before every cube was checked.
    """

    checked: int
    skipped: int
    errors: int
    interrupted: bool


def find_cubes(root: Path) -> list[Path]:
    """The cube folders under ``root`` (its sub-folders, sorted by name).

    Parameters
    ----------
    root
        The batch's folder: one sub-folder per cube.

    Returns
    -------
    list of pathlib.Path
        Its sub-folders, sorted by name; hidden ones (name starting with ``.``), report
        folders of earlier runs (:func:`is_report_folder`) and plain files are left out.

    Raises
    ------
    BadInputError
        When ``root`` is not a folder or has no sub-folders.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     for name in ("cube2", "cube1", ".cache", "cubescan-report"):
    ...         (Path(folder) / name).mkdir()
    ...     (Path(folder) / "notes.txt").touch()
    ...     (Path(folder) / "cubescan-report" / REPORT_MARKER).touch()
    ...     [cube.name for cube in find_cubes(Path(folder))]
    ['cube1', 'cube2']
    """
    if not root.is_dir():
        raise BadInputError("bad-path", f"{root} is not a folder of cube folders")
    cubes = sorted(
        p
        for p in root.iterdir()
        if p.is_dir() and not p.name.startswith(".") and not is_report_folder(p)
    )
    if not cubes:
        raise BadInputError(
            "bad-path", f"{root} has no sub-folders: put each cube's six photos in its own folder"
        )
    return cubes


def is_report_folder(folder: Path) -> bool:
    """Whether a folder holds a batch report (this version's marker, or an older report).

    Parameters
    ----------
    folder
        A sub-folder of a batch's root.

    Returns
    -------
    bool
        True for a report folder, which is never a cube.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     before = is_report_folder(Path(folder))
    ...     (Path(folder) / REPORT_JSONL).touch()
    ...     before, is_report_folder(Path(folder))
    (False, True)
    """
    return (folder / REPORT_MARKER).is_file() or (folder / REPORT_JSONL).is_file()


def read_rows(path: Path) -> list[dict]:
    """The complete rows of a ``report.jsonl`` (a line cut off by a kill is dropped).

    Parameters
    ----------
    path
        The ``report.jsonl`` file; a missing file has no rows.

    Returns
    -------
    list of dict
        The rows in file order: each line that is a JSON object with a ``"cube"`` key.

    Examples
    --------
    >>> read_rows(Path("/nonexistent/report.jsonl"))
    []
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / REPORT_JSONL
    ...     _ = path.write_text('{"cube": "c1", "status": "ok"}\\n{"cube": "c2", "sta')
    ...     read_rows(path)
    [{'cube': 'c1', 'status': 'ok'}]
    """
    if not path.is_file():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(row, dict) and "cube" in row:
            rows.append(row)
    return rows


def _append(handle, row: dict) -> None:
    handle.write(json.dumps(row) + "\n")
    handle.flush()
    os.fsync(handle.fileno())


def write_summaries(out: Path, rows: list[dict]) -> None:
    """Write ``report.csv`` and ``report.html`` for these rows (atomically each).

    Parameters
    ----------
    out
        The report folder (must exist); existing reports in it are replaced.
    rows
        Report rows as in ``report.jsonl``: ``"cube"`` and ``"status"`` (``"ok"`` or
        ``"error"``), then the cube's report (:meth:`~pipeline.check.CubeReport.to_dict`) or
        ``"error"``; the CSV keeps the columns :data:`CSV_COLUMNS`, problems as their codes.

    Examples
    --------
    >>> import tempfile
    >>> rows = [{"cube": "c1", "status": "error", "error": "no cube face found"}]
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     write_summaries(Path(folder), rows)
    ...     print((Path(folder) / REPORT_CSV).read_text(), end="")
    ...     (Path(folder) / REPORT_HTML).is_file()
    cube,status,valid,size,problems,solution,error,facelets
    c1,error,,,,,no cube face found,
    True
    """
    csv_path = out / REPORT_CSV
    temp = csv_path.with_suffix(".csv.tmp")
    with open(temp, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, CSV_COLUMNS)
        writer.writeheader()
        for row in rows:
            writer.writerow(
                {
                    "cube": row.get("cube"),
                    "status": row.get("status"),
                    "valid": row.get("valid", ""),
                    "size": row.get("size", ""),
                    "problems": " ".join(p["code"] for p in row.get("problems", [])),
                    "solution": row.get("solution") or "",
                    "error": row.get("error", ""),
                    "facelets": row.get("facelets", ""),
                }
            )
    os.replace(temp, csv_path)
    html_path = out / REPORT_HTML
    temp = html_path.with_suffix(".html.tmp")
    temp.write_text(render_batch_html(rows, title=f"cubescan batch: {out.name}"), encoding="utf-8")
    os.replace(temp, html_path)


def checked_row(check_folder: Callable[[Path, Path], dict], folder: Path, out: Path) -> dict:
    """Run one cube's check (in a worker); any anticipated failure becomes an error row.

    Parameters
    ----------
    check_folder
        ``(cube_folder, out) -> dict``, the per-cube work.
    folder
        The cube's folder; its name names the cube.
    out
        The report folder.

    Returns
    -------
    dict
        ``{"cube", "status": "ok", **row}``, or ``{"cube", "status": "error", "code",
        "error"}`` when the cube could not be read.

    Examples
    --------
    >>> def broken(folder, out):
    ...     raise BadInputError("missing-face", "a cube needs six face photos")
    >>> checked_row(broken, Path("shelf/cube7"), Path("out"))["status"]
    'error'
    """
    try:
        row = check_folder(folder, out)
    except CubescanError as err:
        return {"cube": folder.name, "status": "error", "code": err.code, "error": err.message}
    except (OSError, ValueError, MemoryError) as err:
        return {"cube": folder.name, "status": "error", "code": "unreadable", "error": str(err)}
    return {"cube": folder.name, "status": "ok", **row}


def _ignore_interrupts() -> None:
    # Workers leave Ctrl-C to the parent, which stops the run in an orderly way.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_batch(
    root: Path,
    out: Path,
    check_folder: Callable[[Path, Path], dict],
    jobs: int = 1,
    resume: bool = False,
    show_progress: bool = True,
    cluster: str | None = None,
) -> BatchSummary:
    """Check every cube folder under ``root``, writing the reports into ``out``.

    Parameters
    ----------
    root
        Folder whose sub-folders are cubes.
    out
        Report folder (created); ``report.jsonl``, ``report.csv``, ``report.html``.
    check_folder
        ``(cube_folder, out) -> dict`` report row for one cube; a picklable function.
    jobs
        Worker processes.
    resume
        Skip cubes already in ``out/report.jsonl``; otherwise start the report afresh.
    show_progress
        Draw a rich progress bar.
    cluster
        Check the cubes on a Dask cluster instead of ``jobs`` local processes: a
        scheduler's address, or ``local:N`` (:mod:`cubescan.scanner.pipeline.cluster`).

    Returns
    -------
    BatchSummary

    Examples
    --------
    A stand-in check that reads no photos (the real one is
    :func:`cubescan.scanner.pipeline.check.check_folder`):

    >>> import tempfile
    >>> def fake_check(folder, out):
    ...     if folder.name == "broken":
    ...         raise BadInputError("missing-face", "a cube needs six face photos")
    ...     return {"valid": True, "size": 2, "facelets": "UUUURRRRFFFFDDDDLLLLBBBB"}
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     for name in ("broken", "solved"):
    ...         (Path(folder) / name).mkdir()
    ...     out = Path(folder) / ".reports"
    ...     print(run_batch(Path(folder), out, fake_check, show_progress=False))
    ...     [(row["cube"], row["status"]) for row in read_rows(out / REPORT_JSONL)]
    ...     print(run_batch(Path(folder), out, fake_check, resume=True, show_progress=False))
    BatchSummary(checked=2, skipped=0, errors=1, interrupted=False)
    [('broken', 'error'), ('solved', 'ok')]
    BatchSummary(checked=0, skipped=2, errors=0, interrupted=False)
    """
    if jobs < 1:
        raise BadInputError("bad-option", f"--jobs must be 1 or more, got {jobs}")
    cubes = find_cubes(root)
    out.mkdir(parents=True, exist_ok=True)
    (out / REPORT_MARKER).write_text("cubescan batch report: not a cube folder\n")
    jsonl = out / REPORT_JSONL
    rows = read_rows(jsonl) if resume else []
    done = {row["cube"] for row in rows}
    # Rewrite the kept rows so that a line cut off by a kill does not linger.
    temp = jsonl.with_suffix(".jsonl.tmp")
    temp.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    os.replace(temp, jsonl)
    todo = [folder for folder in cubes if folder.name not in done]
    interrupted = False
    with open(jsonl, "a", encoding="utf-8") as handle, Progress(disable=not show_progress) as bar:
        task = bar.add_task("checking cubes", total=len(todo))
        try:
            for row in _results(check_folder, todo, out, jobs, cluster):
                _append(handle, row)
                bar.advance(task)
        except KeyboardInterrupt:
            interrupted = True
    # The file, not a list kept beside it, says what finished: an interrupt can land
    # between writing a row and noting it anywhere else.
    all_rows = read_rows(jsonl)
    new_rows = all_rows[len(rows) :]
    write_summaries(out, all_rows)
    errors = sum(row["status"] == "error" for row in new_rows)
    return BatchSummary(len(new_rows), len(done & {c.name for c in cubes}), errors, interrupted)


def _results(
    check_folder: Callable[[Path, Path], dict],
    todo: list[Path],
    out: Path,
    jobs: int,
    cluster: str | None,
) -> Iterable[dict]:
    """Rows as cubes finish: on a Dask cluster, in this process for one job, else in a
    worker pool."""
    if cluster is not None:
        from cubescan.scanner.pipeline.cluster import cluster_results

        yield from cluster_results(checked_row, check_folder, todo, out, cluster)
        return
    if jobs == 1:
        for folder in todo:
            yield checked_row(check_folder, folder, out)
        return
    # Fresh interpreters, not forks: OpenCV's and numba's thread pools in a forked copy
    # of a process that has used them can deadlock.
    pool = ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_ignore_interrupts,
    )
    try:
        pending: set[Future] = {pool.submit(checked_row, check_folder, f, out) for f in todo}
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                yield future.result()
    finally:
        # Wait for the pool's manager thread: left running, it can close its wake-up pipe
        # just as Python 3.11's exit hook writes to it, which prints a traceback at exit.
        # On an interrupt this finishes only the cubes in hand; the rest are cancelled.
        pool.shutdown(wait=True, cancel_futures=True)
