"""The peer the detection issue measures ``detect_grid`` against: a contour-based 3x3 scanner.

This is the method of the popular open-source webcam scanner the issue describes ("finds
stickers only when they are 30-60 px wide", kkoomen/qbr), written here from its published
steps so that both run on the same frames and the same machine:

1. grey image, 5x5 box blur, Canny edges (30, 60), dilated by a 9x9 square;
2. every contour (the whole tree: inner and outer ones) whose polygon approximation
   (tolerance 10% of its perimeter) has four corners and whose bounding box is 30-60 px
   wide, 0.8-1.2 as wide as high and at least 40% filled is a sticker;
3. a sticker with fewer than five stickers (itself included) within 3.5 of its width and
   height is dropped;
4. nine or more left: the first nine are the face, sorted into three rows by height and
   each row by x.

It reads 3x3 cubes only, needs dark gaps between the stickers (the edges must close around
each one) and nests inner and outer contours of one sticker. The peer's own code removes
stickers from the list it is looping over, which skips some; here every sticker is judged.

Example: ``python benchmarks/bench_detect.py`` prints its speed and finds beside ours.
"""

from __future__ import annotations

import cv2
import numpy as np

MIN_STICKER_PX, MAX_STICKER_PX = 30, 60  # the peer's bounding-box width window
MIN_NEIGHBOURS = 5  # stickers (itself included) within NEIGHBOUR_REACH of its size
NEIGHBOUR_REACH = 3.5


def contour_squares(frame: np.ndarray) -> np.ndarray:
    """The peer's sticker boxes (x, y, w, h), in its contours' order, before the neighbour
    filter.

    Parameters
    ----------
    frame
        BGR image.

    Returns
    -------
    np.ndarray
        (K, 4) int boxes.

    Examples
    --------
    >>> contour_squares(np.zeros((120, 160, 3), np.uint8)).shape
    (0, 4)
    """
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(cv2.blur(grey, (5, 5)), 30, 60, apertureSize=3)
    dilated = cv2.dilate(edges, cv2.getStructuringElement(cv2.MORPH_RECT, (9, 9)))
    contours, _ = cv2.findContours(dilated, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)
    boxes = []
    for contour in contours:
        corners = cv2.approxPolyDP(contour, 0.1 * cv2.arcLength(contour, True), True)
        if len(corners) != 4:
            continue
        x, y, w, h = cv2.boundingRect(corners)
        if (
            0.8 <= w / h <= 1.2
            and MIN_STICKER_PX <= w <= MAX_STICKER_PX
            and cv2.contourArea(contour) / (w * h) > 0.4
        ):
            boxes.append((x, y, w, h))
    return np.array(boxes, int).reshape(-1, 4)


def contour_face(frame: np.ndarray) -> np.ndarray | None:
    """The peer's 3x3 face: its nine sticker centres in rows, or None when it sees no face.

    Parameters
    ----------
    frame
        BGR image.

    Returns
    -------
    np.ndarray or None
        (3, 3, 2) centres (x, y) in pixels, rows from the top, each row from the left.

    Examples
    --------
    >>> contour_face(np.zeros((120, 160, 3), np.uint8)) is None
    True
    """
    boxes = contour_squares(frame)
    if len(boxes) == 0:
        return None
    x, y, w, h = boxes.T
    near = (np.abs(x[:, None] - x[None]) < NEIGHBOUR_REACH * w[:, None]) & (
        np.abs(y[:, None] - y[None]) < NEIGHBOUR_REACH * h[:, None]
    )
    kept = boxes[near.sum(axis=1) >= MIN_NEIGHBOURS]
    if len(kept) < 9:
        return None
    centers = kept[:9, :2] + kept[:9, 2:] / 2
    by_height = centers[np.argsort(centers[:, 1], kind="stable")].reshape(3, 3, 2)
    order = np.argsort(by_height[:, :, 0], axis=1, kind="stable")
    return np.take_along_axis(by_height, order[:, :, None], axis=1)


def same_stickers(found: np.ndarray, truth: np.ndarray, tolerance: float) -> bool:
    """True when every true sticker centre has its own found centre within ``tolerance``
    of a sticker pitch, in any order (the peer's rows are by height, not along the face).

    Parameters
    ----------
    found, truth
        (K, 2) centres, or any shape ending in 2.
    tolerance
        Largest distance allowed, in pitches (the median distance between true neighbours
        is taken as the pitch when ``truth`` is (N, N, 2)).

    Returns
    -------
    bool

    Examples
    --------
    >>> grid = np.stack(np.meshgrid([0.0, 10], [0.0, 10]), axis=-1)
    >>> same_stickers(grid[::-1].reshape(-1, 2), grid, 0.25)
    True
    """
    truth = np.asarray(truth, float)
    pitch = float(np.median(np.linalg.norm(np.diff(truth, axis=1), axis=-1)))
    found, truth = np.asarray(found, float).reshape(-1, 2), truth.reshape(-1, 2)
    if len(found) != len(truth):
        return False
    distance = np.linalg.norm(truth[:, None] - found[None], axis=2)
    nearest = distance.argmin(axis=1)
    close = (distance.min(axis=1) < tolerance * pitch).all()
    return bool(close and len(set(nearest.tolist())) == len(truth))
