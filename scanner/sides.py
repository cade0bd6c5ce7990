"""The stickers of the neighbouring faces that a face photo shows beside the face.

A cube held at an angle shows, beside the photographed face, a thin strip of each face
that bends away towards the camera: the first row of that neighbour, foreshortened. Those
stickers are the partners of the face's border stickers (the other stickers of the same
edge and corner pieces), so they say how the face is turned in the cube, which its own
stickers sometimes cannot (a face whose reading, turned half way, still makes real
pieces).

1. Pose: the face's homography (grid units -> pixels) is a plane seen by a pinhole
   camera. With the principal point at the image centre and square pixels, a focal
   length fixes the plane's axes, the normal into the cube and the face's position.
   The homography alone fixes the focal length poorly (the two equations that make its
   columns orthogonal and equally long are ill-conditioned for a face seen nearly
   square on), and the strips' depth in the image depends on it; so focal lengths over
   the plausible range are tried and the one whose predicted strips look most like a
   row of stickers is kept (:func:`fitted_pose`).
2. Strips: the partner of border cell j of the top side occupies, on the neighbour
   face, the square x in [j, j+1], depth in [0, 1] behind the face's top edge (one
   sticker pitch = one grid unit). Its four corners are projected with the pose; its
   colour is read like a face sticker's, from the middle of that quadrilateral
   (:func:`cubescan.scanner.sampling.sample_cells`).
3. Confidence that the sample is a sticker of a face bending away, not background, in
   four factors:

   * geometry: the neighbour face turns towards the camera, and its sticker's middle
     (the half that is sampled) is at least a few pixels deep in the image;
   * flatness: the sampled patch is one colour (a small spread, as a sticker's is);
   * a sticker's colour: chromatic, or not much darker than the face's own light
     stickers (a white in shade), unlike the black plastic or a dark background;
   * seams in step with the cells: where the face's own cells meet (x = 1 .. N-1), the
     strip is darker than on both sides (the plastic between two stickers, which
     continues round the edge). Background or a finger beside a face has no dark lines
     exactly there. Each seam's dip below the darker of its two neighbouring stickers
     is measured along the strip; a sticker's factor is the mean over its seams.
4. Ties (:func:`weigh_alternatives`): each equally good cube, with each photo's place
   in it, says which colour should show beside every border cell. The side samples are
   compared with the cube's own colours (each photo's light divided out, a darker or
   lighter shade allowed for a face turned otherwise to the light); a tie is settled
   only when the samples clearly favour one cube: a lead of ``SETTLE_MARGIN`` in
   log-likelihood, from two or more confident samples and none against it.

Sides are numbered 0 top, 1 right, 2 bottom, 3 left, as the photo shows the face (the
grid's rows run from the photo's top); along a side, cells run left to right (top,
bottom) or top to bottom (left, right), i.e. in increasing grid index.

Examples
--------
>>> from cubescan.scanner.grid import detect_grid
>>> from cubescan.synth.specs import SceneSpec, face_pose as posed
>>> from cubescan.synth.scenes import render_scene
>>> colors = "W" * 9 + "R" * 9 + "G" * 9 + "Y" * 9 + "O" * 9 + "B" * 9
>>> spec = SceneSpec(3, colors, 640, 480, tuple(map(tuple, posed("F", 25, 0, 10))),
...                  (0.0, 0.0, 9.0), 700.0)
>>> image, truth = render_scene(spec)
>>> sides = sample_sides(image, detect_grid(image, 3))
>>> truth.visible_faces, sides.lab.shape
(('F', 'U'), (4, 3, 3))
>>> np.round(sides.confidence.max(axis=1), 1).tolist()  # white U shows above the face
[1.0, 0.0, 0.0, 0.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from cubescan.calibration.colorspace import bgr_to_lab
from cubescan.calibration.light import balanced_lab, light_gains
from cubescan.scanner.grid import FaceDetection, as_bgr
from cubescan.scanner.sampling import sample_cells
from cubescan.solver.geometry import FACES, cube_geometry, face_axes

FOCAL_RANGE = (0.5, 2.5)  # plausible focal lengths, in multiples of the image's long side
TYPICAL_FOCAL = 1.0  # ... and the one assumed when the homography cannot tell
MIN_DEPTH_PX = 1.5  # a strip's sampled middle thinner than this (pixels) is not read ...
FULL_DEPTH_PX = 4.0  # ... and from this depth on it is read with full confidence
FLAT_SPREAD = 5.0  # a sticker's patch spread (median ΔE) up to this is flat ...
MAX_SPREAD = 14.0  # ... and beyond this it is not one colour
STICKER_CHROMA = 20.0  # chroma (ΔE from grey) of a coloured sticker, at least ...
STICKER_LIGHTNESS = 0.5  # ... or lightness, as a share of the face's lighter stickers'
SEAM_DIP = 0.12  # a seam this much darker (relative) than its darker sticker is certain
SEAM_FLOOR = 20.0  # L* below which a dip is measured against this level instead
SHADE_RANGE = (0.6, 1.3)  # (L*+16, a*, b*) scale of a face shaded otherwise: light x 0.2..2.2
COLOR_SIGMA = 8.0  # ΔE spread of a side sample around its colour (shade fitted)
BACKGROUND_DISTANCE = 2.5  # in sigmas: a sample farther from every colour is like none
SETTLE_MARGIN = 4.0  # log-likelihood lead (nats) that settles a tie
_MIN_STRIP_FIT = 0.1  # total strip fit below which no focal length shows a strip
_STRIP_COLOR_SCALE = 40.0  # ΔE within a predicted sticker's middle that cancels a sure seam
_SEAM_HALF_WIDTH = 0.12  # of a pitch: where the seam is looked for around x = k
_STICKER_OFFSET = (0.25, 0.45)  # of a pitch from the seam: where its two stickers are read
_DEPTHS = (0.3, 0.4, 0.5, 0.6, 0.7)  # depths (of a pitch) of the lines read across seams


@dataclass(frozen=True, eq=False)
class SideSamples:
    """The colours a photo shows just beyond each side of its face.

    Attributes
    ----------
    lab
        (4, N, 3) CIELAB: per side (top, right, bottom, left as in the photo) and border
        cell, the colour of the neighbouring face's sticker beside that cell; NaN where
        nothing could be read.
    confidence
        (4, N) in 0..1: that the sample is a sticker of a neighbouring face (0 for a
        side whose neighbour faces away from the camera, background, or no sticker).
    """

    lab: np.ndarray
    confidence: np.ndarray


@dataclass(frozen=True)
class FacePose:
    """A face's pose relative to the camera, from its homography.

    Attributes
    ----------
    camera
        3x3 intrinsic matrix (focal length, principal point at the image centre).
    axes
        3x3, columns: the face's x (grid columns), y (grid rows) and the direction into
        the cube, unit vectors in camera coordinates.
    origin
        The face's grid origin (its top-left corner) in camera coordinates, in pitches.
    """

    camera: np.ndarray
    axes: np.ndarray
    origin: np.ndarray

    def project(self, points: np.ndarray) -> np.ndarray:
        """Pixels of points given in face coordinates (x, y, depth into the cube).

        Parameters
        ----------
        points
            Shape (..., 3): x along the grid's columns, y along its rows, both from the
            face's top-left corner, and depth into the cube (negative: out of the face),
            all in sticker pitches (one grid unit).

        Returns
        -------
        numpy.ndarray
            Shape (..., 2): image pixels (x, y) through :attr:`camera`'s pinhole.

        Examples
        --------
        >>> pose = FacePose(np.diag([100.0, 100.0, 1.0]), np.eye(3), np.array([0, 0, 10.0]))
        >>> pose.project(np.array([[1.0, 2.0, 0.0]])).tolist()
        [[10.0, 20.0]]
        """
        camera_points = np.asarray(points, dtype=float) @ self.axes.T + self.origin
        pixels = camera_points @ self.camera.T
        return pixels[..., :2] / pixels[..., 2:]


def face_pose(
    homography: np.ndarray, image_shape: tuple[int, ...], size: int, focal: float | None = None
) -> FacePose:
    """The pose of a face from its homography (grid units to pixels).

    Parameters
    ----------
    homography
        3x3, grid coordinates (x = column, y = row, 0..N) to image pixels.
    image_shape
        The image's shape (height, width, ...): the principal point is its centre.
    size
        N (to tell which way the cube lies behind the face).
    focal
        The focal length in pixels, when known; else estimated from the homography
        (``TYPICAL_FOCAL`` times the long side when that is not plausible).

    Returns
    -------
    FacePose

    Examples
    --------
    >>> camera = np.array([[800.0, 0, 319.5], [0, 800, 239.5], [0, 0, 1]])
    >>> tilt = np.radians(20)
    >>> c, s = np.cos(tilt), np.sin(tilt)
    >>> axes = np.array([[1, 0, 0], [0, c, s], [0, -s, c]])
    >>> truth = FacePose(camera, axes, np.array([-1.5, -1.5, 12.0]))
    >>> grid = np.array([[0, 0, 0], [3, 0, 0], [3, 3, 0], [0, 3, 0]], float)
    >>> homography = cv2.getPerspectiveTransform(grid[:, :2].astype(np.float32),
    ...                                          truth.project(grid).astype(np.float32))
    >>> pose = face_pose(homography, (480, 640), 3)
    >>> round(float(pose.camera[0, 0])), bool(np.allclose(pose.axes, axes, atol=1e-3))
    (800, True)
    """
    height, width = image_shape[:2]
    long_side = max(height, width)
    centerd = np.array([[1.0, 0, -(width - 1) / 2], [0, 1, -(height - 1) / 2], [0, 0, 1]])
    columns = centerd @ np.asarray(homography, dtype=float)
    if focal is None:
        focal = _focal_length(columns)
        if not (FOCAL_RANGE[0] * long_side <= focal <= FOCAL_RANGE[1] * long_side):
            focal = TYPICAL_FOCAL * long_side
    camera = np.array([[focal, 0, (width - 1) / 2], [0, focal, (height - 1) / 2], [0, 0, 1]])
    metric = np.diag([1 / focal, 1 / focal, 1.0]) @ columns
    metric /= (np.linalg.norm(metric[:, 0]) + np.linalg.norm(metric[:, 1])) / 2
    if metric[2, 2] < 0:  # the face lies in front of the camera
        metric = -metric
    # The nearest pair of orthonormal axes to the (noisy) first two columns.
    left, _, right = np.linalg.svd(metric[:, :2], full_matrices=False)
    in_plane = left @ right
    inward = np.cross(in_plane[:, 0], in_plane[:, 1])
    origin = metric[:, 2]
    if inward @ (origin + size / 2 * (in_plane[:, 0] + in_plane[:, 1])) < 0:
        inward = -inward  # into the cube is away from the camera
    return FacePose(camera, np.column_stack([in_plane, inward]), origin)


def fitted_pose(image: np.ndarray, detection: FaceDetection) -> FacePose:
    """The face's pose, its focal length chosen so that the strips beside it fit.

    One homography fixes the focal length poorly (not at all for a face seen square
    on), and the strips' depth in the image depends on it. So focal lengths over the
    plausible range (and the homography's own estimate) are tried, and the one whose
    predicted strips look most like a row of stickers wins: bright in the middle of each
    predicted sticker, dark at the seam one pitch deep (between the neighbour's first
    and second rows), with no dark line inside (a strip predicted too deep spans that
    seam). When no strip is seen at any focal length, the estimate is kept.

    Parameters
    ----------
    image
        The photo (BGR).
    detection
        The face found in it.

    Returns
    -------
    FacePose

    Examples
    --------
    >>> from cubescan.synth.specs import SceneSpec, face_pose as posed
    >>> from cubescan.synth.scenes import render_scene
    >>> colors = "W" * 9 + "R" * 9 + "G" * 9 + "Y" * 9 + "O" * 9 + "B" * 9
    >>> spec = SceneSpec(3, colors, 640, 480, tuple(map(tuple, posed("F", 25, 0, 10))),
    ...                  (0.0, 0.0, 9.0), 700.0)
    >>> image, _ = render_scene(spec)
    >>> from cubescan.scanner.grid import detect_grid
    >>> pose = fitted_pose(image, detect_grid(image, 3))
    >>> bool(abs(pose.camera[0, 0] / 700.0 - 1) < 0.3)
    True
    """
    bgr = as_bgr(image)
    size = detection.size
    estimate = face_pose(detection.homography, bgr.shape, size)
    long_side = max(bgr.shape[:2])
    focals = [estimate.camera[0, 0], *(long_side * np.geomspace(*FOCAL_RANGE, 12))]
    poses = [face_pose(detection.homography, bgr.shape, size, float(f)) for f in focals]
    scores = _strip_fits(bgr, poses, size)
    best = int(np.argmax(scores))
    return poses[best] if scores[best] > _MIN_STRIP_FIT else estimate


def _strip_fits(image: np.ndarray, poses: Sequence[FacePose], size: int) -> np.ndarray:
    """How much the image beside the face looks like the strips each pose predicts.

    Per side seen at a readable depth and per border cell, the colour along the depth
    (median over the cell's middle): the seam one pitch deep must be darker than the
    sticker's middle, and the middle must be one colour without a dark line; the excess
    (relative to the sticker's lightness) is taken per side as the median over its
    cells, and summed over the sides. All poses are read from the image at once.
    """
    depths = np.concatenate([np.linspace(0.3, 0.7, 5), np.linspace(0.88, 1.12, 5)])
    across = np.linspace(0.3, 0.7, 5)
    shape = (size, len(across), len(depths))
    along = np.broadcast_to(np.arange(size)[:, None, None] + across[None, :, None], shape)
    points = _on_neighbours(size, along, np.broadcast_to(depths, shape))
    lab = _lab_at(image, np.stack([pose.project(points) for pose in poses]))
    profile = np.median(lab, axis=3)  # (poses, sides, N, depths, 3)
    middle, seam = profile[..., :5, :], profile[..., 5:, 0]
    sticker = np.median(middle[..., 0], axis=-1)
    scale = np.maximum(sticker, SEAM_FLOOR)
    dip = (sticker - seam.min(axis=-1)) / scale
    inner_dip = (sticker - middle[..., 0].min(axis=-1)) / scale
    # A strip predicted too deep spans two rows of stickers: two colours in its middle.
    colors = np.linalg.norm(middle - np.median(middle, axis=-2, keepdims=True), axis=-1).max(-1)
    excess = np.median(dip - inner_dip - colors / _STRIP_COLOR_SCALE, axis=-1)
    seen = np.zeros(excess.shape, dtype=bool)
    for k, pose in enumerate(poses):
        cells = side_cells(pose, size)
        depth_px = _depths_px(cells)
        seen[k] = (facing(pose, size) > 0) & (np.median(depth_px, axis=1) >= 2 * MIN_DEPTH_PX)
        seen[k] &= _inside(cells, image.shape).all(axis=1)
    return np.where(seen, excess, 0.0).sum(axis=1)


def _depths_px(cells: np.ndarray) -> np.ndarray:
    """(4, N) depth in pixels of each side cell of :func:`side_cells`: from the middle of
    its edge on the face to the middle of its far edge."""
    return np.linalg.norm(
        (cells[:, :, 2] + cells[:, :, 3] - cells[:, :, 0] - cells[:, :, 1]) / 2, axis=-1
    )


def _lab_at(image: np.ndarray, pixels: np.ndarray) -> np.ndarray:
    """CIELAB at (sub)pixel positions (..., 2) of an image (points off it read its border)."""
    flat = pixels.reshape(1, -1, 2).astype(np.float32)
    read = cv2.remap(image, flat, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return bgr_to_lab(read)[0].reshape(*pixels.shape[:-1], 3)


def _focal_length(columns: np.ndarray) -> float:
    """Least-squares focal length from a centred homography's first two columns (NaN if
    they do not fix one, as for a face seen square on)."""
    first, second = columns[:, 0], columns[:, 1]
    # Orthogonal and of equal length after dividing x, y by f: a / f^2 + b = 0 twice.
    a = np.array(
        [first[:2] @ second[:2], first[:2] @ first[:2] - second[:2] @ second[:2]],
    )
    b = np.array([first[2] * second[2], first[2] ** 2 - second[2] ** 2])
    inverse_square = -(a @ b) / max(float(a @ a), 1e-300)
    return float(1 / np.sqrt(inverse_square)) if inverse_square > 0 else float("nan")


@cache
def _side_frames(size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per side: the edge's start on the face, its direction along the cells, and the
    outward direction in the face's plane (grid units)."""
    start = np.array([[0, 0], [size, 0], [0, size], [0, 0]], float)
    along = np.array([[1, 0], [0, 1], [1, 0], [0, 1]], float)
    outward = np.array([[0, -1], [1, 0], [0, 1], [-1, 0]], float)
    for array in (start, along, outward):
        array.flags.writeable = False
    return start, along, outward


def _on_neighbours(size: int, along: np.ndarray, depth: np.ndarray) -> np.ndarray:
    """Face coordinates (4, ..., 3) of points on the four neighbouring faces: ``along``
    each side (grid units from its start) and ``depth`` behind its edge."""
    start, direction, _ = _side_frames(size)
    along, depth = np.broadcast_arrays(np.asarray(along, float), np.asarray(depth, float))
    flat = start[:, None] + direction[:, None] * along.reshape(-1)[None, :, None]
    points = np.concatenate(
        [flat, np.broadcast_to(depth.reshape(1, -1, 1), (4, along.size, 1))], -1
    )
    return points.reshape(4, *along.shape, 3)


def side_cells(pose: FacePose, size: int) -> np.ndarray:
    """The outline in the image of each border cell's partner sticker.

    Parameters
    ----------
    pose
        From :func:`face_pose`.
    size
        N.

    Returns
    -------
    numpy.ndarray
        (4, N, 4, 2) pixels: per side and cell, the corners (edge start, edge end, then
        one pitch deep behind them), in cyclic order.

    Examples
    --------
    >>> pose = FacePose(np.diag([100.0, 100.0, 1.0]), np.eye(3), np.array([0, 0, 10.0]))
    >>> side_cells(pose, 2)[0, 1].round(2).tolist()  # above the top edge's second cell
    [[10.0, 0.0], [20.0, 0.0], [18.18, 0.0], [9.09, 0.0]]
    """
    j = np.arange(size, dtype=float)
    corners = _on_neighbours(
        size,
        np.stack([j, j + 1, j + 1, j], axis=-1),
        np.broadcast_to(np.array([0.0, 0, 1, 1]), (size, 4)),
    )
    return pose.project(corners)


def facing(pose: FacePose, size: int) -> np.ndarray:
    """How squarely each neighbouring face turns towards the camera.

    Parameters
    ----------
    pose
        The photographed face's pose (:func:`face_pose`).
    size
        N.

    Returns
    -------
    numpy.ndarray
        (4,) cosines between each neighbour's outward normal and the direction from its
        middle to the camera: positive when the camera sees that face.

    Examples
    --------
    >>> pose = FacePose(np.diag([100.0, 100.0, 1.0]), np.eye(3), np.array([-1.5, 2.0, 10.0]))
    >>> (facing(pose, 3) > 0).tolist()  # the face is below the camera's axis: top seen
    [True, False, False, False]
    """
    start, along, outward = _side_frames(size)
    normals = np.column_stack([outward, np.zeros(4)]) @ pose.axes.T
    middles = np.column_stack([start + along * size / 2, np.full(4, 0.5)])
    middles = middles @ pose.axes.T + pose.origin
    to_camera = -middles / np.linalg.norm(middles, axis=1, keepdims=True)
    return np.einsum("sk,sk->s", normals, to_camera)


def sample_sides(image: np.ndarray, detection: FaceDetection) -> SideSamples:
    """Read the neighbouring faces' stickers beside each border cell of a detected face.

    Parameters
    ----------
    image
        The photo (BGR; grayscale and BGRA accepted).
    detection
        The face found in it (:func:`cubescan.scanner.grid.detect_grid`).

    Returns
    -------
    SideSamples

    Examples
    --------
    >>> from cubescan.scanner.grid import detect_grid
    >>> frame = np.full((240, 320, 3), 90, np.uint8)  # a face seen square on: no strips
    >>> for r in range(3):
    ...     for c in range(3):
    ...         _ = cv2.rectangle(frame, (100 + 40 * c, 60 + 40 * r), (134 + 40 * c, 94 + 40 * r),
    ...                           (40 * r + 60, 200, 40 * c + 60), -1)
    >>> sides = sample_sides(frame, detect_grid(frame))
    >>> sides.lab.shape, float(sides.confidence.max())
    ((4, 3, 3), 0.0)
    """
    bgr = as_bgr(image)
    size = detection.size
    pose = fitted_pose(bgr, detection)
    cells = side_cells(pose, size)
    samples = sample_cells(bgr, cells.reshape(-1, 4, 2))
    lab = samples.lab.reshape(4, size, 3)
    # Depth in pixels of each sticker's sampled middle (half its depth).
    depth_px = 0.5 * _depths_px(cells)
    seen = np.clip((depth_px - MIN_DEPTH_PX) / (FULL_DEPTH_PX - MIN_DEPTH_PX), 0, 1)
    seen *= (facing(pose, size) > 0)[:, None]
    seen *= _inside(cells, bgr.shape)
    spread = samples.spread.reshape(4, size)
    flat = np.clip((MAX_SPREAD - spread) / (MAX_SPREAD - FLAT_SPREAD), 0, 1)
    sticker = _sticker_likeness(lab, sample_cells(bgr, detection.cells).lab)
    confidence = seen * flat * sticker * _seam_factor(bgr, pose, size)
    confidence = np.where(np.isfinite(lab).all(axis=-1), confidence, 0.0)
    return SideSamples(lab, confidence)


def _sticker_likeness(lab: np.ndarray, face_lab: np.ndarray) -> np.ndarray:
    """(...) in 0..1: how much each sample looks like a sticker rather than dark plastic.

    A sticker is chromatic (``STICKER_CHROMA``) or, when grey, a white: at least
    ``STICKER_LIGHTNESS`` of the lightness of the face's own lighter stickers (a white
    on a face in shade is darker, but not as dark as the plastic). Half of either
    threshold gives nothing, the threshold gives full likeness.
    """
    light = np.nanpercentile(face_lab[:, 0], 75) if np.isfinite(face_lab).any() else 100.0
    chroma = np.hypot(lab[..., 1], lab[..., 2]) / STICKER_CHROMA
    lightness = lab[..., 0] / (STICKER_LIGHTNESS * max(float(light), 1.0))
    likeness = np.clip(2 * np.maximum(chroma, lightness) - 1, 0, 1)
    return np.nan_to_num(likeness)


def _inside(cells: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """(4, N) whether each cell's outline lies inside the image."""
    limit = np.array([shape[1] - 1, shape[0] - 1])
    return ((cells >= 0) & (cells <= limit)).all(axis=(-1, -2))


def _seam_factor(image: np.ndarray, pose: FacePose, size: int) -> np.ndarray:
    """(4, N) in 0..1: how clearly the strip is cut by dark seams where the cells meet.

    Across each seam x = k (k = 1..N-1) the strip is read along lines at a few depths:
    the seam's lightness is the darkest point within ``_SEAM_HALF_WIDTH`` of it, each
    sticker's the median a little way off on its side. A seam's dip is how much darker
    than the darker sticker it is (relative, against ``SEAM_FLOOR`` for dark stickers),
    scaled so that ``SEAM_DIP`` is certain; a sticker's factor is the mean over its one
    or two seams.
    """
    seams = np.arange(1, size, dtype=float)
    near = np.linspace(-_SEAM_HALF_WIDTH, _SEAM_HALF_WIDTH, 7)
    left = -np.linspace(*_STICKER_OFFSET, 3)
    offsets = np.concatenate([left[::-1], near, -left])
    along = seams[:, None, None] + offsets[None, None, :]
    depth = np.asarray(_DEPTHS)[None, :, None]
    # (4, seams, depths, offsets) lightness.
    lightness = _lab_at(image, pose.project(_on_neighbours(size, along, depth)))[..., 0]
    profile = np.median(lightness, axis=2)  # (4, seams, offsets), robust over depth
    sticker_l = np.minimum(
        np.median(profile[..., : len(left)], axis=-1), np.median(profile[..., -len(left) :], -1)
    )
    seam_l = profile[..., len(left) : len(left) + len(near)].min(axis=-1)
    dip = (sticker_l - seam_l) / np.maximum(sticker_l, SEAM_FLOOR)
    per_seam = np.clip(dip / SEAM_DIP, 0, 1)  # (4, N-1)
    padded = np.concatenate([np.full((4, 1), np.nan), per_seam, np.full((4, 1), np.nan)], 1)
    return np.nanmean(np.stack([padded[:, :-1], padded[:, 1:]]), axis=0)


def border_cells(size: int) -> np.ndarray:
    """(4, N) the photo's cell index (row-major) of each side's border cells.

    Parameters
    ----------
    size
        N.

    Returns
    -------
    numpy.ndarray
        (4, N) ints: per side (top, right, bottom, left as the photo shows the face), its
        cells left to right (top, bottom) or top to bottom (left, right).

    Examples
    --------
    >>> border_cells(3).tolist()
    [[0, 1, 2], [2, 5, 8], [6, 7, 8], [0, 3, 6]]
    """
    grid = np.arange(size * size).reshape(size, size)
    return np.stack([grid[0], grid[:, -1], grid[-1], grid[:, 0]])


def partner_facelets(size: int, face: str, quarter_turns: int) -> np.ndarray:
    """The facelets beside a photo's sides, for the photo placed on a face.

    Parameters
    ----------
    size
        N.
    face
        The face the photo shows (URFDLB).
    quarter_turns
        Clockwise quarter turns that bring the photo to the net orientation (as
        :class:`cubescan.scanner.assemble.Placement`).

    Returns
    -------
    numpy.ndarray
        (4, N) facelet indices: per side of the photo (top, right, bottom, left) and
        border cell, the sticker of the neighbouring face across that side.

    Examples
    --------
    >>> partner_facelets(3, "F", 0)[0].tolist()  # above F's top row: U7 U8 U9
    [6, 7, 8]
    >>> partner_facelets(3, "F", 2)[0].tolist()  # photo upside down: D3 D2 D1 above
    [29, 28, 27]
    """
    geometry = cube_geometry(size)
    grid = np.arange(size * size).reshape(size, size)
    # Where each photo cell lies in the face's net grid.
    net_row, net_col = np.divmod(np.argsort(np.rot90(grid, -quarter_turns).ravel()), size)
    right, up, normal = face_axes(face)
    # Outward directions of the net's sides (top, right, bottom, left) in space.
    outward = [up, right, -up, -right]
    partners = np.empty((4, size), dtype=int)
    for side, cells in enumerate(border_cells(size)):
        direction = outward[(side + quarter_turns) % 4]
        for k, cell in enumerate(cells):
            index = geometry.facelet_index(face, int(net_row[cell]), int(net_col[cell]))
            # One unit = half a cubie: the partner's point is half a step along and in.
            point = geometry.positions[index] + direction - normal
            partners[side, k] = geometry.sticker_at(tuple(int(v) for v in point))
    return partners


def shade_distance(samples: np.ndarray, references: np.ndarray) -> np.ndarray:
    """ΔE from each sample to each reference colour shaded as brightly as fits best.

    A face turned away from the light is a darker version of the same colours: in
    CIELAB, scaling linear light by ``k`` scales (L* + 16, a*, b*) by ``m = k ** (1/3)``.
    The best ``m`` within ``SHADE_RANGE`` is taken for each pair.

    Parameters
    ----------
    samples
        (..., 3) CIELAB.
    references
        (C, 3) CIELAB.

    Returns
    -------
    numpy.ndarray
        (..., C) distances.

    Examples
    --------
    >>> white, red = [95.0, 0, 0], [45.0, 60, 45]
    >>> shaded_white = [0.8 * 111 - 16, 0, 0]
    >>> np.round(shade_distance(np.array([shaded_white]), np.array([white, red])), 1).tolist()
    [[0.0, 68.9]]
    """
    offset = np.array([16.0, 0, 0])
    s = np.asarray(samples, dtype=float)[..., None, :] + offset
    r = np.asarray(references, dtype=float) + offset
    scale = np.einsum("...ck,ck->...c", s, r) / np.maximum(np.einsum("ck,ck->c", r, r), 1e-9)
    scale = np.clip(scale, *SHADE_RANGE)
    return np.linalg.norm(s - scale[..., None] * r, axis=-1)


@dataclass(frozen=True)
class SideVerdict:
    """What the strips beside the faces say about equally good assemblies.

    Attributes
    ----------
    scores
        (alternatives,) log-likelihood of all side samples under each alternative
        (higher fits better).
    best
        Index of the best-fitting alternative.
    margin
        Its lead over the runner-up, in natural-log units.
    photos
        The photos with confident side samples whose expected colours differ between
        the best alternative and the runner-up: the photos that settled it.
    agreeing, disagreeing
        Among those samples (confidence above one half), how many are nearest to the
        colour the best alternative expects, and how many to the runner-up's.
    """

    scores: np.ndarray
    best: int
    margin: float
    photos: tuple[int, ...]
    agreeing: int
    disagreeing: int

    @property
    def settled(self) -> bool:
        """True when the evidence is clear: a lead of ``SETTLE_MARGIN``, from at least
        two confident samples, none of them against it."""
        return self.margin >= SETTLE_MARGIN and self.agreeing >= 2 and self.disagreeing == 0


def weigh_alternatives(
    sides: Sequence[SideSamples],
    face_lab: Sequence[np.ndarray],
    face_letters: Sequence[str],
    alternatives: Sequence[str],
    placements: Sequence[Sequence[tuple[int, str, int]]],
) -> SideVerdict:
    """Which of several cubes the colours beside each photo's face fit best.

    For each alternative cube and each photo's placement in it (face and quarter
    turns), the stickers across each side of the photo are known
    (:func:`partner_facelets`), hence their expected colours. Each side sample is
    compared with the cube's own colours: the photos' face stickers, each photo's light
    divided out (:func:`cubescan.calibration.light.light_gains`), averaged per colour; the
    distance tolerates the neighbouring face being shaded otherwise
    (:func:`shade_distance`). A sample's likelihood under a colour is a Gaussian in that
    distance plus a floor for samples like no colour (background, a finger), and counts
    in proportion to its confidence.

    Parameters
    ----------
    sides
        Per photo, its side samples.
    face_lab
        Per photo, its face's (N*N, 3) CIELAB samples (as taken).
    face_letters
        Per photo, the colour letters of its face's stickers (URFDLB: the face each
        colour belongs to), row-major as in the photo.
    alternatives
        The candidate cubes, facelet strings in the same letters.
    placements
        Per alternative, per photo: (photo index, face letter, clockwise quarter turns).

    Returns
    -------
    SideVerdict

    Examples
    --------
    >>> lab = {"U": [95.0, 0, 0], "R": [45, 60, 45], "F": [55, -50, 30], "D": [85, -5, 80],
    ...        "L": [62, 40, 65], "B": [40, 10, -50]}
    >>> cube = "".join(face * 9 for face in FACES)
    >>> faces = [np.array([lab[f]] * 9) for f in FACES]
    >>> above_f = np.full((4, 3, 3), np.nan)
    >>> above_f[0] = lab["U"]  # photo 3 (F, as taken) shows white above its top row
    >>> sides = [SideSamples(np.full((4, 3, 3), np.nan), np.zeros((4, 3)))] * 6
    >>> sides[2] = SideSamples(above_f, np.array([[1.0] * 3, [0] * 3, [0] * 3, [0] * 3]))
    >>> as_taken = [(p, f, 0) for p, f in enumerate(FACES)]
    >>> f_upside_down = [(p, f, 2 if f == "F" else 0) for p, f in enumerate(FACES)]
    >>> verdict = weigh_alternatives(sides, faces, [f * 9 for f in FACES], [cube, cube],
    ...                              [as_taken, f_upside_down])
    >>> verdict.best, verdict.photos, verdict.settled
    (0, (2,), True)
    """
    size = round(np.sqrt(len(face_letters[0])))
    gains = light_gains(face_lab, face_letters)
    letters = np.array(list("".join(face_letters)))
    balanced = np.concatenate(
        [balanced_lab(lab, gain) for lab, gain in zip(face_lab, gains, strict=True)]
    )
    present = [face for face in FACES if face in letters]
    references = np.stack([balanced[letters == face].mean(axis=0) for face in present])
    # (photos, 4, N, colours) log-likelihood of each side sample under each colour.
    log_likelihood = np.zeros((len(sides), 4, size, len(FACES)))
    confidence = np.zeros((len(sides), 4, size))
    for photo, (samples, gain) in enumerate(zip(sides, gains, strict=True)):
        readable = np.isfinite(samples.lab).all(axis=-1) & (samples.confidence > 0)
        if not readable.any():
            continue
        distance = np.full((4, size, len(FACES)), np.inf)
        seen = balanced_lab(samples.lab[readable], gain)
        distance[readable] = _spread_columns(shade_distance(seen, references), present)
        log_likelihood[photo] = np.log(
            np.exp(-0.5 * (distance / COLOR_SIGMA) ** 2) + np.exp(-0.5 * BACKGROUND_DISTANCE**2)
        )
        confidence[photo] = np.where(readable, samples.confidence, 0.0)
    expected = np.array(
        [_expected(alt, turns, size) for alt, turns in zip(alternatives, placements, strict=True)]
    )
    # expected: (alternatives, photos, 4, N) colour index
    photo_i, side_i, cell_i = np.indices(confidence.shape)
    scores = np.array(
        [
            float((confidence * log_likelihood[photo_i, side_i, cell_i, colors]).sum())
            for colors in expected
        ]
    )
    order = np.argsort(-scores, kind="stable")
    best, runner_up = int(order[0]), int(order[1]) if len(order) > 1 else int(order[0])
    differ = (expected[best] != expected[runner_up]) & (confidence > 0.5)
    nearest = log_likelihood.argmax(axis=-1)
    agreeing = int((differ & (nearest == expected[best])).sum())
    disagreeing = int((differ & (nearest == expected[runner_up])).sum())
    photos = tuple(int(p) for p in np.flatnonzero(differ.any(axis=(1, 2))))
    margin = float(scores[best] - scores[runner_up]) if len(order) > 1 else 0.0
    return SideVerdict(scores, best, margin, photos, agreeing, disagreeing)


def _spread_columns(distance: np.ndarray, present: list[str]) -> np.ndarray:
    """Distances to the colours present, as columns in URFDLB order (inf for absent)."""
    full = np.full((*distance.shape[:-1], len(FACES)), np.inf)
    full[..., [FACES.index(face) for face in present]] = distance
    return full


def _expected(cube: str, placements: Sequence[tuple[int, str, int]], size: int) -> np.ndarray:
    """(photos, 4, N) the colour (index into URFDLB) expected beside each photo's sides."""
    color = np.array([FACES.index(letter) for letter in cube])
    expected = np.zeros((len(placements), 4, size), dtype=int)
    for photo, face, quarter_turns in placements:
        expected[photo] = color[partner_facelets(size, face, quarter_turns)]
    return expected
