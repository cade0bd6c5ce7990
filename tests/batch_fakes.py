"""Stand-in per-cube checks for the batch-runner tests (the runner takes any such function).

Each cube folder holds ``cube.json`` with the row to report; the functions below read it
the way the real check reads photos, failing the same ways on broken folders.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from cubescan.errors import BadInputError


def row_from_folder(folder: Path, out: Path) -> dict:
    """The row stored in ``folder/cube.json``."""
    path = folder / "cube.json"
    if not path.is_file():
        raise BadInputError("missing-face", f"{folder.name}: no cube.json in the folder")
    return json.loads(path.read_text())  # a damaged file raises ValueError


def slow_row_from_folder(folder: Path, out: Path) -> dict:
    """As :func:`row_from_folder`, a quarter of a second per cube (for kill-and-resume)."""
    time.sleep(0.25)
    return row_from_folder(folder, out)
