"""IQ-Link subcommands: prove a challenge has one solution, generate challenges.

    satiling iqlink unique iqlink-wizard              # a bundled challenge
    satiling iqlink unique GAEWBABCDJDA               # pre-placed pieces as a placement string
    satiling iqlink generate --pieces-to-place 10 --seed 1 > wizard.toml
    satiling iqlink generate --level expert --seed 7 --svg expert.svg
"""
from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

from ..errors import SatilingError
from ..engines.table import DEFAULT_SAT_ALIAS, sat_names
from ..exits import EXIT_FOUND, EXIT_NONE

PLACEMENTS = re.compile(r"^[A-X]*$")     # upper-case letters: a placement string, not a name


def register(sub) -> None:
    s = sub.add_parser("iqlink", help="IQ-Link: prove a challenge unique, generate challenges",
                       description="IQ-Link challenges: pre-placed pieces, the rest to place; one "
                       "solution, linked into one graph.")
    actions = s.add_subparsers(dest="iqlink_action", required=True, metavar="ACTION")

    u = actions.add_parser("unique", help="solve a challenge and prove its solution unique",
                           description="Solve CHALLENGE, then look for a second solution. Prints the "
                           "solution and 'unique', or 'not unique' and a second solution. Exit codes: "
                           "0 unique, 1 not unique or no solution, 2 error.")
    u.add_argument("challenge", metavar="CHALLENGE",
                   help="bundled name, instance file, or the pre-placed pieces as a placement "
                        "string (peg, piece, orientation: 'GAEWBABCDJDA'; '' for the empty board)")
    _common(u)
    u.add_argument("--svg", metavar="FILE", help="draw the solution to FILE")
    u.set_defaults(run=cmd_unique)

    g = actions.add_parser("generate", help="print a challenge with a unique solution (instance file)",
                           description="Take pieces away from a random full solution while the "
                           "answer stays unique; print the challenge as an instance file.")
    how = g.add_mutually_exclusive_group(required=True)
    how.add_argument("--pieces-to-place", type=int, metavar="K", help="pieces left to place (1-11)")
    how.add_argument("--level", choices=("starter", "junior", "expert", "master", "wizard"),
                     help="a booklet level: starter 2-3 pieces to place, junior 3-7, expert 5-8, "
                          "master 6-9, wizard 8-10 (drawn at random)")
    g.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    _common(g)
    g.add_argument("--svg", metavar="FILE", help="draw the challenge to FILE (and its solution to "
                                                 "FILE with -solution before .svg)")
    g.set_defaults(run=cmd_generate)


def _common(s: argparse.ArgumentParser) -> None:
    s.add_argument("--solver", default=DEFAULT_SAT_ALIAS, help=f"{DEFAULT_SAT_ALIAS} (default), {sat_names()[1]}, cpsat, ...")
    s.add_argument("--link-rule", choices=("lazy", "eager"), default="lazy",
                   help="the linked-graph rule as lazy cuts (default) or eager reachability clauses")


def load_challenge(text: str):
    """A bundled name or instance file, else a placement string."""
    from .. import catalog
    from ..families.iqlink import IQLinkPuzzle, challenge
    compact = text.replace(" ", "").replace(",", "")
    if PLACEMENTS.match(compact) and not _is_puzzle(text):
        return challenge(compact, name=compact or "empty board")
    puzzle = catalog.load(text)
    if not isinstance(puzzle, IQLinkPuzzle):
        raise SatilingError(f"{text} is not an IQ-Link puzzle")
    return puzzle


def _is_puzzle(text: str) -> bool:
    from .. import catalog
    return bool(text) and (Path(text).is_file() or (catalog.instances_dir() / f"{text}.toml").is_file())


def cmd_unique(args: argparse.Namespace) -> int:
    from ..families.iqlink import board_text, solution_string
    from ..apps.iqlink_generate import check_unique
    puzzle = load_challenge(args.challenge)
    result = check_unique(puzzle, args.solver, args.link_rule)
    if result.solution is None:
        print("no solution")
        print(f"satiling: no solution in {result.seconds:.2f} CPU-s", file=sys.stderr)
        return EXIT_NONE
    puzzle.verify(result.solution)
    print(board_text(result.solution))
    print(solution_string(result.solution))
    if result.second is None:
        print("unique")
    else:
        puzzle.verify(result.second)
        print("not unique; another solution:")
        print(board_text(result.second))
        print(solution_string(result.second))
    print(f"satiling: {'solved and proved unique' if result.unique else 'two solutions found'} in "
          f"{result.seconds:.2f} CPU-s", file=sys.stderr)
    if args.svg:
        from ..fileio import write_file
        from ..render.iqlink_svg import solution_svg
        write_file(args.svg, solution_svg(puzzle, result.solution))
    return EXIT_FOUND if result.second is None else EXIT_NONE         # "unique" is the answer asked for


def cmd_generate(args: argparse.Namespace) -> int:
    from ..apps.iqlink_generate import challenge_toml, generate, pieces_for_level
    k = args.pieces_to_place
    if k is None:
        k = pieces_for_level(args.level, random.Random(args.seed))
    if not 1 <= k <= 11:
        raise SatilingError("--pieces-to-place must be between 1 and 11 (12 leaves the empty board, "
                            "which has many solutions)")
    def tried(k_: int, of: int) -> None:       # a long search shows it is alive
        print(f"satiling: {k_} of at most {of} full solutions tried: none leaves a unique "
              f"challenge with {k} pieces to place yet", file=sys.stderr)
    gen = generate(k, args.seed, args.solver, args.link_rule, on_try=tried)
    how = f"--level {args.level}" if args.level else f"--pieces-to-place {k}"
    sys.stdout.write(challenge_toml(gen, f"iqlink generate {how} --seed {args.seed}"))
    if args.svg:
        from ..fileio import write_file
        from ..render.iqlink_svg import challenge_svg, solution_svg
        write_file(args.svg, challenge_svg(gen.puzzle))
        stem = args.svg[:-4] if args.svg.endswith(".svg") else args.svg
        write_file(stem + "-solution.svg", solution_svg(gen.puzzle, gen.solution))
    return EXIT_FOUND
