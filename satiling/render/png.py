"""Pictures as PNG: any of satiling's SVG pictures turned into pixels, for posting or a page.

One path for every picture: :func:`to_png` hands the SVG text to resvg (the Rust renderer, in the
``resvg-py`` wheel: no system library; the choice against CairoSVG and PyMuPDF is measured in
docs/decisions/2026-11-28-share-and-png.md).  A PNG is as large as the SVG says (its ``width`` and
``height``, in pixels) times ``scale``.  Letters are drawn in DejaVu Sans (renamed Satiling
Sans) from the package's own ``fonts/`` (a Latin subset; see its LICENSE), so a picture looks the
same on every machine, one with no font installed included; the system's fonts stay loaded for
letters the subset lacks.

    >>> png = to_png('<svg xmlns="http://www.w3.org/2000/svg" width="30" height="20"/>')
    >>> png[:8] == PNG_SIGNATURE, png_size(png)
    (True, (30, 20))
"""
from __future__ import annotations

import re
import struct
from pathlib import Path

from ..errors import SatilingError

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: the largest scale, and the most pixels a picture may have (a mistyped scale would fill memory)
MAX_SCALE = 16.0
MAX_PIXELS = 100_000_000
#: the font every picture's sans-serif letters are drawn in
FONTS = sorted(str(p) for p in (Path(__file__).parent / "fonts").glob("*.ttf"))
SANS_SERIF = "Satiling Sans"


def to_png(svg_text: str, scale: float = 1.0) -> bytes:
    """The PNG of an SVG picture, ``scale`` times its size in pixels."""
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not 0 < scale <= MAX_SCALE:
        raise SatilingError(f"a PNG's scale is a number above 0 and at most {MAX_SCALE:g}, not {scale!r}")
    if not isinstance(svg_text, str) or not svg_text.lstrip().startswith(("<svg", "<?xml")):
        raise SatilingError("to_png takes the text of an SVG picture")
    size = re.search(r'<svg\b[^>]*?\swidth="([\d.]+)"[^>]*?\sheight="([\d.]+)"', svg_text)
    if size and float(size.group(1)) * float(size.group(2)) * scale * scale > MAX_PIXELS:
        raise SatilingError(f"a PNG of {float(size.group(1)) * scale:.0f}x{float(size.group(2)) * scale:.0f} "
                            f"pixels is too large (at most {MAX_PIXELS} pixels)")
    import resvg_py
    try:
        png = bytes(resvg_py.svg_to_bytes(svg_string=svg_text, zoom=float(scale), font_files=FONTS,
                                          sans_serif_family=SANS_SERIF))
    except Exception as e:                # resvg's own errors: a picture it cannot read
        raise SatilingError(f"cannot draw this SVG as PNG: {str(e).splitlines()[0][:200]}") from None
    png_size(png)                         # (a PNG, or resvg gave something else: say so)
    return png


def png_size(png: bytes) -> tuple[int, int]:
    """(width, height) of a PNG, from its header."""
    if png[:8] != PNG_SIGNATURE or png[12:16] != b"IHDR":
        raise SatilingError("not a PNG picture")
    width, height = struct.unpack(">II", png[16:24])
    return width, height
