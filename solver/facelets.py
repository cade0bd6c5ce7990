"""Facelet level: a cube state as the camera sees it, in any colour alphabet.

:func:`parse_state` turns what a user typed (face letters, colour letters such as
``W Y R O G B``, or any six symbols) into a :class:`CubeState` whose ``facelets``
use the face letters ``URFDLB`` of DESIGN.md. The user's symbols are kept beside the
string so that messages can speak the user's language.

Examples
--------
>>> state = parse_state("W" * 9 + "R" * 9 + "G" * 9 + "Y" * 9 + "O" * 9 + "B" * 9)
>>> state.size, state.facelets[:10], state.symbol("F")
(3, 'UUUUUUUUUR', 'G')
"""

from __future__ import annotations

from dataclasses import dataclass

from cubescan.errors import BadInputError
from cubescan.solver.geometry import FACES, OPPOSITE, cube_geometry
from cubescan.solver.moves import size_from_length


@dataclass(frozen=True)
class CubeState:
    """A cube at the facelet level.

    Attributes
    ----------
    size
        N.
    facelets
        6*N*N face letters ``URFDLB`` in facelet order.
    symbols
        Six characters: the user's symbol for each face, in ``URFDLB`` order
        (``"URFDLB"`` when the input used face letters).
    """

    size: int
    facelets: str
    symbols: str = FACES

    def symbol(self, face: str) -> str:
        """The user's symbol for the colour that belongs on ``face``.

        Parameters
        ----------
        face
            Face letter, one of ``URFDLB``.

        Returns
        -------
        str
            One character of :attr:`symbols`.

        Examples
        --------
        >>> CubeState(2, "UUUURRRRFFFFDDDDLLLLBBBB", "WRGYOB").symbol("D")
        'Y'
        """
        return self.symbols[FACES.index(face)]

    def in_symbols(self) -> str:
        """The facelets written back in the user's alphabet.

        Returns
        -------
        str
            :attr:`facelets` with each face letter replaced by that face's symbol.

        Examples
        --------
        >>> CubeState(2, "UUUURRRRFFFFDDDDLLLLBBBB", "WRGYOB").in_symbols()
        'WWWWRRRRGGGGYYYYOOOOBBBB'
        """
        return self.facelets.translate(str.maketrans(FACES, self.symbols))


def _center_map(text: str, size: int) -> dict[str, str]:
    per_face = size * size
    middle = per_face // 2
    centers = [text[f * per_face + middle] for f in range(6)]
    if len(set(centers)) < 6:
        seen: dict[str, list[str]] = {}
        for face, symbol in zip(FACES, centers, strict=True):
            seen.setdefault(symbol, []).append(face)
        repeated = "; ".join(
            f"{symbol!r} on {' and '.join(faces)}"
            for symbol, faces in seen.items()
            if len(faces) > 1
        )
        raise BadInputError(
            "center-duplicate",
            f"two centres show the same colour ({repeated}): every face's centre must have "
            "its own colour; re-read those faces or check the centre stickers",
        )
    return dict(zip(centers, FACES, strict=True))


STANDARD_SCHEME = {"W": "U", "R": "R", "G": "F", "Y": "D", "O": "L", "B": "B"}
"""Colour letter -> face of the standard (Western) colour scheme."""


def faces_from_dlb_corner(text: str, size: int) -> dict[str, str]:
    """Symbol -> face for an even cube held as scanned, by the corner at DLB.

    The corner in the DLB slot names D, L and B; the colour that never shares a corner
    with each of those (its opposite) names U, R and F. On a cube whose corners are not
    consistent the map is partial: only what the rule could decide.

    Parameters
    ----------
    text
        6*N*N symbols in facelet order, six distinct symbols.
    size
        N (even).

    Returns
    -------
    dict of str to str

    Examples
    --------
    >>> sorted(faces_from_dlb_corner("aaaabbbbccccddddeeeeffff", 2).items())
    [('a', 'U'), ('b', 'R'), ('c', 'F'), ('d', 'D'), ('e', 'L'), ('f', 'B')]
    """
    geo = cube_geometry(size)
    corners = [p for p in geo.pieces if p.kind == "corner"]
    symbols = set(text)
    together: dict[str, set[str]] = {s: set() for s in symbols}
    for piece in corners:
        colors = {text[i] for i in piece.facelets}
        for color in colors:
            together[color] |= colors
    dlb = next(p for p in corners if sorted(p.faces) == sorted("DLB"))
    mapping = {text[i]: face for i, face in zip(dlb.facelets, dlb.faces, strict=True)}
    if len(mapping) < 3:
        return {}
    for color, face in list(mapping.items()):
        never = [other for other in symbols if other not in together[color]]
        if len(never) == 1 and never[0] not in mapping:
            mapping[never[0]] = OPPOSITE[face]
    return mapping


def _even_map(text: str, size: int, symbols: set[str]) -> dict[str, str]:
    """Colour -> face for an even cube, which has no fixed centres to go by.

    Face letters name themselves and the standard colour letters follow the standard
    scheme; any other alphabet is placed by :func:`faces_from_dlb_corner`.
    """
    if symbols <= set(FACES):
        return {face: face for face in FACES}
    if symbols <= set(STANDARD_SCHEME):
        return dict(STANDARD_SCHEME)
    mapping = faces_from_dlb_corner(text, size)
    if len(mapping) < len(symbols):
        raise BadInputError(
            "bad-format",
            "cannot tell which colour belongs on which face of this even cube (its "
            "corners do not pair the colours into three opposite pairs); give the "
            "state in face letters URFDLB instead",
        )
    return mapping


def parse_state(text: str) -> CubeState:
    """Read a cube state typed in any alphabet.

    White space is ignored. Odd cubes map each symbol to the face whose centre shows
    it; even cubes take face letters as they are, or place the colours by the corner
    at DLB (whose colours name D, L and B) and the opposite-colour pairs.

    Parameters
    ----------
    text
        6*N*N symbols (N = 2..7), six distinct symbols in all.

    Returns
    -------
    CubeState

    Raises
    ------
    BadInputError
        ``bad-format`` (length, too many symbols) or ``center-duplicate``.

    Examples
    --------
    >>> parse_state("UUUU RRRR FFFF DDDD LLLL BBBB").facelets
    'UUUURRRRFFFFDDDDLLLLBBBB'
    """
    cleaned = "".join(text.split())
    if not cleaned:
        raise BadInputError("bad-format", "the cube state is empty: give 6*N*N facelet letters")
    size = size_from_length(len(cleaned))
    symbols = set(cleaned)
    if len(symbols) > 6:
        listed = ", ".join(repr(s) for s in sorted(symbols))
        raise BadInputError(
            "bad-format",
            f"found {len(symbols)} different symbols ({listed}); a cube has 6 colours",
        )
    mapping = _center_map(cleaned, size) if size % 2 else _even_map(cleaned, size, symbols)
    missing = symbols - set(mapping)
    if missing:
        raise BadInputError(
            "bad-format",
            f"symbol(s) {', '.join(sorted(missing))} do not belong to any face of this cube",
        )
    by_face = {face: symbol for symbol, face in mapping.items()}
    table = str.maketrans(mapping)
    return CubeState(
        size, cleaned.translate(table), "".join(by_face.get(face, face) for face in FACES)
    )
