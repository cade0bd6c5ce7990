"""`cubescan batch ROOT`: every sub-folder of ROOT is one cube; reports for all of them."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.console import Console

from cubescan.errors import BadInputError
from cubescan.scanner.cli.preparation import start_preparation
from cubescan.scanner.pipeline.batch import REPORT_HTML, REPORT_JSONL, read_rows, run_batch
from cubescan.scanner.pipeline.check import check_folder
from cubescan.scanner.pipeline.cluster import parse_cluster


@click.command("batch")
@click.argument("root", type=click.Path(path_type=Path))
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True)
@click.option(
    "--out", type=click.Path(path_type=Path), help="Report folder (default: ROOT/cubescan-report)."
)
@click.option("--resume", is_flag=True, help="Skip cubes already in the report.")
@click.option(
    "--cluster",
    metavar="ADDRESS",
    help="Check on a Dask cluster: a scheduler (tcp://host:8786) or local:N workers.",
)
def batch(root: Path, jobs: int, out: Path | None, resume: bool, cluster: str | None) -> None:
    """Check each cube folder under ROOT; write JSONL, CSV and HTML reports.

    Writes report.jsonl, report.csv and report.html into --out; a report folder is never
    taken for a cube, so reruns and --resume can keep it inside ROOT. Exit 0 when every
    cube in the report was read and is solvable, 1 otherwise (also after --resume: the
    whole report counts), 130 when interrupted."""
    if cluster is not None and jobs != 1:
        raise BadInputError("bad-usage", "give --jobs or --cluster, not both")
    if cluster is not None:
        parse_cluster(cluster)  # a bad address is refused before any work
    out = out or root / "cubescan-report"
    preparation = start_preparation(["detector", "solver"], overlap=False)
    summary = run_batch(root, out, check_folder, jobs=jobs, resume=resume, cluster=cluster)
    preparation.finish()
    rows = read_rows(out / REPORT_JSONL)
    unreadable = sum(row["status"] == "error" for row in rows)
    unsolvable = sum(row["status"] == "ok" and not row.get("valid") for row in rows)
    console = Console(stderr=True)
    console.print(
        f"{summary.checked} cubes checked, {summary.skipped} already done; in the report "
        f"{unreadable} unreadable, {unsolvable} not solvable; report: {out / REPORT_HTML}"
    )
    if summary.interrupted:
        console.print("interrupted: the reports hold the cubes that finished; --resume goes on")
        sys.exit(130)
    sys.exit(1 if unreadable or unsolvable else 0)
