"""``satiling pack``: the most pieces that fit on a polyform board, and the hole they leave.

A diagnostic for boards that resist every search (is the data tilable at all?).  The packing is
printed like a solution (on the square lattice '.' marks the hole), then one summary line; better
packings are reported on stderr as CP-SAT finds them.  SIGINT / SIGTERM stop the search and print
the best packing so far (exit 130 / 143).
"""
from __future__ import annotations

import argparse
import json
import sys
import threading

from ..limits import MAX_SECONDS, MAX_WORKERS, seconds_arg, workers_arg


def register(sub) -> None:
    s = sub.add_parser("pack", help="the most pieces that fit on a polyform board, and the hole left",
                       description="Maximise a packing (each cell and piece at most once) with "
                                   "CP-SAT and show the hole; a proved optimum below the full "
                                   "count shows the board cannot be tiled.")
    s.add_argument("name", metavar="NAME", help="bundled puzzle name or instance file")
    s.add_argument("--objective", choices=("pieces", "area"), default="pieces",
                   help="maximise the pieces placed (default) or the cells covered")
    s.add_argument("--time-limit", type=seconds_arg, metavar="S",
                   help=f"stop after S seconds with the best found, at most {MAX_SECONDS}")
    s.add_argument("--workers", type=workers_arg, default=1, metavar="N",
                   help=f"CP-SAT search workers, 1 to {MAX_WORKERS} (default 1)")
    s.add_argument("--svg", metavar="FILE", help="also draw the packing (hole in white) to FILE")
    s.add_argument("--json", action="store_true", help="print the packing and its hole as JSON")
    s.add_argument("--hint", metavar="FILE", help="start from the placements in FILE (JSON, as "
                   "'solve --json' writes; a partial tiling will do)")
    s.set_defaults(run=cmd_pack)


def cmd_pack(args: argparse.Namespace) -> int:
    from .. import catalog
    from ..fileio import write_file
    from ..exits import EXIT_FOUND, EXIT_TIMEOUT, signal_exit
    from ..signals import on_signals
    from .common import read_solutions
    from ..render.pictures import solution_svg, solution_text
    from ..search.packing import Packer, hole_components
    puzzle = catalog.load(args.name)
    packer = Packer(puzzle, args.objective)
    hint = next(iter(read_solutions(puzzle, args.hint)), []) if args.hint else []
    result: list = []

    def report(value: int, seconds: float) -> None:
        print(f"satiling: {puzzle.name}: {value} {args.objective} at {seconds:.1f} s", file=sys.stderr)

    with on_signals(lambda signum: packer.stop()) as caught:
        # the search runs in a thread so that the main thread stays free to take signals
        worker = threading.Thread(target=lambda: result.append(
            packer.run(args.time_limit, args.workers, hint, on_improve=report)), daemon=True)
        worker.start()
        while worker.is_alive():
            worker.join(0.2)
    if not result:
        raise KeyboardInterrupt              # the search itself failed to return
    packing = result[0]
    interrupted = signal_exit(caught[0]) if caught else None
    if packing.status == "UNKNOWN":
        print(f"satiling: {puzzle.name}: no packing found in {packing.seconds:.1f} s", file=sys.stderr)
        return interrupted or EXIT_TIMEOUT
    parts = [len(p) for p in hole_components(packer.puzzle, packing.hole)]
    if args.json:
        print(json.dumps({"puzzle": puzzle.name, "status": packing.status, "objective": args.objective,
                          "pieces": packing.pieces, "cells": packing.cells, "bound": packing.bound,
                          "placements": [p.to_json() for p in sorted(packing.placements, key=lambda p: p.sort_key())],
                          "hole": [list(c) for c in packing.hole]}, separators=(",", ":")))
    else:
        print(solution_text(puzzle, packing.placements))
        print(f"{puzzle.name}: {packing.summary()}; hole parts {parts}")
    if args.svg:
        write_file(args.svg, solution_svg(puzzle, packing.placements))
        print(f"satiling: wrote {args.svg}", file=sys.stderr)
    return interrupted or EXIT_FOUND
