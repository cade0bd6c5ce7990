"""Check a batch's cubes on a Dask cluster: an existing scheduler, or one started here.

``cubescan batch ROOT --cluster tcp://host:8786`` sends each cube to the workers of a
running ``dask.distributed`` scheduler; ``--cluster local:4`` starts a local cluster of four
worker processes for the run. The rows come back as cubes finish and are written by
:func:`cubescan.scanner.pipeline.batch.run_batch` exactly as with ``--jobs``, so reports,
``--resume`` and interruption behave the same. Workers on other machines must see the cube
folders and the report folder at the same paths (a shared file system), and have cubescan
installed.

Dask is an optional extra (``pip install "cubescan[cluster]"``), imported only here.

Examples
--------
>>> parse_cluster("local:4"), parse_cluster("tcp://10.0.0.5:8786")
(4, 'tcp://10.0.0.5:8786')
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from cubescan.errors import BadInputError

_LOCAL = re.compile(r"^local:(\d+)$")
_ADDRESS = re.compile(r"^(tcp|tls|inproc|ws|wss)://\S+$")
CONNECT_TIMEOUT = "10s"
"""How long to wait for a scheduler to answer before saying it does not."""


def parse_cluster(address: str) -> int | str:
    """What ``--cluster`` names: a number of local workers, or a scheduler's address.

    Parameters
    ----------
    address
        ``local:N`` (N worker processes started for the run) or a scheduler address such as
        ``tcp://host:8786``.

    Returns
    -------
    int or str
        N for a local cluster, else the address.

    Raises
    ------
    BadInputError
        ``bad-option`` for anything else, or a local cluster of no workers.

    Examples
    --------
    >>> parse_cluster("local:0")
    Traceback (most recent call last):
    ...
    cubescan.errors.BadInputError: --cluster local:N needs at least one worker, not 0
    """
    local = _LOCAL.match(address)
    if local:
        workers = int(local.group(1))
        if workers < 1:
            raise BadInputError(
                "bad-option", f"--cluster local:N needs at least one worker, not {workers}"
            )
        return workers
    if _ADDRESS.match(address):
        return address
    raise BadInputError(
        "bad-option",
        f"--cluster {address!r}: give a scheduler address (tcp://host:8786) or local:N",
    )


def cluster_results(
    check: Callable[[Callable[[Path, Path], dict], Path, Path], dict],
    check_folder: Callable[[Path, Path], dict],
    todo: list[Path],
    out: Path,
    address: str,
) -> Iterator[dict]:
    """Report rows as the cluster's workers finish the cubes.

    Parameters
    ----------
    check
        Turns one cube's check into a row (an error row for bad input), run on a worker:
        :func:`cubescan.scanner.pipeline.batch.checked_row`.
    check_folder
        ``(cube_folder, out) -> dict``, the per-cube work; picklable.
    todo
        The cube folders still to check.
    out
        The report folder.
    address
        ``--cluster``'s value (:func:`parse_cluster`).

    Yields
    ------
    dict
        One row per cube, in the order they finish. When the caller stops early
        (Ctrl-C), the cubes not started are cancelled and the cluster is let go.

    Raises
    ------
    BadInputError
        Dask is not installed, or no scheduler answers at ``address``.

    Examples
    --------
    >>> from cubescan.scanner.pipeline.batch import checked_row
    >>> def solved(folder, out):
    ...     return {"valid": True}
    >>> rows = cluster_results(checked_row, solved, [Path("a"), Path("b")], Path("."), "local:1")
    >>> sorted(row["cube"] for row in rows)
    ['a', 'b']
    """
    target = parse_cluster(address)
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise BadInputError(
            "missing-extra",
            'batch --cluster needs Dask: pip install "cubescan[cluster]"',
        ) from None
    cluster = None
    try:
        if isinstance(target, int):
            # Worker processes, one thread each: a cube's check is CPU-bound Python.
            cluster = LocalCluster(
                n_workers=target,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
            client = Client(cluster)
        else:
            client = Client(target, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as err:
        if cluster is not None:
            cluster.close()
        raise BadInputError(
            "no-cluster", f"no Dask scheduler answers at {address}: {err}"
        ) from None
    futures = client.map(check, [check_folder] * len(todo), todo, [out] * len(todo), pure=False)
    try:
        for future in as_completed(futures):
            yield future.result()
    finally:
        client.cancel(futures)
        client.close()
        if cluster is not None:
            cluster.close()
