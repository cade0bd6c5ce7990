"""`cubescan read IMAGE`: every face a photo shows: its grid, colour samples and names, and
how the faces join."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
import cv2
import numpy as np
from rich.console import Console
from rich.table import Table

from cubescan.calibration.face_naming import name_face_colors
from cubescan.scanner.cli.preparation import start_preparation, waiting
from cubescan.scanner.frames.imageio import check_image_output, read_image, write_image
from cubescan.scanner.grid import FacesInView, detect_faces
from cubescan.scanner.grid.multi import SIDES, join_faces
from cubescan.scanner.output.draw import NAME_BGR, annotate_face
from cubescan.scanner.pipeline.photos import FacePhoto, read_face
from cubescan.scanner.sampling import sample_colors


@click.command("read")
@click.argument("image_path", metavar="IMAGE", type=click.Path(path_type=Path))
@click.option("--size", type=click.IntRange(2, 7), help="Cube size N (detected when omitted).")
@click.option("--json", "as_json", is_flag=True, help="Print the reading as JSON.")
@click.option("--annotate", type=click.Path(path_type=Path), help="Write the annotated image.")
def read(image_path: Path, size: int | None, as_json: bool, annotate: Path | None) -> None:
    """Detect every face in IMAGE and name its colours.

    Every face IMAGE shows (a photo taken from a corner shows two or three): cell centres
    (row-major from the face's top as seen), each cell's colour sample (Lab) and colour
    name, and which faces share an edge. The JSON's ``size`` and ``cells`` are the best
    face's; ``faces`` lists them all, best first."""
    if annotate is not None:
        check_image_output(annotate)  # before the work, not after it
    image = read_image(image_path)
    preparation = start_preparation(["detector"])
    with waiting("finding the faces"):
        photos, view = _read_faces(image, str(image_path), size)
    preparation.finish()
    namings = [name_face_colors(photo.lab) for photo in photos]
    if annotate is not None:
        write_image(annotate, _annotated(image, photos, namings))
    if as_json:
        faces = [
            {"face": index + 1, **_face_json(photo, naming), "joins": _joins_json(view, index)}
            for index, (photo, naming) in enumerate(zip(photos, namings, strict=True))
        ]
        reading = {"image": str(image_path), **_face_json(photos[0], namings[0]), "faces": faces}
        click.echo(json.dumps(reading, indent=2))
        sys.exit(0)
    console = Console()
    for index, (photo, naming) in enumerate(zip(photos, namings, strict=True)):
        n = round(len(photo.lab) ** 0.5)
        title = f"{image_path.name}: face {index + 1} of {len(photos)}, a {n}x{n} face"
        console.print(_face_table(title, photo, naming))
        for join in _joins_json(view, index):
            console.print(f"  its {join['side']} side joins face {join['face']}")


def _read_faces(
    image: np.ndarray, source: str, size: int | None
) -> tuple[list[FacePhoto], FacesInView]:
    """Every face of the photo, sampled, and how they join; when the fast search finds none,
    the one face :func:`read_face` finds (its thorough search, and its errors)."""
    view = detect_faces(image, size)
    if not view.faces:
        return [read_face(image, source, size)], join_faces([])
    photos = [
        FacePhoto(source, image, face.cells, sample_colors(image, face).lab, face.confidence)
        for face in view.faces
    ]
    return photos, view


def _face_json(photo: FacePhoto, naming) -> dict:
    """One face's size and cells, as the JSON shows them."""
    n = round(len(photo.lab) ** 0.5)
    centers = photo.cells.mean(axis=1)
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
    return {"size": n, "cells": cells}


def _joins_json(view: FacesInView, index: int) -> list[dict]:
    """The faces that share an edge with face ``index``: their number and which of its sides
    (as the face is seen) they join."""
    joins = []
    for link in view.links:
        if index in link.faces:
            own = link.faces.index(index)
            other = link.faces[1 - own]
            joins.append({"face": other + 1, "side": SIDES[link.sides[own]]})
    return joins


def _face_table(title: str, photo: FacePhoto, naming) -> Table:
    """One face's cells as a table."""
    n = round(len(photo.lab) ** 0.5)
    centers = photo.cells.mean(axis=1)
    table = Table(title=title)
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
    return table


def _annotated(image: np.ndarray, photos: list[FacePhoto], namings: list) -> np.ndarray:
    """The photo with every face's cells outlined and named, and each face's number at its
    middle when there are several."""
    out = image
    for photo, naming in zip(photos, namings, strict=True):
        fills = [NAME_BGR.get(name, (128, 128, 128)) for name in naming.names]
        out = annotate_face(out, photo.cells, list(naming.names), fills)
    if len(photos) > 1:
        for index, photo in enumerate(photos):
            middle = photo.cells.reshape(-1, 2).mean(axis=0)
            scale = max(0.6, min(2.0, float(np.ptp(photo.cells[..., 0])) / 120))
            origin = (int(middle[0] - 10 * scale), int(middle[1] + 10 * scale))
            label = str(index + 1)
            for color, width in (((0, 0, 0), 6), ((255, 255, 255), 2)):
                cv2.putText(
                    out, label, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, color, width, cv2.LINE_AA
                )
    return out
