"""Edge-matching boards as SVG: each square cut along its diagonals into four triangles coloured
like the piece's sides, joins that do not match marked red, the rows lettered and the columns
numbered around the board as squares are named everywhere (``I8``).  The text forms of a board (grid,
e2.bucas.name URL) live in :mod:`satiling.families.edgematch.board`; they are re-exported here.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from ..families.edgematch.board import BUCAS, MOTIF_ORDERS, board_text, bucas_url
from ..families.edgematch.geometry import row_name, square_name
from .svg import MARK, escape_text, palette, text_width, wrap_text

__all__ = ["BUCAS", "MOTIF_ORDERS", "LabelFrame", "board_svg", "board_text", "bucas_url", "colour_fills",
           "solution_svg", "square_svg", "tiles_svg"]

GREY_FILL = "#9a9a9a"


def solution_svg(puzzle: Any, solution: list[Any], marked: Iterable[Any] = ()) -> str:
    """The SVG of a (possibly partial) solution of an edge-matching puzzle (the tiles ``marked``
    framed in :data:`~satiling.render.svg.MARK`)."""
    return board_svg(puzzle, puzzle.board_from(solution, strict=False),
                     marked=[(t.row, t.col) for t in marked])


def colour_fills(puzzle: Any) -> dict[int, str]:
    """Grey for the border colour, well-separated hues for the others."""
    colours = sorted({x for p in puzzle.pieces for x in p if x != 0})
    fills = dict(zip(colours, palette(len(colours))))
    fills[0] = GREY_FILL
    return fills


def board_svg(puzzle: Any, board: dict, scale: float = 40.0, numbers: bool = True,
              caption: str | None = None, marked: Iterable[tuple[int, int]] = ()) -> str:
    """Each square cut along its diagonals into four triangles coloured like the piece's sides;
    joins that do not match are marked red, empty squares are white; the squares ``marked`` (a
    hint among the pins) are framed in :data:`~satiling.render.svg.MARK`.  Outside the board, the
    squares' names: row letters beside it, column numbers above it (:class:`LabelFrame`).  Under
    the board, ``caption`` (by default the name and the score), broken into lines as wide as the
    board; the picture widens for a word wider than that."""
    from ..families.edgematch.score import score
    fills = colour_fills(puzzle)
    s = score(puzzle, board)
    text = caption if caption is not None else \
        f"{puzzle.name}: score {s.matched}/{s.joins}\n({s.placed} of {s.squares} squares filled)"
    frame = LabelFrame.of(puzzle.rows, puzzle.cols, scale)
    ox, oy = frame.origin
    body = []
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            x0, y0 = ox + c * scale, oy + r * scale
            if (r, c) not in board:
                body.append(f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{scale:.1f}" height="{scale:.1f}" '
                            'fill="white" stroke="#cccccc" stroke-width="0.5"/>')
                continue
            p, rot = board[r, c]
            body.extend(square_svg(puzzle.edges(p, rot), fills, x0, y0, scale, p if numbers else None,
                                   f"tile {p} on {square_name(r, c)}, rotation {rot}"))
    body.extend(_mismatches(puzzle, board, ox, oy, scale))
    for r, c in sorted(set(marked)):
        body.append(f'<rect class="marked" x="{ox + c * scale:.1f}" y="{oy + r * scale:.1f}" width="{scale:.1f}" '
                    f'height="{scale:.1f}" fill="none" stroke="{MARK}" stroke-width="{scale * 0.12:.1f}"/>')
    body.extend(frame.labels())
    return _framed(body, frame.width, frame.height, scale, text, f"{puzzle.name}: score {s.matched}/{s.joins}")


#: a label's font size, in square sides, where its name fits (a column number wider than 90% of a
#: square is set smaller, so neighbours never touch)
LABEL_SIZE = 0.45
#: the smallest label drawn, in pixels at the picture's own size: a board drawn so small has none,
#: and no room kept for them (a page that shows the picture smaller than its own size can hide the
#: group ``board-labels`` by the same measure)
MIN_LABEL_PX = 8.0
#: a board longer than this many squares has its labels on both sides (a row of Eternity II's 16
#: is long to follow from one edge to the far side)
BOTH_SIDES = 8
#: dark grey: read at once, and not taken for a tile's number (black on a white halo)
LABEL_FILL = "#444444"


@dataclass(frozen=True)
class LabelFrame:
    """Where a board of ``rows`` x ``cols`` squares of side ``scale`` sits among its labels: the
    bands around it (left, top, right, bottom; 0 where a side has none) and the labels' size."""
    rows: int
    cols: int
    scale: float
    size: float              # the labels' font size (0: none drawn)
    bands: tuple[float, float, float, float]

    @classmethod
    def of(cls, rows: int, cols: int, scale: float) -> "LabelFrame":
        widest = max(text_width(str(cols), 1.0), 1e-9)
        size = scale * min(LABEL_SIZE, 0.9 / widest)
        if size < MIN_LABEL_PX:
            return cls(rows, cols, scale, 0.0, (0.0, 0.0, 0.0, 0.0))
        letters = max(text_width(row_name(r), size) for r in range(rows))
        side, top = letters + 0.3 * size, 1.45 * size      # a gap of a third of a letter to the board
        return cls(rows, cols, scale, size, (side, top, side if cols > BOTH_SIDES else 0.0,
                                             top if rows > BOTH_SIDES else 0.0))

    @property
    def margin(self) -> float:
        """The white around everything, a quarter of a square."""
        return self.scale * 0.25

    @property
    def origin(self) -> tuple[float, float]:
        """The board's top left corner in the picture."""
        return self.margin + self.bands[0], self.margin + self.bands[1]

    @property
    def width(self) -> float:
        return self.origin[0] + self.cols * self.scale + self.bands[2] + self.margin

    @property
    def height(self) -> float:
        return self.origin[1] + self.rows * self.scale + self.bands[3] + self.margin

    def labels(self) -> list[str]:
        """Each row's letters (:func:`~satiling.families.edgematch.geometry.row_name`, the name
        ``hint`` and the text board give it) centred on its row, each column's number on its
        column, in one group (``board-labels``)."""
        if not self.size:
            return []
        (ox, oy), k, size = self.origin, self.scale, self.size
        left, top, right, bottom = self.bands
        style = (f'font-size="{size:.1f}" font-family="sans-serif" fill="{LABEL_FILL}" '
                 'text-anchor="middle" dominant-baseline="central"')
        out = ['<g class="board-labels">']
        for r in range(self.rows):
            y, name = oy + (r + 0.5) * k, row_name(r)
            xs = [ox - left / 2 - 0.15 * size] + ([ox + self.cols * k + right / 2 + 0.15 * size] if right else [])
            out += [f'<text class="row-label" x="{x:.1f}" y="{y:.1f}" {style}>{name}</text>' for x in xs]
        for c in range(self.cols):
            x = ox + (c + 0.5) * k
            ys = [oy - top / 2 - 0.1 * size] + ([oy + self.rows * k + bottom / 2 + 0.1 * size] if bottom else [])
            out += [f'<text class="col-label" x="{x:.1f}" y="{y:.1f}" {style}>{c + 1}</text>' for y in ys]
        out.append("</g>")
        return out


def tiles_svg(puzzle: Any, scale: float = 40.0, per_row: int | None = None,
              numbers: Sequence[int] | None = None, counted: str | None = None) -> str:
    """The pieces ``numbers`` (1-based; by default every one) as given (rotation 0), numbered, in
    rows of ``per_row`` (by default about as many rows as columns): the pieces before any search.
    ``counted``: how the caption counts them (by default ``36 pieces``)."""
    fills = colour_fills(puzzle)
    numbers = list(range(1, len(puzzle.pieces) + 1)) if numbers is None else list(numbers)
    n = len(numbers)
    per_row = per_row or max(1, math.ceil(math.sqrt(n)))
    m, step = scale * 0.25, scale * 1.15
    body = []
    for i, number in enumerate(numbers):
        row, col = divmod(i, per_row)
        body.extend(square_svg(tuple(puzzle.pieces[number - 1]), fills, m + col * step, m + row * step,
                               scale, number))
    rows = max(1, math.ceil(n / per_row))
    caption = f"{counted or f'{n} pieces'} (as given: N E S W clockwise from the top)"
    return _framed(body, 2 * m + (min(n, per_row) - 1) * step + scale,
                   2 * m + (rows - 1) * step + scale, scale, caption, f"{puzzle.name}: pieces")


#: the sides of a square as drawn, in the order of a piece's colours (N E S W)
SIDES = ("top", "right", "bottom", "left")


def square_svg(edges: Any, fills: dict[int, str], x0: float, y0: float, scale: float,
               number: int | None, tile: str | None = None) -> list[str]:
    """One piece on the square whose top left corner is (x0, y0): its four sides' triangles,
    outlined, with its number in the middle, bold on a white halo (read on any colour: the thin
    outline it had was lost on Eternity II's dark sides).  Each side's title names the tile
    (``tile``, by default ``tile NUMBER``) and the side's colour: a picture shown too small for its
    numbers still tells them under the pointer."""
    x1, y1 = x0 + scale, y0 + scale
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    out = []
    name = tile or (f"tile {number}" if number is not None else "")
    corners = [((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))]
    for d, (a, b) in enumerate(corners):
        pts = f"{a[0]:.1f},{a[1]:.1f} {b[0]:.1f},{b[1]:.1f} {cx:.1f},{cy:.1f}"
        out.append(f'<polygon points="{pts}" fill="{fills.get(edges[d], "#000000")}" '
                   'stroke="#333333" stroke-width="0.4"><title>'
                   f'{f"{name}: " if name else ""}{SIDES[d]} colour {edges[d]}</title></polygon>')
    out.append(f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{scale:.1f}" height="{scale:.1f}" '
               'fill="none" stroke="black" stroke-width="1"/>')
    if number is not None:
        out.append(f'<text class="tile-number" x="{cx:.1f}" y="{cy + scale * 0.105:.1f}" '
                   f'font-size="{scale * 0.3:.1f}" font-weight="bold" text-anchor="middle" '
                   'font-family="sans-serif" fill="#111111" stroke="white" '
                   f'stroke-width="{scale * 0.09:.1f}" stroke-linejoin="round" paint-order="stroke">'
                   f'{number}</text>')
    return out


def _framed(body: list[str], width: float, height: float, scale: float, caption: str, title: str) -> str:
    """The document: ``body`` (drawn in a ``width`` x ``height`` box) centred above ``caption``,
    which is broken into lines that fit the box (at its newlines first); a line wider than the box
    widens the picture."""
    size = scale * 0.33
    lines = wrap_text(caption.replace("\n", " "), size, width - scale * 0.5)
    if len(lines) > 1:                     # broken: first where the caption says it may be
        lines = [line for part in caption.split("\n") for line in wrap_text(part, size, width - scale * 0.5)]
    w = max(width, max(text_width(line, size) for line in lines) + scale * 0.5)
    line_height = size * 1.25
    h = height + line_height * len(lines) + scale * 0.15
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
           f'viewBox="0 0 {w:.1f} {h:.1f}">', f'<title>{escape_text(title)}</title>',
           f'<rect width="{w:.1f}" height="{h:.1f}" fill="white"/>']
    for i, line in enumerate(lines):
        out.append(f'<text class="caption" x="{w / 2:.1f}" y="{height + line_height * (i + 0.8):.1f}" '
                   f'font-size="{size:.1f}" text-anchor="middle" font-family="sans-serif">'
                   f'{escape_text(line)}</text>')
    out.append(f'<g transform="translate({(w - width) / 2:.1f},0)">')
    out.extend(body)
    out.extend(["</g>", "</svg>"])
    return "\n".join(out)


def _mismatches(puzzle: Any, board: dict, ox: float, oy: float, scale: float) -> list[str]:
    """A red line along each join whose two sides differ (the board's top left at (ox, oy))."""
    out = []
    for j in puzzle.joins():
        (a, da), (b, db) = j.ends()
        if a in board and b in board and puzzle.edges(*board[a])[da] != puzzle.edges(*board[b])[db]:
            r, c = a
            if j.side == 1:       # E: the vertical line on the right of a
                x0 = x1 = ox + (c + 1) * scale
                y0, y1 = oy + r * scale, oy + (r + 1) * scale
            else:                 # S: the horizontal line below a
                y0 = y1 = oy + (r + 1) * scale
                x0, x1 = ox + c * scale, ox + (c + 1) * scale
            out.append(f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" '
                       'stroke="red" stroke-width="3"/>')
    return out
