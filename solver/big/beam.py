"""Beam search over move sequences, finished by another method.

A three-cycle places at most three pieces for about ten moves. Plain move sequences
place many pieces at once while the cube is still scrambled, and few once it is
nearly done. :func:`beam_search` takes the best of both: it grows the ``width``
best-scoring sequences (by the pieces they place) one sequence of moves at a time,
and at each depth asks a finisher (e.g. three-cycles) how many moves the best few
states still need. It returns the path and finish with the fewest moves in all.

The states are the stickers one stage cares about (:func:`restricted`), as bytes, so
a whole depth is one NumPy gather: ``width * len(macros)`` states at once. A path is
costed as it will be written: turns of the same layers where one sequence ends and the
next begins merge or cancel (:attr:`MacroSet.savings`), as when a slice taken out to pair
one edge stays out for the next.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from cubescan.solver.moves import Move, apply_moves, cancel_moves, sequence_permutation

FINISH_TRIES = 2
"""States per depth handed to the finisher: the best-scoring ones."""


@dataclass(frozen=True, eq=False)
class MacroSet:
    """Move sequences a beam search may append, each as one step.

    Attributes
    ----------
    sequences
        The move sequences.
    permutations
        Shape (len(sequences), 6*N*N): ``new = old[permutations[i]]`` for sequence ``i``.
    lengths
        Moves in each sequence.
    """

    sequences: tuple[tuple[Move, ...], ...]
    permutations: np.ndarray
    lengths: np.ndarray

    @cached_property
    def savings(self) -> np.ndarray:
        """Moves saved when sequence ``j`` follows sequence ``i``: ``savings[i, j]``.

        Where ``i`` ends and ``j`` begins, moves with the same
        :attr:`~cubescan.solver.moves.Move.merge_key` merge into one (one move saved) or
        cancel (two saved, and the next pair is looked at), as
        :func:`~cubescan.solver.moves.cancel_moves` writes them.

        Returns
        -------
        numpy.ndarray
            int8, shape ``(len(sequences), len(sequences))``.

        Examples
        --------
        >>> from cubescan.solver.moves import parse_moves
        >>> pair = macro_set([tuple(parse_moves("2R U 2R'")), tuple(parse_moves("2R U2"))], 4)
        >>> pair.savings.tolist()  # "2R U 2R' 2R U2" is written "2R U'": 3 moves fewer
        [[3, 3], [0, 0]]
        """
        layers: dict[tuple[str, int, int, str], int] = {}
        longest = max(len(sequence) for sequence in self.sequences)
        count = len(self.sequences)
        # Each sequence's moves from its end and from its start, as (layers, turns); the
        # padding differs at the two ends, so that it never matches.
        tail_layers = np.full((count, longest), -1)
        head_layers = np.full((count, longest), -2)
        tail_turns, head_turns = np.zeros((2, count, longest), dtype=np.int64)
        for i, sequence in enumerate(self.sequences):
            for k, move in enumerate(sequence):
                code = layers.setdefault(move.merge_key, len(layers))
                head_layers[i, k], head_turns[i, k] = code, move.turns
                tail_layers[i, len(sequence) - 1 - k] = code
                tail_turns[i, len(sequence) - 1 - k] = move.turns
        saved = np.zeros((count, count), dtype=np.int8)
        meeting = np.ones((count, count), dtype=bool)  # the moves before cancelled
        for k in range(longest):
            same = meeting & (tail_layers[:, k, None] == head_layers[None, :, k])
            cancel = same & ((tail_turns[:, k, None] + head_turns[None, :, k]) % 4 == 0)
            saved += same.astype(np.int8) + cancel
            meeting = cancel
        return saved


def macro_set(sequences: Sequence[tuple[Move, ...]], size: int) -> MacroSet:
    """The :class:`MacroSet` of ``sequences`` on an N x N cube.

    Parameters
    ----------
    sequences
        Move sequences, each legal on the cube.
    size
        N.

    Returns
    -------
    MacroSet

    Examples
    --------
    >>> from cubescan.solver.moves import parse_moves
    >>> macro_set([tuple(parse_moves("R U"))], 3).lengths.tolist()
    [2]
    """
    perms = np.array([sequence_permutation(seq, size) for seq in sequences], dtype=np.int16)
    lengths = np.array([len(seq) for seq in sequences])
    return MacroSet(tuple(sequences), perms, lengths)


def restricted(macros: MacroSet, stickers: np.ndarray) -> np.ndarray:
    """The macros' permutations of the ``stickers`` subset alone.

    Parameters
    ----------
    macros
        Sequences that carry ``stickers`` onto ``stickers`` (e.g. the wings, under
        turns of whole layers).
    stickers
        Sorted sticker indices.

    Returns
    -------
    numpy.ndarray
        Shape (len(macros.sequences), len(stickers)): ``new_sub = old_sub[perm]``.

    Examples
    --------
    >>> from cubescan.solver.moves import parse_moves
    >>> turns = macro_set([tuple(parse_moves("U2"))], 3)
    >>> restricted(turns, np.arange(9)).tolist()  # the U face, turned half round
    [[8, 7, 6, 5, 4, 3, 2, 1, 0]]
    """
    where = np.full(macros.permutations.shape[1], -1)
    where[stickers] = np.arange(len(stickers))
    sub = where[macros.permutations[:, stickers]]
    if (sub < 0).any():
        raise ValueError("a macro carries a sticker of the subset outside it")
    return sub.astype(np.int16)


def beam_search(
    text: str,
    macros: MacroSet,
    stickers: np.ndarray,
    score: Callable[[np.ndarray], np.ndarray],
    finish: Callable[[str], list[Move] | None],
    width: int,
    deadline: float | None = None,
    patience: int = 8,
    max_moves: int = 200,
) -> list[Move]:
    """The shortest ``path + finish(path's end)`` a beam search over ``macros`` finds.

    Parameters
    ----------
    text
        Facelets of the cube.
    macros
        The sequences a path is made of.
    stickers
        The stickers ``score`` reads; ``macros`` must keep them among themselves.
    score
        Maps an array of states (bytes of ``stickers``, any leading shape) to the
        number of pieces placed; higher is better.
    finish
        Moves that complete the stage from a full facelet string, or None when it
        cannot.
    width
        States kept per depth.
    deadline
        A ``time.monotonic()`` value after which no further depth is searched.
    patience
        Depths searched past the last one that shortened the best total.
    max_moves
        Longest path searched while no finish is known.

    Returns
    -------
    list of Move
        The path's moves then the finish's, with turns of the same layers merged.

    Raises
    ------
    ValueError
        No state the search reached (the start included) could be finished.

    Examples
    --------
    >>> from cubescan.solver.moves import Move, apply_moves, format_moves, solved_facelets
    >>> turns = macro_set([(Move(face, 1, 1, t),) for face in "URFDLB" for t in (1, 2, 3)], 3)
    >>> goal = np.frombuffer(solved_facelets(3).encode(), np.uint8)
    >>> def placed(states):
    ...     return (states == goal).sum(axis=-1)
    >>> def finish(text):  # finishes the solved cube only
    ...     return [] if text == solved_facelets(3) else None
    >>> start = apply_moves(solved_facelets(3), "R U2")
    >>> format_moves(beam_search(start, turns, np.arange(54), placed, finish, width=10))
    "U2 R'"
    """
    sub_perms = restricted(macros, stickers)
    best = finish(text)
    limit = max_moves if best is None else len(best)
    states = np.frombuffer(text.encode(), dtype=np.uint8)[stickers][None]
    cost = np.zeros(1, dtype=int)
    last: np.ndarray | None = None  # each state's last macro (none at the start)
    parents: list[tuple[np.ndarray, np.ndarray]] = []  # per depth: (parent row, macro)
    stale = 0  # depths since the best total last shrank
    while stale < patience and cost.min() < limit:
        if deadline is not None and time.monotonic() >= deadline:
            break
        stale += 1
        grown = states[:, sub_perms].reshape(-1, len(stickers))
        added = macros.lengths[None] if last is None else macros.lengths - macros.savings[last]
        grown_cost = (cost[:, None] + added).ravel()
        order = np.lexsort((grown_cost, -score(grown)))
        # The first `width` distinct states, best first.
        head = order[: 8 * width]
        _, first = np.unique(grown[head], axis=0, return_index=True)
        keep = head[np.sort(first)][:width]
        rows, last = np.divmod(keep, len(macros.sequences))
        parents.append((rows, last))
        states, cost = grown[keep], grown_cost[keep]
        for row in range(min(FINISH_TRIES, len(keep))):
            path = [move for index in _path(parents, row) for move in macros.sequences[index]]
            moves = finish(apply_moves(text, path))
            if moves is not None and len(written := cancel_moves(path + moves)) < limit:
                best = written
                limit = len(best)
                stale = 0
    if best is None:
        raise ValueError(f"no path of under {max_moves} moves reaches a finishable state")
    return cancel_moves(best)


def _path(parents: list[tuple[np.ndarray, np.ndarray]], row: int) -> list[int]:
    """The macro indices leading to ``row`` of the last depth, first first."""
    path = []
    for rows, macro in reversed(parents):
        path.append(int(macro[row]))
        row = int(rows[row])
    return path[::-1]
