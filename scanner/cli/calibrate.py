"""`cubescan calibrate`: learn, list and delete colour profiles."""

from __future__ import annotations

import json
from pathlib import Path

import click

from cubescan.calibration.colorspace import rgb_to_lab
from cubescan.calibration.profile import delete_profile, learn_profile, list_profiles, save_profile
from cubescan.errors import BadInputError
from cubescan.scanner.cli.classify import read_rgb_file
from cubescan.solver import solved_facelets, validate


@click.command("calibrate")
@click.option(
    "--rgb",
    "rgb_file",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Readings of a cube whose state is known (JSON, as for `classify`).",
)
@click.option(
    "--facelets", default=None, help="The known state of the --rgb cube (default: solved)."
)
@click.option("--name", default=None, help="Name of the profile to learn.")
@click.option("--overwrite", is_flag=True, help="Replace an existing profile of that name.")
@click.option("--list", "list_all", is_flag=True, help="List the stored profiles.")
@click.option("--delete", "delete_name", default=None, help="Delete the named profile.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def calibrate(
    rgb_file: Path | None,
    facelets: str | None,
    name: str | None,
    overwrite: bool,
    list_all: bool,
    delete_name: str | None,
    as_json: bool,
) -> None:
    """Learn a colour profile from a scan whose state is known.

    Learn a colour profile from a scan whose state is known, or list/delete profiles."""
    if list_all:
        names = list_profiles()
        click.echo(json.dumps({"profiles": names}) if as_json else "\n".join(names))
        return
    if delete_name:
        path = delete_profile(delete_name)
        click.echo(json.dumps({"deleted": str(path)}) if as_json else f"deleted {path}")
        return
    if rgb_file is None or name is None:
        raise BadInputError("bad-usage", "give --rgb FILE and --name NAME, or --list / --delete")
    lab = rgb_to_lab(read_rgb_file(rgb_file))
    size = round((lab.shape[0] / 6) ** 0.5)
    state = facelets or solved_facelets(size)
    if len(state) != lab.shape[0] or not validate(state).valid:
        raise BadInputError(
            "bad-format", "--facelets must be a valid state with one letter per reading"
        )
    path = save_profile(learn_profile(name, lab, state), overwrite=overwrite)
    click.echo(json.dumps({"profile": name, "path": str(path)}) if as_json else f"saved {path}")
