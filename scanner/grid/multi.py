"""Every face in a frame: :func:`detect_faces`, and how the faces of one cube join.

The single-face detector (:func:`~cubescan.scanner.grid.detect_grid`) links a frame's regions
into lattices and keeps the best face of each; a lattice over a cube seen from a corner holds
the stickers of two or three faces (the next face's stickers, squashed, line up with this
face's lines), and only one of them is fitted. So the faces are peeled: once a face is found,
the regions inside it are set aside and the rest linked again, until no face is left. Every
face found must pass the single-face detector's own tests (the lattice fit, the window tests
and the last "not a face" tests, :func:`~cubescan.scanner.grid.rejection.not_a_face`). A face
seen too obliquely for its stickers to link into a lattice is looked for where the pose of a
face found puts its neighbours (:mod:`~cubescan.scanner.grid.pose`), and a third face where
two found faces put it.

Faces found, the joins: two faces of one size share an edge when a side of one lies on a
side of the other (both ends within ``LINK_TOLERANCE`` of a cell); three faces pairwise
joined meet at the corner all three have. Faces joined, directly or through a third, are one
cube's; the rest are other cubes'.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from cubescan.errors import BadInputError
from cubescan.scanner.grid.cells import cell_statistics
from cubescan.scanner.grid.continuation import _not_continued
from cubescan.scanner.grid.detection import _best_face, as_bgr
from cubescan.scanner.grid.face import (
    FaceDetection,
    _cell_confidence,
    _to_frame,
    cell_width,
    make_detection,
    narrow_cell_width,
)
from cubescan.scanner.grid.geometry import _overlap, warp_points
from cubescan.scanner.grid.lattice import _subset
from cubescan.scanner.grid.params import (
    CUBE_CROP_MAX_SCALE,
    CUBE_CROP_PAD,
    CUBE_CROP_STICKER_PX,
    LINK_TOLERANCE,
    MAX_EXTRAPOLATED_ASPECT,
    MAX_FACES_IN_VIEW,
    MAX_STICKER_SPREAD,
    MIN_FLAT_SHARE,
    MIN_THIRD_FACE_PX,
    OWN_CROP_FINER,
    OWN_CROP_PAD,
    TURNED_MAX_ELONGATION,
)
from cubescan.scanner.grid.pose import neighbor_homographies
from cubescan.scanner.grid.regions import find_regions, working_lab
from cubescan.scanner.grid.rejection import not_a_face
from cubescan.scanner.grid.search import _Pass, _pass_at, detect_scaled
from cubescan.scanner.grid.tracking import _follow

FACES_OF_A_CUBE_IN_VIEW = 3  # a cube never shows the camera more

# The sides of a predicted face (0 above, 1 below, 2 left, 3 right in its lattice) away from
# the faces that placed it: a neighbour's far side (its second coordinate runs away from the
# face it shares a side with, see neighbor_homographies), a corner's third face's two.
NEIGHBOR_FAR_SIDES = (1,)
THIRD_FAR_SIDES = (1, 3)

SIDES = ("top", "right", "bottom", "left")
"""A face's sides as it is seen: side k runs from its quad's corner k to corner k + 1."""


@dataclass(frozen=True)
class FaceLink:
    """Two faces of one cube that share an edge.

    Attributes
    ----------
    faces
        The two faces' indices in :attr:`FacesInView.faces`.
    sides
        Which side of each (an index into :data:`SIDES`, as the face is seen) is the shared
        edge.
    edge
        ``(2, 2)`` the shared edge's ends in image pixels (the two faces' corners averaged),
        in the first face's clockwise order.
    """

    faces: tuple[int, int]
    sides: tuple[int, int]
    edge: np.ndarray

    @property
    def left(self) -> int | None:
        """The face on the left of the shared edge in the image (the edge runs more up and
        down than across), else None.

        Returns
        -------
        int or None
            An index into :attr:`FacesInView.faces`.

        Examples
        --------
        >>> link = FaceLink((0, 1), (1, 3), np.array([[10.0, 0], [10, 20]]))
        >>> link.left, link.above
        (0, None)
        """
        run = self.edge[1] - self.edge[0]
        if abs(run[1]) <= abs(run[0]):
            return None
        # Clockwise in the image (y down), the first face lies right of its side's direction.
        first_on_right = run[1] < 0
        return self.faces[1] if first_on_right else self.faces[0]

    @property
    def above(self) -> int | None:
        """The face above the shared edge in the image (the edge runs more across than up and
        down), else None.

        Returns
        -------
        int or None
            An index into :attr:`FacesInView.faces`.

        Examples
        --------
        >>> link = FaceLink((0, 1), (2, 0), np.array([[20.0, 30], [0, 30]]))
        >>> link.above, link.left
        (0, None)
        """
        run = self.edge[1] - self.edge[0]
        if abs(run[1]) > abs(run[0]):
            return None
        first_below = run[0] > 0
        return self.faces[1] if first_below else self.faces[0]


@dataclass(frozen=True)
class CubeCorner:
    """The corner where three faces of one cube meet.

    Attributes
    ----------
    faces
        The three faces' indices in :attr:`FacesInView.faces`.
    corners
        Which corner of each face's quad (0 top-left, 1 top-right, 2 bottom-right,
        3 bottom-left, as the face is seen) is the cube's corner.
    point
        The corner in image pixels (the three faces' corners averaged), shape (2,).
    """

    faces: tuple[int, int, int]
    corners: tuple[int, int, int]
    point: np.ndarray


@dataclass(frozen=True)
class FacesInView:
    """Every face grid found in one frame, and how they join.

    Attributes
    ----------
    faces
        The faces, best first (the first is the one :func:`detect_grid` returns); each
        with its cells, its place (quad, homography) and per-cell confidence.
    quality
        Per face, 0..1: the mean of its cells' confidences (1 where every cell shows a
        flat sticker).
    links
        The pairs of faces that share an edge.
    corners
        The corners where three faces meet.
    cubes
        The faces of each cube in view (indices, ascending): faces joined by links,
        directly or through another face, are one cube's.
    predicted
        Per face, True for the third face at a corner placed from the two faces found
        beside it, its stickers not seen as regions (taken where its cells are flat: see
        :func:`_flat_face`); empty when there is none. A third face whose stickers were
        found where the two put it is found, as a face found beside one face is.
    """

    faces: tuple[FaceDetection, ...]
    quality: tuple[float, ...]
    links: tuple[FaceLink, ...]
    corners: tuple[CubeCorner, ...]
    cubes: tuple[tuple[int, ...], ...]
    predicted: tuple[bool, ...] = ()

    def neighbors(self, index: int) -> list[int]:
        """The faces that share an edge with one face.

        Parameters
        ----------
        index
            The face's index in :attr:`faces`.

        Returns
        -------
        list of int
            Their indices, ascending.

        Examples
        --------
        >>> FacesInView((), (), (), (), ()).neighbors(0)
        []
        """
        return sorted(
            other
            for link in self.links
            if index in link.faces
            for other in link.faces
            if other != index
        )


def detect_faces(image: object, size: int | None = None) -> FacesInView:
    """Find every cube face's sticker grid in a frame, and how the faces join.

    The best face is the one :func:`~cubescan.scanner.grid.detect_grid` finds (by the same
    search); when there is one, the region cue's passes are looked at again with the regions
    of the faces found set aside, until no more faces stand.

    Parameters
    ----------
    image
        BGR image (grayscale and BGRA are accepted), any resolution.
    size
        N when known (every face found has it); None to detect each face's (2..7).

    Returns
    -------
    FacesInView
        The faces (none when no cube face is in view), their joins and cubes.

    Raises
    ------
    BadInputError
        When ``image`` is not an image, or ``size`` is out of range.

    Examples
    --------
    >>> from cubescan.synth.corners import random_corner_spec, render_corner_view
    >>> spec = random_corner_spec(np.random.default_rng(2), 3, faces=3, resolution=(640, 480))
    >>> image, truth = render_corner_view(spec)
    >>> view = detect_faces(image)
    >>> len(view.faces), len(view.links), len(view.corners), view.cubes
    (3, 3, 1, ((0, 1, 2),))
    """
    if size is not None and not 2 <= size <= 7:
        raise BadInputError("bad-size", f"cube size must be 2..7, got {size}")
    frame = as_bgr(image)
    best, passes = _best_face(frame, size)
    # The faces beside the best are looked for at its N: a cube's faces share it, and a
    # smaller window inside one of them would stand where its other stickers merged.
    if best is None:
        return join_faces([])
    more, third = _more_faces(frame, best.size, passes, [best])
    view = join_faces([best, *more])
    if third is None:
        return view
    return replace(view, predicted=tuple(face is third for face in view.faces))


def place_third_face(view: FacesInView) -> FacesInView | None:
    """The view with the third face of its best cube's corner placed by geometry alone, when
    the detector found only two of that cube's faces, joined at an edge.

    The third face is where the two faces' sides put it (see :func:`_third_face`), at the end
    of their shared edge where it joins both of them at one corner; nothing in the image is
    asked of it. It is a guess, for a caller that has other evidence to judge it by (the
    cube its colours make, in :func:`~cubescan.scanner.pipeline.views.check_views`).

    Parameters
    ----------
    view
        Faces found in one frame, as from :func:`detect_faces`.

    Returns
    -------
    FacesInView or None
        The faces with the third one added last (marked in ``predicted``), or None when
        the best cube has not exactly two faces found, or no end of their edge holds a face
        that joins both.

    Examples
    --------
    >>> from cubescan.synth.corners import random_corner_spec, render_corner_view
    >>> spec = random_corner_spec(np.random.default_rng(2), 3, faces=3, resolution=(640, 480))
    >>> view = detect_faces(render_corner_view(spec)[0])
    >>> two = join_faces(list(view.faces[:2]))
    >>> placed = place_third_face(two)
    >>> len(placed.faces), placed.predicted, len(placed.corners)
    (3, (False, False, True), 1)
    >>> place_third_face(view) is None  # three faces found already
    True
    """
    if not view.faces:
        return None
    cube = next(group for group in view.cubes if 0 in group)
    links = [link for link in view.links if set(link.faces) <= set(cube)]
    if len(cube) != 2 or len(links) != 1:
        return None
    first, second = (view.faces[k] for k in links[0].faces)
    for third in _predicted_thirds(first, second, links[0]):
        placed = join_faces([*view.faces, third])
        index = len(view.faces)
        if any(set(corner.faces) == {*cube, index} for corner in placed.corners):
            predicted = view.predicted or (False,) * index
            return replace(placed, predicted=(*predicted, True))
    return None


def _more_faces(
    image: np.ndarray,
    size: int | None,
    passes: dict[float, _Pass],
    found: list[FaceDetection],
) -> tuple[list[FaceDetection], FaceDetection | None]:
    """Faces beside ``found``: the rest of its cube in a crop around it (see :func:`_around`),
    then the faces of other cubes in the first pass's lattices that hold no sticker of a face
    found; and which of them, if any, is a third face placed at a corner, its stickers
    not seen (see
    :func:`_third_face`)."""
    first = passes[next(iter(passes))]
    look = _around(image, found)
    more = _peeled(image, size, look, found, first)
    more += _faces_beside(image, [*found, *more], look, first)
    third, placed = _third_face(image, [*found, *more], look, first)
    more += [] if third is None else [third]
    found = [*found, *more]
    to_work = np.linalg.inv(_to_frame(first.lab.shape, image.shape))
    taken = _inside_any(first.regions.centers, [warp_points(f.quad, to_work) for f in found])
    apart = [(coords, members) for coords, members in first.lattices if not taken[members].any()]
    others = detect_scaled(
        image,
        _scale_of(first, image),
        size,
        (0.0, 0.0),
        MAX_FACES_IN_VIEW,
        prepared=_Pass(first.lab, first.regions, apart),
    )
    for face in others:
        if len(found) + len(more) >= MAX_FACES_IN_VIEW:
            break
        if not any(_overlap(face.quad, other.quad) for other in found) and not not_a_face(
            image, face
        ):
            found.append(face)
            more.append(face)
    return more, (third if placed else None)


def _scale_of(pass_: _Pass, image: np.ndarray) -> float:
    """The scale of a pass over the whole frame."""
    return pass_.lab.shape[1] / image.shape[1]


def _peeled(
    image: np.ndarray,
    size: int | None,
    look: tuple[_Pass, np.ndarray, tuple[float, float], float],
    found: list[FaceDetection],
    first: _Pass,
) -> list[FaceDetection]:
    """The faces in a look (its pass, crop, the crop's corner, scale) beside ``found``: the
    regions inside the faces found so far are set aside and the rest linked again, until no
    face is left or a cube's three are found (no view shows more of one cube). A face must
    not continue in the first pass's regions (see
    :func:`~cubescan.scanner.grid.continuation._not_continued`) and must pass
    :func:`~cubescan.scanner.grid.rejection.not_a_face`."""
    pass_, crop, offset, scale = look
    more: list[FaceDetection] = []
    to_work = np.linalg.inv(_to_frame(pass_.lab.shape, crop.shape, offset))
    while len(found) + len(more) < FACES_OF_A_CUBE_IN_VIEW:
        quads = [warp_points(face.quad, to_work) for face in [*found, *more]]
        keep = ~_inside_any(pass_.regions.centers, quads)
        if keep.sum() < 2 * 2:
            break
        rest = _pass_at(pass_.lab, _subset(pass_.regions, keep))
        new = detect_scaled(crop, scale, size, offset, MAX_FACES_IN_VIEW, prepared=rest)
        new = [
            face
            for face in _not_continued(image, new, first.lab, first.regions)
            if not any(_overlap(face.quad, other.quad) for other in [*found, *more])
            and not not_a_face(image, face)
        ]
        if not new:
            break
        for face in new:  # faces of one round may overlap each other's neighbours
            if not any(_overlap(face.quad, other.quad) for other in more):
                more.append(face)
    return more


def _faces_beside(
    image: np.ndarray,
    found: list[FaceDetection],
    look: tuple[_Pass, np.ndarray, tuple[float, float], float],
    first: _Pass,
) -> list[FaceDetection]:
    """The faces of the cube beside the faces found, where each found face's pose puts
    them (:func:`~cubescan.scanner.grid.pose.neighbor_homographies`): a face seen so
    obliquely that its stickers link into no lattice, or whose lattice bent into the next
    face's, still shows them where the cube's geometry says. Each prediction is refitted to
    the stickers seen there (:func:`_followed`), then judged as every face found is."""
    more: list[FaceDetection] = []
    for face in found:
        n = face.size
        for homography in neighbor_homographies(face.homography, n, image.shape):
            taken = [*found, *more]
            if len(taken) >= FACES_OF_A_CUBE_IN_VIEW:
                return more
            predicted = make_detection(homography, n, np.ones((n, n)))
            if any(_overlap(predicted.quad, other.quad) for other in taken):
                continue
            fitted = _followed(image, predicted, look, NEIGHBOR_FAR_SIDES)
            if (
                fitted is not None
                and not any(_overlap(fitted.quad, other.quad) for other in taken)
                and _not_continued(image, [fitted], first.lab, first.regions)
                and not not_a_face(image, fitted)
            ):
                more.append(fitted)
    return more


def _followed(
    image: np.ndarray,
    predicted: FaceDetection,
    look: tuple[_Pass, np.ndarray, tuple[float, float], float],
    far_sides: tuple[int, ...],
) -> FaceDetection | None:
    """A predicted face refitted to the stickers seen where it is predicted (regions square
    within ``MAX_EXTRAPOLATED_ASPECT``: a prediction stands for the lattice), in the look
    around the faces found; else, when its stickers are much narrower than the look's scale
    was set for, in a look of its own scaled for its narrow side. A sticker in all cells but
    a few is asked first; only then, in the finer look, stickers in half of them, the rest
    flat (``placed``: see :func:`~cubescan.scanner.grid.tracking._follow`), lest a poor fit
    in the coarse look stand for the face its own look shows whole. ``far_sides`` are the
    prediction's sides away from the faces it was placed by (see
    :func:`~cubescan.scanner.grid.tracking._follow`)."""
    pass_, crop, offset, scale = look
    to_frame = _to_frame(pass_.lab.shape, crop.shape, offset)
    aspect = MAX_EXTRAPOLATED_ASPECT
    fitted = _follow(predicted, pass_.lab, pass_.regions, to_frame, aspect, far_sides=far_sides)
    if fitted is not None:
        return fitted
    narrow = narrow_cell_width(predicted.centers)
    own_scale = min(CUBE_CROP_MAX_SCALE, CUBE_CROP_STICKER_PX / max(narrow, 1.0))
    if narrow >= MIN_THIRD_FACE_PX and own_scale * OWN_CROP_FINER > scale:
        pass_, crop, offset, _ = _around(image, [predicted], narrow, OWN_CROP_PAD)
        to_frame = _to_frame(pass_.lab.shape, crop.shape, offset)
        fitted = _follow(predicted, pass_.lab, pass_.regions, to_frame, aspect, far_sides=far_sides)
        if fitted is not None:
            return fitted
    return _follow(predicted, pass_.lab, pass_.regions, to_frame, aspect, True, far_sides)


def _third_face(
    image: np.ndarray,
    found: list[FaceDetection],
    look: tuple[_Pass, np.ndarray, tuple[float, float], float],
    first: _Pass,
) -> tuple[FaceDetection | None, bool]:
    """The third face at the corner of two faces found sharing an edge, when it holds, and
    whether it is placed (its stickers not seen as regions) rather than found.

    Two faces of a cube that share an edge fix the third face at each end of it: its sides
    are their other sides from that end, and its far corner is where lines from their far
    ends meet, each toward the vanishing point of the other face's side (exact under
    perspective). Only the end where the predicted face overlaps neither face found can
    show it. The prediction is refitted to the stickers seen where it puts its cells
    (:func:`_followed`), then judged as every face found is (continuation,
    :func:`~cubescan.scanner.grid.rejection.not_a_face`). A third face too squashed to show
    its stickers as regions is taken as predicted, placed, when its cells are flat
    (:func:`_flat_face`).
    """
    view = join_faces(found)
    if len(found) != 2 or len(view.links) != 1:
        return None, False
    pass_, crop, offset, _ = look
    to_frame = _to_frame(pass_.lab.shape, crop.shape, offset)
    for predicted in _predicted_thirds(found[0], found[1], view.links[0]):
        if any(_overlap(predicted.quad, face.quad) for face in found):
            continue
        followed = _followed(image, predicted, look, THIRD_FAR_SIDES)
        face = followed or _flat_face(predicted, pass_.lab, to_frame)
        if (
            face is not None
            and not any(_overlap(face.quad, other.quad) for other in found)
            and _not_continued(image, [face], first.lab, first.regions)
            and not not_a_face(image, face)
        ):
            return face, followed is None
    return None, False


def _flat_face(
    predicted: FaceDetection, lab: np.ndarray, to_frame: np.ndarray
) -> FaceDetection | None:
    """A predicted face taken as it is where its stickers showed no regions (too squashed
    or too small for the region cue): when its cells are at least ``MIN_THIRD_FACE_PX``
    across and flat as a face's are, each cell's confidence from its flatness alone."""
    n = predicted.size
    sides = np.linalg.norm(np.roll(predicted.quad, -1, axis=0) - predicted.quad, axis=1)
    if sides.min() / n < MIN_THIRD_FACE_PX:
        return None
    statistics = cell_statistics(np.linalg.inv(to_frame) @ predicted.homography, n, lab)
    flat = (statistics.spread < MAX_STICKER_SPREAD) | statistics.glared
    if flat.mean() < MIN_FLAT_SHARE:
        return None
    return replace(predicted, confidence=_cell_confidence(flat, statistics.spread).ravel())


_UNIT_QUAD = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], float)


def _predicted_thirds(
    first: FaceDetection, second: FaceDetection, link: FaceLink
) -> list[FaceDetection]:
    """The third face predicted at each end of the edge two faces share (see
    :func:`_third_quads`), as faces of their N with every cell's confidence 1; an end
    whose quad maps to no finite homography is left out."""
    n = first.size
    faces = []
    for quad in _third_quads(first, second, link):
        homography = cv2.getPerspectiveTransform(
            _UNIT_QUAD.astype(np.float32) * n, quad.astype(np.float32)
        )
        if np.isfinite(homography).all():
            faces.append(make_detection(homography, n, np.ones((n, n))))
    return faces


def _third_quads(first: FaceDetection, second: FaceDetection, link: FaceLink) -> list[np.ndarray]:
    """The third face's quad predicted at each end of the edge two faces share (see
    :func:`_third_face`): ``(4, 2)`` corners, from the cube's corner round."""
    side_a, side_b = link.sides
    quads = []
    for end in (0, 1):
        # The corner at this end in each face, its other neighbour, and the far side.
        at_a = (side_a + end) % 4
        away_a = (at_a - 1) % 4 if end == 0 else (at_a + 1) % 4
        at_b = (side_b + 1 - end) % 4
        away_b = (at_b + 1) % 4 if end == 0 else (at_b - 1) % 4
        corner = (first.quad[at_a] + second.quad[at_b]) / 2
        far_a, far_b = first.quad[away_a], second.quad[away_b]
        # Each face's two sides that run like the one shared with the third face.
        other_a = (side_a + 1 - end) % 4
        other_b = (side_b + end) % 4
        vanish_a = _meet(
            first.quad[at_a], far_a, first.quad[other_a], _beside(first, other_a, at_a)
        )
        vanish_b = _meet(
            second.quad[at_b], far_b, second.quad[other_b], _beside(second, other_b, at_b)
        )
        far = np.cross(
            np.cross(_homogeneous(far_a), vanish_b), np.cross(_homogeneous(far_b), vanish_a)
        )
        if abs(far[2]) < 1e-9:
            continue
        quads.append(np.array([corner, far_a, far[:2] / far[2], far_b]))
    return quads


def _beside(face: FaceDetection, corner: int, not_this: int) -> np.ndarray:
    """The neighbour of a face's quad corner other than ``not_this``."""
    before, after = (corner - 1) % 4, (corner + 1) % 4
    return face.quad[after if before == not_this else before]


def _homogeneous(point: np.ndarray) -> np.ndarray:
    return np.array([point[0], point[1], 1.0])


def _meet(a0: np.ndarray, a1: np.ndarray, b0: np.ndarray, b1: np.ndarray) -> np.ndarray:
    """Where line a0-a1 meets line b0-b1, homogeneous (a point at infinity when parallel)."""
    line_a = np.cross(_homogeneous(a0), _homogeneous(a1))
    line_b = np.cross(_homogeneous(b0), _homogeneous(b1))
    return np.cross(line_a, line_b)


def _around(
    image: np.ndarray,
    found: list[FaceDetection],
    cell_px: float | None = None,
    pad: float = CUBE_CROP_PAD,
) -> tuple[_Pass, np.ndarray, tuple[float, float], float]:
    """The pass over a crop around the faces found (padded by ``pad`` of their extent; by
    default ``CUBE_CROP_PAD``: where the rest of their cube can be), at the scale giving
    cells of ``cell_px`` (by default the best face's) ``CUBE_CROP_STICKER_PX``: the pass,
    the crop, its corner in the frame and the scale."""
    height, width = image.shape[:2]
    corners = np.vstack([face.quad for face in found])
    (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
    margin = pad * max(x1 - x0, y1 - y0)
    left, top = int(max(0, x0 - margin)), int(max(0, y0 - margin))
    right, bottom = int(min(width, x1 + margin + 1)), int(min(height, y1 + margin + 1))
    crop = image[top:bottom, left:right]
    cell_px = cell_width(found[0].centers) if cell_px is None else cell_px
    scale = min(CUBE_CROP_MAX_SCALE, CUBE_CROP_STICKER_PX / max(cell_px, 1.0))
    lab = working_lab(crop, scale)
    regions = find_regions(lab, max_elongation=TURNED_MAX_ELONGATION)
    return _pass_at(lab, regions), crop, (float(left), float(top)), scale


def _inside_any(points: np.ndarray, quads: list[np.ndarray]) -> np.ndarray:
    """Which points (K, 2) lie inside any of the convex quads (each (4, 2), either turn)."""
    inside = np.zeros(len(points), bool)
    for quad in quads:
        edges = np.roll(quad, -1, axis=0) - quad
        rel = points[:, None, :] - quad[None]
        cross = edges[None, :, 0] * rel[..., 1] - edges[None, :, 1] * rel[..., 0]
        inside |= (cross >= 0).all(axis=1) | (cross <= 0).all(axis=1)
    return inside


def join_faces(faces: list[FaceDetection]) -> FacesInView:
    """How faces found in one frame join: which share an edge, where three meet, and which
    are one cube's.

    Parameters
    ----------
    faces
        The faces, best first.

    Returns
    -------
    FacesInView
        The faces with their links, corners and cubes.

    Examples
    --------
    >>> from cubescan.scanner.grid.face import make_detection
    >>> left = make_detection(np.diag([30.0, 30.0, 1.0]), 3, np.ones((3, 3)))
    >>> right = make_detection(np.array([[30.0, 0, 90], [0, 30, 0], [0, 0, 1]]), 3, np.ones((3, 3)))
    >>> view = join_faces([left, right])
    >>> [SIDES[side] for side in view.links[0].sides], view.links[0].left, view.cubes
    (['right', 'left'], 0, ((0, 1),))
    """
    links = []
    widths = [cell_width(face.centers) for face in faces]
    for i in range(len(faces)):
        for j in range(i + 1, len(faces)):
            link = _shared_edge(faces, widths, i, j)
            if link is not None:
                links.append(link)
    corners = _corners(faces, links)
    return FacesInView(
        tuple(faces),
        tuple(float(np.mean(face.confidence)) for face in faces),
        tuple(links),
        tuple(corners),
        _components(len(faces), links),
    )


def _shared_edge(
    faces: list[FaceDetection], widths: list[float], i: int, j: int
) -> FaceLink | None:
    """The link between faces i and j (of cell widths ``widths``) when a side of one lies on
    a side of the other."""
    first, second = faces[i], faces[j]
    if first.size != second.size:
        return None
    tolerance = LINK_TOLERANCE * min(widths[i], widths[j])
    # Every side of one against every side of the other ([side_a, side_b]). Both quads run
    # clockwise in the image: a shared side runs opposite ways, a0 onto b1 and a1 onto b0.
    a0, a1 = first.quad[:, None], np.roll(first.quad, -1, axis=0)[:, None]
    b0, b1 = second.quad[None], np.roll(second.quad, -1, axis=0)[None]
    miss = np.maximum(np.linalg.norm(a0 - b1, axis=-1), np.linalg.norm(a1 - b0, axis=-1))
    side_a, side_b = np.unravel_index(np.argmin(miss), miss.shape)
    if not miss[side_a, side_b] < tolerance:
        return None
    edge = np.array([(a0[side_a, 0] + b1[0, side_b]) / 2, (a1[side_a, 0] + b0[0, side_b]) / 2])
    return FaceLink((i, j), (int(side_a), int(side_b)), edge)


def _corners(faces: list[FaceDetection], links: list[FaceLink]) -> list[CubeCorner]:
    """The corners where three pairwise linked faces meet."""
    pairs = {link.faces: link for link in links}
    corners = []
    for i, j, k in _triangles(len(faces), pairs):
        # The cube's corner is the end the three shared edges have in common.
        ends = [pairs[(i, j)].edge, pairs[(i, k)].edge, pairs[(j, k)].edge]
        common = min(
            ((a, b, c) for a in range(2) for b in range(2) for c in range(2)),
            key=lambda abc: _spread([ends[0][abc[0]], ends[1][abc[1]], ends[2][abc[2]]]),
        )
        point = np.mean([ends[n][common[n]] for n in range(3)], axis=0)
        which = tuple(
            int(np.argmin(np.linalg.norm(faces[f].quad - point, axis=1))) for f in (i, j, k)
        )
        corners.append(CubeCorner((i, j, k), which, point))
    return corners


def _triangles(count: int, pairs: dict[tuple[int, int], FaceLink]) -> list[tuple[int, int, int]]:
    """Every three faces (ascending) pairwise linked."""
    return [
        (i, j, k)
        for i in range(count)
        for j in range(i + 1, count)
        for k in range(j + 1, count)
        if (i, j) in pairs and (i, k) in pairs and (j, k) in pairs
    ]


def _spread(points: list[np.ndarray]) -> float:
    """The largest distance of some points from their mean."""
    array = np.array(points)
    return float(np.linalg.norm(array - array.mean(axis=0), axis=1).max())


def _components(count: int, links: list[FaceLink]) -> tuple[tuple[int, ...], ...]:
    """The faces grouped by links (each group ascending, groups by their first face)."""
    owner = list(range(count))

    def root(index: int) -> int:
        while owner[index] != index:
            index = owner[index]
        return index

    for link in links:
        a, b = (root(f) for f in link.faces)
        owner[max(a, b)] = min(a, b)
    groups: dict[int, list[int]] = {}
    for index in range(count):
        groups.setdefault(root(index), []).append(index)
    return tuple(tuple(group) for _, group in sorted(groups.items()))
