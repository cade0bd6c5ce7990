"""Step 4, the search over scales: the region cue at the working, fine and
coarse scales, the crossings, then slack, faint and denoised looks, and a thorough search.
"""

from __future__ import annotations

from itertools import chain
from typing import NamedTuple

import cv2
import numpy as np

from cubescan.scanner.grid.continuation import _not_continued
from cubescan.scanner.grid.crossings import _crossing_faces
from cubescan.scanner.grid.face import (
    FaceDetection,
    _three_seen_of_four,
    _to_frame,
    cell_width,
    make_detection,
    seen_cells,
)
from cubescan.scanner.grid.geometry import (
    _cell_areas,
    _cell_middles,
    _lattice_of_face,
    _overlap,
    _pitch,
    _polygon_area,
    warp_points,
)
from cubescan.scanner.grid.lattice import _fit_face, _link_lattices
from cubescan.scanner.grid.params import (
    COARSE_MAX_UNSEEN,
    COARSE_MAX_UNSEEN_2X2,
    FAINT_DENOISE,
    FAINT_EDGE_THRESHOLDS,
    FLAT_CELL_CONFIDENCE,
    MAX_BLOCK_STICKERS,
    MIN_DENOISED_SIZE,
    MIN_SEAM_SHARE,
    REGION_COARSE_SIDE,
    REGION_FINE_SIDE,
    REGION_WORK_SIDE,
    SMALL_STICKER_PITCH,
    THOROUGH_SIDES,
)
from cubescan.scanner.grid.regions import (
    Regions,
    _regions_at,
    _with_block_stickers,
    find_regions,
    working_lab,
)
from cubescan.scanner.grid.rejection import not_a_face, seam_share


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
    passes += [(scale, True) for scale in region_scales(long_side)]
    for scale, split in passes:
        found = detect_scaled(image, scale, size, (0.0, 0.0), 1, split_blocks=split)
        if split:
            found = [face for face in found if (face.confidence >= FLAT_CELL_CONFIDENCE).all()]
        if found and not not_a_face(image, found[0]):
            return found[0]
    return None


def _lattice_faces(
    image: np.ndarray, size: int | None, max_faces: int
) -> tuple[list[FaceDetection], dict[float, _Pass]]:
    """The region-lattice cue at a coarse, then (for large frames) a finer scale; when
    neither found a face, at a coarser scale still; last, the crossings cue. Returns the
    faces found and each :class:`_Pass` (by scale, the first first)."""
    long_side = max(image.shape[:2])
    scales = region_scales(long_side)
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
    # The finer pass, for small stickers, smooths it (see working_lab).
    first_lab = working_lab(image, first, sharp_chroma=True)
    first_regions = find_regions(first_lab)
    prepared = {first: _pass_at(first_lab, first_regions)}
    for scale in scales:
        if scale not in prepared:
            prepared[scale] = _pass_at(working_lab(image, scale))
        found = detect_scaled(image, scale, size, (0.0, 0.0), max_faces, prepared=prepared[scale])
        if scale != first:
            found = _not_continued(image, found, first_lab, first_regions)
        if found and not all(_three_seen_of_four(face) for face in found):
            if deferred:
                return (found if _sees_more_of(found[0], deferred[0]) else deferred), prepared
            face = found[0]
            small = cell_width(face.centers) * scale < SMALL_STICKER_PITCH
            partial = seen_cells(face) < face.size**2
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
        prepared[coarse] = _pass_at(working_lab(image, coarse))
        found = detect_scaled(
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
        found = detect_scaled(
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
        regions = find_regions(lab, edge_thresholds=FAINT_EDGE_THRESHOLDS)
        found = detect_scaled(
            image, scale, size, (0.0, 0.0), 1, prepared=_pass_at(lab, regions), most_cells_seen=True
        )
        found = [
            face
            for face in found
            if face.size >= smallest
            and seam_share(image, face) >= MIN_SEAM_SHARE
            and cells_with_a_region(to_first @ face.homography, face.size, first_regions)
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


def cells_with_a_region(face_h: np.ndarray, n: int, regions: Regions) -> int:
    """How many cells of the face (``face_h`` into the regions' image) have a region of about
    a sticker's size at their middle (see :func:`_regions_at`).

    Parameters
    ----------
    face_h
        Face homography into the regions' working image.
    n
        The face's size N.
    regions
        The regions found in that image.

    Returns
    -------
    int
        Cells with a region of a sticker's size at their middle.

    Examples
    --------
    >>> from cubescan.synth.scenes import square_stickers_frame
    >>> frame = square_stickers_frame()
    >>> face_h = np.array([[40.0, 0, 97], [0, 40, 57], [0, 0, 1]])
    >>> cells_with_a_region(face_h, 3, find_regions(working_lab(frame, 1.0)))
    9
    """
    lattice_h = _lattice_of_face(face_h)
    cells = _cell_middles(n) - 0.5  # in the lattice's coordinates
    _, near, of_cell_size = _regions_at(
        warp_points(cells, lattice_h), regions, _pitch(lattice_h), _cell_areas(cells, lattice_h)
    )
    return int(np.sum(near & of_cell_size))


def _sees_more_of(face: FaceDetection, earlier: FaceDetection) -> bool:
    """True when ``face`` lies over ``earlier`` and shows more of its stickers."""
    return _overlap(face.quad, earlier.quad) and seen_cells(face) > seen_cells(earlier)


def region_scales(long_side: int) -> list[float]:
    """The region cue's first and (when it differs) fine scale for a frame's long side.

    Parameters
    ----------
    long_side
        The frame's long side in pixels.

    Returns
    -------
    list of float
        The scales, the first first.

    Examples
    --------
    >>> region_scales(640), region_scales(1920)
    ([0.5, 1.0], [0.16666666666666666, 0.4166666666666667])
    """
    # Frames up to half the fine pass's size are enlarged for the second: edges eat a
    # pixel or two of every region, which is most of a sticker a dozen pixels wide.
    fine = REGION_FINE_SIDE / long_side
    fine = min(2.0, fine) if long_side <= REGION_FINE_SIDE / 2 else min(1.0, fine)
    return list(dict.fromkeys([min(1.0, REGION_WORK_SIDE / long_side), fine]))


class _Pass(NamedTuple):
    """One scale of the region cue: its working image, the regions found in it, and the
    lattices linked over them (kept so that a later round over the pass links none again)."""

    lab: np.ndarray
    regions: Regions
    lattices: list[tuple[np.ndarray, np.ndarray]]


def _pass_at(lab: np.ndarray, regions: Regions | None = None) -> _Pass:
    """The :class:`_Pass` over a working image (its regions found here when not given)."""
    regions = find_regions(lab) if regions is None else regions
    return _Pass(lab, regions, _link_lattices(regions) if len(regions.areas) >= 2 * 2 else [])


def detect_scaled(
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
    a small region's slack (see :func:`_fit_flat_face`).

    Parameters
    ----------
    bgr
        The BGR frame.
    scale
        Factor to the pass's working image.
    size
        N when known, else None.
    offset
        Added to the faces' pixels (the crop's corner in the frame, when ``bgr`` is one).
    max_faces
        How many faces to return at most.
    split_blocks, most_cells_seen, prepared, slack
        See above.

    Returns
    -------
    list of FaceDetection
        The faces found, best first (none passed the last "not a face" tests yet).

    Examples
    --------
    >>> from cubescan.scanner.grid import detect_grid
    >>> from cubescan.synth.scenes import square_stickers_frame
    >>> frame = square_stickers_frame()
    >>> [face.size for face in detect_scaled(frame, 1.0, None, (0.0, 0.0), 1)]
    [3]
    """
    height, width = bgr.shape[:2]
    if prepared is None:
        # Merged blocks are cut into stickers by their outlines' length: keep them sharp.
        lab = working_lab(bgr, scale, sharp_chroma=split_blocks)
        if split_blocks:
            prepared = _pass_at(
                lab, _with_block_stickers(find_regions(lab, MAX_BLOCK_STICKERS + 0.5))
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
        quad = warp_points(np.array([[0, 0], [n, 0], [n, n], [0, n]], float), homography)
        if any(_overlap(quad, other) for other in taken):
            continue
        taken.append(quad)
        results.append(make_detection(to_full @ homography, n, confidence))
        if len(results) == max_faces:
            break
    return results


def _shown_first(candidate) -> float:
    """Sort key: better faces first, and of two faces of one cube the one seen flatter.

    A cube's faces are the same size, so the one turned towards the camera is the larger
    in the image (by the cosine of its tilt); its score is weighed by that.
    """
    score, homography, n = candidate[:3]
    quad = warp_points(np.array([[0, 0], [n, 0], [n, n], [0, n]], float), homography)
    return -score * np.sqrt(abs(_polygon_area(quad)))
