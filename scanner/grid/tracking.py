"""Step 5, tracking: the previous frame's face followed to the stickers
where its grid predicts them, else a crop around it searched.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from cubescan.scanner.grid._tracking_kernels import _sticker_matches
from cubescan.scanner.grid.cells import cell_statistics, three_of_four_hold
from cubescan.scanner.grid.continuation import grid_continues
from cubescan.scanner.grid.face import (
    FaceDetection,
    _cell_confidence,
    _to_frame,
    cell_width,
    make_detection,
)
from cubescan.scanner.grid.geometry import (
    _cell_middles,
    _face_of_lattice,
    _lattice_of_face,
    exact_fit,
)
from cubescan.scanner.grid.params import (
    FOLLOW_MAX_UNSEEN,
    FOLLOW_REACH,
    FOLLOW_TOLERANCE,
    MAX_LATTICE_ASPECT,
    MAX_NEIGHBOUR_AREA_RATIO,
    MAX_STICKER_SPREAD,
    MIN_FLAT_SHARE,
    TRACK_2X2_STICKER_PX,
    TRACK_STICKER_PX,
)
from cubescan.scanner.grid.regions import Regions, find_regions, working_lab
from cubescan.scanner.grid.rejection import not_a_face
from cubescan.scanner.grid.search import _pass_at, detect_scaled


def track(bgr: np.ndarray, size: int, previous: FaceDetection) -> FaceDetection | None:
    """Follow the previous face (:func:`_follow`), else search a crop around it (a face
    found there must pass :func:`not_a_face`), in the crop at a scale giving ~16 px
    stickers (64 px for a 2x2).

    Parameters
    ----------
    bgr
        The BGR frame.
    size
        N.
    previous
        The face in the previous frame.

    Returns
    -------
    FaceDetection or None
        The face near where it was, or None (then the whole frame is searched).

    Examples
    --------
    >>> from cubescan.scanner.grid import detect_grid
    >>> from cubescan.synth.scenes import square_stickers_frame
    >>> frame = square_stickers_frame()
    >>> face = detect_grid(frame)
    >>> moved = np.roll(frame, 6, axis=1)
    >>> followed = track(moved, 3, face)
    >>> (np.round(followed.centers[0, 0] - face.centers[0, 0]) + 0.0).tolist()
    [6.0, 0.0]
    """
    height, width = bgr.shape[:2]
    x0, y0 = previous.quad.min(axis=0)
    x1, y1 = previous.quad.max(axis=0)
    pad = 0.35 * max(x1 - x0, y1 - y0)
    left, top = int(max(0, x0 - pad)), int(max(0, y0 - pad))
    right, bottom = int(min(width, x1 + pad)), int(min(height, y1 + pad))
    if right - left < 16 or bottom - top < 16:
        return None
    sticker_px = TRACK_2X2_STICKER_PX if previous.size == 2 else TRACK_STICKER_PX
    scale = min(1.0, sticker_px / max(cell_width(previous.centers), 1.0))
    if scale <= 0.5:
        # Shrunk by a whole factor, from a crop of whole blocks, area averaging is the mean
        # of each block (see shrunk): a third of the time of OpenCV's general averaging at
        # 1920x1080 (stickers of 16 px or a little more).
        factor = int(1 / scale)
        scale = 1.0 / factor
        right = left + max(1, (right - left) // factor) * factor
        bottom = top + max(1, (bottom - top) // factor) * factor
    crop = bgr[top:bottom, left:right]
    lab = working_lab(crop, scale)
    offset = (float(left), float(top))
    regions = find_regions(lab)
    if size == previous.size:
        followed = _follow(previous, lab, regions, _to_frame(lab.shape, crop.shape, offset))
        if followed is not None:
            return followed
    found = detect_scaled(crop, scale, size, offset, 1, prepared=_pass_at(lab, regions))
    # Found afresh in the crop, the face is judged as one found cold: after the cube left
    # the view, a board or keyboard keys where it was would be taken for it.
    return found[0] if found and not not_a_face(bgr, found[0]) else None


def _follow(
    previous: FaceDetection,
    lab: np.ndarray,
    regions: Regions,
    to_frame: np.ndarray,
    max_aspect: float = MAX_LATTICE_ASPECT,
    placed: bool = False,
    far_sides: tuple[int, ...] = (),
) -> FaceDetection | None:
    """The previous frame's face, refitted to the stickers found where its grid predicts
    them: the tracking path's first look, which needs no lattice to be linked and searched.

    Each cell takes the sticker-sized, square region nearest its predicted middle within
    ``FOLLOW_REACH`` of a pitch; the grid is refitted to them, and again to those within
    ``FOLLOW_TOLERANCE`` of that grid. All cells but ``FOLLOW_MAX_UNSEEN`` (but one of a
    2x2's, whose three must hold as a face's: :func:`three_of_four_hold`) must hold a
    sticker, its cells be flat as a face's are, and its grid not continue as a
    board's does. Nor may a row of stickers (all but one of it; all of a 2x2's) lie along
    one of its sides, in the ring of cells around it: a face that moved a whole
    pitch since the last frame would be followed one row off, onto all but one row of its
    stickers and whatever lies past its side (a coloured disc of a sticker's size takes the
    place of one of them), with its own last row beside that grid. None otherwise: the
    caller then searches the crop. ``lab`` and ``regions`` are the crop's working image and
    its regions, ``to_frame`` maps the working image into the frame. A region is a sticker
    when it is square within ``max_aspect`` in the grid. A face ``placed`` by the cube's
    geometry (beside a face found) rather than seen last frame may show stickers in half
    its cells only (four at least), when every cell without one is flat: two stickers of
    one colour side by side merge into one region, and so does a sticker at the cube's
    outline with a background of its colour. Such a face's ``far_sides`` (of the ring's:
    0 above, 1 below, 2 left, 3 right), away from the faces it was placed by, are not held
    against it: past them lies the background, whose texture can show sticker-sized spots in
    a row, and a fit one row off towards them leaves its near row in the ring on the near side.
    """
    n = previous.size
    lattice_h = _lattice_of_face(np.linalg.inv(to_frame) @ previous.homography)
    coords = _cells_and_ring(n)
    cells = coords[: n * n]
    fitted_to = None
    followed_unseen = FOLLOW_MAX_UNSEEN if n >= 3 else 1
    max_unseen = followed_unseen
    if placed:
        max_unseen = max(followed_unseen, n * n - max(4, (n * n + 1) // 2))
    for reach in (FOLLOW_REACH, FOLLOW_TOLERANCE):
        seen, nearest = _stickers_at_cells(lattice_h, coords, regions, reach, max_aspect)
        stickers = np.where(seen[: n * n], nearest[: n * n], -1)  # each cell's, -1 for none
        if (stickers < 0).sum() > max_unseen:
            return None
        if fitted_to is not None and (stickers == fitted_to).all():
            break  # the same stickers: the same fit
        fitted_to, shown = stickers, stickers >= 0
        lattice_h = exact_fit(cells[shown], regions.centers[stickers[shown]])
        if lattice_h is None:
            return None
    ring = seen[n * n :].reshape(4, n).sum(axis=1)
    ring[list(far_sides)] = 0
    if (ring >= max(2, n - 1)).any():
        return None  # a row of stickers past a side: one row off
    face_h = _face_of_lattice(lattice_h)
    support = (stickers >= 0).reshape(n, n)
    if n == 2 and not support.all() and not three_of_four_hold(face_h, support, lab):
        return None
    statistics = cell_statistics(face_h, n, lab)
    flat = ((statistics.spread < MAX_STICKER_SPREAD) | statistics.glared).reshape(n, n)
    many_unseen = (~support).sum() > followed_unseen  # (placed faces only)
    if flat.mean() < MIN_FLAT_SHARE or (many_unseen and not flat[~support].all()):
        return None
    if grid_continues(lattice_h, n, regions, lab, colors=statistics.color):
        return None  # as a board's tiles do: judged as for a face found cold
    confidence = _cell_confidence(support, statistics.spread)
    return make_detection(to_frame @ face_h, n, confidence)


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
    lattice_h: np.ndarray,
    coords: np.ndarray,
    regions: Regions,
    reach: float,
    max_aspect: float = MAX_LATTICE_ASPECT,
) -> tuple[np.ndarray, np.ndarray]:
    """Which lattice cells (``coords``) have a region within ``reach`` pitches of their
    middle that is square in the lattice (within ``max_aspect``) and of a sticker's size
    there (a share of its cell's area within ``MAX_NEIGHBOUR_AREA_RATIO`` of the median
    share), each region in one cell at most (the first in ``coords``' order): the mask, and
    each cell's nearest region."""
    if len(regions.areas) == 0:
        return np.zeros(len(coords), bool), np.zeros(len(coords), np.int64)
    return _sticker_matches(
        lattice_h,
        np.asarray(coords, np.float64),
        regions.centers,
        regions.whiten,
        regions.areas,
        reach,
        max_aspect,
        MAX_NEIGHBOUR_AREA_RATIO,
    )
