"""Find a cube face's N x N sticker grid in a frame, at any size, angle and tilt.

1. The frame is scaled so its long side is at most :data:`WORK_SIDE` pixels (detection
   does not need more; the result is scaled back).
2. Sticker candidates: convex, nearly rectangular regions found in several binary
   images (bright-on-dark adaptive threshold, saturation, and the regions enclosed by
   edges, which also separates the stickers of a stickerless cube along its seams).
   No fixed sticker size: anything from about 1/60 to 1/3 of the frame qualifies.
3. A lattice: for candidate pairs of similar size at a plausible pitch, the two pitch
   vectors give every candidate lattice coordinates; the hypothesis that explains
   most candidates wins (RANSAC), and a homography from lattice to image is fitted to
   its inliers (perspective tilt is just a homography).
4. The cube's own consistency: the occupied lattice cells must form an N x N square
   (2 <= N <= 7) with most cells found, and the lattice must *not* continue past the
   square's border (tiles, keyboards and chessboards do).
5. Rows are ordered from the face's top as seen in the image (the grid is turned by
   the quarter turn that keeps "up" within 45 degrees of the image's up).

Examples
--------
>>> frame = np.full((240, 320, 3), 20, np.uint8)
>>> for r in range(3):
...     for c in range(3):
...         _ = cv2.rectangle(frame, (100 + 40 * c, 60 + 40 * r), (134 + 40 * c, 94 + 40 * r),
...                           (40 * r + 60, 200, 40 * c + 60), -1)
>>> detection = detect_grid(frame)
>>> detection.size, np.round(detection.centres[0, 0]).tolist()
(3, [117.0, 77.0])
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from solver.errors import BadInputError

WORK_SIDE = 640
"""Long side, in pixels, of the image the detector works on."""

_MIN_SIDE_FRACTION = 1 / 70  # smallest sticker side, as a fraction of the long side
_MAX_AREA_FRACTION = 1 / 9  # largest sticker area, as a fraction of the frame
_PITCH_RANGE = (1.0, 1.7)  # sticker pitch / sticker side (gaps from none to wide)
_MIN_OCCUPANCY = 0.7  # share of the N x N cells where a sticker must be seen


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
    centres: np.ndarray
    cells: np.ndarray
    confidence: np.ndarray


@dataclass(frozen=True)
class _Candidate:
    centre: np.ndarray
    side: float
    rectangularity: float


def as_bgr(frame: object) -> np.ndarray:
    """A frame as an 8-bit 3-channel BGR image: grayscale and BGRA are converted.

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
            found.append(_Candidate(np.array([cx, cy]), float(np.sqrt(area)), rectangularity))
    return _suppress(found)


def _suppress(candidates: list[_Candidate]) -> list[_Candidate]:
    """One candidate per sticker: the most rectangular among those at one place."""
    kept: list[_Candidate] = []
    for cand in sorted(candidates, key=lambda c: -c.rectangularity):
        if all(np.linalg.norm(cand.centre - k.centre) > 0.4 * min(cand.side, k.side) for k in kept):
            kept.append(cand)
    return kept


@dataclass(frozen=True)
class _Lattice:
    homography: np.ndarray  # lattice (column, row) -> image
    coords: np.ndarray  # integer lattice coordinates of the inlier candidates
    inliers: np.ndarray  # indices of the inlier candidates
    score: float


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


def _fit_lattice(centres: np.ndarray, sides: np.ndarray, seed: int, a: int, b: int):
    """Hypothesis from a seed and two neighbours; refined to a homography over its inliers."""
    u, v = _reduced(centres[a] - centres[seed], centres[b] - centres[seed])
    basis = np.stack([u, v], axis=1)
    if min(u @ u, v @ v) < 1.0 or abs(np.linalg.det(basis)) < 0.5 * np.sqrt((u @ u) * (v @ v)):
        return None  # not two independent directions
    affine = np.eye(3)
    affine[:2, :2] = basis
    affine[:2, 2] = centres[seed]
    homography = affine
    similar = np.abs(np.log(sides / sides[seed])) < np.log(1.8)
    for _ in range(3):
        coords, error = _lattice_coords(centres, homography)
        inliers = np.flatnonzero((error < 0.22) & similar)
        if len(inliers) < 3:
            return None
        # Two stickers on one lattice cell: the lattice is wrong (too coarse).
        if len({tuple(c) for c in coords[inliers]}) < len(inliers):
            return None
        if np.linalg.matrix_rank(coords[inliers] - coords[inliers].mean(axis=0)) < 2:
            return None
        if len(inliers) >= 5:
            fitted, _ = cv2.findHomography(coords[inliers], centres[inliers], 0)
        else:
            # Too few stickers to see perspective (a 2x2 with one hidden): an affine map.
            affine_fit, _ = cv2.estimateAffine2D(coords[inliers], centres[inliers])
            fitted = None if affine_fit is None else np.vstack([affine_fit, [0, 0, 1]])
        if fitted is None:
            return None
        homography = fitted
    coords, error = _lattice_coords(centres, homography)
    inliers = np.flatnonzero((error < 0.22) & similar)
    # Stickers of one face have about the same size: drop stray small or large matches.
    typical = np.median(sides[inliers])
    inliers = inliers[np.abs(np.log(sides[inliers] / typical)) < np.log(1.45)]
    return _Lattice(
        homography, coords[inliers].astype(int), inliers, len(inliers) - error[inliers].sum()
    )


def _lattices(candidates: list[_Candidate]) -> list[_Lattice]:
    """Distinct lattice hypotheses, the ones explaining most candidates first."""
    if len(candidates) < 4:
        return []
    centres = np.array([c.centre for c in candidates])
    sides = np.array([c.side for c in candidates])
    found: dict[frozenset, _Lattice] = {}
    distances = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    for seed in np.argsort(-sides)[:60]:
        pitch = distances[seed] / sides[seed]
        near = np.flatnonzero(
            (pitch >= _PITCH_RANGE[0]) & (pitch <= _PITCH_RANGE[1])
            & (np.abs(np.log(sides / sides[seed])) < np.log(1.5))
        )  # fmt: skip
        for i, a in enumerate(near[:8]):
            for b in near[i + 1 : 8]:
                lattice = _fit_lattice(centres, sides, seed, a, b)
                if lattice is not None:
                    key = frozenset(lattice.inliers.tolist())
                    if key not in found or lattice.score > found[key].score:
                        found[key] = lattice
    return sorted(found.values(), key=lambda lattice: -lattice.score)


def _main_cluster(coords: np.ndarray) -> np.ndarray:
    """The largest group of lattice cells that touch (one missing sticker may separate)."""
    count = len(coords)
    label = np.arange(count)

    def root(i: int) -> int:
        while label[i] != i:
            label[i] = label[label[i]]
            i = label[i]
        return i

    for i in range(count):
        for j in range(i + 1, count):
            if np.abs(coords[i] - coords[j]).max() <= 2:
                label[root(i)] = root(j)
    roots = np.array([root(i) for i in range(count)])
    biggest = np.bincount(roots).argmax()
    return np.flatnonzero(roots == biggest)


def _square_grid(lattice: _Lattice, size: int | None) -> tuple[int, np.ndarray, np.ndarray] | None:
    """The N x N block of the lattice holding the stickers: (N, origin, occupied mask).

    The largest N whose best-placed window is mostly full wins, so a stray match just
    outside a face does not make it a size larger.
    """
    coords = lattice.coords[_main_cluster(lattice.coords)]
    low, high = coords.min(axis=0), coords.max(axis=0)
    largest = int((high - low + 1).max())
    sizes = [size] if size is not None else range(min(largest, 7), 1, -1)
    cells = {tuple(c) for c in coords}
    for n in sizes:
        best = None
        for ox in range(int(high[0]) - n + 1, int(low[0]) + 1):
            for oy in range(int(high[1]) - n + 1, int(low[1]) + 1):
                inside = sum((ox + x, oy + y) in cells for x in range(n) for y in range(n))
                if best is None or inside > best[0]:
                    best = (inside, np.array([ox, oy]))
        if best is not None and best[0] >= _MIN_OCCUPANCY * n * n:
            origin = best[1]
            occupied = np.zeros((n, n), bool)
            for x, y in coords - origin:
                if 0 <= x < n and 0 <= y < n:
                    occupied[y, x] = True
            return n, origin, occupied
    return None


def _continues(lattice: _Lattice, origin: np.ndarray, n: int) -> bool:
    """True when the lattice goes on just past the square: tiles or keys, not a face."""
    relative = lattice.coords - origin
    ring = ((relative >= -1) & (relative <= n)).all(axis=1) & (
        (relative < 0) | (relative >= n)
    ).any(axis=1)
    return int(ring.sum()) >= max(2, n // 2 + 1)


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


def detect_grid(frame: object, size: int | None = None) -> FaceDetection | None:
    """Find one cube face's sticker grid.

    Parameters
    ----------
    frame
        BGR image (grayscale and BGRA are accepted), any resolution.
    size
        N when known; None to detect it (2..7).

    Returns
    -------
    FaceDetection or None
        None when no cube face is in view.

    Raises
    ------
    BadInputError
        When ``frame`` is not an image, or ``size`` is out of range.
    """
    if size is not None and not 2 <= size <= 7:
        raise BadInputError("bad-size", f"cube size must be 2..7, got {size}")
    image = as_bgr(frame)
    scale = min(1.0, WORK_SIDE / max(image.shape[:2]))
    small = (
        image
        if scale == 1.0
        else cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    )
    for lattice in _lattices(_candidates(small)):
        square = _square_grid(lattice, size)
        if square is not None and not _continues(lattice, square[1], square[0]):
            return _located(lattice, *square, scale)
    return None


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
    centre_points = np.stack([xs.ravel(), ys.ravel()], axis=1)
    centres = cv2.perspectiveTransform(centre_points[None], to_image)[0].reshape(n, n, 2)
    offsets = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
    cell_points = (centre_points[:, None, :] + offsets[None]).reshape(-1, 2)
    cells = cv2.perspectiveTransform(cell_points[None], to_image)[0].reshape(n * n, 4, 2)
    quad = cv2.perspectiveTransform(np.array([[[0, 0], [n, 0], [n, n], [0, n]]], float), to_image)[
        0
    ]
    # Which original cell each upright cell is, to carry over where stickers were seen.
    relabel = np.linalg.inv(original) @ upright
    back = cv2.perspectiveTransform(centre_points[None], relabel)[0]
    rows = np.clip(np.floor(back[:, 1]).astype(int), 0, n - 1)
    cols = np.clip(np.floor(back[:, 0]).astype(int), 0, n - 1)
    confidence = np.where(occupied[rows, cols], 1.0, 0.4)
    return FaceDetection(n, quad, to_image, centres, cells, confidence)
