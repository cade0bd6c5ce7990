"""Check every cube under a folder: one sub-folder per cube, reports written as they finish.

The runner writes ``report.jsonl`` (one line per cube, appended and flushed to disk as
each cube finishes, so a killed run loses nothing that finished), then ``report.csv``
and ``report.html`` from it. ``resume`` skips cubes already in ``report.jsonl``. A cube
that cannot be read becomes an error row with the reason; it never costs the others.
Ctrl-C stops the run and still writes consistent reports of what finished.

The per-cube work is a function ``check_folder(folder, out) -> dict`` (by default
:func:`scanner.check.check_folder`), run in worker processes.

Examples
--------
>>> import tempfile
>>> root = Path(tempfile.mkdtemp())
>>> (root / "cube1").mkdir()
>>> find_cubes(root)[0].name
'cube1'
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

from scanner.report_html import render_batch_html
from solver.errors import BadInputError, CubescanError

REPORT_JSONL = "report.jsonl"
REPORT_CSV = "report.csv"
REPORT_HTML = "report.html"
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

    Raises
    ------
    BadInputError
        When ``root`` is not a folder or has no sub-folders.
    """
    if not root.is_dir():
        raise BadInputError("bad-path", f"{root} is not a folder of cube folders")
    cubes = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
    if not cubes:
        raise BadInputError(
            "bad-path", f"{root} has no sub-folders: put each cube's six photos in its own folder"
        )
    return cubes


def read_rows(path: Path) -> list[dict]:
    """The complete rows of a ``report.jsonl`` (a line cut off by a kill is dropped).

    Examples
    --------
    >>> read_rows(Path("/nonexistent/report.jsonl"))
    []
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
    """Write ``report.csv`` and ``report.html`` for these rows (atomically each)."""
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


def _checked(check_folder: Callable[[Path, Path], dict], folder: Path, out: Path) -> dict:
    """Run one cube's check in a worker; any anticipated failure becomes an error row."""
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

    Returns
    -------
    BatchSummary
    """
    if jobs < 1:
        raise BadInputError("bad-option", f"--jobs must be 1 or more, got {jobs}")
    cubes = find_cubes(root)
    out.mkdir(parents=True, exist_ok=True)
    jsonl = out / REPORT_JSONL
    rows = read_rows(jsonl) if resume else []
    done = {row["cube"] for row in rows}
    # Rewrite the kept rows so that a line cut off by a kill does not linger.
    temp = jsonl.with_suffix(".jsonl.tmp")
    temp.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    os.replace(temp, jsonl)
    todo = [folder for folder in cubes if folder.name not in done]
    new_rows: list[dict] = []
    interrupted = False
    with open(jsonl, "a", encoding="utf-8") as handle, Progress(disable=not show_progress) as bar:
        task = bar.add_task("checking cubes", total=len(todo))
        try:
            for row in _results(check_folder, todo, out, jobs):
                _append(handle, row)
                new_rows.append(row)
                bar.advance(task)
        except KeyboardInterrupt:
            interrupted = True
    write_summaries(out, rows + new_rows)
    errors = sum(row["status"] == "error" for row in new_rows)
    return BatchSummary(len(new_rows), len(done & {c.name for c in cubes}), errors, interrupted)


def _results(
    check_folder: Callable[[Path, Path], dict], todo: list[Path], out: Path, jobs: int
) -> Iterable[dict]:
    """Rows as cubes finish: in this process for one job, else in a worker pool."""
    if jobs == 1:
        for folder in todo:
            yield _checked(check_folder, folder, out)
        return
    # Fresh interpreters, not forks: OpenCV's and numba's thread pools in a forked copy
    # of a process that has used them can deadlock.
    pool = ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_ignore_interrupts,
    )
    try:
        pending: set[Future] = {pool.submit(_checked, check_folder, f, out) for f in todo}
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                yield future.result()
    finally:
        # Wait for the pool's manager thread: left running, it can close its wake-up pipe
        # just as Python 3.11's exit hook writes to it, which prints a traceback at exit.
        # On an interrupt this finishes only the cubes in hand; the rest are cancelled.
        pool.shutdown(wait=True, cancel_futures=True)
