"""Is this cube solvable, and if not, what exactly is wrong and how is it fixed?

:func:`validate` runs, in order:

1. format: length 6*N*N, at most six symbols, six distinct centres (odd N);
2. colour counts: N*N stickers of each colour;
3. pieces: every corner (and edge) slot holds a real piece — colours of mutually
   adjacent faces, in the right handedness — and each piece exactly once;
4. the three solvability tests of the cube-parity literature: corner twist (sum of
   orientations mod 3), edge flip (sum mod 2), permutation parity (corner parity must
   equal edge parity). Each test runs as soon as the pieces it needs are real.

Every problem carries the pieces and facelets involved and a :class:`Fix` that a person
can carry out on the physical cube (and that :func:`apply_fix` can carry out on the
string). When the pieces are broken (a re-stuck sticker, two stickers swapped, a
mirror-image corner, swapped centre caps), the fix is found by a small search over
single-sticker changes and sticker swaps, preferring the one that leaves a solvable cube.

Examples
--------
>>> from solver.moves import apply_moves, solved_facelets
>>> validate(apply_moves(solved_facelets(3), "R U R' U'")).valid
True
>>> twisted = apply_fix(solved_facelets(3), twist_corner_fix(3, 0, 1))
>>> report = validate(twisted)
>>> [p.code for p in report.problems], report.classic_error
(['corner-twist'], 5)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from operator import itemgetter

from solver.cubie import (
    CORNERS,
    EDGES,
    CubieCube,
    corner_lookup,
    corner_slots,
    edge_lookup,
    edge_slots,
    permutation_parity,
)
from solver.errors import CubescanError
from solver.geometry import FACES, OPPOSITE, cube_geometry
from solver.state import CubeState, parse_state

# Error numbers of the classic two-phase solver's verify step, by problem code, so
# robot code written against that solver can keep its error handling.
CLASSIC_ERROR = {
    "bad-format": 1,
    "color-count": 1,
    "center-duplicate": 1,
    "edge-invalid": 2,
    "edge-duplicate": 2,
    "edge-flip": 3,
    "corner-invalid": 4,
    "corner-duplicate": 4,
    "corner-twist": 5,
    "permutation-parity": 6,
}

_TURN_WORDS = {1: "clockwise", 2: "counterclockwise"}


@dataclass(frozen=True)
class Fix:
    """One physical action that repairs (part of) a cube.

    Attributes
    ----------
    action
        ``"twist-corner"``, ``"flip-edge"``, ``"swap-pieces"``, ``"swap-stickers"``,
        ``"restick"``, ``"swap-centers"``, or ``"inspect"`` (no single mechanical fix
        is known; a person must look).
    facelets
        The stickers it touches: a corner's three in clockwise order, an edge's two,
        two pieces' stickers one after the other, two stickers, or one sticker.
    text
        The instruction in words.
    turns
        For ``twist-corner``: 1 = clockwise, 2 = counterclockwise (seen from outside).
    letter
        For ``restick``: the face letter the sticker must get.
    """

    action: str
    facelets: tuple[int, ...]
    text: str
    turns: int = 0
    letter: str = ""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a cube.

    Attributes
    ----------
    code
        Stable code from DESIGN.md (``corner-twist``, ``edge-flip``, ...).
    message
        What is wrong, in words, naming the pieces.
    pieces
        Slot names involved (``"URF"``, ``"UF"``), where pieces apply.
    facelets
        Facelet indices involved.
    fix
        Steps that repair this problem (possibly shared with other problems).
    """

    code: str
    message: str
    pieces: tuple[str, ...] = ()
    facelets: tuple[int, ...] = ()
    fix: tuple[Fix, ...] = ()


@dataclass(frozen=True)
class ValidationReport:
    """The verdict on one cube state.

    Attributes
    ----------
    size
        N (0 when even the length was unreadable).
    facelets
        The state in face letters, or ``""`` when it could not be read.
    symbols
        The user's symbol for each face, in URFDLB order.
    problems
        Everything found wrong, in check order; empty for a solvable cube.
    twist, flip, parity
        Corner twist total (0-2), edge flip total (0-1) and permutation parity (0 when
        corner and edge parities agree), or None when the pieces did not allow the test.
    classic_error
        0 when solvable, else the classic two-phase verify error number (1-6) of the
        first failing check in that solver's order.
    """

    size: int
    facelets: str
    symbols: str
    problems: tuple[Problem, ...]
    twist: int | None = None
    flip: int | None = None
    parity: int | None = None
    classic_error: int = 0
    repaired_facelets: str | None = field(default=None, compare=False)

    @property
    def valid(self) -> bool:
        """True when the cube can be solved."""
        return not self.problems

    @property
    def readable(self) -> bool:
        """False when the input was not a cube state at all (``bad-format``)."""
        return not any(p.code == "bad-format" for p in self.problems)

    @property
    def orbit(self) -> int | None:
        """Which of the 12 orbits (twist x flip x parity) the cube is in; 0 = solvable."""
        if self.twist is None or self.flip is None or self.parity is None:
            return None
        return self.twist * 4 + self.flip * 2 + self.parity

    @property
    def fix(self) -> tuple[Fix, ...]:
        """One combined list of steps that makes the cube solvable (no repeats)."""
        steps: list[Fix] = []
        for problem in self.problems:
            for step in problem.fix:
                if step not in steps:
                    steps.append(step)
        return tuple(steps)

    @property
    def summary(self) -> str:
        """One line: the verdict and, when unsolvable, what to do."""
        if self.valid:
            return "solvable"
        codes = ", ".join(dict.fromkeys(p.code for p in self.problems))
        steps = "; then ".join(step.text for step in self.fix)
        return f"not solvable ({codes}): {steps}" if steps else f"not solvable ({codes})"

    def to_dict(self) -> dict:
        """A JSON-ready dictionary (the ``valid``/``problems`` part of DESIGN.md's report)."""
        names = _facelet_namer(self.size)
        return {
            "size": self.size,
            "facelets": self.facelets,
            "valid": self.valid,
            "problems": [
                {
                    "code": p.code,
                    "message": p.message,
                    "pieces": list(p.pieces),
                    "facelets": [names(i) for i in p.facelets],
                    "fix": " ".join(step.text for step in p.fix),
                }
                for p in self.problems
            ],
            "fix": [step.text for step in self.fix],
            "orbit": None
            if self.orbit is None
            else {"twist": self.twist, "flip": self.flip, "parity": self.parity},
            "classic_error": self.classic_error,
        }


def _facelet_namer(size: int):
    if size == 0:
        return str
    return cube_geometry(size).facelet_name


# --------------------------------------------------------------------------- fixes


def apply_fix(facelets: str, fix: Fix) -> str:
    """Carry out a fix on a facelet string (face letters) and return the new string.

    Parameters
    ----------
    facelets
        The state the fix was computed for.
    fix
        A step from a :class:`Problem` or :attr:`ValidationReport.fix`.

    Returns
    -------
    str

    Raises
    ------
    ValueError
        For ``inspect`` fixes, which need a person.

    Examples
    --------
    >>> from solver.moves import solved_facelets
    >>> s = apply_fix(solved_facelets(3), Fix("flip-edge", (5, 10), "flip UR"))
    >>> s[5], s[10]
    ('R', 'U')
    """
    letters = list(facelets)
    f = fix.facelets
    if fix.action == "twist-corner":
        for k in range(3):
            letters[f[(k + fix.turns) % 3]] = facelets[f[k]]
    elif fix.action in ("flip-edge", "swap-stickers"):
        letters[f[0]], letters[f[1]] = facelets[f[1]], facelets[f[0]]
    elif fix.action == "swap-pieces":
        half = len(f) // 2
        for a, b in zip(f[:half], f[half:], strict=True):
            letters[a], letters[b] = facelets[b], facelets[a]
    elif fix.action == "restick":
        letters[f[0]] = fix.letter
    elif fix.action == "swap-centers":
        x, y = facelets[f[0]], facelets[f[1]]
        swap = {x: y, y: x}
        letters = [ch if i in f else swap.get(ch, ch) for i, ch in enumerate(facelets)]
    else:
        raise ValueError(f"the fix {fix.action!r} needs a person: {fix.text}")
    return "".join(letters)


def twist_corner_fix(size: int, slot: int, turns: int) -> Fix:
    """The fix "twist the corner in ``slot`` clockwise (1) or counterclockwise (2)".

    Examples
    --------
    >>> twist_corner_fix(3, 0, 1).text
    'twist the corner at URF once clockwise (seen from outside)'
    """
    return Fix(
        "twist-corner",
        corner_slots(size)[slot],
        f"twist the corner at {CORNERS[slot]} once {_TURN_WORDS[turns]} (seen from outside)",
        turns=turns,
    )


def _flip_edge_fix(slot: int) -> Fix:
    return Fix("flip-edge", edge_slots(3)[slot], f"flip the edge at {EDGES[slot]} in place")


def _swap_pieces_fix(kind: str, names: tuple[str, ...], slots, a: int, b: int) -> Fix:
    return Fix(
        "swap-pieces",
        tuple(slots[a]) + tuple(slots[b]),
        f"swap the two {kind}s at {names[a]} and {names[b]}",
    )


# ---------------------------------------------------------------- piece readings


@dataclass(frozen=True)
class _Reading:
    """What one slot holds: a real piece (with orientation) or why it is not one."""

    slot: int
    letters: str
    piece: int | None
    ori: int | None
    mirror_of: int | None


def _read_slots(facelets: str, slots, lookup, names) -> list[_Reading]:
    readings = []
    mirrors = {key[::-1]: value for key, value in lookup.items()} if len(names[0]) == 3 else {}
    for slot, stickers in enumerate(slots):
        letters = "".join(facelets[i] for i in stickers)
        hit = lookup.get(letters)
        if hit:
            readings.append(_Reading(slot, letters, hit[0], hit[1], None))
        else:
            mirror = mirrors.get(letters)
            readings.append(_Reading(slot, letters, None, None, mirror[0] if mirror else None))
    return readings


def _why_not_a_piece(reading: _Reading, kind: str, names, symbols: str) -> str:
    shown = ", ".join(symbols[FACES.index(ch)] for ch in reading.letters)
    where = f"the {kind} at {names[reading.slot]} shows {shown}"
    if reading.mirror_of is not None:
        return (
            f"{where}: the colours of the {names[reading.mirror_of]} {kind} in mirror order, "
            "so two of its stickers were swapped"
        )
    repeated = [ch for ch, n in Counter(reading.letters).items() if n > 1]
    if repeated:
        return f"{where}: the colour {symbols[FACES.index(repeated[0])]} appears twice"
    for a, b in combinations(reading.letters, 2):
        if OPPOSITE[a] == b:
            colours = f"{symbols[FACES.index(a)]} and {symbols[FACES.index(b)]}"
            return f"{where}: {colours} belong on opposite faces"
    return f"{where}: no such piece exists"


@dataclass(frozen=True)
class _PieceCheck:
    """Structural problems of one kind of piece plus the cubie data when all are real."""

    problems: tuple[Problem, ...]
    perm: tuple[int, ...] | None
    ori: tuple[int, ...] | None
    bad_facelets: frozenset[int]


def _check_kind(facelets: str, kind: str, slots, lookup, names, symbols: str) -> _PieceCheck:
    readings = _read_slots(facelets, slots, lookup, names)
    invalid = [r for r in readings if r.piece is None]
    problems = []
    bad: set[int] = set()
    if invalid:
        for r in invalid:
            bad.update(slots[r.slot])
        problems.append(
            Problem(
                f"{kind}-invalid",
                "; ".join(_why_not_a_piece(r, kind, names, symbols) for r in invalid),
                tuple(names[r.slot] for r in invalid),
                tuple(i for r in invalid for i in slots[r.slot]),
            )
        )
    where: dict[int, list[int]] = {}
    for r in readings:
        if r.piece is not None:
            where.setdefault(r.piece, []).append(r.slot)
    repeated = {piece: at for piece, at in where.items() if len(at) > 1}
    if repeated:
        missing = [names[p] for p in range(len(names)) if p not in where]
        parts = [
            f"the {names[piece]} {kind} appears {len(at)} times "
            f"(at {', '.join(names[s] for s in at)})"
            for piece, at in repeated.items()
        ]
        if missing:
            parts.append(f"missing: {', '.join(missing)}")
        for at in repeated.values():
            for s in at:
                bad.update(slots[s])
        problems.append(
            Problem(
                f"{kind}-duplicate",
                "; ".join(parts),
                tuple(names[s] for at in repeated.values() for s in at),
                tuple(i for at in repeated.values() for s in at for i in slots[s]),
            )
        )
    if problems:
        return _PieceCheck(tuple(problems), None, None, frozenset(bad))
    perm = tuple(r.piece for r in readings)
    ori = tuple(r.ori for r in readings)
    return _PieceCheck((), perm, ori, frozenset())  # type: ignore[arg-type]


def _count_problem(facelets: str, size: int, symbols: str) -> Problem | None:
    counts = Counter(facelets)
    target = size * size
    off = [(face, counts.get(face, 0)) for face in FACES if counts.get(face, 0) != target]
    if not off:
        return None
    parts = [f"{symbols[FACES.index(face)]} appears {n} times" for face, n in off]
    return Problem(
        "color-count",
        f"{'; '.join(parts)} (each colour must appear exactly {target} times)",
        (),
        tuple(i for i, ch in enumerate(facelets) if counts[ch] > target),
    )


# ------------------------------------------------------------ solvability tests


def _twist_problem(size: int, cube: CubieCube) -> Problem | None:
    total = cube.corner_twist_total
    if total == 0:
        return None
    # A clockwise twist adds 1 to a corner's orientation; undo the excess on a corner
    # that carries exactly that twist, preferably one already in its home slot.
    turns = 3 - total
    candidates = [s for s in range(8) if cube.co[s] == total]
    home = [s for s in candidates if cube.cp[s] == s]
    slot = (home or candidates or [0])[0]
    fix = twist_corner_fix(size, slot, turns)
    word = _TURN_WORDS[total]
    return Problem(
        "corner-twist",
        f"the corners carry one {word} twist too many (twist total {total} of 3): "
        f"one corner is twisted in place, for example the one at {CORNERS[slot]}",
        (CORNERS[slot],),
        fix.facelets,
        (fix,),
    )


def _flip_problem(eo: tuple[int, ...], ep: tuple[int, ...]) -> Problem | None:
    if sum(eo) % 2 == 0:
        return None
    candidates = [s for s in range(12) if eo[s] == 1]
    home = [s for s in candidates if ep[s] == s]
    slot = (home or candidates)[0]
    fix = _flip_edge_fix(slot)
    return Problem(
        "edge-flip",
        f"one edge is flipped in place, for example the one at {EDGES[slot]}",
        (EDGES[slot],),
        fix.facelets,
        (fix,),
    )


def _best_transposition(perm: tuple[int, ...]) -> tuple[int, int] | None:
    """Two slots whose swap puts both pieces home, else two misplaced slots."""
    for slot, piece in enumerate(perm):
        if piece != slot and perm[piece] == slot:
            return (min(slot, piece), max(slot, piece))
    misplaced = [slot for slot, piece in enumerate(perm) if piece != slot]
    return (misplaced[0], misplaced[1]) if len(misplaced) >= 2 else None


def _parity_problem(size: int, cube: CubieCube) -> Problem | None:
    if cube.corner_parity == cube.edge_parity:
        return None
    edge_pair = _best_transposition(cube.ep)
    corner_pair = _best_transposition(cube.cp)
    if edge_pair and cube.ep[edge_pair[0]] == edge_pair[1]:
        kind, names, slots, pair = "edge", EDGES, edge_slots(3), edge_pair
    elif corner_pair and cube.cp[corner_pair[0]] == corner_pair[1]:
        kind, names, slots, pair = "corner", CORNERS, corner_slots(size), corner_pair
    else:
        kind, names, slots, pair = "edge", EDGES, edge_slots(3), edge_pair or (0, 1)
    fix = _swap_pieces_fix(kind, names, slots, *pair)
    return Problem(
        "permutation-parity",
        "the corner and edge permutations have different parity: two pieces are "
        f"exchanged, for example the {kind}s at {names[pair[0]]} and {names[pair[1]]}",
        (names[pair[0]], names[pair[1]]),
        fix.facelets,
        (fix,),
    )


# ---------------------------------------------------------------- the pipeline


@dataclass(frozen=True)
class _Findings:
    structural: tuple[Problem, ...]
    solvability: tuple[Problem, ...]
    twist: int | None
    flip: int | None
    parity: int | None
    bad_facelets: frozenset[int]


def _examine(facelets: str, size: int, symbols: str) -> _Findings:
    """All checks after the format ones, without searching for structural fixes."""
    structural: list[Problem] = []
    count = _count_problem(facelets, size, symbols)
    if count:
        structural.append(count)
    corners = _check_kind(facelets, "corner", corner_slots(size), corner_lookup(), CORNERS, symbols)
    structural.extend(corners.problems)
    bad = set(corners.bad_facelets)
    edges = None
    if size == 3:
        edges = _check_kind(facelets, "edge", edge_slots(3), edge_lookup(), EDGES, symbols)
        structural.extend(edges.problems)
        bad |= edges.bad_facelets

    solvability: list[Problem] = []
    twist = flip = parity = None
    if corners.perm is not None:
        cube = CubieCube(corners.perm, corners.ori, (), ())  # type: ignore[arg-type]
        twist = cube.corner_twist_total
        if twist:
            solvability.append(_twist_problem(size, cube))  # type: ignore[arg-type]
    if edges is not None and edges.perm is not None:
        flip = sum(edges.ori) % 2  # type: ignore[arg-type]
        problem = _flip_problem(edges.ori, edges.perm)  # type: ignore[arg-type]
        if problem:
            solvability.append(problem)
        if corners.perm is not None:
            cube = CubieCube(corners.perm, corners.ori, edges.perm, edges.ori)  # type: ignore[arg-type]
            parity = int(cube.corner_parity != cube.edge_parity)
            problem = _parity_problem(size, cube)
            if problem:
                solvability.append(problem)
    if size == 2:
        flip = parity = 0  # a 2x2 has no edges and any corner permutation is reachable
    return _Findings(tuple(structural), tuple(solvability), twist, flip, parity, frozenset(bad))


def _candidate_fixes(facelets: str, findings: _Findings, size: int, symbols: str) -> list[Fix]:
    """Single physical changes that might remove the structural problems."""
    geo = cube_geometry(size)
    name = geo.facelet_name
    counts = Counter(facelets)
    target = size * size
    surplus = [face for face in FACES if counts.get(face, 0) > target]
    deficit = [face for face in FACES if counts.get(face, 0) < target]
    suspects = sorted(findings.bad_facelets)
    fixes: list[Fix] = []
    if surplus and deficit:
        for i in suspects:
            if facelets[i] in surplus:
                for letter in deficit:
                    fixes.append(
                        Fix(
                            "restick",
                            (i,),
                            f"the sticker at {name(i)} has the wrong colour: re-stick it "
                            f"with {symbols[FACES.index(letter)]} (the {letter} face's colour)",
                            letter=letter,
                        )
                    )
        return fixes
    for a, b in combinations(suspects, 2):
        if facelets[a] != facelets[b]:
            fixes.append(
                Fix(
                    "swap-stickers",
                    (a, b),
                    f"the stickers at {name(a)} and {name(b)} were swapped: swap them back",
                )
            )
    if size % 2 and len(findings.structural) and len(suspects) >= 12:
        centre = target // 2
        for fa, fb in combinations(range(6), 2):
            a, b = fa * target + centre, fb * target + centre
            fixes.append(
                Fix(
                    "swap-centers",
                    (a, b),
                    f"the centre stickers of {FACES[fa]} and {FACES[fb]} are swapped: "
                    "swap them back",
                )
            )
    return fixes


def _structural_fix(facelets: str, findings: _Findings, size: int, symbols: str):
    """Best single change for the structural problems: (fixes, repaired state) or None."""
    scored = []
    for fix in _candidate_fixes(facelets, findings, size, symbols):
        after = _examine(apply_fix(facelets, fix), size, symbols)
        scored.append(((len(after.structural), len(after.solvability)), fix))
    if not scored:
        return None
    best = min(score for score, _ in scored)
    if best[0] > 0:
        return None
    return [fix for score, fix in scored if score == best]


def validate(state: str | CubeState) -> ValidationReport:
    """Check whether a cube state is solvable and diagnose it when it is not.

    Parameters
    ----------
    state
        A facelet string in any alphabet (see :func:`solver.state.parse_state`) or a
        parsed :class:`CubeState`. 2x2 and 3x3 cubes are supported.

    Returns
    -------
    ValidationReport
        ``valid`` plus every problem with its fix; never raises for bad input
        (an unreadable string gives a ``bad-format`` problem).

    Examples
    --------
    >>> validate("UUUUUUUUU").problems[0].code
    'bad-format'
    """
    quick = _quick_verdict(state)
    if quick is not None:
        return quick
    try:
        cube = state if isinstance(state, CubeState) else parse_state(state)
    except CubescanError as err:
        problem = Problem(err.code, err.message, fix=(Fix("inspect", (), _READ_AGAIN),))
        return ValidationReport(0, "", FACES, (problem,), classic_error=1)
    if cube.size > 3:
        raise CubescanError(
            "unsupported-size",
            f"validating a {cube.size}x{cube.size} cube is not supported yet (2x2 and 3x3 are)",
        )
    findings = _examine(cube.facelets, cube.size, cube.symbols)
    if not findings.structural and not findings.solvability:
        return ValidationReport(cube.size, cube.facelets, cube.symbols, (), 0, 0, 0, 0)
    problems = list(findings.structural)
    solvability = list(findings.solvability)
    repaired = None
    if findings.structural:
        fixes = _structural_fix(cube.facelets, findings, cube.size, cube.symbols)
        if fixes:
            if len(fixes) == 1:
                step = fixes[0]
            else:
                options = " or ".join(f"({fix.text})" for fix in fixes)
                step = Fix("inspect", tuple(i for f in fixes for i in f.facelets), options)
            problems = [Problem(p.code, p.message, p.pieces, p.facelets, (step,)) for p in problems]
            if len(fixes) == 1:
                repaired = apply_fix(cube.facelets, step)
                solvability = [
                    _after_repair(p)
                    for p in _examine(repaired, cube.size, cube.symbols).solvability
                ]
        else:
            problems = [
                Problem(p.code, p.message, p.pieces, p.facelets, (_inspect_fix(p),))
                for p in problems
            ]
    all_problems = tuple(problems + [p for p in solvability if p.code not in _codes(problems)])
    return ValidationReport(
        cube.size,
        cube.facelets,
        cube.symbols,
        all_problems,
        findings.twist,
        findings.flip,
        findings.parity,
        _classic_error(all_problems),
        repaired,
    )


_READ_AGAIN = "re-read or re-type the cube state"


@lru_cache(maxsize=1)
def _slot_getters() -> tuple[itemgetter, itemgetter]:
    corners = itemgetter(*(i for slot in corner_slots(3) for i in slot))
    edges = itemgetter(*(i for slot in edge_slots(3) for i in slot))
    return corners, edges


@lru_cache(maxsize=256)
def _centre_table(centres: str) -> dict[int, int]:
    return str.maketrans(centres, FACES)


def _quick_verdict(state: str | CubeState) -> ValidationReport | None:
    """The common case, fast: a well-formed solvable 3x3 string. None means "look closer".

    Counting colours is unnecessary here: six distinct centres plus every slot holding
    a different real piece already imply N*N stickers of each colour.
    """
    if isinstance(state, CubeState):
        if state.size != 3:
            return None
        text, symbols = state.facelets, state.symbols
    elif len(state) == 54:
        symbols = state[4] + state[13] + state[22] + state[31] + state[40] + state[49]
        text = state.translate(_centre_table(symbols))
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


def _codes(problems) -> set[str]:
    return {p.code for p in problems}


def _after_repair(problem: Problem) -> Problem:
    return Problem(
        problem.code,
        f"after the re-sticking above, {problem.message}",
        problem.pieces,
        problem.facelets,
        problem.fix,
    )


def _inspect_fix(problem: Problem) -> Fix:
    return Fix(
        "inspect",
        problem.facelets,
        "more than one sticker is wrong here: compare these pieces with a solved cube "
        "and re-stick or re-read them",
    )


def _classic_error(problems) -> int:
    return min((CLASSIC_ERROR.get(p.code, 1) for p in problems), default=0)


def is_solvable(state: str | CubeState) -> bool:
    """Fast yes/no: is this state solvable? (No diagnosis; see :func:`validate`.)

    Examples
    --------
    >>> from solver.moves import solved_facelets
    >>> is_solvable(solved_facelets(3))
    True
    """
    return validate(state).valid
