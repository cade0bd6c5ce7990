"""The `cubescan` command line: one click group, one module per subcommand.

Exit status (docs/design.md): 0 success and a solvable cube; 1 the input was read but the
cube is not solvable (or does not match what was expected); 2 bad usage or unreadable
input, with a one-line reason on stderr; 3 an internal error, with one line saying where
its crash report was written. Never a traceback.
"""

from __future__ import annotations

import datetime
import importlib
import platform
import sys
import traceback
import warnings
from pathlib import Path

import click

from cubescan.errors import CubescanError

EXIT_OK = 0
EXIT_UNSOLVABLE = 1
EXIT_BAD_INPUT = 2
EXIT_INTERNAL_ERROR = 3
EXIT_INTERRUPTED = 130

# Subcommands: name -> ("module:function", the line `cubescan --help` shows for it). Each
# module is imported only when its command runs (or its own --help is asked for), so
# `cubescan --help` and `cubescan validate` do not pay for the vision and search libraries.
SUBCOMMANDS = {
    "validate": (
        "cubescan.scanner.cli.validate:validate_command",
        "Check whether STATE is a solvable cube and explain what is wrong if not.",
    ),
    "solve": ("cubescan.scanner.cli.solve:solve", "Solve STATE after validating it."),
    "count": (
        "cubescan.scanner.cli.count:count_command",
        "Count the positions of a puzzle and show how the count splits into orbit factors.",
    ),
    "classify": (
        "cubescan.scanner.cli.classify:classify",
        "Name the colour of every sticker and print the cube's facelet string.",
    ),
    "calibrate": (
        "cubescan.scanner.cli.calibrate:calibrate",
        "Learn a colour profile from a scan whose state is known.",
    ),
    "read": ("cubescan.scanner.cli.read:read", "Detect every face in IMAGE and name its colours."),
    "check": ("cubescan.scanner.cli.check:check", "Read one cube from its photos and check it."),
    "batch": (
        "cubescan.scanner.cli.batch:batch",
        "Check each cube folder under ROOT; write JSONL, CSV and HTML reports.",
    ),
    "scan": (
        "cubescan.scanner.cli.scan:scan",
        "Scan a cube face by face with a camera, a video or a folder of frames.",
    ),
}


def write_crash_report(error: BaseException, argv: list[str]) -> Path:
    """Write an internal error's traceback and context to a file a user can send.

    Parameters
    ----------
    error
        The exception nobody foresaw.
    argv
        The command line that met it.

    Returns
    -------
    pathlib.Path
        The report, in the user cache folder (``crash-reports/``), or in the system's
        temporary folder when that cannot be written.

    Examples
    --------
    >>> try:
    ...     1 / 0
    ... except ZeroDivisionError as err:
    ...     report = write_crash_report(err, ["cubescan", "check", "photos/"])
    >>> "ZeroDivisionError" in report.read_text() and report.name.startswith("crash-")
    True
    """
    import tempfile

    from cubescan import __version__
    from cubescan.solver.cache import cache_dir

    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    text = "".join(
        [
            f"cubescan {__version__}, Python {platform.python_version()}, {platform.platform()}\n",
            f"command: {' '.join(argv)}\n\n",
            *traceback.format_exception(error),
        ]
    )
    for folder in (cache_dir() / "crash-reports", Path(tempfile.gettempdir())):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"crash-{stamp}.txt"
            path.write_text(text, encoding="utf-8")
            return path
        except OSError:
            continue
    raise error


def show_warning_line(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: object = None,
    line: str | None = None,
) -> None:
    """Print a warning as one line on stderr, without the source location Python adds.

    Installed as :data:`warnings.showwarning` while a subcommand runs: a warning is meant
    for the user (e.g. "the cache folder cannot be used"), not for a developer.

    Parameters
    ----------
    message, category, filename, lineno, file, line
        As :func:`warnings.showwarning` receives them; only ``message`` is shown.

    Returns
    -------
    None

    Examples
    --------
    >>> show_warning_line(UserWarning("the cache is read-only"), UserWarning, "x.py", 1)
    """
    click.echo(f"cubescan: warning: {message}", err=True)


class CubescanGroup(click.Group):
    """A click group with lazily loaded subcommands that turns every error into one line:
    an anticipated one (bad input) exits 2, an unforeseen one exits 3 with a crash report."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(SUBCOMMANDS))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in SUBCOMMANDS:
            module_name, attribute = SUBCOMMANDS[name][0].split(":")
            return getattr(importlib.import_module(module_name), attribute)
        return super().get_command(ctx, name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, SUBCOMMANDS[name][1]) for name in sorted(SUBCOMMANDS)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> object:
        with warnings.catch_warnings():
            warnings.showwarning = show_warning_line
            return self._invoke_reporting_errors(ctx)

    def _invoke_reporting_errors(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise  # usage errors and --help: click reports them itself
        except CubescanError as err:
            click.echo(f"cubescan: error: {err.message}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except UnicodeError as err:
            click.echo(f"cubescan: error: text that is not UTF-8: {err}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except OSError as err:
            where = f"{err.filename}: " if err.filename else ""
            click.echo(f"cubescan: error: {where}{err.strerror or err}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except KeyboardInterrupt:
            click.echo("cubescan: interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except Exception as err:
            report = write_crash_report(err, ["cubescan", *sys.argv[1:]])
            click.echo(
                f"cubescan: internal error: {type(err).__name__}: {err}; "
                f"please report it with {report}",
                err=True,
            )
            sys.exit(EXIT_INTERNAL_ERROR)


@click.group(cls=CubescanGroup)
@click.version_option(package_name="cubescan")
def main() -> None:
    """Scan a twisty cube, tell whether it can be solved, explain why not, and solve it."""
