"""SVG pictures built from cell polygons: any lattice, one colour per piece, black outlines."""
from __future__ import annotations

import colorsys
from collections import Counter
from typing import Any, Iterable
from xml.sax.saxutils import escape

Point = tuple[float, float]


def palette(n: int) -> list[str]:
    """``n`` well-separated colours (golden-angle hues, alternating lightness)."""
    out = []
    for i in range(n):
        h = (i * 0.618033988749895) % 1.0
        r, g, b = colorsys.hls_to_rgb(h, 0.62 if i % 2 else 0.5, 0.65)
        out.append(f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}")
    return out


def svg_document(shapes: list[tuple[list[list[Point]], str, str]], empty: Iterable[list[Point]] = (),
                 scale: float = 40.0, margin: float = 0.25) -> str:
    """An SVG of filled groups of polygons, each group (a piece) outlined along its boundary.

    ``shapes`` is a list of (polygons of one piece, fill colour, title); ``empty`` are uncovered
    cells, drawn white.
    """
    empty = list(empty)
    allpts = [p for polys, _, _ in shapes for poly in polys for p in poly] + [p for poly in empty for p in poly]
    if not allpts:
        allpts = [(0.0, 0.0)]
    x0, y0 = min(p[0] for p in allpts) - margin, min(p[1] for p in allpts) - margin
    x1, y1 = max(p[0] for p in allpts) + margin, max(p[1] for p in allpts) + margin
    w, h = (x1 - x0) * scale, (y1 - y0) * scale

    def pts(poly: list[Point]) -> str:
        return " ".join(f"{(x - x0) * scale:.2f},{(y - y0) * scale:.2f}" for x, y in poly)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
           f'viewBox="0 0 {w:.2f} {h:.2f}">', '<rect width="100%" height="100%" fill="white"/>']
    for poly in empty:
        out.append(f'<polygon points="{pts(poly)}" fill="#ffffff" stroke="#bbbbbb" stroke-width="1"/>')
    for polys, colour, title in shapes:
        out.append(f'<g><title>{escape(title)}</title>')
        for poly in polys:
            out.append(f'<polygon points="{pts(poly)}" fill="{colour}" stroke="{colour}" stroke-width="0.5"/>')
        for (ax, ay), (bx, by) in boundary(polys):
            out.append(f'<line x1="{(ax - x0) * scale:.2f}" y1="{(ay - y0) * scale:.2f}" '
                       f'x2="{(bx - x0) * scale:.2f}" y2="{(by - y0) * scale:.2f}" stroke="black" '
                       f'stroke-width="2" stroke-linecap="round"/>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def boundary(polys: list[list[Point]]) -> list[tuple[Point, Point]]:
    """Edges that belong to exactly one polygon of the group: the outline of the piece."""
    def key(p: Point) -> tuple[float, float]:
        return (round(p[0], 4), round(p[1], 4))
    edges: Counter = Counter()
    first: dict = {}
    for poly in polys:
        for a, b in zip(poly, poly[1:] + poly[:1]):
            k = frozenset((key(a), key(b)))
            edges[k] += 1
            first.setdefault(k, (a, b))
    return [first[k] for k, n in edges.items() if n == 1]


def polyform_svg(puzzle: Any, solution: list[Any]) -> str:
    """A polyform solution: each placed piece in its own colour, uncovered cells white."""
    lat = puzzle.lattice
    colours = palette(max(1, len(solution)))
    shapes, covered = [], set()
    for i, pl in enumerate(sorted(solution, key=lambda p: p.sort_key())):
        cells = [tuple(c) for c in pl.cells]
        covered.update(cells)
        shapes.append(([lat.polygon(c) for c in cells], colours[i], pl.piece))
    empty = [lat.polygon(c) for c in sorted(puzzle.region - covered)]
    return svg_document(shapes, empty)
