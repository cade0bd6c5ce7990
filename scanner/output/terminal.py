"""Terminal pictures of a cube: the unfolded net in colour, for people (rich).

Examples
--------
>>> from rich.console import Console
>>> from cubescan.solver import parse_state, solved_facelets
>>> console = Console(width=80, color_system=None)
>>> with console.capture() as capture:
...     console.print(render_net(parse_state(solved_facelets(2))))
>>> capture.get().splitlines()[2].split()
['L', 'L', 'F', 'F', 'R', 'R', 'B', 'B']
"""

from __future__ import annotations

from rich.text import Text

from cubescan.solver.facelets import CubeState
from cubescan.solver.geometry import FACES

# Standard scheme colours for face letters, and for the usual colour letters.
_FACE_STYLE = {
    "U": "white",
    "R": "red3",
    "F": "green3",
    "D": "yellow1",
    "L": "dark_orange",
    "B": "blue3",
}
_COLOR_LETTER_STYLE = {
    "W": "white",
    "R": "red3",
    "G": "green3",
    "Y": "yellow1",
    "O": "dark_orange",
    "B": "blue3",
}
_DARK_BACKGROUNDS = {"red3", "green3", "blue3", "dark_orange"}


def sticker_style(face: str, symbol: str) -> str:
    """Rich style of one sticker: its colour as background, readable text on top.

    Parameters
    ----------
    face
        The face letter the sticker belongs to.
    symbol
        The user's symbol for that face; the usual colour letters (W R G Y O B)
        are drawn in their own colour when the alphabet is made of them.

    Returns
    -------
    str

    Examples
    --------
    >>> sticker_style("U", "Y")
    'black on yellow1'
    """
    background = _COLOR_LETTER_STYLE.get(symbol, _FACE_STYLE[face])
    foreground = "white" if background in _DARK_BACKGROUNDS else "black"
    return f"{foreground} on {background}"


def render_net(state: CubeState, highlight: frozenset[int] = frozenset()) -> Text:
    """The cube as the DESIGN.md net (U on top, L F R B in a row, D below), coloured.

    Parameters
    ----------
    state
        The cube.
    highlight
        Facelet indices to mark (drawn with ``*`` instead of a space), e.g. the
        stickers a problem names.

    Returns
    -------
    rich.text.Text

    Examples
    --------
    >>> from cubescan.solver import parse_state, solved_facelets
    >>> render_net(parse_state(solved_facelets(3))).plain.count("U")
    9
    """
    n = state.size
    color_letters = set(state.symbols) <= set(_COLOR_LETTER_STYLE)
    per_face = n * n
    cell_width = 3

    def cell(face_index: int, row: int, col: int) -> Text:
        index = face_index * per_face + row * n + col
        face = state.facelets[index]
        symbol = state.symbol(face)
        mark = "*" if index in highlight else " "
        style = sticker_style(face, symbol if color_letters else face)
        return Text(f"{mark}{symbol} ", style=style)

    blank = Text(" " * (n * cell_width + 1))
    out = Text()
    layout = [["", "U", "", ""], ["L", "F", "R", "B"], ["", "D", "", ""]]
    for band in layout:
        for row in range(n):
            for face in band:
                if not face:
                    out.append_text(blank)
                    continue
                for col in range(n):
                    out.append_text(cell(FACES.index(face), row, col))
                out.append(" ")
            out.append("\n")
    out.rstrip()
    return out
