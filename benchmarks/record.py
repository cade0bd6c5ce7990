"""Write a benchmark's printed figures into ``docs/accuracy.md``, with the commit measured.

Every script in ``benchmarks/`` takes ``--record``: what it prints is then also written into
its own section of ``docs/accuracy.md`` (between ``<!-- begin NAME -->`` and
``<!-- end NAME -->``), headed by the exact command, the commit it measured (and whether the
working tree had uncommitted changes) and the date. Runs without ``--record`` change nothing.
"""

from __future__ import annotations

import argparse
import atexit
import datetime
import io
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ACCURACY = ROOT / "docs" / "accuracy.md"


def add_record_argument(parser: argparse.ArgumentParser) -> None:
    """Give a benchmark's parser the ``--record`` flag."""
    parser.add_argument(
        "--record",
        action="store_true",
        help="also write the printed figures into docs/accuracy.md, with the commit measured",
    )


class _Tee(io.TextIOBase):
    def __init__(self, stream: io.TextIOBase) -> None:
        self.stream = stream
        self.captured = io.StringIO()

    def write(self, text: str) -> int:
        self.captured.write(text)
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()


def _git(*args: str) -> str:
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)
    return done.stdout.strip()


def start_recording(enabled: bool, section: str | None = None) -> None:
    """From now on, copy what the script prints; at exit, write it into its section.

    The section is named ``section`` (a mode whose runs are kept beside the plain ones,
    e.g. ``bench_solver match-peer``), else after the script (``eval_detect`` for
    ``eval_detect.py``).
    """
    if not enabled:
        return
    name = section or Path(sys.argv[0]).stem
    command = " ".join(["python", f"benchmarks/{Path(sys.argv[0]).name}", *sys.argv[1:]])
    commit = _git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no"))
    started = datetime.date.today().isoformat()
    tee = _Tee(sys.stdout)
    sys.stdout = tee
    failed = []
    previous_hook = sys.excepthook

    def hook(*exc_info: object) -> None:
        failed.append(True)  # a run that crashed records nothing
        previous_hook(*exc_info)

    sys.excepthook = hook

    def write() -> None:
        sys.stdout = tee.stream
        if failed:
            return
        output = tee.captured.getvalue().rstrip()
        state = " (with uncommitted changes)" if dirty else ""
        section = (
            f"<!-- begin {name} -->\n### {name}\n\n`{command}` at commit `{commit}`{state}, "
            f"{started}:\n\n```text\n{output}\n```\n<!-- end {name} -->"
        )
        text = ACCURACY.read_text(encoding="utf-8") if ACCURACY.exists() else "# Measured\n"
        pattern = re.compile(rf"<!-- begin {name} -->.*?<!-- end {name} -->", re.S)
        if pattern.search(text):
            text = pattern.sub(lambda _: section, text)
        else:
            text = text.rstrip() + "\n\n" + section + "\n"
        ACCURACY.write_text(text, encoding="utf-8")
        print(f"recorded in {ACCURACY.relative_to(ROOT)}", file=sys.stderr)

    atexit.register(write)
