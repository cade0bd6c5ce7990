"""`cubescan validate STATE`: is this cube solvable, and if not, what to do about it."""

from __future__ import annotations

import json
import sys

import click
from rich.console import Console

from cubescan.scanner.output.terminal import render_net
from cubescan.solver.facelets import CubeState
from cubescan.solver.validate import ValidationReport, validate


def report_json(report: ValidationReport) -> dict:
    """The JSON report of a validation: DESIGN.md's fields that a typed state has.

    Parameters
    ----------
    report
        The verdict on a typed state (:func:`cubescan.solver.validate.validate`).

    Returns
    -------
    dict
        :meth:`~cubescan.solver.validate.ValidationReport.to_dict`, plus ``"colors"``: face letter
        (URFDLB) -> ``{"name": symbol}``, the symbol the typed state uses for that face.

    Examples
    --------
    >>> report_json(validate("U" * 9 + "R" * 9 + "F" * 9 + "D" * 9 + "L" * 9 + "B" * 9))["valid"]
    True
    """
    data = report.to_dict()
    data["colors"] = {
        face: {"name": symbol} for face, symbol in zip("URFDLB", report.symbols, strict=True)
    }
    return data


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
def validate_command(state: str, as_json: bool) -> None:
    """Check whether STATE is a solvable cube and explain what is wrong if not.

    STATE is a facelet string (URFDLB letters in the Kociemba order) or the same
    stickers in any six colour letters, mapped through the centres.
    Exit status: 0 solvable, 1 not solvable, 2 unreadable.
    """
    report = validate(state)
    if not report.readable:
        click.echo(f"cubescan: error: {report.problems[0].message}", err=True)
        sys.exit(2)
    if as_json:
        click.echo(json.dumps(report_json(report), indent=2))
    else:
        print_report(Console(), report)
    sys.exit(0 if report.valid else 1)
