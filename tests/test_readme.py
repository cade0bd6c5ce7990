"""The README never lies: its test command is the one CI runs, its example state exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = re.search(r"```bash\n(.*?)```", readme, re.S).group(1).splitlines()
    assert len(first_block) == 2
    test_command = first_block[1].split(" && ", 2)[2]
    assert test_command in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_readme_main_command_uses_a_bundled_example():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    main_command = re.search(r"```bash\n(.*?)\n", readme, re.S).group(1)
    for path in re.findall(r"sample_images/\S+?(?=[)\"\s])", main_command):
        assert (ROOT / path).exists(), path
