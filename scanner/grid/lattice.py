"""Step 2, lattices: regions one pitch apart in their own frames link into
integer lattice coordinates; a homography is fitted, grown ring by ring, split at a fold,
and its best window chosen.
"""

from __future__ import annotations

import numpy as np
from scipy.spatial import cKDTree

from cubescan.scanner.grid._kernels import _grow_lattices, _nearest
from cubescan.scanner.grid.cells import cell_statistics
from cubescan.scanner.grid.geometry import (
    _cell_areas,
    _invertible,
    _lattice_aspect,
    _lattice_homography,
    _median,
    exact_fit,
    warp_points,
)
from cubescan.scanner.grid.params import (
    _REGION_PITCH_RANGE,
    _STEP_TOL,
    MAX_EXTRAPOLATED_ASPECT,
    MAX_FOLD_RESIDUAL,
    MAX_LATTICE_ASPECT,
    MAX_NEIGHBOUR_AREA_RATIO,
    MIN_FOLD_BEND,
    ONE_COLOR_SHARE,
    REGION_EDGE_PX,
)
from cubescan.scanner.grid.plastic import _dark_below, _light_cells_of_the_main_color
from cubescan.scanner.grid.regions import Regions
from cubescan.scanner.grid.windows import _best_window, _merged_cells


def _link_lattices(regions: Regions) -> list[tuple[np.ndarray, np.ndarray]]:
    """Group regions into lattices: a list of (integer coords (K, 2), region indices (K,))."""
    m = len(regions.areas)
    src, dst, disp = _neighbour_pairs(regions.centers)
    # Displacement in the source region's unit frame: a lattice neighbour is one pitch away.
    local = np.einsum("nij,nj->ni", regions.whiten[src], disp)
    dist = np.linalg.norm(local, axis=1)
    ratio = regions.areas[dst] / regions.areas[src]
    # Neighbouring stickers have about the same area; a block of two merged same-colour
    # stickers has twice a sticker's, and would lend the lattice its stretched frame.
    ok = (
        (dist > _REGION_PITCH_RANGE[0])
        & (dist < _REGION_PITCH_RANGE[1])
        & (ratio > 1 / MAX_NEIGHBOUR_AREA_RATIO)
        & (ratio < MAX_NEIGHBOUR_AREA_RATIO)
    )
    src, dst, disp, local, dist = src[ok], dst[ok], disp[ok], local[ok], dist[ok]
    near, _ = _nearest_ring(m, src, dist)
    src, dst, disp, local = src[near], dst[near], disp[near], local[near]
    # Each region's neighbours, in order: rows first[i]:first[i + 1] of dst, disp and local.
    first = np.searchsorted(src, np.arange(m + 1))
    counts = np.diff(first)
    # Seeds with the most neighbours first; among them, whole stickers (about as large as
    # their neighbours) before pieces of one cut by glare or a finger, whose own frame
    # would skew the lattice.
    has = counts > 0
    typical = np.zeros(m)
    typical[has] = -np.abs(
        np.log(regions.areas[has] / _neighbour_median(regions.areas, dst, first)[has])
    )
    order = np.lexsort((-typical, -counts))
    members, ends, coords = _grow_lattices(order, first, dst, disp, local, _STEP_TOL)
    return [(coords[group].copy(), group) for group in np.split(members, ends[:-1]) if len(group)]


def _neighbour_pairs(centers: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each point's (up to) eight nearest others: source and neighbour indices, sorted by
    source, and the displacements between them."""
    k = min(9, len(centers))
    _, nbr = cKDTree(centers).query(centers, k=k)
    src, dst = np.repeat(np.arange(len(centers)), k - 1), nbr[:, 1:].ravel()
    return src, dst, centers[dst] - centers[src]


def _nearest_ring(m: int, src: np.ndarray, dist: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which links (``src`` of ``m`` points, lengths ``dist``) reach a point's nearest ring
    of neighbours, and each point's nearest distance: diagonals are perpendicular too, but
    longer."""
    nearest = np.full(m, np.inf)
    np.minimum.at(nearest, src, dist)
    return dist < 1.3 * nearest[src], nearest


def _neighbour_median(areas: np.ndarray, dst: np.ndarray, first: np.ndarray) -> np.ndarray:
    """Median area of each region's neighbours (``np.median``'s value; 0 with none)."""
    counts = np.diff(first)
    owner = np.repeat(np.arange(len(counts)), counts)
    table = np.full((len(counts), max(1, counts.max(initial=0))), np.inf)
    table[owner, np.arange(len(dst)) - first[owner]] = areas[dst]
    table.sort(axis=1)
    rows, half = np.arange(len(counts)), counts // 2
    upper = table[rows, np.minimum(half, table.shape[1] - 1)]
    lower = table[rows, np.maximum(half - 1, 0)]
    median = np.where(counts % 2 == 1, upper, (lower + upper) / 2)
    return np.where(counts > 0, median, 0.0)


def _fit_face(
    coords: np.ndarray,
    members: np.ndarray,
    regions: Regions,
    lab: np.ndarray,
    size: int | None,
    slack: bool = False,
):
    """Fit the N x N face to one lattice; None when it does not behave like a cube face.

    A lattice that fits no face but is bent along one of its lines is two faces of the
    cube seen across their shared edge: each side is then fitted on its own. ``slack``
    takes regions for square with a small region's slack (see :func:`_fit_flat_face`).
    """
    found = _fit_flat_face(coords, members, regions, lab, size, slack)
    if found is not None:
        return found
    sides = _fold_sides(coords, regions.centers[members])
    if sides is None:
        return None
    best = None
    for own in sides:
        # The other face continues this one's grid past the fold: it is left out of the
        # continuation and merged-block checks, which would take it for a board.
        keep = np.ones(len(regions.areas), bool)
        keep[members[~own]] = False
        renumber = np.cumsum(keep) - 1
        fit = _fit_flat_face(
            coords[own], renumber[members[own]], _subset(regions, keep), lab, size, slack
        )
        if fit is not None and (best is None or fit[0] > best[0]):
            best = fit
    return best


def _fold_sides(coords: np.ndarray, points: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The two sides (boolean masks) of a lattice bent along one of its lines, or None.

    A planar grid (a board, tiles, one face) fits one homography to within the regions'
    centroid noise; two faces of a cube meeting at an edge fit one each, and no single one
    over both (the lattice's rows bend where the faces meet).
    """
    extent = coords.max(axis=0) - coords.min(axis=0) + 1
    if len(coords) < 8 or extent.max() < 4:
        return None
    bend = _fit_residual(coords, points)
    # Over two rows (two 2x2 faces side by side) eight centres leave one homography too
    # little to miss for the bend to tell; the sides' own fits and tests decide.
    if extent.min() > 2 and not bend > MIN_FOLD_BEND:
        return None
    best = None
    for axis in (0, 1):
        for line in range(int(coords[:, axis].min()) + 2, int(coords[:, axis].max())):
            first = coords[:, axis] < line
            if min(first.sum(), (~first).sum()) < 4:
                continue
            worst = max(
                _fit_residual(coords[first], points[first]),
                _fit_residual(coords[~first], points[~first]),
            )
            if best is None or worst < best[0]:
                best = (worst, first)
    if best is None or not best[0] < MAX_FOLD_RESIDUAL * bend:
        return None
    return best[1], ~best[1]


def _fit_residual(coords: np.ndarray, points: np.ndarray) -> float:
    """Root-mean-square miss of the least-squares homography, in cell pitches (inf if none)."""
    homography = exact_fit(coords, points)
    if homography is None:
        return float("inf")
    miss = np.linalg.norm(warp_points(coords, homography) - points, axis=1)
    pitch = np.sqrt(np.median(_cell_areas(coords, homography)))
    return float(np.sqrt(np.mean(miss**2)) / pitch)


def _subset(regions: Regions, keep: np.ndarray) -> Regions:
    """The regions where ``keep`` is true (indices renumbered in order)."""
    return Regions(
        regions.centers[keep],
        regions.areas[keep],
        regions.whiten[keep],
        regions.sides[keep],
        regions.box_fill[keep],
        regions.row_centers,
        regions.row_whiten,
        regions.true_areas,
    )


def _fit_flat_face(
    coords: np.ndarray,
    members: np.ndarray,
    regions: Regions,
    lab: np.ndarray,
    size: int | None,
    slack: bool = False,
):
    """:func:`_fit_face` for a lattice on one plane.

    With ``slack``, a face of 3x3 or more is looked for among the regions that are square
    only within a small region's error (None when there are none such): a small sticker's
    region is a few pixels a side, and a pixel more or less at its edges elongates it by
    about 2 / side. Clutter of roughly square shapes is common enough that this is only
    tried where no face stood without it, and the face must show more than one colour (a
    keyboard's keys, staggered into a sheared lattice, are one).
    """
    fit = _lattice_homography(coords, regions.centers[members])
    if fit is None:
        return None
    homography, inliers = fit
    if not _invertible(homography):
        return None  # the centres lie on a line: no face
    # Stickers of the next face, seen edge-on, line up with the lattice too; in lattice
    # units they are squashed, where this face's stickers are square. So is a sticker whose
    # region a glare spot cut short: it is tried too, when its cell is glared, as part of the
    # lattice and (its centroid off its cell's middle) without it.
    aspect = _lattice_aspect(homography, regions.centers[members], regions.whiten[members])
    square = inliers & (aspect < MAX_LATTICE_ASPECT)
    if slack:
        roughly = inliers & (aspect < MAX_LATTICE_ASPECT + REGION_EDGE_PX / regions.sides[members])
        if not (roughly & ~square).any() or size == 2:
            return None
        found = _best_face_on(coords[roughly], members[roughly], regions, lab, size, None, 3)
        if found is None or _keys_of_one_color(found[1][1], found[1][2], lab):
            return None
        return found[1]
    cut = _cut_by_glare(
        homography, coords, inliers & ~square & (aspect < MAX_EXTRAPOLATED_ASPECT), lab
    )
    best = None
    for keep in [square, square | cut] if cut.any() else [square]:
        best = _best_face_on(coords[keep], members[keep], regions, lab, size, best)
    return None if best is None else best[1]


def _keys_of_one_color(face_h: np.ndarray, n: int, lab: np.ndarray) -> bool:
    """True when the face's flat cells that are not dark (holes, plastic) are mostly of one
    colour, as a keyboard's keys are."""
    cells = cell_statistics(face_h, n, lab)
    same = _light_cells_of_the_main_color(cells, cells.lightness < _dark_below(cells))
    return len(same) == 0 or bool(same.mean() >= ONE_COLOR_SHARE)


def _cut_by_glare(
    homography: np.ndarray, coords: np.ndarray, which: np.ndarray, lab: np.ndarray
) -> np.ndarray:
    """Of the lattice cells ``which`` (a mask over ``coords``), those under a glare spot
    (none when they span more than a face could)."""
    cut = np.zeros(len(coords), bool)
    if not which.any():
        return cut
    lo = coords[which].min(axis=0)
    side = int((coords[which].max(axis=0) - lo).max()) + 1
    if side > 7:
        return cut
    block_h = homography @ np.array([[1, 0, lo[0] - 0.5], [0, 1, lo[1] - 0.5], [0, 0, 1.0]])
    glared = cell_statistics(block_h, side, lab).glared
    cells = coords[which] - lo
    cut[which] = glared[cells[:, 1], cells[:, 0]]
    return cut


def _best_face_on(coords, members, regions, lab, size, best, smallest=2):
    """The best window over a lattice's members (see _best_window), after growing it;
    ``smallest`` is the least N tried."""
    if len(members) < 3:
        return best
    lo = coords.min(axis=0)
    extent = coords.max(axis=0) - lo + 1
    if extent.max() > 7:
        return best
    base = coords - lo
    grown_coords, _grown_members, grown_h, base_h = _grow(base, members, regions)
    variants = [(grown_coords, grown_h)]
    if len(grown_coords) != len(base):
        # Growth can also swallow look-alike regions around a face: try without it too.
        variants.append((base, base_h))
    for variant_coords, homography in variants:
        if homography is not None:
            best = _best_window(variant_coords, homography, regions, lab, size, best, smallest)
    return best


def _grow(coords: np.ndarray, members: np.ndarray, regions: Regions):
    """Add regions that sit where the fitted lattice predicts a cell (one ring at a time).

    Returns the grown coords, members and homography, and the homography fitted to the
    coords given (before growth).
    """
    homography = first_fit = exact_fit(coords, regions.centers[members])
    if homography is None:
        return coords, members, None, None
    blocks = np.zeros((0, 2), int)
    for _ in range(3):
        # Same-colour stickers merged into one region fill their cells too: the next ring
        # is taken around them, so growth steps over a merged block to the stickers beyond.
        known = np.vstack([coords, blocks])
        lo, hi = known.min(axis=0) - 1, known.max(axis=0) + 1
        blocks = _merged_cells(homography, regions, lo, hi)[0]
        known = np.vstack([coords, blocks])
        lo, hi = known.min(axis=0) - 1, known.max(axis=0) + 1
        # The cells of the box lo..hi not yet filled, row by row.
        taken = np.zeros((hi[1] - lo[1] + 1, hi[0] - lo[0] + 1), bool)
        taken[known[:, 1] - lo[1], known[:, 0] - lo[0]] = True
        rows, cols = np.nonzero(~taken)
        if len(rows) == 0:
            break
        free = np.stack([cols + lo[0], rows + lo[1]], 1)
        predicted = warp_points(free, homography)
        step = warp_points(free + np.array([1, 0]), homography) - predicted
        pitch = np.linalg.norm(step, axis=1)
        dist, idx = _nearest(predicted, regions.centers)
        # A cell's region covers a fixed share of its pitch cell (perspective included): a
        # sticker of a neighbouring face, seen at a grazing angle, covers much less.
        share = _median(regions.areas[members] / _cell_areas(coords, homography))
        expected_area = share * _cell_areas(free, homography)
        ok = dist < 0.22 * pitch
        ok &= (regions.areas[idx] > 0.55 * expected_area) & (
            regions.areas[idx] < 1.8 * expected_area
        )
        member = np.zeros(len(regions.areas), bool)
        member[members] = True
        ok &= ~member[idx]
        maybe = idx[ok]
        ok[ok] = _lattice_aspect(homography, regions.centers[maybe], regions.whiten[maybe]) < (
            MAX_EXTRAPOLATED_ASPECT
        )
        if not ok.any():
            break
        # One region can only fill one cell.
        _, first = np.unique(idx[ok], return_index=True)
        add = np.flatnonzero(ok)[first]
        coords = np.vstack([coords, free[add]])
        members = np.concatenate([members, idx[add]])
        refit = exact_fit(coords, regions.centers[members])
        if refit is None:
            break
        homography = refit
    share = regions.areas[members] / _cell_areas(coords, homography)
    typical = _median(share)
    keep = (share > 0.55 * typical) & (share < 1.8 * typical)
    if keep.sum() >= 3 and not keep.all():
        coords, members = coords[keep], members[keep]
        refit = exact_fit(coords, regions.centers[members])
        homography = refit if refit is not None else homography
    return coords, members, homography, first_fit
