"""IQ-Link pictures: the board's 24 pegs, pieces as balls, rings (gaps at their openings) and bars.

* :func:`challenge_svg` -- the pre-placed pieces on the board, the pieces still to place in a tray;
* :func:`solution_svg` -- every piece on the board, the pre-placed ones faded (as the source paper
  shows a solution "with the puzzle grayed out").
"""
from __future__ import annotations

import math
from typing import Iterable

from ..families.iqlink import PEGS, IQLinkPlacement, Unit, peg_xy, pieces, turn
from .svg import MARK, escape_text, text_width, wrap_text

SCALE = 60.0
RING_R, RING_W, BALL_R, BAR_W, PEG_R = 0.34, 0.11, 0.2, 0.12, 0.13
#: how far a marked piece's orange halo reaches beyond its shapes, in peg spacings
HALO = 0.07
GAP = math.radians(64)            # angular width of a ring's opening
#: piece colours, after the names in the public piece model (purple line, green line, ...)
COLOURS = {
    "A": "#b48ddc", "B": "#3fae55", "C": "#b7d94a", "D": "#7a3d9e", "E": "#f29bc4", "F": "#3b7dd8",
    "G": "#d9342b", "H": "#f2cf1d", "I": "#1f7a4a", "J": "#22398f", "K": "#f0892a", "L": "#a51d2d",
}
ANGLE = {"E": 0, "SE": 60, "SW": 120, "W": 180, "NW": 240, "NE": 300}   # degrees, y pointing down


def xy(peg: str) -> tuple[float, float]:
    """A peg's centre on the drawn board (rows 1 and 3 half a peg to the right)."""
    x, y = peg_xy(peg)
    return (x + y / 2, y * math.sqrt(3) / 2)


def _units_at(pl: IQLinkPlacement) -> list[tuple[tuple[float, float], Unit, list[str]]]:
    """(centre, unit, its arm / opening directions on the board) for a placement on the board."""
    return [(xy(peg), unit, [turn(d, pl.orientation) for d in unit.dirs]) for peg, unit, _ in pl.units()]


def _tray_units(piece: str, origin: tuple[float, float]) -> list[tuple[tuple[float, float], Unit, list[str]]]:
    """The units of a piece in orientation A, middle unit at ``origin`` (off the board)."""
    out = []
    for unit in pieces()[piece].units:
        cx, cy = origin
        if unit.at is not None:
            a = math.radians(ANGLE[unit.at])
            cx, cy = cx + math.cos(a), cy + math.sin(a)
        out.append(((cx, cy), unit, list(unit.dirs)))
    return out


def _piece_svg(piece: str, units: list, opacity: float, title: str, tf, marked: bool = False) -> str:
    """One piece: its bars, rings and balls in its colour; ``marked``: on an orange halo, the same
    shapes drawn wider in :data:`~satiling.render.svg.MARK` underneath (what a hint points at)."""
    parts = []
    if marked:
        parts += [f'<g class="marked"><title>{escape_text(title)}</title>',
                  *_shapes(units, MARK, tf, HALO * SCALE), "</g>"]
    parts += [f'<g opacity="{opacity}"><title>{escape_text(title)}</title>',
              *_shapes(units, COLOURS[piece], tf, 0.0), "</g>"]
    return "\n".join(parts)


def _shapes(units: list, colour: str, tf, wider: float) -> list[str]:
    """The bars along the chain (ending at a ring's rim), the rings and the balls of a piece, in
    ``colour``, each ``wider`` on every side (a halo; 0: the piece itself, balls outlined)."""
    parts = []
    for a, b in ((0, 1), (1, 2)):
        (x1, y1), (x2, y2) = _bar(units[a], units[b], tf)
        parts.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
                     f'stroke-width="{BAR_W * SCALE + 2 * wider:.1f}" stroke-linecap="round"/>')
    for centre, unit, dirs in units:
        if unit.kind == "ring":
            parts.append(_ring(tf(centre), dirs, colour, RING_W * SCALE + 2 * wider))
    for centre, unit, _ in units:
        if unit.kind == "ball":
            cx, cy = tf(centre)
            edge = 'stroke="#333" stroke-width="1"' if not wider else 'stroke="none"'
            parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{BALL_R * SCALE + wider:.1f}" fill="{colour}" '
                         f'{edge}/>')
    return parts


def _bar(a, b, tf) -> tuple[tuple[float, float], tuple[float, float]]:
    (ax, ay), (bx, by) = tf(a[0]), tf(b[0])
    length = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / length, (by - ay) / length
    ra = RING_R * SCALE if a[1].kind == "ring" else 0.0
    rb = RING_R * SCALE if b[1].kind == "ring" else 0.0
    return (ax + ux * ra, ay + uy * ra), (bx - ux * rb, by - uy * rb)


def _ring(centre: tuple[float, float], openings: list[str], colour: str, width: float) -> str:
    """A ring as arcs between its openings (a full circle when it has none), ``width`` thick."""
    cx, cy = centre
    r = RING_R * SCALE
    style = f'fill="none" stroke="{colour}" stroke-width="{width:.1f}"'
    if width > RING_W * SCALE:             # a halo: round ends, so the arcs are outlined at their gaps too
        style += ' stroke-linecap="round"'
    if not openings:
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" {style}/>'
    gaps = sorted(math.radians(ANGLE[d]) for d in openings)
    arcs = []
    for i, g in enumerate(gaps):
        start = g + GAP / 2
        end = (gaps[(i + 1) % len(gaps)] if len(gaps) > 1 else g + 2 * math.pi) - GAP / 2
        while end <= start:
            end += 2 * math.pi
        large = 1 if end - start > math.pi else 0
        x1, y1 = cx + r * math.cos(start), cy + r * math.sin(start)
        x2, y2 = cx + r * math.cos(end), cy + r * math.sin(end)
        arcs.append(f'<path d="M {x1:.1f} {y1:.1f} A {r:.1f} {r:.1f} 0 {large} 1 {x2:.1f} {y2:.1f}" {style}/>')
    return "\n".join(arcs)


def _document(body: list[str], width: float, height: float, caption: str) -> str:
    """The picture: ``caption`` over the top (broken into lines that fit, the body moved down by
    the lines added; a word wider than the picture widens it, the body centred)."""
    w, h = width * SCALE, height * SCALE
    size = 0.3 * SCALE
    lines = wrap_text(caption, size, w - 0.4 * SCALE) if caption else []
    full = max([w] + [text_width(line, size) + 0.4 * SCALE for line in lines])
    down = 1.25 * size * max(0, len(lines) - 1)
    head = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{full:.0f}" height="{h + down:.0f}" '
            f'viewBox="0 0 {full:.1f} {h + down:.1f}">',
            '<rect width="100%" height="100%" fill="white"/>']
    for i, line in enumerate(lines):
        head.append(f'<text class="caption" x="{full / 2:.1f}" y="{0.45 * SCALE + 1.25 * size * i:.1f}" text-anchor="middle" '
                    f'font-family="sans-serif" font-size="{size:.0f}">{escape_text(line)}</text>')
    if full == w and not down:               # as before: no group around the body
        return "\n".join(head + body + ["</svg>"]) + "\n"
    moved = [f'<g transform="translate({(full - w) / 2:.1f},{down:.1f})">', *body, "</g>"]
    return "\n".join(head + moved + ["</svg>"]) + "\n"


def _board(tf) -> list[str]:
    out = []
    pts = [tf(xy(p)) for p in PEGS]
    x0, y0 = min(p[0] for p in pts) - 0.6 * SCALE, min(p[1] for p in pts) - 0.6 * SCALE
    x1, y1 = max(p[0] for p in pts) + 0.6 * SCALE, max(p[1] for p in pts) + 0.6 * SCALE
    out.append(f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{x1 - x0:.1f}" height="{y1 - y0:.1f}" '
               f'rx="{0.4 * SCALE:.0f}" fill="#eeeeee" stroke="#999" stroke-width="2"/>')
    for peg, (px, py) in zip(PEGS, pts):
        out.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="{PEG_R * SCALE:.1f}" fill="#cccccc">'
                   f'<title>{peg}</title></circle>')
    return out


def _on_board(dx: float = 0.8, dy: float = 1.4):
    return lambda p: ((p[0] + dx) * SCALE, (p[1] + dy) * SCALE)


def solution_svg(puzzle, solution: Iterable[IQLinkPlacement], caption: str = "",
                 marked: Iterable[IQLinkPlacement] = ()) -> str:
    """Every piece of a solution on the board; pre-placed pieces faded; the pieces ``marked`` (a
    hint among the pins) on an orange halo.  Fewer pieces than the set's (forced placements, a
    hint, a search at work) are captioned with their count, not as a solution."""
    tf = _on_board()
    body = _board(tf)
    placed, marked = set(getattr(puzzle, "placed", ())), set(marked)
    solution = sorted(solution, key=lambda p: (p not in placed, p in marked, p.piece))
    for pl in solution:       # the marked last: a neighbour drawn later would cover its halo
        body.append(_piece_svg(pl.piece, _units_at(pl), 0.45 if pl in placed else 1.0, pl.code, tf,
                               marked=pl in marked))
    total = len(pieces())
    return _document(body, 8.4, 4.8, caption or f"{puzzle.title or puzzle.name}: "
                     + ("solution" if len(solution) == total else f"{len(solution)} of {total} pieces placed"))


def second_solution_svg(puzzle, solution: Iterable[IQLinkPlacement]) -> str:
    """A second solution of a challenge (``satiling iqlink unique`` found it not unique),
    captioned so."""
    return solution_svg(puzzle, solution, f"{puzzle.title or puzzle.name}: a second solution, "
                                          "so not unique")


def challenge_svg(puzzle, caption: str = "") -> str:
    """The pre-placed pieces on the board and the pieces to place in a tray below."""
    tf = _on_board()
    body = _board(tf)
    for pl in puzzle.placed:
        body.append(_piece_svg(pl.piece, _units_at(pl), 1.0, pl.code, tf))
    free = list(puzzle.free)
    per_row = 3
    for i, piece in enumerate(free):
        row, col = divmod(i, per_row)
        origin = (1.4 + 2.7 * col, 6.0 + 1.8 * row)
        body.append(_piece_svg(piece, _tray_units(piece, origin), 1.0, f"piece {piece}", _on_board(0, 0)))
    rows = (len(free) + per_row - 1) // per_row
    return _document(body, 8.4, 4.8 + 1.8 * rows + (0.2 if rows else 0),
                     caption or _challenge_caption(puzzle, len(free)))


def _challenge_caption(puzzle, free: int) -> str:
    """The title and the pieces to place, said once: a generated challenge's title says it."""
    title = puzzle.title or puzzle.name
    return title if f"{free} pieces to place" in title else f"{title}: {free} pieces to place"
