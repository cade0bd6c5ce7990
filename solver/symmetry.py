"""The 16 symmetries of the cube that keep the UD axis, and what they do to a state.

A symmetry is an orthogonal integer matrix ``M`` (a rotation or a mirror image) that
maps the cube onto itself; the 16 kept here map the U-D axis onto itself (U may go to D).
Conjugating a cube state by ``M`` (look at the state in the mirror, or from another
side, and rename the colours so the centres are home again) maps the move of face ``X``
to the move of face ``M X``, the same way round for a rotation and the other way round
for a mirror. Conjugation keeps the distance to solved, and the 16 keep the phase-1
subgroup ``<U, D, R2, L2, F2, B2>``, so the phase-1 pruning table needs only one entry
per class of states equivalent under them (:mod:`cubescan.solver.phase1`).

Coordinates are conjugated without any cubie arithmetic: a coordinate whose
conjugate depends only on the coordinate (the twist; the flip and slice together) is
reached from 0 by moves, and the conjugate of ``x`` after move ``m`` is the conjugate of
``x`` after the conjugate move (:func:`conjugation_table`).

Examples
--------
>>> len(ud_symmetries()), int(np.linalg.det(ud_symmetries()[0]))
(16, 1)
>>> from cubescan.solver.moves import outer_moves
>>> [str(outer_moves()[m]) for m in symmetry_move_table()[:, 3]]  # where R goes
['R', 'R', 'L', 'L', 'B', 'F', 'F', 'B', "R'", "R'", "L'", "L'", "F'", "B'", "B'", "F'"]
"""

from __future__ import annotations

from functools import cache
from itertools import permutations, product

import numpy as np
from numba import njit

from cubescan.solver.cubie import CubieCube, cubie_to_facelets, facelets_to_cubie
from cubescan.solver.geometry import FACES, cube_geometry, face_normal, face_of_normal

SYMMETRY_COUNT = 16
"""How many symmetries keep the UD axis (8 rotations and 8 mirror images)."""


@cache
def ud_symmetries() -> tuple[np.ndarray, ...]:
    """The 16 symmetries keeping the U-D axis, as integer matrices (identity first).

    Returns
    -------
    tuple of numpy.ndarray
        16 read-only int matrices of shape (3, 3) (x right, y up, z front), each a signed
        permutation mapping the y axis to +-y; the first 8 are rotations (determinant 1),
        the last 8 mirror images.

    Examples
    --------
    >>> [int(round(np.linalg.det(m))) for m in ud_symmetries()][7:9]
    [1, -1]
    """
    found = []
    for order in permutations(range(3)):
        if order[1] != 1:
            continue
        for signs in product((1, -1), repeat=3):
            matrix = np.zeros((3, 3), dtype=int)
            for row, (column, sign) in enumerate(zip(order, signs, strict=True)):
                matrix[row, column] = sign
            found.append(matrix)
    # Identity first, rotations before mirrors; otherwise a fixed order.
    found.sort(key=lambda m: (round(np.linalg.det(m)) < 0, not np.array_equal(m, np.eye(3))))
    for matrix in found:
        matrix.setflags(write=False)
    return tuple(found)


def _index_of(matrix: np.ndarray) -> int:
    for index, candidate in enumerate(ud_symmetries()):
        if np.array_equal(candidate, matrix):
            return index
    raise ValueError("not a symmetry that keeps the UD axis")


@cache
def symmetry_product_table() -> np.ndarray:
    """``table[s, t]``: the symmetry ``s`` after ``t`` (matrix product ``M_s M_t``).

    Returns
    -------
    numpy.ndarray
        Read-only int64, shape (16, 16); row 0 and column 0 are the identity's.

    Examples
    --------
    >>> table = symmetry_product_table()
    >>> bool((np.sort(table, axis=1) == np.arange(16)).all())  # a group: Latin square
    True
    """
    matrices = ud_symmetries()
    table = np.array([[_index_of(a @ b) for b in matrices] for a in matrices], dtype=np.int64)
    table.setflags(write=False)
    return table


@cache
def symmetry_inverses() -> np.ndarray:
    """``inverse[s]``: the symmetry that undoes ``s``.

    Returns
    -------
    numpy.ndarray
        Read-only int64, shape (16,).

    Examples
    --------
    >>> inverse = symmetry_inverses()
    >>> bool((symmetry_product_table()[np.arange(16), inverse] == 0).all())
    True
    """
    inverse = np.array([_index_of(m.T) for m in ud_symmetries()], dtype=np.int64)
    inverse.setflags(write=False)
    return inverse


@cache
def symmetry_move_table() -> np.ndarray:
    """``table[s, m]``: the move that move ``m`` becomes when the cube is conjugated by ``s``.

    Returns
    -------
    numpy.ndarray
        Read-only int64, shape (16, 18), moves numbered as in :mod:`cubescan.solver.coords`
        (``3 * face + turns - 1``, faces ``URFDLB``). A mirror turns the other way round.

    Examples
    --------
    >>> symmetry_move_table()[0].tolist() == list(range(18))
    True
    """
    table = np.zeros((SYMMETRY_COUNT, 18), dtype=np.int64)
    for s, matrix in enumerate(ud_symmetries()):
        mirror = round(np.linalg.det(matrix)) < 0
        for face_index, face in enumerate(FACES):
            image = FACES.index(face_of_normal(matrix @ face_normal(face)))
            for turns in (1, 2, 3):
                new_turns = 4 - turns if mirror else turns
                table[s, 3 * face_index + turns - 1] = 3 * image + new_turns - 1
    table.setflags(write=False)
    return table


@cache
def _sticker_map(symmetry: int) -> np.ndarray:
    """``target[i]``: where sticker ``i`` of a 3x3 goes under the symmetry's matrix."""
    geometry = cube_geometry(3)
    matrix = ud_symmetries()[symmetry]
    return np.array(
        [geometry.sticker_at(tuple(int(v) for v in matrix @ p)) for p in geometry.positions]
    )


def conjugate_facelets(facelets: str, symmetry: int) -> str:
    """A 3x3 facelet string conjugated by a symmetry (seen through it, colours renamed).

    Parameters
    ----------
    facelets
        54 characters in facelet order, in the face-letter alphabet ``URFDLB``.
    symmetry
        Index 0..15 into :func:`ud_symmetries`.

    Returns
    -------
    str
        The state whose stickers are those of ``facelets`` moved by the symmetry's matrix
        and renamed to the faces their colours' centres moved to. Conjugating
        ``apply_moves(solved, seq)`` gives ``apply_moves(solved, conjugated seq)``
        (moves mapped by :func:`symmetry_move_table`).

    Examples
    --------
    >>> from cubescan.solver.moves import apply_moves, solved_facelets
    >>> r = apply_moves(solved_facelets(3), "R")
    >>> conjugate_facelets(r, 10) == apply_moves(solved_facelets(3), "L'")  # the LR mirror
    True
    """
    matrix = ud_symmetries()[symmetry]
    rename = {face: face_of_normal(matrix @ face_normal(face)) for face in FACES}
    target = _sticker_map(symmetry)
    out = [""] * 54
    for i, color in enumerate(facelets):
        out[target[i]] = rename[color]
    return "".join(out)


def conjugate_cubie(cube: CubieCube, symmetry: int) -> CubieCube:
    """A 3x3 cubie cube conjugated by a symmetry (see :func:`conjugate_facelets`).

    Parameters
    ----------
    cube
        A 3x3 cube at the cubie level.
    symmetry
        Index 0..15 into :func:`ud_symmetries`.

    Returns
    -------
    CubieCube
        The conjugated cube; its pieces are the images of ``cube``'s pieces.

    Examples
    --------
    >>> from cubescan.solver.cubie import move_cubie
    >>> from cubescan.solver.moves import Move
    >>> conjugate_cubie(move_cubie(Move("U")), 8) == move_cubie(Move("U", turns=3))
    True
    """
    return facelets_to_cubie(conjugate_facelets(cubie_to_facelets(cube), symmetry))


def conjugation_table(
    move_a: np.ndarray, move_b: np.ndarray | None = None, moves: tuple[int, ...] = tuple(range(18))
) -> np.ndarray:
    """``table[x, s]``: a coordinate (or pair of coordinates) conjugated by symmetry ``s``.

    Found breadth-first from the solved value 0 (its own conjugate): when ``y`` is ``x``
    after move ``m``, the conjugate of ``y`` is the conjugate of ``x`` after the
    conjugated move. This is right only for coordinates whose conjugate depends on the
    coordinate alone (twist; flip with slice), which the tests check edge by edge.

    Parameters
    ----------
    move_a
        Move table ``(n_a, 18)`` of a coordinate.
    move_b
        Optional second move table ``(n_b, 18)``: the pair is the coordinate
        ``a * n_b + b``.
    moves
        The moves to follow (e.g. the phase-2 moves for a coordinate defined only in
        phase 2); the symmetries must map them onto themselves.

    Returns
    -------
    numpy.ndarray
        int32, shape ``(n_a * n_b, 16)``; -1 for values the moves cannot reach.

    Examples
    --------
    >>> from cubescan.solver.coords import twist_move_table
    >>> conjugation_table(twist_move_table())[0].tolist() == [0] * 16
    True
    """
    move_a = np.ascontiguousarray(move_a, dtype=np.int64)
    if move_b is None:
        move_b = np.zeros((1, 18), dtype=np.int64)
    move_b = np.ascontiguousarray(move_b, dtype=np.int64)
    return _conjugation_bfs(move_a, move_b, symmetry_move_table(), np.array(moves, dtype=np.int64))


@njit(cache=True, no_cfunc_wrapper=True)
def _conjugation_bfs(move_a, move_b, sym_moves, moves):
    n_a, n_b = len(move_a), len(move_b)
    table = np.full((n_a * n_b, SYMMETRY_COUNT), -1, dtype=np.int32)
    table[0, :] = 0
    queue = np.empty(n_a * n_b, dtype=np.int64)
    queue[0] = 0
    head, tail = 0, 1
    while head < tail:
        x = queue[head]
        head += 1
        a, b = x // n_b, x % n_b
        for m in moves:
            y = move_a[a, m] * n_b + move_b[b, m]
            if table[y, 0] >= 0:
                continue
            for s in range(SYMMETRY_COUNT):
                cx = table[x, s]
                cm = sym_moves[s, m]
                table[y, s] = move_a[cx // n_b, cm] * n_b + move_b[cx % n_b, cm]
            queue[tail] = y
            tail += 1
    return table
