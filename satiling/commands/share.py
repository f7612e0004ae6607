"""``satiling share NAME``: the puzzle as one line of text that opens it on any machine.

The text (``satiling:`` and the instance, compressed: :mod:`satiling.share`) goes wherever a
puzzle's name does: ``satiling show 'satiling:...'``, ``solve``, ``count``, the library's
``satiling.load``.
"""
from __future__ import annotations

import argparse

from .common import name_argument

SHARE_HELP = """\
Print the puzzle as one line of text: 'satiling:' and its instance (region, pieces, pins; the
files it names read in), compressed, in letters, digits, '-' and '_' only. Any satiling opens
it wherever a puzzle's name goes, on a machine that never saw the file.

examples:
  satiling share mine.toml                     satiling:1eNq...
  satiling show 'satiling:1eNq...'             the board and its pieces
  satiling count "$(satiling share mine.toml)" --raw
"""


def register(sub) -> None:
    s = sub.add_parser("share", help="the puzzle as one line of text that opens it anywhere",
                       description=SHARE_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    name_argument(s)
    s.set_defaults(run=cmd_share)


def cmd_share(args: argparse.Namespace) -> int:
    from .. import catalog
    from .common import EXIT_FOUND
    print(catalog.share_text(args.name))
    return EXIT_FOUND
