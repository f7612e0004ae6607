"""Edge-matching boards as SVG: each square cut along its diagonals into four triangles coloured
like the piece's sides, joins that do not match marked red.  The text forms of a board (grid,
e2.bucas.name URL) live in :mod:`satiling.families.edgematch.board`; they are re-exported here.
"""
from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from ..families.edgematch.board import BUCAS, MOTIF_ORDERS, board_text, bucas_url
from .svg import palette

__all__ = ["BUCAS", "MOTIF_ORDERS", "board_svg", "board_text", "bucas_url", "colour_fills",
           "solution_svg"]

GREY_FILL = "#9a9a9a"


def solution_svg(puzzle: Any, solution: list[Any]) -> str:
    """The SVG of a (possibly partial) solution of an edge-matching puzzle."""
    return board_svg(puzzle, puzzle.board_from(solution, strict=False))


def colour_fills(puzzle: Any) -> dict[int, str]:
    """Grey for the border colour, well-separated hues for the others."""
    colours = sorted({x for p in puzzle.pieces for x in p if x != 0})
    fills = dict(zip(colours, palette(len(colours))))
    fills[0] = GREY_FILL
    return fills


def board_svg(puzzle: Any, board: dict, scale: float = 40.0, numbers: bool = True) -> str:
    """Each square cut along its diagonals into four triangles coloured like the piece's sides;
    joins that do not match are marked red, empty squares are white."""
    from ..families.edgematch.score import score
    fills = colour_fills(puzzle)
    m = scale * 0.25
    caption = scale * 0.6                  # a line under the board: the score
    s = score(puzzle, board)
    w, h = puzzle.cols * scale + 2 * m, puzzle.rows * scale + 2 * m + caption
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
           f'viewBox="0 0 {w:.1f} {h:.1f}">',
           f'<title>{escape(puzzle.name)}: score {s.matched}/{s.joins}</title>',
           f'<rect width="{w:.1f}" height="{h:.1f}" fill="white"/>',
           f'<text x="{w / 2:.1f}" y="{h - caption * 0.3:.1f}" font-size="{caption * 0.55:.1f}" '
           f'text-anchor="middle" font-family="sans-serif">{escape(puzzle.name)}: score '
           f'{s.matched}/{s.joins} ({s.placed} of {s.squares} squares filled)</text>']
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
