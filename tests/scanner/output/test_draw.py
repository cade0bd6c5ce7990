"""Drawings: annotated photos and nets have the right content where it should be."""

from __future__ import annotations

import numpy as np

from cubescan.scanner.output.draw import (
    FACE_BGR,
    NAME_BGR,
    annotate_face,
    draw_net,
    fills_from_names,
)
from cubescan.solver.moves import solved_facelets


def test_net_puts_each_face_where_the_design_net_has_it():
    cell = 10
    net = draw_net(solved_facelets(3), 3, cell=cell)
    # Face origins in cells: U at (1,0), L (0,1), F (1,1), R (2,1), B (3,1), D (1,2).
    for face, (ox, oy) in {"U": (1, 0), "L": (0, 1), "F": (1, 1), "R": (2, 1), "D": (1, 2)}.items():
        y, x = (oy * 3 + 1) * cell + 5, (ox * 3 + 1) * cell + 5
        assert tuple(int(v) for v in net[y, x]) == FACE_BGR[face]


def test_unread_stickers_are_grey_and_marked_ones_outlined():
    net = draw_net("?" * 24, 2, cell=20, marked=frozenset({0}))
    assert tuple(int(v) for v in net[40 + 10, 40 + 10]) == (90, 90, 90)
    outline = net[0:25, 40:65].reshape(-1, 3)
    assert any(tuple(int(v) for v in px) == (255, 0, 255) for px in outline)


def test_annotation_outlines_every_cell_and_keeps_the_photo():
    image = np.full((120, 120, 3), 30, np.uint8)
    cells = np.array(
        [[[x, y], [x + 50, y], [x + 50, y + 50], [x, y + 50]] for y in (5, 60) for x in (5, 60)],
        dtype=float,
    )
    out = annotate_face(image, cells, ["white", "red", "blue", "green"])
    assert (image == 30).all()  # the input is left alone
    edge = out[4:7, 30].astype(int)  # across a cell's top edge
    assert any(b > 150 and g < 100 and r > 150 for b, g, r in edge)


def test_fills_follow_the_color_names():
    fills = fills_from_names({"U": "yellow", "D": "white", "F": "colour 3"})
    assert fills["U"] == NAME_BGR["yellow"] and fills["D"] == NAME_BGR["white"]
    assert fills["F"] == FACE_BGR["F"]
