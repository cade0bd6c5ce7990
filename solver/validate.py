"""Is this cube solvable, and if not, what exactly is wrong and how is it fixed?

:func:`validate` works for every N from 2 to 7 and runs, in order:

1. format: length 6*N*N, at most six symbols, six distinct centres (odd N);
2. colour counts: N*N stickers of each colour;
3. pieces, orbit by orbit (orbits computed by :mod:`cubescan.solver.slots`): every corner, middle
   edge and wing slot holds a real piece (colours of adjacent faces in the right
   handedness) and each piece appears exactly once; every centre orbit of a big cube
   holds each colour equally often;
4. the laws of the cube: corner twist total 0 (mod 3) on every N; on odd N also edge
   flip total 0 (mod 2) and equal corner and middle-edge permutation parity. Wings
   never flip and their permutations, like the corners' on even N, are free. Each law
   is tested as soon as the pieces it needs are real.

Every problem carries the pieces, facelets and orbit involved and a
:class:`~cubescan.solver.fixes.Fix` a person can carry out on the physical cube (and that
:func:`~cubescan.solver.fixes.apply_fix` carries out on the string). When pieces are broken
(a re-stuck sticker, two swapped stickers, a mirror-image corner, swapped centre caps)
the fix is found by a small search over single-sticker changes and sticker swaps,
preferring the one that leaves a solvable cube.

Examples
--------
>>> from cubescan.solver.moves import apply_moves, solved_facelets
>>> validate(apply_moves(solved_facelets(3), "R U R' U'")).valid
True
>>> twisted = apply_fix(solved_facelets(3), twist_corner_fix(3, 0, 1))
>>> report = validate(twisted)
>>> [p.code for p in report.problems], report.classic_error
(['corner-twist'], 5)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations
from operator import itemgetter

from cubescan.errors import CubescanError
from cubescan.solver.cubie import (
    CubieCube,
    corner_lookup,
    corner_slots,
    edge_lookup,
    edge_slots,
    permutation_parity,
)
from cubescan.solver.facelets import CubeState, parse_state
from cubescan.solver.fixes import (
    TURN_WORDS,
    Fix,
    apply_fix,
    flip_edge_fix,
    sticker_fixes,
    swap_pieces_fix,
    twist_corner_fix,
)
from cubescan.solver.geometry import FACES, OPPOSITE, cube_geometry
from cubescan.solver.report import CLASSIC_ERROR, Problem, ValidationReport
from cubescan.solver.slots import CenterOrbit, SlotSet, center_orbits, slot_sets

__all__ = [
    "CLASSIC_ERROR",
    "Fix",
    "Problem",
    "ValidationReport",
    "apply_fix",
    "is_solvable",
    "twist_corner_fix",
    "validate",
]

# Structural fix search: beyond this many suspect stickers a single mechanical fix
# is implausible and the search would be slow, so a person is asked to look.
_MAX_SUSPECTS = 30
_READ_AGAIN = "re-read or re-type the cube state"


# ---------------------------------------------------------------- piece checks


def _symbol(symbols: str, face: str) -> str:
    return symbols[FACES.index(face)]


def _why_not_a_piece(slot_set: SlotSet, slot: int, reading: str, symbols: str) -> str:
    shown = ", ".join(_symbol(symbols, ch) for ch in reading)
    where = f"the {slot_set.kind} at {slot_set.names[slot]} shows {shown}"
    mirror = slot_set.mirror_of(reading)
    if mirror is not None:
        return (
            f"{where}: the colours of the {slot_set.names[mirror]} {slot_set.kind} in mirror "
            "order, so two of its stickers were swapped"
        )
    repeated = [ch for ch, n in Counter(reading).items() if n > 1]
    if repeated:
        return f"{where}: the colour {_symbol(symbols, repeated[0])} appears twice"
    for a, b in combinations(reading, 2):
        if OPPOSITE[a] == b:
            colors = f"{_symbol(symbols, a)} and {_symbol(symbols, b)}"
            return f"{where}: {colors} belong on opposite faces"
    return f"{where}: no such piece exists"


@dataclass(frozen=True)
class _PieceCheck:
    """Structural problems of one orbit, plus its cubie data when every piece is real."""

    problems: tuple[Problem, ...]
    perm: tuple[int, ...] | None
    ori: tuple[int, ...] | None
    suspects: frozenset[int]


def _check_slots(facelets: str, slot_set: SlotSet, symbols: str) -> _PieceCheck:
    """Every slot of the orbit holds a real piece, and every piece is there once."""
    kind, names, slots = slot_set.kind, slot_set.names, slot_set.slots
    readings = ["".join(facelets[i] for i in slot) for slot in slots]
    hits = [slot_set.pieces.get(reading) for reading in readings]
    problems, suspects = [], set()
    invalid = [slot for slot, hit in enumerate(hits) if hit is None]
    if invalid:
        problems.append(
            Problem(
                f"{kind}-invalid",
                "; ".join(_why_not_a_piece(slot_set, s, readings[s], symbols) for s in invalid),
                tuple(names[s] for s in invalid),
                tuple(i for s in invalid for i in slots[s]),
                orbit=slot_set.orbit,
            )
        )
        suspects.update(i for s in invalid for i in slots[s])
    where: dict[int, list[int]] = {}
    for slot, hit in enumerate(hits):
        if hit is not None:
            where.setdefault(hit[0], []).append(slot)
    repeated = {piece: at for piece, at in where.items() if len(at) > 1}
    if repeated:
        problems.append(_duplicate_problem(slot_set, repeated, where, readings))
        suspects.update(i for at in repeated.values() for s in at for i in slots[s])
    if problems:
        return _PieceCheck(tuple(problems), None, None, frozenset(suspects))
    perm = tuple(hit[0] for hit in hits)  # type: ignore[index]
    ori = tuple(hit[1] for hit in hits)  # type: ignore[index]
    return _PieceCheck((), perm, ori, frozenset())


def _duplicate_problem(slot_set: SlotSet, repeated, where, readings) -> Problem:
    kind, names, slots = slot_set.kind, slot_set.names, slot_set.slots
    missing = [p for p in range(len(names)) if p not in where]
    involved = [s for at in repeated.values() for s in at]
    facelets = tuple(i for s in involved for i in slots[s])
    # A wing read backwards is its mirror twin; when that twin is the missing piece, the
    # wing was flipped in place, which no turn can do: a mis-stuck or reassembled wing.
    if kind == "wing":
        flipped = [
            at
            for piece, at in repeated.items()
            if any(slot_set.pieces[readings[at[0]][::-1]][0] == m for m in missing)
        ]
        if flipped and len(repeated) == len(flipped):
            places = "; ".join(" or ".join(names[s] for s in at) for at in flipped)
            return Problem(
                "wing-invalid",
                f"a wing shows its colours in mirror order, at {places}: a wing cannot be "
                "flipped in place, so its stickers were swapped or the piece was reassembled",
                tuple(names[s] for s in involved),
                facelets,
                orbit=slot_set.orbit,
            )
    parts = [
        f"the {names[piece]} {kind} appears {len(at)} times (at {', '.join(names[s] for s in at)})"
        for piece, at in repeated.items()
    ]
    if missing:
        parts.append(f"missing: {', '.join(names[p] for p in missing)}")
    return Problem(
        f"{kind}-duplicate",
        "; ".join(parts),
        tuple(names[s] for s in involved),
        facelets,
        orbit=slot_set.orbit,
    )


def _center_check(facelets: str, centers: CenterOrbit, size: int, symbols: str):
    """Each colour fills a 24-piece centre orbit exactly four times."""
    counts = Counter(facelets[i] for i in centers.facelets)
    each = len(centers.facelets) // 6
    surplus = [face for face in FACES if counts.get(face, 0) > each]
    if not surplus:
        return None, frozenset()
    deficit = [face for face in FACES if counts.get(face, 0) < each]
    parts = [
        f"{_symbol(symbols, face)} {counts.get(face, 0)} times"
        for face in FACES
        if counts.get(face, 0) != each
    ]
    per_face = size * size
    # The likeliest wrong sticker: a surplus colour sitting on a face whose colour is short.
    misplaced = [
        i for i in centers.facelets if facelets[i] in surplus and FACES[i // per_face] in deficit
    ]
    suspect = (misplaced or [i for i in centers.facelets if facelets[i] in surplus])[0]
    problem = Problem(
        "center-count",
        f"the centre pieces of orbit '{centers.orbit}' show {', '.join(parts)} (each colour "
        f"must appear {each} times): a centre sticker has the wrong colour",
        (),
        tuple(i for i in centers.facelets if facelets[i] in surplus),
        orbit=centers.orbit,
    )
    return problem, frozenset({suspect})


def _count_problem(facelets: str, size: int, symbols: str) -> Problem | None:
    counts = Counter(facelets)
    target = size * size
    off = [(face, counts.get(face, 0)) for face in FACES if counts.get(face, 0) != target]
    if not off:
        return None
    parts = [f"{_symbol(symbols, face)} appears {n} times" for face, n in off]
    return Problem(
        "color-count",
        f"{'; '.join(parts)} (each colour must appear exactly {target} times)",
        (),
        tuple(i for i, ch in enumerate(facelets) if counts[ch] > target),
    )


# ------------------------------------------------------------ the laws of the cube


def _twist_problem(size: int, slot_set: SlotSet, cube: CubieCube) -> Problem | None:
    total = cube.corner_twist_total
    if total == 0:
        return None
    # A clockwise twist adds 1 to a corner's orientation; undo the excess on a corner
    # that carries exactly that twist, preferably one already in its home slot.
    candidates = [s for s in range(8) if cube.co[s] == total]
    home = [s for s in candidates if cube.cp[s] == s]
    slot = (home or candidates or [0])[0]  # any corner takes the fix; these read best
    fix = twist_corner_fix(size, slot, 3 - total)
    return Problem(
        "corner-twist",
        f"the corners carry one {TURN_WORDS[total]} twist too many (twist total {total} of "
        f"3): one corner is twisted in place, for example the one at {slot_set.names[slot]}",
        (slot_set.names[slot],),
        fix.facelets,
        (fix,),
        orbit=slot_set.orbit,
    )


def _flip_problem(slot_set: SlotSet, ep: tuple[int, ...], eo: tuple[int, ...]) -> Problem | None:
    if sum(eo) % 2 == 0:
        return None
    candidates = [s for s in range(12) if eo[s] == 1]
    home = [s for s in candidates if ep[s] == s]
    slot = (home or candidates)[0]
    fix = flip_edge_fix(slot_set.slots[slot], slot_set.names[slot])  # type: ignore[arg-type]
    return Problem(
        "edge-flip",
        f"one edge is flipped in place, for example the one at {slot_set.names[slot]}",
        (slot_set.names[slot],),
        fix.facelets,
        (fix,),
        orbit=slot_set.orbit,
    )


def _best_transposition(perm: tuple[int, ...]) -> tuple[int, int] | None:
    """Two slots whose swap puts both pieces home, else two misplaced slots."""
    for slot, piece in enumerate(perm):
        if piece != slot and perm[piece] == slot:
            return (min(slot, piece), max(slot, piece))
    misplaced = [slot for slot, piece in enumerate(perm) if piece != slot]
    return (misplaced[0], misplaced[1]) if len(misplaced) >= 2 else None


def _parity_problem(corners: SlotSet, edges: SlotSet, cube: CubieCube) -> Problem | None:
    if cube.corner_parity == cube.edge_parity:
        return None
    edge_pair = _best_transposition(cube.ep)
    corner_pair = _best_transposition(cube.cp)
    if edge_pair and cube.ep[edge_pair[0]] == edge_pair[1]:
        chosen, pair = edges, edge_pair
    elif corner_pair and cube.cp[corner_pair[0]] == corner_pair[1]:
        chosen, pair = corners, corner_pair
    else:
        chosen, pair = edges, edge_pair or (0, 1)
    names = (chosen.names[pair[0]], chosen.names[pair[1]])
    fix = swap_pieces_fix(chosen.kind, names, (chosen.slots[pair[0]], chosen.slots[pair[1]]))
    return Problem(
        "permutation-parity",
        "the corner and edge permutations have different parity: two pieces are "
        f"exchanged, for example the {chosen.kind}s at {names[0]} and {names[1]}",
        names,
        fix.facelets,
        (fix,),
        orbit=f"{corners.orbit} and {edges.orbit}",
    )


# ---------------------------------------------------------------- the pipeline


@dataclass(frozen=True)
class _Findings:
    structural: tuple[Problem, ...]
    solvability: tuple[Problem, ...]
    twist: int | None
    flip: int | None
    parity: int | None
    suspects: frozenset[int]


def _examine(facelets: str, size: int, symbols: str) -> _Findings:
    """Every check after the format ones, without searching for fixes."""
    structural: list[Problem] = []
    suspects: set[int] = set()
    count = _count_problem(facelets, size, symbols)
    if count:
        structural.append(count)
    checks = {}
    for slot_set in slot_sets(size):
        check = _check_slots(facelets, slot_set, symbols)
        structural.extend(check.problems)
        suspects |= check.suspects
        checks[slot_set.kind] = (slot_set, check)
    for centers in center_orbits(size):
        problem, suspect = _center_check(facelets, centers, size, symbols)
        if problem:
            structural.append(problem)
            suspects |= suspect

    solvability: list[Problem] = []
    corner_set, corners = checks["corner"]
    twist = flip = parity = None
    if corners.perm is not None:
        cube = CubieCube(corners.perm, corners.ori)  # type: ignore[arg-type]
        twist = cube.corner_twist_total
        problem = _twist_problem(size, corner_set, cube)
        if problem:
            solvability.append(problem)
    if "edge" not in checks:
        flip = parity = 0  # even cubes: no middle edges, and every permutation is reachable
    elif checks["edge"][1].perm is not None:
        edge_set, edges = checks["edge"]
        flip = sum(edges.ori) % 2  # type: ignore[arg-type]
        problem = _flip_problem(edge_set, edges.perm, edges.ori)  # type: ignore[arg-type]
        if problem:
            solvability.append(problem)
        if corners.perm is not None:
            cube = CubieCube(corners.perm, corners.ori, edges.perm, edges.ori)  # type: ignore[arg-type]
            parity = int(cube.corner_parity != cube.edge_parity)
            problem = _parity_problem(corner_set, edge_set, cube)
            if problem:
                solvability.append(problem)
    return _Findings(
        tuple(structural), tuple(solvability), twist, flip, parity, frozenset(suspects)
    )


def _candidate_fixes(facelets: str, findings: _Findings, size: int, symbols: str) -> list[Fix]:
    """Single physical changes that might remove the structural problems."""
    suspects = sorted(findings.suspects)
    if len(suspects) > _MAX_SUSPECTS:
        return []
    target = size * size
    fixes = sticker_fixes(
        facelets,
        suspects,
        target,
        FACES,
        cube_geometry(size).facelet_name,
        lambda letter: f"{_symbol(symbols, letter)} (the {letter} face's colour)",
    )
    if any(facelets.count(face) != target for face in FACES):
        return fixes  # re-stickings: a centre swap keeps the colour counts
    if size % 2 and len(suspects) >= 12:
        middle = target // 2
        for fa, fb in combinations(range(6), 2):
            fixes.append(
                Fix(
                    "swap-centers",
                    (fa * target + middle, fb * target + middle),
                    f"the centre stickers of {FACES[fa]} and {FACES[fb]} are swapped: "
                    "swap them back",
                )
            )
    return fixes


def _structural_fixes(facelets: str, findings: _Findings, size: int, symbols: str) -> list[Fix]:
    """The single changes that leave every piece real, the most solvable first-equal."""
    scored = []
    for fix in _candidate_fixes(facelets, findings, size, symbols):
        after = _examine(apply_fix(facelets, fix), size, symbols)
        scored.append(((len(after.structural), len(after.solvability)), fix))
    if not scored:
        return []
    best = min(score for score, _ in scored)
    if best[0] > 0:
        return []
    return [fix for score, fix in scored if score == best]


def validate(state: str | CubeState) -> ValidationReport:
    """Check whether a cube state is solvable and diagnose it when it is not.

    Parameters
    ----------
    state
        A facelet string in any alphabet (see :func:`cubescan.solver.facelets.parse_state`) or a
        parsed :class:`CubeState`, for any N from 2 to 7.

    Returns
    -------
    ValidationReport
        ``valid`` plus every problem with its fix; never raises for bad input
        (an unreadable string gives a ``bad-format`` problem).

    Examples
    --------
    >>> validate("UUUUUUUUU").problems[0].code
    'bad-format'
    >>> from cubescan.solver.moves import apply_moves, solved_facelets
    >>> validate(apply_moves(solved_facelets(4), "Rw U2 2F' x")).valid
    True
    """
    quick = _quick_verdict(state)
    if quick is not None:
        return quick
    try:
        cube = state if isinstance(state, CubeState) else parse_state(state)
    except CubescanError as err:
        problem = Problem(err.code, err.message, fix=(Fix("inspect", (), _READ_AGAIN),))
        return ValidationReport(0, "", FACES, (problem,), classic_error=1)
    findings = _examine(cube.facelets, cube.size, cube.symbols)
    if not findings.structural and not findings.solvability:
        return ValidationReport(cube.size, cube.facelets, cube.symbols, (), findings.twist, 0, 0, 0)
    problems = list(findings.structural)
    solvability = list(findings.solvability)
    repaired = None
    if findings.structural:
        fixes = _structural_fixes(cube.facelets, findings, cube.size, cube.symbols)
        if fixes:
            # Equally good fixes (e.g. either of two twin wings flipped) all leave the
            # same verdict: carry out the first, and name the others.
            step = _first_of(fixes)
            repaired = apply_fix(cube.facelets, step)
            after = _examine(repaired, cube.size, cube.symbols).solvability
            solvability = [_after_repair(p) for p in after]
        else:
            step = _inspect_fix(problems)
        problems = [_with_fix(p, step) for p in problems]
    known = {p.code for p in problems}
    all_problems = tuple(problems + [p for p in solvability if p.code not in known])
    return ValidationReport(
        cube.size,
        cube.facelets,
        cube.symbols,
        all_problems,
        findings.twist,
        findings.flip,
        findings.parity,
        min(CLASSIC_ERROR.get(p.code, 1) for p in all_problems),
        repaired,
    )


def problem_codes(state: str | CubeState) -> frozenset[str]:
    """The codes of the problems a state shows as read, without searching for their fixes.

    What :func:`validate` finds before it looks for fixes, at a fraction of its cost on a
    broken cube: for callers that weigh thousands of candidate readings (the colour
    repair) and need only whether a reading is sound, or made of real pieces.

    Parameters
    ----------
    state
        A facelet string in any alphabet, or a parsed :class:`CubeState`.

    Returns
    -------
    frozenset of str
        Problem codes; empty when the cube is solvable.

    Examples
    --------
    >>> from cubescan.solver.moves import apply_moves, solved_facelets
    >>> problem_codes(apply_moves(solved_facelets(3), "R U"))
    frozenset()
    >>> sorted(problem_codes("UUUUUUUUU"))
    ['bad-format']
    """
    quick = _quick_verdict(state)
    if quick is not None:
        return frozenset(p.code for p in quick.problems)
    try:
        cube = state if isinstance(state, CubeState) else parse_state(state)
    except CubescanError as err:
        return frozenset({err.code})
    findings = _examine(cube.facelets, cube.size, cube.symbols)
    return frozenset(p.code for p in findings.structural + findings.solvability)


def _first_of(fixes: list[Fix]) -> Fix:
    first = fixes[0]
    if len(fixes) == 1:
        return first
    others = "; ".join(fix.text for fix in fixes[1:4])
    more = f" and {len(fixes) - 4} more" if len(fixes) > 4 else ""
    text = f"{first.text} (or, equally good: {others}{more})"
    return Fix(first.action, first.facelets, text, first.turns, first.letter)


def _with_fix(problem: Problem, step: Fix) -> Problem:
    return Problem(
        problem.code, problem.message, problem.pieces, problem.facelets, (step,), problem.orbit
    )


def _after_repair(problem: Problem) -> Problem:
    return Problem(
        problem.code,
        f"after the re-sticking above, {problem.message}",
        problem.pieces,
        problem.facelets,
        problem.fix,
        problem.orbit,
    )


def _inspect_fix(problems: list[Problem]) -> Fix:
    return Fix(
        "inspect",
        tuple(sorted({i for p in problems for i in p.facelets})),
        "more than one sticker is wrong: compare the marked pieces with a solved cube "
        "and re-stick or re-read them",
    )


# ------------------------------------------------------------------ fast path


@cache
def _slot_getters() -> tuple[itemgetter, itemgetter]:
    corners = itemgetter(*(i for slot in corner_slots(3) for i in slot))
    edges = itemgetter(*(i for slot in edge_slots(3) for i in slot))
    return corners, edges


@lru_cache(maxsize=256)
def _center_table(centers: str) -> dict[int, int]:
    return str.maketrans(centers, FACES)


def structural_problem_count(state: CubeState) -> int:
    """How many structural problems (colour counts, pieces) a parsed cube has, cheaply.

    The same count :func:`validate` reports (its problems that are not a twist, flip or
    parity law), without searching for fixes: for ranking many candidate cubes.

    Parameters
    ----------
    state
        A parsed cube.

    Returns
    -------
    int
        0 when every piece is real and present once.

    Examples
    --------
    >>> from cubescan.solver.moves import solved_facelets
    >>> from cubescan.solver.facelets import parse_state
    >>> structural_problem_count(parse_state(solved_facelets(3)))
    0
    >>> structural_problem_count(parse_state("UUUUUUUUR" + solved_facelets(3)[9:]))  # counts, piece
    2
    """
    return len(_examine(state.facelets, state.size, state.symbols).structural)


def _quick_verdict(state: str | CubeState) -> ValidationReport | None:
    """The common case, fast: a well-formed solvable 3x3. None means "look closer".

    Counting colours is unnecessary here: six distinct centres plus every slot holding
    a different real piece already imply nine stickers of each colour.
    """
    if isinstance(state, CubeState):
        if state.size != 3:
            return None
        text, symbols = state.facelets, state.symbols
    elif len(state) == 54:
        symbols = state[4] + state[13] + state[22] + state[31] + state[40] + state[49]
        text = state.translate(_center_table(symbols))
    else:
        return None
    corner_getter, edge_getter = _slot_getters()
    corner_chars = "".join(corner_getter(text))
    edge_chars = "".join(edge_getter(text))
    corners, edges = corner_lookup(), edge_lookup()
    try:
        cp_co = [corners[corner_chars[i : i + 3]] for i in range(0, 24, 3)]
        ep_eo = [edges[edge_chars[i : i + 2]] for i in range(0, 24, 2)]
    except KeyError:
        return None
    cp = tuple(piece for piece, _ in cp_co)
    ep = tuple(piece for piece, _ in ep_eo)
    if (
        len(set(cp)) != 8
        or len(set(ep)) != 12
        or sum(ori for _, ori in cp_co) % 3
        or sum(ori for _, ori in ep_eo) % 2
        or permutation_parity(cp) != permutation_parity(ep)
        or len(set(symbols)) != 6
    ):
        return None
    return ValidationReport(3, text, symbols, (), 0, 0, 0, 0)


def is_solvable(state: str | CubeState) -> bool:
    """Yes/no: is this state solvable? (The diagnosis is in :func:`validate`.)

    Parameters
    ----------
    state
        A facelet string in any alphabet or a parsed :class:`CubeState`, N from 2 to 7.

    Returns
    -------
    bool
        ``validate(state).valid``; False, not an exception, for unreadable input.

    Examples
    --------
    >>> from cubescan.solver.moves import solved_facelets
    >>> is_solvable(solved_facelets(3))
    True
    >>> is_solvable(apply_fix(solved_facelets(3), twist_corner_fix(3, 0, 1))), is_solvable("UUU")
    (False, False)
    """
    return validate(state).valid
