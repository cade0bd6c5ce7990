"""`cubescan classify --rgb FILE`: colour readings of a whole cube to a facelet string."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import click
from rich.console import Console

from cubescan.calibration.colorspace import rgb_to_lab
from cubescan.calibration.naming import classify as classify_colors
from cubescan.calibration.palette import colors_json
from cubescan.calibration.profile import Profile, load_profile
from cubescan.calibration.repair import repair
from cubescan.errors import BadInputError
from cubescan.solver import validate


def read_rgb_file(path: Path) -> list[list[float]]:
    """Read a JSON file of 6*N*N [r, g, b] readings (a list, or an object keyed "1".."6*N*N").

    Parameters
    ----------
    path
        The JSON file.

    Returns
    -------
    list of [r, g, b]
        Readings in facelet order, each value a finite number in 0..255.

    Raises
    ------
    BadInputError
        Not JSON, wrong structure or count, missing keys, or values that are not finite
        numbers in 0..255.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     p = Path(folder) / "c.json"
    ...     _ = p.write_text(json.dumps({str(i + 1): [1, 2, 3] for i in range(24)}))
    ...     len(read_rgb_file(p))
    24
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise BadInputError("bad-format", f"{path} is not JSON: {err}") from None
    if isinstance(data, dict):
        try:
            keys = sorted(data, key=int)
        except ValueError:
            raise BadInputError(
                "bad-format", f'{path}: object keys must be sticker numbers "1".."6*N*N"'
            ) from None
        expected = [str(i) for i in range(1, len(data) + 1)]
        if keys != expected:
            raise BadInputError("bad-format", f'{path}: keys must be exactly "1".."{len(data)}"')
        readings = [data[key] for key in expected]
    elif isinstance(data, list):
        readings = data
    else:
        raise BadInputError("bad-format", f"{path}: expected a list or an object of [r, g, b]")
    if len(readings) not in (24, 54, 96, 150, 216, 294):
        raise BadInputError(
            "bad-format",
            f"{path}: {len(readings)} readings; a cube needs 6*N*N (24, 54, 96, 150, 216, 294)",
        )
    for number, rgb in enumerate(readings, start=1):
        if (
            not isinstance(rgb, list)
            or len(rgb) != 3
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in rgb)
        ):
            raise BadInputError("bad-format", f"{path}: sticker {number} is not [r, g, b]: {rgb!r}")
        if not all(math.isfinite(v) and 0 <= v <= 255 for v in rgb):
            raise BadInputError(
                "bad-format", f"{path}: sticker {number} = {rgb} has a value outside 0..255"
            )
    return readings


def classification_json(lab, profile: Profile | None) -> tuple[dict, bool]:
    """Classify, validate and repair; the JSON report and whether the cube is solvable.

    Parameters
    ----------
    lab
        (6*N*N, 3) CIELAB readings of the stickers, in facelet order.
    profile
        A calibration profile for colour naming, or None for the default palette.

    Returns
    -------
    (dict, bool)
        The report (:func:`cubescan.solver.validate.validate`'s fields on the repaired cube, plus
        ``size``, ``facelets`` after repair, ``read_facelets`` before it, ``colors``,
        ``confidence``, ``repairs`` and ``repair_note``), and whether the repaired cube
        is solvable.

    Raises
    ------
    BadInputError
        Readings that are not 6*N*N finite CIELAB colours (:func:`~calibration.naming.classify`).

    Examples
    --------
    >>> import numpy as np
    >>> from cubescan.synth.colors import render_cube
    >>> from cubescan.solver.moves import apply_moves, solved_facelets
    >>> truth = apply_moves(solved_facelets(3), "R U R' U'")
    >>> lab = render_cube(truth, "cool", np.random.default_rng(2))
    >>> data, valid = classification_json(lab, None)
    >>> data["facelets"] == truth, valid, data["colors"]["U"]["name"], data["repairs"]
    (True, True, 'white', [])
    """
    result = classify_colors(lab, profile=profile)
    outcome = repair(result)
    report = validate(outcome.facelets)
    data = report.to_dict()
    data.update(
        {
            "size": result.size,
            "facelets": outcome.facelets,
            "read_facelets": result.facelets,
            "colors": colors_json(result.colors),
            "confidence": [round(float(c), 3) for c in result.confidence],
            "repairs": [r.to_dict(result.colors) for r in outcome.repairs],
            "repair_note": outcome.reason,
            "valid": report.valid,
        }
    )
    return data, report.valid


@click.command("classify")
@click.option(
    "--rgb",
    "rgb_file",
    required=True,
    type=click.Path(path_type=Path, dir_okay=False),
    help='JSON: 6*N*N [r, g, b] in facelet order (list, or object keyed "1".."6*N*N").',
)
@click.option("--profile", "profile_name", default=None, help="Use a stored colour profile.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def classify(rgb_file: Path, profile_name: str | None, as_json: bool) -> None:
    """Name the colour of every sticker and print the cube's facelet string.

    Exit status: 0 solvable, 1 read but not solvable, 2 unreadable input.
    """
    readings = read_rgb_file(rgb_file)
    profile = load_profile(profile_name) if profile_name else None
    data, valid = classification_json(rgb_to_lab(readings), profile)
    if as_json:
        click.echo(json.dumps(data, indent=2))
    else:
        console = Console()
        console.print(f"[bold]{data['facelets']}[/]")
        names = ", ".join(f"{face}={c['name']}" for face, c in data["colors"].items())
        console.print(f"colours: {names}")
        for change in data["repairs"]:
            console.print(
                f"  repaired {change['position']}: {change['old']} -> {change['new']} "
                f"(confidence {change['confidence']:.2f})"
            )
        if valid:
            console.print("[bold green]Solvable.[/]")
        else:
            console.print("[bold red]Not solvable.[/]")
            for problem in data.get("problems", []):
                console.print(f"  [bold]{problem['code']}[/]: {problem['message']}")
    sys.exit(0 if valid else 1)
