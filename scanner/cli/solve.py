"""`cubescan solve STATE`: validate, then print a short solution (two-phase, <= 20 moves)."""

from __future__ import annotations

import json
import sys

import click
from rich.console import Console

from cubescan.errors import UnsolvableCubeError
from cubescan.scanner.cli.preparation import start_preparation, waiting
from cubescan.scanner.cli.validate import print_report, report_json
from cubescan.scanner.output.terminal import render_net
from cubescan.solver.facelets import CubeState, parse_state
from cubescan.solver.moves import apply_moves
from cubescan.solver.solve import SolveResult, solve_detailed
from cubescan.solver.tables import load_tables
from cubescan.solver.validate import validate

EXIT_INTERRUPTED = 130


def result_json(state: CubeState, result: SolveResult) -> dict:
    """The JSON answer for a solved state.

    Parameters
    ----------
    state
        The cube that was solved (:func:`cubescan.solver.facelets.parse_state`).
    result
        Its solution (:func:`cubescan.solver.solve.solve_detailed`).

    Returns
    -------
    dict
        ``size``, ``facelets`` (URFDLB letters), ``valid`` (True) and ``problems`` (none),
        then the solution: ``solution`` (WCA text), ``moves`` (one string per move),
        ``length``, ``max_length``, ``target_met``, ``timed_out``, ``lower_bound`` (no
        solution is shorter), ``optimal`` and ``stages`` (a big cube's named stages, each
        with its ``name``, ``solution`` and ``length``; empty for one stage).

    Examples
    --------
    >>> from cubescan.solver.moves import solved_facelets
    >>> data = result_json(parse_state(solved_facelets(3)), SolveResult((), 20, optimal=True))
    >>> data["solution"], data["lower_bound"], data["optimal"], data["stages"]
    ('', 0, True, [])
    """
    return {
        "size": state.size,
        "facelets": state.facelets,
        "valid": True,
        "problems": [],
        "solution": result.text,
        "moves": [str(m) for m in result.moves],
        "length": result.length,
        "max_length": result.max_length,
        "target_met": result.target_met,
        "timed_out": result.timed_out,
        "lower_bound": int(result.lower_bound),
        "optimal": bool(result.optimal),
        "stages": [
            {"name": stage.name, "solution": stage.text, "length": stage.length}
            for stage in result.stages
        ],
    }


def steps_json(state: CubeState, result: SolveResult) -> list[dict]:
    """The cube after each move of a solution, for ``--steps --json``.

    Parameters
    ----------
    state
        The cube before the solution.
    result
        Its solution (:func:`cubescan.solver.solve.solve_detailed`).

    Returns
    -------
    list of dict
        One ``{"move", "facelets"}`` per move, in order; the last is the solved cube.

    Examples
    --------
    >>> from cubescan.solver.moves import parse_moves, solved_facelets
    >>> state = parse_state(apply_moves(solved_facelets(2), "R'"))
    >>> steps_json(state, SolveResult(tuple(parse_moves("R")), 11))
    [{'move': 'R', 'facelets': 'UUUURRRRFFFFDDDDLLLLBBBB'}]
    """
    facelets, steps = state.facelets, []
    for move in result.moves:
        facelets = apply_moves(facelets, [move])
        steps.append({"move": str(move), "facelets": facelets})
    return steps


def _count(moves: int) -> str:
    return f"{moves} move" if moves == 1 else f"{moves} moves"


def print_solution(console: Console, state: CubeState, result: SolveResult, steps: bool) -> None:
    """Human output: the moves, a big cube's stages, a note when time ran out, and
    optionally every step's net.

    Parameters
    ----------
    console
        Where to print.
    state
        The cube before the solution (the first net of ``steps``).
    result
        Its solution (:func:`cubescan.solver.solve.solve_detailed`).
    steps
        Also print the net after each move.

    Examples
    --------
    >>> from cubescan.solver.moves import parse_moves, solved_facelets
    >>> state = parse_state(apply_moves(solved_facelets(3), "U' R'"))
    >>> console = Console(color_system=None)
    >>> print_solution(console, state, SolveResult(tuple(parse_moves("R U")), 20), steps=False)
    R U  (2 moves)
    >>> print_solution(console, state, SolveResult((), 20), steps=False)
    Already solved. (0 moves)
    >>> from cubescan.solver.stages import SolveStage
    >>> stages = (SolveStage("centers", (parse_moves("R")[0],)), SolveStage("3x3", ()))
    >>> staged = SolveResult(tuple(parse_moves("R")), None, stages=stages)
    >>> print_solution(console, state, staged, steps=False)
    R  (1 move)
      centers: 1 move, 3x3: 0 moves
    """
    if not result.moves:
        console.print("[bold green]Already solved.[/] (0 moves)")
        return
    console.print(f"[bold]{result.text}[/]  ({_count(result.length)})")
    if result.stages:
        console.print("  " + ", ".join(f"{s.name}: {_count(s.length)}" for s in result.stages))
    if result.timed_out:
        wanted = (
            "the search was done"
            if result.max_length is None
            else (f"a solution of at most {result.max_length} moves was found")
        )
        console.print(
            f"[yellow]Time ran out before {wanted}: this is the best so far and may not be "
            "the shortest.[/]"
        )
    if steps:
        facelets = state.facelets
        console.print()
        console.print("start")
        console.print(render_net(state))
        for number, move in enumerate(result.moves, start=1):
            facelets = apply_moves(facelets, [move])
            console.print()
            console.print(f"{number}. {move}")
            console.print(render_net(CubeState(state.size, facelets, state.symbols)))


@click.command("solve")
@click.argument("state")
@click.option(
    "--max-length",
    type=click.IntRange(min=0),
    default=None,
    help="Stop at the first solution this short [default: 20 for a 3x3; none from 4x4 "
    "up, where the reduction does not aim at a length and a target is only checked].",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0),
    default=None,
    help="Seconds; then print the best solution so far (flagged).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@click.option("--steps", is_flag=True, help="Show the cube net after each move.")
def solve(
    state: str, max_length: int | None, timeout: float | None, as_json: bool, steps: bool
) -> None:
    """Solve STATE after validating it.

    Solve STATE, a 2x2 to 7x7: a 3x3 in at most --max-length face turns (20 by
    default), a 2x2 optimally, larger cubes by reduction (the stages are listed with
    their lengths).

    STATE is a facelet string (URFDLB letters in the Kociemba order) or the same
    stickers in any six colour letters, mapped through the centres. The cube is
    validated first; an unsolvable cube gets the diagnosis instead of a search.
    Exit status: 0 solved within --max-length; 1 not solvable, or solved but not within
    --max-length (--timeout cut the search short, or no solution that short was found: the
    best found is printed, and stderr says so); 2 unreadable input; 130 interrupted.
    """
    parsed = parse_state(state)
    # A 2x2 needs neither the 3x3 tables nor the 3x3 search: nothing to overlap then.
    preparation = start_preparation(
        ["solver"] if validate(parsed).valid else [], overlap=parsed.size > 2
    )
    try:
        with waiting("solving"):
            if preparation.search_process is not None:
                load_tables()  # while a second process compiles the search
                preparation.wait_for_solver()
            result = solve_detailed(parsed, max_length, timeout)
        preparation.finish()
    except UnsolvableCubeError as err:
        report = validate(state)
        if as_json:
            click.echo(json.dumps(report_json(report), indent=2))
        else:
            print_report(Console(), report)
        click.echo(f"cubescan: not solvable: {err.message}", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        click.echo("cubescan: interrupted; no solution printed", err=True)
        sys.exit(EXIT_INTERRUPTED)
    if as_json:
        data = result_json(parsed, result)
        if steps:
            data["steps"] = steps_json(parsed, result)
        click.echo(json.dumps(data, indent=2))
    else:
        print_solution(Console(), parsed, result, steps)
    if not result.target_met:
        why = "time ran out first" if result.timed_out else "none that short was found"
        click.echo(
            f"cubescan: no solution of at most {result.max_length} moves ({why}); "
            f"the one printed has {result.length}",
            err=True,
        )
        sys.exit(1)
    sys.exit(0)
