"""The batch HTML report, opened in a real browser (headless Chromium), shows the nets."""

from __future__ import annotations

import shutil
import subprocess

import cv2
import numpy as np
import pytest

from cubescan.scanner.output.report_html import render_batch_html
from cubescan.solver.moves import apply_moves, solved_facelets
from cubescan.solver.validate import validate

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def screenshot(page, png, width: int = 1200, height: int = 800) -> None:
    """Render a page with headless Chromium (flags for a closed network, as root)."""
    subprocess.run(
        [
            CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", f"--user-data-dir={png.parent / 'profile'}",
            f"--window-size={width},{height}", f"--screenshot={png}", page.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )  # fmt: skip


@pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed (apt chromium)")
def test_report_page_renders_nets_in_color(tmp_path):
    good = apply_moves(solved_facelets(3), "R U F'")
    bad = good[:8] + good[9] + good[8] + good[10:]
    rows = [
        {
            "cube": "solvable-cube",
            "status": "ok",
            **validate(good).to_dict(),
            "solution": "F U' R'",
        },
        {"cube": "broken-cube", "status": "ok", **validate(bad).to_dict()},
        {"cube": "no-photos", "status": "error", "error": "a cube needs six face photos"},
    ]
    page = tmp_path / "report.html"
    page.write_text(render_batch_html(rows), encoding="utf-8")
    png = tmp_path / "report.png"
    screenshot(page, png)
    image = cv2.imread(str(png))
    assert image is not None and image.std() > 20
    # The standard green and red sticker fills of the nets are on screen.
    green = np.all(np.abs(image.astype(int) - (96, 158, 0)) < 25, axis=2).sum()
    red = np.all(np.abs(image.astype(int) - (58, 30, 196)) < 25, axis=2).sum()
    assert green > 500 and red > 500
