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
                 scale: float = 40.0, margin: float = 0.25,
                 labels: Iterable[tuple[Point, str]] = (), faded: Iterable[tuple[list[Point], str]] = (),
                 captions: Iterable[tuple[Point, str]] = ()) -> str:
    """An SVG of filled groups of polygons, each group (a piece) outlined along its boundary.

    ``shapes`` is a list of (polygons of one piece, fill colour, title); ``empty`` are uncovered
    cells, drawn white; ``labels`` are piece names written at a point; ``faded`` are (polygon,
    colour) drawn pale (the far side of a seam); ``captions`` are small notes (a layer's number).
    """
    empty, labels, faded, captions = list(empty), list(labels), list(faded), list(captions)
    allpts = [p for polys, _, _ in shapes for poly in polys for p in poly] + [p for poly in empty for p in poly]
    allpts += [p for poly, _ in faded for p in poly] + [(x, y - 0.4) for (x, y), _ in captions]
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
    for poly, colour in faded:
        out.append(f'<polygon points="{pts(poly)}" fill="{colour}" fill-opacity="0.35" stroke="#999999" '
                   f'stroke-width="0.5" stroke-dasharray="2,2"/>')
    for polys, colour, title in shapes:
        out.append(f'<g><title>{escape(title)}</title>')
        for poly in polys:
            out.append(f'<polygon points="{pts(poly)}" fill="{colour}" stroke="{colour}" stroke-width="0.5"/>')
        for (ax, ay), (bx, by) in boundary(polys):
            out.append(f'<line x1="{(ax - x0) * scale:.2f}" y1="{(ay - y0) * scale:.2f}" '
                       f'x2="{(bx - x0) * scale:.2f}" y2="{(by - y0) * scale:.2f}" stroke="black" '
                       f'stroke-width="2" stroke-linecap="round"/>')
        out.append("</g>")
    size = scale * 0.45
    for (x, y), text in labels:
        out.append(f'<text x="{(x - x0) * scale:.2f}" y="{(y - y0) * scale:.2f}" font-family="sans-serif" '
                   f'font-size="{size:.1f}" font-weight="bold" text-anchor="middle" '
                   f'dominant-baseline="central">{escape(text)}</text>')
    for (x, y), text in captions:
        out.append(f'<text x="{(x - x0) * scale:.2f}" y="{(y - y0) * scale:.2f}" font-family="sans-serif" '
                   f'font-size="{size * 0.8:.1f}" fill="#444444">{escape(text)}</text>')
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
    """A polyform solution: each placed piece in its own colour with its name, uncovered cells
    white.  Cubes are drawn layer by layer side by side (an exploded view, bottom layer first); on a
    wrapped board the strip beyond each seam is repeated pale."""
    draw = _drawer(puzzle)
    colours = palette(max(1, len(solution)))
    shapes, labels, covered, colour_of = [], [], set(), {}
    for i, pl in enumerate(sorted(solution, key=lambda p: p.sort_key())):
        cells = [tuple(c) for c in pl.cells]
        covered.update(cells)
        polys = [draw(c) for c in cells]
        shapes.append((polys, colours[i], pl.piece))
        layers = sorted({c[0] for c in cells}) if puzzle.lattice.name == "cubic" else [None]
        for layer in layers:                # a solid piece is named in every layer it reaches
            part = [poly for c, poly in zip(cells, polys) if layer is None or c[0] == layer]
            labels.append((_label_point(part), pl.piece))
        colour_of.update((c, colours[i]) for c in cells)
    empty = [draw(c) for c in sorted(puzzle.region - covered)]
    return svg_document(shapes, empty, labels=labels, faded=_beyond_seams(puzzle, draw, colour_of),
                        captions=_layer_captions(puzzle, draw))


def _drawer(puzzle: Any):
    """cell -> polygon; cubes' layers are placed side by side, one column apart."""
    lat = puzzle.lattice
    if lat.name != "cubic":
        return lat.polygon
    c0 = min(c[2] for c in puzzle.region)
    step = max(c[2] for c in puzzle.region) - c0 + 2

    def draw(cell):
        return [(x + cell[0] * step - c0, y) for x, y in lat.polygon(cell)]
    return draw


def _label_point(polys: list[list[Point]]) -> Point:
    """The centre of the piece's cell nearest the piece's centre (inside even a bent piece)."""
    centres = [(sum(x for x, _ in p) / len(p), sum(y for _, y in p) / len(p)) for p in polys]
    mx, my = sum(x for x, _ in centres) / len(centres), sum(y for _, y in centres) / len(centres)
    return min(centres, key=lambda c: (c[0] - mx) ** 2 + (c[1] - my) ** 2)


def _beyond_seams(puzzle: Any, draw, colour_of: dict) -> list[tuple[list[Point], str]]:
    """A wrapped board's cells again, one or two cells past each seam, pale."""
    wrap = puzzle.wrap
    if wrap is None:
        return []
    lat = puzzle.lattice
    region_pts = [p for c in puzzle.region for p in draw(c)]
    xmax, ymax = max(x for x, _ in region_pts), max(y for _, y in region_pts)
    out = []
    for axis, period in zip(wrap.axes, wrap.periods):
        for cell in sorted(puzzle.region):
            poly = draw(lat.shift(cell, period))
            cx, cy = sum(x for x, _ in poly) / len(poly), sum(y for _, y in poly) / len(poly)
            if (axis == "cols" and cx < xmax + 1.5) or (axis == "rows" and cy < ymax + 1.5):
                out.append((poly, colour_of.get(cell, "#ffffff")))
    return out


def _layer_captions(puzzle: Any, draw) -> list[tuple[Point, str]]:
    if puzzle.lattice.name != "cubic":
        return []
    captions = []
    for layer in sorted({c[0] for c in puzzle.region}):
        cells = [c for c in puzzle.region if c[0] == layer]
        pts = [p for c in cells for p in draw(c)]
        captions.append(((min(x for x, _ in pts), min(y for _, y in pts) - 0.2), f"layer {layer}"))
    return captions
