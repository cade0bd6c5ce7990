"""The crossings cue: the dark gaps where four pieces' rounded corners meet
on a stickerless face seen close lie on a lattice even where same-coloured pieces merge.
"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from cubescan.scanner.grid._kernels import _grow_lattices
from cubescan.scanner.grid.cells import _sample, cell_statistics
from cubescan.scanner.grid.face import FaceDetection, _to_frame, make_detection
from cubescan.scanner.grid.geometry import _face_of_lattice, _lattice_homography, warp_points
from cubescan.scanner.grid.lattice import _nearest_ring, _neighbour_pairs
from cubescan.scanner.grid.params import (
    _STEP_TOL,
    CROSSING_DIP,
    CROSSING_SPACING,
    MAX_CROSSING_AREA_RATIO,
)
from cubescan.scanner.grid.regions import Regions
from cubescan.scanner.grid.windows import _score_window


def _crossing_faces(
    image: np.ndarray, lab: np.ndarray, regions: Regions, size: int | None
) -> list[FaceDetection]:
    """A stickerless face seen close, found by the dark gaps where four of its pieces meet.

    Neighbouring pieces of one colour show no seam between them, so a face of a few large
    same-coloured blocks leaves too few regions of a sticker's size to link. But each
    piece's corners are rounded: where four meet, a small dark gap shows the core, and
    these gaps lie on the (N-1) x (N-1) lattice of the face's inner crossings. A face
    stands when it passes the region cue's checks with every cell taken as seen, and every
    crossing is darker than each of its four cells (flat clutter's specks are not).
    ``lab`` and ``regions`` are the first pass's; returns [] or the one face found.
    """
    best = None
    for coords, members in link_crossings(regions):
        coords = coords - coords.min(axis=0)
        present = np.zeros(coords.max(axis=0)[::-1] + 1, bool)
        present[coords[:, 1], coords[:, 0]] = True
        # The largest full k x k blocks of crossings: faces of k + 1.
        for k in range(min(7 - 1, *present.shape), 1, -1):
            if size is not None and k + 1 != size:
                continue
            full = sliding_window_view(present, (k, k)).all(axis=(2, 3))
            for oy, ox in zip(*np.nonzero(full), strict=True):
                found = _crossing_window(coords - [ox, oy], members, k + 1, regions, lab)
                if found is not None and (best is None or found[0] > best[0]):
                    best = found
            if best is not None:
                break
    if best is None:
        return []
    _, face_h, n, confidence, _ = best
    return [make_detection(_to_frame(lab.shape, image.shape) @ face_h, n, confidence)]


def _crossing_window(
    coords: np.ndarray, members: np.ndarray, n: int, regions: Regions, lab: np.ndarray
):
    """:func:`_score_window` for the face whose inner crossings are the lattice's
    crossings at 0..n-2 on both axes (every cell taken as seen), or None."""
    inside = np.all((coords >= 0) & (coords < n - 1), axis=1)
    fit = _lattice_homography(coords[inside], regions.centers[members[inside]])
    if fit is None:
        return None
    # Crossing (i, j) is cell (i, j)'s top-left corner, shifted by one.
    cells_h = _face_of_lattice(fit[0])
    found = _score_window(cells_h, n, np.ones((n, n), bool), regions, lab)
    if found is None or not _crossings_dark(found[1], n, lab):
        return None
    return found


def _crossings_dark(face_h: np.ndarray, n: int, lab: np.ndarray) -> bool:
    """True when every inner crossing of the face is ``CROSSING_DIP`` darker (relative)
    than each of the four cells meeting there."""
    lightness = cell_statistics(face_h, n, lab).lightness
    corners = np.array([(i, j) for j in range(1, n) for i in range(1, n)], float)
    at_crossing = _sample(np.ascontiguousarray(lab[..., 0]), warp_points(corners, face_h)).ravel()
    for (i, j), value in zip(corners.astype(int), at_crossing.astype(float), strict=True):
        if value > (1 - CROSSING_DIP) * lightness[j - 1 : j + 1, i - 1 : i + 1].min():
            return False
    return True


def link_crossings(regions: Regions) -> list[tuple[np.ndarray, np.ndarray]]:
    """Group small regions far apart for their size into lattices, as
    :func:`_link_lattices` groups stickers: the gaps at a stickerless face's crossings.

    Parameters
    ----------
    regions
        The regions of a working image (:func:`~cubescan.scanner.grid.regions.find_regions`).

    Returns
    -------
    list of tuple of np.ndarray
        Per lattice of four or more crossings, their integer lattice coordinates (K, 2) and
        their indices into ``regions`` (K,).

    Examples
    --------
    >>> from cubescan.scanner.grid.regions import Regions
    >>> spots = np.array([(x, y) for y in range(4) for x in range(4)], float) * 40 + 20
    >>> count = len(spots)
    >>> gaps = Regions(spots, np.full(count, 16.0), np.tile(np.eye(2) / 4.0, (count, 1, 1)),
    ...                np.full(count, 6.0), np.ones(count), np.zeros((0, 2)), np.zeros((0, 2, 2)))
    >>> [len(members) for _, members in link_crossings(gaps)]
    [16]
    """
    m = len(regions.areas)
    if m < 4:
        return []
    side = np.sqrt(regions.areas)
    src, dst, disp = _neighbour_pairs(regions.centers)
    dist = np.linalg.norm(disp, axis=1)
    larger = np.maximum(side[src], side[dst])
    ratio = regions.areas[dst] / regions.areas[src]
    ok = (
        (dist > CROSSING_SPACING[0] * larger)
        & (dist < CROSSING_SPACING[1] * larger)
        & (ratio > 1 / MAX_CROSSING_AREA_RATIO)
        & (ratio < MAX_CROSSING_AREA_RATIO)
    )
    src, dst, disp, dist = src[ok], dst[ok], disp[ok], dist[ok]
    near, nearest = _nearest_ring(m, src, dist)
    src, dst, disp = src[near], dst[near], disp[near]
    # A gap's shape says little of the lattice's frame: steps are measured in pixels.
    local = disp / nearest[src][:, None]
    first = np.searchsorted(src, np.arange(m + 1))
    order = np.argsort(-np.diff(first), kind="stable")
    members, ends, coords = _grow_lattices(order, first, dst, disp, local, _STEP_TOL)
    lattices = np.split(members, ends[:-1])
    return [(coords[group].copy(), group) for group in lattices if len(group) >= 4]
