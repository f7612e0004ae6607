"""Many pictures at once: every solution of a file on one SVG page (a grid of the solutions' own
pictures, each numbered), or one SVG file per solution in a folder."""
from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Iterable

#: the grid has at most this many columns
MAX_COLUMNS = 6
GAP = 16
LABEL = 18
_SIZE = re.compile(r'<svg[^>]*\bwidth="([\d.]+)"[^>]*\bheight="([\d.]+)"')


def size_of(svg: str) -> tuple[float, float]:
    """(width, height) of a picture from its root element."""
    m = _SIZE.search(svg)
    return (float(m.group(1)), float(m.group(2))) if m else (400.0, 400.0)


def page(svgs: list[str], first: int = 1) -> str:
    """One SVG page holding ``svgs`` in a grid, each under its number (from ``first``)."""
    if not svgs:
        return '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>\n'
    sizes = [size_of(s) for s in svgs]
    cell_w = max(w for w, _ in sizes) + GAP
    cell_h = max(h for _, h in sizes) + GAP + LABEL
    cols = max(1, min(MAX_COLUMNS, round(math.sqrt(len(svgs) * cell_h / cell_w)) or 1))
    rows = math.ceil(len(svgs) / cols)
    width, height = cols * cell_w + GAP, rows * cell_h + GAP
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.2f} {height:.2f}">', '<rect width="100%" height="100%" fill="white"/>']
    for k, svg in enumerate(svgs):
        x, y = GAP + (k % cols) * cell_w, GAP + (k // cols) * cell_h
        out.append(f'<text x="{x:.1f}" y="{y + 13:.1f}" font-family="sans-serif" font-size="13">'
                   f'{first + k}</text>')
        inner = svg.split("\n", 1)[0].replace("<svg ", f'<svg x="{x:.1f}" y="{y + LABEL:.1f}" ', 1)
        out.append(inner + "\n" + svg.split("\n", 1)[1].rstrip())
    out.append("</svg>")
    return "\n".join(out) + "\n"


def folder_files(svgs: Iterable[str], folder: str) -> dict[str, str]:
    """``{path: svg}`` of one file per solution in ``folder``: solution-0001.svg, ..."""
    return {str(Path(folder) / f"solution-{k:04d}.svg"): svg for k, svg in enumerate(svgs, 1)}
