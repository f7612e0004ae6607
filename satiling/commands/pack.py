"""``satiling pack``: the most pieces that fit on a polyform board, and the hole they leave.

A diagnostic for boards that resist every search (is the data tilable at all?).  The arguments
``solve`` makes before any search bound the answer first, each on stderr as it is made (pieces
that fit nowhere are named); better packings are reported on stderr as CP-SAT finds them, and the
run ends by itself when one reaches the bound.  The packing is printed like a solution (on the
square lattice '.' marks the hole), then one summary line.  SIGINT / SIGTERM stop the search and print
the best packing so far (exit 130 / 143).
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any

from ..limits import MAX_SECONDS, MAX_WORKERS, Deadline, clock, seconds_arg, workers_arg
from ..apps.packing import EXACT_SECONDS, check_exact_seconds
from .common import name_argument


def register(sub) -> None:
    s = sub.add_parser("pack", help="the most pieces that fit on a polyform board, and the hole left",
                       description="Maximise a packing (each cell and piece at most once) with "
                                   "CP-SAT and show the hole; a proved optimum below the full "
                                   "count shows the board cannot be tiled.")
    name_argument(s)
    s.add_argument("--objective", choices=("pieces", "area"), default="pieces",
                   help="maximise the pieces placed (default) or the cells covered")
    s.add_argument("--time-limit", type=seconds_arg, metavar="S",
                   help=f"stop after S seconds with the best found (building the model counts), at "
                        f"most {MAX_SECONDS}")
    s.add_argument("--threads", type=workers_arg, metavar="N",
                   help=f"CP-SAT search threads, 1 to {MAX_WORKERS} (default 1)")
    # the old spelling: --workers means processes in count and enumerate, threads here
    s.add_argument("--workers", type=workers_arg, metavar="N", help=argparse.SUPPRESS)
    s.add_argument("--exact-seconds", type=_share_arg, metavar="S",
                   help=f"the exact-cover search's share before CP-SAT (default {EXACT_SECONDS:g}, "
                        "or half the time limit if that is less; at most half the time limit, "
                        "CP-SAT keeps the rest; 0 skips it): a tiling it finds is the answer, and "
                        "a board it refutes holds one piece fewer")
    s.add_argument("--svg", metavar="FILE", help="also draw the packing (hole in white) to FILE")
    s.add_argument("--json", action="store_true", help="print the packing and its hole as JSON")
    s.add_argument("--hint", metavar="FILE", help="start from the placements in FILE (JSON, as "
                   "'solve --json' writes; a partial tiling will do)")
    s.set_defaults(run=cmd_pack)


def _share_arg(text: str) -> float:
    """An argparse type: seconds, or 0 for none."""
    return 0.0 if text.strip() in ("0", "0.0") else seconds_arg(text)


def _threads(args: argparse.Namespace) -> int:
    """``--threads``, or the old ``--workers`` with a note naming the new spelling."""
    if args.workers is not None:
        if args.threads is not None and args.threads != args.workers:
            from ..errors import SatilingError
            raise SatilingError(f"--workers {args.workers} and --threads {args.threads}: "
                                "--workers is the old spelling of --threads; give one")
        args.notes = [f"pack --workers {args.workers} is now spelt --threads {args.workers} "
                      "(--workers means processes in count and enumerate)"]
        return args.workers
    return args.threads or 1


def _hint(puzzle: Any, path: str) -> list[Any]:
    """The placements of ``--hint FILE``, each one the board takes, no two on one cell, no piece
    used more often than the puzzle has it: a hint that is none of these is refused, not ignored."""
    from ..errors import SatilingError
    from .common import read_solutions
    hint = next(iter(read_solutions(puzzle, path)), None)
    if not hint:
        raise SatilingError(f"{path}: no placements to start from")
    legal = set(puzzle.placements())
    for p in hint:
        if p not in legal:
            raise SatilingError(f"{path}: {json.dumps(p.to_json(), separators=(',', ':'))} is not a "
                                f"placement of {puzzle.name}")
    cells = Counter(c for p in hint for c in p.cells)
    twice = sorted(c for c, k in cells.items() if k > 1)
    if twice:
        raise SatilingError(f"{path}: two placements cover cell {list(twice[0])}")
    have = {piece.name: piece.count for piece in puzzle.pieces}
    used = Counter(p.piece for p in hint)
    over = sorted(name for name, k in used.items() if k > have.get(name, 0))
    if over:
        raise SatilingError(f"{path}: piece {over[0]} is used {used[over[0]]} times, the puzzle "
                            f"has {have.get(over[0], 0)}")
    return hint


def cmd_pack(args: argparse.Namespace) -> int:
    from .. import catalog
    from ..fileio import write_file
    from ..exits import EXIT_FOUND, EXIT_TIMEOUT, signal_exit
    from ..signals import in_thread
    from .common import terminal_colour
    from ..render.pictures import solution_svg, solution_text
    from ..apps.packing import Packer, hole_components
    from ..signals import within
    began = clock()
    deadline = Deadline.after(args.time_limit, began)
    threads = _threads(args)
    share = check_exact_seconds(args.exact_seconds, args.time_limit, "--exact-seconds",
                                "--time-limit")
    puzzle = catalog.load(args.name)
    hint = _hint(puzzle, args.hint) if args.hint else []
    # the time limit counts from here: the model (Eternity's is large) is built within it
    built, packer = within(args.time_limit, lambda: Packer(puzzle, args.objective))
    if not built:
        print(f"satiling: {puzzle.name}: no packing found in {clock() - began:.1f} s "
              "(the time limit ran out while the model was built)", file=sys.stderr)
        return EXIT_TIMEOUT
    left = deadline.left(floor=0.01)
    if share and left is not None:        # building the model took part of the limit: the
        share = min(share, left / 2)      # share keeps to half of what is left

    def report(value: int, seconds: float) -> None:
        print(f"satiling: {puzzle.name}: {value} {args.objective} at {seconds:.1f} s", file=sys.stderr)

    def bound(value: int, reason: str) -> None:
        word = args.objective if args.objective == "pieces" else "cells"
        print(f"satiling: {puzzle.name}: at most {value} {word}: {reason}", file=sys.stderr)

    packing, signum = in_thread(lambda: packer.run(left, threads, hint, on_improve=report,
                                                   exact_seconds=share, on_bound=bound),
                                packer.stop)
    interrupted = signal_exit(signum) if signum is not None else None
    if packing.status == "UNKNOWN":
        print(f"satiling: {puzzle.name}: no packing found in {clock() - began:.1f} s",
              file=sys.stderr)
        return interrupted or EXIT_TIMEOUT
    parts = [len(p) for p in hole_components(packer.puzzle, packing.hole)]
    if args.json:
        print(json.dumps({"puzzle": puzzle.name, "status": packing.status, "objective": args.objective,
                          "pieces": packing.pieces, "cells": packing.cells, "bound": packing.bound,
                          "reasons": packing.reasons,
                          "placements": [p.to_json() for p in sorted(packing.placements, key=lambda p: p.sort_key())],
                          "hole": [list(c) for c in packing.hole]}, separators=(",", ":")))
    else:
        print(solution_text(puzzle, packing.placements, colour=terminal_colour(sys.stdout)))
        print(f"{puzzle.name}: {packing.summary()}; hole parts {parts}")
    if args.svg:
        write_file(args.svg, solution_svg(puzzle, packing.placements))
        print(f"satiling: wrote {args.svg}", file=sys.stderr)
    return interrupted or EXIT_FOUND
