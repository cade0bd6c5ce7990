"""The `cubescan` command line: one click group, one module per subcommand.

Exit status (DESIGN.md): 0 success and a solvable cube; 1 the input was read but the
cube is not solvable (or does not match what was expected); 2 bad usage or unreadable
input, with a one-line reason on stderr and never a traceback.
"""

from __future__ import annotations

import importlib
import sys

import click

from cubescan.errors import CubescanError

EXIT_OK = 0
EXIT_UNSOLVABLE = 1
EXIT_BAD_INPUT = 2


# Subcommands: name -> "module:function". Each module is imported only when its command
# runs, so `cubescan validate` does not pay for the vision and search libraries.
SUBCOMMANDS = {
    "validate": "cubescan.scanner.cli.validate:validate_command",
    "solve": "cubescan.scanner.cli.solve:solve",
    "classify": "cubescan.scanner.cli.classify:classify",
    "calibrate": "cubescan.scanner.cli.calibrate:calibrate",
    "read": "cubescan.scanner.cli.read:read",
    "check": "cubescan.scanner.cli.check:check",
    "batch": "cubescan.scanner.cli.batch:batch",
    "scan": "cubescan.scanner.cli.scan:scan",
}


class CubescanGroup(click.Group):
    """A click group with lazily loaded subcommands that turns every anticipated error
    into a one-line reason and exit 2."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(SUBCOMMANDS))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in SUBCOMMANDS:
            module_name, attribute = SUBCOMMANDS[name].split(":")
            return getattr(importlib.import_module(module_name), attribute)
        return super().get_command(ctx, name)

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
