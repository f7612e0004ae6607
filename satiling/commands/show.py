"""``satiling show NAME``: the board and every piece, drawn before any search.

In the terminal as ``solve`` prints its pictures (in colour on a terminal), and with ``--svg FILE``
as one SVG (``--png FILE``: as PNG): the board above the pieces, the picture a puzzle draws in
Jupyter.  NAME may be a share text (``satiling:...``).
"""
from __future__ import annotations

import argparse
import sys

from ..exits import EXIT_FOUND
from .common import name_argument


def register(sub) -> None:
    s = sub.add_parser("show", help="draw the board and every piece, before any search",
                       description="Draw a puzzle's board (empty, or with its fixed or pinned "
                                   "pieces) and every piece (each in one orientation, with its "
                                   "name), in the terminal and, with --svg or --png, as a picture.")
    name_argument(s)
    s.add_argument("--svg", metavar="FILE", help="also draw the board and the pieces as SVG to FILE")
    s.add_argument("--png", metavar="FILE", help="also draw them as PNG to FILE (to post or print)")
    s.set_defaults(run=cmd_show)


def cmd_show(args: argparse.Namespace) -> int:
    from .. import catalog
    from ..render.pieces import puzzle_svg, puzzle_text
    from .common import terminal_colour, text_out, write_pictures
    puzzle = catalog.load(args.name)
    out = text_out(args.svg, args.png)
    print(puzzle_text(puzzle, colour=terminal_colour(out)), file=out)
    if args.svg or args.png:
        write_pictures(puzzle_svg(puzzle), args.svg, args.png)
    return EXIT_FOUND
