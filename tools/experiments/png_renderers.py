"""SVG to PNG three ways, on satiling's own pictures: resvg (``resvg-py``, what
``satiling.render.png`` uses), CairoSVG (needs the system's cairo library) and PyMuPDF; a renderer
not installed is left out.  Prints, per picture and renderer, the milliseconds per picture (the
mean of five after one warm-up), the PNG's size and pixels; then each one's import time.  The
PNGs go to ``--out`` to be looked at side by side.  docs/decisions/2026-11-28-share-and-png.md
reads it.

    pip install cairosvg pymupdf      # the other two, to compare
    python tools/experiments/png_renderers.py --out /some/folder
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

from satiling import catalog
from satiling.render.pictures import solution_svg
from satiling.render.pieces import puzzle_svg
from satiling.render.png import png_size

#: (label, puzzle): each solved and drawn (the 6x10 also as 'show' draws it)
PICTURES = ["pentomino-6x10", "soma-cube", "clue1", "serenity", "tetromino-cylinder-4x5",
            "iqlink-wizard", "hexiamond-6x6"]


def renderers() -> dict[str, Callable[[str], bytes]]:
    out: dict[str, Callable[[str], bytes]] = {}
    try:
        import resvg_py
        out["resvg"] = lambda svg: bytes(resvg_py.svg_to_bytes(svg_string=svg))
    except ImportError:
        pass
    try:
        import cairosvg
        out["cairosvg"] = lambda svg: cairosvg.svg2png(bytestring=svg.encode())
    except (ImportError, OSError):       # OSError: no system cairo
        pass
    try:
        import pymupdf

        def mupdf(svg: str) -> bytes:
            return pymupdf.open(stream=svg.encode(), filetype="svg")[0].get_pixmap().tobytes("png")
        out["pymupdf"] = mupdf
    except ImportError:
        pass
    return out


def pictures() -> dict[str, str]:
    import satiling
    out = {"pentomino-6x10 show": puzzle_svg(catalog.load("pentomino-6x10"))}
    for name in PICTURES:
        puzzle = satiling.load(name)
        out[name] = solution_svg(puzzle, list(puzzle.solve()))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, help="write each PNG here")
    args = ap.parse_args()
    found = renderers()
    print("| picture | " + " | ".join(found) + " |")
    print("|---|" + "---|" * len(found))
    for label, svg in pictures().items():
        row = []
        for name, render in found.items():
            render(svg)
            start = time.perf_counter()
            for _ in range(5):
                png = render(svg)
            ms = (time.perf_counter() - start) / 5 * 1000
            w, h = png_size(png)
            row.append(f"{ms:.0f} ms, {len(png) // 1024} KB, {w}x{h}")
            if args.out:
                args.out.mkdir(parents=True, exist_ok=True)
                (args.out / f"{label.replace(' ', '-')}-{name}.png").write_bytes(png)
        print(f"| {label} | " + " | ".join(row) + " |", flush=True)
    for name, module in (("resvg", "resvg_py"), ("cairosvg", "cairosvg"), ("pymupdf", "pymupdf")):
        if name in found:
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", f"import {module}"], check=True)
            print(f"import {module}: {time.perf_counter() - start:.2f} s (a fresh interpreter)")


if __name__ == "__main__":
    main()
