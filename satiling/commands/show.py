"""``satiling show NAME``: the board and every piece, drawn before any search.

In the terminal as ``solve`` prints its pictures (in colour on a terminal), and with ``--svg FILE``
as one SVG: the board above the pieces, the picture a puzzle draws in Jupyter.
"""
from __future__ import annotations

import argparse
import sys

from ..exits import EXIT_FOUND
from ..fileio import write_file


def register(sub) -> None:
    s = sub.add_parser("show", help="draw the board and every piece, before any search",
                       description="Draw a puzzle's board (empty, or with its fixed pieces) and "
                                   "every piece (each in one orientation, with its name), in the "
                                   "terminal and, with --svg, as SVG.")
    s.add_argument("name", metavar="NAME", help="bundled puzzle name or instance file")
    s.add_argument("--svg", metavar="FILE", help="also draw the board and the pieces as SVG to FILE")
    s.set_defaults(run=cmd_show)


def cmd_show(args: argparse.Namespace) -> int:
    from .. import catalog
    from ..render.pieces import puzzle_svg, puzzle_text
    from .common import terminal_colour
    puzzle = catalog.load(args.name)
    print(puzzle_text(puzzle, colour=terminal_colour(sys.stdout)))
    if args.svg:
        write_file(args.svg, puzzle_svg(puzzle))
        print(f"satiling: wrote {args.svg}", file=sys.stderr)
    return EXIT_FOUND
