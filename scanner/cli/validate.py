"""`cubescan validate STATE`: is this cube (or tesseract) solvable, and if not, what to do."""

from __future__ import annotations

import json
import sys

import click
from rich.console import Console

from cubescan.scanner.output.terminal import render_net
from cubescan.solver.facelets import CubeState
from cubescan.solver.puzzles.api import validate as validate_puzzle
from cubescan.solver.puzzles.report import TesseractReport
from cubescan.solver.validate import ValidationReport, validate


def report_json(report: ValidationReport | TesseractReport) -> dict:
    """The JSON report of a validation: DESIGN.md's fields that a typed state has.

    Parameters
    ----------
    report
        The verdict on a typed state (:func:`cubescan.solver.validate.validate`, or for a
        tesseract :func:`cubescan.solver.puzzles.tesseract.validate_tesseract`).

    Returns
    -------
    dict
        The report's ``to_dict()``, plus ``"colors"``: face letter (URFDLB, or the cells
        OIRLUDFB) -> ``{"name": symbol}``, the symbol the typed state uses for it.

    Examples
    --------
    >>> report_json(validate("U" * 9 + "R" * 9 + "F" * 9 + "D" * 9 + "L" * 9 + "B" * 9))["valid"]
    True
    """
    data = report.to_dict()
    letters = "OIRLUDFB" if isinstance(report, TesseractReport) else "URFDLB"
    data["colors"] = {
        face: {"name": symbol} for face, symbol in zip(letters, report.symbols, strict=True)
    }
    return data


def print_tesseract_report(console: Console, report: TesseractReport) -> None:
    """Human output for a tesseract: each cell's stickers, the verdict, problems and fixes.

    Parameters
    ----------
    console
        Where to print.
    report
        The verdict on a 2x2x2x2 or 3x3x3x3 state. Each cell is printed as its N layers
        of N x N stickers side by side (docs/puzzles.md's order), problem stickers in
        brackets.

    Examples
    --------
    >>> import io
    >>> from cubescan.solver.puzzles.tesseract import validate_tesseract
    >>> console = Console(file=io.StringIO(), color_system=None, width=100)
    >>> print_tesseract_report(console, validate_tesseract("O" * 9 + "I" * 7 + "R" * 48))
    >>> print(console.file.getvalue())
    Not solvable.
      bad-format: cannot tell which colour belongs on which cell: ...
    Fix:
      1. re-read or re-type the state
    <BLANKLINE>
    """
    if report.facelets:
        marked = {i for p in report.problems for i in p.facelets}
        n = report.size
        per_cell = n**3
        for c, cell in enumerate("OIRLUDFB"):
            shown = [
                f"[{report.facelets[i]}]" if i in marked else f" {report.facelets[i]} "
                for i in range(c * per_cell, (c + 1) * per_cell)
            ]
            rows = ["".join(shown[r * n : (r + 1) * n]) for r in range(n * n)]
            for r in range(n):
                # Row r of each of the cell's n layers, side by side.
                line = "  |  ".join(rows[k * n + r] for k in range(n))
                label = f"{cell}:" if r == 0 else "  "
                console.print(f"{label} {line}", markup=False, highlight=False)
        console.print()
    if report.valid:
        console.print("[bold green]Solvable.[/]")
        return
    console.print("[bold red]Not solvable.[/]")
    for problem in report.problems:
        console.print(f"  [bold]{problem.code}[/]: {problem.message}", highlight=False)
    steps = report.fix
    if steps:
        console.print("[bold]Fix:[/]")
        for number, step in enumerate(steps, start=1):
            console.print(f"  {number}. {step.text}", highlight=False)
    if report.invariants:
        laws = ", ".join(
            f"{name.replace('_', ' ')} {value}" for name, value in report.invariants.items()
        )
        console.print(f"({laws}; classic verify error {report.classic_error})", highlight=False)


def print_report(console: Console, report: ValidationReport) -> None:
    """Human output: the net (problem stickers starred), the verdict, problems and fixes.

    Parameters
    ----------
    console
        Where to print.
    report
        The verdict on a cube (:func:`cubescan.solver.validate.validate`); the net is printed when
        it has facelets, and for an unsolvable cube the problems, the fix's numbered steps
        and the orbit's twist, flip and parity (3x3) or corner twist total.

    Examples
    --------
    >>> import io
    >>> from cubescan.solver.moves import solved_facelets
    >>> twisted = list(solved_facelets(3))
    >>> twisted[8], twisted[9], twisted[20] = twisted[9], twisted[20], twisted[8]  # URF turned
    >>> console = Console(file=io.StringIO(), color_system=None, width=100)
    >>> print_report(console, validate("".join(twisted)))
    >>> print(console.file.getvalue().split("\\n\\n")[-1].rstrip())  # what follows the net
    Not solvable.
      corner-twist: the corners carry one counterclockwise twist too many ...
    Fix:
      1. twist the corner at URF once clockwise (seen from outside)
    (orbit: twist 2, flip 0, parity 0; classic verify error 5)
    """
    if report.facelets:
        state = CubeState(report.size, report.facelets, report.symbols)
        marked = frozenset(i for p in report.problems for i in p.facelets)
        console.print(render_net(state, marked))
        console.print()
    if report.valid:
        console.print("[bold green]Solvable.[/]")
        return
    console.print("[bold red]Not solvable.[/]")
    for problem in report.problems:
        console.print(f"  [bold]{problem.code}[/]: {problem.message}")
    steps = report.fix
    if steps:
        console.print("[bold]Fix:[/]")
        for number, step in enumerate(steps, start=1):
            console.print(f"  {number}. {step.text}")
    if report.size == 3 and report.orbit is not None:
        console.print(
            f"(orbit: twist {report.twist}, flip {report.flip}, parity {report.parity}; "
            f"classic verify error {report.classic_error})"
        )
    elif report.twist is not None:
        console.print(f"(corner twist total {report.twist})")


@click.command("validate")
@click.argument("state")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option(
    "--puzzle",
    default=None,
    help="2x2x2x2 or 3x3x3x3 (docs/puzzles.md), or an NxNxN cube; default: a cube.",
)
def validate_command(state: str, as_json: bool, puzzle: str | None) -> None:
    """Check whether STATE is a solvable cube and explain what is wrong if not.

    STATE is a facelet string (URFDLB letters in the Kociemba order) or the same
    stickers in any six colour letters, mapped through the centres. With --puzzle
    2x2x2x2 or 3x3x3x3 it is a tesseract's stickers in the order of docs/puzzles.md,
    in the cell letters OIRLUDFB or any eight symbols.
    Exit status: 0 solvable, 1 not solvable, 2 unreadable.
    """
    report = validate(state) if puzzle is None else validate_puzzle(state, puzzle=puzzle)
    if not report.readable:
        click.echo(f"cubescan: error: {report.problems[0].message}", err=True)
        sys.exit(2)
    if as_json:
        click.echo(json.dumps(report_json(report), indent=2))
    elif isinstance(report, TesseractReport):
        print_tesseract_report(Console(), report)
    else:
        print_report(Console(), report)
    sys.exit(0 if report.valid else 1)
