"""`cubescan count --puzzle P`: how many positions a puzzle has, and its orbit factors."""

from __future__ import annotations

import json

import click

from cubescan.solver.puzzles.counting import count, orbit_factors
from cubescan.solver.puzzles.definition import normalize_name, puzzle


def count_report(name: str, oracle: bool = False) -> dict:
    """The count of a puzzle with its factors, and optionally the oracle's count.

    Parameters
    ----------
    name
        A puzzle name (``"3x3x3"``, ``"2x2x2x2"``, ...).
    oracle
        Also count with the group-theory oracle (needs SymPy; seconds to minutes).

    Returns
    -------
    dict
        ``puzzle``, ``count`` (exact, as a string of digits), ``approx`` (e.g.
        ``"3.358e+27"``), ``factors`` (``label``, ``value`` as a fraction string,
        ``reason``) and, with ``oracle``, ``oracle_count`` and ``agree``.

    Examples
    --------
    >>> data = count_report("2x2x2")
    >>> data["count"], [f["value"] for f in data["factors"]]
    ('3674160', ['5040', '729'])
    """
    canonical = normalize_name(name)
    total = count(canonical)
    factors = orbit_factors(canonical)
    data = {
        "puzzle": canonical,
        "count": str(total),
        "approx": f"{float(total):.4g}",
        "factors": [{"label": f.label, "value": str(f.value), "reason": f.reason} for f in factors],
    }
    if oracle:
        from cubescan.solver.puzzles.oracle import oracle_count

        found = oracle_count(puzzle(canonical))
        data["oracle_count"] = str(found)
        data["agree"] = found == total
    return data


@click.command("count")
@click.option("--puzzle", "name", required=True, help="2x2x2 .. 7x7x7, 2x2x2x2 or 3x3x3x3.")
@click.option(
    "--oracle",
    is_flag=True,
    help="Also count with the group (SymPy, Schreier-Sims): seconds, minutes for 3x3x3x3.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the count as JSON.")
def count_command(name: str, oracle: bool, as_json: bool) -> None:
    """Count the positions of a puzzle and show how the count splits into orbit factors.

    The count holds the puzzle's orientation fixed (by its centres, or by one corner
    when it has none). Exit status: 0, or 1 when --oracle disagrees; 2 bad input.
    """
    if oracle:
        try:
            import sympy  # noqa: F401
        except ImportError:
            raise click.ClickException(
                "--oracle needs SymPy: pip install 'cubescan[oracle]'"
            ) from None
    data = count_report(name, oracle)
    if as_json:
        click.echo(json.dumps(data, indent=2))
    else:
        click.echo(f"{data['puzzle']}: {int(data['count']):,} positions (about {data['approx']})")
        width = max(len(f["label"]) for f in data["factors"])
        for factor in data["factors"]:
            click.echo(f"  {factor['label']:<{width}}  {factor['reason']}")
        if oracle:
            verdict = "agrees" if data["agree"] else "DISAGREES"
            click.echo(f"oracle (group order): {int(data['oracle_count']):,} ({verdict})")
    if oracle and not data["agree"]:
        raise SystemExit(1)
