"""Pictures for the terminal: one character per cell, the piece's letter ('.' an empty cell; in
colour on a terminal a square takes two, so the board keeps its shape);
in colour on a terminal (each piece on the background the SVG gives it), and with a legend where
a letter is not its piece's name.

Each lattice is drawn the way its ASCII art is read (so a picture pasted into an instance file
draws the same cells): squares and triangles one character per cell, hexagons on a doubled-width
grid, cubes layer by layer side by side, drafter elements sampled on a character raster.  On a
wrapped board the strip beyond each seam is repeated after a ``:`` so pieces crossing it show whole.
"""
from __future__ import annotations

import math
from typing import Any

from .svg import placement_colours

Grid = dict[tuple[int, int], str]


#: the characters pieces are drawn with: ASCII letters and digits, then (for sets larger than
#: 62, as Monckton's 209 Eternity pieces) the letters of Latin-1 and Latin Extended-A
POOL = ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
        + "".join(chr(c) for c in range(0xC0, 0x180) if chr(c).isalpha()))
#: a legend line is wrapped at this many columns
LEGEND_WIDTH = 100


def letters(names: list[str]) -> dict[str, str]:
    """One character per piece name: its first letter when unique, else a free letter or digit
    (never '.' nor a space, which draw an empty cell and a cell off the board)."""
    out: dict[str, str] = {}
    for n in names:
        if len(n) == 1 and _drawable(n) and n not in out.values():
            out[n] = n
    taken = set(out.values())
    free = iter(POOL)
    for n in names:
        if n not in out:
            ch = n[0] if n and n[0] not in taken and _drawable(n[0]) else None
            while ch is None or ch in taken:
                ch = next(free, "?")
                if ch == "?":
                    break
            out[n] = ch
            taken.add(ch)
    return out


def _drawable(ch: str) -> bool:
    return ch != "." and not ch.isspace()


def _spaced(name: str) -> bool:
    return not name or any(ch.isspace() for ch in name)


def polyform_text(puzzle: Any, solution: list[Any], colour: str | None = None) -> str:
    """The solution drawn on the puzzle's lattice (' ' = not in the region); a legend follows
    when a piece's letter is not its name (the SVG writes names).  ``colour`` ("truecolor" or
    "256"): each placed piece on its own background, the SVG's colour (:func:`paint`)."""
    lat = puzzle.lattice
    names = letters([p.name for p in puzzle.pieces])
    placed = sorted(solution, key=lambda p: p.sort_key())           # the SVG's colour order
    colours = placement_colours(puzzle, placed)
    # on a terminal a square is two characters wide, so the board keeps its shape (a character is
    # about twice as tall as wide); plain text keeps one, to read back as an instance's ASCII art
    wide = colour is not None and lat.name == "square" and not puzzle.wrap
    label = {c: ". " if wide else "." for c in puzzle.region}
    for i, pl in enumerate(placed):
        ch = names.get(pl.piece, "?")
        for c in pl.cells:
            label[tuple(c)] = paint(ch + " " if wide else ch, colours[i], colour)
    if lat.name == "cubic":
        picture = layers_text(label)
    elif lat.name == "drafter":
        picture = raster_text(lat, label)
    else:
        grid = {_place(lat.name, c): ch for c, ch in label.items()}
        if puzzle.wrap:
            grid = _with_seams(puzzle, label, grid)
        picture = grid_text(grid, keep_parity=lat.name in ("triangle", "hexagon"),
                            blank="  " if wide else " ")
    key = legend(names, placed, colours, colour)
    return picture + ("\n\n" + key if key else "")


def legend(names: dict[str, str], placed: list[Any], colours: list[str], colour: str | None) -> str:
    """``legend: 2=214  A=215 ...``: the letters that are not their piece's name, wrapped."""
    seen: dict[str, int] = {}
    for i, pl in enumerate(placed):
        seen.setdefault(pl.piece, i)
    # a name with a space in it is quoted: "B=   A=." would not say which name is which
    pairs = [(paint(names.get(n, "?"), colours[i], colour), repr(n) if _spaced(n) else n)
             for n, i in seen.items() if names.get(n) != n]
    if not pairs:
        return ""
    lines, line, width = [], "legend:", len("legend:")
    for ch, name in pairs:            # (width counts what shows: a letter in colour is one)
        if width + 4 + len(name) > LEGEND_WIDTH:
            lines.append(line)
            line, width = " " * 6, 6
        gap = " " if width == len("legend:") else "  "
        line, width = f"{line}{gap}{ch}={name}", width + len(gap) + 2 + len(name)
    return "\n".join(lines + [line])


def paint(ch: str, colour_hex: str, colour: str | None) -> str:
    """``ch`` on a background of ``colour_hex`` in black, for a terminal of 24-bit colour
    ("truecolor") or of xterm's 256 colours ("256"); unchanged when ``colour`` is None."""
    if colour is None or ch.strip() == ".":
        return ch
    r, g, b = (int(colour_hex[k:k + 2], 16) for k in (1, 3, 5))
    if colour == "truecolor":
        back = f"48;2;{r};{g};{b}"
    else:
        level = [min(range(6), key=lambda i: abs((0, 95, 135, 175, 215, 255)[i] - x)) for x in (r, g, b)]
        back = f"48;5;{16 + 36 * level[0] + 6 * level[1] + level[2]}"
    return f"\x1b[{back};30m{ch}\x1b[0m"


def _place(lattice: str, cell: tuple[int, ...]) -> tuple[int, int]:
    """(line, column) of a cell: hexagon ``(q, r)`` sits at column ``2q + r`` of line ``r``."""
    if lattice == "hexagon":
        q, r = cell
        return (r, 2 * q + r)
    return (cell[0], cell[1])


def grid_text(grid: Grid, keep_parity: bool = False, blank: str = " ") -> str:
    """Lines of characters from (line, column) positions; ``keep_parity`` moves the picture only by
    an even line + column offset (so triangles keep pointing the way they point, and hexagons stay
    on their columns, when the picture is read back as ASCII art)."""
    rows = [r for r, _ in grid]
    cols = [c for _, c in grid]
    r0, c0 = min(rows), min(cols)
    if keep_parity and (r0 + c0) % 2:
        c0 -= 1
    lines = []
    for r in range(r0, max(rows) + 1):
        lines.append("".join(grid.get((r, c), blank) for c in range(c0, max(cols) + 1)).rstrip())
    return "\n".join(lines)


def _with_seams(puzzle: Any, label: dict, grid: Grid) -> Grid:
    """The board, then ':' and the first cells beyond each wrapped side (the glued side again)."""
    lat, wrap = puzzle.lattice, puzzle.wrap
    step = 2 if lat.name == "hexagon" else 1          # columns from one cell to the next in a line
    out = dict(grid)
    last_in_line: dict[int, int] = {}
    for r, c in grid:
        last_in_line[r] = max(c, last_in_line.get(r, c))
    last_line = max(last_in_line)
    for axis, period in zip(wrap.axes, wrap.periods):
        for cell, ch in label.items():
            r, c = _place(lat.name, lat.shift(cell, period))
            if axis == "cols" and r in last_in_line and c <= last_in_line[r] + 4 * step:
                out[(r, last_in_line[r] + 1)] = ":"
                out[(r, c + (step == 1))] = ch      # one column right of the ':' (hexagons have room)
            elif axis == "rows" and r <= last_line + 2:
                out[(r + 1, c)] = ch
        if axis == "rows":
            for _, c in grid:
                out[(last_line + 1, c)] = ":"
    return out


def layers_text(label: dict) -> str:
    """Cubes: the layers side by side, the bottom one (layer 1: counted from 1, as the SVG
    pictures count them) first."""
    nl = max(c[0] for c in label) + 1
    r0, r1 = min(c[1] for c in label), max(c[1] for c in label)
    c0, c1 = min(c[2] for c in label), max(c[2] for c in label)
    width = max(c1 - c0 + 1, len(f"layer {nl}"))
    lines = ["   ".join(f"layer {l + 1}".ljust(width) for l in range(nl)).rstrip()]
    for r in range(r0, r1 + 1):
        # padded by cells, not by len(): a cell in colour is one character and its escapes
        row = ["".join(label.get((l, r, c), " ") for c in range(c0, c1 + 1)) + " " * (width - (c1 - c0 + 1))
               for l in range(nl)]
        lines.append("   ".join(row).rstrip())
    return "\n".join(lines)


def raster_text(lat: Any, label: dict, per_unit: tuple[float, float] = (4.0, 2.0)) -> str:
    """Any flat lattice: sample the plane on a character grid (``per_unit`` characters across and
    lines down per unit length) and print the letter of the cell under each sample."""
    polys = {c: lat.polygon(c) for c in label}
    xs = [x for poly in polys.values() for x, _ in poly]
    ys = [y for poly in polys.values() for _, y in poly]
    sx, sy = per_unit
    width, height = math.ceil((max(xs) - min(xs)) * sx), math.ceil((max(ys) - min(ys)) * sy)
    find = _locator(lat, polys)
    lines = []
    for j in range(height):
        y = min(ys) + (j + 0.5) / sy
        line = []
        for i in range(width):
            cell = find(min(xs) + (i + 0.5) / sx, y)
            line.append(label[cell] if cell is not None else " ")
        lines.append("".join(line).rstrip())
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def _locator(lat: Any, polys: dict):
    """A point -> cell function: cells bucketed by bounding box, then an exact inside test."""
    buckets: dict[tuple[int, int], list] = {}
    for cell, poly in polys.items():
        xs, ys = [p[0] for p in poly], [p[1] for p in poly]
        for bx in range(math.floor(min(xs)), math.floor(max(xs)) + 1):
            for by in range(math.floor(min(ys)), math.floor(max(ys)) + 1):
                buckets.setdefault((bx, by), []).append(cell)

    def find(x: float, y: float):
        for cell in buckets.get((math.floor(x), math.floor(y)), ()):
            if _inside(polys[cell], x, y):
                return cell
        return None
    return find


def _inside(poly: list[tuple[float, float]], x: float, y: float) -> bool:
    """Even-odd rule."""
    inside = False
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside
