"""Photos of a cube's faces: which face each shows, and its grid and colors as read.

Photos are named by face letter (``U.jpg``, ``cube_F.png``, ``rubiks-side-R.png``) or given
in URFDLB order (:func:`order_photos`); each is searched for its face's grid, thoroughly when
the fast search misses (:func:`read_face`), and a cube's photos are read at one N
(:func:`read_cube_photos`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cubescan.errors import BadInputError
from cubescan.scanner.frames.sources import IMAGE_SUFFIXES
from cubescan.scanner.grid import detect_grid
from cubescan.scanner.sampling import sample_colors
from cubescan.scanner.sides import SideSamples, sample_sides
from cubescan.solver.geometry import FACES

# ------------------------------------------------------------------ photos


_FACE_IN_NAME = re.compile(r"(?<![A-Za-z])([URFDLB])(?![A-Za-z])")


def face_letter_of(path: Path) -> str | None:
    """The face letter a photo's file name gives, if any (``U.jpg``, ``cube_F.png``...).

    Parameters
    ----------
    path
        The photo's path; only its stem (file name without suffix) is read.

    Returns
    -------
    str or None
        One of URFDLB: a face letter that stands apart from other letters in the stem (at
        either end, or between non-letters such as ``_``, ``-``, digits); None when there
        is none, or when the stem gives two different letters.

    Examples
    --------
    >>> face_letter_of(Path("rubiks-side-R.png")), face_letter_of(Path("photo3.jpg"))
    ('R', None)
    >>> face_letter_of(Path("U-R.png")), face_letter_of(Path("cube_F_2.jpg"))  # two, or one
    (None, 'F')
    """
    found = _FACE_IN_NAME.findall(path.stem)
    return found[-1] if len(set(found)) == 1 else None


def list_photos(paths: Sequence[Path]) -> list[Path]:
    """The photo files given: the paths themselves, or a single folder's images.

    Parameters
    ----------
    paths
        Image files, or a single folder (its files with an image suffix,
        :data:`cubescan.scanner.frames.sources.IMAGE_SUFFIXES`, sorted by name, are taken).

    Returns
    -------
    list of pathlib.Path

    Raises
    ------
    BadInputError
        A path that does not exist.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     for name in ("b.jpg", "a.png", "notes.txt"):
    ...         (Path(folder) / name).touch()
    ...     [path.name for path in list_photos([Path(folder)])]
    ['a.png', 'b.jpg']
    """
    for path in paths:
        if not path.exists():
            raise BadInputError("bad-path", f"{path} does not exist")
    if len(paths) == 1 and paths[0].is_dir():
        return sorted(p for p in paths[0].iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    return list(paths)


def order_photos(paths: Sequence[Path]) -> list[Path]:
    """Six photo paths in URFDLB order when their names say the face, else as given.

    A single folder is expanded to the images in it.

    Parameters
    ----------
    paths
        Six image files, or a single folder (its files with an image suffix,
        :data:`cubescan.scanner.frames.sources.IMAGE_SUFFIXES`, sorted by name, are taken).

    Returns
    -------
    list of pathlib.Path
        Sorted into URFDLB order when :func:`face_letter_of` gives all six faces, one
        each; otherwise in the order given (or listed, for a folder).

    Raises
    ------
    BadInputError
        A path that does not exist, or not six images. (Names that give a face twice, or
        not all six, leave the photos in the order given: the faces are told apart by their
        colours.)

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     for face in "BDFLRU":
    ...         (Path(folder) / f"cube_{face}.jpg").touch()
    ...     [path.name for path in order_photos([Path(folder)])]
    ['cube_U.jpg', 'cube_R.jpg', 'cube_F.jpg', 'cube_D.jpg', 'cube_L.jpg', 'cube_B.jpg']
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     photos = [Path(folder) / f"img{k}.png" for k in (3, 1, 2, 0, 4, 5)]
    ...     _ = [photo.touch() for photo in photos]
    ...     [p.name for p in order_photos(photos)]  # names without faces: as given
    ['img3.png', 'img1.png', 'img2.png', 'img0.png', 'img4.png', 'img5.png']
    """
    paths = list_photos(paths)
    if len(paths) != 6:
        listed = ", ".join(p.name for p in paths) or "none"
        raise BadInputError(
            "missing-face",
            f"a cube needs six face photos, found {len(paths)} ({listed}): give a folder with "
            "six images or six image files",
        )
    letters = [face_letter_of(p) for p in paths]
    if all(letters) and len(set(letters)) == 6:
        return sorted(paths, key=lambda p: FACES.index(face_letter_of(p)))
    return list(paths)


@dataclass(frozen=True, eq=False)
class FacePhoto:
    """One photo read: the image, where the face's cells are, their colour samples, and
    the colours seen beside the face (``sides``, :func:`cubescan.scanner.sides.sample_sides`)."""

    source: str
    image: np.ndarray
    cells: np.ndarray
    lab: np.ndarray
    confidence: np.ndarray
    sides: SideSamples | None = None


def read_face(
    image: np.ndarray, source: str, size: int | None = None, *, thorough: bool = True
) -> FacePhoto:
    """Find the face's grid in a photo and sample each sticker's colour.

    A photo is taken to show a face, so by default the detector's thorough search runs
    when its fast one finds nothing (see :func:`cubescan.scanner.grid.detect_grid`).

    Parameters
    ----------
    image
        The photo (BGR ``uint8``, (height, width, 3); grayscale and BGRA accepted).
    source
        The photo's name, for the result and error messages.
    size
        N, when known (detected otherwise).
    thorough
        Run the detector's thorough search when the fast one finds nothing.

    Returns
    -------
    FacePhoto
        ``image`` as given, ``cells`` (N*N, 4, 2) cell outlines in pixels, ``lab`` (N*N, 3)
        CIELAB samples and ``confidence`` (N*N,) per cell, all row-major as the photo
        shows the face, and ``sides``, the colours seen beside the face.

    Raises
    ------
    BadInputError
        When no cube face is found in the photo.

    Examples
    --------
    >>> from cubescan.synth.specs import random_scene_spec
    >>> from cubescan.synth.scenes import render_scene
    >>> spec = random_scene_spec(np.random.default_rng(3), 3, resolution=(320, 240), hard=False)
    >>> photo = read_face(render_scene(spec)[0], "U.png")
    >>> photo.lab.shape, photo.cells.shape, photo.sides.lab.shape
    ((9, 3), (9, 4, 2), (4, 3, 3))
    >>> read_face(np.full((120, 160, 3), (40, 90, 160), np.uint8), "table.png")
    Traceback (most recent call last):
    ...
    cubescan.errors.BadInputError: table.png: no cube face found; the face should fill ...
    """
    try:
        detection = detect_grid(image, size, thorough=thorough)
    except BadInputError as err:  # say which photo
        raise BadInputError(err.code, f"{source}: {err.message}") from None
    if detection is None:
        if is_greyscale(image) and float(image.std()) > 4.0:  # grey, yet it shows something
            raise BadInputError(
                "no-color",
                f"{source} is a greyscale photo: a cube's colours cannot be read from it; "
                "take the photo in colour",
            )
        raise BadInputError("no-face", f"{source}: no cube face found; {_NO_FACE_ADVICE}")
    samples = sample_colors(image, detection)
    sides = sample_sides(image, detection)
    return FacePhoto(source, image, detection.cells, samples.lab, detection.confidence, sides)


def is_greyscale(image: np.ndarray) -> bool:
    """Whether a photo holds no colour at all (one channel, or three equal ones).

    Parameters
    ----------
    image
        The photo: (height, width) or (height, width, channels).

    Returns
    -------
    bool
        True when every pixel is a shade of grey (within a JPEG's rounding).

    Examples
    --------
    >>> is_greyscale(np.full((4, 4, 3), 120, np.uint8)), is_greyscale(np.zeros((4, 4), np.uint8))
    (True, True)
    >>> is_greyscale(np.dstack([np.zeros((4, 4)), np.zeros((4, 4)), np.full((4, 4), 200)]))
    False
    """
    if image.ndim == 2 or image.shape[2] == 1:
        return True
    bgr = image[..., :3].astype(np.int16)
    return int(np.abs(bgr - bgr.mean(axis=2, keepdims=True)).max()) <= 3


_NO_FACE_ADVICE = (
    "the face should fill a good part of the photo, in focus, with all its stickers visible"
)


def _try_face(image: np.ndarray, source: str, size: int | None) -> FacePhoto | None:
    # The fast search only: a photo it misses is read again, thoroughly, once N is known.
    try:
        return read_face(image, source, size, thorough=False)
    except BadInputError as err:
        if err.code != "no-face":
            raise
        return None


def _majority_size(photos: Sequence[FacePhoto]) -> int:
    sizes = Counter(round(len(p.lab) ** 0.5) for p in photos)
    return sizes.most_common(1)[0][0]


def read_cube_photos(
    images: Sequence[np.ndarray], sources: Sequence[str], size: int | None = None
) -> list[FacePhoto]:
    """Find the face in each of a cube's six photos and sample its stickers.

    The photos of one cube help each other: when ``size`` is not given, the N that most
    photos show is the cube's, and a photo where no face (or a face of another N) was
    found is read again knowing N, which lets the detector accept more (a stray match
    beside the face, a row hidden by a finger).

    Parameters
    ----------
    images
        The photos (BGR), one face each.
    sources
        A name per photo, for error messages.
    size
        N, when known.

    Returns
    -------
    list of FacePhoto
        In the order of ``images``, all of one N.

    Raises
    ------
    BadInputError
        ``no-face``: no face in any photo, or in one photo even knowing N (named).

    Examples
    --------
    >>> from cubescan.synth.specs import random_scene_spec
    >>> from cubescan.synth.scenes import render_scene
    >>> rng = np.random.default_rng(3)
    >>> image = render_scene(random_scene_spec(rng, 3, resolution=(640, 480), hard=False))[0]
    >>> [len(p.lab) for p in read_cube_photos([image], ["U.png"])]
    [9]
    """
    found = [_try_face(image, source, size) for image, source in zip(images, sources, strict=True)]
    seen = [photo for photo in found if photo is not None]
    if not seen:
        raise BadInputError(
            "no-face", "no cube face was found in any of the photos: " + _NO_FACE_ADVICE
        )
    common = size or _majority_size(seen)
    return [
        photo
        if photo is not None and len(photo.lab) == common * common
        else read_face(image, source, common)
        for photo, image, source in zip(found, images, sources, strict=True)
    ]
