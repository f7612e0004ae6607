"""``satiling forced NAME`` and ``satiling hint NAME``: what every solution holds, and one placement
of some solution, as a puzzler at the table asks (the pins of the instance respected).

``forced`` prints the board with the placements every solution holds, then each on a line (a
pinned one marked), and says on stderr what is forced beyond the pins and how it was proved.
Stopped (``--time-limit``, Ctrl-C, SIGTERM), it prints what it has proved so far and says the
list is partial (exit 3, 130, 143).
``hint`` prints the board with the pins and one placement more, from a verified solution, chosen
at random: each run another (``--seed`` shows the same one again).
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..limits import MAX_SECONDS, seconds_arg
from ..engines.table import SOLVERS
from ..search.backbone import METHODS
from .common import name_argument

FORCED_HELP = """\
Find the placements that every solution holds (the backbone), with the instance's pinned pieces
([[placed]]; edge matching's [[fixed]]) in place: one solution is found, then for each of its
placements the search asks for a solution without it; none means the placement is forced. The
pins are in every solution too: they are listed (marked pinned; in the JSON in "forced" and again
in "pinned"), and the summary counts what is forced beyond them. Stopped early, it prints the
ones proved so far and says the list is partial ("undecided": the candidates not settled yet).

examples:
  satiling forced pentomino-6x10            none: every placement is missing from some tiling
  satiling forced mine.toml --svg f.svg     the forced placements drawn
  satiling forced mine.toml --json          {"puzzle":..., "forced":[...], "pinned":[...], ...}
"""

HINT_HELP = """\
Reveal one placement (not pinned) of some solution that agrees with the instance's pinned pieces,
re-checked by the verifier: placements are tried in a random order, so each run reveals another
(the seed is printed; --seed S reveals the same one again). Put it in the instance as a
[[placed]] table to go on.

examples:
  satiling hint mine.toml                   the board, the pins and one piece more
  satiling hint mine.toml --seed 7 --json   {"puzzle":..., "hint":{"piece":..., "cells":[...]}, "seed":7, "complete":true}
"""


def register(sub) -> None:
    s = sub.add_parser("forced", help="the placements every solution holds (pins respected)",
                       description=FORCED_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    name_argument(s)
    s.add_argument("--method", choices=METHODS, default="auto",
                   help="auto (default): exact on an exact cover (polyforms), else sat; exact: the "
                        "compiled exact-cover search asked for a solution without each candidate; "
                        f"sat: {SOLVERS[0].title} asked the same under assumptions; enumerate: intersect every "
                        "solution (stops once nothing is common; slow when something is forced)")
    s.add_argument("--time-limit", type=seconds_arg, metavar="S",
                   help=f"stop after S seconds (building the model included) with what is proved "
                        f"so far, marked partial (exit 3), at most {MAX_SECONDS}")
    _pictures(s, "the forced placements")
    s.set_defaults(run=cmd_forced)

    s = sub.add_parser("hint", help="one placement of some solution (pins respected), at random",
                       description=HINT_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    name_argument(s)
    s.add_argument("--seed", type=int, metavar="S", help="the random choice's seed: the same S "
                   "reveals the same placement (default: a fresh one, printed on stderr)")
    s.add_argument("--time-limit", type=seconds_arg, metavar="S",
                   help=f"give up after S seconds (exit 3; --json: \"complete\":false), at most "
                        f"{MAX_SECONDS}")
    _pictures(s, "the pins and the hint")
    s.set_defaults(run=cmd_hint)


def _pictures(s: argparse.ArgumentParser, what: str) -> None:
    s.add_argument("--svg", metavar="FILE", help=f"also draw {what} on the board as SVG to FILE")
    s.add_argument("--png", metavar="FILE", help="the same picture as PNG to FILE")
    s.add_argument("--json", action="store_true", help="print JSON instead of the picture")


def cmd_forced(args: argparse.Namespace) -> int:
    from .. import catalog
    from ..run.forced import forced, forced_words
    from .common import EXIT_FOUND, EXIT_NONE
    puzzle = catalog.load(args.name)
    answer = forced(puzzle, args.method, args.time_limit)
    name = puzzle.name
    if answer.exists is False:
        why = f"proved before any search: {answer.ruled_out}" if answer.ruled_out else \
            f"proved by {answer.method}"
        print(f"satiling: {name}: no solution, {why}", file=sys.stderr)
        # proved: the answer is complete (as hint's JSON says it)
        print(json.dumps({"puzzle": name, "forced": None, "complete": True}) if args.json
              else "no solution")
        return EXIT_NONE
    _print(puzzle, args, answer.forced, {"forced": [p.to_json() for p in answer.forced],
                                         "pinned": [p.to_json() for p in answer.pinned],
                                         "complete": answer.complete,
                                         "undecided": [p.to_json() for p in answer.open]},
           marks={p: "pinned" for p in answer.pinned},
           none="none: every placement is missing from some solution" if answer.complete
           else "none proved yet")
    if not answer.complete:
        print(f"satiling: {answer.stop.said}: partial: {forced_words(answer)}; {len(answer.open)} "
              f"more not settled yet (they may be forced too)"
              f"{'' if answer.exists else ', no solution found yet'}", file=sys.stderr)
        return answer.stop.exit_code
    print(f"satiling: {name}: {forced_words(answer)}, proved by "
          f"{answer.method}: {answer.questions} questions, {answer.solutions} "
          f"solution{'s' * (answer.solutions != 1)} met and verified, {answer.seconds:.2f} s", file=sys.stderr)
    return EXIT_FOUND


def cmd_hint(args: argparse.Namespace) -> int:
    from .. import catalog
    from ..run.forced import hint
    from .common import EXIT_FOUND, EXIT_NONE
    puzzle = catalog.load(args.name)
    answer = hint(puzzle, args.seed, args.time_limit)
    name = puzzle.name
    if answer.solution is None:
        if not answer.stop.complete:
            # (the JSON still answers: a reader tells a stop from "no solution" by ``complete``)
            if args.json:
                print(json.dumps({"puzzle": name, "hint": None, "seed": answer.seed, "complete": False},
                                 separators=(",", ":")))
            print(f"satiling: {answer.stop.said}: no hint yet", file=sys.stderr)
            return answer.stop.exit_code
        why = f", proved before any search: {answer.ruled_out}" if answer.ruled_out else ""
        print(f"satiling: {name}: no solution{why}: nothing to hint at (a pin may be where no "
              "solution has it)", file=sys.stderr)
        print(json.dumps({"puzzle": name, "hint": None, "complete": True}) if args.json else "no solution")
        return EXIT_NONE
    held = puzzle.pins()
    if answer.placement is None:
        print(f"satiling: {name}: nothing left to reveal: the pinned pieces are a solution",
              file=sys.stderr)
        _print(puzzle, args, held, {"hint": None, "seed": answer.seed, "complete": True}, marks={})
        return EXIT_FOUND
    _print(puzzle, args, held + [answer.placement],
           {"hint": answer.placement.to_json(), "seed": answer.seed, "complete": True},
           marks={answer.placement: "hint"}, only=[answer.placement])
    print(f"satiling: {name}: a placement of a verified solution (seed {answer.seed}: --seed "
          f"{answer.seed} reveals it again)", file=sys.stderr)
    return EXIT_FOUND


def _print(puzzle: Any, args: argparse.Namespace, shown: list[Any], data: dict[str, Any],
           marks: dict[Any, str], only: list[Any] | None = None, none: str = "") -> None:
    """The board with ``shown`` on it and each of ``only`` (default ``shown``) on a line, marked;
    or with ``--json`` the ``data``; and the picture of the board with ``--svg`` / ``--png``."""
    from ..render.pictures import solution_text
    from ..render.pieces import placements_svg
    from .common import terminal_colour, text_out, write_pictures
    if args.json:
        print(json.dumps({"puzzle": puzzle.name, **data}, separators=(",", ":")))
    else:
        out = text_out(args.svg, args.png)
        print(solution_text(puzzle, shown, colour=terminal_colour(out)), file=out)
        listed = shown if only is None else only
        print("\n".join(f"{p}" + (f"  ({marks[p]})" if p in marks else "") for p in listed)
              if listed else none, file=out)
    if args.svg or args.png:       # the hint outlined among the pins
        hinted = [p for p, mark in marks.items() if mark == "hint"]
        write_pictures(placements_svg(puzzle, shown, marked=hinted), args.svg, args.png)
