"""Prepare the numba caches and the solver's tables once per test run, before the tests.

Run by ``conftest.py`` in the xdist controller, as two processes side by side (one per
core): ``python tests/warm_up.py detector`` and ``python tests/warm_up.py solver``. Without
it both xdist workers compile the same kernels at the same moment, and the worker that
first needs the solver's tables idles while the other builds them. Each process touches a
``<part>.done`` file in the folder given as its second argument when it ends, whether or
not it succeeded: a failure here shows again, with its traceback, in the tests themselves.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def prepare_detector() -> None:
    """Compile the detector's kernels: a cube's photos read, and one frame followed."""
    import cv2

    from cubescan.scanner.grid import detect_grid
    from cubescan.scanner.pipeline.check import check_images

    check_images([ROOT / "sample_images" / "cube_3x3"], solve=False)
    frame = cv2.imread(str(ROOT / "sample_images" / "face_3x3_stickerless.jpg"))
    found = detect_grid(frame, thorough=True)
    detect_grid(frame, previous=found)


def prepare_solver() -> None:
    """Build the solver's tables and compile its searches, behind the detector's compile
    (which the workers wait for); then the big cubes' tables, which the CLI's own warm-up
    leaves to the first big cube, so that no worker idles waiting for their build."""
    from cubescan.scanner.cli.preparation import at_low_priority, warm_up_solver
    from cubescan.solver.big.center_phases import PHASE_SIZES, center_tables
    from cubescan.solver.big.cycles import cycle_books

    at_low_priority(warm_up_solver)
    for size in PHASE_SIZES:
        center_tables(size)
    for size in (4, 5, 6, 7):
        cycle_books(size)


def main(part: str, done_folder: str) -> None:
    try:
        {"detector": prepare_detector, "solver": prepare_solver}[part]()
    finally:
        (Path(done_folder) / f"{part}.done").touch()


if __name__ == "__main__":
    main(*sys.argv[1:])
