"""The command line's parser: every command, its options and its help, in one place.
"""
from __future__ import annotations

import argparse
import functools
import importlib
import importlib.util
import shlex
import textwrap
from typing import Any, Callable

from ..errors import Option, SatilingError
from ..commands.common import EXIT_ERROR, NAME_HELP, name_argument
from ..limits import MAX_SECONDS, MAX_WORKERS, seconds_arg as seconds, whole_arg as whole, workers_arg
from ..engines.table import BACKTRACK, DEFAULT_SAT_ALIAS, RESULT_FILE, count_solver_help, solver_help
from ..registry import families, model_options as family_options
from ..run.engines import names as engine_names
from .args import MODEL_DEST
from .files import cmd_decode, cmd_encode, cmd_info, cmd_list, cmd_render, cmd_verify
from .solving import MAXIMISE_ENGINES, SOLVE_ENGINES, cmd_count, cmd_enumerate, cmd_solve


#: modules that add subcommands through ``register(subparsers)``; a family's own come from its record
PLUGINS = ("satiling.commands.check_proof", "satiling.commands.serve", "satiling.commands.show",
           "satiling.commands.forced", "satiling.commands.share",
           "satiling.commands.completion")

EPILOG = f"""\
examples:
  satiling list                                  bundled puzzles
  satiling solve pentomino-6x10 --svg p.svg      solve, draw in the terminal and to a file
  satiling count pentomino-6x10                  2339 (distinct); --raw gives 9356
  satiling enumerate pentomino-3x20 --raw        every solution as JSON lines
  satiling encode pentomino-6x10 > p.cnf         DIMACS for any SAT solver
  {DEFAULT_SAT_ALIAS} p.cnf > out.txt; satiling decode pentomino-6x10 out.txt

{textwrap.fill(f'NAME is {NAME_HELP}.', 92)}
exit codes: 0 found, 1 no solution, 2 error, 3 time limit without an answer (decode: the
solver's output holds no answer).
"""

#: decode's exit codes (the table of satiling.backends.answers): an output with no answer in it
#: is the solver's time-out, not bad input
DECODE_EXITS = ("exit codes: 0 a solution; 1 the solver says there is none (its word, not "
                "checked; with --proof, proved by its DRAT proof), or (dimacs) a consistent partial model of a "
                "solver that claims none; 2 not that format's output, or a wrong, partial or "
                "foreign answer, or a --proof that is not verified; 3 no answer in it: empty, only comments, UNKNOWN or a time-out "
                "(the solver stopped, or was killed, before it found one), or a --proof not checked within "
                "--time-limit")


class _Parser(argparse.ArgumentParser):
    """argparse with its error as one line on stderr (exit 2), like every other error."""

    def error(self, message: str):
        # "satiling: error:" like every other error, whichever subcommand's option it was
        self.exit(EXIT_ERROR, f"satiling: error: {message} (see '{self.prog} --help')\n")


def amo_arg(text: str) -> str:
    """An argparse type: an at-most-one encoding the CNF backend knows."""
    from ..backends.cnf import AMO_ENCODINGS
    if text not in AMO_ENCODINGS:
        raise argparse.ArgumentTypeError(f"unknown at-most-one encoding {text[:40]!r} (choose from "
                                         f"{', '.join(AMO_ENCODINGS)})")
    return text


def sat_solver_arg(text: str) -> str:
    """An argparse type: a solver that enumerates with blocking clauses (``count``/``enumerate
    --solver``), checked whichever engine runs, so a misspelt name is never silently ignored."""
    from ..search.solve import enumeration_solver
    if text == "auto":
        return text
    try:
        return enumeration_solver(text)
    except SatilingError as e:
        raise argparse.ArgumentTypeError(said(e)) from None


# -- parser ---------------------------------------------------------------------------------------
def parser() -> argparse.ArgumentParser:
    """The parser, built once per process and set of families (a family registered later adds
    its commands and options): parsing leaves it as it was, and building it (twenty commands,
    their help translated through gettext) costs more than a small count."""
    return _parser_for(tuple((name, id(record)) for name, record in families().items()))


@functools.lru_cache(maxsize=1)
def _parser_for(registered: tuple) -> argparse.ArgumentParser:
    return build_parser()


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="satiling", description="Tiling, packing and edge-matching puzzles as SAT / CP-SAT problems.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"satiling {_version()}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    s = sub.add_parser("list", help="list the bundled puzzles")
    s.set_defaults(run=cmd_list)

    s = _model_command(sub, "info", "sizes of a puzzle and its model", cmd_info)
    s.add_argument("--amo", default="pairwise", type=amo_arg,
                   help="at-most-one encoding for the clause count")

    from ..backends.formats import FORMATS as ENCODE_FORMATS
    s = _model_command(sub, "encode", "write the model for an external solver (stdout)", cmd_encode)
    s.add_argument("--format", choices=ENCODE_FORMATS, default="dimacs",
                   help="dimacs: CNF with a 'c v VAR PLACEMENT' map (default); wcnf: MaxSAT; opb: "
                        "pseudo-Boolean; cpsat: CP-SAT model as protobuf text; lp: CPLEX LP (HiGHS, "
                        "SCIP, CBC); lpsolve: lp_solve's LP (OR-Tools' LP importer); mps: free MPS; "
                        "xcc: Knuth's DLX1/SSXCC exact cover; mzn: MiniZinc; xcsp3: XCSP3 "
                        "(see docs/solvers.md)")
    s.add_argument("--amo", type=amo_arg,
                   help="at-most-one encoding of the CNF formats: pairwise (default, fastest "
                        "measured), seqcounter, ladder, bitwise, totalizer, ...")
    s.add_argument("--maximize-matches", action="store_true",
                   help="edge matching: the score problem (every square filled, as many joins "
                        "matching as possible) instead of the puzzle; needs a format with an "
                        "objective (wcnf: the joins are the soft clauses)")
    s.add_argument("-o", "--output", help="write to this file instead of stdout (--format mzn: "
                   "-o NAME.mzn writes the model there and its data to NAME.dzn)")

    s = _model_command(sub, "solve", "find one solution, verify it, draw it", cmd_solve)
    _solver_options(s)
    s.add_argument("--svg", metavar="FILE", help="also draw the solution as SVG to FILE")
    s.add_argument("--png", metavar="FILE", help="also draw the solution as PNG to FILE (to post or print)")
    s.add_argument("--json", action="store_true", help="print the solution as JSON instead of a picture")
    s.add_argument("--maximize-matches", nargs="?", const="auto", metavar="ENGINE",
                   choices=("auto",) + MAXIMISE_ENGINES,
                   help="edge matching: the board with the most matching joins in --time-limit "
                        f"seconds, its score on stderr as it improves; --engine {BACKTRACK} (compiled "
                        "search with a schedule of broken joins; default above 100 squares), cpsat "
                        "(whole board; default up to 100), lns (windows re-solved by CP-SAT), rc2 "
                        "(PySAT MaxSAT); the engine may also follow the flag, as before")

    s = _model_command(sub, "count", "count the solutions (distinct up to symmetry by default)", cmd_count)
    _enum_options(s)

    s = _model_command(sub, "enumerate", "print every solution: pictures on a terminal, JSON lines "
                       "in a pipe, a file or with --json", cmd_enumerate)
    _enum_options(s)
    s.add_argument("--limit", type=whole(1, 10 ** 18), metavar="N", help="stop after N solutions")
    s.add_argument("--out", metavar="FILE", help="append the JSON lines to FILE instead of stdout")
    s.add_argument("--json", action="store_true", help="JSON lines on a terminal too (a pipe or a "
                   "file always gets JSON lines; a terminal gets pictures)")

    s = _model_command(sub, "decode", "read a solver's answer to the model of NAME", cmd_decode)
    s.epilog = DECODE_EXITS
    s.add_argument("output", metavar="SOLVER_OUTPUT", help="solver output file ('-' for stdin); "
                   f"for dimacs: SAT-competition 's'/'v' lines, {RESULT_FILE} or a plain "
                   "literal list, complete or partial (a partial edge-matching board is drawn with "
                   "its score; exit 1); a complete model is checked against every clause")
    s.add_argument("--format", choices=ENCODE_FORMATS, default="dimacs",
                   help="the format the solver read (as given to encode): its answer is read in "
                        "that family's words (MaxSAT or PB 'v' lines, a CP-SAT response, a HiGHS / "
                        "SCIP / CBC / lp_solve solution, DLX1 lines, MiniZinc output, an XCSP3 "
                        "<instantiation>) and must be complete and keep every constraint")
    s.add_argument("--maximize-matches", action="store_true",
                   help="the answer is to 'encode --maximize-matches' (the board is scored)")
    s.add_argument("--cnf", metavar="FILE",
                   help="the DIMACS file the solver read: the model options and --amo are taken "
                        "from its 'c satiling encode' line and the model is checked against its "
                        "clauses")
    s.add_argument("--amo", type=amo_arg,
                   help="the at-most-one encoding it was encoded with (default pairwise; with "
                        "--cnf the file's header says it, and --amo must agree)")
    s.add_argument("--svg", metavar="FILE",
                   help="also draw the solution (or partial edge-matching board) as SVG to FILE")
    s.add_argument("--proof", metavar="FILE",
                   help="dimacs: the solver's DRAT proof of 'no solution' (e.g. 'cadical p.cnf "
                        "FILE'), checked against satiling's own CNF of NAME (built with the same "
                        "options): verified, the answer is proved (exit 1); not verified, exit 2")
    s.add_argument("--time-limit", type=seconds, metavar="S",
                   help="give up checking the --proof after S seconds (exit 3): a proof's check "
                        "grows with the square of its length")

    s = sub.add_parser("verify", help="check solutions (JSON or JSON lines) against a puzzle")
    name_argument(s)
    s.add_argument("solutions", metavar="FILE", help="a solution file from 'solve --json' or 'enumerate'")
    s.add_argument("--hints", action="store_true",
                   help="also check that each solution holds the puzzle's hint pieces in place "
                        "(Eternity II's four clues), as solve --hints pins them")
    s.set_defaults(run=cmd_verify)

    s = sub.add_parser("render", help="draw a solution (JSON) as text and, with --svg / --png, as a picture",
                       description="Draw a solution from a file ('solve --json', 'enumerate', or a "
                                   "board as 'solve --maximize-matches' prints it) as text and, "
                                   "with --svg or --png, as a picture; the solution is verified first.")
    name_argument(s)
    s.add_argument("solution", metavar="FILE", help="a solution file ('-' for stdin): JSON, or JSON "
                   "lines from 'enumerate' (the first is drawn unless --index or --all says otherwise)")
    s.add_argument("--index", type=int, metavar="N", help="draw the Nth solution (from 1; default 1)")
    s.add_argument("--all", action="store_true", help="draw every solution in the file; with --svg "
                   "FILE all of them on one page, with --svg FOLDER/ one file each")
    s.add_argument("--svg", metavar="FILE", help="write an SVG picture to FILE (--all: FILE is one "
                   "page of every solution; a folder, or a name ending in '/', gets one file each)")
    s.add_argument("--png", metavar="FILE", help="write the picture as PNG to FILE, to post or print "
                   "(--all: one page of every solution); FILE ends in .png or has no suffix, as "
                   "--svg's ends in .svg: a name for the other format is refused")
    s.set_defaults(run=cmd_render)

    family_commands = [m for record in families().values() for m in record.commands]
    for module in dict.fromkeys((*family_commands, *PLUGINS)):
        importlib.import_module(module).register(sub)
    for name in ("info", "encode", "solve", "count", "enumerate", "decode"):
        _family_options(sub.choices[name])          # after each command's own options
    for command in sub.choices.values():            # the files a command reads (never written)
        command.set_defaults(inputs=tuple(a.dest for a in command._actions
                                          if not a.option_strings and a.dest != "help"))
    return p


def maximize_flag(argv: list[str]) -> list[str]:
    """``solve --maximize-matches NAME``: the option's optional ENGINE would take the puzzle's
    name, so a bare flag (or a prefix argparse would take for it) followed by a word that is not
    a maximising engine is read as ``--maximize-matches=auto``; ``--maximize-matches lns`` still
    names the engine, as before."""
    words = [w for w in argv if not w.startswith("-")]
    if not words or words[0] != "solve":
        return argv
    out = list(argv)
    for i, word in enumerate(out[:-1]):
        if word == "--":
            break
        after = out[i + 1]
        if word.startswith("--max") and "--maximize-matches".startswith(word) and \
                not after.startswith("-") and after not in ("auto",) + MAXIMISE_ENGINES:
            out[i] = "--maximize-matches=auto"
    return out


def _model_command(sub, name: str, help_: str, run: Callable) -> argparse.ArgumentParser:
    s = sub.add_parser(name, help=help_, description=help_[0].upper() + help_[1:] + ".")
    name_argument(s)
    s.set_defaults(run=run)
    return s


def _family_options(s: argparse.ArgumentParser) -> None:
    """The model options, one help group per family, listed after the command's own."""
    groups: dict[str, Any] = {}
    for record, opt in family_options():
        if record.name not in groups:
            groups[record.name] = s.add_argument_group(f"{record.title} options")
        kw: dict[str, Any] = {"help": opt.help, "dest": MODEL_DEST + opt.key}
        if opt.kind == "flag":
            kw["action"] = "store_true"
        else:
            kw["type"] = int if opt.kind == "int" else str
            if opt.choices:
                kw["choices"] = opt.choices
        groups[record.name].add_argument(opt.flag, **kw)


def _solver_options(s: argparse.ArgumentParser) -> None:
    s.add_argument("--engine", choices=SOLVE_ENGINES, default="auto",
                   help="auto (default): the compiled backtracker on edge matching, the exact-cover "
                        "search on exact covers, else SAT; " + engine_help("solve")
                        + "; with --maximize-matches: " + engine_help("maximise"))
    s.add_argument("--solver", default="auto", help=solver_help())
    s.add_argument("--threads", type=workers_arg, metavar="N",
                   help=f"CP-SAT search threads, 1 to {MAX_WORKERS} (default: one per core)")
    s.add_argument("--time-limit", type=seconds, metavar="S",
                   help=f"give up after S seconds, building the model included (exit 3), at most "
                        f"{MAX_SECONDS}")
    s.add_argument("--node-limit", type=whole(1, 10 ** 18), metavar="N",
                   help="give up after N nodes of the search, or N conflicts of a SAT solver or "
                        "CP-SAT (exit 3): the same work on every machine, for benchmarks")
    s.add_argument("--workers", type=workers_arg, metavar="N",
                   help="edge matching: split the backtracker's search into jobs on N local "
                        f"processes (1 to {MAX_WORKERS}); the first solution any job meets wins")
    s.add_argument("--dask", metavar="ADDRESS",
                   help="edge matching: run those jobs on the Dask cluster whose scheduler is at "
                        "ADDRESS; with --maximize-matches, one search per worker thread of the "
                        "cluster, all sharing the best board's score")
    s.add_argument("--seed", type=int, metavar="S",
                   help="edge matching: the backtracker's random seed (solve: restarts with "
                        "randomised value orders, reproducible; --maximize-matches: the searches')")
    s.add_argument("--fill-order", choices=("rows", "comb"),
                   help=f"--maximize-matches {BACKTRACK}: fill order, row scan (default) or comb (the "
                        "top rows by columns, as Blackwood's solver)")
    s.add_argument("--proof", metavar="FILE",
                   help="when there is no solution, write a DRAT proof to FILE (its formula to "
                        "FILE.cnf) and check it (dratify; drat-trim too when on the PATH)")
    s.add_argument("--best", metavar="FILE",
                   help="--maximize-matches: keep the best board in FILE as it improves (written "
                        "whole each time, so a kill or a crash never loses it; a board FILE holds "
                        "from an earlier run is replaced only by a better one; default "
                        "NAME-best.json in the current folder), its scores over time in "
                        "FILE's .scores.tsv beside it; one run at a time: a second run given "
                        "the FILE of a run still going is refused")
    s.add_argument("--start", metavar="FILE",
                   help=f"--maximize-matches {BACKTRACK}: continue from the board in FILE (a --best "
                        "file, 'satiling score' formats): only better boards are hunted")


def _enum_options(s: argparse.ArgumentParser) -> None:
    s.add_argument("--raw", action="store_true",
                   help="every solution, not one per symmetry class (rotations and reflections of "
                        "the board count separately); the same as --symmetry none")
    s.add_argument("--symmetry", choices=("full", "rotations", "none"),
                   help="solutions count as one when a symmetry of this group maps one onto the "
                        "other: full (default: every rotation and reflection of the board that "
                        "maps the pieces onto the pieces), rotations (proper motions only, no "
                        "mirror images: the 24 of a cube), none (raw)")
    s.add_argument("--engine", choices=engine_names("count"), default="auto",
                   help="auto (default): the backtracker on edge matching where it applies, else the "
                        "exact-cover search where it applies, else SAT; " + engine_help("count"))
    s.add_argument("--solver", default="auto", type=sat_solver_arg, help=count_solver_help())
    s.add_argument("--no-symmetry-breaking", action="store_true",
                   help="search every placement (by default one piece is restricted to a "
                        "fundamental domain of the board's symmetries; counts are the same)")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.add_argument("--time-limit", type=seconds, metavar="S",
                   help=f"stop cleanly after S seconds, building the model included, keeping what "
                        f"was found (exit 3), at most {MAX_SECONDS}")
    s.add_argument("--resume", metavar="FILE",
                   help="continue a stopped run without losing or repeating a solution: enumerate "
                        "appends to its solutions file FILE; count records in FILE its finished "
                        "cubes and, in one process, the parts of the cube in progress left to search")
    s.add_argument("--proof", metavar="FILE",
                   help="at the end, prove there is no further solution: DRAT proof to FILE, its "
                        "formula to FILE.cnf, checked (dratify; drat-trim too when on the PATH)")
    s.add_argument("--workers", type=workers_arg, metavar="N",
                   help=f"split the search into cubes and run them on N local processes (1 to "
                        f"{MAX_WORKERS})")
    s.add_argument("--dask", metavar="ADDRESS",
                   help="run the cubes on the Dask cluster whose scheduler is at ADDRESS")


# -- messages ------------------------------------------------------------------------------------
@functools.cache
def flags() -> dict[str, str]:
    """Each option's key, as the library's calls and a Request name it, and its flag: the one
    table by which the command line's messages name options, read from the parser (an option's
    ``dest``; a model option's key is its ``dest`` without :data:`MODEL_DEST`)."""
    table: dict[str, str] = {}
    commands = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction))
    for command in commands.choices.values():
        for action in command._actions:
            long = [s for s in action.option_strings if s.startswith("--")]
            if long:
                table.setdefault(action.dest.removeprefix(MODEL_DEST), long[0])
    return table


def flag(option: Option) -> str:
    """``option`` as the command line gives it: its flag, and the value as typed (``--engine
    race``); an option no command has, in the library's words."""
    name = flags().get(option.key)
    if name is None:
        return str(option)
    if option.value is None or option.value is True:
        return name
    return f"{name} {shlex.quote(str(option.value))}"


def said(error: SatilingError) -> str:
    """``error``'s message in the command line's words: each option it names by its flag."""
    return error.worded(flag)


def engine_help(task: str) -> str:
    """``name: what it is`` of each engine of ``task``, from the engine table."""
    from ..engines.table import TABLE
    return "; ".join(f"{e.name}: {e.help}" for e in TABLE if task in e.tasks)


def _version() -> str:
    from .. import __version__
    return __version__
