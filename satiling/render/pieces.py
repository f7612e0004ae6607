"""Pictures of a puzzle before any search: its board and its pieces, for the terminal and as SVG.

* :func:`pieces_text` / :func:`pieces_svg` -- the tray: every piece still to place once (a pinned
  piece, ``puzzle.pins()``, is on the board instead), labelled with its name (polyforms: each in
  one orientation, the flattest, laid out in rows, with the copies left; edge matching: each tile
  as given, numbered; IQ-Link: the challenge with its tray of pieces to place);
* :func:`puzzle_text` / :func:`puzzle_svg` -- the board (empty, or with its fixed pieces) and the
  pieces together: what ``satiling show`` prints and a puzzle's ``_repr_svg_`` draws;
* :func:`placements_svg` -- some placements on the empty board (forced ones, a hint);
* :func:`summary` -- a puzzle in a few words (``60 cells, 12 pieces``), for its ``repr``.

A piece has the colour it takes in a full solution's picture (the same palette, in the same order).

    >>> import satiling
    >>> print(pieces_text(satiling.load("tetromino-4x5")).splitlines()[0])
    I      O    T     L     S
"""
from __future__ import annotations

import math
import re
from collections import Counter
from typing import Any, Callable

from .pictures import solution_svg, solution_text
from .svg import LABEL_SIZE, Point, iso_faces, palette, svg_document
from .text import grid_text, layers_text, letters, paint, raster_text, _place

#: a row of pieces in the terminal is at most this wide (or as wide as the board)
TEXT_WIDTH = 78
#: a row of pieces in the SVG is at most this many cell sides wide (or as wide as the board)
SVG_WIDTH = 14.0
_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


# -- the whole puzzle -----------------------------------------------------------------------------
def summary(puzzle: Any) -> str:
    """The puzzle's size in a few words: ``60 cells, 12 pieces``, ``6x6, 36 pieces``,
    ``60 cells, 11 pieces to place, 1 pinned``, ``3 placed, 9 to place``."""
    if puzzle.family == "polyform":
        pieces = _to_place(sum(p.count for p in puzzle.pieces), len(puzzle.pins()), "pinned")
        return f"{len(puzzle.region)} cells, {pieces}"
    if puzzle.family == "edgematch":
        return f"{puzzle.rows}x{puzzle.cols}, {_to_place(len(puzzle.pieces), len(puzzle.pins()), 'fixed')}"
    if puzzle.family == "iqlink":
        return f"{len(puzzle.placed)} placed, {len(puzzle.free)} to place"
    return f"{len(puzzle.placements())} placements"


def puzzle_text(puzzle: Any, colour: str | None = None) -> str:
    """The puzzle for the terminal: a title line, the board, and the pieces."""
    head = f"{puzzle.name}: {puzzle.title} ({summary(puzzle)})" if puzzle.title else \
        f"{puzzle.name}: {summary(puzzle)}"
    if puzzle.family == "iqlink":          # the board with its pre-placed pieces; the rest to place
        return f"{head}\n\n{puzzle.text(puzzle.pins())}\n\n{pieces_text(puzzle, colour)}"
    board = solution_text(puzzle, puzzle.pins(), colour=colour)
    pieces = pieces_text(puzzle, colour)
    return f"{head}\n\n{board}" + (f"\n\n{pieces}" if pieces else "")


def puzzle_svg(puzzle: Any) -> str:
    """The board (empty, or with its fixed pieces) above the pieces, in one SVG."""
    if puzzle.family == "iqlink":          # its challenge picture has the tray of pieces already
        return pieces_svg(puzzle) or ""
    if puzzle.family == "edgematch":
        from .edgematch_svg import board_svg
        board = board_svg(puzzle, puzzle.board_from(puzzle.pins(), strict=False),
                          caption=f"{puzzle.name}: {summary(puzzle)}")
    else:
        board = solution_svg(puzzle, puzzle.pins())
    pieces = pieces_svg(puzzle)
    return stack_svg([board, pieces]) if pieces else board


def placements_svg(puzzle: Any, placements: list[Any], caption: str = "", marked: list[Any] | None = None) -> str:
    """Some placements on the board, the rest of it empty (forced placements, a hint): an
    edge-matching board keeps its empty squares, a polyform board its uncovered cells; those of
    ``marked`` (the hint among the pins) are outlined in orange, where the family's picture can."""
    if puzzle.family == "edgematch":
        from .edgematch_svg import board_svg
        return board_svg(puzzle, puzzle.board_from(list(placements), strict=False),
                         caption=caption or f"{puzzle.name}: {summary(puzzle)}",
                         marked=[(t.row, t.col) for t in marked or ()])
    return solution_svg(puzzle, list(placements), marked=list(marked or ()))


def _to_place(pieces: int, pinned: int, how: str) -> str:
    """``12 pieces``; with pins ``11 pieces to place, 1 pinned`` (``how``: the family's word)."""
    if not pinned:
        return _plural(pieces, "piece")
    return f"{_plural(pieces - pinned, 'piece')} to place, {pinned} {how}"


def _tray(puzzle: Any) -> list[tuple[Any, int, str]]:
    """Each polyform piece still to place: the piece, its copies left (its count less its pinned
    copies) and its colour in a full solution's picture; a piece pinned as often as it comes is
    on the board only."""
    pinned = Counter(pl.piece for pl in puzzle.pins())
    return [(p, p.count - pinned[p.name], fill) for p, fill in zip(puzzle.pieces, _colours(puzzle))
            if p.count > pinned[p.name]]


def _tiles_left(puzzle: Any) -> list[int]:
    """The numbers (1-based, the instance's order) of the edge tiles not fixed on the board."""
    fixed = {t.piece for t in puzzle.pins()}
    return [i for i in range(1, len(puzzle.pieces) + 1) if i not in fixed]


# -- the pieces -----------------------------------------------------------------------------------
def pieces_text(puzzle: Any, colour: str | None = None) -> str:
    """Every piece still to place once for the terminal (see the module's note); "" for a family
    without a picture of its pieces, or none left to place."""
    draw = _BY_FAMILY.get(puzzle.family, {}).get("text")
    return draw(puzzle, colour) if draw else ""


def pieces_svg(puzzle: Any) -> str | None:
    """Every piece still to place once as SVG (see the module's note); None for a family without
    one, "" for none left to place."""
    draw = _BY_FAMILY.get(puzzle.family, {}).get("svg")
    return draw(puzzle) if draw else None


def _polyform_text(puzzle: Any, colour: str | None) -> str:
    """Each piece still to place in its letter (the solution picture's), its name above it (and
    how many copies are left), in rows no wider than the board or :data:`TEXT_WIDTH`."""
    lat = puzzle.lattice
    names = letters([p.name for p in puzzle.pieces])      # all of them: the board's letters
    blocks = []
    for piece, left, fill in _tray(puzzle):
        ch = paint(names[piece.name], fill, colour)
        label = {cell: ch for cell in shown_shape(puzzle, piece)}
        if lat.name == "cubic":
            art = layers_text(label)
        elif lat.name == "drafter":
            art = raster_text(lat, label)
        else:
            art = grid_text({_place(lat.name, c): x for c, x in label.items()},
                            keep_parity=lat.name in ("triangle", "hexagon"))
        title = piece.name if names[piece.name] == piece.name else f"{names[piece.name]}={piece.name}"
        blocks.append([title + (f" x{left}" if left > 1 else "")] + art.splitlines())
    if not blocks:
        return ""
    board_width = max(_width(line) for line in solution_text(puzzle, []).splitlines())
    return _side_by_side(blocks, max(TEXT_WIDTH, board_width))


def _side_by_side(blocks: list[list[str]], width: int, gap: int = 3, between: bool = True) -> str:
    """Blocks of lines set left to right, a new row of blocks when the next would pass ``width``;
    widths are counted in characters shown (a letter in colour is one); ``between``: a blank
    line between two rows."""
    rows: list[list[list[str]]] = [[]]
    used = 0
    for block in blocks:
        w = max(_width(line) for line in block)
        if rows[-1] and used + gap + w > width:
            rows.append([])
            used = 0
        used += (gap if rows[-1] else 0) + w
        rows[-1].append(block)
    out = []
    for row in rows:
        widths = [max(_width(line) for line in block) for block in row]
        for i in range(max(len(block) for block in row)):
            cells = [_pad(block[i] if i < len(block) else "", w) for block, w in zip(row, widths)]
            out.append((" " * gap).join(cells).rstrip())
        if between:
            out.append("")
    return "\n".join(out).rstrip("\n")


def _width(line: str) -> int:
    return len(_ESCAPE.sub("", line))


def _pad(line: str, width: int) -> str:
    return line + " " * (width - _width(line))


def _polyform_svg(puzzle: Any) -> str:
    """Each piece still to place in its solution colour, its name under it (and how many copies
    are left), in rows no wider than the board or :data:`SVG_WIDTH` cell sides."""
    tray = _tray(puzzle)
    if not tray:
        return ""
    draw = _drawer(puzzle)
    board = [p for cell in puzzle.region for p in draw(cell)]
    width = max(SVG_WIDTH, max(x for x, _ in board) - min(x for x, _ in board)) if board else SVG_WIDTH
    solid = puzzle.lattice.name == "cubic"
    shapes, faces, labels = [], [], []
    x = y = row_height = 0.0
    for piece, left, fill in tray:
        # a solid as one block in 3-D (its layers side by side read as pieces of their own)
        polys = [f for f, _ in iso_faces(dict.fromkeys(solid_shape(puzzle, piece), fill))] if solid else \
            [draw(c) for c in shown_shape(puzzle, piece)]
        pts = [p for poly in polys for p in poly]
        x0, y0 = min(p[0] for p in pts), min(p[1] for p in pts)
        w, h = max(p[0] for p in pts) - x0, max(p[1] for p in pts) - y0
        if x > 0 and x + w > width:                       # a new row
            x, y, row_height = 0.0, y + row_height + 1.0 + LABEL_SIZE, 0.0
        moved = [[(px - x0 + x, py - y0 + y) for px, py in poly] for poly in polys]
        if solid:
            shaded = iso_faces(dict.fromkeys(solid_shape(puzzle, piece), fill))
            faces += [(poly, colour, piece.name) for poly, (_, colour) in zip(moved, shaded)]
        else:
            shapes.append((moved, fill, piece.name))
        name = piece.name + (f" x{left}" if left > 1 else "")
        labels.append(((x + w / 2, y + h + 0.5), name, LABEL_SIZE))
        x += w + 1.0
        row_height = max(row_height, h)
    return svg_document(shapes, labels=labels, solid=faces)


def shown_shape(puzzle: Any, piece: Any, shapes: list[tuple] | None = None) -> tuple:
    """The orientation a piece is drawn in: of those it may take (or of ``shapes``), the one in
    fewest layers (a solid), then the flattest, then the narrowest (the first such, so a piece
    given flat is drawn as given)."""
    draw = _drawer(puzzle)
    solid = puzzle.lattice.name == "cubic"

    def extent(shape: tuple) -> tuple[int, float, float]:
        pts = [p for cell in shape for p in draw(cell)]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        layers = len({cell[0] for cell in shape}) if solid else 1
        return (layers, round(max(ys) - min(ys), 6), round(max(xs) - min(xs), 6))
    return min(shapes or puzzle.orientations(piece), key=extent)


def solid_shape(puzzle: Any, piece: Any) -> tuple:
    """The orientation a solid piece is drawn in, in 3-D (:func:`~.svg.iso_faces`): of those it
    may take, one in which every cube shows a face and no cube stands right behind another (the
    centre of a tripod whose arms point at the viewer is hidden by them), then as
    :func:`shown_shape` chooses."""
    def hidden(shape: tuple) -> int:
        cells = set(shape)
        covered = sum(all((l + dl, r + dr, c + dc) in cells for dl, dr, dc in ((1, 0, 0), (0, 1, 0), (0, 0, 1)))
                      for l, r, c in cells)
        behind = sum((l + 1, r + 1, c + 1) in cells for l, r, c in cells)
        return covered + behind
    fewest = min(hidden(s) for s in puzzle.orientations(piece))
    return shown_shape(puzzle, piece, [s for s in puzzle.orientations(piece) if hidden(s) == fewest])


def _drawer(puzzle: Any) -> Callable[[tuple], list[Point]]:
    """cell -> polygon; a solid's layers side by side, one column apart (as its solutions)."""
    lat = puzzle.lattice
    if lat.name != "cubic":
        return lat.polygon
    # wide enough for a layer of any piece in any orientation: its longest extent, and a gap
    step = 2 + max((max(c[i] for c in p.shape) - min(c[i] for c in p.shape)
                    for p in puzzle.pieces for i in range(3)), default=0)
    return lambda cell: [(x + cell[0] * step, y) for x, y in lat.polygon(cell)]


def _colours(puzzle: Any) -> list[str]:
    """Each piece's colour in a full solution's picture: placements are coloured in name order,
    one palette entry per copy, so a piece takes the entry of its first copy."""
    order = sorted(puzzle.pieces, key=lambda p: p.name)
    colours = palette(max(1, sum(p.count for p in order)))
    first, at = {}, 0
    for p in order:
        first[p.name] = colours[at]
        at += p.count
    return [first[p.name] for p in puzzle.pieces]


def _edgematch_text(puzzle: Any, colour: str | None = None) -> str:
    """Every tile not fixed, as given: its number and its colours N E S W (0 the border), in
    columns."""
    left, width = _tiles_left(puzzle), len(str(len(puzzle.pieces)))
    if not left:
        return ""
    entries = [f"{i:>{width}}: {' '.join(map(str, puzzle.pieces[i - 1]))}" for i in left]
    fixed = len(puzzle.pieces) - len(left)
    head = f"pieces{f' to place, {fixed} fixed' if fixed else ''} (colours N E S W clockwise from " \
        "the top; 0 the border):"
    return head + "\n" + _side_by_side([[e] for e in entries], TEXT_WIDTH, between=False)


def _edgematch_svg(puzzle: Any) -> str:
    from .edgematch_svg import tiles_svg
    left = _tiles_left(puzzle)
    counted = _to_place(len(puzzle.pieces), len(puzzle.pieces) - len(left), "fixed")
    return tiles_svg(puzzle, numbers=left, counted=counted) if left else ""


def _iqlink_text(puzzle: Any, colour: str | None = None) -> str:
    return f"to place: {' '.join(puzzle.free) or 'none'}"


def _iqlink_svg(puzzle: Any) -> str:
    from .iqlink_svg import challenge_svg
    return challenge_svg(puzzle)


_BY_FAMILY: dict[str, dict[str, Callable[..., str]]] = {
    "polyform": {"text": _polyform_text, "svg": _polyform_svg},
    "edgematch": {"text": _edgematch_text, "svg": _edgematch_svg},
    "iqlink": {"text": _iqlink_text, "svg": _iqlink_svg},
}


# -- one SVG of several -----------------------------------------------------------------------------
_SIZE = re.compile(r'<svg\b[^>]*?\bwidth="([0-9.]+)"[^>]*?\bheight="([0-9.]+)"')


def stack_svg(documents: list[str], gap: float = 12.0) -> str:
    """SVG documents one above the other, each centred, in one document (nested ``<svg>``
    elements keep each one's own coordinates)."""
    sizes = []
    for doc in documents:
        found = _SIZE.search(doc)
        if found is None:
            raise ValueError("an SVG document without a width and height")
        sizes.append((float(found.group(1)), float(found.group(2))))
    width = max(w for w, _ in sizes)
    height = sum(h for _, h in sizes) + gap * (len(sizes) - 1)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.1f} {height:.1f}">', '<rect width="100%" height="100%" fill="white"/>']
    y = 0.0
    for doc, (w, h) in zip(documents, sizes):
        body = doc.strip()
        body = re.sub(r"^<\?xml[^>]*>\s*", "", body)
        out.append(body.replace("<svg ", f'<svg x="{(width - w) / 2:.1f}" y="{y:.1f}" ', 1))
        y += h + gap
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"
