"""The `cubescan` command line: one click group, one module per subcommand.

Exit status (DESIGN.md): 0 success and a solvable cube; 1 the input was read but the
cube is not solvable (or does not match what was expected); 2 bad usage or unreadable
input, with a one-line reason on stderr and never a traceback.
"""

from __future__ import annotations

import sys

import click

from solver.errors import CubescanError

EXIT_OK = 0
EXIT_UNSOLVABLE = 1
EXIT_BAD_INPUT = 2


class CubescanGroup(click.Group):
    """A click group that turns every anticipated error into a one-line reason and exit 2."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except CubescanError as err:
            click.echo(f"cubescan: error: {err.message}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except (OSError, UnicodeError) as err:
            click.echo(f"cubescan: error: {err}", err=True)
            sys.exit(EXIT_BAD_INPUT)


@click.group(cls=CubescanGroup)
@click.version_option(package_name="cubescan")
def main() -> None:
    """Scan a twisty cube, tell whether it can be solved, explain why not, and solve it."""


# Subcommands register here, one line each.
from scanner.cli_validate import validate_command  # noqa: E402

main.add_command(validate_command)
from scanner.cli_solve import solve  # noqa: E402

main.add_command(solve)
from scanner.cli_classify import classify  # noqa: E402

main.add_command(classify)
from scanner.cli_calibrate import calibrate  # noqa: E402

main.add_command(calibrate)
