"""Find a cube face's N x N sticker grid in a frame, at any size, angle and tilt.

1. Regions (the main cue): at a working scale, the regions enclosed by lightness and
   chroma edges. Each region's second moments give it its own affine frame, so a
   sticker seen at a tilt is a unit square in its frame; no sticker size is fixed and no
   gaps are needed (the seams of a stickerless cube are edges too).
2. Lattices: regions one pitch apart in their own frames, of similar area, link into
   integer lattice coordinates; a homography from lattice to image is fitted (RANSAC;
   an affine fit when the points cannot fix a perspective). Regions at the cells the fit
   predicts are added ring by ring, stepping over same-colour stickers merged into one
   block. A lattice bent along one of its lines is two faces seen across their edge and
   is split at the fold.
3. The cube's own consistency picks an N x N window (2 <= N <= 7): a sticker seen in
   every row and column (not only from two objects beside a smaller face), stickers
   square in lattice units with their sides along its lines, no plastic-grey cells (nor,
   in a grid of one colour, holes that show the body between its keys), flat cells, and a
   grid that does *not* continue past the window's border (tiles, keyboards and boards
   do; the next face of the cube, squashed across the border, does not count). Of two
   faces of one cube, the one seen flatter is shown.
4. Scales: the working scale first, then a finer one for small faces, then a coarse
   one for large blurred faces; then the crossings of a stickerless face seen close
   (the dark gaps where four pieces' rounded corners meet, which lie on a lattice even
   where same-coloured pieces merge into blocks); then the second cue, sticker quads
   from several binarisations fitted to a lattice by RANSAC. When all of these find
   nothing, the scales are searched again, first with a small region's slack in squareness,
   then with fainter edges (for a dark face's shallow seams), then with fainter edges on
   each scale blurred further (for a dim frame's noise); a face found so must show a
   sticker in nearly every cell and seams between them. A live frame taken while the view
   moves gets the region cue only (a face being turned is not read). A thorough search
   (offline photos) tries more scales, then cuts rows of merged same-colour stickers into
   their stickers. A grid with fewer than a quarter of its cells flat is refused, and so is
   one whose stickers the frame's edge cuts into other than at its corner stickers (and
   their neighbours), a board pattern (two colours alternating with no seams, nor the
   plastic showing where four cells' corners meet), or a grid
   whose colours repeat in the flat cells past three of its sides (tiles; a cell the frame's
   edge cuts is judged by what shows of it), or cell for cell past one side whose border
   holds two or more colours (stripes).
5. Rows are ordered from the face's top as seen in the image (the grid is turned by
   the quarter turn that keeps "up" within 45 degrees of the image's up). In a video,
   the previous face is first followed to the stickers where its grid predicts them, then
   a crop around it searched (tracking).

Examples
--------
>>> frame = np.full((240, 320, 3), 20, np.uint8)
>>> for r in range(3):
...     for c in range(3):
...         _ = cv2.rectangle(frame, (100 + 40 * c, 60 + 40 * r), (134 + 40 * c, 94 + 40 * r),
...                           (40 * r + 60, 200, 40 * c + 60), -1)
>>> detection = detect_grid(frame)
>>> detection.size, np.round(detection.centers[0, 0]).tolist()
(3, [117.0, 77.0])
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from typing import NamedTuple

import cv2
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree

from cubescan.errors import BadInputError
from cubescan.scanner.grid._kernels import (
    _block_cells,
    _block_means,
    _doubled_angle_sums,
    _elongation,
    _free_region_stats,
    _glared_cells,
    _grow_lattices,
    _inner_patch_statistics,
    _lattice_shapes,
    _least_squares_homography,
    _level_percentiles,
    _nearest,
    _on_one_line,
    _on_one_line_but_one,
    _pitch_cell_areas,
    _project,
    _region_shapes,
    _ring_squares,
    _sticker_matches,
    _suppressed,
    _washed_cells,
    _windows,
)

WORK_SIDE = 640
"""Long side, in pixels, of the image the detector works on."""

_MIN_SIDE_FRACTION = 1 / 70  # smallest sticker side, as a fraction of the long side
_MAX_AREA_FRACTION = 1 / 9  # largest sticker area, as a fraction of the frame
_PITCH_RANGE = (1.0, 1.35)  # sticker pitch / side: no gap to wide gaps; a checkerboard is 1.41
_MIN_OCCUPANCY = 0.7  # share of the N x N cells where a sticker must be seen
PLASTIC_LIGHTNESS = 0.6  # a cell darker than this share of the face's lightest one ...
PLASTIC_CHROMA = 10.0  # ... and greyer than this (Lab units, 8-bit) looks like plastic
BODY_CONTRAST = 1.5  # ... unless it shows a sticker this much lighter than the seams
LIGHT_BODY = 0.7  # (or darker, on seams this share of the lightest cell's lightness or more)
CLIPPED_LIGHTNESS = 250.0  # 8-bit Lab lightness of a cell the camera clipped to white
ONE_COLOR_SHARE = 0.8  # share of a keyboard's flat light cells (its keys) of one colour
MAX_STICKER_SPREAD = 24.0  # interquartile range (Lab units) of a flat sticker's inner patch
MIN_FLAT_SHARE = 0.7  # share of a face's cells that must be flat (or glared)
MIN_STICKER_SHARE = 0.25  # share of a face's cells that must be flat, glared ones not counted
MAX_NEIGHBOUR_AREA_RATIO = 1.8  # two neighbouring stickers' areas differ less than this
MAX_LATTICE_ASPECT = 1.3  # a sticker of this face, mapped into lattice units, is square
MAX_EXTRAPOLATED_ASPECT = 2.0  # ... and one where the lattice is extrapolated, roughly square
REGION_EDGE_PX = 2.0  # a small region's elongation errs by this over its side (px)
MIN_FACE_SHARE = 0.1  # smallest face side, as a share of the frame's short side
SEAM_DIP = 0.12  # a seam is this much darker (relative) than each of its two cells
SEAM_FLOOR = 40.0  # grey level below which the dip is measured against this level instead
SEAM_GREY_DIP = 0.5  # ... or, no lighter than a coloured cell, this much greyer (relative)
SEAM_SHADE = SEAM_DIP * SEAM_FLOOR  # "no lighter" allows this much (8-bit lightness units)
MIN_SEAM_SHARE = 0.3  # share of cell pairs with a seam, below which two alternating colours
# are a board, not a cube (and a face found on faint edges is texture)
RINGING_SHARE = 0.06  # (board test) a seam is darker than its darker cell by this share of
# the two cells' difference in lightness
RING_SAME_COLOR = 12.0  # Lab distance (8-bit units) within which two flat cells are one colour
MAX_FILL_DIFFERENCE = 0.2  # bounding-box fill of a region lined up with a lattice cell
INFERRED_CONFIDENCE = 0.55  # the most a cell's confidence is when no sticker was seen there
WHOLE_STICKER_SHARE = 0.7  # inner share of a cell one sticker covers (a sticker is 0.84+)
FLAT_CELL_CONFIDENCE = 0.5  # below this a cell is not one flat colour (or is barely seen)
STICKER_CORNER = 0.3  # a sticker reaches this far from its cell's middle along both axes
GLINT_ALIGNMENT = 0.7  # cosine between a pixel's change from its cell and the way to white
MAX_EDGE_TURN = 12.0  # degrees the edges in a face's cells may turn from its grid's lines


@dataclass(frozen=True, eq=False)
class FaceDetection:
    """One face's sticker grid in a frame.

    Attributes
    ----------
    size
        N.
    quad
        The face's outer corners in image pixels, shape (4, 2): top-left, top-right,
        bottom-right, bottom-left as seen.
    homography
        3x3 matrix taking grid coordinates (x = column, y = row, 0..N along the face)
        to image pixels.
    centres
        Cell centres, shape (N, N, 2) in image pixels (x, y), row-major from the top.
    cells
        Cell outlines, shape (N*N, 4, 2), row-major.
    confidence
        Per cell (N*N,), 0..1: 1 where a sticker was seen in the cell, lower where the
        cell was only inferred from the lattice (occluded, glared, or out of shape).
    """

    size: int
    quad: np.ndarray
    homography: np.ndarray
    centers: np.ndarray
    cells: np.ndarray
    confidence: np.ndarray


@dataclass(frozen=True)
class _Candidate:
    center: np.ndarray
    side: float
    rectangularity: float
    whiten: np.ndarray  # (2, 2): the outline's own unit-square frame (see _whitening)


def as_bgr(frame: object) -> np.ndarray:
    """A frame as an 8-bit 3-channel BGR image: grayscale and BGRA are converted.

    Parameters
    ----------
    frame
        An image array: (H, W) grayscale, or (H, W, C) with C = 1, 3 (BGR) or 4 (BGRA);
        8-bit, or any numeric type holding levels 0..255 (or 0..1, scaled up).

    Returns
    -------
    np.ndarray
        (H, W, 3) uint8 BGR: ``frame`` itself when it already is one.

    Raises
    ------
    BadInputError
        When the frame is not an image array (wrong type, empty, too many channels).

    Examples
    --------
    >>> as_bgr(np.zeros((10, 12), np.uint8)).shape
    (10, 12, 3)
    """
    if not isinstance(frame, np.ndarray):
        raise BadInputError(
            "bad-image", f"a frame must be an image array, not {type(frame).__name__}"
        )
    if frame.size == 0 or frame.ndim not in (2, 3) or min(frame.shape[:2]) < 8:
        raise BadInputError("bad-image", f"the frame is empty or too small (shape {frame.shape})")
    if frame.dtype != np.uint8:
        if not np.issubdtype(frame.dtype, np.number) or not np.isfinite(frame).all():
            raise BadInputError("bad-image", "the frame holds values that are not pixel levels")
        scale = 255.0 if frame.max() <= 1.0 else 1.0
        frame = np.clip(frame * scale, 0, 255).astype(np.uint8)
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    channels = frame.shape[2]
    if channels == 1:
        return cv2.cvtColor(frame[:, :, 0], cv2.COLOR_GRAY2BGR)
    if channels == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if channels != 3:
        raise BadInputError("bad-image", f"a frame has 1, 3 or 4 channels, not {channels}")
    return frame


def _binary_images(small: np.ndarray) -> list[np.ndarray]:
    """Masks in which stickers show up as blobs, for small and large stickers alike."""
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    saturation = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)[:, :, 1]
    long_side = max(small.shape[:2])
    masks = []
    for block in (long_side // 12, long_side // 4):
        # Stickers are lighter than the plastic around them, at the scale of a sticker.
        masks.append(
            cv2.adaptiveThreshold(
                gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, max(15, block | 1), -4
            )
        )
    # Coloured stickers on black or grey plastic, however dark the colour.
    _, vivid = cv2.threshold(saturation, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    masks.append(vivid)
    # Regions enclosed by edges: the stickers of a stickerless cube, split at the seams.
    edges = cv2.Canny(cv2.GaussianBlur(gray, (3, 3), 0), 30, 90)
    masks.append(cv2.bitwise_not(cv2.dilate(edges, np.ones((3, 3), np.uint8))))
    return masks


def _candidates(small: np.ndarray) -> list[_Candidate]:
    long_side = max(small.shape[:2])
    min_area = (long_side * _MIN_SIDE_FRACTION) ** 2
    max_area = small.shape[0] * small.shape[1] * _MAX_AREA_FRACTION
    found: list[_Candidate] = []
    for binary in _binary_images(small):
        opened = cv2.morphologyEx(binary, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        contours, _ = cv2.findContours(opened, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            area = cv2.contourArea(contour)
            if not min_area <= area <= max_area:
                continue
            (cx, cy), (w, h), _ = cv2.minAreaRect(contour)
            if min(w, h) <= 0 or max(w, h) / min(w, h) > 1.8:
                continue
            rectangularity = area / (w * h)
            hull = cv2.contourArea(cv2.convexHull(contour))
            if rectangularity < 0.7 or area / max(hull, 1e-6) < 0.88:
                continue
            # A four-cornered outline (a square in perspective), or a very full rectangle;
            # round holes and blobs are neither.
            outline = cv2.approxPolyDP(contour, 0.05 * cv2.arcLength(contour, True), True)
            if len(outline) != 4 and rectangularity < 0.86:
                continue
            moments = cv2.moments(contour)
            cov = np.array([[moments["mu20"], moments["mu11"]], [moments["mu11"], moments["mu02"]]])
            whiten = _whitening(cov[None] / moments["m00"], np.array([area]))[0]
            found.append(
                _Candidate(np.array([cx, cy]), float(np.sqrt(area)), rectangularity, whiten)
            )
    return _suppress(found)


def _suppress(candidates: list[_Candidate]) -> list[_Candidate]:
    """One candidate per sticker: the most rectangular among those at one place."""
    if not candidates:
        return []
    order = sorted(range(len(candidates)), key=lambda i: -candidates[i].rectangularity)
    centers = np.array([c.center for c in candidates])
    sides = np.array([c.side for c in candidates])
    # Those within 0.4 of the smaller side of the two are the same sticker.
    return [candidates[i] for i in _suppressed(np.array(order), centers, sides).tolist()]


@dataclass(frozen=True)
class _Lattice:
    homography: np.ndarray  # lattice (column, row) -> image
    coords: np.ndarray  # integer lattice coordinates of the inlier candidates
    inliers: np.ndarray  # indices of the inlier candidates
    score: float
    square: bool  # whether most inliers are square in lattice units, as a face's stickers


def _lattice_coords(points: np.ndarray, homography: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    inverse = np.linalg.inv(homography)
    lattice = cv2.perspectiveTransform(points[None].astype(np.float64), inverse)[0]
    rounded = np.round(lattice)
    return rounded, np.abs(lattice - rounded).max(axis=1)


def _reduced(u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The shortest, most nearly square basis of the lattice that u and v span (Gauss).

    A sticker's right and lower-right neighbours span the same lattice as its right and
    lower ones; only the reduced basis gives the grid square coordinates.
    """
    for _ in range(8):
        if u @ u > v @ v:
            u, v = v, u
        if u @ u < 1e-9:
            break  # parallel vectors: no lattice (rejected by the caller)
        step = round(float(u @ v) / float(u @ u))
        if step == 0:
            break
        v = v - step * u
    return u, v


def _one_per_cell(inliers: np.ndarray, coords: np.ndarray, error: np.ndarray) -> np.ndarray | None:
    """The inliers, keeping the closest match where two fall on one lattice cell.

    None when fewer than three remain, or when many cells are claimed twice: then the
    lattice is too coarse (a sticker and its neighbour on one cell) and not a stray match.
    """
    best: dict[tuple[int, int], int] = {}
    for index in inliers:
        cell = (int(coords[index, 0]), int(coords[index, 1]))
        if cell not in best or error[index] < error[best[cell]]:
            best[cell] = index
    kept = np.array(sorted(best.values()), dtype=int)
    if len(kept) < 3 or len(inliers) - len(kept) > max(1, len(kept) // 8):
        return None
    return kept


def _fit_lattice(
    centers: np.ndarray, sides: np.ndarray, whiten: np.ndarray, seed: int, a: int, b: int
):
    """Hypothesis from a seed and two neighbours; refined to a homography over its inliers."""
    u, v = _reduced(centers[a] - centers[seed], centers[b] - centers[seed])
    basis = np.stack([u, v], axis=1)
    if min(u @ u, v @ v) < 1.0 or abs(np.linalg.det(basis)) < 0.5 * np.sqrt((u @ u) * (v @ v)):
        return None  # not two independent directions
    affine = np.eye(3)
    affine[:2, :2] = basis
    affine[:2, 2] = centers[seed]
    homography = affine
    similar = np.abs(np.log(sides / sides[seed])) < np.log(1.8)
    for _ in range(3):
        coords, error = _lattice_coords(centers, homography)
        inliers = _one_per_cell(np.flatnonzero((error < 0.22) & similar), coords, error)
        if inliers is None:
            return None
        if np.linalg.matrix_rank(coords[inliers] - coords[inliers].mean(axis=0)) < 2:
            return None
        if len(inliers) >= 5:
            fitted = _least_squares_homography(
                coords[inliers].astype(np.float64), centers[inliers].astype(np.float64)
            )
        else:
            # Too few stickers to see perspective (a 2x2 with one hidden): an affine map.
            affine_fit, _ = cv2.estimateAffine2D(coords[inliers], centers[inliers])
            fitted = None if affine_fit is None else np.vstack([affine_fit, [0, 0, 1]])
        if fitted is None or not _invertible(fitted):
            return None
        homography = fitted
    coords, error = _lattice_coords(centers, homography)
    inliers = np.flatnonzero((error < 0.22) & similar)
    # Stickers of one face have about the same size: drop stray small or large matches.
    typical = np.median(sides[inliers])
    inliers = inliers[np.abs(np.log(sides[inliers] / typical)) < np.log(1.45)]
    # A face's stickers are square in lattice units. A lattice whose matches mostly are not
    # is of keys in staggered rows (a lattice of rhombi), oblong keys or scattered squares.
    aspect = _lattice_aspect(homography, centers[inliers], whiten[inliers])
    square = bool((aspect < MAX_LATTICE_ASPECT).sum() >= max(3, len(inliers) / 2))
    score = len(inliers) - error[inliers].sum()
    return _Lattice(homography, coords[inliers].astype(int), inliers, score, square)


def _lattices(candidates: list[_Candidate]) -> list[_Lattice]:
    """Distinct lattice hypotheses of square cells, the ones explaining most candidates first."""
    if len(candidates) < 4:
        return []
    centers = np.array([c.center for c in candidates])
    sides = np.array([c.side for c in candidates])
    whiten = np.array([c.whiten for c in candidates])
    found: dict[frozenset, _Lattice] = {}
    distances = np.linalg.norm(centers[:, None] - centers[None], axis=2)
    explained: set[int] = set()
    for seed in np.argsort(-sides)[:60]:
        if seed in explained:
            continue  # already inside a lattice: it would only find that one again
        pitch = distances[seed] / sides[seed]
        near = np.flatnonzero(
            (pitch >= _PITCH_RANGE[0]) & (pitch <= _PITCH_RANGE[1])
            & (np.abs(np.log(sides / sides[seed])) < np.log(1.5))
        )  # fmt: skip
        near = near[np.argsort(distances[seed, near])]  # the nearest neighbours first
        for i, a in enumerate(near[:8]):
            for b in near[i + 1 : 8]:
                lattice = _fit_lattice(centers, sides, whiten, seed, a, b)
                if lattice is not None:
                    key = frozenset(lattice.inliers.tolist())
                    if lattice.square and (key not in found or lattice.score > found[key].score):
                        found[key] = lattice
                    # Its candidates are explained either way: keys of a keyboard seed no face.
                    if len(lattice.inliers) >= 4:
                        explained.update(lattice.inliers.tolist())
    return sorted(found.values(), key=lambda lattice: -lattice.score)


def _main_cluster(coords: np.ndarray) -> np.ndarray:
    """The largest group of lattice cells that touch (one missing sticker may separate)."""
    near = np.abs(coords[:, None] - coords[None]).max(axis=2) <= 2
    _, labels = connected_components(csr_matrix(near), directed=False)
    return np.flatnonzero(labels == np.bincount(labels).argmax())


def _square_grid(lattice: _Lattice, size: int | None) -> tuple[int, np.ndarray, np.ndarray] | None:
    """The N x N block of the lattice holding the stickers: (N, origin, occupied mask).

    The largest N whose best-placed window is mostly full wins, so a stray match just
    outside a face does not make it a size larger.
    """
    coords = lattice.coords[_main_cluster(lattice.coords)]
    low, high = coords.min(axis=0), coords.max(axis=0)
    largest = int((high - low + 1).max())
    sizes = [size] if size is not None else range(min(largest, 7), 1, -1)
    # With N known, one stray match past the face's border is tolerated; guessing N, a
    # lattice larger than the window is taken for a grid that goes on (tiles, keys).
    sizes = [n for n in sizes if largest <= n + (size is not None)]
    cells = {tuple(c) for c in coords}
    for n in sizes:
        best = None
        # Every placement of the n x n window that overlaps the stickers seen, whether the
        # cluster is smaller than the window (a row not seen) or larger (a stray match).
        xs = sorted((int(low[0]), int(high[0]) - n + 1))
        ys = sorted((int(low[1]), int(high[1]) - n + 1))
        for ox in range(xs[0], xs[1] + 1):
            for oy in range(ys[0], ys[1] + 1):
                inside = sum((ox + x, oy + y) in cells for x in range(n) for y in range(n))
                if best is None or inside > best[0]:
                    best = (inside, np.array([ox, oy]))
        if best is None or best[0] < _MIN_OCCUPANCY * n * n:
            continue
        origin = best[1]
        occupied = np.zeros((n, n), bool)
        for x, y in coords - origin:
            if 0 <= x < n and 0 <= y < n:
                occupied[y, x] = True
        # Guessing N, a window with no sticker in a border row or column is a size too
        # large: it reaches past the stickers onto the background.
        border_lines = [occupied[0], occupied[-1], occupied[:, 0], occupied[:, -1]]
        if size is None and not all(line.any() for line in border_lines):
            continue
        return n, origin, occupied
    return None


def _continues(lattice: _Lattice, origin: np.ndarray, n: int) -> bool:
    """True when the lattice goes on just past the square, or repeats further away on its
    plane: tiles or keys, not a face."""
    relative = lattice.coords - origin
    outside = ((relative < 0) | (relative >= n)).any(axis=1)
    ring = ((relative >= -1) & (relative <= n)).all(axis=1) & outside
    # Clutter lines up with a face's lattice now and then; more than N stickers of its size
    # and pitch elsewhere on its plane are a tiled or keyed surface, which a face is not.
    return int(ring.sum()) >= max(2, n // 2 + 1) or int(outside.sum()) > max(2, n)


def _upright(homography: np.ndarray, n: int) -> np.ndarray:
    """Re-label the grid so rows run down and columns right in the image, unmirrored."""
    best = homography
    best_angle = np.inf
    for turns in range(4):
        for mirror in (False, True):
            relabel = np.eye(3)
            if mirror:
                relabel = np.array([[0, 1, 0], [1, 0, 0], [0, 0, 1]], float) @ relabel
            for _ in range(turns):
                # A quarter turn of grid coordinates inside the n x n square.
                relabel = np.array([[0, -1, n], [1, 0, 0], [0, 0, 1]], float) @ relabel
            candidate = homography @ relabel
            corners = cv2.perspectiveTransform(
                np.array([[[0, 0], [n, 0], [0, n]]], float), candidate
            )[0]
            right, down = corners[1] - corners[0], corners[2] - corners[0]
            if right[0] * down[1] - right[1] * down[0] <= 0:
                continue  # mirrored: columns must turn clockwise into rows on screen
            angle = abs(np.degrees(np.arctan2(right[1], right[0])))
            if angle < best_angle:
                best, best_angle = candidate, angle
    return best


def detect_grid(
    frame: object,
    size: int | None = None,
    previous: FaceDetection | None = None,
    *,
    thorough: bool = False,
    in_motion: bool = False,
) -> FaceDetection | None:
    """Find one cube face's sticker grid.

    Two cues are tried in turn: the region lattice (regions enclosed by lightness and
    chroma edges, linked into a lattice in their own affine frames; fast, needs no gaps)
    and, when it finds nothing, sticker quads from several binarisations.

    Parameters
    ----------
    frame
        BGR image (grayscale and BGRA are accepted), any resolution.
    size
        N when known; None to detect it (2..7).
    previous
        The detection in the previous video frame: it is followed to the stickers where
        its grid predicts them, else a crop around it is searched, at a scale giving about
        16 px stickers (the cheap tracking path); both before the whole frame.
    thorough
        When both cues find nothing, search the regions at more scales (for a photo known
        to show a face, where time matters less than for a live frame).
    in_motion
        The frame is a live one taken while the view changes (see
        :func:`~pipeline.observe.view_changed`): only the region cue looks. A face being
        turned is not read, and the quad cue and the last looks (for a dim face held
        still) cost about half of a frame with no face in it.

    Returns
    -------
    FaceDetection or None
        None when no cube face is in view.

    Raises
    ------
    BadInputError
        When ``frame`` is not an image, or ``size`` is out of range.

    Examples
    --------
    >>> from cubescan.synth.specs import random_scene_spec
    >>> from cubescan.synth.scenes import render_scene
    >>> spec = random_scene_spec(np.random.default_rng(3), 3, resolution=(640, 480), hard=False)
    >>> detect_grid(render_scene(spec)[0]).size
    3
    """
    if size is not None and not 2 <= size <= 7:
        raise BadInputError("bad-size", f"cube size must be 2..7, got {size}")
    image = as_bgr(frame)
    if previous is not None:
        tracked = _track(image, size or previous.size, previous)
        if tracked is not None:
            return tracked
    found, passes = _lattice_faces(image, size, max_faces=1)
    if found and not _three_seen_of_four(found[0]):
        return None if _not_a_face(image, found[0]) else found[0]
    # A 2x2 with one sticker unseen is the weakest find: the quad cue may see more.
    last_resort = found[0] if found and not _not_a_face(image, found[0]) else None
    if in_motion:
        return last_resort  # the other cues and last looks are for a face held still
    quad_face = _quad_face(image, size)
    if quad_face is not None:
        return quad_face
    if last_resort is not None:
        return last_resort
    found = _slack_faces(image, size, passes) or _faint_faces(image, size, passes)
    if found and not _not_a_face(image, found[0]):
        return found[0]
    return _more_scales(image, size) if thorough else None


def _quad_face(image: np.ndarray, size: int | None) -> FaceDetection | None:
    """The second cue: sticker quads from several binarisations, fitted to a lattice."""
    scale = min(1.0, WORK_SIDE / max(image.shape[:2]))
    small = (
        image
        if scale == 1.0
        else cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    )
    for lattice in _lattices(_candidates(small)):
        square = _square_grid(lattice, size)
        if square is not None and not _continues(lattice, square[1], square[0]):
            detection = _located(lattice, *square, scale)
            if _cube_like(
                small, np.diag([scale, scale, 1.0]) @ detection.homography, square[0]
            ) and not _not_a_face(image, detection):
                return detection
    return None


def _three_seen_of_four(face: FaceDetection) -> bool:
    """True for a 2x2 face with one cell inferred, not seen (or seen but not flat)."""
    return face.size == 2 and _seen_cells(face) == 3


THOROUGH_SIDES = (240, 280, 480, 560, 640)  # long sides of a thorough search's extra passes


def _more_scales(image: np.ndarray, size: int | None) -> FaceDetection | None:
    """The region cue at more scales: regions are found at the pixel level, so each scale
    sees a face's stickers break up or merge in its own way.

    Last, at the region cue's own scales, each block of two or three stickers in a row is
    also taken as its stickers: on a stickerless cube (or a blurred small photo) neighbours
    of one colour merge, and a face of several such blocks leaves too few single stickers to
    link. A lattice through such parts is partly a guess: its face stands only when every
    cell is flat.
    """
    long_side = max(image.shape[:2])
    passes = [(min(2.0, side / long_side), False) for side in THOROUGH_SIDES]
    passes += [(scale, True) for scale in _region_scales(long_side)]
    for scale, split in passes:
        found = _detect_scaled(image, scale, size, (0.0, 0.0), 1, split_blocks=split)
        if split:
            found = [face for face in found if (face.confidence >= FLAT_CELL_CONFIDENCE).all()]
        if found and not _not_a_face(image, found[0]):
            return found[0]
    return None


def _cube_like(small: np.ndarray, face_h: np.ndarray, n: int) -> bool:
    """The region-lattice cue's colour and framing checks, for the quad cue's grids."""
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2Lab)
    quad = _warp(np.array([[0, 0], [n, 0], [n, n], [0, n]], float), face_h)
    if not _plausible_quad(quad, lab.shape):
        return False
    cell_stats = _cell_statistics(face_h, n, lab)
    if _shows_plastic(cell_stats):
        return False
    ring = [(c + 0.5, r + 0.5) for r in range(-1, n + 1) for c in range(-1, n + 1)]
    ring = np.array([p for p in ring if min(p) < 0 or max(p) > n], float)
    return bool(_in_frame(_warp(ring, face_h), lab.shape).mean() >= 0.3)


def _lattice_faces(
    image: np.ndarray, size: int | None, max_faces: int
) -> tuple[list[FaceDetection], dict[float, _Pass]]:
    """The region-lattice cue at a coarse, then (for large frames) a finer scale; when
    neither found a face, at a coarser scale still; last, the crossings cue. Returns the
    faces found and each :class:`_Pass` (by scale, the first first)."""
    long_side = max(image.shape[:2])
    scales = _region_scales(long_side)
    first = scales[0]
    # A 2x2 with one sticker unseen only stands when no pass finds more. Nor, while a finer
    # pass is left, does a face of small stickers with cells not seen, or any 2x2 when N is
    # not known: it may be part of a larger face whose other stickers blurred into their
    # seams at this scale (a solved face's stickers, all one colour, merge into an L around
    # four that stayed apart).
    last_resort: list[FaceDetection] = []
    deferred: list[FaceDetection] = []
    # The first pass's regions also judge whether a face found at another scale continues,
    # and give the crossings cue its gaps: they keep the chroma sharp (a tile's thin grout is
    # grey against coloured tiles; a dark sticker's edge on black plastic is its chroma).
    # The finer pass, for small stickers, smooths it (see _working_lab).
    first_lab = _working_lab(image, first, sharp_chroma=True)
    first_regions = _find_regions(first_lab)
    prepared = {first: _pass_at(first_lab, first_regions)}
    for scale in scales:
        if scale not in prepared:
            prepared[scale] = _pass_at(_working_lab(image, scale))
        found = _detect_scaled(image, scale, size, (0.0, 0.0), max_faces, prepared=prepared[scale])
        if scale != first:
            found = _not_continued(image, found, first_lab, first_regions)
        if found and not all(_three_seen_of_four(face) for face in found):
            if deferred:
                return (found if _sees_more_of(found[0], deferred[0]) else deferred), prepared
            face = found[0]
            small = _cell_width(face.centers) * scale < SMALL_STICKER_PITCH
            partial = _seen_cells(face) < face.size**2
            corner_of_more = size is None and face.size == 2
            if not ((small and partial) or corner_of_more) or scale == scales[-1]:
                return found, prepared
            deferred = found
            continue
        last_resort = last_resort or found
    if deferred:
        return deferred, prepared
    # Last, a coarse pass: a blurred close-up's stickers blend into their dark surround
    # over many pixels, too gently for edges to close around them until the frame shrinks.
    # Shrinking also closes the faint grout of tiles less often: a face found there must
    # show a sticker in nearly every cell (see ``most_cells_seen``), and the grid's
    # continuation is looked for in the first pass's sharper regions.
    coarse = min(1.0, REGION_COARSE_SIDE / long_side)
    if coarse < first:
        prepared[coarse] = _pass_at(_working_lab(image, coarse))
        found = _detect_scaled(
            image,
            coarse,
            size,
            (0.0, 0.0),
            max_faces,
            prepared=prepared[coarse],
            most_cells_seen=True,
        )
        found = _not_continued(image, found, first_lab, first_regions, along_a_side=True)
        if found:
            return found, prepared
    return last_resort or _crossing_faces(image, first_lab, first_regions, size), prepared


def _slack_faces(
    image: np.ndarray, size: int | None, passes: dict[float, _Pass]
) -> list[FaceDetection]:
    """The region cue's passes (``passes``: scale -> :class:`_Pass`, the first pass first,
    as :func:`_lattice_faces` made them) again, for a face of small stickers whose regions
    are square only within a pixel's error (see :func:`_fit_flat_face`)."""
    first = next(iter(passes))
    first_lab, first_regions = passes[first].lab, passes[first].regions
    coarse = min(1.0, REGION_COARSE_SIDE / max(image.shape[:2]))
    for scale, prepared in passes.items():
        found = _detect_scaled(
            image,
            scale,
            size,
            (0.0, 0.0),
            1,
            prepared=prepared,
            most_cells_seen=scale == coarse < first,
            slack=True,
        )
        if scale != first:
            found = _not_continued(image, found, first_lab, first_regions, scale == coarse)
        if found:
            return found
    return []


def _faint_faces(
    image: np.ndarray, size: int | None, passes: dict[float, _Pass]
) -> list[FaceDetection]:
    """The region cue's passes (as :func:`_slack_faces` takes them) with fainter edges,
    for a dark or dimly lit face whose seams the usual thresholds miss.

    Faint edges also find regions in a textured surface's noise, and cut a board's or a
    keyboard's tiles into pieces, so that it no longer shows continuing around a window. A
    face found so must show a sticker in nearly every cell (see ``most_cells_seen``), the
    seams those edges claim between its cells, and must not continue in the first pass's
    regions (the usual edges keep a board's tiles whole). Nor may those regions show a
    sticker in every cell of it: that window was judged, and refused, with them.

    Each pass is looked at twice: as it is, then blurred further (see :func:`_denoised`).
    Blurred, a keyboard's keys beside their missing neighbours line up in 2x2 windows that
    hold as faces; a 2x2, four stickers only, is not looked for there.
    """
    first = next(iter(passes))
    first_lab, first_regions = passes[first].lab, passes[first].regions
    to_first = np.linalg.inv(_to_frame(first_lab.shape, image.shape))
    looks = chain(  # the blurred images are made only when needed
        ((scale, usual.lab, 2) for scale, usual in passes.items()),
        ((scale, _denoised(usual.lab), MIN_DENOISED_SIZE) for scale, usual in passes.items()),
    )
    for scale, lab, smallest in looks:
        regions = _find_regions(lab, edge_thresholds=FAINT_EDGE_THRESHOLDS)
        found = _detect_scaled(
            image, scale, size, (0.0, 0.0), 1, prepared=_pass_at(lab, regions), most_cells_seen=True
        )
        found = [
            face
            for face in found
            if face.size >= smallest
            and _seam_share(image, face) >= MIN_SEAM_SHARE
            and _cells_with_a_region(to_first @ face.homography, face.size, first_regions)
            < face.size**2
        ]
        found = _not_continued(image, found, first_lab, first_regions, along_a_side=True)
        if found:
            return found
    return []


def _denoised(lab: np.ndarray) -> np.ndarray:
    """A pass's working image blurred by ``FAINT_DENOISE`` more: in a dim frame the sensor
    noise is as strong as a dark face's seams, and faint edges cut its cells into pieces.

    Examples
    --------
    >>> noisy = np.random.default_rng(0).integers(0, 255, (40, 40, 3)).astype(np.uint8)
    >>> bool(_denoised(noisy).std() < noisy.std())
    True
    """
    return cv2.GaussianBlur(lab, (0, 0), FAINT_DENOISE)


def _cells_with_a_region(face_h: np.ndarray, n: int, regions: _Regions) -> int:
    """How many cells of the face (``face_h`` into the regions' image) have a region of about
    a sticker's size at their middle (see :func:`_regions_at`)."""
    lattice_h = _lattice_of_face(face_h)
    cells = _cell_middles(n) - 0.5  # in the lattice's coordinates
    _, near, of_cell_size = _regions_at(
        _warp(cells, lattice_h), regions, _pitch(lattice_h), _cell_areas(cells, lattice_h)
    )
    return int(np.sum(near & of_cell_size))


def _regions_at(
    points: np.ndarray, regions: _Regions, pitch: float, cell_area: float | np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each point's nearest region (index), whether it lies within a quarter ``pitch`` of the
    point, and whether it is of about a cell's size (a quarter to 1.2 of ``cell_area``): a
    lattice's tile or sticker there. With no regions, none is near or of the size."""
    if len(regions.areas) == 0:
        nothing = np.zeros(len(points), bool)
        return np.zeros(len(points), np.int64), nothing, nothing.copy()
    dist, idx = _nearest(points, regions.centers)
    areas = regions.areas[idx]
    return idx, dist < 0.25 * pitch, (areas > 0.25 * cell_area) & (areas < 1.2 * cell_area)


def _not_continued(
    image: np.ndarray,
    faces: list[FaceDetection],
    first_lab: np.ndarray,
    first_regions: _Regions,
    along_a_side: bool = False,
) -> list[FaceDetection]:
    """The faces found at another pass than the first that do not continue in the first
    pass's regions.

    A window found only at the finer scale may lie on a larger grid whose faint grout
    closes its tiles only at the first pass's scale: it is judged there too, but only by
    regions all around it. A row of regions along one side is weaker evidence: a cube may
    lie on floor tiles of its own sticker pitch. The coarse pass, which closes the grout
    less often, is judged by a row too (``along_a_side``).
    """
    return [
        face
        for face in faces
        if not _continues_at(image, face, first_lab, first_regions, along_a_side)
    ]


def _crossing_faces(
    image: np.ndarray, lab: np.ndarray, regions: _Regions, size: int | None
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
    for coords, members in _link_crossings(regions):
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
    return [_make_detection(_to_frame(lab.shape, image.shape) @ face_h, n, confidence)]


def _crossing_window(
    coords: np.ndarray, members: np.ndarray, n: int, regions: _Regions, lab: np.ndarray
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
    lightness = _cell_statistics(face_h, n, lab).lightness
    corners = np.array([(i, j) for j in range(1, n) for i in range(1, n)], float)
    at_crossing = _sample(np.ascontiguousarray(lab[..., 0]), _warp(corners, face_h)).ravel()
    for (i, j), value in zip(corners.astype(int), at_crossing.astype(float), strict=True):
        if value > (1 - CROSSING_DIP) * lightness[j - 1 : j + 1, i - 1 : i + 1].min():
            return False
    return True


def _seen(face: FaceDetection) -> np.ndarray:
    """Which of a face's cells (N, N) show a sticker (the rest were inferred)."""
    return (face.confidence > INFERRED_CONFIDENCE).reshape(face.size, face.size)


def _seen_cells(face: FaceDetection) -> int:
    """How many of a face's cells show a sticker."""
    return int(_seen(face).sum())


def _sees_more_of(face: FaceDetection, earlier: FaceDetection) -> bool:
    """True when ``face`` lies over ``earlier`` and shows more of its stickers."""
    return _overlap(face.quad, earlier.quad) and _seen_cells(face) > _seen_cells(earlier)


def _region_scales(long_side: int) -> list[float]:
    """The region cue's first and (when it differs) fine scale for a frame's long side."""
    # Frames up to half the fine pass's size are enlarged for the second: edges eat a
    # pixel or two of every region, which is most of a sticker a dozen pixels wide.
    fine = REGION_FINE_SIDE / long_side
    fine = min(2.0, fine) if long_side <= REGION_FINE_SIDE / 2 else min(1.0, fine)
    return list(dict.fromkeys([min(1.0, REGION_WORK_SIDE / long_side), fine]))


def _continues_at(
    image: np.ndarray,
    face: FaceDetection,
    lab: np.ndarray,
    regions: _Regions,
    along_a_side: bool = True,
) -> bool:
    """:func:`_grid_continues` for a face found in ``image``, over the regions of another
    pass (``lab`` is that pass's working image)."""
    if len(regions.areas) == 0:
        return False
    to_small = np.linalg.inv(_to_frame(lab.shape, image.shape))
    return _grid_continues(
        _lattice_of_face(to_small @ face.homography), face.size, regions, lab, along_a_side
    )


def _to_frame(
    small_shape: tuple[int, ...],
    frame_shape: tuple[int, ...],
    offset: tuple[float, float] = (0.0, 0.0),
) -> np.ndarray:
    """The homography from a pass's working image to the frame's pixels (``offset``
    added): small pixel i covers the frame's pixels around (i + 0.5) / s - 0.5."""
    sx, sy = small_shape[1] / frame_shape[1], small_shape[0] / frame_shape[0]
    return np.array(
        [
            [1 / sx, 0, offset[0] + 0.5 / sx - 0.5],
            [0, 1 / sy, offset[1] + 0.5 / sy - 0.5],
            [0, 0, 1.0],
        ]
    )


# The working image's blur (a 3x3 Gaussian: sigma 0.8 px) less the bilinear enlargement's own
# smoothing (a triangle kernel, sigma 0.4 px), in the frame's pixels.
ENLARGED_BLUR = 0.7
CHROMA_BLUR = 1.0  # sigma of the chroma channels' further blur, in the frame's pixels


def _working_lab(bgr: np.ndarray, scale: float, sharp_chroma: bool = False) -> np.ndarray:
    """The frame scaled by ``scale`` and lightly blurred, in 8-bit Lab: what regions are
    found in. ``sharp_chroma`` leaves out the chroma's further blur at scales above a half
    (see below)."""
    if scale != 1.0:
        height, width = bgr.shape[:2]
        small_size = (max(1, round(width * scale)), max(1, round(height * scale)))
        if 0.5 < scale < 1.0:
            # A light blur and bilinear sampling: area averaging at a fractional scale costs
            # several times as much for the same picture (at a half, it costs a third).
            bgr = cv2.resize(cv2.GaussianBlur(bgr, (3, 3), 0), small_size)
        else:
            bgr = (
                _shrunk(bgr, small_size)
                if scale < 1.0
                else cv2.resize(bgr, small_size, interpolation=cv2.INTER_LINEAR)
            )
    if scale > 1.0:
        # Enlarged, the frame's sensor noise and JPEG blocks would break small stickers into
        # fragments: blur it as the other passes blur theirs, in the frame's own pixels.
        return cv2.cvtColor(cv2.GaussianBlur(bgr, (0, 0), ENLARGED_BLUR * scale), cv2.COLOR_BGR2Lab)
    lab = cv2.cvtColor(cv2.GaussianBlur(bgr, (3, 3), 0), cv2.COLOR_BGR2Lab)
    if scale > 0.5 and not sharp_chroma:
        # Cameras and JPEG keep colour at half the resolution of lightness: at this scale its
        # blocks still show, and would cut small stickers into pieces along chroma edges.
        # (All three channels are blurred and the lightness put back: OpenCV would copy the
        # two chroma channels out and back, which costs more than blurring a third.)
        blurred = cv2.GaussianBlur(lab, (0, 0), CHROMA_BLUR * scale)
        blurred[..., 0] = lab[..., 0]
        return blurred
    return lab


MAX_BLOCK_FACTOR = 16  # a 5120-px long side to 320; its rounding table has 65,281 entries


def _shrunk(bgr: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``cv2.resize(bgr, size, interpolation=cv2.INTER_AREA)``, pixel for pixel.

    Shrunk by a whole factor of three or more (1920x1080 and 1280x720 to the first pass's
    320x180), each pixel is its block's mean, which OpenCV sums in a plain loop of lookups;
    :func:`_block_means` sums whole rows first and takes about half the time (1.4-1.5
    against 2.5-2.7 ms at 1920x1080). By a factor of two OpenCV's own vectorised path is
    faster; past ``MAX_BLOCK_FACTOR`` its rounding table would outgrow the caches.
    """
    width, height = size
    factor = bgr.shape[1] // width
    whole = bgr.shape[:2] == (factor * height, factor * width)
    if 3 <= factor <= MAX_BLOCK_FACTOR and whole:
        return _block_means(np.ascontiguousarray(bgr), factor, _block_rounding(factor))
    return cv2.resize(bgr, size, interpolation=cv2.INTER_AREA)


@lru_cache(maxsize=8)
def _block_rounding(factor: int) -> np.ndarray:
    """A ``factor`` x ``factor`` block's mean for each sum of its 8-bit levels, rounded as
    OpenCV rounds it: the sum times 1 / factor^2 in single precision, to the nearest level
    (halves to even)."""
    area = factor * factor
    sums = np.arange(area * 255 + 1, dtype=np.float32)
    rounded = np.rint(sums * (np.float32(1.0) / np.float32(area))).astype(np.uint8)
    rounded.flags.writeable = False  # shared between calls
    return rounded


def _located(
    lattice: _Lattice, n: int, origin: np.ndarray, occupied: np.ndarray, scale: float
) -> FaceDetection:
    """The detection in full-image pixels, rows from the top as seen."""
    # Grid coordinates: 0..n with cell centres at half-integers.
    shift = np.array([[1, 0, origin[0] - 0.5], [0, 1, origin[1] - 0.5], [0, 0, 1]], float)
    to_small = _upright(lattice.homography @ shift, n)
    to_image = np.diag([1 / scale, 1 / scale, 1]) @ to_small
    return _detection(to_image, n, occupied, lattice.homography @ shift, to_small)


def _detection(
    to_image: np.ndarray, n: int, occupied: np.ndarray, original: np.ndarray, upright: np.ndarray
) -> FaceDetection:
    grid = np.arange(n) + 0.5
    xs, ys = np.meshgrid(grid, grid)
    center_points = np.stack([xs.ravel(), ys.ravel()], axis=1)
    centers = cv2.perspectiveTransform(center_points[None], to_image)[0].reshape(n, n, 2)
    offsets = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
    cell_points = (center_points[:, None, :] + offsets[None]).reshape(-1, 2)
    cells = cv2.perspectiveTransform(cell_points[None], to_image)[0].reshape(n * n, 4, 2)
    quad = cv2.perspectiveTransform(np.array([[[0, 0], [n, 0], [n, n], [0, n]]], float), to_image)[
        0
    ]
    # Which original cell each upright cell is, to carry over where stickers were seen.
    relabel = np.linalg.inv(original) @ upright
    back = cv2.perspectiveTransform(center_points[None], relabel)[0]
    rows = np.clip(np.floor(back[:, 1]).astype(int), 0, n - 1)
    cols = np.clip(np.floor(back[:, 0]).astype(int), 0, n - 1)
    confidence = np.where(occupied[rows, cols], 1.0, 0.4)
    return FaceDetection(n, quad, to_image, centers, cells, confidence)


# The region-lattice cue (see :func:`_lattice_faces`).
REGION_WORK_SIDE = 320  # long side of its first pass, px
REGION_FINE_SIDE = 800  # long side of its second pass, for small faces in large frames
REGION_COARSE_SIDE = 200  # long side of its last pass, for large blurred faces
# Cells of a face of 3x3 or more that its last pass may leave unseen: a finger over one
# sticker and a glare spot washing out another. Of a 2x2's four that is half the face: it
# may leave one unseen, when the three seen hold as a face (see ``_three_of_four_hold``).
COARSE_MAX_UNSEEN = 2
COARSE_MAX_UNSEEN_2X2 = 1
SMALL_STICKER_PITCH = 24.0  # px in a pass's image: below this, a finer pass may see more
TRACK_STICKER_PX = 16.0  # sticker side in the tracking path's image, px
# A 2x2's position is fitted to four stickers only: at 16 px its middle jitters by up to 5%
# of the face between frames of a face held still (rendered scanning videos), more than the
# session allows for "still" (4%); at 64 px, 1%.
TRACK_2X2_STICKER_PX = 64.0


@dataclass(frozen=True)
class _Regions:
    centers: np.ndarray  # (M, 2) working-image centroids
    areas: np.ndarray  # (M,)
    whiten: np.ndarray  # (M, 2, 2) maps a displacement into the region's unit-square frame
    sides: np.ndarray  # (M,) estimated sticker side in px
    box_fill: np.ndarray  # (M,) share of its bounding box it fills (1 for an upright square)
    # Regions too long for a sticker but shaped like a row of up to MAX_BLOCK_STICKERS of
    # them (same-coloured stickers merged): they only fill the cells of a found lattice.
    row_centers: np.ndarray  # (R, 2)
    row_whiten: np.ndarray  # (R, 2, 2)
    # False once merged blocks were cut into stickers (a part's area is a share of its
    # block's): then the regions' sizes cannot tell a board's tiles from other objects.
    true_areas: bool = True


class _Pass(NamedTuple):
    """One scale of the region cue: its working image, the regions found in it, and the
    lattices linked over them (kept so that a later round over the pass links none again)."""

    lab: np.ndarray
    regions: _Regions
    lattices: list[tuple[np.ndarray, np.ndarray]]


def _pass_at(lab: np.ndarray, regions: _Regions | None = None) -> _Pass:
    """The :class:`_Pass` over a working image (its regions found here when not given)."""
    regions = _find_regions(lab) if regions is None else regions
    return _Pass(lab, regions, _link_lattices(regions) if len(regions.areas) >= 2 * 2 else [])


def _track(bgr: np.ndarray, size: int, previous: FaceDetection) -> FaceDetection | None:
    """Follow the previous face (:func:`_follow`), else search a crop around it (a face
    found there must pass :func:`_not_a_face`), in the crop at a scale giving ~16 px
    stickers (64 px for a 2x2)."""
    height, width = bgr.shape[:2]
    x0, y0 = previous.quad.min(axis=0)
    x1, y1 = previous.quad.max(axis=0)
    pad = 0.35 * max(x1 - x0, y1 - y0)
    left, top = int(max(0, x0 - pad)), int(max(0, y0 - pad))
    right, bottom = int(min(width, x1 + pad)), int(min(height, y1 + pad))
    if right - left < 16 or bottom - top < 16:
        return None
    sticker_px = TRACK_2X2_STICKER_PX if previous.size == 2 else TRACK_STICKER_PX
    scale = min(1.0, sticker_px / max(_cell_width(previous.centers), 1.0))
    if scale <= 0.5:
        # Shrunk by a whole factor, from a crop of whole blocks, area averaging is the mean
        # of each block (see _shrunk): a third of the time of OpenCV's general averaging at
        # 1920x1080 (stickers of 16 px or a little more).
        factor = int(1 / scale)
        scale = 1.0 / factor
        right = left + max(1, (right - left) // factor) * factor
        bottom = top + max(1, (bottom - top) // factor) * factor
    crop = bgr[top:bottom, left:right]
    lab = _working_lab(crop, scale)
    offset = (float(left), float(top))
    regions = _find_regions(lab)
    if size == previous.size:
        followed = _follow(previous, lab, regions, _to_frame(lab.shape, crop.shape, offset))
        if followed is not None:
            return followed
    found = _detect_scaled(crop, scale, size, offset, 1, prepared=_pass_at(lab, regions))
    # Found afresh in the crop, the face is judged as one found cold: after the cube left
    # the view, a board or keyboard keys where it was would be taken for it.
    return found[0] if found and not _not_a_face(bgr, found[0]) else None


FOLLOW_REACH = 0.35  # pitches a sticker may have moved since the last frame, to be followed
FOLLOW_TOLERANCE = 0.15  # pitches a followed sticker may lie off the refitted grid
FOLLOW_MAX_UNSEEN = 2  # cells of a followed face (of 3x3 or more) left without a sticker


def _follow(
    previous: FaceDetection, lab: np.ndarray, regions: _Regions, to_frame: np.ndarray
) -> FaceDetection | None:
    """The previous frame's face, refitted to the stickers found where its grid predicts
    them: the tracking path's first look, which needs no lattice to be linked and searched.

    Each cell takes the sticker-sized, square region nearest its predicted middle within
    ``FOLLOW_REACH`` of a pitch; the grid is refitted to them, and again to those within
    ``FOLLOW_TOLERANCE`` of that grid. All cells but ``FOLLOW_MAX_UNSEEN`` (but one of a
    2x2's, whose three must hold as a face's: :func:`_three_of_four_hold`) must hold a
    sticker, its cells be flat as a face's are, and its grid not continue as a
    board's does. Nor may a row of stickers (all but one of it; all of a 2x2's) lie along
    one of its sides, in the ring of cells around it: a face that moved a whole
    pitch since the last frame would be followed one row off, onto all but one row of its
    stickers and whatever lies past its side (a coloured disc of a sticker's size takes the
    place of one of them), with its own last row beside that grid. None otherwise: the
    caller then searches the crop. ``lab`` and ``regions`` are the crop's working image and
    its regions, ``to_frame`` maps the working image into the frame.
    """
    n = previous.size
    lattice_h = _lattice_of_face(np.linalg.inv(to_frame) @ previous.homography)
    coords = _cells_and_ring(n)
    cells = coords[: n * n]
    fitted_to = None
    for reach in (FOLLOW_REACH, FOLLOW_TOLERANCE):
        seen, nearest = _stickers_at_cells(lattice_h, coords, regions, reach)
        stickers = np.where(seen[: n * n], nearest[: n * n], -1)  # each cell's, -1 for none
        if (stickers < 0).sum() > (FOLLOW_MAX_UNSEEN if n >= 3 else 1):
            return None
        if fitted_to is not None and (stickers == fitted_to).all():
            break  # the same stickers: the same fit
        fitted_to, shown = stickers, stickers >= 0
        lattice_h = _exact_fit(cells[shown], regions.centers[stickers[shown]])
        if lattice_h is None:
            return None
    if (seen[n * n :].reshape(4, n).sum(axis=1) >= max(2, n - 1)).any():
        return None  # a row of stickers past a side: one row off
    face_h = _face_of_lattice(lattice_h)
    support = (stickers >= 0).reshape(n, n)
    if n == 2 and not support.all() and not _three_of_four_hold(face_h, support, lab):
        return None
    statistics = _cell_statistics(face_h, n, lab)
    if np.mean((statistics.spread < MAX_STICKER_SPREAD) | statistics.glared) < MIN_FLAT_SHARE:
        return None
    if _grid_continues(lattice_h, n, regions, lab, colors=statistics.color):
        return None  # as a board's tiles do: judged as for a face found cold
    confidence = _cell_confidence(support, statistics.spread)
    return _make_detection(to_frame @ face_h, n, confidence)


@lru_cache(maxsize=8)
def _cells_and_ring(n: int) -> np.ndarray:
    """Lattice coords (n * n + 4 * n, 2) of an n x n face's cells (row-major), then of the
    ring of cells around it side by side: above, below, left and right, n each."""
    steps = np.arange(n)
    cells = _cell_middles(n) - 0.5  # lattice coords: cell middles at whole numbers
    ones = np.ones(n, int)
    ring = [
        np.stack([steps, -ones], 1),
        np.stack([steps, n * ones], 1),
        np.stack([-ones, steps], 1),
        np.stack([n * ones, steps], 1),
    ]
    coords = np.concatenate([cells, *ring])
    coords.flags.writeable = False  # shared between calls
    return coords


def _stickers_at_cells(
    lattice_h: np.ndarray, coords: np.ndarray, regions: _Regions, reach: float
) -> tuple[np.ndarray, np.ndarray]:
    """Which lattice cells (``coords``) have a region within ``reach`` pitches of their
    middle that is square in the lattice and of a sticker's size there (a share of its
    cell's area within ``MAX_NEIGHBOUR_AREA_RATIO`` of the median share), each region in
    one cell at most (the first in ``coords``' order): the mask, and each cell's nearest
    region."""
    if len(regions.areas) == 0:
        return np.zeros(len(coords), bool), np.zeros(len(coords), np.int64)
    return _sticker_matches(
        lattice_h,
        np.asarray(coords, np.float64),
        regions.centers,
        regions.whiten,
        regions.areas,
        reach,
        MAX_LATTICE_ASPECT,
        MAX_NEIGHBOUR_AREA_RATIO,
    )


def _cell_confidence(support: np.ndarray, spread: np.ndarray) -> np.ndarray:
    """Each cell's confidence (n, n): whether a sticker was seen there (``support``;
    ``INFERRED_CONFIDENCE`` at most where not), times how flat its colour is (its
    ``spread``: 1 up to 6 Lab units, 0 from 36)."""
    uniform = np.clip(1.0 - (spread - 6.0) / 30.0, 0.0, 1.0)
    return (INFERRED_CONFIDENCE + (1 - INFERRED_CONFIDENCE) * support) * uniform


def _cell_width(centers: np.ndarray) -> float:
    """Median distance between neighbouring cell centres, px."""
    d_col = np.linalg.norm(np.diff(centers, axis=1), axis=-1)
    d_row = np.linalg.norm(np.diff(centers, axis=0), axis=-1)
    return float(_median(np.concatenate([d_col.ravel(), d_row.ravel()])))


def _detect_scaled(
    bgr: np.ndarray,
    scale: float,
    size: int | None,
    offset: tuple[float, float],
    max_faces: int,
    *,
    split_blocks: bool = False,
    most_cells_seen: bool = False,
    prepared: _Pass | None = None,
    slack: bool = False,
) -> list[FaceDetection]:
    """The region cue at one scale: up to ``max_faces`` faces, best first, in the frame's
    pixels (``offset`` added). ``split_blocks`` also takes merged rows of same-coloured
    stickers apart; ``most_cells_seen`` keeps only faces with a sticker seen in every cell
    but ``COARSE_MAX_UNSEEN`` (``COARSE_MAX_UNSEEN_2X2`` of a 2x2; a glared one counts, an
    inferred one does not). ``prepared`` is the scale's :class:`_Pass` when the caller
    already has it. ``slack`` looks only for faces whose regions are square within
    a small region's slack (see :func:`_fit_flat_face`)."""
    height, width = bgr.shape[:2]
    if prepared is None:
        # Merged blocks are cut into stickers by their outlines' length: keep them sharp.
        lab = _working_lab(bgr, scale, sharp_chroma=split_blocks)
        if split_blocks:
            prepared = _pass_at(
                lab, _with_block_stickers(_find_regions(lab, MAX_BLOCK_STICKERS + 0.5))
            )
        else:
            prepared = _pass_at(lab)
    lab, regions, lattices = prepared
    if len(regions.areas) < 2 * 2:
        return []
    candidates = []
    for coords, members in lattices:
        fit = _fit_face(coords, members, regions, lab, size, slack)
        if fit is not None:
            candidates.append(fit)
    candidates.sort(key=_shown_first)
    results: list[FaceDetection] = []
    taken: list[np.ndarray] = []
    to_full = _to_frame(lab.shape, (height, width), offset)
    for _score, homography, n, confidence, support in candidates:
        allowed_unseen = COARSE_MAX_UNSEEN if n >= 3 else COARSE_MAX_UNSEEN_2X2
        if most_cells_seen and n * n - support.sum() > allowed_unseen:
            continue
        quad = _warp(np.array([[0, 0], [n, 0], [n, n], [0, n]], float), homography)
        if any(_overlap(quad, other) for other in taken):
            continue
        taken.append(quad)
        results.append(_make_detection(to_full @ homography, n, confidence))
        if len(results) == max_faces:
            break
    return results


def _shown_first(candidate) -> float:
    """Sort key: better faces first, and of two faces of one cube the one seen flatter.

    A cube's faces are the same size, so the one turned towards the camera is the larger
    in the image (by the cosine of its tilt); its score is weighed by that.
    """
    score, homography, n = candidate[:3]
    quad = _warp(np.array([[0, 0], [n, 0], [n, n], [0, n]], float), homography)
    return -score * np.sqrt(abs(_polygon_area(quad)))


def _overlap(quad_a: np.ndarray, quad_b: np.ndarray) -> bool:
    """True when either quad contains the other's centre."""
    for inner, outer in ((quad_a, quad_b), (quad_b, quad_a)):
        center = inner.mean(axis=0)
        contour = outer.astype(np.float32).reshape(-1, 1, 2)
        if cv2.pointPolygonTest(contour, (float(center[0]), float(center[1])), False) >= 0:
            return True
    return False


def _warp(points: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """``points`` (any shape ending in 2) mapped by ``homography``, shape (K, 2)."""
    return _project(np.asarray(points, float).reshape(-1, 2), np.asarray(homography, float))


def _face_of_lattice(homography: np.ndarray) -> np.ndarray:
    """The face homography (face coords: cell (col, row) spans col..col + 1, row..row + 1)
    of a lattice homography (which maps integer coords to cell centres)."""
    return homography @ np.array([[1, 0, -0.5], [0, 1, -0.5], [0, 0, 1.0]])


def _lattice_of_face(face_h: np.ndarray) -> np.ndarray:
    """The lattice homography of a face homography (the inverse of :func:`_face_of_lattice`)."""
    return face_h @ np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1.0]])


# ----------------------------------------------------------------------------------------------
# 1. Regions
# ----------------------------------------------------------------------------------------------


MAX_LIGHTNESS_STRETCH = 2.5  # the most a frame's lightness range is stretched for its edges
# Canny's (low, high) thresholds for the stretched lightness and for each chroma channel.
EdgeThresholds = tuple[tuple[int, int], tuple[int, int]]
EDGE_THRESHOLDS: EdgeThresholds = ((40, 100), (16, 40))
# Fainter ones, for a last look: a dark or dim face's seams are shallow dips once blurred.
FAINT_EDGE_THRESHOLDS: EdgeThresholds = ((30, 80), (12, 32))
FAINT_DENOISE = 1.0  # sigma of the faint look's further blur, in the pass's pixels
MIN_DENOISED_SIZE = 3  # the smallest face looked for with it


def _edges(lab: np.ndarray, thresholds: EdgeThresholds = EDGE_THRESHOLDS) -> np.ndarray:
    (light_low, light_high), (chroma_low, chroma_high) = thresholds
    lightness, a, b = cv2.split(lab)
    low, high = _level_percentiles(lightness, 4, np.array([2.0, 98.0]))
    # A dim frame's lightness is stretched, but only so far: its noise is stretched with it,
    # and in the dark, where lightness rises steeply, each grey level is several L units.
    gain = 255.0 / max(float(high - low), 255.0 / MAX_LIGHTNESS_STRETCH)
    stretched = cv2.convertScaleAbs(lightness, alpha=gain, beta=-float(low) * gain)
    edges = cv2.Canny(stretched, light_low, light_high)
    edges |= cv2.Canny(a, chroma_low, chroma_high)
    edges |= cv2.Canny(b, chroma_low, chroma_high)
    return edges


def _find_regions(
    lab: np.ndarray, max_elongation: float = 2.6, edge_thresholds: EdgeThresholds = EDGE_THRESHOLDS
) -> _Regions:
    edges = _edges(lab, edge_thresholds)
    # Regions: the pixels 4-connected around the edges (grown by one pixel right and down),
    # labelled and measured in one compiled pass over their runs: a third of the time of
    # OpenCV's dilation, labelling and statistics, for the same numbers.
    stats, centroids, moments = _free_region_stats(edges)
    height, width = edges.shape
    area = stats[:, cv2.CC_STAT_AREA].astype(float)
    bw = stats[:, cv2.CC_STAT_WIDTH].astype(float)
    bh = stats[:, cv2.CC_STAT_HEIGHT].astype(float)
    max_area = 0.3 * min(height, width) ** 2
    keep = (area >= 8) & (area <= max_area) & (area >= 0.3 * bw * bh)
    keep &= (np.maximum(bw, bh) <= 4 * np.minimum(bw, bh)) & (bw < width) & (bh < height)
    keep[0] = keep[0] & (stats[0, cv2.CC_STAT_LEFT] > 0)
    index = np.flatnonzero(keep)
    if len(index) == 0:
        return _Regions(
            np.zeros((0, 2)),
            np.zeros(0),
            np.zeros((0, 2, 2)),
            np.zeros(0),
            np.zeros(0),
            np.zeros((0, 2)),
            np.zeros((0, 2, 2)),
        )
    compact, elongation, frames = _region_shapes(
        moments[index] / area[index, None], area[index], _sticker_sides(area[index])
    )
    compact_ok = (compact > 0.82) & (compact < 1.12)
    good = compact_ok & (elongation < max_elongation)
    rows = compact_ok & ~good & (elongation < MAX_BLOCK_STICKERS + 0.5)
    row_centers = centroids[index[rows]] - 0.5
    row_whiten = frames[rows]
    index, whiten = index[good], frames[good]
    areas = area[index]
    sides = _sticker_sides(areas)
    # Edges grow right and down only, into the regions past them: every region lost a pixel
    # row and column at its top and left, and its centroid sits half a pixel down-right of
    # the sticker's.
    box_fill = areas / (bw[index] * bh[index])
    return _Regions(centroids[index] - 0.5, areas, whiten, sides, box_fill, row_centers, row_whiten)


MAX_BLOCK_STICKERS = 3  # longest row of merged same-colour stickers taken apart


def _with_block_stickers(regions: _Regions) -> _Regions:
    """The regions plus the stickers of every block of 2..MAX_BLOCK_STICKERS in a row.

    A block is a compact region about k times as long as wide (k rounded). Its frame (the
    inverse of its whitening) maps the unit square onto it; its stickers are that rectangle
    cut in k along its long side. The block itself stays (it fills its cells as merged).
    """
    extent = np.linalg.inv(regions.whiten)
    sides, axes = np.linalg.eigh(extent)  # ascending: the long side is the last
    stickers = np.rint(sides[:, 1] / sides[:, 0]).astype(int)
    parts_c, parts_a, parts_w, parts_f = [], [], [], []
    for k in range(2, MAX_BLOCK_STICKERS + 1):
        block = np.flatnonzero(stickers == k)
        if len(block) == 0:
            continue
        axis, width, length = axes[block, :, 1], sides[block, 0], sides[block, 1] / k
        part = np.stack([width, length], -1)
        part_whiten = axes[block] @ ((1.0 / part)[..., None] * np.swapaxes(axes[block], -1, -2))
        # Bounding-box fill of a width x length rectangle turned by the long side's angle.
        cos, sin = np.abs(axis[:, 0]), np.abs(axis[:, 1])
        fill = width * length / ((length * cos + width * sin) * (length * sin + width * cos))
        for i in range(k):
            offset = axis * ((i - (k - 1) / 2) * length)[:, None]
            parts_c.append(regions.centers[block] + offset)
            parts_a.append(regions.areas[block] / k)
            parts_w.append(part_whiten)
            parts_f.append(fill)
    if not parts_c:
        return regions
    areas = np.concatenate(parts_a)
    return _Regions(
        np.concatenate([regions.centers, *parts_c]),
        np.concatenate([regions.areas, areas]),
        np.concatenate([regions.whiten, *parts_w]),
        np.concatenate([regions.sides, _sticker_sides(areas)]),
        np.concatenate([regions.box_fill, *parts_f]),
        regions.row_centers,
        regions.row_whiten,
        true_areas=False,
    )


def _whitening(cov: np.ndarray, areas: np.ndarray) -> np.ndarray:
    """cov^(-1/2), scaled so a region maps to a unit square: each region's own frame.

    In closed form (a batched eigendecomposition costs several times as much over the
    thousands of regions of a cluttered frame): a 2x2 covariance's square root is
    (cov + s I) / t, with s = sqrt(det cov) and t = sqrt(trace cov + 2 s), whose inverse is
    adj(cov + s I) / (s t).
    """
    variances = np.stack([cov[:, 0, 0], cov[:, 1, 1], cov[:, 0, 1]], -1)
    return _region_shapes(variances, areas, _sticker_sides(areas))[2]


def _sticker_sides(areas: np.ndarray) -> np.ndarray:
    """The side in pixels of the sticker behind each region of these areas: edges and
    dilation eat about 1.5 px from every side of a region."""
    return np.sqrt(areas) + 2.0


# ----------------------------------------------------------------------------------------------
# 2. Lattice
# ----------------------------------------------------------------------------------------------

_MIN_PITCH = 7.0  # px in the working image
_REGION_PITCH_RANGE = (0.95, 1.75)  # neighbour distance in units of the region's own side
_STEP_TOL = 0.3
# The crossings cue (see :func:`_crossing_faces`).
CROSSING_SPACING = (3.0, 15.0)  # neighbouring crossings' distance, in the larger gap's sides
MAX_CROSSING_AREA_RATIO = 4.0  # two gaps' areas differ less than this
CROSSING_DIP = 0.3  # a crossing is this much darker (relative) than each of its four cells
CROSSING_SPOT = 0.1  # a crossing's darkest spot is looked for this far (cells) from it


def _link_lattices(regions: _Regions) -> list[tuple[np.ndarray, np.ndarray]]:
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


def _link_crossings(regions: _Regions) -> list[tuple[np.ndarray, np.ndarray]]:
    """Group small regions far apart for their size into lattices, as
    :func:`_link_lattices` groups stickers: the gaps at a stickerless face's crossings."""
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


# ----------------------------------------------------------------------------------------------
# 3. Robust fit and cube consistency
# ----------------------------------------------------------------------------------------------


def _lattice_homography(
    coords: np.ndarray, points: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | None:
    """Homography lattice coords -> points, RANSAC; returns (H, inlier mask)."""
    src = coords.astype(np.float64)
    if len(src) < 3 or _on_one_line(coords):
        return None
    if _too_few_for_perspective(coords):
        return _affine_fit(coords, points), np.ones(len(src), bool)
    spread = np.linalg.norm(points.max(axis=0) - points.min(axis=0))
    span = max(1.0, float(np.ptp(src, axis=0).max()))
    threshold = 0.25 * spread / span
    homography, mask = cv2.findHomography(src, points, cv2.RANSAC, threshold)
    if homography is None:
        return None
    return homography, mask.ravel().astype(bool)


def _fit_face(
    coords: np.ndarray,
    members: np.ndarray,
    regions: _Regions,
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


MIN_FOLD_BEND = 0.07  # rms miss of one homography over a bent lattice, in pitches
MAX_FOLD_RESIDUAL = 0.35  # each side of a fold fits its own homography this much better


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
    if not bend > MIN_FOLD_BEND:
        return None
    best = None
    for axis in (0, 1):
        for line in range(int(coords[:, axis].min()) + 2, int(coords[:, axis].max()) - 1):
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
    homography = _exact_fit(coords, points)
    if homography is None:
        return float("inf")
    miss = np.linalg.norm(_warp(coords, homography) - points, axis=1)
    pitch = np.sqrt(np.median(_cell_areas(coords, homography)))
    return float(np.sqrt(np.mean(miss**2)) / pitch)


def _subset(regions: _Regions, keep: np.ndarray) -> _Regions:
    """The regions where ``keep`` is true (indices renumbered in order)."""
    return _Regions(
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
    regions: _Regions,
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
    cells = _cell_statistics(face_h, n, lab)
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
    glared = _cell_statistics(block_h, side, lab).glared
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


def _best_window(coords, homography, regions, lab, size, best, smallest=2):
    """The best-scoring N x N window over the lattice (keeps ``best`` when none beats it).

    Windows rank by how well they cover the lattice's regions (the objective), then by
    their score; they are scored in the objective's order, so the search stops at the first
    objective below one that already gave a face. N runs from ``smallest`` (``size`` when
    given).
    """
    lo = coords.min(axis=0)
    extent = coords.max(axis=0) - lo + 1
    if extent.max() > 7 + 1:
        return best
    # Cells with a sticker seen: the lattice's regions, and merged same-colour blocks.
    blocks, middles = _merged_cells(homography, regions, lo - 7, lo + extent + 7, with_rows=True)
    sizes = np.array([size] if size else range(smallest, 7 + 1), np.int64)
    objectives, ns, origins, supports = _windows(coords, blocks, middles, lo, extent, sizes)
    windows = [
        (objective, n, ox, oy, supports[k, :n, :n])
        for k, (objective, n, (ox, oy)) in enumerate(
            zip(objectives.tolist(), ns.tolist(), origins.tolist(), strict=True)
        )
    ]
    windows.sort(key=lambda window: -window[0])
    for objective, n, ox, oy, support in windows:
        if best is not None and objective < best[0] - 1e-9 and not _one_of_four_unseen(best[1]):
            if best[1][2] != 2:
                break
            if n == 2 or not support.all():
                continue  # from here, only a larger window seen in every cell beats a 2x2
        shift = np.array([[1, 0, ox], [0, 1, oy], [0, 0, 1.0]])
        if n == 2 and _leaves_out_its_own(coords - [ox, oy], homography @ shift, regions, lab):
            continue
        result = _score_window(homography @ shift, n, support, regions, lab)
        if result is not None and (best is None or _beats(objective, result, best)):
            best = (objective, result)
    return best


def _leaves_out_its_own(
    coords: np.ndarray, homography: np.ndarray, regions: _Regions, lab: np.ndarray
) -> bool:
    """True when a 2x2 window leaves out regions of its lattice that are more of its own
    grid. It may leave out one or two: objects that happen to lie on a face's lattice, of
    their own size. It is refused when

    - it leaves out two and either is the size of the window's stickers: the rest of a
      larger face (the window is its corner) or of a tiled floor;
    - it shows one or two colours and leaves out a region of one of them at its stickers'
      size: the next tile of a striped or one-colour floor. A face of three colours or
      four may have an object of one sticker's colour and size beside it.

    ``coords`` are the lattice's regions in the window's lattice coords (its cells are
    0..1), which ``homography`` maps to the working image ``lab``.
    """
    outside = ((coords < 0) | (coords > 1)).any(axis=1)
    if not outside.any():
        return False
    if not regions.true_areas:  # merged blocks cut apart: no region's size can be judged
        return outside.sum() > 1
    face_h = _face_of_lattice(homography)
    colors = _cell_statistics(face_h, 2, lab).color.reshape(4, 3).astype(float)
    _, left_out = _nearest(_warp(coords[outside].astype(float), homography), regions.centers)
    repeats, sized = _of_the_grids_kind(
        homography, 2, regions, lab, left_out, _pitch(homography), colors
    )
    if len(left_out) > 1:
        return bool(sized.any())
    same = np.linalg.norm(colors[:, None] - colors[None], axis=2) < RING_SAME_COLOR
    new_color = ~np.triu(same, 1).any(axis=0)  # a cell like no earlier one
    return bool(new_color.sum() <= 2 and (repeats & sized).any())


def _one_of_four_unseen(result) -> bool:
    """True for a 2x2 window (a :func:`_score_window` result) with one sticker unseen."""
    return result[2] == 2 and result[4].sum() == 3


def _fully_seen_over_2x2(result, other) -> bool:
    """True when ``result`` (a :func:`_score_window` result) is a window of 3x3 or more with
    a sticker seen in every cell, and ``other`` a 2x2 over the same lattice: a solved face's
    stickers merge into blocks whose cells count as seen but not towards the objective, and
    its four single stickers left alone make the best-covered window."""
    return result[2] > 2 and result[4].all() and other[2] == 2


def _beats(objective: float, result, best) -> bool:
    """True when a window (its objective and :func:`_score_window` result) is better than
    ``best`` (objective, result): by objective, then score. But a 2x2 with a sticker unseen
    is the weakest window: a larger one seeing more cells beats it (on a stickerless face,
    same-coloured stickers merge, and three single ones may be all a larger face shows).
    And a 2x2 never beats a larger window with a sticker seen in every cell, nor loses to
    one by objective (see :func:`_fully_seen_over_2x2`)."""
    if _one_of_four_unseen(best[1]) and result[2] > 2 and result[4].sum() > 3:
        return True
    if _fully_seen_over_2x2(result, best[1]):
        return True
    if _fully_seen_over_2x2(best[1], result):
        return False
    return (objective, result[0]) > (best[0], best[1][0])


def _merged_cells(
    homography: np.ndarray,
    regions: _Regions,
    lo: np.ndarray,
    hi: np.ndarray,
    with_rows: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Lattice cells covered by a region spanning a block, for blocks centred in lo..hi.

    Neighbouring stickers of one colour on a stickerless cube merge into one region (the
    seam between them is lost); such a region is an a x b block in lattice units (cell
    centres at integers), centred on the block's middle. ``with_rows`` also looks at the
    regions too long for a sticker (a whole row of one colour, 1 x 3). Returns the cells
    (K, 2) and the middle of the block each belongs to (K, 2).
    """
    centers, whiten = regions.centers, regions.whiten
    if with_rows:
        centers = np.concatenate([centers, regions.row_centers])
        whiten = np.concatenate([whiten, regions.row_whiten])
    cells, middles = _block_cells(
        np.linalg.inv(homography),
        centers,
        whiten,
        np.asarray(lo, float),
        np.asarray(hi, float),
    )
    return cells, middles


def _shapes_in_lattice(
    inverse: np.ndarray, centers: np.ndarray, whiten: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Regions in lattice units: their centres (K, 2) and shape matrices (K, 2, 2).

    ``inverse`` maps image to lattice. A region's shape matrix maps its unit-square frame to
    lattice displacements: whiten^-1 (the shape in the image) after the local Jacobian of
    image -> lattice, taken by finite differences.
    """
    return _lattice_shapes(
        np.asarray(inverse, float), np.asarray(centers, float).reshape(-1, 2), whiten
    )


def _lattice_aspect(homography: np.ndarray, centers: np.ndarray, whiten: np.ndarray) -> np.ndarray:
    """Elongation of each region's shape mapped into lattice units (1 for a square)."""
    _, shape = _shapes_in_lattice(np.linalg.inv(homography), centers, whiten)
    return _elongation(shape)


def _exact_fit(coords: np.ndarray, points: np.ndarray) -> np.ndarray | None:
    """Least-squares homography (affine when the coords cannot fix a perspective): the
    least squared reprojection error, as ``cv2.findHomography``'s method 0 gives it, in a
    fifth of its time (12 against 61 us for nine points)."""
    if _too_few_for_perspective(coords):
        fitted = _affine_fit(coords, points)
    else:
        fitted = _least_squares_homography(
            np.asarray(coords, np.float64), np.asarray(points, np.float64)
        )
    return fitted if _invertible(fitted) else None


def _too_few_for_perspective(coords: np.ndarray) -> bool:
    """True unless four of the coords lie with no three on a line.

    That fails exactly when all coords but at most one share a line (an L of a row of
    three and one more, say): a homography through them is degenerate.
    """
    return _on_one_line_but_one(np.asarray(coords))


def _affine_fit(coords: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Least-squares affine map coords -> points, as a 3x3 matrix."""
    design = np.column_stack([coords.astype(np.float64), np.ones(len(coords))])
    solution = np.linalg.lstsq(design, points.astype(np.float64), rcond=None)[0]
    return np.vstack([solution.T, [0.0, 0.0, 1.0]])


def _invertible(homography: np.ndarray) -> bool:
    """False for a degenerate fit (points on a line): no face, and no inverse to take."""
    if not np.isfinite(homography).all():
        return False
    singular = cv2.SVDecomp(np.asarray(homography, float), flags=cv2.SVD_NO_UV)[0].ravel()
    return bool(singular[0] < 1e12 * singular[-1])  # condition number below 1e12


def _grow(coords: np.ndarray, members: np.ndarray, regions: _Regions):
    """Add regions that sit where the fitted lattice predicts a cell (one ring at a time).

    Returns the grown coords, members and homography, and the homography fitted to the
    coords given (before growth).
    """
    homography = first_fit = _exact_fit(coords, regions.centers[members])
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
        predicted = _warp(free, homography)
        step = _warp(free + np.array([1, 0]), homography) - predicted
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
        refit = _exact_fit(coords, regions.centers[members])
        if refit is None:
            break
        homography = refit
    share = regions.areas[members] / _cell_areas(coords, homography)
    typical = _median(share)
    keep = (share > 0.55 * typical) & (share < 1.8 * typical)
    if keep.sum() >= 3 and not keep.all():
        coords, members = coords[keep], members[keep]
        refit = _exact_fit(coords, regions.centers[members])
        homography = refit if refit is not None else homography
    return coords, members, homography, first_fit


def _median(values: np.ndarray) -> float:
    """``np.median`` of a 1-D array (the same value), without its overhead."""
    ordered = np.sort(values)
    half = len(ordered) // 2
    return ordered[half] if len(ordered) % 2 else (ordered[half - 1] + ordered[half]) / 2


def _cell_areas(coords: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """Image area of the pitch cell around each lattice coordinate."""
    return _pitch_cell_areas(np.asarray(coords, float).reshape(-1, 2), homography)


def _score_window(
    homography: np.ndarray, n: int, support: np.ndarray, regions: _Regions, lab: np.ndarray
):
    """Score an N x N window (lattice coords of its cells are 0..N-1) or None to reject it.

    ``support`` is the window's mask of cells where a sticker was seen.
    """
    face_h = _face_of_lattice(homography)
    quad = _warp(np.array([[0, 0], [n, 0], [n, n], [0, n]], float), face_h)
    if not _well_shaped(quad) or _objects_beside_a_smaller_face(face_h, n, support, lab.shape):
        return None
    if not _corners_near(quad, lab.shape) and not _cut_at_a_corner(
        quad, face_h, support, lab.shape
    ):
        return None
    # Stickers smaller than this are texture, not a cube a camera could read; nor is a face
    # much smaller than the frame.
    face_side = np.sqrt(abs(_polygon_area(quad)))
    if face_side / n < _MIN_PITCH or face_side < MIN_FACE_SHARE * min(lab.shape[:2]):
        return None
    cell_stats = _cell_statistics(face_h, n, lab)
    if _grid_continues(homography, n, regions, lab, colors=cell_stats.color):
        return None
    spread, glared = cell_stats.spread, cell_stats.glared
    if _on_the_plastic(face_h, n, lab, cell_stats, support) or _keys_with_gaps(
        face_h, n, lab, cell_stats, support
    ):
        return None
    # Most cells are one flat colour, or one under a glare spot (a finger may spoil a few);
    # a window stretched over the background or the next face has textured cells.
    if np.mean((spread < MAX_STICKER_SPREAD) | glared) < MIN_FLAT_SHARE:
        return None
    if _unseen_cells_are_surround(face_h, n, support, lab):
        return None
    if n == 2 and support.sum() == 3 and not _three_of_four_hold(face_h, support, lab):
        return None
    confidence = _cell_confidence(support, spread)
    # Of two faces of one cube, the one turned towards the camera is the one being shown.
    sides = np.linalg.norm(quad[[1, 2, 3, 0]] - quad, axis=1)
    frontality = sides.min() / sides.max()
    score = float(confidence.mean() * support.mean() * np.sqrt(n * n) * (0.8 + 0.2 * frontality))
    return score, face_h, n, confidence, support


def _objects_beside_a_smaller_face(
    face_h: np.ndarray, n: int, support: np.ndarray, shape: tuple[int, ...]
) -> bool:
    """True when the window is a smaller face seen in full (or all but one of its stickers)
    plus one row and one column along two of its sides (an L) where only two cells, or
    fewer, show a sticker.

    Objects lying about a pitch past two sides of a face (a disc, a box, the next face's
    edge) join its lattice, and give that L the one sticker per row and column a window
    needs. A face of this size with all but two cells of such an L hidden would need a
    hand over two of its sides; a face cut by the frame's corner is not judged (its L lies
    partly outside the frame: two of its cells or more).
    """
    if n < 3:
        return False
    for row in (0, n - 1):
        for col in (0, n - 1):
            band = np.zeros((n, n), bool)
            band[row, :] = band[:, col] = True
            if (~support[~band]).sum() <= 1 and support[band].sum() <= 2:
                rows, cols = np.nonzero(band)
                points = _warp(np.stack([cols + 0.5, rows + 0.5], axis=1), face_h)
                if (~_in_frame(points, shape)).sum() <= 1:
                    return True
    return False


def _unseen_cells_are_surround(
    face_h: np.ndarray, n: int, support: np.ndarray, lab: np.ndarray
) -> bool:
    """True when the window hangs past the face: each of its cells with no sticker seen lies
    on its edge and has the colour of the cell just beyond it, and two or more were judged.

    Two objects that happen to lie a pitch past a 2x2 face (a disc, a box) join its lattice,
    and the 3x3 window over all six leaves three cells of table unseen. A face's own unseen
    stickers (under glare or a finger, or as dark as the plastic) are stickers: the cell past
    a border one is the table, not more of the same. A textured table's patches differ by
    about what a sticker's pixels spread (``MAX_STICKER_SPREAD``). A cell is judged by its
    samples in the frame, when they are a quarter of them or more (a median needs a few).
    """
    rows, cols = np.nonzero(~support)
    if len(rows) < 2:
        return False
    on_edge = (rows == 0) | (rows == n - 1) | (cols == 0) | (cols == n - 1)
    if not on_edge.all():
        return False
    # The window and the ring of cells around it: cell (r, c) of the window is (r + 1, c + 1).
    samples, in_frame = _cell_samples(lab, face_h, n + 2, -1.0)
    samples = samples.reshape(n + 2, n + 2, -1, 3).astype(np.float32)
    in_frame = in_frame.reshape(n + 2, n + 2, -1)
    inside = in_frame.mean(axis=2) >= 0.25

    def color(cell: tuple[int, int]) -> np.ndarray:
        return np.median(samples[cell][in_frame[cell]], axis=0)

    judged = 0
    for row, col in zip(rows + 1, cols + 1, strict=True):
        beyond = [
            (r, c)
            for r, c, past in (
                (0, col, row == 1),
                (n + 1, col, row == n),
                (row, 0, col == 1),
                (row, n + 1, col == n),
            )
            if past and inside[r, c]
        ]
        if not inside[row, col] or not beyond:
            continue
        own = color((row, col))
        difference = min(np.linalg.norm(own - color(cell)) for cell in beyond)
        if difference >= MAX_STICKER_SPREAD:
            return False
        judged += 1
    return judged >= 2


_UNIT_SQUARE = np.array([[0, 0], [1, 0], [1, 1], [0, 1]])  # a cell's corners, from its first


def _three_of_four_hold(face_h: np.ndarray, support: np.ndarray, lab: np.ndarray) -> bool:
    """True when the three seen cells of a 2x2 window look like a cube face's stickers.

    With only three of four stickers seen, an L of three squares that happen to sit on a
    lattice in clutter, or three tiles of a floor, would pass the usual tests. A cube's
    three show more: each sticker fills its cell nearly to the edges and lines up with the
    lattice (the cell's middle ``WHOLE_STICKER_SHARE`` is one flat colour, but for pixels a
    glare spot washed towards white), the plastic or a seam runs between neighbouring
    stickers as a line darker than both, and the cells around the face are not more of the
    same (tiles are; a plain surround that dim light brings near a sticker's colour is not).
    """
    cell_px = 20
    # The window and the ring of cells around it, rectified: cell (r, c) of the window is
    # block (r + 1, c + 1).
    rectified = _rectified(lab, face_h, 4, cell_px, -1.0)
    margin = round(cell_px * (1 - WHOLE_STICKER_SHARE) / 2)
    inner = _inner_patches(rectified, 4, margin)
    median = np.median(inner, axis=2)
    change = inner - median[:, :, None]
    change_size = np.linalg.norm(change, axis=3)
    off_color = change_size > MAX_STICKER_SPREAD
    seen = np.zeros((4, 4), bool)
    seen[1:3, 1:3] = support
    # A glare spot moves a sticker's pixels towards white: they do not speak against it.
    whiteward = np.array([255.0, 128.0, 128.0], np.float32) - median[:, :, None]
    alignment = np.sum(change * whiteward, axis=3) / (
        change_size * np.linalg.norm(whiteward, axis=3) + 1e-6
    )
    glint = alignment > GLINT_ALIGNMENT
    if not ((off_color & ~glint).mean(axis=2)[seen] <= 0.1).all():
        return False
    # Ring cells wholly in the frame, mostly of a seen sticker's very colour: a tiled surface
    # (its cells drift off the window's extrapolated lattice, so only mostly).
    ring = np.ones((4, 4), bool)
    ring[1:3, 1:3] = False
    rows, cols = np.nonzero(ring)
    cell_corners = np.stack([cols - 1, rows - 1], axis=1)[:, None] + _UNIT_SQUARE
    projected = _warp(cell_corners.reshape(-1, 2).astype(float), face_h)
    in_frame = _in_frame(projected, lab.shape).reshape(-1, 4).all(axis=1)
    distance = np.linalg.norm(median[rows, cols][:, None] - median[seen][None], axis=2)
    mostly_one = off_color.mean(axis=2)[rows, cols] <= 0.35
    repeats = in_frame & mostly_one & (distance.min(axis=1) < RING_SAME_COLOR)
    # Tiles show their grout between them; a plain table runs on from one ring cell into
    # the next with no line between, whatever its colour.
    flat = np.zeros((4, 4), bool)
    flat[rows, cols] = in_frame & mostly_one
    in_row, in_column = _one_plain_surface(rectified, median, flat, margin)
    repeats &= ~(in_row | in_column)[rows, cols]
    if repeats.sum() >= 2:
        return False
    # The L's corner cell is opposite the unseen one; its two arms meet it across the
    # middle row line (in the corner's column) and the middle column line (in its row).
    (row,), (col,) = np.nonzero(~support)
    lightness, chroma = _lightness_and_chroma(rectified[cell_px:-cell_px, cell_px:-cell_px])
    in_column = slice((1 - col) * cell_px + margin, (2 - col) * cell_px - margin)
    in_row = slice((1 - row) * cell_px + margin, (2 - row) * cell_px - margin)
    return _seam_between(
        lightness[:, in_column].mean(axis=1), chroma[:, in_column].mean(axis=1), cell_px
    ) and _seam_between(lightness[in_row, :].mean(axis=0), chroma[in_row, :].mean(axis=0), cell_px)


def _inner_patches(rectified: np.ndarray, cells: int, margin: int) -> np.ndarray:
    """The pixels of each cell of a rectified block of ``cells`` x ``cells`` cells, less
    ``margin`` pixels at each side: (cells, cells, pixels, channels)."""
    cell_px = rectified.shape[0] // cells
    inner = rectified.reshape(cells, cell_px, cells, cell_px, -1)
    inner = inner[:, margin:-margin, :, margin:-margin]
    return inner.transpose(0, 2, 1, 3, 4).reshape(cells, cells, -1, rectified.shape[2])


def _one_plain_surface(
    rectified: np.ndarray, color: np.ndarray, flat: np.ndarray, margin: int
) -> tuple[np.ndarray, np.ndarray]:
    """Which cells of a rectified block run into a neighbour of their colour with no line
    of any kind between their middles, as one plain surface does (tiles show their grout,
    darker or lighter than they are; stripes the line between two stripes).

    ``rectified`` is the block in Lab, ``color`` its cells' median colours (rows, cols,
    3), ``flat`` marks the cells to judge; ``margin`` pixels of each cell's sides are left
    out of the profiles across two cells. Returns two masks over the cells: those that run
    into a neighbour in their row, and those that run into one in their column.
    """
    cell_px = rectified.shape[0] // flat.shape[0]
    runs_on = []
    for down in (False, True):  # neighbours in a row, then (transposed) in a column
        block, judged, colors = (
            (rectified.transpose(1, 0, 2), flat.T, color.transpose(1, 0, 2))
            if down
            else (rectified, flat, color)
        )
        alike = np.linalg.norm(colors[:, :-1] - colors[:, 1:], axis=2) < RING_SAME_COLOR
        joined = judged[:, :-1] & judged[:, 1:] & alike  # each cell and the next
        for row, col in zip(*np.nonzero(joined), strict=True):
            band = slice(row * cell_px + margin, (row + 1) * cell_px - margin)
            middles = slice(col * cell_px + cell_px // 2, (col + 1) * cell_px + cell_px // 2)
            profile = block[band, middles].mean(axis=0)
            level = (colors[row, col] + colors[row, col + 1]) / 2
            joined[row, col] = np.linalg.norm(profile - level, axis=1).max() < RING_SAME_COLOR
        either = np.pad(joined, ((0, 0), (1, 0))) | np.pad(joined, ((0, 0), (0, 1)))
        runs_on.append(either.T if down else either)
    return runs_on[0], runs_on[1]


def _plain_surround(image: np.ndarray, detection: FaceDetection) -> np.ndarray:
    """Which cells of the ring around a face ((N+2, N+2), as :func:`_ringed_lab` orders
    them; its corners are not judged) lie on one plain surface past the face's border:
    each runs into a neighbour along the ring with no line of any kind between (see
    :func:`_one_plain_surface`), but not into the face's cell beside it.

    Tiles show grout between them, darker or lighter than they are; a plain table shows
    none, whatever its colour. A cube's other faces, in view past a side, show stickers
    and plastic.
    """
    n, cell_px = detection.size, 16
    m = n + 2
    lab = _rectified_lab(image, detection.homography, m, cell_px, -1.0)
    margin = cell_px // 4  # the cells' middle halves, as the ring's colours are sampled
    inner = _inner_patches(lab, m, margin)
    color = np.median(inner, axis=2)
    off_color = np.linalg.norm(inner - color[:, :, None], axis=3) > MAX_STICKER_SPREAD
    # Only those middles are read: they must lie in the frame.
    rows, cols = np.mgrid[:m, :m]
    inner_square = margin / cell_px + _UNIT_SQUARE * (1 - 2 * margin / cell_px)
    corners = np.stack([cols, rows], axis=-1).reshape(-1, 1, 2) - 1 + inner_square
    in_frame = _in_frame(
        _warp(corners.reshape(-1, 2).astype(float), detection.homography), image.shape
    )
    flat = in_frame.reshape(m, m, 4).all(axis=2) & (off_color.mean(axis=2) <= 0.35)
    in_row, in_column = _one_plain_surface(lab, color, flat, margin)
    # Along the ring, and not into the face's cell beside it: a face's border stickers end
    # at its plastic or a seam; a window over the table itself runs on into the ring.
    plain = np.zeros((m, m), bool)
    plain[[0, -1], 1:-1] = (in_row & ~in_column)[[0, -1], 1:-1]  # top and bottom sides
    plain[1:-1, [0, -1]] = (in_column & ~in_row)[1:-1, [0, -1]]
    return plain


def _rectified(
    image: np.ndarray,
    face_h: np.ndarray,
    cells: int,
    cell_px: int,
    first: float = 0.0,
    dtype: type = np.float32,
) -> np.ndarray:
    """The block of ``cells`` x ``cells`` grid cells whose first cell's corner is
    (``first``, ``first``), warped from ``image`` (any channels; ``face_h`` maps face
    coordinates to its pixels) to ``cell_px`` pixels a cell (float32, or ``dtype``)."""
    to_face = np.array([[1.0 / cell_px, 0, first], [0, 1.0 / cell_px, first], [0, 0, 1]])
    return cv2.warpPerspective(
        image,
        np.linalg.inv(face_h @ to_face),
        (cells * cell_px, cells * cell_px),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    ).astype(dtype, copy=False)


def _rectified_lab(
    image: np.ndarray, face_h: np.ndarray, cells: int, cell_px: int, first: float
) -> np.ndarray:
    """:func:`_rectified` of a BGR frame, in Lab (float32)."""
    bgr = _rectified(image, face_h, cells, cell_px, first, dtype=np.uint8)
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab).astype(np.float32)


def _lightness_and_chroma(lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Lightness and chroma (8-bit Lab units) of each pixel of a Lab image."""
    return lab[..., 0], np.hypot(lab[..., 1] - 128.0, lab[..., 2] - 128.0)


def _seam_between(lightness: np.ndarray, chroma: np.ndarray, cell_px: int) -> bool:
    """True when the lightness and chroma profiles across two cells (2 * ``cell_px``
    samples each) show a line of plastic or a seam at their boundary.

    Against each cell the line is darker, by ``SEAM_DIP`` of the cell's lightness
    (``SEAM_FLOOR`` at least), or, no more than ``SEAM_SHADE`` lighter than the cell, greyer
    by ``SEAM_GREY_DIP`` of its chroma: in dim light a dark blue or green sticker is as dark
    as the plastic around it (blur leaves a thin line of plastic a shade lighter), but the
    plastic stays grey.
    """
    offset = (np.arange(2 * cell_px) + 0.5) / cell_px - 1.0  # in cells from the boundary
    line = np.abs(offset) <= 0.15
    line_lightness, line_chroma = lightness[line], chroma[line]
    for side in (offset < -0.2, offset > 0.2):
        cell_lightness, cell_chroma = np.median(lightness[side]), np.median(chroma[side])
        darker = _seam_dip(cell_lightness, line_lightness.min()) > SEAM_DIP
        # Grey and dark in one place: where a pale colour meets a deep one, the line holds
        # the pale one's low chroma and, elsewhere, the deep one's lightness.
        greyer = (line_lightness <= cell_lightness + SEAM_SHADE) & (
            cell_chroma - line_chroma > SEAM_GREY_DIP * cell_chroma
        )
        if not (darker or greyer.any()):
            return False
    return True


MAX_CELLS_OUTSIDE = 2  # a corner sticker and a neighbour of a large face the frame cuts
# A ring cell shows when a row of its middle's 5 x 5 samples does: a floor filling the frame
# shows its next tiles, cut by the frame's edge, past a window's side.
MIN_SHOWN_SHARE = 0.2


def _plausible_quad(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Convex, not too skewed, mostly inside the image."""
    return _well_shaped(quad) and _corners_near(quad, shape)


def _well_shaped(quad: np.ndarray) -> bool:
    """Convex, and no side shorter than 0.3 of the longest."""
    after = [1, 2, 3, 0]  # each corner's successor
    edges = quad[after] - quad
    cross = edges[:, 0] * edges[after, 1] - edges[:, 1] * edges[after, 0]
    if not (np.all(cross > 0) or np.all(cross < 0)):
        return False
    lengths = np.linalg.norm(edges, axis=1)
    return bool(lengths.min() >= 0.3 * lengths.max())


def _corners_near(quad: np.ndarray, shape: tuple[int, ...], further: float = 0.0) -> bool:
    """Every corner inside the image, or outside it by less than 0.15 of the longest side
    (plus ``further`` px)."""
    margin = 0.15 * _longest_side(quad) + further
    height, width = shape[:2]
    return bool((quad > -margin).all() and (quad < [width + margin, height + margin]).all())


def _cut_at_a_corner(
    quad: np.ndarray, face_h: np.ndarray, support: np.ndarray, shape: tuple[int, ...]
) -> bool:
    """True for a face larger than 2x2 that runs past the frame's edge by a corner sticker
    or two: its corners at most a pitch further out than :func:`_corners_near` allows, at
    most one cell in nine (and ``MAX_CELLS_OUTSIDE``) with its middle outside the frame,
    and a sticker seen in every cell left in view (``support``, n x n).

    A large face held close may run past the frame that way. Past the frame no
    continuation can be seen, so what is left in view must be whole: a board, a keyboard
    or a floor cut so, with an object over it, has gaps. A 2x2 cut so is three stickers,
    judged by :func:`_three_of_four_hold`'s rules.
    """
    n = len(support)
    if n * n < 9:
        return False
    if not _corners_near(quad, shape, _longest_side(quad) / n):
        return False
    in_view = _in_frame(_warp(_cell_middles(n), face_h), shape)
    cut = (~in_view).sum() <= min(MAX_CELLS_OUTSIDE, n * n // 9)
    return bool(cut and support.ravel()[in_view].all())


def _longest_side(quad: np.ndarray) -> float:
    """The length of a quadrilateral's longest side."""
    return float(np.linalg.norm(quad[[1, 2, 3, 0]] - quad, axis=1).max())


def _in_frame(points: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Which points (K, 2) lie in an image of ``shape``."""
    height, width = shape[:2]
    x, y = points[:, 0], points[:, 1]  # by column: NumPy's .all(axis=1) over pairs is slow
    return (x >= 0) & (y >= 0) & (x < width) & (y < height)


def _grid_continues(
    homography: np.ndarray,
    n: int,
    regions: _Regions,
    lab: np.ndarray,
    along_a_side: bool = True,
    colors: np.ndarray | None = None,
) -> bool:
    """True when lattice-like regions sit on the ring of cells just outside the window, or
    (when ``along_a_side``) line up along a side of the ring beyond it. ``lab`` is the
    working image the regions were found in; ``colors`` the window's cell colours in it
    (n, n, 3) when the caller has them.

    A 2x2's four centres fix its homography exactly, their noise included: two pitches
    out, a perspective that is only noise can miss a tile by most of a pitch. The ring
    beyond a 2x2 is also looked for where the affine fit to its four centres puts it (a
    real perspective, on a large face, is the homography's to follow).
    """
    if _lattice_continues(homography, n, regions, lab, along_a_side, colors):
        return True
    if n != 2 or not along_a_side:
        return False
    cells = _cell_middles(2) - 0.5
    affine = _affine_fit(cells, _warp(cells, homography))
    return _lattice_continues(affine, n, regions, lab, True, colors, beyond_only=True)


def _pitch(homography: np.ndarray) -> float:
    """The lattice's pitch in the image at its cell (0, 0): the diagonal step over root 2."""
    diagonal = _warp(np.array([[0.0, 0.0], [1.0, 1.0]]), homography)
    return float(np.linalg.norm(diagonal[1] - diagonal[0])) / np.sqrt(2)


def _lattice_continues(
    homography: np.ndarray,
    n: int,
    regions: _Regions,
    lab: np.ndarray,
    along_a_side: bool,
    colors: np.ndarray | None,
    beyond_only: bool = False,
) -> bool:
    """:func:`_grid_continues` for the window's lattice extended by one homography; only
    along the sides of the ring beyond the first when ``beyond_only``."""
    ring, first, sides = _rings(n)
    predicted = _warp(ring, homography)
    height, width = lab.shape[:2]
    inside = _in_frame(predicted, lab.shape)
    pitch = _pitch(homography)
    idx, near, similar = _regions_at(predicted, regions, pitch, pitch * pitch)
    close = near & ~(first & beyond_only)
    along = max(2, (n + 1) // 2)  # hits along one side that make a continuation
    if close[first].sum() < 2 and not (along_a_side and (sides @ close >= along).any()):
        return False  # too few regions near the rings for either rule below
    # Only count regions of about the lattice's cell size (``similar``: a cube's neighbour
    # face or a sheet of background texture is not a continuation) that are squares of the
    # lattice, unless the frame's edge may cut them: roughly square in it, not squashed
    # across the window's side, as the next face of the cube is where it bends away, and
    # lined up with it, as tiles and keys are (a square object turned against it fills its
    # bounding box unlike a cell of the lattice there does).
    square = _ring_squares(
        ring,
        n,
        homography,
        regions.centers[idx],
        regions.whiten[idx],
        regions.box_fill[idx],
        MAX_EXTRAPOLATED_ASPECT,
        MAX_LATTICE_ASPECT,
        MAX_FILL_DIFFERENCE,
    )
    margin = 0.5 * pitch
    at_edge = (
        (predicted[:, 0] < margin)
        | (predicted[:, 0] > width - margin)
        | (predicted[:, 1] < margin)
        | (predicted[:, 1] > height - margin)
    )
    similar &= square | at_edge
    # Without true areas (merged blocks cut into stickers) the kind is not judged.
    repeats, sized = similar.copy(), similar.copy()
    if similar.any() and regions.true_areas:
        beside = idx[similar]
        repeats[similar], sized[similar] = _of_the_grids_kind(
            homography, n, regions, lab, beside, pitch, colors
        )
        similar &= repeats | sized
    # Ring cells outside the frame show nothing, unless a region cut by the frame's edge sits
    # there: a face filling the frame is judged by its own cells. Beside a face cut by the
    # frame, a quarter of the few ring cells left is two or less. Two objects of a sticker's
    # size lie a pitch past two sides of a face by chance often enough: two hits make a
    # continuation only along one side (a board's next row or column), or with more of the
    # lattice beyond them (a board in the frame's corner).
    hits = close & similar
    first_hits = hits[first].sum()
    board_like = first_hits > 2 or (sides[:4] @ hits).max() == first_hits or hits[~first].any()
    if first_hits > max(1, 0.25 * (inside | hits)[first].sum()) and board_like:
        return True
    # A board one row larger than the window continues along one side only. Keys of a
    # staggered keyboard and tiles past a gap or an object miss the next ring but line up
    # along the one beyond; past a cube face's side lie the plastic, the background, or the
    # next face, whose stickers are squashed in this face's lattice (and not counted).
    # The fewest hits that make a row must be alike: a board's next tiles share the kind
    # they have with the window (a colour of it, or its tiles' size: a 2x2 window on a tiling
    # of three colours lacks one). Past a window of three rows or more, a board's next tiles
    # are both, since its rows show the board's colours; two objects side by side, one of a
    # sticker's colour and one of its size, are not a row.
    if n == 2:
        alike = (sides @ (hits & repeats) >= along) | (sides @ (hits & sized) >= along)
    else:
        alike = sides @ (hits & repeats & sized) >= along
    return along_a_side and bool(((sides @ hits > along) | alike).any())


MAX_TILE_AREA_RATIO = 1.3  # a board's tiles are one size: the window's regions' within this


def _of_the_grids_kind(
    homography: np.ndarray,
    n: int,
    regions: _Regions,
    lab: np.ndarray,
    beside: np.ndarray,
    pitch: float,
    colors: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Which regions ``beside`` the window (indices) could be more of the same grid: a
    board's or a floor's next tile repeats a colour of the window's cells (``colors``,
    measured here when None), or is the size of the window's own regions (a tiling of
    three colours or more shows ones the window lacks). Returns both masks: (repeats a
    colour, is of the size).

    An object lying beside a cube face is of its own colour and size: it matches neither,
    but by chance.
    """
    face_h = _face_of_lattice(homography)
    if colors is None:
        colors = _cell_statistics(face_h, n, lab).color
    colors = np.asarray(colors, float).reshape(-1, 1, 3)
    at = np.rint(regions.centers[beside]).astype(int)
    at = np.clip(at, 0, [lab.shape[1] - 1, lab.shape[0] - 1])
    seen = lab[at[:, 1], at[:, 0]].astype(float)
    repeats = np.linalg.norm(seen[None] - colors, axis=2).min(axis=0) < 2 * RING_SAME_COLOR
    dist, own = _nearest(_warp(_cell_middles(n), face_h), regions.centers)
    own = own[dist < 0.25 * pitch]
    if len(own) == 0:
        return repeats, np.zeros_like(repeats)
    ratio = regions.areas[beside] / _median(regions.areas[own])
    return repeats, (ratio < MAX_TILE_AREA_RATIO) & (ratio > 1 / MAX_TILE_AREA_RATIO)


@lru_cache(maxsize=8)
def _cell_middles(n: int) -> np.ndarray:
    """The middles of an n x n face's cells in face coordinates, row-major (n*n, 2)."""
    cells = np.arange(n * n)
    middles = np.stack([cells % n, cells // n], axis=1) + 0.5
    middles.flags.writeable = False  # shared between calls
    return middles


@lru_cache(maxsize=8)
def _rings(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The two rings of cells around an n x n window (lattice coords, cells 0..n-1), (K, 2);
    which are in the first ring, (K,); and the cells along each side of the window: each
    side of the first ring, and the middle n cells of each side of the second, (8, K) int."""
    cells = np.array([(c, r) for r in range(-2, n + 2) for c in range(-2, n + 2)], float)
    depth = np.maximum(-cells.min(axis=1), cells.max(axis=1) - (n - 1))
    ring = cells[depth > 0]
    first = depth[depth > 0] == 1
    column, row = ring[:, 0], ring[:, 1]
    in_columns, in_rows = (column >= 0) & (column < n), (row >= 0) & (row < n)
    first_sides = [first & (row == -1), first & (row == n)]
    first_sides += [first & (column == -1), first & (column == n)]
    second_sides = [(row == -2) & in_columns, (row == n + 1) & in_columns]
    second_sides += [(column == -2) & in_rows, (column == n + 1) & in_rows]
    sides = np.array([*first_sides, *second_sides], np.int64)
    for shared in (ring, first, sides):
        shared.flags.writeable = False  # shared between calls
    return ring, first, sides


def _on_the_plastic(
    face_h: np.ndarray, n: int, lab: np.ndarray, cells: _CellStatistics, support: np.ndarray
) -> bool:
    """:func:`_shows_plastic`, where a cell with a sticker seen is not the plastic when it is
    ``BODY_CONTRAST`` times lighter than the face's seams (the black body showing between
    its stickers): under a warm lamp a blue sticker turns as dark and grey as the plastic,
    but stays far lighter than it. A window on the plastic has no sticker seen there.

    On a white body such a sticker is as many times darker than the seams, and is taken
    for one too where the seams are at least ``LIGHT_BODY`` times the lightest cell's
    lightness: white plastic, about as light as the white or yellow sticker (0.75-0.90 on
    the white-bodied photos). Dark tiles between grout, or a board's dark squares, are as
    much darker than their seams, but those seams are a mid tone, well below the lightest
    tile (0.47-0.63 in the no-cube scenes that showed it).
    """
    if not _shows_plastic(cells):
        return False
    seams = _seam_lightness(face_h, n, lab)
    stickers = support & (cells.lightness > BODY_CONTRAST * seams)
    if seams >= LIGHT_BODY * cells.lightness.max():
        stickers |= support & (BODY_CONTRAST * cells.lightness < seams)
    return _shows_plastic(cells, stickers)


def _seam_lightness(face_h: np.ndarray, n: int, lab: np.ndarray) -> float:
    """The median lightness over the middles of the grid's inner cell borders (a tenth of a
    cell either side): the body, on a stickered cube; a blend of the two cells, where the
    seam is thin."""
    points = _across_borders(n, np.linspace(-0.1, 0.1, 5), np.array([0.5])).reshape(-1, 2)
    lightness = _sample(np.ascontiguousarray(lab[..., 0]), _warp(points, face_h))
    return float(np.median(lightness))


def _shows_plastic(cells: _CellStatistics, stickers: np.ndarray | None = None) -> bool:
    """True when more than one cell in eight is dark and grey: the grid sits on the plastic.

    Only near-grey counts: a blue or green sticker in dim light is dark too, but keeps
    some chroma, while black plastic stays grey under any colour cast. Dark is measured
    against the lightest flat cell: a glare spot over a whole sticker, lighter than any
    sticker, would make a white sticker in dim light look dark, so the lightest is passed
    over when it is under glare or clipped to white with a tint (a light makes one spot;
    grey cells, with no colour to wash out, may all count as glared). Cells in the mask
    ``stickers`` (N, N), when given, are not counted (see :func:`_on_the_plastic`).
    """
    lightness, chroma = cells.lightness, cells.chroma
    flat = cells.spread < MAX_STICKER_SPREAD
    pool = np.flatnonzero(flat) if flat.any() else np.arange(flat.size)
    ranked = pool[np.argsort(-lightness.flat[pool], kind="stable")]  # lightest first
    lit, first = lightness.flat[ranked], ranked[0]
    # A glare spot that clips a whole sticker leaves no darker part to flag it by, but
    # keeps the sticker's tint; a clipped white sticker is grey.
    clipped = lit[0] >= CLIPPED_LIGHTNESS and chroma.flat[first] >= PLASTIC_CHROMA
    lightest = lit[1] if (cells.glared.flat[first] or clipped) and len(lit) > 1 else lit[0]
    plastic = (lightness < PLASTIC_LIGHTNESS * lightest) & (chroma < PLASTIC_CHROMA)
    if stickers is not None:
        plastic &= ~stickers
    return bool(plastic.sum() > max(1, lightness.size // 8))


def _keys_with_gaps(
    face_h: np.ndarray,
    n: int,
    lab: np.ndarray,
    cell_stats: _CellStatistics,
    support: np.ndarray,
) -> bool:
    """True for a grid of identical keys or tiles with some missing: two or more cells are
    holes, or one with keys on all four sides, and one colour fills most of the rest and
    over half the grid.

    A missing key shows the body the keys sit on (dark, grey or not): no line darker than
    the hole runs between it and the keys beside it. A nearly solved face also shows one
    colour and a few dark cells (a blue or green sticker in dim light is nearly as dark and
    grey as the plastic), but the plastic or a seam runs between each sticker and its
    neighbours. One hole on the window's edge may be the background past a face's border
    (a window one row too large); one with keys on its four sides lies inside the grid.

    The colour is judged on the cells where a key was seen (``support``): an object lying
    over a keyboard's end, or the background past it, fills cells of its own colours.
    ``cell_stats`` is :func:`_cell_statistics`' for the window.
    """
    dark = cell_stats.lightness < _dark_below(cell_stats)
    if not dark.any():
        return False
    same = _light_cells_of_the_main_color(cell_stats, dark, support)
    if not (same.sum() > n * n / 2 and same.mean() >= ONE_COLOR_SHARE):
        return False
    cell_px = 16
    # The rectified face's lightness and chroma, (2, rows, columns) of pixels.
    planes = np.stack(_lightness_and_chroma(_rectified(lab, face_h, n, cell_px)))
    margin = round(cell_px * (1 - WHOLE_STICKER_SHARE) / 2)
    body = enclosed = 0
    for row, col in zip(*np.nonzero(dark), strict=True):
        seams = []
        for r, c in ((row, col - 1), (row, col + 1), (row - 1, col), (row + 1, col)):
            if not (0 <= r < n and 0 <= c < n) or dark[r, c]:
                continue
            # The two cells' pixels from the first's far side to the second's, averaged
            # across the band both cells' middles share.
            first_row, first_col = min(row, r) * cell_px, min(col, c) * cell_px
            if r == row:
                band = planes[:, row * cell_px + margin : (row + 1) * cell_px - margin]
                profile = band[:, :, first_col : first_col + 2 * cell_px].mean(axis=1)
            else:
                band = planes[:, :, col * cell_px + margin : (col + 1) * cell_px - margin]
                profile = band[:, first_row : first_row + 2 * cell_px].mean(axis=2)
            seams.append(_seam_between(profile[0], profile[1], cell_px))
        body += bool(seams) and not any(seams)
        enclosed += len(seams) == 4 and not any(seams)
    return body >= 2 or enclosed >= 1


def _dark_below(cells: _CellStatistics) -> float:
    """The lightness below which a cell is dark: a hole, or the plastic."""
    return PLASTIC_LIGHTNESS * float(cells.lightness.max())


def _light_cells_of_the_main_color(
    cells: _CellStatistics, dark: np.ndarray, seen: np.ndarray | None = None
) -> np.ndarray:
    """Of the flat cells that are not ``dark`` (and are ``seen``, when given), which are of
    their median colour (K,)."""
    keep = ~dark & (cells.spread < MAX_STICKER_SPREAD)
    if seen is not None:
        keep &= seen
    flat = cells.color[keep].astype(float)
    if len(flat) == 0:
        return np.zeros(0, bool)
    return np.linalg.norm(flat - np.median(flat, axis=0), axis=1) < RING_SAME_COLOR


def _not_a_face(image: np.ndarray, detection: FaceDetection) -> bool:
    """True when a found grid shows too few stickers, or is a board or a tiled surface,
    checked at full resolution."""
    if _few_stickers(detection) or _cut_along_a_side(detection, image.shape):
        return True
    block = _ringed_lab(image, detection)  # the checks read the same samples
    return (
        _is_board(image, detection, block)
        or _color_continues(image, detection, block)
        or _turned_in_cells(image, detection, block)
        or _edges_off_the_lines(image, detection)
    )


def _few_stickers(detection: FaceDetection) -> bool:
    """True when fewer than ``MIN_STICKER_SHARE`` of the grid's cells are flat: a face
    shows its stickers, each one colour (a 2x2 under a finger, with a glare spot over two of
    its stickers, still shows one).

    A window may count a cell with light patches for a glared sticker; over a floor of light
    tiles whose dark grout crosses every cell, it counts them all, and none is flat.
    """
    return bool((detection.confidence >= FLAT_CELL_CONFIDENCE).mean() < MIN_STICKER_SHARE)


def _cut_along_a_side(detection: FaceDetection, shape: tuple[int, ...]) -> bool:
    """True when the frame's edge cuts into a sticker that is not one of the face's corner
    stickers or a neighbour of one along a side: into the square that reaches
    ``STICKER_CORNER`` from its cell's middle along both axes (:func:`_sticker_corners`),
    which a sticker covers whatever its gap and rounded corners.

    A face held close, and turned, pokes its corners out of the frame first; the frame's
    edge cutting into a side's row past them (or two sides') is a floor or a board running
    on out of the frame, where no check can see whether its pattern continues. The edge may
    run through the gaps beside a side's stickers: a face filling the frame is whole.
    """
    n = detection.size
    corners = _warp(_sticker_corners(n), detection.homography)
    cut = ~_in_frame(corners, shape).reshape(n, n, 4).all(axis=2)
    return bool((cut & ~_corner_stickers(n)).any())


@lru_cache(maxsize=8)
def _sticker_corners(n: int) -> np.ndarray:
    """Face coordinates (n * n * 4, 2) of the points ``STICKER_CORNER`` from each cell's
    middle along both axes, cell by cell (row-major): the corners of the square its sticker
    covers (see :func:`_turned_in_cells`)."""
    offsets = (_UNIT_SQUARE - 0.5) * 2 * STICKER_CORNER
    corners = (_cell_middles(n)[:, None] + offsets).reshape(-1, 2)
    corners.flags.writeable = False  # shared between calls
    return corners


@lru_cache(maxsize=8)
def _corner_stickers(n: int) -> np.ndarray:
    """(n, n) mask of an n x n face's corner cells and their neighbours along its sides."""
    mask = np.zeros((n, n), bool)
    for row, col in ((0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)):
        inner_row, inner_col = (1 if row == 0 else n - 2), (1 if col == 0 else n - 2)
        mask[row, col] = mask[inner_row, col] = mask[row, inner_col] = True
    mask.flags.writeable = False
    return mask


def _turned_in_cells(
    image: np.ndarray, detection: FaceDetection, block: tuple[np.ndarray, np.ndarray]
) -> bool:
    """True when in most cells the pattern leaves all four corners of the cell's middle: a
    checkerboard's squares seen along its diagonals, each a diamond in its cell.

    A sticker covers its cell but for the gap around it (0.84 of the pitch or more, corners
    rounded a little), so the points ``STICKER_CORNER`` from the cell's middle along both
    axes show its colour, unless glare or a finger covers one. ``block`` is
    :func:`_ringed_lab`'s.
    """
    n = detection.size
    corners = _sample(image, _warp(_sticker_corners(n), detection.homography)).reshape(-1, 1, 3)
    corners = cv2.cvtColor(corners, cv2.COLOR_BGR2Lab).astype(float).reshape(n * n, 4, 3)
    median = _cell_medians(block[0], n)[1:-1, 1:-1].reshape(n * n, 1, 3)
    off = np.linalg.norm(corners - median, axis=2) > MAX_STICKER_SPREAD
    return bool(off.all(axis=1).mean() > 0.5)


def _edges_off_the_lines(image: np.ndarray, detection: FaceDetection) -> bool:
    """True when the edges in the grid's seen cells do not run along its lines: squares
    lying about at random turns whose middles happen to fall on a lattice, or a keyboard's
    keys in staggered rows (the lattice through their middles is sheared, their sides are
    not).

    Mapped into the face's grid, a sticker's sides run along the grid's lines at any tilt,
    so the edges in and around its cell fall into two families: across the columns and
    across the rows. Each family's mean direction (:func:`_edge_turns`) must lie within
    ``MAX_EDGE_TURN`` of the grid's lines; a lattice fitted through a face's stickers
    misses them by a few degrees (9 in the renderer's worst fits, 2x2 faces with a sticker
    covered).
    """
    return max(abs(turn) for turn in _edge_turns(image, detection)) > MAX_EDGE_TURN


EDGE_CELL_PX = 24  # pixels a cell in the block the edge directions are measured in


def _edge_turns(image: np.ndarray, detection: FaceDetection) -> tuple[float, float]:
    """The mean directions (degrees) of the edges across the grid's columns and across its
    rows, in the face's grid, from its lines: the strength-weighted mean of the gradients'
    doubled angles, halved. Only the pixels in and a sixth of a cell around the seen cells,
    and in the frame, are judged.
    """
    n, cell_px = detection.size, EDGE_CELL_PX
    # The face and half a cell around it: a sticker's edges lie near its cell's border.
    rectified = _rectified_lab(image, detection.homography, n + 1, cell_px, -0.5)
    judged = _near_seen_cells(_seen(detection).tobytes(), n)
    if not _block_in_frame(detection.homography, n, image.shape):
        pixels = _warp(_block_points(n), detection.homography)
        judged = judged & _in_frame_by_one(pixels, image.shape).reshape(judged.shape)
    gx = cv2.Sobel(rectified, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(rectified, cv2.CV_32F, 0, 1, ksize=3)
    # Each gradient's doubled angle, weighted by its strength squared: (gx + i gy)^2. Across
    # the columns (|gx| >= |gy|) it is near 0 degrees, across the rows near 180. Summed over
    # the judged pixels' three channels.
    sine_columns, cosine_columns, sine_all, cosine_all = _doubled_angle_sums(gx, gy, judged)
    # Across the rows the doubled angles lie near 180 degrees: negated, near 0.
    sine_rows, cosine_rows = sine_columns - sine_all, cosine_columns - cosine_all
    return (
        math.degrees(math.atan2(sine_columns, cosine_columns)) / 2,
        math.degrees(math.atan2(sine_rows, cosine_rows)) / 2,
    )


@lru_cache(maxsize=8)
def _block_points(n: int) -> np.ndarray:
    """Face coordinates (side * side, 2) of :func:`_edge_turns`'s block's pixels."""
    side = (n + 1) * EDGE_CELL_PX
    points = np.indices((side, side))[::-1].reshape(2, -1).T / EDGE_CELL_PX - 0.5
    points.flags.writeable = False
    return points


@lru_cache(maxsize=64)
def _near_seen_cells(seen: bytes, n: int) -> np.ndarray:
    """(side, side) mask of :func:`_edge_turns`'s block: each seen cell (``seen``, the
    bytes of an n x n bool array) and a sixth of a cell around it."""
    cell_px = EDGE_CELL_PX
    cells = np.frombuffer(seen, bool).reshape(n, n).astype(np.uint8)
    cells = np.pad(np.kron(cells, np.ones((cell_px, cell_px), np.uint8)), cell_px // 2)
    near = cv2.dilate(cells, np.ones((cell_px // 3 + 1,) * 2, np.uint8)) > 0
    near.flags.writeable = False
    return near


def _block_in_frame(face_h: np.ndarray, n: int, shape: tuple[int, ...]) -> bool:
    """True when all of :func:`_edge_turns`'s block lies a pixel or more inside the frame.

    The homography's denominator is affine, so when it has one sign at the block's four
    corners it has it all over the block, which then maps into the convex hull of their
    images.
    """
    points, side = _block_points(n), (n + 1) * EDGE_CELL_PX
    corners = np.column_stack([points[[0, side - 1, -side, -1]], np.ones(4)]) @ face_h.T
    if not ((corners[:, 2] > 0).all() or (corners[:, 2] < 0).all()):
        return False
    return bool(_in_frame_by_one(corners[:, :2] / corners[:, 2:], shape).all())


def _in_frame_by_one(points: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Which points (K, 2) lie a pixel or more inside an image of ``shape``: where a 3 x 3
    gradient reads only the frame's own pixels."""
    height, width = shape[:2]
    x, y = points[:, 0], points[:, 1]
    return (x >= 1) & (y >= 1) & (x <= width - 2) & (y <= height - 2)


def _ringed_lab(image: np.ndarray, detection: FaceDetection) -> tuple[np.ndarray, np.ndarray]:
    """The grid's cells and the ring of cells around it, (N+2)^2 row-major: each cell's 25
    samples in Lab, sorted per channel ((N+2)^2, 25, 3) float, and whether it shows in the
    frame ((N+2)^2,): ``MIN_SHOWN_SHARE`` of its samples or more lie there.

    A cell the frame's edge cuts is read from what shows of it: the samples past the edge
    repeat the pixels along it, which are that cell's.
    """
    samples, inside = _cell_samples(image, detection.homography, detection.size + 2, -1.0)
    lab = cv2.cvtColor(samples, cv2.COLOR_BGR2Lab).astype(float)
    return np.sort(lab, axis=1), inside.mean(axis=1) >= MIN_SHOWN_SHARE


def _cell_medians(ringed: np.ndarray, n: int) -> np.ndarray:
    """(N+2, N+2, 3) the median Lab of each cell of :func:`_ringed_lab`'s sorted samples
    (the middle one of its 25)."""
    return ringed[:, 12].reshape(n + 2, n + 2, 3)


def _color_continues(
    image: np.ndarray, detection: FaceDetection, block: tuple[np.ndarray, np.ndarray]
) -> bool:
    """True when the cells just past three or more of the grid's sides repeat its colours.

    Across a cube face's border lies the plastic, the background, or another sticker of the
    same piece (an edge or a corner piece), and no piece has two stickers of one colour; on
    a tiled floor, the tile past the grid's border is another flat tile of the same colour.
    Two sides of a face may border faces that are in view, so three sides must repeat (both,
    when the frame's corner leaves only two to judge). A side past which a border of two or
    more colours repeats cell for cell is a striped surface: a background does not copy a row
    of stickers, and a piece's stickers all differ. It takes at least two repeating cells and
    half of the side's judged ones. A ring cell textured by text or an object over it never
    repeats, nor does one on a plain surface (a white table beside white stickers: see
    :func:`_plain_surround`), but both are judged: left out, a real face filling the frame
    with white stickers against a white wall (rubyrizz WhatsApp-Image-2021-02-16-at-7-56-47)
    repeats past the two sides whose other cells are textured. Only ring cells that show in
    the frame are judged. ``block`` is :func:`_ringed_lab`'s.
    """
    n = detection.size
    lab, inside = block
    median = _cell_medians(lab, n)
    spread = (lab[:, 18] - lab[:, 6]).max(axis=1).reshape(n + 2, n + 2)  # ~interquartile
    inside = inside.reshape(n + 2, n + 2)
    middle = slice(1, n + 1)
    plain = None  # judged once a side has a cell that repeats
    repeated_sides = judged_sides = 0
    striped = False
    for ring, border in (
        ((0, middle), (1, middle)),
        ((n + 1, middle), (n, middle)),
        ((middle, 0), (middle, 1)),
        ((middle, n + 1), (middle, n)),
    ):
        judged = inside[ring]
        flat = judged & (spread[ring] < MAX_STICKER_SPREAD)
        difference = np.linalg.norm(median[ring] - median[border], axis=-1)
        same = flat & (difference < RING_SAME_COLOR)
        if same.any():
            plain = _plain_surround(image, detection) if plain is None else plain
            same &= ~plain[ring]
        judged_sides += bool(judged.any())
        repeated_sides += bool(judged.any() and same.sum() >= max(1, judged.sum() / 2))
        colors = median[border][same]
        striped |= bool(
            same.sum() >= max(2, judged.sum() / 2)
            and same.sum() == flat.sum()
            and np.ptp(colors, axis=0).max() >= RING_SAME_COLOR
        )
    # In a corner of the frame only two sides can be judged: then both must repeat.
    return striped or repeated_sides >= min(3, max(2, judged_sides))


def _cell_samples(
    image: np.ndarray, homography: np.ndarray, m: int, start: float
) -> tuple[np.ndarray, np.ndarray]:
    """25 samples over the middle of each cell of an m x m block of the grid whose first
    cell's corner is (start, start): (m*m, 25, 3) of the image's channels and whether each
    sample lies in the frame (m*m, 25), cells row-major."""
    pixels = _warp(_cell_sample_points(m, start), homography)
    height, width = image.shape[:2]
    in_frame = (pixels[:, 0] >= 0) & (pixels[:, 0] <= width - 1) & (pixels[:, 1] >= 0)
    in_frame &= pixels[:, 1] <= height - 1
    samples = _sample(image, pixels).reshape(m * m, -1, 3)
    return samples, in_frame.reshape(m * m, -1)


@lru_cache(maxsize=16)
def _cell_sample_points(m: int, start: float) -> np.ndarray:
    """:func:`_cell_samples`' points in grid coordinates, (m*m, 25, 2)."""
    inner = (np.arange(5) + 0.5) / 5 * 0.5 + 0.25  # a 5 x 5 grid over each cell's middle
    cell = np.arange(m * m)
    cols, rows = cell % m + start, cell // m + start
    points = np.empty((m * m, len(inner) ** 2, 2))
    points[..., 0] = cols[:, None] + np.tile(inner, len(inner))
    points[..., 1] = rows[:, None] + np.repeat(inner, len(inner))
    points.flags.writeable = False  # shared between calls
    return points


def _is_board(
    image: np.ndarray, detection: FaceDetection, block: tuple[np.ndarray, np.ndarray]
) -> bool:
    """True for a board game pattern: two colours alternating, with no seams between cells.

    A cube face in the checkerboard pattern still shows the plastic (or the seams of a
    stickerless cube) between its stickers, or, where blur has closed those, at the
    crossings where their rounded corners meet; they are looked for at full resolution.
    ``block`` is :func:`_ringed_lab`'s.
    """
    n = detection.size
    cell = np.arange(n * n)
    cols, rows = cell % n, cell // n
    cells = _cell_medians(block[0], n)[1:-1, 1:-1].reshape(n * n, 3)
    if not _two_alternating_colors(cells, (cols + rows) % 2 == 1):
        return False
    return _seam_share(image, detection) < MIN_SEAM_SHARE and not _plastic_at_crossings(
        image, detection, block
    )


def _plastic_at_crossings(
    image: np.ndarray, detection: FaceDetection, block: tuple[np.ndarray, np.ndarray]
) -> bool:
    """True when a spot ``CROSSING_DIP`` darker (see :func:`_seam_dip`) than each of the four
    cells meeting there shows at every inner crossing of the grid: the plastic between a
    cube's rounded sticker corners, which still shows where blur has closed the thin seams
    along its stickers' sides. A board's squares meet at a point no darker than its dark
    squares. ``block`` is :func:`_ringed_lab`'s."""
    n = detection.size
    lightness = _cell_medians(block[0], n)[1:-1, 1:-1, 0]
    around = np.minimum.reduce(
        [lightness[:-1, :-1], lightness[:-1, 1:], lightness[1:, :-1], lightness[1:, 1:]]
    ).ravel()
    steps = np.linspace(-CROSSING_SPOT, CROSSING_SPOT, 5)
    spot = np.stack(np.meshgrid(steps, steps), -1).reshape(-1, 2)
    inner = np.arange(1, n, dtype=float)
    crossings = np.stack(np.meshgrid(inner, inner), -1).reshape(-1, 2)
    points = (crossings[:, None] + spot[None]).reshape(-1, 2)
    bgr = _sample(image, _warp(points, detection.homography))
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab).astype(float)
    darkest = lab[..., 0].reshape(len(crossings), len(spot)).min(axis=1)
    return bool((_seam_dip(around, darkest) > CROSSING_DIP).all())


def _two_alternating_colors(cells: np.ndarray, parity: np.ndarray) -> bool:
    """True when the cells (Lab colours) of each parity share one colour, unlike the other's.

    Objects lying on a board (or its edge) hide some squares: the cells of neither colour
    are left out. Of the rest, half the cells or more, each colour shows on a quarter of the
    cells or more, and on its own parity only (but one cell in ten).
    """
    centers = []
    for group in (cells[parity], cells[~parity]):
        # Per channel median (cells hold integers, so this is exactly np.median's value).
        ordered = np.sort(group, axis=0)
        half = len(ordered) // 2
        centers.append(
            ordered[half] if len(ordered) % 2 else (ordered[half - 1] + ordered[half]) / 2
        )
    if np.sqrt(((centers[0] - centers[1]) ** 2).sum()) < 25:
        return False
    near = [np.sqrt(((cells - center) ** 2).sum(axis=1)) < 12 for center in centers]
    shown = near[0] | near[1]
    astray = (near[0] & ~parity) | (near[1] & parity)
    return bool(
        shown.mean() >= 0.5
        and min((near[0] & parity).sum(), (near[1] & ~parity).sum()) >= len(cells) / 4
        and astray.sum() <= 0.1 * shown.sum()
    )


def _sample(image: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Bilinear samples of ``image`` at ``points`` (K, 2), shape (K, 1) or (K, 1, channels)."""
    count = len(points)
    width = 1024  # remap maps are limited to 32767 rows: lay the points out in rows
    xy = np.zeros((-(-count // width) * width, 2), np.float32)
    xy[:count] = points
    sampled = cv2.remap(
        image, xy.reshape(-1, width, 2), None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return sampled.reshape(-1, 1, *sampled.shape[2:])[:count]


def _seam_share(image: np.ndarray, detection: FaceDetection) -> float:
    """Share of neighbouring cell pairs with a line darker than both cells between them."""
    n = detection.size
    cell_px = _cell_width(detection.centers)
    # Sample finer than a pixel, so a one-pixel seam cannot fall between two samples.
    across = np.linspace(-0.5, 0.5, int(np.clip(2 * cell_px, 21, 401)) | 1)
    lines = np.array([0.3, 0.5, 0.7])
    points = _across_borders(n, across, lines)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    values = _sample(gray, _warp(points.reshape(-1, 2), detection.homography))
    profile = np.median(values.reshape(len(points), len(lines), len(across)).astype(float), axis=1)
    outer = np.abs(across) > 0.2
    middle = np.abs(across) <= 0.1
    left = np.median(profile[:, outer & (across < 0)], axis=1)
    right = np.median(profile[:, outer & (across > 0)], axis=1)
    sides, line = np.minimum(left, right), profile[:, middle].min(axis=1)
    # A sharp step from a light square to a black one undershoots the black (JPEG ringing,
    # sharpening) by a few percent of the step; a seam dips further.
    beyond_ringing = sides - line > RINGING_SHARE * np.abs(left - right)
    return float(((_seam_dip(sides, line) > SEAM_DIP) & beyond_ringing).mean())


def _across_borders(n: int, across: np.ndarray, along: np.ndarray) -> np.ndarray:
    """Grid coordinates of points across each inner border between two cells of an N x N
    grid, ``across`` (cells) from it at ``along`` (cells) down its length: the borders
    between columns, then rows, line by line, (2 * n * (n - 1), len(along), len(across), 2).
    """
    points = []
    for line in range(n):
        for step in range(n - 1):
            # Across the boundary after cell ``step``, along row (then column) ``line``.
            pts = np.stack(np.broadcast_arrays(step + 1 + across[None], line + along[:, None]), -1)
            points += [pts, pts[..., ::-1]]
    return np.array(points)


def _seam_dip(cell_lightness: np.ndarray | float, line_lightness: np.ndarray | float) -> np.ndarray:
    """How much darker a line is than the cell beside it, relative to the cell: a seam from
    ``SEAM_DIP`` on. Never relative to less than ``SEAM_FLOOR``: next to a black square,
    sensor noise alone would make a "seam"."""
    return (cell_lightness - line_lightness) / np.maximum(cell_lightness, SEAM_FLOOR)


def _polygon_area(poly: np.ndarray) -> float:
    x, y = poly[:, 0], poly[:, 1]
    # Each vertex's successor's coordinates.
    x_next, y_next = np.concatenate((x[1:], x[:1])), np.concatenate((y[1:], y[:1]))
    return 0.5 * float(np.dot(x, y_next) - np.dot(y, x_next))


class _CellStatistics(NamedTuple):
    """Per cell of a window (n, n): its inner patch's median lightness and chroma, spread
    (interquartile range), whether it is one flat colour under a glare spot, and its median
    Lab colour (n, n, 3)."""

    lightness: np.ndarray
    chroma: np.ndarray
    spread: np.ndarray
    glared: np.ndarray
    color: np.ndarray


def _cell_statistics(face_h: np.ndarray, n: int, lab: np.ndarray) -> _CellStatistics:
    """:class:`_CellStatistics` of each cell's inner patch (rectified)."""
    cell_px = 8
    side = n * cell_px
    to_face = np.diag([1.0 / cell_px, 1.0 / cell_px, 1.0])
    rectify = np.linalg.inv(face_h @ to_face)
    patch = cv2.warpPerspective(
        lab, rectify, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    inner, median, spread = _inner_patch_statistics(patch, n, cell_px)  # 16 pixels a cell
    lightness, chroma = _lightness_and_chroma(median)
    return _CellStatistics(lightness, chroma, spread, _glared(inner), median)


def _glared(pixels: np.ndarray) -> np.ndarray:
    """Which cells (pixels: (n, n, 16, 3) Lab) are one flat colour under a glare spot.

    A highlight lightens part of a sticker towards white: the cell's darker half stays one
    flat colour, and its lightest quarter is much lighter and greyer than that half. A
    broad one may leave only a corner of the sticker unglared: see :func:`_washed`.
    """
    return _glared_cells(pixels, MAX_STICKER_SPREAD, PLASTIC_CHROMA)


def _washed(ordered: np.ndarray) -> np.ndarray:
    """Which cells (pixels (n, n, 16, 3) Lab, darkest first) are a coloured sticker that a
    glare spot lightens over much of its patch, the unglared part too small for
    :func:`_glared`: the darkest quarter is one flat colour, and every pixel lies between
    that colour and grey in a/b (a highlight lightens a colour and washes it out, but does
    not turn its hue)."""
    return _washed_cells(np.asarray(ordered, np.float64), MAX_STICKER_SPREAD, PLASTIC_CHROMA)


# ----------------------------------------------------------------------------------------------
# 4. Output
# ----------------------------------------------------------------------------------------------


def _make_detection(face_h: np.ndarray, n: int, confidence: np.ndarray) -> FaceDetection:
    """Orient the face so its top is up in the image (+-45 deg) and build the detection."""
    face_h = face_h / face_h[2, 2]
    # Make the face coordinate frame right-handed in the image (u right, v down, not mirrored).
    corners = _warp(np.array([[0, 0], [1, 0], [0, 1]], float), face_h)
    u_dir, v_dir = corners[1] - corners[0], corners[2] - corners[0]
    if u_dir[0] * v_dir[1] - u_dir[1] * v_dir[0] < 0:
        mirror = np.array([[-1, 0, n], [0, 1, 0], [0, 0, 1.0]])
        face_h = face_h @ mirror
        confidence = confidence[:, ::-1]
    to_center = np.array([[1, 0, -n / 2], [0, 1, -n / 2], [0, 0, 1.0]])
    back = np.array([[1, 0, n / 2], [0, 1, n / 2], [0, 0, 1.0]])
    ends = np.array([[n / 2, 0], [n / 2, n]], float)
    best = None
    for k, (c, s) in enumerate(((1, 0), (0, 1), (-1, 0), (0, -1))):
        # Rotate face coordinates by k quarter turns about the face centre.
        turn = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])
        candidate = face_h @ back @ turn @ to_center
        top, bottom = _warp(ends, candidate)
        angle = abs(math.degrees(math.atan2(top[0] - bottom[0], bottom[1] - top[1])))
        if best is None or angle < best[0]:
            best = (angle, candidate, k)
    _, face_h, k = best
    # Cell (r, c) in the new frame is old cell rotated: match arrays with np.rot90.
    confidence = np.rot90(confidence, k)
    # Face coordinates of the cell centres, the cells' corners and the face's corners,
    # mapped at once.
    points = _face_points(n)
    image_points = _warp(points, face_h)
    centers = image_points[: n * n].reshape(n, n, 2)
    cells = image_points[n * n : 5 * n * n].reshape(n * n, 4, 2)
    quad = image_points[5 * n * n :]
    return FaceDetection(
        n, quad, face_h, centers, cells, np.ascontiguousarray(confidence, dtype=float).ravel()
    )


@lru_cache(maxsize=8)
def _face_points(n: int) -> np.ndarray:
    """Cell centres (row-major), each cell's corners and the face's corners, face coords."""
    rows, cols = np.divmod(np.arange(n * n), n)
    cell = np.stack([cols, rows], -1).astype(float)
    corners = _UNIT_SQUARE.astype(float)
    points = np.vstack([cell + 0.5, (cell[:, None] + corners).reshape(-1, 2), corners * n])
    points.flags.writeable = False  # shared between calls
    return points
