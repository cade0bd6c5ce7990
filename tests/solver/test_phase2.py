"""The phase-2 distance table: exact against a plain breadth-first search, consistent everywhere."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubescan.solver import coords, phase2, tables

PLAIN_DEPTH = 6
N = coords.N_UD_EDGES


@pytest.fixture(scope="module")
def built(table_cache):
    """Tables in this session's shared tmp cache (built once for all solver tests)."""
    return tables.load_tables(progress=False)


@pytest.fixture(scope="module")
def plain_levels(built):
    """Every (corners, ud_edges) pair at each phase-2 distance up to PLAIN_DEPTH, by BFS."""
    move_corners, move_ud = built["move_corners"], built["move_ud_edges"]
    seen = frontier = np.array([0], dtype=np.int64)
    levels = [frontier]
    for _ in range(PLAIN_DEPTH):
        corners, ud = np.divmod(frontier, N)
        reached = np.unique(
            np.concatenate(
                [
                    move_corners[corners, m].astype(np.int64) * N + move_ud[ud, m]
                    for m in coords.PHASE2_MOVES
                ]
            )
        )
        frontier = np.setdiff1d(reached, seen, assume_unique=True)
        seen = np.union1d(seen, frontier)
        levels.append(frontier)
    return levels


def test_sizes(built):
    assert int(built["corners_class"].max()) + 1 == phase2.N_CORNER_CLASSES == 2768
    assert built["phase2_mod3"].nbytes * 4 == phase2.N_CORNER_CLASSES * N


def test_distance_is_exact_against_plain_bfs(built, plain_levels):
    rng = np.random.default_rng(1)
    for depth, level in enumerate(plain_levels):
        for value in rng.choice(level, min(200, len(level)), replace=False):
            corners, ud = divmod(int(value), N)
            assert phase2.distance(built, corners, ud) == depth


@settings(max_examples=40, deadline=None)
@given(
    corners=st.integers(min_value=0, max_value=N - 1), ud=st.integers(min_value=0, max_value=N - 1)
)
def test_neighbours_differ_by_at_most_one_and_one_is_closer(built, corners, ud):
    # Only pairs of equal parity are reachable in phase 2.
    corner_parity = coords.perm_of_rank(np.array([corners]), 8)[0]
    edge_parity = coords.perm_of_rank(np.array([ud]), 8)[0]
    if _parity(corner_parity) != _parity(edge_parity):
        return
    here = phase2.distance(built, corners, ud)
    assert 0 <= here <= 18
    around = [
        phase2.distance(
            built, int(built["move_corners"][corners, m]), int(built["move_ud_edges"][ud, m])
        )
        for m in coords.PHASE2_MOVES
    ]
    assert all(abs(d - here) <= 1 for d in around)
    if here:
        assert min(around) == here - 1


def _parity(perm: np.ndarray) -> int:
    return sum(int(a > b) for i, a in enumerate(perm) for b in perm[i + 1 :]) % 2
