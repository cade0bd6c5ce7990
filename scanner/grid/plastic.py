""" "Not a face" tests on the cube's body: cells that show grey plastic
rather than a sticker, and a grid of one colour whose keys show the body between them
(a keyboard).
"""

from __future__ import annotations

import numpy as np

from cubescan.scanner.grid.cells import (
    CellStatistics,
    _across_borders,
    _lightness_and_chroma,
    _rectified,
    _sample,
    _seam_between,
)
from cubescan.scanner.grid.geometry import warp_points
from cubescan.scanner.grid.params import (
    BODY_CONTRAST,
    CLIPPED_LIGHTNESS,
    LIGHT_BODY,
    MAX_STICKER_SPREAD,
    ONE_COLOR_SHARE,
    PLASTIC_CHROMA,
    PLASTIC_LIGHTNESS,
    RING_SAME_COLOR,
    WHOLE_STICKER_SHARE,
)


def on_the_plastic(
    face_h: np.ndarray, n: int, lab: np.ndarray, cells: CellStatistics, support: np.ndarray
) -> bool:
    """:func:`shows_plastic`, where a cell with a sticker seen is not the plastic when it is
    ``BODY_CONTRAST`` times lighter than the face's seams (the black body showing between
    its stickers): under a warm lamp a blue sticker turns as dark and grey as the plastic,
    but stays far lighter than it. A window on the plastic has no sticker seen there.

    On a white body such a sticker is as many times darker than the seams, and is taken
    for one too where the seams are at least ``LIGHT_BODY`` times the lightest cell's
    lightness: white plastic, about as light as the white or yellow sticker (0.75-0.90 on
    the white-bodied photos). Dark tiles between grout, or a board's dark squares, are as
    much darker than their seams, but those seams are a mid tone, well below the lightest
    tile (0.47-0.63 in the no-cube scenes that showed it).

    Parameters
    ----------
    face_h
        Face homography of the window into ``lab``.
    n
        The window's size N.
    lab
        The working image, 8-bit Lab.
    cells
        :func:`~cubescan.scanner.grid.cells.cell_statistics` of the window.
    support
        Which of its cells (n, n) show a sticker.

    Returns
    -------
    bool
        Whether the window shows the plastic.

    Examples
    --------
    >>> import cv2
    >>> from cubescan.scanner.grid import detect_grid
    >>> from cubescan.synth.scenes import square_stickers_frame
    >>> frame = square_stickers_frame()
    >>> face = detect_grid(frame)
    >>> lab = cv2.cvtColor(frame, cv2.COLOR_BGR2Lab)
    >>> face_h = np.array([[40.0, 0, 97], [0, 40, 57], [0, 0, 1]])  # the face's cells, 40 px
    >>> from cubescan.scanner.grid.cells import cell_statistics
    >>> on_the_plastic(face_h, 3, lab, cell_statistics(face_h, 3, lab), np.ones((3, 3), bool))
    False
    >>> off_face = face_h @ np.array([[1.0, 0, -1], [0, 1, 0], [0, 0, 1]])  # a column on the body
    >>> on_the_plastic(off_face, 3, lab, cell_statistics(off_face, 3, lab), np.ones((3, 3), bool))
    True
    """
    if not shows_plastic(cells):
        return False
    seams = _seam_lightness(face_h, n, lab)
    stickers = support & (cells.lightness > BODY_CONTRAST * seams)
    if seams >= LIGHT_BODY * cells.lightness.max():
        stickers |= support & (BODY_CONTRAST * cells.lightness < seams)
    return shows_plastic(cells, stickers)


def _seam_lightness(face_h: np.ndarray, n: int, lab: np.ndarray) -> float:
    """The median lightness over the middles of the grid's inner cell borders (a tenth of a
    cell either side): the body, on a stickered cube; a blend of the two cells, where the
    seam is thin."""
    points = _across_borders(n, np.linspace(-0.1, 0.1, 5), np.array([0.5])).reshape(-1, 2)
    lightness = _sample(np.ascontiguousarray(lab[..., 0]), warp_points(points, face_h))
    return float(np.median(lightness))


def shows_plastic(cells: CellStatistics, stickers: np.ndarray | None = None) -> bool:
    """True when more than one cell in eight is dark and grey: the grid sits on the plastic.

    Only near-grey counts: a blue or green sticker in dim light is dark too, but keeps
    some chroma, while black plastic stays grey under any colour cast. Dark is measured
    against the lightest flat cell: a glare spot over a whole sticker, lighter than any
    sticker, would make a white sticker in dim light look dark, so the lightest is passed
    over when it is under glare or clipped to white with a tint (a light makes one spot;
    grey cells, with no colour to wash out, may all count as glared). Cells in the mask
    ``stickers`` (N, N), when given, are not counted (see :func:`on_the_plastic`).

    Parameters
    ----------
    cells
        :func:`~cubescan.scanner.grid.cells.cell_statistics` of a window.
    stickers
        Which cells show a sticker ``BODY_CONTRAST`` times lighter than the seams (never the
        plastic); None when not known.

    Returns
    -------
    bool
        Whether the window shows the plastic.

    Examples
    --------
    >>> from cubescan.scanner.grid.cells import CellStatistics
    >>> lightness = np.array([[200.0, 190, 30], [180, 170, 160], [150, 140, 130]])
    >>> chroma = np.array([[40.0, 50, 2], [45, 50, 55], [60, 40, 50]])
    >>> still = np.zeros((3, 3))
    >>> cells = CellStatistics(lightness, chroma, still, still > 0, np.zeros((3, 3, 3)))
    >>> shows_plastic(cells)  # one dark grey cell in nine
    False
    >>> lightness[2, 2], chroma[2, 2] = 35.0, 3.0
    >>> shows_plastic(cells._replace(lightness=lightness, chroma=chroma))
    True
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


def keys_with_gaps(
    face_h: np.ndarray,
    n: int,
    lab: np.ndarray,
    cell_stats: CellStatistics,
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
    ``cell_stats`` is :func:`cell_statistics`' for the window.

    Parameters
    ----------
    face_h
        Face homography of the window into ``lab``.
    n
        The window's size N.
    lab
        The working image, 8-bit Lab.
    cell_stats
        :func:`~cubescan.scanner.grid.cells.cell_statistics` of the window.
    support
        Which of its cells (n, n) show a sticker.

    Returns
    -------
    bool
        Whether the window is keys (or tiles) of one colour with holes between.

    Examples
    --------
    >>> import cv2
    >>> from cubescan.scanner.grid import detect_grid
    >>> from cubescan.synth.scenes import square_stickers_frame
    >>> frame = square_stickers_frame()
    >>> face = detect_grid(frame)
    >>> lab = cv2.cvtColor(frame, cv2.COLOR_BGR2Lab)
    >>> face_h = np.array([[40.0, 0, 97], [0, 40, 57], [0, 0, 1]])  # the face's cells, 40 px
    >>> from cubescan.scanner.grid.cells import cell_statistics
    >>> keys_with_gaps(face_h, 3, lab, cell_statistics(face_h, 3, lab), np.ones((3, 3), bool))
    False
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


def _dark_below(cells: CellStatistics) -> float:
    """The lightness below which a cell is dark: a hole, or the plastic."""
    return PLASTIC_LIGHTNESS * float(cells.lightness.max())


def _light_cells_of_the_main_color(
    cells: CellStatistics, dark: np.ndarray, seen: np.ndarray | None = None
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
