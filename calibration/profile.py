"""Colour profiles: what each sticker colour looks like to one camera, under one light.

A profile holds, per cube colour, the mean and covariance of its CIELAB readings plus the
white point (the mean reading of the white stickers, i.e. the light's colour as this camera
sees it). It is learned from any scan whose state is known (a solved cube, or a scanned cube
that validated) and stored as versioned JSON in the user's config directory::

    <user_config_dir("cubescan")>/profiles/<NAME>.json

Writes are atomic (temporary file + rename). A corrupt file, or one written by another
format version, raises :class:`~cubescan.errors.BadInputError` naming the file; it is never
silently replaced.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
from platformdirs import user_config_dir

from cubescan.errors import BadInputError

FORMAT = "cubescan-profile"
VERSION = 1
FACES = "URFDLB"
_NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
# Covariance floor (ΔE^2): a handful of samples must not make a colour look razor-thin.
_MIN_VARIANCE = 4.0
_STANDARD_NAME_OF_FACE = {
    "U": "white",
    "R": "red",
    "F": "green",
    "D": "yellow",
    "L": "orange",
    "B": "blue",
}


@dataclass(frozen=True, eq=False)
class Profile:
    """A colour profile for one camera, light and cube.

    Parameters
    ----------
    name
        Profile name (letters, digits, ``_.-``; used as the file name).
    names
        The six colour names.
    faces
        Face letter (URFDLB) each colour belonged to in the scan it was learned from.
    means
        Array (6, 3): mean CIELAB reading of each colour.
    covariances
        Array (6, 3, 3): covariance of each colour's readings (floored, positive definite).
    white
        CIELAB white point: the reading of the white (or least chromatic) colour.
    samples
        Number of sticker readings the profile was learned from.
    created
        ISO 8601 creation time (UTC).
    """

    name: str
    names: tuple[str, ...]
    faces: tuple[str, ...]
    means: np.ndarray
    covariances: np.ndarray
    white: tuple[float, float, float]
    samples: int
    created: str

    @classmethod
    def from_means(
        cls,
        name: str,
        names: tuple[str, ...],
        means: np.ndarray,
        spread: float = 4.0,
        faces: str = FACES,
    ) -> Profile:
        """Build a profile from colour means alone, with isotropic spread ``spread`` ΔE.

        Parameters
        ----------
        name
            Profile name.
        names
            Six colour names.
        means
            Array (6, 3) of CIELAB means.
        spread
            Standard deviation (ΔE) used for every colour.
        faces
            Face letter of each colour.

        Returns
        -------
        Profile
            The profile.

        Examples
        --------
        >>> from cubescan.calibration.palette import PALETTE_LAB, PALETTE_NAMES
        >>> p = Profile.from_means("demo", PALETTE_NAMES, PALETTE_LAB)
        >>> p.covariances.shape
        (6, 3, 3)
        """
        check_profile_name(name)
        means = np.asarray(means, dtype=np.float64).reshape(6, 3)
        covariances = np.repeat((spread**2 * np.eye(3))[None], 6, axis=0)
        return cls(
            name=name,
            names=tuple(names),
            faces=tuple(faces),
            means=means,
            covariances=covariances,
            white=_white_point(tuple(names), means),
            samples=0,
            created=_now(),
        )


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def _white_point(names: tuple[str, ...], means: np.ndarray) -> tuple[float, float, float]:
    if "white" in names:
        white = means[names.index("white")]
    else:
        white = means[int(np.argmin(np.hypot(means[:, 1], means[:, 2]) - 0.1 * means[:, 0]))]
    return (float(white[0]), float(white[1]), float(white[2]))


MIN_WHITE_LIGHTNESS = 15.0
"""Darkest white point (CIELAB L) a profile may have: a darker one was learned in the dark."""

MIN_COLOR_OVERLAP = 1.0
"""Fewest standard deviations (of its own spread) a color's mean must lie from every other
color's: closer, and the two overlap (the scan's faces were not each one color)."""


def check_profile_colors(
    names: tuple[str, ...],
    means: np.ndarray,
    covariances: np.ndarray,
    white: tuple[float, float, float],
    where: str,
) -> None:
    """Refuse a profile whose six colors are not six distinct colors with a plausible white.

    A profile learned from a scan of the wrong state, of random or all-grey readings, or in
    the dark would make every later reading with it wrong (a scrambled cube read as solved).

    Parameters
    ----------
    names
        The six color names.
    means
        (6, 3) CIELAB mean of each color.
    covariances
        (6, 3, 3) covariance of each color's readings.
    white
        The profile's CIELAB white point.
    where
        What the profile came from, for the message (a file, "the scan").

    Returns
    -------
    None

    Raises
    ------
    BadInputError
        ``bad-profile``, naming the two colors that overlap or the white that is too dark.

    Examples
    --------
    >>> grey = np.full((6, 3), [50.0, 0.0, 0.0])
    >>> check_profile_colors(tuple("abcdef"), grey, np.tile(np.eye(3), (6, 1, 1)), (50, 0, 0), "x")
    Traceback (most recent call last):
    ...
    cubescan.errors.BadInputError: x: colours 'a' and 'b' overlap ...
    """
    if white[0] < MIN_WHITE_LIGHTNESS:
        raise BadInputError(
            "bad-profile",
            f"{where}: the white point is nearly black (L {white[0]:.1f}): the scan was too "
            "dark to learn colours from; calibrate again in better light",
        )
    for i in range(6):
        inverse = np.linalg.inv(covariances[i])
        for j in range(6):
            if i == j:
                continue
            diff = means[j] - means[i]
            if float(np.sqrt(diff @ inverse @ diff)) < MIN_COLOR_OVERLAP:
                raise BadInputError(
                    "bad-profile",
                    f"{where}: colours {names[min(i, j)]!r} and {names[max(i, j)]!r} overlap "
                    "(each face of the scan should show one colour): calibrate from a scan of "
                    "the cube in the state given, in the light it will be used in",
                )


def check_profile_name(name: str) -> str:
    """Check that ``name`` is usable as a profile (and file) name.

    Parameters
    ----------
    name
        Proposed profile name.

    Returns
    -------
    str
        The name, unchanged.

    Raises
    ------
    BadInputError
        The name is empty, too long, or contains characters other than letters, digits,
        ``_``, ``.`` and ``-`` (so it can never escape the profiles folder).

    Examples
    --------
    >>> check_profile_name("desk-lamp")
    'desk-lamp'
    """
    if not isinstance(name, str) or not _NAME_PATTERN.match(name):
        raise BadInputError(
            "bad-profile",
            f"invalid profile name {name!r}: use 1-64 letters, digits, '_', '.' or '-', "
            "starting with a letter or digit",
        )
    return name


def learn_profile(
    name: str,
    lab_samples: np.ndarray,
    facelets: str,
    color_names: dict[str, str] | None = None,
) -> Profile:
    """Learn a profile from a scan whose state is known.

    Parameters
    ----------
    name
        Profile name.
    lab_samples
        Array (6*N*N, 3) of CIELAB readings in facelet order.
    facelets
        The true facelet string (6*N*N letters URFDLB) of the scanned cube, e.g. a solved
        cube or a scan that validated.
    color_names
        Face letter -> colour name; the standard scheme (U white, R red, F green, D yellow,
        L orange, B blue) by default.

    Returns
    -------
    Profile
        Means and (floored) covariances per colour, white point, sample count.

    Raises
    ------
    BadInputError
        Samples and facelets disagree in length, or a face letter has fewer than two samples.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> six = [[85, 0, 0], [42, 56, 28], [54, -50, 32], [82, -6, 75], [58, 40, 52], [36, 12, -50]]
    >>> lab = np.repeat(np.array(six, float), 9, axis=0) + rng.normal(0, 1, (54, 3))
    >>> p = learn_profile("demo", lab, "".join(f * 9 for f in "URFDLB"))
    >>> p.names[0], p.samples
    ('white', 54)
    """
    check_profile_name(name)
    lab = np.asarray(lab_samples, dtype=np.float64)
    if lab.ndim != 2 or lab.shape[1] != 3 or not np.isfinite(lab).all():
        raise BadInputError("bad-format", "profile samples must be finite Lab of shape (n, 3)")
    if len(facelets) != lab.shape[0]:
        raise BadInputError(
            "bad-format",
            f"{lab.shape[0]} colour samples but {len(facelets)} facelet letters",
        )
    names_of = dict(_STANDARD_NAME_OF_FACE if color_names is None else color_names)
    letters = np.array(list(facelets))
    means = np.empty((6, 3))
    covariances = np.empty((6, 3, 3))
    for k, face in enumerate(FACES):
        member = lab[letters == face]
        if member.shape[0] < 2:
            raise BadInputError(
                "bad-format", f"face {face} has {member.shape[0]} stickers; need at least 2"
            )
        means[k] = member.mean(axis=0)
        covariances[k] = np.cov(member.T) + _MIN_VARIANCE * np.eye(3)
    names = tuple(names_of[face] for face in FACES)
    white = _white_point(names, means)
    check_profile_colors(names, means, covariances, white, "the scan")
    return Profile(
        name=name,
        names=names,
        faces=tuple(FACES),
        means=means,
        covariances=covariances,
        white=white,
        samples=int(lab.shape[0]),
        created=_now(),
    )


def profile_to_json(profile: Profile) -> dict:
    """Serialise a profile to a JSON-ready dict (the versioned file format).

    Parameters
    ----------
    profile
        The profile.

    Returns
    -------
    dict
        ``{"format": "cubescan-profile", "version": 1, "name": ..., "colors": [...], ...}``.

    Examples
    --------
    >>> from cubescan.calibration.palette import PALETTE_LAB, PALETTE_NAMES
    >>> p = Profile.from_means("demo", PALETTE_NAMES, PALETTE_LAB)
    >>> profile_to_json(p)["version"]
    1
    """
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": profile.name,
        "created": profile.created,
        "samples": profile.samples,
        "white": list(profile.white),
        "colors": [
            {
                "name": profile.names[k],
                "face": profile.faces[k],
                "mean": profile.means[k].tolist(),
                "covariance": profile.covariances[k].tolist(),
            }
            for k in range(len(profile.names))
        ],
    }


def profile_from_json(data: object, where: str = "profile") -> Profile:
    """Parse and check a profile dict (inverse of :func:`profile_to_json`).

    Parameters
    ----------
    data
        Parsed JSON.
    where
        What to call the source in error messages (e.g. the file path).

    Returns
    -------
    Profile
        The profile.

    Raises
    ------
    BadInputError
        Not a cubescan profile, another format version, or malformed fields.

    Examples
    --------
    >>> from cubescan.calibration.palette import PALETTE_LAB, PALETTE_NAMES
    >>> p = Profile.from_means("demo", PALETTE_NAMES, PALETTE_LAB)
    >>> profile_from_json(profile_to_json(p)).name
    'demo'
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadInputError("bad-profile", f"{where} is not a cubescan colour profile")
    if data.get("version") != VERSION:
        raise BadInputError(
            "bad-profile",
            f"{where} has profile format version {data.get('version')!r}; this cubescan "
            f"reads version {VERSION}. Re-learn it with `cubescan calibrate`.",
        )
    try:
        colors = data["colors"]
        if not isinstance(colors, list) or len(colors) != 6:
            raise ValueError("expected 6 colours")
        means = np.array([c["mean"] for c in colors], dtype=np.float64).reshape(6, 3)
        covariances = np.array([c["covariance"] for c in colors], dtype=np.float64)
        covariances = covariances.reshape(6, 3, 3)
        names = tuple(str(c["name"]) for c in colors)
        faces = tuple(str(c["face"]) for c in colors)
        white = tuple(float(v) for v in data["white"])
        if len(white) != 3:
            raise ValueError("white point needs 3 values")
        if sorted(faces) != sorted(FACES) or len(set(names)) != 6:
            raise ValueError("colours need distinct names and the faces URFDLB")
        if not (np.isfinite(means).all() and np.isfinite(covariances).all()):
            raise ValueError("non-finite numbers")
        if np.any(np.linalg.eigvalsh(covariances) <= 0):
            raise ValueError("covariances must be positive definite")
        check_profile_colors(names, means, covariances, white, where)
        profile = Profile(
            name=check_profile_name(str(data["name"])),
            names=names,
            faces=faces,
            means=means,
            covariances=covariances,
            white=(white[0], white[1], white[2]),
            samples=int(data.get("samples", 0)),
            created=str(data.get("created", "")),
        )
    except (KeyError, TypeError, ValueError) as err:
        raise BadInputError("bad-profile", f"{where} is a corrupt colour profile: {err}") from None
    return profile


def profiles_dir() -> Path:
    """Folder holding the user's profiles: ``user_config_dir("cubescan")/profiles``.

    Returns
    -------
    pathlib.Path
        The folder (not created).

    Examples
    --------
    >>> profiles_dir().name
    'profiles'
    """
    return Path(user_config_dir("cubescan")) / "profiles"


def _path(name: str, directory: Path | None) -> Path:
    return (profiles_dir() if directory is None else Path(directory)) / (
        check_profile_name(name) + ".json"
    )


def load_profile(name: str, directory: Path | None = None) -> Profile:
    """Load the profile called ``name``.

    Parameters
    ----------
    name
        Profile name.
    directory
        Profiles folder; :func:`profiles_dir` by default.

    Returns
    -------
    Profile
        The stored profile.

    Raises
    ------
    BadInputError
        No such profile, unreadable/corrupt JSON, or another format version.

    Examples
    --------
    >>> import tempfile
    >>> from cubescan.calibration.palette import PALETTE_LAB, PALETTE_NAMES
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     p = Profile.from_means("demo", PALETTE_NAMES, PALETTE_LAB)
    ...     _ = save_profile(p, folder)
    ...     load_profile("demo", folder).names[0]
    'white'
    """
    path = _path(name, directory)
    if not path.is_file():
        known = ", ".join(list_profiles(directory)) or "none"
        raise BadInputError(
            "bad-profile", f"no colour profile named {name!r} in {path.parent} (known: {known})"
        )
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeError, json.JSONDecodeError) as err:
        raise BadInputError("bad-profile", f"{path} is not readable JSON: {err}") from None
    return profile_from_json(data, str(path))


def save_profile(profile: Profile, directory: Path | None = None, overwrite: bool = False) -> Path:
    """Store a profile atomically as ``NAME.json``.

    Parameters
    ----------
    profile
        The profile.
    directory
        Profiles folder; :func:`profiles_dir` by default (created when missing).
    overwrite
        Replace an existing valid profile of the same name. A corrupt or other-version file
        is never replaced: delete it explicitly first.

    Returns
    -------
    pathlib.Path
        The written file.

    Raises
    ------
    BadInputError
        The profile exists (and ``overwrite`` is false), or the existing file is corrupt.

    Examples
    --------
    >>> import tempfile
    >>> from cubescan.calibration.palette import PALETTE_LAB, PALETTE_NAMES
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     p = Profile.from_means("demo", PALETTE_NAMES, PALETTE_LAB)
    ...     save_profile(p, folder).name
    'demo.json'
    """
    path = _path(profile.name, directory)
    if path.exists():
        load_profile(profile.name, directory)
        if not overwrite:
            raise BadInputError(
                "bad-profile",
                f"a profile named {profile.name!r} already exists ({path}); "
                "choose another name or allow overwriting",
            )
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(profile_to_json(profile), indent=2)
    handle, temp = tempfile.mkstemp(prefix=f".{profile.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text + "\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return path


def list_profiles(directory: Path | None = None) -> list[str]:
    """Names of the stored profiles, sorted.

    Parameters
    ----------
    directory
        Profiles folder; :func:`profiles_dir` by default.

    Returns
    -------
    list of str
        Profile names (file names without ``.json``), valid or not.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     list_profiles(Path(folder))
    []
    """
    folder = profiles_dir() if directory is None else Path(directory)
    if not folder.is_dir():
        return []
    return sorted(
        p.stem for p in folder.glob("*.json") if p.is_file() and _NAME_PATTERN.match(p.stem)
    )


def delete_profile(name: str, directory: Path | None = None) -> Path:
    """Delete the profile called ``name`` (also when its file is corrupt).

    Parameters
    ----------
    name
        Profile name.
    directory
        Profiles folder; :func:`profiles_dir` by default.

    Returns
    -------
    pathlib.Path
        The deleted file.

    Raises
    ------
    BadInputError
        No such profile.

    Examples
    --------
    >>> import tempfile
    >>> from cubescan.calibration.palette import PALETTE_LAB, PALETTE_NAMES
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     p = Profile.from_means("demo", PALETTE_NAMES, PALETTE_LAB)
    ...     _ = save_profile(p, folder)
    ...     delete_profile("demo", folder).name
    'demo.json'
    """
    path = _path(name, directory)
    if not path.is_file():
        raise BadInputError("bad-profile", f"no colour profile named {name!r} in {path.parent}")
    path.unlink()
    return path
