"""A self-contained HTML page for a batch: per cube, the net in colour, verdict, problems, photos.

The page has no external resources: nets are inline SVG, photo thumbnails are embedded
JPEG data URIs, and a few lines of inline script sort the table by any column (click a
column heading; the verdict column groups unsolvable cubes and errors first by default).

Examples
--------
>>> row = {"cube": "c1", "status": "ok", "valid": True, "size": 2, "facelets": "U" * 4 + "R" * 4
...        + "F" * 4 + "D" * 4 + "L" * 4 + "B" * 4, "problems": [], "solution": "R U"}
>>> page = render_batch_html([row], title="demo")
>>> page.startswith("<!DOCTYPE html>") and "<svg" in page and "c1" in page
True
"""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence

import cv2
import numpy as np

from cubescan.scanner.output.draw import fills_from_names
from cubescan.solver.geometry import FACES

# Where each face sits in the unfolded net (column, row), in face widths.
_NET_ORIGIN = {"U": (1, 0), "L": (0, 1), "F": (1, 1), "R": (2, 1), "B": (3, 1), "D": (1, 2)}


def _fills(row: dict) -> dict[str, str]:
    """CSS colour per face: standard names by name, other colours as the camera saw them."""
    colors = row.get("colors") or {}
    names = {face: info.get("name", "") for face, info in colors.items() if isinstance(info, dict)}
    labs = {
        face: info["lab"]
        for face, info in colors.items()
        if isinstance(info, dict) and "lab" in info
    }
    fills = fills_from_names(names, labs)
    return {face: "#{2:02x}{1:02x}{0:02x}".format(*bgr) for face, bgr in fills.items()}


def net_svg(facelets: str, size: int, fills: dict[str, str], marked: set[int] = frozenset()) -> str:
    """The unfolded cube (U on top, L F R B, D below) as an inline SVG element.

    Parameters
    ----------
    facelets
        Face letters in facelet order.
    size
        N.
    fills
        Face letter -> CSS colour.
    marked
        Facelet indices to outline (e.g. the stickers a problem names).

    Returns
    -------
    str

    Examples
    --------
    >>> net_svg("UUUURRRRFFFFDDDDLLLLBBBB", 2, _fills({})).count("<rect")
    24
    """
    cell = max(6, 48 // size)
    width, height = 4 * size * cell, 3 * size * cell
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="cube net">'
    ]
    per_face = size * size
    for index, letter in enumerate(facelets):
        face = FACES[index // per_face]
        row, col = divmod(index % per_face, size)
        ox, oy = _NET_ORIGIN[face]
        x, y = (ox * size + col) * cell, (oy * size + row) * cell
        stroke = "#e000e0" if index in marked else "#222"
        width_px = 3 if index in marked else 1
        fill = fills.get(letter, "#888")
        parts.append(
            f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}"'
            f' stroke="{stroke}" stroke-width="{width_px}"/>'
        )
    parts.append("</svg>")
    return "".join(parts)


def thumbnail_data_uri(image: np.ndarray, width: int = 160) -> str:
    """A small JPEG of ``image`` as a data URI, for embedding in the page.

    Parameters
    ----------
    image
        BGR ``uint8`` image, (height, width, 3).
    width
        The thumbnail's width in pixels; its height keeps the image's aspect ratio.

    Returns
    -------
    str
        ``"data:image/jpeg;base64,..."``: the thumbnail as a JPEG of quality 80.

    Raises
    ------
    ValueError
        When OpenCV cannot encode the thumbnail.

    Examples
    --------
    >>> thumbnail_data_uri(np.zeros((40, 80, 3), np.uint8)).startswith("data:image/jpeg;base64,")
    True
    """
    scale = width / image.shape[1]
    small = cv2.resize(
        image, (width, max(1, round(image.shape[0] * scale))), interpolation=cv2.INTER_AREA
    )
    ok, encoded = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 80])
    if not ok:
        raise ValueError("could not encode the thumbnail")
    return "data:image/jpeg;base64," + base64.b64encode(encoded.tobytes()).decode("ascii")


def _verdict(row: dict) -> tuple[str, int]:
    if row.get("status") == "error":
        return "error", 0
    return ("solvable", 2) if row.get("valid") else ("not solvable", 1)


def _cube_row(row: dict) -> str:
    verdict, rank = _verdict(row)
    name = html.escape(str(row.get("cube", "?")))
    if verdict == "error":
        detail = f'<p class="error">{html.escape(str(row.get("error", "")))}</p>'
        net = ""
    else:
        size = int(row["size"])
        marked = {
            _facelet_index(name_, size)
            for problem in row.get("problems", [])
            for name_ in problem.get("facelets", [])
        }
        net = net_svg(row["facelets"], size, _fills(row), marked)
        items = "".join(
            f"<li><b>{html.escape(p['code'])}</b>: {html.escape(p['message'])}"
            f"<br><i>fix:</i> {html.escape(p.get('fix', ''))}</li>"
            for p in row.get("problems", [])
        )
        solution = row.get("solution")
        note = row.get("solution_note") if row.get("valid") else ""
        detail = (f"<ul>{items}</ul>" if items else "") + (
            f"<p>solution: <code>{html.escape(solution)}</code></p>"
            if solution
            else (f"<p><i>{html.escape(note)}</i></p>" if note else "")
        )
        if row.get("ambiguous"):
            detail += "<p class='warn'>ambiguous: other photo rotations give other cubes</p>"
    thumbs = "".join(
        f'<img src="{uri}" alt="photo {i + 1}">' for i, uri in enumerate(row.get("thumbnails", []))
    )
    return (
        f'<tr data-verdict="{rank}"><td>{name}</td><td class="v{rank}">{verdict}</td>'
        f"<td>{net}</td><td>{detail}</td><td class='thumbs'>{thumbs}</td></tr>"
    )


def _facelet_index(name: str, size: int) -> int:
    return FACES.index(name[0]) * size * size + int(name[1:]) - 1


_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5em;color:#111}
table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid #ccc;padding:.4em;vertical-align:top;text-align:left}
th{cursor:pointer;background:#f0f0f0;position:sticky;top:0}
.v0{color:#a00;font-weight:bold}.v1{color:#c60;font-weight:bold}.v2{color:#070;font-weight:bold}
.thumbs img{height:90px;margin:2px;border:1px solid #999}
.error{color:#a00}.warn{color:#c60}
"""

_SCRIPT = """
document.querySelectorAll('th').forEach((th, col) => th.addEventListener('click', () => {
  const body = document.querySelector('tbody');
  const rows = [...body.rows];
  const key = r => col === 1 ? r.dataset.verdict : r.cells[col].innerText;
  const dir = th.dataset.dir === 'asc' ? -1 : 1;
  th.dataset.dir = dir === 1 ? 'asc' : 'desc';
  rows.sort((a, b) => key(a).localeCompare(key(b), undefined, {numeric: true}) * dir);
  rows.forEach(r => body.appendChild(r));
}));
"""


def render_batch_html(rows: Sequence[dict], title: str = "cubescan batch report") -> str:
    """The whole page for a batch's report rows (as written to report.jsonl).

    Rows are shown errors first, then unsolvable cubes, then solvable ones.

    Parameters
    ----------
    rows
        Report rows: ``"cube"`` and ``"status"`` (``"ok"`` or ``"error"``), then the
        cube's report (:meth:`cubescan.scanner.pipeline.check.CubeReport.to_dict`: ``"size"`` and
        ``"facelets"`` are needed, ``"valid"`` gives the verdict, ``"colors"``,
        ``"problems"``, ``"solution"`` and ``"thumbnails"`` are shown when present) or
        ``"error"``, the reason.
    title
        The page's title and heading.

    Returns
    -------
    str
        The HTML document.

    Examples
    --------
    >>> rows = [
    ...     {"cube": "good", "status": "ok", "valid": True, "size": 2,
    ...      "facelets": "UUUURRRRFFFFDDDDLLLLBBBB", "problems": [], "solution": ""},
    ...     {"cube": "broken", "status": "error", "error": "no cube face found"},
    ... ]
    >>> page = render_batch_html(rows, title="shelf 3")
    >>> "<h1>shelf 3</h1><p>2 cubes: 1 error, 0 not solvable, 1 solvable." in page
    True
    >>> page.index("broken") < page.index("good")  # errors first
    True
    """
    counts = {"error": 0, "not solvable": 0, "solvable": 0}
    for row in rows:
        counts[_verdict(row)[0]] += 1
    ordered = sorted(rows, key=lambda r: (_verdict(r)[1], str(r.get("cube", ""))))
    summary = ", ".join(f"{n} {word}" for word, n in counts.items())
    body = "".join(_cube_row(row) for row in ordered)
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{html.escape(title)}</h1><p>{len(rows)} cubes: {summary}. "
        "Click a column heading to sort.</p>"
        "<table><thead><tr><th>cube</th><th>verdict</th><th>net</th><th>problems and fixes</th>"
        f"<th>photos</th></tr></thead><tbody>{body}</tbody></table>"
        f"<script>{_SCRIPT}</script></body></html>\n"
    )
