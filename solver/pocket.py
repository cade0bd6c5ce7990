"""Optimal 2x2 solving from a table of the distance of every one of its 3,674,160 states.

A 2x2 has no centres, so the cube is first turned in the hand (a whole-cube rotation)
until the piece with the D, B and L colours sits at DBL, correctly turned; from there
the outer turns U, R and F (which never move that piece) reach every state. A state is
then the permutation of the other seven corners (7! = 5040) times their orientations
(3^6 = 729; the last follows from the twist law), and a NumPy breadth-first search
from solved fills in every state's distance in half-turn moves. Solving walks downhill
in that table, one move at a time, which is optimal; the moves are finally re-expressed
for the cube as the user holds it.

Examples
--------
>>> from cubescan.solver.moves import apply_moves, format_moves, solved_facelets
>>> scrambled = apply_moves(solved_facelets(2), "R U2 F' U")
>>> len(solve_pocket(scrambled)) <= 4
True
"""

from __future__ import annotations

from functools import cache
from itertools import permutations
from math import factorial

import numpy as np

from cubescan.errors import UnsolvableCubeError
from cubescan.solver.cache import load_or_build
from cubescan.solver.cubie import CORNERS, CubieCube, facelets_to_cubie, move_cubie
from cubescan.solver.facelets import CubeState, parse_state
from cubescan.solver.moves import (
    Move,
    apply_moves,
    outer_moves,
    sequence_permutation,
    whole_cube_turns,
)
from cubescan.solver.validate import validate

TABLE_VERSION = 1
STATES = factorial(7) * 3**6
"""3,674,160: the number of 2x2 states with the DBL corner fixed."""

_FIXED = CORNERS.index("DBL")
_FREE_SLOTS = tuple(s for s in range(8) if s != _FIXED)
_MOVES = tuple(Move(face, 1, 1, turns) for face in "URF" for turns in (1, 2, 3))


@cache
def _all_permutations() -> np.ndarray:
    return np.array(list(permutations(range(7))), dtype=np.int64)


def _rank_permutations(perms: np.ndarray) -> np.ndarray:
    """Lexicographic rank of each row (a permutation of 0..6), vectorised Lehmer code."""
    smaller_later = (perms[:, None, :] < perms[:, :, None]) & np.triu(
        np.ones((7, 7), dtype=bool), 1
    )
    digits = smaller_later.sum(axis=2)
    weights = np.array([factorial(6 - i) for i in range(7)], dtype=np.int64)
    return digits @ weights


def _orientation_rows() -> np.ndarray:
    """All 729 orientation vectors of the seven free corners (twist total 0), by index."""
    index = np.arange(3**6)
    first_six = np.stack([(index // 3 ** (5 - k)) % 3 for k in range(6)], axis=1)
    last = (-first_six.sum(axis=1)) % 3
    return np.concatenate([first_six, last[:, None]], axis=1)


def _free_piece_index(cp: np.ndarray) -> np.ndarray:
    """Map piece numbers 0..7 without DBL to 0..6."""
    return np.where(cp > _FIXED, cp - 1, cp)


def _move_tables() -> tuple[np.ndarray, np.ndarray]:
    perms = _all_permutations()
    oris = _orientation_rows()
    free = np.array(_FREE_SLOTS)
    perm_table = np.empty((len(perms), len(_MOVES)), dtype=np.int32)
    ori_table = np.empty((len(oris), len(_MOVES)), dtype=np.int32)
    to_free = {slot: k for k, slot in enumerate(_FREE_SLOTS)}
    for m, move in enumerate(_MOVES):
        effect = move_cubie(move)
        # Slot s of the result holds what slot effect.cp[s] held, turned by effect.co[s].
        source = np.array([to_free[effect.cp[s]] for s in free])
        perm_table[:, m] = _rank_permutations(perms[:, source])
        turned = (oris[:, source] + np.array([effect.co[s] for s in free])) % 3
        ori_table[:, m] = turned[:, :6] @ (3 ** np.arange(5, -1, -1))
    return perm_table, ori_table


def _build() -> dict[str, np.ndarray]:
    perm_table, ori_table = _move_tables()
    distance = np.full(STATES, -1, dtype=np.int8)
    distance[0] = 0  # identity permutation (rank 0) with no twist (index 0)
    frontier = np.array([0], dtype=np.int64)
    depth = 0
    while frontier.size:
        perm, ori = np.divmod(frontier, 3**6)
        neighbours = (perm_table[perm] * 3**6 + ori_table[ori]).ravel()
        neighbours = np.unique(neighbours[distance[neighbours] < 0])
        depth += 1
        distance[neighbours] = depth
        frontier = neighbours
    return {"distance": distance, "move_perm": perm_table, "move_ori": ori_table}


@cache
def pocket_tables() -> dict[str, np.ndarray]:
    """The distance table (int8, one entry per state) and the move tables, cached on disk.

    Read (or built) once per process; the arrays are read-only.

    Returns
    -------
    dict of str to numpy.ndarray
        ``"distance"``: int8, length :data:`STATES`, the number of moves that solve state
        ``perm * 729 + ori`` (``perm`` the rank of the seven free corners' permutation,
        ``ori`` the base-3 number of the first six twists); ``"move_perm"`` (5040, 9)
        and ``"move_ori"`` (729, 9): int32, ``perm`` and ``ori`` after each of the turns
        U U2 U' R R2 R' F F2 F'.

    Examples
    --------
    >>> int(pocket_tables()["distance"].max())  # doctest: +SKIP
    11
    >>> tables = pocket_tables()
    >>> tables["move_perm"].shape, int(tables["distance"][0])  # 0 is the solved state
    ((5040, 9), 0)
    """
    return load_or_build("pocket-distances", TABLE_VERSION, _build)


def _coordinate(cube: CubieCube) -> int:
    pieces = _free_piece_index(np.array([cube.cp[s] for s in _FREE_SLOTS]))
    perm = int(_rank_permutations(pieces[None, :])[0])
    ori = sum(cube.co[s] * 3 ** (5 - k) for k, s in enumerate(_FREE_SLOTS[:6]))
    return perm * 3**6 + ori


@cache
def _rotations() -> tuple[tuple[np.ndarray, dict[Move, Move]], ...]:
    """The 24 ways to hold a cube: each as a sticker permutation plus the move relabelling.

    For a rotation r and an outer turn m, the relabelling gives the turn y with
    r then m == y then r, so moves found for the cube held as r apply to the cube as held.
    """
    outer = outer_moves()
    rotations = []
    for turns in whole_cube_turns():
        perm = sequence_permutation(turns, 2)
        relabel = {}
        for move in _MOVES:
            target = perm[sequence_permutation([move], 2)]
            relabel[move] = next(
                y for y in outer if (sequence_permutation([y], 2)[perm] == target).all()
            )
        rotations.append((perm, relabel))
    return tuple(rotations)


def _held_upright(facelets: str) -> tuple[CubieCube, dict[Move, Move]]:
    """The cube turned in the hand so that the DBL piece sits home, and the move relabelling."""
    for perm, relabel in _rotations():
        held = facelets_to_cubie("".join(facelets[i] for i in perm))
        if held.cp[_FIXED] == _FIXED and held.co[_FIXED] == 0:
            return held, relabel
    raise AssertionError("one of the 24 rotations puts any real corner home")


def solve_pocket(state: str | CubeState) -> list[Move]:
    """An optimal (fewest half-turn moves) solution of a 2x2.

    Parameters
    ----------
    state
        A 2x2 facelet string in any alphabet, or a parsed state.

    Returns
    -------
    list of Move
        Outer turns; at most 11. Applying them gives a solved cube.

    Raises
    ------
    UnsolvableCubeError
        With the validator's diagnosis when the cube cannot be solved.

    Examples
    --------
    >>> from cubescan.solver.moves import solved_facelets
    >>> solve_pocket(solved_facelets(2))
    []
    """
    cube_state = state if isinstance(state, CubeState) else parse_state(state)
    report = validate(cube_state)
    if not report.valid or cube_state.size != 2:
        first = report.problems[0] if report.problems else None
        code = first.code if first else "bad-format"
        raise UnsolvableCubeError(code, report.summary if first else "not a 2x2", report)
    tables = pocket_tables()
    distance, perm_table, ori_table = tables["distance"], tables["move_perm"], tables["move_ori"]
    held, relabel = _held_upright(report.facelets)
    index = _coordinate(held)
    moves: list[Move] = []
    while distance[index] > 0:
        perm, ori = divmod(index, 3**6)
        following = perm_table[perm] * 3**6 + ori_table[ori]
        step = int(np.flatnonzero(distance[following] == distance[index] - 1)[0])
        moves.append(relabel[_MOVES[step]])
        index = int(following[step])
    if not is_solved(apply_moves(report.facelets, moves)):
        raise AssertionError("the 2x2 solution does not solve the cube")
    return moves


def is_solved(facelets: str) -> bool:
    """True when every face of the cube shows one colour (any way it is held).

    Parameters
    ----------
    facelets
        A facelet string of any N, in any alphabet.

    Returns
    -------
    bool
        True when the stickers of each face are all the same symbol (whether the six
        faces differ is not checked).

    Examples
    --------
    >>> is_solved("UUUURRRRFFFFDDDDLLLLBBBB")
    True
    >>> from cubescan.solver.moves import solved_facelets
    >>> solved = solved_facelets(2)
    >>> is_solved(apply_moves(solved, "x y")), is_solved(apply_moves(solved, "R"))  # x y: rotations
    (True, False)
    """
    per_face = len(facelets) // 6
    return all(len(set(facelets[f * per_face : (f + 1) * per_face])) == 1 for f in range(6))
