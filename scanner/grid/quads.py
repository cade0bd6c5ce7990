"""The second cue: sticker quads from several binarisations, fitted to a
lattice by RANSAC.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from cubescan.scanner.grid._kernels import _least_squares_homography
from cubescan.scanner.grid._quads_kernels import _suppressed
from cubescan.scanner.grid.cells import cell_statistics
from cubescan.scanner.grid.face import FaceDetection
from cubescan.scanner.grid.framing import _plausible_quad
from cubescan.scanner.grid.geometry import _in_frame, _invertible, _lattice_aspect, warp_points
from cubescan.scanner.grid.params import (
    _MAX_AREA_FRACTION,
    _MIN_OCCUPANCY,
    _MIN_SIDE_FRACTION,
    _PITCH_RANGE,
    MAX_LATTICE_ASPECT,
    WORK_SIDE,
)
from cubescan.scanner.grid.plastic import shows_plastic
from cubescan.scanner.grid.regions import whitening
from cubescan.scanner.grid.rejection import not_a_face


@dataclass(frozen=True)
class StickerCandidate:
    """One sticker outline of the quad cue (:func:`sticker_candidates`)."""

    center: np.ndarray
    side: float
    rectangularity: float
    whiten: np.ndarray  # (2, 2): the outline's own unit-square frame (see whitening)


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


def sticker_candidates(small: np.ndarray) -> list[StickerCandidate]:
    """Sticker outlines in an image: the four-cornered or nearly rectangular shapes of a
    sticker's size in its binarisations, one per place (the most rectangular).

    Parameters
    ----------
    small
        BGR image at the quad cue's working scale.

    Returns
    -------
    list of StickerCandidate
        Each outline's centre, side, rectangularity and own unit-square frame.

    Examples
    --------
    >>> from cubescan.synth.scenes import square_stickers_frame
    >>> frame = square_stickers_frame()
    >>> len(sticker_candidates(frame))
    9
    """
    long_side = max(small.shape[:2])
    min_area = (long_side * _MIN_SIDE_FRACTION) ** 2
    max_area = small.shape[0] * small.shape[1] * _MAX_AREA_FRACTION
    found: list[StickerCandidate] = []
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
            whiten = whitening(cov[None] / moments["m00"], np.array([area]))[0]
            found.append(
                StickerCandidate(np.array([cx, cy]), float(np.sqrt(area)), rectangularity, whiten)
            )
    return _suppress(found)


def _suppress(candidates: list[StickerCandidate]) -> list[StickerCandidate]:
    """One candidate per sticker: the most rectangular among those at one place."""
    if not candidates:
        return []
    order = sorted(range(len(candidates)), key=lambda i: -candidates[i].rectangularity)
    centers = np.array([c.center for c in candidates])
    sides = np.array([c.side for c in candidates])
    # Those within 0.4 of the smaller side of the two are the same sticker.
    return [candidates[i] for i in _suppressed(np.array(order), centers, sides).tolist()]


@dataclass(frozen=True)
class CandidateLattice:
    """A lattice the quad cue fits through sticker outlines (:func:`candidate_lattices`)."""

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
    return CandidateLattice(homography, coords[inliers].astype(int), inliers, score, square)


def candidate_lattices(candidates: list[StickerCandidate]) -> list[CandidateLattice]:
    """Distinct lattice hypotheses of square cells, the ones explaining most candidates first.

    Parameters
    ----------
    candidates
        Sticker outlines (:func:`sticker_candidates`).

    Returns
    -------
    list of CandidateLattice
        Each lattice's homography, inliers' coordinates and indices, score and whether they
        are square in its units.

    Examples
    --------
    >>> from cubescan.synth.scenes import square_stickers_frame
    >>> frame = square_stickers_frame()
    >>> best = candidate_lattices(sticker_candidates(frame))[0]
    >>> len(best.inliers), best.square
    (9, True)
    """
    if len(candidates) < 4:
        return []
    centers = np.array([c.center for c in candidates])
    sides = np.array([c.side for c in candidates])
    whiten = np.array([c.whiten for c in candidates])
    found: dict[frozenset, CandidateLattice] = {}
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


def _square_grid(
    lattice: CandidateLattice, size: int | None
) -> tuple[int, np.ndarray, np.ndarray] | None:
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


def _continues(lattice: CandidateLattice, origin: np.ndarray, n: int) -> bool:
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


def _quad_face(image: np.ndarray, size: int | None) -> FaceDetection | None:
    """The second cue: sticker quads from several binarisations, fitted to a lattice."""
    scale = min(1.0, WORK_SIDE / max(image.shape[:2]))
    small = (
        image
        if scale == 1.0
        else cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    )
    for lattice in candidate_lattices(sticker_candidates(small)):
        square = _square_grid(lattice, size)
        if square is not None and not _continues(lattice, square[1], square[0]):
            detection = _located(lattice, *square, scale)
            if _cube_like(
                small, np.diag([scale, scale, 1.0]) @ detection.homography, square[0]
            ) and not not_a_face(image, detection):
                return detection
    return None


def _cube_like(small: np.ndarray, face_h: np.ndarray, n: int) -> bool:
    """The region-lattice cue's colour and framing checks, for the quad cue's grids."""
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2Lab)
    quad = warp_points(np.array([[0, 0], [n, 0], [n, n], [0, n]], float), face_h)
    if not _plausible_quad(quad, lab.shape):
        return False
    cell_stats = cell_statistics(face_h, n, lab)
    if shows_plastic(cell_stats):
        return False
    ring = [(c + 0.5, r + 0.5) for r in range(-1, n + 1) for c in range(-1, n + 1)]
    ring = np.array([p for p in ring if min(p) < 0 or max(p) > n], float)
    return bool(_in_frame(warp_points(ring, face_h), lab.shape).mean() >= 0.3)


def _located(
    lattice: CandidateLattice, n: int, origin: np.ndarray, occupied: np.ndarray, scale: float
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
