"""Pictures for people: a photo with its detected grid and colour names, the cube's net.

Plain functions, arrays in and arrays out (BGR ``uint8`` images); saving or showing them
is the caller's business (``cubescan check --annotate``, the scan window).

Examples
--------
>>> net = draw_net("UUUURRRRFFFFDDDDLLLLBBBB", 2)
>>> net.shape[2], net.dtype
(3, dtype('uint8'))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from cubescan.calibration.colorspace import lab_to_bgr
from cubescan.solver.geometry import FACES

# BGR display colours by colour name and, failing that, by face letter (standard scheme).
NAME_BGR = {
    "white": (235, 235, 235),
    "yellow": (0, 213, 255),
    "red": (58, 30, 196),
    "orange": (0, 88, 255),
    "green": (96, 158, 0),
    "blue": (186, 81, 0),
}
FACE_BGR = {
    "U": NAME_BGR["white"],
    "R": NAME_BGR["red"],
    "F": NAME_BGR["green"],
    "D": NAME_BGR["yellow"],
    "L": NAME_BGR["orange"],
    "B": NAME_BGR["blue"],
}
_NET_ORIGIN = {"U": (1, 0), "L": (0, 1), "F": (1, 1), "R": (2, 1), "B": (3, 1), "D": (1, 2)}
_FONT = cv2.FONT_HERSHEY_SIMPLEX


def _text_color(bgr: tuple[int, int, int]) -> tuple[int, int, int]:
    b, g, r = bgr
    return (0, 0, 0) if 0.114 * b + 0.587 * g + 0.299 * r > 140 else (255, 255, 255)


def annotate_face(
    image: np.ndarray,
    cells: np.ndarray,
    labels: Sequence[str],
    fills: Sequence[tuple[int, int, int]] | None = None,
) -> np.ndarray:
    """The photo with each detected cell outlined and labelled with its colour name.

    Parameters
    ----------
    image
        BGR photo, ``uint8``.
    cells
        Cell outlines, shape (N*N, 4, 2), in image pixels, row-major.
    labels
        A short label per cell (its colour name).
    fills
        Optional display colour per cell for the label's background.

    Returns
    -------
    numpy.ndarray
        A new image; the input is not changed.

    Examples
    --------
    >>> cell = np.array([[[10, 10], [50, 10], [50, 50], [10, 50]]], dtype=float)
    >>> bool(annotate_face(np.zeros((60, 60, 3), np.uint8), cell, ["red"]).any())
    True
    """
    out = image.copy()
    scale = max(0.35, min(1.2, np.ptp(cells[..., 0]) / (len(labels) ** 0.5) / 90))
    thickness = max(1, round(scale * 2))
    for index, (outline, label) in enumerate(zip(cells, labels, strict=True)):
        points = np.round(outline).astype(np.int32)
        cv2.polylines(out, [points], True, (255, 0, 255), thickness, cv2.LINE_AA)
        center = points.mean(axis=0)
        (width, height), _ = cv2.getTextSize(label, _FONT, scale, thickness)
        corner = (int(center[0] - width / 2), int(center[1] + height / 2))
        fill = fills[index] if fills is not None else (0, 0, 0)
        cv2.rectangle(
            out,
            (corner[0] - 2, corner[1] - height - 2),
            (corner[0] + width + 2, corner[1] + 4),
            fill,
            cv2.FILLED,
        )
        cv2.putText(out, label, corner, _FONT, scale, _text_color(fill), thickness, cv2.LINE_AA)
    return out


def draw_net(
    facelets: str,
    size: int,
    fills: Mapping[str, tuple[int, int, int]] | None = None,
    cell: int | None = None,
    marked: frozenset[int] = frozenset(),
) -> np.ndarray:
    """The unfolded cube (U on top; L F R B; D below) as an image.

    Parameters
    ----------
    facelets
        Face letters in facelet order; ``"?"`` for a sticker not read yet.
    size
        N.
    fills
        Face letter -> BGR colour; the standard scheme's colours by default.
    cell
        Sticker size in pixels (default: the net is about 480 pixels wide).
    marked
        Facelet indices to outline in magenta.

    Returns
    -------
    numpy.ndarray
        BGR image on a dark grey background.

    Examples
    --------
    >>> draw_net("?" * 54, 3, cell=10).shape
    (92, 122, 3)
    """
    fills = dict(FACE_BGR if fills is None else fills)
    cell = cell or max(8, 120 // size)
    gap = 2
    image = np.full((3 * size * cell + gap, 4 * size * cell + gap, 3), 40, np.uint8)
    per_face = size * size
    for index, letter in enumerate(facelets):
        row, col = divmod(index % per_face, size)
        ox, oy = _NET_ORIGIN[FACES[index // per_face]]
        x, y = (ox * size + col) * cell + gap, (oy * size + row) * cell + gap
        color = fills.get(letter, (90, 90, 90))
        cv2.rectangle(image, (x, y), (x + cell - gap, y + cell - gap), color, cv2.FILLED)
        if index in marked:
            cv2.rectangle(image, (x, y), (x + cell - gap, y + cell - gap), (255, 0, 255), 2)
    return image


def fills_from_names(
    colors: Mapping[str, str], labs: Mapping[str, Sequence[float]] | None = None
) -> dict[str, tuple[int, int, int]]:
    """Face letter -> display colour: the standard colour for a standard name, otherwise
    the colour as the camera saw it (its mean Lab), else the face's standard colour.

    Parameters
    ----------
    colors
        Face letter -> colour name (``"white"``..., or any other name such as
        ``"color 1"``).
    labs
        Face letter -> mean CIELAB (L, a, b) of its stickers, for names that are not
        standard colours.

    Returns
    -------
    dict
        Face letter -> BGR ``(b, g, r)`` ints in 0..255: all of URFDLB (their standard
        colours, :data:`FACE_BGR`, unless ``colors`` says otherwise) and any other letter
        in ``colors`` that got a colour.

    Examples
    --------
    >>> fills_from_names({"U": "yellow"})["U"]
    (0, 213, 255)
    >>> fills_from_names({"U": "color 1"}, {"U": (53.2, 80.1, 67.2)})["U"]
    (0, 0, 255)
    """
    fills = dict(FACE_BGR)
    for face, name in colors.items():
        if name in NAME_BGR:
            fills[face] = NAME_BGR[name]
        elif labs is not None and face in labs:
            bgr = np.clip(np.round(lab_to_bgr(np.asarray(labs[face], dtype=float))), 0, 255)
            fills[face] = tuple(int(v) for v in bgr)
    return fills
