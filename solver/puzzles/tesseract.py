"""Is this 2x2x2x2 or 3x3x3x3 solvable, and if not, what is wrong and how is it fixed?

The checks are the puzzle's laws, derived once from its geometry (no group computation
at run time; the oracle in :mod:`cubescan.solver.puzzles.oracle` checks the laws):

1. format: 64 or 216 stickers, eight symbols, each on a cell's worth of stickers; on
   the 3x3x3x3 eight distinct centres. The 2x2x2x2 has no fixed piece: the corner at
   L, D, B, I names those four colours (cell letters OIRLUDFB are taken as they are
   when that corner reads as a real piece), and the colours never found together
   on a corner are opposite.
2. pieces, orbit by orbit: every slot holds a real piece (a corner is never a mirror
   image) and each piece is there once.
3. laws. Corners: their permutation is even, and their orientations (each an element of
   A4, the rotations of a corner that keep its place) have a twist total of 0 in A4's
   quotient Z3 (Hoey, 1982). A corner turned by a double swap of its stickers (the
   monoflip) is in A4's Klein subgroup and breaks no law. On the 3x3x3x3 also: the
   3-colour edges' stickers are in an even arrangement overall (the sign of S3, summed),
   the 2-colour ridges' flips are even, and edge and ridge permutations have equal parity.

Each problem carries a stable code and a :class:`~cubescan.solver.fixes.Fix` a person
can carry out (and :func:`~cubescan.solver.fixes.apply_fix` carries out on the string).
Broken pieces are explained, when one change does it, by a small search over single
re-stickings and sticker swaps, as for the cube.

Examples
--------
>>> from cubescan.solver.puzzles.moves import apply_twists
>>> validate_tesseract(apply_twists("2x2x2x2", "Of Ru' Uo Fr2")).valid
True
>>> state = apply_twists("3x3x3x3", "Of Lu")
>>> corner = puzzle("3x3x3x3").pieces[0].stickers
>>> mirrored = apply_fix(state, Fix("swap-stickers", corner[:2], "mirror a corner"))
>>> report = validate_tesseract(mirrored)
>>> [p.code for p in report.problems], report.fix[0].text
(['corner-invalid'], 'the corner at OLDB is a mirror image: swap its stickers at O and L')
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import permutations
from operator import itemgetter

from cubescan.solver.cubie import permutation_parity
from cubescan.solver.fixes import Fix, apply_fix, sticker_fixes
from cubescan.solver.puzzles.definition import CELLS, Puzzle, frame_sign, normalize_name, puzzle
from cubescan.solver.puzzles.report import TesseractReport
from cubescan.solver.validate import Problem

_OPPOSITE = {"O": "I", "I": "O", "R": "L", "L": "R", "U": "D", "D": "U", "F": "B", "B": "F"}
_KLEIN = ((0, 1, 2, 3), (1, 0, 3, 2), (2, 3, 0, 1), (3, 2, 1, 0))
_READ_AGAIN = "re-read or re-type the state"
# Beyond this many stickers on broken pieces a single mechanical fix is implausible and
# the search slow, so a person is asked to look (as for the cube).
_MAX_SUSPECTS = 24


def _compose(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(a[b[i]] for i in range(len(b)))


@cache
def _twist_table() -> dict[tuple[int, ...], int]:
    """A4 -> Z3: the coset of the Klein group, 1 for Hoey's VXYW (V kept, W X Y cycled)."""
    table = {}
    power = (0, 1, 2, 3)
    for twist in range(3):
        for klein in _KLEIN:
            table[_compose(klein, power)] = twist
        power = _compose((0, 2, 3, 1), power)
    return table


def corner_twist(orientation: tuple[int, int, int, int]) -> int:
    """The Z3 twist of a tesseract corner's orientation (an even permutation of 4).

    Parameters
    ----------
    orientation
        ``o`` with the colour at the slot's ``k``-th place being the piece's ``o[k]``-th
        (both read in their positively oriented order).

    Returns
    -------
    int
        0 for the identity and the three monoflips, 1 or 2 for the 3-cycles.

    Examples
    --------
    >>> corner_twist((0, 1, 2, 3)), corner_twist((1, 0, 3, 2)), corner_twist((0, 2, 3, 1))
    (0, 0, 1)
    """
    return _twist_table()[tuple(orientation)]


def _sign(order: tuple[int, ...]) -> int:
    return permutation_parity(order)


@lru_cache(maxsize=16)
def _getter(slots: tuple[tuple[int, ...], ...]) -> itemgetter:
    return itemgetter(*(i for slot in slots for i in slot))


@dataclass(frozen=True)
class _OrbitTable:
    kind: str
    name: str
    slots: tuple[tuple[int, ...], ...]
    names: tuple[str, ...]
    readings: dict  # reading -> (piece, orientation, twist or sign) for every real piece
    mirrors: dict  # reading -> piece for mirror images (only corners have them)


@cache
def _tables(name: str) -> tuple[_OrbitTable, ...]:
    p = puzzle(name)
    tables = []
    for orbit in p.orbits:
        if orbit.kind == "center":
            continue
        members = [p.pieces[k] for k in orbit.pieces]
        # The arrangements a piece can show in a slot are the slot's rotations (the
        # orbit's orientation group, closed under inverses); any other is a mirror image.
        real = set(orbit.orientations)
        readings, mirrors = {}, {}
        for index, piece in enumerate(members):
            for order in permutations(range(len(piece.cells))):
                reading = "".join(piece.cells[k] for k in order)
                if order not in real:
                    mirrors[reading] = index
                else:
                    law = corner_twist(order) if orbit.kind == "corner" else _sign(order)
                    readings[reading] = (index, order, law)
        tables.append(
            _OrbitTable(
                orbit.kind,
                orbit.name,
                tuple(piece.stickers for piece in members),
                tuple(piece.cells for piece in members),
                readings,
                mirrors,
            )
        )
    return tuple(tables)


# ---------------------------------------------------------------- reading the state


def _bad(name: str, message: str) -> TesseractReport:
    problem = Problem("bad-format", message, fix=(Fix("inspect", (), _READ_AGAIN),))
    return TesseractReport(name, "", CELLS, (problem,), classic_error=1)


def _reference_corner(p: Puzzle) -> int:
    """The corner on L, D, B and I (all coordinates negative)."""
    return next(k for k, piece in enumerate(p.pieces) if set(piece.cells) == set("LDBI"))


def _map_by_corner(p: Puzzle, text: str) -> dict[str, str] | None:
    """Symbol -> cell for a 2x2x2x2, from the LDBI corner and the opposite pairs."""
    corner = p.pieces[_reference_corner(p)]
    seen = [text[i] for i in corner.stickers]
    if len(set(seen)) < 4:
        return None
    if set(text) == set(CELLS):
        reading = "".join(seen)
        if frame_sign(reading) == frame_sign(corner.cells) and len(set(map(_axis, reading))) == 4:
            # A real corner in letters: relabel by the rotation that takes it home.
            mapping = {}
            for symbol, cell in zip(reading, corner.cells, strict=True):
                mapping[symbol], mapping[_OPPOSITE[symbol]] = cell, _OPPOSITE[cell]
            return mapping
        return {cell: cell for cell in CELLS}
    others = sorted(set(text) - set(seen))
    if len(others) != 4:
        return None
    corners = _tables(p.name)[0]
    chars = "".join(_getter(corners.slots)(text))
    windows = [chars[k : k + 4] for k in range(0, len(chars), 4)]
    partners: dict[str, set[str]] = {}
    for window in windows:
        for a in window:
            partners.setdefault(a, set()).update(window)
    lonely = [[b for b in others if b not in partners.get(a, ())] for a in seen]
    if all(len(c) == 1 for c in lonely) and len({c[0] for c in lonely}) == 4:
        best: tuple[str, ...] = tuple(c[0] for c in lonely)
    else:
        # Broken pieces pair some colours up: take the pairing that shares fewest corners.
        def shared(order: tuple[str, ...]) -> int:
            pairs = zip(seen, order, strict=True)
            return sum(sum(a in w and b in w for w in windows) for a, b in pairs)

        best = min(permutations(others), key=shared)
    mapping = dict(zip(seen, corner.cells, strict=True))
    mapping.update({b: _OPPOSITE[cell] for b, cell in zip(best, corner.cells, strict=True)})
    return mapping


def _mostly_mirrored(name: str, letters: str) -> bool:
    corners = _tables(name)[0]
    chars = "".join(_getter(corners.slots)(letters))
    mirrored = sum(chars[k : k + 4] in corners.mirrors for k in range(0, len(chars), 4))
    return mirrored > len(corners.slots) // 2


def _axis(cell: str) -> str:
    return min(cell, _OPPOSITE[cell])


def _read(name: str, state: str) -> tuple[str, str] | TesseractReport:
    """(state in cell letters, the user's symbol per cell) or a report of why not."""
    p = puzzle(name)
    text = "".join(state.split())
    if len(text) != len(p.positions):
        return _bad(
            name, f"a {name} state has {len(p.positions)} stickers, this one has {len(text)}"
        )
    symbols = sorted(set(text))
    if len(symbols) > 8:
        listed = ", ".join(repr(s) for s in symbols)
        return _bad(name, f"found {len(symbols)} different symbols ({listed}); it has 8 colours")
    if p.size % 2:
        centers = [p.pieces[k].stickers[0] for k in p.orbits[-1].pieces]
        shown = [text[i] for i in centers]
        if len(set(shown)) < 8:
            repeated = [s for s, n in Counter(shown).items() if n > 1]
            problem = Problem(
                "center-duplicate",
                f"the cell centres show {', '.join(repeated)} more than once: every cell's "
                "centre has its own colour",
                (),
                tuple(i for i in centers if text[i] in repeated),
                (Fix("inspect", tuple(centers), _READ_AGAIN),),
            )
            return TesseractReport(name, "", CELLS, (problem,), classic_error=1)
        mapping = dict(zip(shown, (p.pieces[k].cells for k in p.orbits[-1].pieces), strict=True))
    else:
        mapping = _map_by_corner(p, text)
        by_colours = set(text) != set(CELLS)
        if (
            by_colours
            and mapping
            and _mostly_mirrored(name, text.translate(str.maketrans(mapping)))
        ):
            # The LDBI corner itself is the mirror image: name the colours by its
            # reflection, so that it alone, not every other corner, reads as mirrored.
            corner = p.pieces[_reference_corner(p)].cells
            swap = {corner[0]: corner[1], corner[1]: corner[0]}
            swap.update({_OPPOSITE[a]: _OPPOSITE[b] for a, b in swap.items()})
            mapping = {symbol: swap.get(cell, cell) for symbol, cell in mapping.items()}
        if mapping is None or len(mapping) < len(symbols):
            return _bad(
                name,
                "cannot tell which colour belongs on which cell: the corner at L, D, B, I must "
                "show four different colours, and there must be eight colours in all",
            )
    by_cell = {cell: symbol for symbol, cell in mapping.items()}
    cells = "".join(by_cell.get(cell, cell) for cell in CELLS)
    return text.translate(str.maketrans(mapping)), cells


# -------------------------------------------------------------------- the checks


@dataclass(frozen=True)
class _Pieces:
    problems: tuple[Problem, ...]
    perm: tuple[int, ...] | None
    law: tuple[int, ...]  # each slot's twist (corners) or sign (edges, ridges)


def _why(table: _OrbitTable, slot: int, reading: str, symbols: str) -> str:
    shown = ", ".join(symbols[CELLS.index(c)] for c in reading)
    where = f"the {table.kind} at {table.names[slot]} shows {shown}"
    if reading in table.mirrors:
        twin = table.names[table.mirrors[reading]]
        return (
            f"{where}: the colours of the {twin} corner in mirror order, so two of its "
            "stickers were swapped"
        )
    repeated = [c for c, n in Counter(reading).items() if n > 1]
    if repeated:
        return f"{where}: the colour {symbols[CELLS.index(repeated[0])]} appears twice"
    if any(_OPPOSITE[a] == b for a in reading for b in reading):
        return f"{where}: it has two colours of opposite cells"
    return f"{where}: no such piece exists"


def _check_orbit(letters: str, table: _OrbitTable, symbols: str) -> _Pieces:
    chars = "".join(_getter(table.slots)(letters))
    width = len(table.slots[0])
    readings = [chars[k : k + width] for k in range(0, len(chars), width)]
    hits = [table.readings.get(r) for r in readings]
    problems = []
    invalid = [s for s, hit in enumerate(hits) if hit is None]
    if invalid:
        problems.append(
            Problem(
                f"{table.kind}-invalid",
                "; ".join(_why(table, s, readings[s], symbols) for s in invalid),
                tuple(table.names[s] for s in invalid),
                tuple(i for s in invalid for i in table.slots[s]),
                orbit=table.name,
            )
        )
    where: dict[int, list[int]] = {}
    for slot, hit in enumerate(hits):
        if hit is not None:
            where.setdefault(hit[0], []).append(slot)
    repeated = {piece: at for piece, at in where.items() if len(at) > 1}
    if repeated:
        missing = [table.names[k] for k in range(len(table.slots)) if k not in where]
        parts = [
            f"the {table.names[k]} {table.kind} appears {len(at)} times "
            f"(at {', '.join(table.names[s] for s in at)})"
            for k, at in repeated.items()
        ]
        if missing:
            parts.append(f"missing: {', '.join(missing)}")
        involved = [s for at in repeated.values() for s in at]
        problems.append(
            Problem(
                f"{table.kind}-duplicate",
                "; ".join(parts),
                tuple(table.names[s] for s in involved),
                tuple(i for s in involved for i in table.slots[s]),
                orbit=table.name,
            )
        )
    if problems:
        return _Pieces(tuple(problems), None, ())
    return _Pieces(
        (),
        tuple(h[0] for h in hits),  # type: ignore[index]
        tuple(h[2] for h in hits),  # type: ignore[index]
    )


def _color_count(letters: str, p: Puzzle, symbols: str) -> Problem | None:
    counts = Counter(letters)
    target = p.stickers_per_cell
    off = [(c, counts.get(c, 0)) for c in CELLS if counts.get(c, 0) != target]
    if not off:
        return None
    parts = [f"{symbols[CELLS.index(c)]} appears {n} times" for c, n in off]
    return Problem(
        "color-count",
        f"{'; '.join(parts)} (each colour must appear exactly {target} times)",
        (),
        tuple(i for i, ch in enumerate(letters) if counts[ch] > target),
        (Fix("inspect", (), "a sticker has the wrong colour: " + _READ_AGAIN),),
    )


def _home_first(candidates: list[int], perm: tuple[int, ...]) -> list[int]:
    return [s for s in candidates if perm[s] == s] + [s for s in candidates if perm[s] != s]


def _twist_fix(letters: str, table: _OrbitTable, slot: int) -> Fix:
    """Turn one corner by a third about one sticker so that the twist total becomes 0."""
    cycle = table.slots[slot][1:]
    cells = table.names[slot]
    for turns in (1, 2):
        fix = Fix("twist-corner", cycle, "", turns=turns)
        after = apply_fix(letters, fix)
        if _twist_total(after, table) == 0:
            break
    order = cells[1:] if turns == 1 else cells[1] + cells[3] + cells[2]
    text = (
        f"turn the corner at {cells} a third of a turn about its {cells[0]} sticker, "
        f"moving the stickers on {order[0]} to {order[1]}, {order[1]} to {order[2]} and "
        f"{order[2]} to {order[0]}"
    )
    return Fix("twist-corner", cycle, text, turns=turns)


def _twist_total(letters: str, table: _OrbitTable) -> int | None:
    total = 0
    for slot in table.slots:
        hit = table.readings.get("".join(letters[i] for i in slot))
        if hit is None:
            return None
        total += hit[2]
    return total % 3


def _swap_fix(table: _OrbitTable, perm: tuple[int, ...], skip: frozenset[int]) -> Fix:
    """Exchange two pieces: two that belong in each other's slot if there are such."""
    movable = [s for s in range(len(perm)) if s not in skip]
    pair = next(
        ((s, perm[s]) for s in movable if perm[s] != s and perm[perm[s]] == s),
        None,
    )
    if pair is None:
        misplaced = [s for s in movable if perm[s] != s] or movable
        pair = (misplaced[0], misplaced[1])
    a, b = sorted(pair)
    names = (table.names[a], table.names[b])
    return Fix(
        "swap-pieces",
        table.slots[a] + table.slots[b],
        f"exchange the {table.kind}s at {names[0]} and {names[1]}, each sticker going to "
        "the same place in the other slot's cell order (first cell to first cell, ...)",
    )


def _flip_fix(table: _OrbitTable, slot: int) -> Fix:
    a, b = table.slots[slot][:2]
    first, second = table.names[slot][:2]
    return Fix(
        "flip-edge",
        (a, b),
        f"turn the {table.kind} at {table.names[slot]} in place so that its stickers on "
        f"{first} and {second} change places",
    )


def _laws(
    letters: str, tables: tuple[_OrbitTable, ...], checks: dict, reference: int | None
) -> tuple[list[Problem], dict]:
    problems: list[Problem] = []
    found: dict = {}
    corners, corner_check = tables[0], checks["corner"]
    skip = frozenset() if reference is None else frozenset({reference})
    if corner_check.perm is not None:
        perm = corner_check.perm
        parity = permutation_parity(perm)
        twist = sum(corner_check.law) % 3
        found["corner_parity"], found["corner_twist"] = parity, twist
        if parity:
            fix = _swap_fix(corners, perm, skip)
            problems.append(
                Problem(
                    "corner-parity",
                    "the corners are in an odd permutation, which no twist makes (every "
                    "quarter-twist moves corners in two 4-cycles): two corners are exchanged",
                    tuple(corners.names[s] for s in range(len(perm)) if perm[s] != s)[:2],
                    fix.facelets,
                    (fix,),
                    orbit=corners.name,
                )
            )
        if twist:
            candidates = [s for s, t in enumerate(corner_check.law) if t and s not in skip]
            slot = _home_first(candidates, perm)[0]
            fix = _twist_fix(letters, corners, slot)
            problems.append(
                Problem(
                    "corner-twist",
                    f"the corners' twist total is {twist} of 3 (it must be 0): one corner is "
                    f"turned in place by a third, for example the one at {corners.names[slot]}",
                    (corners.names[slot],),
                    fix.facelets,
                    (fix,),
                    orbit=corners.name,
                )
            )
    for kind in ("edge", "ridge"):
        total_name, code = f"{kind}_flip", f"{kind}-flip"
        if kind not in checks or checks[kind].perm is None:
            continue
        table = next(t for t in tables if t.kind == kind)
        perm = checks[kind].perm
        flipped = [s for s, sign in enumerate(checks[kind].law) if sign]
        found[total_name] = len(flipped) % 2
        if len(flipped) % 2:
            slot = _home_first(flipped, perm)[0]
            fix = _flip_fix(table, slot)
            problems.append(
                Problem(
                    code,
                    f"an odd number of {kind}s have two stickers exchanged: one {kind} is "
                    f"flipped in place, for example the one at {table.names[slot]}",
                    (table.names[slot],),
                    fix.facelets,
                    (fix,),
                    orbit=table.name,
                )
            )
    if all(k in checks and checks[k].perm is not None for k in ("edge", "ridge")):
        edge_parity = permutation_parity(checks["edge"].perm)
        ridge_parity = permutation_parity(checks["ridge"].perm)
        found["parity"] = int(edge_parity != ridge_parity)
        if edge_parity != ridge_parity:
            ridges = next(t for t in tables if t.kind == "ridge")
            fix = _swap_fix(ridges, checks["ridge"].perm, frozenset())
            problems.append(
                Problem(
                    "permutation-parity",
                    "the edge and ridge permutations have different parity (every "
                    "quarter-twist changes both): two ridges (or two edges) are exchanged",
                    (),
                    fix.facelets,
                    (fix,),
                    orbit="edges and ridges",
                )
            )
    return problems, found


CLASSIC_ERROR = {
    "bad-format": 1,
    "color-count": 1,
    "center-duplicate": 1,
    "edge-invalid": 2,
    "edge-duplicate": 2,
    "ridge-invalid": 2,
    "ridge-duplicate": 2,
    "edge-flip": 3,
    "ridge-flip": 3,
    "corner-invalid": 4,
    "corner-duplicate": 4,
    "corner-twist": 5,
    "corner-parity": 6,
    "permutation-parity": 6,
}
"""Problem code -> the nearest error number of the cube's classic verify step."""


def _mirror_fix(letters: str, table: _OrbitTable, slot: int) -> Fix:
    """Swap two stickers of a mirrored corner, preferring the swap that breaks no law."""
    stickers = table.slots[slot]
    pairs = [(a, b) for k, a in enumerate(stickers) for b in stickers[k + 1 :]]
    for a, b in pairs:
        after = apply_fix(letters, Fix("swap-stickers", (a, b), ""))
        if _twist_total(after, table) == 0:
            break
    return Fix(
        "swap-stickers",
        (a, b),
        f"the corner at {table.names[slot]} is a mirror image: swap its stickers at "
        f"{table.names[slot][stickers.index(a)]} and {table.names[slot][stickers.index(b)]}",
    )


def _problem_counts(letters: str, p: Puzzle, reference: int | None) -> tuple[int, int]:
    """(structural problems, broken laws) of a state in cell letters, without fixes."""
    tables = _tables(p.name)
    broken = 1 if _color_count(letters, p, CELLS) else 0
    checks = {}
    for table in tables:
        check = _check_orbit(letters, table, CELLS)
        broken += len(check.problems)
        checks[table.kind] = check
    if broken:
        return broken, 0
    return 0, len(_laws(letters, tables, checks, reference)[0])


def _candidate_fixes(letters: str, problems: list[Problem], p: Puzzle, symbols: str) -> list[Fix]:
    """Single re-stickings or sticker swaps among the stickers of the broken pieces."""
    suspects = sorted({i for q in problems if q.code != "color-count" for i in q.facelets})
    if len(suspects) > _MAX_SUSPECTS:
        return []
    return sticker_fixes(
        letters,
        suspects,
        p.stickers_per_cell,
        CELLS,
        p.sticker_name,
        lambda c: f"{symbols[CELLS.index(c)]} (the {c} cell's colour)",
    )


def _structural_fix(
    letters: str, problems: list[Problem], p: Puzzle, symbols: str, reference: int | None
) -> Fix:
    """A mirrored corner's sticker swap, else the single change that leaves every piece
    real and breaks the fewest laws, else a request to look."""
    corners = _tables(p.name)[0]
    mirrored = [
        s
        for s, slot in enumerate(corners.slots)
        if "".join(letters[i] for i in slot) in corners.mirrors
    ]
    if len(mirrored) == 1 and {q.code for q in problems} == {"corner-invalid"}:
        return _mirror_fix(letters, corners, mirrored[0])
    scored = [
        (_problem_counts(apply_fix(letters, fix), p, reference), k, fix)
        for k, fix in enumerate(_candidate_fixes(letters, problems, p, symbols))
    ]
    best = min(scored, default=None, key=lambda item: item[:2])
    if best is not None and best[0][0] == 0:
        return best[2]
    return Fix(
        "inspect",
        tuple(sorted({i for q in problems for i in q.facelets})),
        "compare the marked pieces with a solved puzzle and re-stick or re-read them",
    )


def validate_tesseract(state: str, puzzle_name: str = "") -> TesseractReport:
    """Check whether a 2x2x2x2 or 3x3x3x3 state is solvable and say why not.

    Parameters
    ----------
    state
        The stickers in the documented facelet order (docs/puzzles.md), in cell letters
        ``OIRLUDFB`` or any eight symbols; white space is ignored.
    puzzle_name
        ``"2x2x2x2"`` or ``"3x3x3x3"``; by default told from the length (64 or 216).

    Returns
    -------
    TesseractReport
        ``valid`` plus every problem with its fix; never raises for bad input.

    Examples
    --------
    >>> from cubescan.solver.puzzles.moves import apply_twists
    >>> validate_tesseract(apply_twists("3x3x3x3", "Ro Uf' Fo2")).valid
    True
    >>> validate_tesseract("O" * 64).problems[0].code
    'bad-format'
    """
    text = "".join(state.split())
    if not puzzle_name:
        puzzle_name = {64: "2x2x2x2", 216: "3x3x3x3"}.get(len(text), "")
        if not puzzle_name:
            return _bad("", f"a tesseract state has 64 or 216 stickers, this one has {len(text)}")
    name = normalize_name(puzzle_name)
    read = _read(name, text)
    if isinstance(read, TesseractReport):
        return read
    letters, symbols = read
    p = puzzle(name)
    tables = _tables(name)
    structural: list[Problem] = []
    count = _color_count(letters, p, symbols)
    if count:
        structural.append(count)
    checks = {}
    for table in tables:
        check = _check_orbit(letters, table, symbols)
        structural.extend(check.problems)
        checks[table.kind] = check
    reference = None
    if p.size == 2:
        corner = _reference_corner(p)
        reference = p.orbits[0].pieces.index(corner)
    laws, found = _laws(letters, tables, checks, reference)
    if structural:
        step = _structural_fix(letters, structural, p, symbols, reference)
        structural = [
            Problem(q.code, q.message, q.pieces, q.facelets, (step,), q.orbit) for q in structural
        ]
    problems = tuple(structural + laws)
    classic = min((CLASSIC_ERROR.get(q.code, 1) for q in problems), default=0)
    return TesseractReport(name, letters, symbols, problems, found, classic)
