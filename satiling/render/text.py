"""Pictures for the terminal: one character per cell, the piece's letter ('.' an empty cell).

Each lattice is drawn the way its ASCII art is read (so a picture pasted into an instance file
draws the same cells): squares and triangles one character per cell, hexagons on a doubled-width
grid, cubes layer by layer side by side, drafter elements sampled on a character raster.  On a
wrapped board the strip beyond each seam is repeated after a ``:`` so pieces crossing it show whole.
"""
from __future__ import annotations

import math
from typing import Any

Grid = dict[tuple[int, int], str]


def letters(names: list[str]) -> dict[str, str]:
    """One character per piece name: its first letter when unique, else a free letter or digit."""
    pool = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"]
    out: dict[str, str] = {}
    for n in names:
        if len(n) == 1 and n not in out.values():
            out[n] = n
    for n in names:
        if n not in out:
            free = [c for c in ([n[0]] if n else []) + pool if c not in out.values()]
            out[n] = free[0] if free else "?"
    return out


def polyform_text(puzzle: Any, solution: list[Any]) -> str:
    """The solution drawn on the puzzle's lattice (' ' = not in the region)."""
    lat = puzzle.lattice
    names = letters([p.name for p in puzzle.pieces])
    label = {c: "." for c in puzzle.region}
    for pl in solution:
        for c in pl.cells:
            label[tuple(c)] = names.get(pl.piece, "?")
    if lat.name == "cubic":
        return layers_text(label)
    if lat.name == "drafter":
        return raster_text(lat, label)
    grid = {_place(lat.name, c): ch for c, ch in label.items()}
    if puzzle.wrap:
        grid = _with_seams(puzzle, label, grid)
    return grid_text(grid, keep_parity=lat.name in ("triangle", "hexagon"))


def _place(lattice: str, cell: tuple[int, ...]) -> tuple[int, int]:
    """(line, column) of a cell: hexagon ``(q, r)`` sits at column ``2q + r`` of line ``r``."""
    if lattice == "hexagon":
        q, r = cell
        return (r, 2 * q + r)
    return (cell[0], cell[1])


def grid_text(grid: Grid, keep_parity: bool = False) -> str:
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
        lines.append("".join(grid.get((r, c), " ") for c in range(c0, max(cols) + 1)).rstrip())
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
    """Cubes: the layers side by side, the bottom one (layer 0) first."""
    nl = max(c[0] for c in label) + 1
    r0, r1 = min(c[1] for c in label), max(c[1] for c in label)
    c0, c1 = min(c[2] for c in label), max(c[2] for c in label)
    width = max(c1 - c0 + 1, len(f"layer {nl - 1}"))
    lines = ["   ".join(f"layer {l}".ljust(width) for l in range(nl)).rstrip()]
    for r in range(r0, r1 + 1):
        row = ["".join(label.get((l, r, c), " ") for c in range(c0, c1 + 1)).ljust(width) for l in range(nl)]
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
