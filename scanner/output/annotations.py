"""A checked cube's photos with their grids and color names drawn on, and its net."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from cubescan.scanner.frames.imageio import write_image
from cubescan.scanner.output.draw import annotate_face, draw_net, fills_from_names
from cubescan.solver.geometry import FACES

if TYPE_CHECKING:  # the pipeline draws with this module: its types only, for the hints
    from cubescan.scanner.pipeline.check import CubeReport
    from cubescan.scanner.pipeline.photos import FacePhoto


def write_annotations(
    report: CubeReport, photos: Sequence[FacePhoto], folder: Path
) -> list[np.ndarray]:
    """Write each photo with its grid and colour names, and the cube's net, into ``folder``.

    Returns the annotated photos (for thumbnails).

    Parameters
    ----------
    report
        The cube's report (:func:`cube_report`).
    photos
        The photos it was read from (:func:`read_cube_photos`), matched to the report's
        placements by ``source``.
    folder
        Destination, made if missing: ``<photo stem>-annotated.jpg`` per photo (colours
        as read, before repair), and ``net.png`` (the cube after repair, stickers with
        problems outlined).

    Returns
    -------
    list of numpy.ndarray
        The annotated photos (BGR ``uint8``, each the size of its photo), in the order of
        ``photos``.

    Examples
    --------
    >>> import tempfile
    >>> from cubescan.scanner.pipeline.check import check_images
    >>> cube = Path(__file__).parents[2] / "sample_images" / "cube_3x3"  # six rendered photos
    >>> report, photos = check_images([cube], solve=False)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     annotated = write_annotations(report, photos, Path(folder))
    ...     written = sorted(p.name for p in Path(folder).iterdir())
    >>> len(annotated), annotated[0].shape == photos[0].image.shape
    (6, True)
    >>> written
    ['B-annotated.jpg', 'D-annotated.jpg', ..., 'U-annotated.jpg', 'net.png']
    """
    folder.mkdir(parents=True, exist_ok=True)
    per_face = report.size * report.size
    names = {face: info.name for face, info in report.colors.items()}
    fills = fills_from_names(names, {face: info.lab for face, info in report.colors.items()})
    index_of = {p.source: i for i, p in enumerate(report.photos)}
    annotated = []
    for photo in photos:
        placement = report.photos[index_of[photo.source]]
        start = FACES.index(placement.face) * per_face
        grid = np.arange(per_face).reshape(report.size, report.size)
        # Photo cell k shows the face sticker that the photo's quarter turns bring it to.
        where = np.empty(per_face, dtype=int)
        where[np.rot90(grid, -placement.quarter_turns).ravel()] = np.arange(per_face)
        letters = [report.read_facelets[start + where[k]] for k in range(per_face)]
        image = annotate_face(
            photo.image, photo.cells, [names[x] for x in letters], [fills[x] for x in letters]
        )
        write_image(folder / f"{Path(photo.source).stem}-annotated.jpg", image)
        annotated.append(image)
    marked = frozenset(i for p in report.validation.problems for i in p.facelets)
    write_image(folder / "net.png", draw_net(report.facelets, report.size, fills, marked=marked))
    return annotated
