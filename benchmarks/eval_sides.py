"""Half-turn ties settled by the stickers seen beside each face: how often, right or wrong?

Usage: python benchmarks/eval_sides.py [--ties 20] [--photo-sets 3] [--seed 1] [--hard]

About one random 3x3 in 100 has a face whose reading, turned half way, still makes real
pieces and a sound cube: two assemblies fit the six faces' stickers equally well. This
finds such cubes (uniformly random states whose exact face readings
:func:`cubescan.scanner.assemble.assemble` reports as ambiguous, the truth among the
alternatives), photographs each several times as ``benchmarks/eval_check.py`` does
(random pose up to 30 degrees of tilt, light, background, order and rotation), and runs
the check with and without the side samples. Each photo set is counted as:

* settled right / settled wrong: the sides chose an alternative (right: the truth);
* still ambiguous: the sides did not settle it (the report says so);
* not a tie as read: without the sides the report was not ambiguous (a detection or
  colour miss, or a reading that broke the tie otherwise);

and the lead of the best-fitting alternative is listed, signed (+ for the truth).
"""

from __future__ import annotations

import argparse
import re
from collections import Counter

import numpy as np
from eval_check import photos_of
from record import add_record_argument, start_recording

from cubescan.errors import CubescanError
from cubescan.scanner.assemble import assemble
from cubescan.scanner.pipeline.check import cube_report
from cubescan.scanner.pipeline.photos import read_cube_photos
from cubescan.solver.cubie import random_state
from cubescan.synth.specs import STANDARD_SCHEME

_LEADER = re.compile(r"alternative (\d+) fits them best, with a lead of (-?[\d.]+)")
_SETTLED = re.compile(r"lead (-?[\d.]+)\)")


def tie_states(rng: np.random.Generator, count: int) -> list[str]:
    """``count`` random sound cubes whose exact face readings tie in assembly."""
    found = []
    while len(found) < count:
        state = random_state(rng)
        colors = "".join(STANDARD_SCHEME[f] for f in state)
        result = assemble([colors[9 * f : 9 * f + 9] for f in range(6)])
        if result.ambiguous and state in result.alternatives:
            found.append(state)
    return found


def signed_lead(note: str, alternatives: tuple[str, ...], state: str, settled: bool) -> float:
    """The best-fitting alternative's lead from the report's note, + when it is the truth."""
    if settled:
        lead = float(_SETTLED.search(note).group(1))
        return lead if alternatives[0] == state else -lead
    match = _LEADER.search(note)
    if match is None:
        return float("nan")
    best, lead = int(match.group(1)) - 1, float(match.group(2))
    return lead if alternatives[best] == state else -lead


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ties", type=int, default=20, help="tie cubes")
    parser.add_argument("--photo-sets", type=int, default=3, help="photo sets per cube")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hard", action="store_true", help="clutter, glare, occluders, noise")
    parser.add_argument("--verbose", action="store_true", help="print every photo set")
    add_record_argument(parser)
    args = parser.parse_args()
    start_recording(args.record)
    rng = np.random.default_rng(args.seed)
    outcome: Counter[str] = Counter()
    leads: list[float] = []
    for number, state in enumerate(tie_states(rng, args.ties)):
        for photo_set in range(args.photo_sets):
            photos = photos_of(state, rng, args.hard)
            sources = [f"photo{i}" for i in range(6)]
            try:
                read = read_cube_photos([image for image, _ in photos], sources)
                plain = cube_report([p.lab for p in read], sources, solve=False)
                report = cube_report(
                    [p.lab for p in read],
                    sources,
                    solve=False,
                    side_samples=[p.sides for p in read],
                )
            except CubescanError as err:
                outcome["not a tie as read"] += 1
                if args.verbose:
                    print(f"  cube {number} set {photo_set}: {err.code}")
                continue
            if not (plain.ambiguous and state in plain.alternatives):
                kind = "not a tie as read"
            elif report.ambiguous:
                kind = "still ambiguous"
            else:
                kind = "settled right" if report.read_facelets == state else "settled wrong"
            outcome[kind] += 1
            if kind != "not a tie as read":
                lead = signed_lead(
                    report.ambiguity_note, report.alternatives, state, not report.ambiguous
                )
                leads.append(lead)
            if args.verbose:
                print(f"  cube {number} set {photo_set}: {kind}: {report.ambiguity_note}")
    total = sum(outcome.values())
    ties = total - outcome["not a tie as read"]
    print(
        f"{total} photo sets of {args.ties} tie cubes; {ties} read as ties: "
        + ", ".join(
            f"{k} {outcome[k]}"
            for k in ("settled right", "settled wrong", "still ambiguous", "not a tie as read")
        )
    )
    if ties:
        print(
            f"settled right {outcome['settled right'] / ties:.1%} of ties read, "
            f"wrong {outcome['settled wrong'] / ties:.1%}"
        )
    shown = sorted(round(v, 1) for v in leads if np.isfinite(v))
    print(f"best fit's lead, signed (+ truth): {shown}")


if __name__ == "__main__":
    main()
