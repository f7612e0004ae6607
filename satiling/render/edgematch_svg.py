"""Edge-matching boards as pictures: SVG with coloured edge triangles, a text grid, and the
e2.bucas.name URL that Eternity II solvers use to share boards.

The URL format (read from the viewer's source, jfbucas/eternityII-viewer, ``puzzle.js``):
``https://e2.bucas.name/#puzzle=NAME&board_w=W&board_h=H&board_edges=...&board_pieces=...`` where
``board_edges`` has four letters per square, row by row from the top left, in the order up, right,
down, left, ``a`` being grey and ``b``, ``c``, ... the colours 1, 2, ...; ``board_pieces`` has three
digits per square (the 1-based piece number, ``000`` for an empty square).  The viewer's default
motif order is the numbering of our Eternity II data (checked: the 256 pieces map onto the viewer's
built-in piece list with colour ``k`` -> letter ``chr(97 + k)``), so its pictures show the real
patterns and it recognises the puzzle.
"""
from __future__ import annotations

import re
from typing import Any
from xml.sax.saxutils import escape

from ..errors import SatilingError
from .svg import palette

GREY_FILL = "#9a9a9a"
BUCAS = "https://e2.bucas.name/#"
#: the viewer's other colour orders (``motifs_order=...``): the letter of each of our colours 0..22,
#: found by matching our 256 pieces against the viewer's piece list for that order (a unique match)
MOTIF_ORDERS = {"jblackwood": "abjrfncksgodlthpemuiqvw", "marie": "abjrfncksgodlthpemuiqvw"}


def board_text(puzzle: Any, board: dict) -> str:
    """One line per row of ``piece/rotation`` tokens (``---/-`` for an empty square), with a
    comment line of column numbers; :func:`satiling.families.edgematch_score.parse_board` reads it
    back."""
    width = max(3, len(str(len(puzzle.pieces))))
    cell = width + 2
    head = "# " + "".join(f"{c + 1:>{cell}}" for c in range(puzzle.cols))
    lines = [head]
    for r in range(puzzle.rows):
        toks = []
        for c in range(puzzle.cols):
            if (r, c) in board:
                p, rot = board[r, c]
                toks.append(f"{p:>{width}}/{rot}")
            else:
                toks.append(f"{'-' * width}/-")
        lines.append(" " + " ".join(toks) + f"   # {_row(r)}")
    return "\n".join(lines)


def _row(r: int) -> str:
    from ..families.edgematch import row_name
    return row_name(r)


def bucas_url(puzzle: Any, board: dict, name: str | None = None) -> str:
    """The e2.bucas.name viewer URL of a (partial) board."""
    top = max((x for p in puzzle.pieces for x in p), default=0)
    if top > 25:
        raise SatilingError("the e2.bucas.name viewer has letters for 25 colours only")
    letters, ids = [], []
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            if (r, c) in board:
                p, rot = board[r, c]
                letters.extend(chr(97 + x) for x in puzzle.edges(p, rot))
                ids.append(p)
            else:
                letters.append("aaaa")
                ids.append(0)
    label = re.sub(r"[^A-Za-z0-9_]+", "_", name or puzzle.name) or "satiling"
    url = (f"{BUCAS}puzzle={label}&board_w={puzzle.cols}&board_h={puzzle.rows}"
           f"&board_edges={''.join(letters)}")
    if len(puzzle.pieces) <= 999:
        url += "&board_pieces=" + "".join(f"{p:03d}" for p in ids)
    return url


def colour_fills(puzzle: Any) -> dict[int, str]:
    """Grey for the border colour, well-separated hues for the others."""
    colours = sorted({x for p in puzzle.pieces for x in p if x != 0})
    fills = dict(zip(colours, palette(len(colours))))
    fills[0] = GREY_FILL
    return fills


def board_svg(puzzle: Any, board: dict, scale: float = 40.0, numbers: bool = True) -> str:
    """Each square cut along its diagonals into four triangles coloured like the piece's sides;
    joins that do not match are marked red, empty squares are white."""
    fills = colour_fills(puzzle)
    m = scale * 0.25
    w, h = puzzle.cols * scale + 2 * m, puzzle.rows * scale + 2 * m
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
           f'viewBox="0 0 {w:.1f} {h:.1f}">',
           f'<title>{escape(puzzle.name)}</title>',
           f'<rect width="{w:.1f}" height="{h:.1f}" fill="white"/>']
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            x0, y0 = m + c * scale, m + r * scale
            x1, y1 = x0 + scale, y0 + scale
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            if (r, c) not in board:
                out.append(f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{scale:.1f}" height="{scale:.1f}" '
                           'fill="white" stroke="#cccccc" stroke-width="0.5"/>')
                continue
            p, rot = board[r, c]
            e = puzzle.edges(p, rot)
            corners = [((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))]
            for d, (a, b) in enumerate(corners):
                pts = f"{a[0]:.1f},{a[1]:.1f} {b[0]:.1f},{b[1]:.1f} {cx:.1f},{cy:.1f}"
                out.append(f'<polygon points="{pts}" fill="{fills.get(e[d], "#000000")}" '
                           'stroke="#333333" stroke-width="0.4"><title>'
                           f'{e[d]}</title></polygon>')
            out.append(f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{scale:.1f}" height="{scale:.1f}" '
                       'fill="none" stroke="black" stroke-width="1"/>')
            if numbers:
                out.append(f'<text x="{cx:.1f}" y="{cy + scale * 0.08:.1f}" font-size="{scale * 0.22:.1f}" '
                           'text-anchor="middle" font-family="sans-serif" fill="black" '
                           f'stroke="white" stroke-width="0.3">{p}</text>')
    out.extend(_mismatches(puzzle, board, m, scale))
    out.append("</svg>")
    return "\n".join(out)


def _mismatches(puzzle: Any, board: dict, m: float, scale: float) -> list[str]:
    out = []
    for j in puzzle.joins():
        (a, da), (b, db) = j.ends()
        if a in board and b in board and puzzle.edges(*board[a])[da] != puzzle.edges(*board[b])[db]:
            r, c = a
            if j.side == 1:       # E: the vertical line on the right of a
                x0 = x1 = m + (c + 1) * scale
                y0, y1 = m + r * scale, m + (r + 1) * scale
            else:                 # S: the horizontal line below a
                y0 = y1 = m + (r + 1) * scale
                x0, x1 = m + c * scale, m + (c + 1) * scale
            out.append(f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" '
                       'stroke="red" stroke-width="3"/>')
    return out
