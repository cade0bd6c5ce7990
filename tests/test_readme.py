"""The README never lies: its test command is the one CI runs, its example state exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = re.search(r"```bash\n(.*?)```", readme, re.S).group(1).splitlines()
    assert len(first_block) == 2
    steps = first_block[1].split(" && ")[2:]  # after making and entering the venv
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    places = [ci.find(step) for step in steps]
    assert -1 not in places and places == sorted(places), (steps, places)


def test_pip_install_dot_installs_every_package_folder():
    # The README's first line is a plain `pip install .`, which installs only the packages
    # pyproject.toml lists: a folder left out is missing there (and present in an
    # editable install, so no other test would notice).
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    setup = config["tool"]["setuptools"]
    folders = {folder: name for name, folder in setup["package-dir"].items()}
    on_disk = set()
    for folder, name in folders.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            inner = init.parent.relative_to(ROOT / folder).parts
            on_disk.add(".".join((name, *inner)))
    assert on_disk == set(setup["packages"])


def test_readme_is_short_and_points_only_inside_the_repository():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 150
    assert "../" not in readme
    for target in re.findall(r"\]\(([^)#]+)\)", readme):
        assert (ROOT / target).exists(), target


def test_the_python_example_prints_what_its_comments_say(table_cache, monkeypatch, capsys):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", readme, re.S).group(1)
    monkeypatch.chdir(ROOT)
    exec(compile(code, "README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    promised = [line.split("  # ", 1)[1] for line in code.splitlines() if "print(" in line]
    assert printed == promised


def test_readme_main_command_uses_a_bundled_example():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    main_command = re.search(r"```bash\n(.*?)\n", readme, re.S).group(1)
    paths = re.findall(r"sample_images/[^\s)\"]+", main_command)
    assert paths
    for path in paths:
        assert (ROOT / path).exists(), path


def test_the_main_job_reads_the_bundled_cube_exactly(table_cache):
    import json

    from click.testing import CliRunner

    from cubescan.scanner.cli import main

    folder = ROOT / "sample_images" / "cube_3x3"
    truth = json.loads((folder / "truth.json").read_text())
    result = CliRunner().invoke(main, ["check", str(folder), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["facelets"] == truth["facelets"] and report["valid"] and report["solution"]
