"""`cubescan read IMAGE`: one face from one photo: its grid, colour samples and names."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from cubescan.calibration.face_naming import name_face_colors
from cubescan.scanner.cli.preparation import start_preparation, waiting
from cubescan.scanner.frames.imageio import check_image_output, read_image, write_image
from cubescan.scanner.output.draw import NAME_BGR, annotate_face
from cubescan.scanner.pipeline.photos import read_face


@click.command("read")
@click.argument("image_path", metavar="IMAGE", type=click.Path(path_type=Path))
@click.option("--size", type=click.IntRange(2, 7), help="Cube size N (detected when omitted).")
@click.option("--json", "as_json", is_flag=True, help="Print the reading as JSON.")
@click.option("--annotate", type=click.Path(path_type=Path), help="Write the annotated image.")
def read(image_path: Path, size: int | None, as_json: bool, annotate: Path | None) -> None:
    """Detect a face in IMAGE and name its colours.

    Detect one face in IMAGE: cell centres (row-major from the face's top as seen),
    each cell's colour sample (Lab) and colour name."""
    if annotate is not None:
        check_image_output(annotate)  # before the work, not after it
    image = read_image(image_path)
    preparation = start_preparation(["detector"])
    with waiting("finding the face"):
        photo = read_face(image, str(image_path), size)
    preparation.finish()
    naming = name_face_colors(photo.lab)
    n = round(len(photo.lab) ** 0.5)
    centers = photo.cells.mean(axis=1)
    if annotate is not None:
        fills = [NAME_BGR.get(name, (128, 128, 128)) for name in naming.names]
        write_image(annotate, annotate_face(image, photo.cells, list(naming.names), fills))
    if as_json:
        cells = [
            {
                "row": k // n,
                "col": k % n,
                "center": [round(float(v), 1) for v in centers[k]],
                "lab": [round(float(v), 2) for v in photo.lab[k]],
                "color": naming.names[k],
                "confidence": round(float(naming.confidence[k]), 3),
                "detection_confidence": round(float(photo.confidence[k]), 2),
            }
            for k in range(n * n)
        ]
        click.echo(json.dumps({"image": str(image_path), "size": n, "cells": cells}, indent=2))
        sys.exit(0)
    table = Table(title=f"{image_path.name}: a {n}x{n} face")
    for column in ("row", "col", "center (x, y)", "L a b", "colour", "confidence"):
        table.add_column(column)
    for k in range(n * n):
        table.add_row(
            str(k // n + 1),
            str(k % n + 1),
            f"{centers[k][0]:.0f}, {centers[k][1]:.0f}",
            " ".join(f"{v:.0f}" for v in photo.lab[k]),
            naming.names[k],
            f"{naming.confidence[k]:.2f}",
        )
    Console().print(table)
