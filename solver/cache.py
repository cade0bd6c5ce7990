"""Arrays built once and kept on disk: versioned, checksummed, written atomically.

A cached set of arrays lives in one ``.npz`` file under
``platformdirs.user_cache_dir("cubescan")`` (or ``$CUBESCAN_CACHE_DIR``), named with a
version tag. The file carries a BLAKE2 checksum of its arrays; a file that is missing,
unreadable or fails the checksum is rebuilt. Writes go to a temporary file in the same
folder followed by :func:`os.replace`, so a killed build never leaves a half-written
file, and an advisory lock makes a second process wait for the first build instead of
repeating it.

Examples
--------
>>> with tempfile.TemporaryDirectory() as folder:
...     path = Path(folder) / "demo-v1.npz"
...     save_arrays({"squares": np.arange(4) ** 2}, path)
...     read_arrays(path)["squares"].tolist()
[0, 1, 4, 9]
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import platformdirs

CACHE_ENV = "CUBESCAN_CACHE_DIR"
"""Environment variable that overrides the cache folder (tests point it at a tmp dir)."""

_CHECKSUM_KEY = "checksum"


class CacheUnusableWarning(UserWarning):
    """The cache folder cannot be written (a file, read-only, full): arrays live in memory."""


def cache_dir() -> Path:
    """The cache folder: ``$CUBESCAN_CACHE_DIR`` or the user cache dir.

    Returns
    -------
    pathlib.Path
        ``$CUBESCAN_CACHE_DIR`` when it is set and not empty, else
        ``platformdirs.user_cache_dir("cubescan")``; the folder may not exist yet.

    Examples
    --------
    >>> cache_dir().name  # doctest: +SKIP
    'cubescan'
    >>> from unittest import mock
    >>> with mock.patch.dict(os.environ, {CACHE_ENV: "/tmp/elsewhere"}):
    ...     cache_dir() == Path("/tmp/elsewhere")
    True
    """
    override = os.environ.get(CACHE_ENV)
    return Path(override) if override else Path(platformdirs.user_cache_dir("cubescan"))


def cache_path(name: str, version: int) -> Path:
    """Path of the cache file for ``name`` at ``version``.

    Parameters
    ----------
    name
        What the file holds, e.g. ``"twophase-tables"``.
    version
        Layout version; part of the file name, so files of other versions are ignored.

    Returns
    -------
    pathlib.Path
        ``cache_dir() / f"{name}-v{version}.npz"``; the file may not exist.

    Examples
    --------
    >>> cache_path("pocket-distances", 2).name
    'pocket-distances-v2.npz'
    """
    return cache_dir() / f"{name}-v{version}.npz"


def _checksum(arrays: dict[str, np.ndarray]) -> np.ndarray:
    digest = hashlib.blake2b(digest_size=32)
    for key in sorted(arrays):
        array = np.ascontiguousarray(arrays[key])
        digest.update(f"{key}:{array.dtype.str}:{array.shape}".encode())
        digest.update(memoryview(array).cast("B"))
    return np.frombuffer(digest.digest(), dtype=np.uint8).copy()


def save_arrays(arrays: dict[str, np.ndarray], path: Path) -> None:
    """Write arrays with their checksum atomically (temp file in the same folder, replace).

    Parameters
    ----------
    arrays
        Name -> array; the names become the file's entries (reserved: ``"checksum"``,
        the file's own entry, and ``"file"``, an argument of :func:`numpy.savez`).
        Object arrays cannot be read back (files are read without pickle).
    path
        The ``.npz`` file to write; its folder is created, an existing file replaced.

    Examples
    --------
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     save_arrays({"a": np.arange(3)}, Path(folder) / "t.npz")
    ...     sorted(p.name for p in Path(folder).iterdir())  # no temporary file left behind
    ['t.npz']
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            np.savez(stream, **arrays, **{_CHECKSUM_KEY: _checksum(arrays)})
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise


def read_arrays(path: Path, expected: frozenset[str] | None = None) -> dict[str, np.ndarray] | None:
    """Read a cache file; None when it is missing, unreadable, fails its checksum, or
    (with ``expected``) does not hold exactly the expected array names.

    Parameters
    ----------
    path
        A file written by :func:`save_arrays`.
    expected
        The exact set of array names the file must hold (the checksum not counted);
        None accepts any names.

    Returns
    -------
    dict of str to numpy.ndarray or None
        The arrays, read-only, without the checksum; None for a file that is no use.

    Examples
    --------
    >>> read_arrays(Path("/nonexistent/t.npz")) is None
    True
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "t.npz"
    ...     save_arrays({"a": np.arange(3)}, path)
    ...     read_arrays(path, frozenset({"a"}))["a"].tolist(), read_arrays(path, frozenset({"b"}))
    ([0, 1, 2], None)
    """
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {key: data[key] for key in data.files}
    except Exception:  # OSError, ValueError, zipfile.BadZipFile...: a damaged file is a miss
        return None
    stored = arrays.pop(_CHECKSUM_KEY, None)
    if stored is None or not np.array_equal(stored, _checksum(arrays)):
        return None
    if expected is not None and set(arrays) != expected:
        return None
    for array in arrays.values():
        array.setflags(write=False)
    return arrays


@contextlib.contextmanager
def build_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive advisory lock beside ``path`` (no-op where flock is missing).

    The lock file is ``path`` with the suffix ``.lock``; it is left in place afterwards.
    Entering blocks until no other process holds the lock.

    Parameters
    ----------
    path
        The cache file about to be built (its folder is created if needed).

    Returns
    -------
    contextlib.AbstractContextManager
        Use as ``with build_lock(path):`` (it gives None); the lock is held inside the
        block and released when the block ends, also on an exception.

    Examples
    --------
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "demo-v1.npz"
    ...     with build_lock(path):  # a second process would wait here
    ...         save_arrays({"a": np.arange(3)}, path)
    ...     sorted(p.name for p in path.parent.iterdir())
    ['demo-v1.lock', 'demo-v1.npz']
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl
    except ImportError:  # not POSIX: two builders each replace the file atomically
        yield
        return
    with open(path.with_suffix(".lock"), "a+b") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock.fileno(), fcntl.LOCK_UN)


def load_or_build(
    name: str,
    version: int,
    build: Callable[[], dict[str, np.ndarray]],
    expected: frozenset[str] | None = None,
) -> dict[str, np.ndarray]:
    """Arrays from the cache, or built by ``build()`` and cached on first use.

    Parameters
    ----------
    name, version
        Identify the file (see :func:`cache_path`); bump ``version`` when the
        arrays' layout or meaning changes.
    build
        Makes the arrays when the cache has no valid copy.
    expected
        The array names a valid file holds (a file with others is rebuilt).

    Returns
    -------
    dict of str to numpy.ndarray
        Read-only arrays. When the cache folder cannot be written (a file stands in its
        place, it is read-only, the disk is full) they are built in memory and a
        :class:`CacheUnusableWarning` says so.

    Examples
    --------
    >>> from unittest import mock
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     with mock.patch.dict(os.environ, {CACHE_ENV: folder}):  # not the user's cache
    ...         built = load_or_build("demo", 1, lambda: {"squares": np.arange(4) ** 2})
    ...         again = load_or_build("demo", 1, lambda: {"squares": np.zeros(4)})  # not called
    >>> again["squares"].tolist(), again["squares"].flags.writeable
    ([0, 1, 4, 9], False)
    """
    path = cache_path(name, version)
    arrays = read_arrays(path, expected)
    if arrays is not None:
        return arrays
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(build_lock(path))
            writable = True
        except OSError as err:
            _warn_unusable(path, err)
            writable = False
        # Another process may have finished the build while we waited for the lock.
        arrays = read_arrays(path, expected)
        if arrays is None:
            arrays = build()
            if writable:
                try:
                    save_arrays(arrays, path)
                except OSError as err:
                    _warn_unusable(path, err)
    for array in arrays.values():
        array.setflags(write=False)
    return arrays


def _warn_unusable(path: Path, error: OSError) -> None:
    # A cache is a convenience: when it cannot be written the arrays are still built, in
    # memory, and the user is told how to keep them next time.
    warnings.warn(
        f"the cache folder {path.parent} cannot be used ({error.strerror or error}); "
        f"{path.stem} is built in memory this time. Set {CACHE_ENV} to a writable folder "
        "to keep it.",
        CacheUnusableWarning,
        stacklevel=3,
    )
