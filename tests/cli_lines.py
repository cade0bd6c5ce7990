"""Reading the command line's stderr in tests: the first run's status line set apart."""

from __future__ import annotations

FIRST_RUN_PREFIX = "cubescan: preparing the "


def message_lines(stderr: str) -> list[str]:
    """stderr's lines without the status line the first run after install prints."""
    return [line for line in stderr.strip().splitlines() if not line.startswith(FIRST_RUN_PREFIX)]
