"""SVG pictures built from cell polygons: any lattice, one colour per piece, black outlines."""
from __future__ import annotations

import colorsys
from collections import Counter
from typing import Any, Iterable
from html import escape

Point = tuple[float, float]
#: a label's font size, in cell sides, where the piece has room for it
LABEL_SIZE = 0.45
#: the colour a picture marks what it points at in (a hint among the pins), around its outline
MARK = "#ff8c00"

#: the advance width in ems of each printable ASCII character: the widest of DejaVu Sans (the
#: usual "sans-serif" on Linux) and Liberation Sans (Arial's and Helvetica's metrics), regular and
#: bold, read from their fonts' tables and rounded up.  A width summed from it is an upper bound
#: there, so a picture sized by it never clips its text (unmeasured, the caption "ue1: score
#: 60/60 (36 of 36 squares filled)" ran past both sides of a 6x6 board's picture).
_EM_WIDTHS = {
    0.31: "'", 0.35: " ijl", 0.37: "/\\|", 0.38: ",.I", 0.4: ":;", 0.42: "-", 0.44: "f",
    0.46: "!()[]", 0.48: "t", 0.5: "`r", 0.53: '"*', 0.56: "J_", 0.59: "z", 0.6: "cs", 0.62: "?",
    0.64: "L", 0.65: "x", 0.66: "vy", 0.67: "k", 0.68: "ae", 0.69: "EFTo", 0.7: "$0123456789",
    0.72: "bdghnpqu{}", 0.73: "SYZ", 0.74: "CP", 0.77: "B", 0.78: "AKRVX", 0.82: "U", 0.83: "G",
    0.84: "#+<=>DHN^~", 0.86: "OQ", 0.88: "&", 0.93: "w", 1.0: "M", 1.01: "%", 1.02: "@",
    1.05: "m", 1.11: "W",
}
_EM = {ch: width for width, chars in _EM_WIDTHS.items() for ch in chars}
#: any other character: above the accented letters of Latin-1 and wide (CJK) characters alike
_EM_OTHER = 1.25


def escape_text(text: str) -> str:
    """Text for an SVG element, with &, < and > escaped (xml.sax's escape would load urllib)."""
    return escape(text, quote=False)


def text_width(text: str, size: float) -> float:
    """An upper bound on the width of ``text`` set in a sans-serif font of ``size`` (in the same
    unit as ``size``): see :data:`_EM_WIDTHS`."""
    return size * sum(_EM.get(ch, _EM_OTHER) for ch in text)


def wrap_text(text: str, size: float, width: float) -> list[str]:
    """``text`` broken at spaces into lines that each fit ``width`` (by :func:`text_width`); a word
    wider than ``width`` is a line of its own, and the picture must widen for it."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and text_width(f"{lines[-1]} {word}", size) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines or [""]


def palette(n: int) -> list[str]:
    """``n`` well-separated colours (golden-angle hues, alternating lightness)."""
    out = []
    for i in range(n):
        h = (i * 0.618033988749895) % 1.0
        r, g, b = colorsys.hls_to_rgb(h, 0.62 if i % 2 else 0.5, 0.65)
        out.append(f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}")
    return out


def placement_colours(puzzle: Any, placed: list[Any]) -> list[str]:
    """The colour of each placement of ``placed`` (sorted as the pictures sort them): a full
    solution's i-th takes the palette's i-th; fewer (pinned pieces, forced ones, a hint, a
    packing) take the colours their pieces have in a full solution and in the drawing of the
    pieces (by name, a piece's copies in turn), so a piece keeps its colour from picture to
    picture."""
    total = sum(p.count for p in puzzle.pieces)
    if len(placed) >= total:
        return palette(max(1, len(placed)))
    colours = palette(max(1, total))
    first, at = {}, 0
    for piece in sorted(puzzle.pieces, key=lambda p: p.name):
        first[piece.name], at = (at, piece.count), at + piece.count
    used: dict[str, int] = {}
    out = []
    for pl in placed:
        start, count = first.get(pl.piece, (0, 1))
        out.append(colours[start + min(used.get(pl.piece, 0), count - 1)])
        used[pl.piece] = used.get(pl.piece, 0) + 1
    return out


def svg_document(shapes: list[tuple[list[list[Point]], str, str]], empty: Iterable[list[Point]] = (),
                 scale: float = 40.0, margin: float = 0.25,
                 labels: Iterable[tuple] = (), faded: Iterable[tuple[list[Point], str]] = (),
                 captions: Iterable[tuple[Point, str]] = (),
                 seams: Iterable[tuple[Point, Point]] = (), open_edges: Iterable[tuple[Point, Point]] = (),
                 solid: Iterable[tuple] = (), marked: Iterable[int] = ()) -> str:
    """An SVG of filled groups of polygons, each group (a piece) outlined along its boundary.

    ``shapes`` is a list of (polygons of one piece, fill colour, title); ``empty`` are uncovered
    cells, drawn white; ``labels`` are piece names written at a point (point, text, and optionally
    a font size in units); ``faded`` are (polygon, colour) drawn pale (the far side of a seam);
    ``captions`` are small notes (a layer's number); ``seams`` are the glued sides of a wrapped
    board, drawn dashed; ``open_edges`` are outline edges where a piece goes on across a seam (no
    solid outline there: the piece is one, not two); ``solid`` are (polygon, fill) drawn in order
    with thin outlines (the faces of a 3-D view, back to front); ``marked`` are the indices of the
    shapes outlined in :data:`MARK` as well (on top of their neighbours: what the picture points at).
    """
    empty, labels, faded, captions = list(empty), list(labels), list(faded), list(captions)
    solid = list(solid)
    seams = list(seams)
    no_outline = {_edge_key(a, b) for a, b in open_edges}
    allpts = [p for polys, _, _ in shapes for poly in polys for p in poly] + [p for poly in empty for p in poly]
    allpts += [p for poly, _ in faded for p in poly] + [p for face in solid for p in face[0]]
    allpts += _text_corners(labels, captions)         # the text drawn inside the picture, whole
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
    def outline(polys: list[list[Point]], stroke: str, width: float) -> list[str]:
        return [f'<line x1="{(ax - x0) * scale:.2f}" y1="{(ay - y0) * scale:.2f}" '
                f'x2="{(bx - x0) * scale:.2f}" y2="{(by - y0) * scale:.2f}" stroke="{stroke}" '
                f'stroke-width="{width:g}" stroke-linecap="round"/>'
                for (ax, ay), (bx, by) in boundary(polys) if _edge_key((ax, ay), (bx, by)) not in no_outline]

    for polys, colour, title in shapes:
        out.append(f'<g><title>{escape_text(title)}</title>')
        for poly in polys:
            out.append(f'<polygon points="{pts(poly)}" fill="{colour}" stroke="{colour}" stroke-width="0.5"/>')
        out.extend(outline(polys, "black", 2))
        out.append("</g>")
    for i in sorted(set(marked)):          # after every piece: a neighbour drawn later covers none of it
        polys, _, title = shapes[i]
        out.append(f'<g class="marked"><title>{escape_text(title)}</title>')
        out.extend(outline(polys, MARK, max(6.0, scale * 0.25)) + outline(polys, "black", 2))
        out.append("</g>")
    group = None                           # the title of the faces drawn in the open group
    for face in solid:
        poly, colour, title = (*face, None)[:3]
        if title != group:
            out.extend(["</g>"] if group is not None else [])
            out.extend([f"<g><title>{escape_text(title)}</title>"] if title is not None else [])
            group = title
        out.append(f'<polygon points="{pts(poly)}" fill="{colour}" stroke="#222222" stroke-width="0.8" '
                   f'stroke-linejoin="round" class="iso"/>')
    out.extend(["</g>"] if group is not None else [])
    for (ax, ay), (bx, by) in seams:
        out.append(f'<line x1="{(ax - x0) * scale:.2f}" y1="{(ay - y0) * scale:.2f}" '
                   f'x2="{(bx - x0) * scale:.2f}" y2="{(by - y0) * scale:.2f}" stroke="#333333" '
                   f'stroke-width="1.5" stroke-dasharray="5,4" class="seam"/>')
    size = scale * LABEL_SIZE
    for label in labels:
        (x, y), text = label[0], label[1]
        here = scale * label[2] if len(label) > 2 else size
        out.append(f'<text class="label" x="{(x - x0) * scale:.2f}" y="{(y - y0) * scale:.2f}" font-family="sans-serif" '
                   f'font-size="{here:.1f}" font-weight="bold" text-anchor="middle" '
                   f'dominant-baseline="central">{escape_text(text)}</text>')
    for (x, y), text in captions:
        out.append(f'<text class="part-caption" x="{(x - x0) * scale:.2f}" y="{(y - y0) * scale:.2f}" '
                   f'font-family="sans-serif" font-size="{size * 0.8:.1f}" fill="#444444">{escape_text(text)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _text_corners(labels: list[tuple], captions: list[tuple[Point, str]]) -> list[Point]:
    """Two corners of the box around each label (centred on its point) and each caption (from
    its point rightwards, the point on its baseline), as :func:`svg_document` sets them."""
    out = []
    for label in labels:
        (x, y), text = label[0], label[1]
        size = label[2] if len(label) > 2 else LABEL_SIZE
        half = text_width(text, size) / 2
        out += [(x - half, y - 0.6 * size), (x + half, y + 0.6 * size)]
    size = LABEL_SIZE * 0.8
    for (x, y), text in captions:
        out += [(x, y - size), (x + text_width(text, size), y + 0.3 * size)]
    return out


def _edge_key(a: Point, b: Point) -> frozenset:
    return frozenset(((round(a[0], 4), round(a[1], 4)), (round(b[0], 4), round(b[1], 4))))


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


def polyform_svg(puzzle: Any, solution: list[Any], marked: Iterable[Any] = ()) -> str:
    """A polyform solution: each placed piece in its own colour with its name, uncovered cells
    white.  Cubes are drawn layer by layer side by side (an exploded view, bottom layer first); on a
    wrapped board the strip beyond each seam is repeated pale, the seam is dashed, and a piece
    that crosses it has no outline there and its name on each side.  The placements ``marked``
    (a hint among the pins) are outlined in :data:`MARK` too."""
    marked = set(marked)
    draw = _drawer(puzzle)
    placed = sorted(solution, key=lambda p: p.sort_key())
    colours = placement_colours(puzzle, placed)
    shapes, labels, covered, colour_of, owner = [], [], set(), {}, {}
    for i, pl in enumerate(placed):
        cells = [tuple(c) for c in pl.cells]
        covered.update(cells)
        polys = [draw(c) for c in cells]
        shapes.append((polys, colours[i], pl.piece))
        for part in _drawn_parts(puzzle, cells):        # a layer of a solid, a side of a seam
            labels.append(_label(puzzle, [draw(c) for c in part], pl.piece))
        colour_of.update((c, colours[i]) for c in cells)
        owner.update((c, i) for c in cells)
    empty = [draw(c) for c in sorted(puzzle.region - covered)]
    seams, crossed = _seams(puzzle, draw, owner)
    solid, view = _isometric(puzzle, colour_of, draw)
    return svg_document(shapes, empty, labels=labels, faded=_beyond_seams(puzzle, draw, colour_of),
                        captions=_layer_captions(puzzle, draw) + view, seams=seams,
                        open_edges=crossed, solid=solid,
                        marked=[i for i, pl in enumerate(placed) if pl in marked])


def _isometric(puzzle: Any, colour_of: dict, draw) -> tuple[list[tuple[list[Point], str]], list]:
    """A solid's picture beside its layers: the placed cubes seen from above, front and right
    (:func:`iso_faces`); and its caption."""
    if puzzle.lattice.name != "cubic" or not colour_of:
        return [], []
    layer_pts = [p for c in puzzle.region for p in draw(c)]
    left, top = max(x for x, _ in layer_pts) + 2.0, min(y for _, y in layer_pts)
    faces = iso_faces(colour_of)
    pts = [p for poly, _ in faces for p in poly]
    dx, dy = left - min(x for x, _ in pts), top - min(y for _, y in pts)
    faces = [([(x + dx, y + dy) for x, y in poly], colour) for poly, colour in faces]
    return faces, [((left, top - 0.2), "3-D view")]


def iso_faces(colour_of: dict) -> list[tuple[list[Point], str]]:
    """Cubes ``(layer, row, col)`` -> colour seen from above, front and right (isometric): each
    visible face in its cube's colour (the top lighter, the right side darker), back to front, in
    cube sides."""
    filled = set(colour_of)
    k = 3 ** 0.5 / 2

    def at(x: float, y: float, z: float) -> Point:
        return ((x - y) * k, (x + y) / 2 - z)
    faces = []
    for l, r, c in sorted(filled, key=lambda t: (t[0] + t[1] + t[2], t[0], t[1], t[2])):
        colour = colour_of[(l, r, c)]
        if (l + 1, r, c) not in filled:
            faces.append(([at(c, r, l + 1), at(c + 1, r, l + 1), at(c + 1, r + 1, l + 1), at(c, r + 1, l + 1)],
                          _shade(colour, 0.35)))
        if (l, r + 1, c) not in filled:
            faces.append(([at(c, r + 1, l), at(c + 1, r + 1, l), at(c + 1, r + 1, l + 1), at(c, r + 1, l + 1)],
                          colour))
        if (l, r, c + 1) not in filled:
            faces.append(([at(c + 1, r, l), at(c + 1, r + 1, l), at(c + 1, r + 1, l + 1), at(c + 1, r, l + 1)],
                          _shade(colour, -0.25)))
    return faces


def _shade(colour: str, amount: float) -> str:
    """``colour`` towards white (``amount`` > 0) or black (< 0)."""
    rgb = [int(colour[k:k + 2], 16) for k in (1, 3, 5)]
    target = 255 if amount > 0 else 0
    mixed = [round(v + (target - v) * abs(amount)) for v in rgb]
    return "#" + "".join(f"{v:02x}" for v in mixed)


def _drawn_parts(puzzle: Any, cells: list[Any]) -> list[list[Any]]:
    """The pieces of a piece as drawn: each layer a solid reaches, each side of a seam it crosses
    (cells joined by the plain lattice's neighbours, no wrapping)."""
    if puzzle.lattice.name == "cubic":
        return [[c for c in cells if c[0] == layer] for layer in sorted({c[0] for c in cells})]
    if puzzle.wrap is None:
        return [cells]
    left, parts = set(cells), []
    while left:
        stack = [min(left)]
        left.remove(stack[0])
        part = []
        while stack:
            c = stack.pop()
            part.append(c)
            for n in puzzle.lattice.neighbors(c):
                if tuple(n) in left:
                    left.remove(tuple(n))
                    stack.append(tuple(n))
        parts.append(sorted(part))
    return sorted(parts)


def _label(puzzle: Any, polys: list[list[Point]], text: str) -> tuple[Point, str, float]:
    """A label inside the piece, its size kept within the room there (a name as wide as about
    0.6 of its size per character, and never below a third of the usual size)."""
    point = _label_point(polys)
    room = _clearance(point, boundary(polys))
    size = min(LABEL_SIZE, max(LABEL_SIZE / 3, 2 * room / max(1.2, 0.6 * len(text) + 0.4)))
    return point, text, size


def _seams(puzzle: Any, draw, owner: dict) -> tuple[list[tuple[Point, Point]], list[tuple[Point, Point]]]:
    """The edges along the glued sides of a wrapped board, and those of them a piece crosses
    (the cell across the seam is the same piece's)."""
    wrap = puzzle.wrap
    if wrap is None or puzzle.lattice.name == "cubic":
        return [], []
    seams, crossed = [], []
    for cell in sorted(puzzle.region):
        for n in puzzle.lattice.neighbors(cell):
            n = tuple(n)
            across = wrap.reduce(n) if n not in puzzle.region else None
            if across is None:
                continue
            edge = _shared_edge(draw(cell), draw(n))
            if edge is None:
                continue
            seams.append(edge)
            if cell in owner and owner.get(across) == owner[cell]:
                crossed.append(edge)
    return seams, crossed


def _shared_edge(a: list[Point], b: list[Point]) -> tuple[Point, Point] | None:
    """The side two neighbouring cells' polygons share."""
    keys = {(round(x, 4), round(y, 4)) for x, y in b}
    common = [p for p in a if (round(p[0], 4), round(p[1], 4)) in keys]
    return (common[0], common[1]) if len(common) == 2 else None


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
    """A point well inside the piece: of the cells' centres, the midpoints of the edges two of its
    cells share and the corners its cells surround, the one farthest from the piece's outline (an
    approximate pole of inaccessibility).  The centre of a single cell sat on the outline of
    O'Beirne's hexiamonds and Serenity's drafters, whose cells are smaller than a label."""
    outline = boundary(polys)
    return max(_inner_points(polys), key=lambda p: (round(_clearance(p, outline), 6), -p[1], -p[0]))


def _inner_points(polys: list[list[Point]]) -> list[Point]:
    """Candidate label points, all inside the union of ``polys``."""
    def key(p: Point) -> tuple[float, float]:
        return (round(p[0], 4), round(p[1], 4))
    points = [(sum(x for x, _ in p) / len(p), sum(y for _, y in p) / len(p)) for p in polys]
    edges: Counter = Counter()
    corners: Counter = Counter()
    at: dict = {}
    for poly in polys:
        for a, b in zip(poly, poly[1:] + poly[:1]):
            edges[frozenset((key(a), key(b)))] += 1
            at.setdefault(frozenset((key(a), key(b))), ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
        for a in poly:
            corners[key(a)] += 1
            at.setdefault(key(a), a)
    points += [at[e] for e, n in edges.items() if n == 2]        # shared by two cells: inside
    on_outline = {key(p) for a, b in boundary(polys) for p in (a, b)}
    points += [at[c] for c, n in corners.items() if n > 2 and c not in on_outline]
    return points


def _clearance(p: Point, outline: list[tuple[Point, Point]]) -> float:
    """The distance from ``p`` to the nearest outline segment."""
    return min((_segment_distance(p, a, b) for a, b in outline), default=0.0)


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length))
    return ((px - ax - t * dx) ** 2 + (py - ay - t * dy) ** 2) ** 0.5


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
    """Each layer of a solid named over it, counted from 1 at the bottom (as people count)."""
    if puzzle.lattice.name != "cubic":
        return []
    captions = []
    for layer in sorted({c[0] for c in puzzle.region}):
        cells = [c for c in puzzle.region if c[0] == layer]
        pts = [p for c in cells for p in draw(c)]
        captions.append(((min(x for x, _ in pts), min(y for _, y in pts) - 0.2), f"layer {layer + 1}"))
    return captions
