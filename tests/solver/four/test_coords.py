"""Pattern coordinates: rank and unrank are inverse bijections."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cubescan.solver.four.coords import label_pattern, rank, unrank
from cubescan.solver.four.model import N_SLOTS
from cubescan.solver.four.phases import patterns


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(patterns())), st.floats(0, 1, exclude_max=True))
def test_unrank_then_rank_gives_the_value_back(name, fraction):
    pattern = label_pattern(patterns()[name])
    value = int(fraction * pattern.size)
    labels = np.zeros(N_SLOTS, dtype=np.int8)
    unrank(value, labels, *pattern.arrays)
    assert rank(labels, *pattern.arrays) == value


def test_sizes_are_the_counts_of_arrangements():
    sizes = {name: p.size for name, p in patterns().items()}
    assert sizes["centers-rl"] == 735471  # C(24, 8)
    assert sizes["centers-ud"] == 900900  # 16! / (4! 4! 8!)
    assert sizes["centers-axes"] == 900900  # 16! / (4! 4! 8!) as well
