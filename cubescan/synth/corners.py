"""Corner views: one cube seen around a corner, two or three faces in view, with exact truth
per face (which face of the cube, its cells, its facelets).

:func:`random_corner_spec` draws the pose (the camera looks at one of the cube's eight corners,
or along one of the edges that meet there) and the look; :func:`render_corner_view` renders it
with :func:`~cubescan.synth.scenes.render_scene` and returns a :class:`CornerTruth` beside the
image: every face turned towards the camera, most frontal first, each with its cell centres and
corners in the image, its colours, the indices of its facelets in the cube's facelet string,
and how wide its stickers are in pixels (the narrower way, as the camera sees them).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from cubescan.synth.raster import warp_points
from cubescan.synth.scenes import _face_homography, _project, render_scene
from cubescan.synth.specs import (
    FACE_ORDER,
    RESOLUTIONS,
    SCENE_LIGHTS,
    STANDARD_SCHEME,
    SceneSpec,
    random_scene_spec,
)


@dataclass(frozen=True)
class FaceTruth:
    """One face of the cube as a corner view shows it.

    Attributes
    ----------
    face
        The face's letter (``URFDLB``).
    centers
        ``(N, N, 2)`` sticker centres in image pixels, in the net's row order.
    corners
        ``(4, 2)`` the face's corners in the net's order (top-left, top-right, bottom-right,
        bottom-left), image pixels.
    colors
        ``N*N`` colour letters in the net's row order.
    facelets
        The ``N*N`` indices of its stickers in the cube's facelet string, net row-major.
    sticker_px
        How wide its stickers are in the image the narrower way (each sticker's area over its
        longer side; median over its cells).
    """

    face: str
    centers: np.ndarray
    corners: np.ndarray
    colors: str
    facelets: tuple[int, ...]
    sticker_px: float


@dataclass(frozen=True)
class CornerTruth:
    """Exact truth of a corner view.

    Attributes
    ----------
    size
        Cube size N.
    faces
        Every face turned towards the camera, most frontal first.
    """

    size: int
    faces: tuple[FaceTruth, ...]

    def face(self, letter: str) -> FaceTruth:
        """The truth of one face in view.

        Parameters
        ----------
        letter
            Its letter (``URFDLB``).

        Returns
        -------
        FaceTruth
            That face.

        Raises
        ------
        KeyError
            When the face is not in view.

        Examples
        --------
        >>> spec = random_corner_spec(np.random.default_rng(0), 3, faces=3)
        >>> _, truth = render_corner_view(spec)
        >>> truth.face(truth.faces[0].face) is truth.faces[0]
        True
        """
        for face in self.faces:
            if face.face == letter:
                return face
        raise KeyError(letter)

    def shared_edge(self, first: str, second: str) -> np.ndarray:
        """The image points where two faces in view meet: their cube edge's two ends.

        Parameters
        ----------
        first, second
            The faces' letters (adjacent faces, both in view).

        Returns
        -------
        numpy.ndarray
            ``(2, 2)`` the corners both faces have (within a thousandth of a pixel).

        Examples
        --------
        >>> spec = random_corner_spec(np.random.default_rng(0), 3, faces=3)
        >>> _, truth = render_corner_view(spec)
        >>> a, b = truth.faces[0].face, truth.faces[1].face
        >>> truth.shared_edge(a, b).shape
        (2, 2)
        """
        a, b = self.face(first).corners, self.face(second).corners
        close = np.linalg.norm(a[:, None] - b[None], axis=-1) < 1e-3
        return a[close.any(axis=1)]


_CORNER_SIGNS = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
_AXIS_OF_FACE = {"R": (0, 1), "L": (0, -1), "U": (1, 1), "D": (1, -1), "F": (2, 1), "B": (2, -1)}
"""Each face's outward normal in cube space: (axis, sign); x right, y up, z front."""


def _look_at(toward_camera: np.ndarray, up: np.ndarray, roll_deg: float) -> np.ndarray:
    """Rotation cube -> camera with ``toward_camera`` (cube space) pointing at the camera and
    ``up`` as near image up as it can be, then turned by ``roll_deg`` in the image."""
    forward = -toward_camera / np.linalg.norm(toward_camera)  # the camera's z axis
    down = -(up - (up @ forward) * forward)
    down /= np.linalg.norm(down)
    right = np.cross(down, forward)
    view = np.stack([right, down, forward])
    angle = np.radians(roll_deg)
    roll = np.array(
        [[np.cos(angle), -np.sin(angle), 0], [np.sin(angle), np.cos(angle), 0], [0, 0, 1.0]]
    )
    return roll @ view


def _inside(spec: SceneSpec) -> bool:
    """True when the whole cube projects inside the frame."""
    corners = _CORNER_SIGNS * spec.size / 2
    points = _project(corners, spec)
    return bool((points >= 0).all() and (points < [spec.width, spec.height]).all())


def random_corner_spec(
    rng: np.random.Generator,
    size: int | None = None,
    *,
    faces: int | None = None,
    resolution: tuple[int, int] | None = None,
    scale_range: tuple[float, float] = (0.35, 0.9),
    corner: tuple[int, int, int] | None = None,
    edge: tuple[str, str] | None = None,
) -> SceneSpec:
    """Draw a corner view: the camera looks at one corner of the cube (three faces in view)
    or along one of its edges (two faces, the third at most grazed).

    The look (style, palette, gaps, light, blur, noise, JPEG) is drawn as
    :func:`~cubescan.synth.specs.random_scene_spec` draws it without occluders or glare (their
    truth is for one face only).

    Parameters
    ----------
    rng
        Random generator (the spec is a pure function of its state).
    size
        Cube size N, or None for a random one in 2..7.
    faces
        2 or 3 faces in view, or None for either.
    resolution
        ``(width, height)``, or None for one of :data:`~cubescan.synth.specs.RESOLUTIONS`.
    scale_range
        Range of the whole cube's width in the image, a fraction of the shorter image side.
    corner
        The corner looked at, as the signs of its x, y, z (x right, y up, z front: ``(1, 1,
        1)`` is URF); None for a random one.
    edge
        Two adjacent faces (``("U", "F")``) to look at along their shared edge: two faces
        in view, whatever ``faces`` and ``corner`` say.

    Returns
    -------
    SceneSpec
        Render it with :func:`render_corner_view`.

    Examples
    --------
    >>> spec = random_corner_spec(np.random.default_rng(1), 4, faces=2, resolution=(640, 480))
    >>> spec.size, spec.width, spec.glare, spec.occluder
    (4, 640, None, None)
    """
    size = int(rng.integers(2, 8)) if size is None else size
    if edge is not None:
        faces = 2
    faces = int(rng.integers(2, 4)) if faces is None else faces
    width, height = resolution if resolution else RESOLUTIONS[rng.integers(len(RESOLUTIONS))]
    looks = random_scene_spec(rng, size, resolution=(int(width), int(height)))
    signs = _CORNER_SIGNS[rng.integers(len(_CORNER_SIGNS))]
    if corner is not None:
        signs = np.array(corner, dtype=float)
    order = rng.permutation(3)
    if edge is not None:
        signs, order = _edge_corner(edge, signs, order)
    axes = np.eye(3) * signs  # the three face normals at the corner
    if faces == 3:
        weights = rng.uniform(0.5, 1.0, 3)
    else:  # along an edge: the third face at most grazed
        weights = np.array([*rng.uniform(0.6, 1.0, 2), rng.uniform(-0.4, 0.05)])
    toward_camera = weights[order] @ axes
    up = axes[order[int(rng.integers(3))]]
    roll = float(rng.uniform(-40, 40)) if rng.random() < 0.8 else float(rng.uniform(-180, 180))
    rotation = _look_at(toward_camera, up, roll)
    focal = float(rng.uniform(0.8, 1.6) * max(width, height))
    short = min(width, height)
    spec = looks
    for _ in range(30):
        cube_px = rng.uniform(*scale_range) * short
        distance = focal * size * 1.6 / cube_px
        margin = max(0.0, (short - cube_px) / 2.0) * distance / focal
        center = (
            float(rng.uniform(-margin, margin) * width / short),
            float(rng.uniform(-margin, margin)),
            float(distance),
        )
        spec = replace(
            looks,
            rotation=tuple(tuple(float(x) for x in row) for row in rotation),
            center=center,
            focal=focal,
            light=SCENE_LIGHTS[int(rng.integers(len(SCENE_LIGHTS)))],
            glare=None,
            occluder=None,
        )
        if _inside(spec):
            break
    return spec


def _edge_corner(
    edge: tuple[str, str], signs: np.ndarray, order: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The corner signs, and the order (axis k takes the k-th weight toward the camera; the
    last weight grazes), that put ``edge``'s two faces in view; the rest as drawn."""
    (axis_a, sign_a), (axis_b, sign_b) = (_AXIS_OF_FACE[letter] for letter in edge)
    if axis_a == axis_b:
        raise ValueError(f"faces {edge[0]} and {edge[1]} are opposite: they share no edge")
    signs = signs.copy()
    signs[axis_a], signs[axis_b] = sign_a, sign_b
    edge_order = np.empty(3, dtype=int)
    edge_order[3 - axis_a - axis_b] = 2
    first, second = (axis_a, axis_b) if order[axis_a] < order[axis_b] else (axis_b, axis_a)
    edge_order[first], edge_order[second] = 0, 1
    return signs, edge_order


def _sticker_px(face: str, spec: SceneSpec) -> float:
    """Median over a face's cells of its sticker's narrower width in the image, px: its
    area over its longer side (a face seen edge on shows slivers, however long)."""
    homography, _ = _face_homography(face, spec)
    n = spec.size
    inset = spec.gap / 2
    rows, cols = np.divmod(np.arange(n * n), n)
    middle_u, middle_v = cols + 0.5, rows + 0.5
    ends = np.concatenate(
        [
            np.stack([cols + inset, middle_v], -1),
            np.stack([cols + 1 - inset, middle_v], -1),
            np.stack([middle_u, rows + inset], -1),
            np.stack([middle_u, rows + 1 - inset], -1),
        ]
    ).astype(float)
    points = warp_points(ends, homography).reshape(4, n * n, 2)
    across, down = points[1] - points[0], points[3] - points[2]
    area = np.abs(across[:, 0] * down[:, 1] - across[:, 1] * down[:, 0])
    longer = np.maximum(np.linalg.norm(across, axis=-1), np.linalg.norm(down, axis=-1))
    return float(np.median(area / longer))


def render_corner_view(spec: SceneSpec) -> tuple[np.ndarray, CornerTruth]:
    """Render a corner view and its truth per face.

    Parameters
    ----------
    spec
        The scene (see :func:`random_corner_spec`).

    Returns
    -------
    tuple
        ``(image, truth)``: a uint8 BGR image and a :class:`CornerTruth`.

    Examples
    --------
    >>> spec = random_corner_spec(np.random.default_rng(2), 3, faces=3, resolution=(640, 480))
    >>> image, truth = render_corner_view(spec)
    >>> image.shape, len(truth.faces), truth.faces[0].facelets[:2]  # doctest: +ELLIPSIS
    ((480, 640, 3), 3, (...))
    """
    image, scene = render_scene(spec)
    n = spec.size
    faces = []
    for letter in scene.visible_faces:
        start = FACE_ORDER.index(letter) * n * n
        faces.append(
            FaceTruth(
                face=letter,
                centers=scene.centers[letter],
                corners=scene.corners[letter],
                colors=scene.colors[letter],
                facelets=tuple(range(start, start + n * n)),
                sticker_px=_sticker_px(letter, spec),
            )
        )
    return image, CornerTruth(n, tuple(faces))


def render_cube_corners(
    facelets: str,
    rng: np.random.Generator,
    resolution: tuple[int, int] = (640, 480),
    scale_range: tuple[float, float] = (0.35, 0.9),
) -> tuple[np.ndarray, np.ndarray]:
    """Two photos of one cube, taken from opposite corners: every face is in one of them.

    Parameters
    ----------
    facelets
        The cube (face letters, facelet order); its colours are the standard scheme's.
    rng
        Random generator: the corner pair, and each photo's pose and look.
    resolution
        ``(width, height)`` of both photos.
    scale_range
        Range of the whole cube's width in each photo, a fraction of the shorter side.

    Returns
    -------
    tuple of numpy.ndarray
        The two BGR photos.

    Examples
    --------
    >>> from cubescan.solver.moves import solved_facelets
    >>> first, second = render_cube_corners(solved_facelets(2), np.random.default_rng(0))
    >>> first.shape, second.shape
    ((480, 640, 3), (480, 640, 3))
    """
    size = round((len(facelets) // 6) ** 0.5)
    colors = "".join(STANDARD_SCHEME[f] for f in facelets)
    corner = _CORNER_SIGNS[rng.integers(len(_CORNER_SIGNS))]
    images = []
    for signs in (corner, -corner):
        spec = random_corner_spec(
            rng,
            size,
            faces=3,
            resolution=resolution,
            scale_range=scale_range,
            corner=tuple(int(v) for v in signs),
        )
        images.append(render_corner_view(replace(spec, colors=colors))[0])
    return images[0], images[1]


def render_cube_edges(
    facelets: str,
    rng: np.random.Generator,
    resolution: tuple[int, int] = (640, 480),
    scale_range: tuple[float, float] = (0.35, 0.9),
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Three photos of one cube, each along an edge: two faces in each, every face in one.

    Parameters
    ----------
    facelets
        The cube (face letters, facelet order); its colours are the standard scheme's.
    rng
        Random generator: the pairs of faces, and each photo's pose and look.
    resolution
        ``(width, height)`` of the photos.
    scale_range
        Range of the whole cube's width in each photo, a fraction of the shorter side.

    Returns
    -------
    tuple of numpy.ndarray
        The three BGR photos.

    Examples
    --------
    >>> from cubescan.solver.moves import solved_facelets
    >>> photos = render_cube_edges(solved_facelets(2), np.random.default_rng(0))
    >>> len(photos), photos[0].shape
    (3, (480, 640, 3))
    """
    size = round((len(facelets) // 6) ** 0.5)
    colors = "".join(STANDARD_SCHEME[f] for f in facelets)
    while True:  # three pairs of adjacent faces (no pair opposite), at random
        letters = [str(f) for f in rng.permutation(list("URFDLB"))]
        pairs = [(letters[k], letters[k + 1]) for k in (0, 2, 4)]
        if all(_AXIS_OF_FACE[a][0] != _AXIS_OF_FACE[b][0] for a, b in pairs):
            break
    images = []
    for pair in pairs:
        spec = random_corner_spec(
            rng, size, resolution=resolution, scale_range=scale_range, edge=pair
        )
        images.append(render_corner_view(replace(spec, colors=colors))[0])
    return images[0], images[1], images[2]
