"""The ``satiling`` command: parse, call the library, map errors to exit codes.

Exit codes: 0 solved / found, 1 no solution (as grep finding nothing), 2 error (one line on stderr),
3 time limit reached without an answer.  Data goes to stdout, progress and messages to stderr.
"""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import shlex
import sys
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence, TextIO

from . import catalog
from .errors import SatilingError, VerificationError
from .fileio import check_not_input, check_writable, output_file, read_text
from .commands.common import (EXIT_ERROR, EXIT_FOUND, EXIT_NONE, EXIT_TIMEOUT, read_solutions,
                              show, solution_json)
from .limits import MAX_SECONDS, MAX_WORKERS, seconds_arg as seconds, whole_arg as whole, workers_arg
from .registry import families, model_options as family_options
from .run.engines import names as engine_names
from .search.router import BACKTRACK
from .signals import exit_code, interrupt_cause, interrupts


#: options that name a file to write
OUTPUT_OPTIONS = ("svg", "output", "proof", "out", "best")

#: modules that add subcommands through ``register(subparsers)``; a family's own come from its record
PLUGINS = ("satiling.commands.check_proof", "satiling.commands.serve", "satiling.commands.show",
           "satiling.commands.completion")

EPILOG = """\
examples:
  satiling list                                  bundled puzzles
  satiling solve pentomino-6x10 --svg p.svg      solve, draw in the terminal and to a file
  satiling count pentomino-6x10                  2339 (distinct); --raw gives 9356
  satiling enumerate pentomino-3x20 --raw        every solution as JSON lines
  satiling encode pentomino-6x10 > p.cnf         DIMACS for any SAT solver
  cadical p.cnf > out.txt; satiling decode pentomino-6x10 out.txt

NAME is a bundled puzzle (see 'satiling list') or a path to an instance file (TOML).
exit codes: 0 found, 1 no solution, 2 error, 3 time limit without an answer.
"""


def main(argv: list[str] | None = None) -> int:
    with sturdy_stderr():
        return _guarded(argv)


def _guarded(argv: list[str] | None) -> int:
    # SIGINT and SIGTERM raise Interrupt: exit 130 / 143; when this is the program itself (argv
    # None), a signal after the work (while the interpreter shuts down) exits 130 / 143 at once
    try:
        with interrupts(final=argv is None):
            try:
                return _main(argv)
            except Exception as e:        # an error a signal caused (a module's import cut short)
                cause = interrupt_cause(e)
                if cause is None:
                    raise
                raise cause from None
    except KeyboardInterrupt as e:        # outside the command (reading the options, leaving)
        print("satiling: interrupted" if exit_code(e) == 130 else "satiling: terminated",
              file=sys.stderr)
        return exit_code(e)


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(maximize_flag(list(sys.argv[1:] if argv is None else argv)))
    except SystemExit as e:               # --help, --version (0) or a bad argument (2, one line)
        return int(e.code or 0)
    args.argv = list(sys.argv[1:] if argv is None else argv)     # to say how to continue a run
    try:
        check_outputs(args)               # refused before any work is done
        code = int(args.run(args) or 0)
        sys.stdout.flush()                # a full disk on stdout is an error, not a lost answer
        for text in getattr(args, "notes", ()):
            print(f"satiling: note: {text}", file=sys.stderr)
        return code
    except SatilingError as e:
        print(f"satiling: error: {e}", file=sys.stderr)
        return EXIT_ERROR
    except OSError as e:                  # stdout on a full disk or a vanished device
        if isinstance(e, BrokenPipeError):
            _silence_stdout()
            return EXIT_FOUND
        _silence_stdout()
        print(f"satiling: error: cannot write: {e.strerror or e}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt as e:        # what was found is printed already
        print("satiling: interrupted" if exit_code(e) == 130 else "satiling: terminated", file=sys.stderr)
        return exit_code(e)


def check_outputs(args: argparse.Namespace) -> None:
    """Every file a command will write can be written, and none of them is a file it reads."""
    inputs = [getattr(args, dest) for dest in getattr(args, "inputs", ())]
    for option in OUTPUT_OPTIONS:
        path = getattr(args, option, None)
        if path and option not in getattr(args, "inputs", ()):
            if option == "svg" and getattr(args, "all", False) and path.endswith("/"):
                continue                  # render --all --svg FOLDER/: made when written
            if not (option == "svg" and getattr(args, "all", False) and os.path.isdir(path)):
                check_writable(path)
            check_not_input(path, f"--{option}", [p for p in inputs if isinstance(p, str)])


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so the final flush at exit cannot fail a second time (the reader
    went away, as in ``satiling enumerate ... | head``, or the disk is full)."""
    _silence(sys.stdout)


def _silence(stream: Any) -> None:
    """Point the file descriptor under ``stream`` at /dev/null (what is buffered goes there)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, stream.fileno())
        finally:
            os.close(null)
    except (OSError, ValueError, AttributeError):      # no descriptor (a test's capture)
        pass


class _SturdyStream:
    """A text stream whose failures are dropped: stderr carries only progress and messages, so a
    full disk or a closed pipe there must not change the answer on stdout or the exit code."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except (OSError, ValueError):                  # ValueError: the stream was closed
            self._give_up()
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except (OSError, ValueError):
            self._give_up()

    def _give_up(self) -> None:
        # later writes then succeed into /dev/null, and so does the interpreter's own flush at
        # exit (which would otherwise turn the exit code into 120)
        _silence(self._stream)

    def __getattr__(self, name: str) -> Any:           # fileno, isatty, encoding, ...
        return getattr(self._stream, name)


@contextmanager
def sturdy_stderr() -> Iterator[None]:
    """``sys.stderr`` as a :class:`_SturdyStream` for one command, put back afterwards.  A closed
    stderr (``2>&-``: Python's is None, and ``print(file=None)`` would write to stdout) becomes
    /dev/null."""
    original = sys.stderr
    with ExitStack() as stack:
        target = original if original is not None else stack.enter_context(open(os.devnull, "w"))
        sys.stderr = _SturdyStream(target)
        try:
            yield
        finally:
            sys.stderr = original


class _Parser(argparse.ArgumentParser):
    """argparse with its error as one line on stderr (exit 2), like every other error."""

    def error(self, message: str):
        # "satiling: error:" like every other error, whichever subcommand's option it was
        self.exit(EXIT_ERROR, f"satiling: error: {message} (see '{self.prog} --help')\n")


def amo_arg(text: str) -> str:
    """An argparse type: an at-most-one encoding the CNF backend knows."""
    from .backends.cnf import AMO_ENCODINGS
    if text not in AMO_ENCODINGS:
        raise argparse.ArgumentTypeError(f"unknown at-most-one encoding {text[:40]!r} (choose from "
                                         f"{', '.join(AMO_ENCODINGS)})")
    return text


def sat_solver_arg(text: str) -> str:
    """An argparse type: a solver that enumerates with blocking clauses (``count``/``enumerate
    --solver``), checked whichever engine runs, so a misspelt name is never silently ignored."""
    from .search.solve import enumeration_solver
    try:
        return enumeration_solver(text)
    except SatilingError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


# -- parser ---------------------------------------------------------------------------------------
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

    from .backends.formats import FORMATS as ENCODE_FORMATS
    s = _model_command(sub, "encode", "write the model for an external solver (stdout)", cmd_encode)
    s.add_argument("--format", choices=ENCODE_FORMATS, default="dimacs",
                   help="dimacs: CNF with a 'c v VAR PLACEMENT' map (default); wcnf: MaxSAT; opb: "
                        "pseudo-Boolean; cpsat: CP-SAT model as protobuf text; lp: CPLEX LP (HiGHS, "
                        "SCIP, CBC); lpsolve: lp_solve's LP (OR-Tools' LP importer); mps: free MPS; "
                        "xcc: Knuth's DLX1/SSXCC exact cover; mzn: MiniZinc; xcsp3: XCSP3 "
                        "(see docs/solvers.md)")
    s.add_argument("--amo", default="pairwise", type=amo_arg,
                   help="at-most-one encoding: pairwise (default, fastest measured), seqcounter, "
                        "ladder, bitwise, totalizer, ...")
    s.add_argument("--maximize-matches", action="store_true",
                   help="edge matching: the score problem (every square filled, as many joins "
                        "matching as possible) instead of the puzzle; needs a format with an "
                        "objective (wcnf: the joins are the soft clauses)")
    s.add_argument("-o", "--output", help="write to this file instead of stdout (--format mzn: "
                   "-o NAME.mzn writes the model there and its data to NAME.dzn)")

    s = _model_command(sub, "solve", "find one solution, verify it, draw it", cmd_solve)
    _solver_options(s)
    s.add_argument("--svg", metavar="FILE", help="also draw the solution as SVG to FILE")
    s.add_argument("--json", action="store_true", help="print the solution as JSON instead of a picture")
    s.add_argument("--maximize-matches", nargs="?", const="auto", metavar="ENGINE",
                   choices=("auto",) + MAXIMISE_ENGINES,
                   help="edge matching: the board with the most matching joins in --time-limit "
                        "seconds, its score on stderr as it improves; --engine backtrack (compiled "
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
    s.add_argument("output", metavar="SOLVER_OUTPUT", help="solver output file ('-' for stdin); "
                   "for dimacs: SAT-competition 's'/'v' lines, MiniSat's result file or a plain "
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

    s = sub.add_parser("verify", help="check solutions (JSON or JSON lines) against a puzzle")
    s.add_argument("name", metavar="NAME")
    s.add_argument("solutions", metavar="FILE", help="a solution file from 'solve --json' or 'enumerate'")
    s.set_defaults(run=cmd_verify)

    s = sub.add_parser("render", help="draw a solution (JSON) as text and, with --svg, as SVG",
                       description="Draw a solution from a file ('solve --json', 'enumerate', or a "
                                   "board as 'solve --maximize-matches' prints it) as text and, "
                                   "with --svg, as SVG; the solution is verified first.")
    s.add_argument("name", metavar="NAME")
    s.add_argument("solution", metavar="FILE", help="a solution file ('-' for stdin): JSON, or JSON "
                   "lines from 'enumerate' (the first is drawn unless --index or --all says otherwise)")
    s.add_argument("--index", type=int, default=1, metavar="N", help="draw the Nth solution (from 1)")
    s.add_argument("--all", action="store_true", help="draw every solution in the file; with --svg "
                   "FILE all of them on one page, with --svg FOLDER/ one file each")
    s.add_argument("--svg", metavar="FILE", help="write an SVG picture to FILE (--all: FILE is one "
                   "page of every solution; a folder, or a name ending in '/', gets one file each)")
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
    s = sub.add_parser(name, help=help_, description=help_.capitalize() + ".")
    s.add_argument("name", metavar="NAME", help="bundled puzzle name or instance file")
    s.set_defaults(run=run)
    return s


def _family_options(s: argparse.ArgumentParser) -> None:
    """The model options, one help group per family, listed after the command's own."""
    groups: dict[str, Any] = {}
    for record, opt in family_options():
        if record.name not in groups:
            groups[record.name] = s.add_argument_group(f"{record.title} options")
        kw: dict[str, Any] = {"help": opt.help, "dest": "model_" + opt.key}
        if opt.kind == "flag":
            kw["action"] = "store_true"
        else:
            kw["type"] = int if opt.kind == "int" else str
            if opt.choices:
                kw["choices"] = opt.choices
        groups[record.name].add_argument(opt.flag, **kw)


def _solver_options(s: argparse.ArgumentParser) -> None:
    s.add_argument("--engine", choices=SOLVE_ENGINES, default="auto",
                   help="auto (default; see satiling/search/router.py): the compiled backtracker on "
                        "edge matching, the exact-cover search on exact covers, else SAT; backtrack; "
                        "walk; sat (the --solver, cadical by default); race (SAT solvers in parallel "
                        "processes, the first answer wins: cadical195+cadical153, or --solver A+B); "
                        "cpsat; with --maximize-matches: backtrack, cpsat, lns or rc2")
    s.add_argument("--solver", default="auto",
                   help="auto (default): the compiled backtracker on edge matching, the exact-cover "
                        "search (walk) on exact covers, else cadical; or backtrack; walk; cadical, "
                        "glucose, kissat, minisat (SAT); race (cadical195 and cadical153 in two "
                        "processes, the first answer wins; or A+B for any PySAT solvers); cpsat; "
                        "scip, highs, cbc (MIP); or a PySAT name")
    s.add_argument("--threads", type=workers_arg, metavar="N",
                   help=f"CP-SAT search threads, 1 to {MAX_WORKERS} (default: one per core)")
    s.add_argument("--time-limit", type=seconds, metavar="S",
                   help=f"give up after S seconds (exit 3), at most {MAX_SECONDS}")
    s.add_argument("--workers", type=workers_arg, metavar="N",
                   help="edge matching: split the backtracker's search into jobs on N local "
                        f"processes (1 to {MAX_WORKERS}); the first solution any job meets wins")
    s.add_argument("--dask", metavar="ADDRESS",
                   help="edge matching: run those jobs on the Dask cluster whose scheduler is at ADDRESS")
    s.add_argument("--seed", type=int, metavar="S",
                   help="edge matching: the backtracker's random seed (solve: restarts with "
                        "randomised value orders, reproducible; --maximize-matches: the searches')")
    s.add_argument("--fill-order", choices=("rows", "comb"),
                   help="--maximize-matches backtrack: fill order, row scan (default) or comb (the "
                        "top rows by columns, as Blackwood's solver)")
    s.add_argument("--proof", metavar="FILE",
                   help="when there is no solution, write a DRAT proof to FILE (its formula to "
                        "FILE.cnf) and check it (dratify; drat-trim too when on the PATH)")
    s.add_argument("--best", metavar="FILE",
                   help="--maximize-matches: keep the best board in FILE as it improves (written "
                        "whole each time, so a kill or a crash never loses it; default "
                        "NAME-best.json in the current folder), its scores over time in "
                        "FILE's .scores.tsv beside it")
    s.add_argument("--start", metavar="FILE",
                   help="--maximize-matches backtrack: continue from the board in FILE (a --best "
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
                   help="backtrack: compiled edge-matching backtracker (default on edge matching "
                        "where it applies); walk: compiled exact-cover search, dancing links or "
                        "bitboards with a pocket cut (default where it applies); sat: incremental "
                        "SAT with blocking clauses; cpsat: CP-SAT with blocking clauses")
    s.add_argument("--solver", default="cadical", type=sat_solver_arg,
                   help="SAT solver for --engine sat and --proof: cadical (default), glucose, "
                        "kissat, minisat or another PySAT name (--engine sat also takes cpsat)")
    s.add_argument("--no-symmetry-breaking", action="store_true",
                   help="search every placement (by default one piece is restricted to a "
                        "fundamental domain of the board's symmetries; counts are the same)")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.add_argument("--time-limit", type=seconds, metavar="S",
                   help=f"stop cleanly after S seconds, keeping what was found (exit 3), at most "
                        f"{MAX_SECONDS}")
    s.add_argument("--resume", metavar="FILE",
                   help="continue a stopped run without losing or repeating a solution: enumerate "
                        "appends to its solutions file FILE; count records finished cubes in FILE")
    s.add_argument("--proof", metavar="FILE",
                   help="at the end, prove there is no further solution: DRAT proof to FILE, its "
                        "formula to FILE.cnf, checked (dratify; drat-trim too when on the PATH)")
    s.add_argument("--workers", type=workers_arg, metavar="N",
                   help=f"split the search into cubes and run them on N local processes (1 to "
                        f"{MAX_WORKERS})")
    s.add_argument("--dask", metavar="ADDRESS",
                   help="run the cubes on the Dask cluster whose scheduler is at ADDRESS")


def model_options(args: argparse.Namespace) -> dict[str, Any]:
    """The model options a user set, keyed as ``puzzle.problem`` expects them."""
    out = {}
    for _, opt in family_options():
        value = getattr(args, "model_" + opt.key, None)
        if value not in (None, False):
            out[opt.key] = value
    return out


def cmd_list(args: argparse.Namespace) -> int:
    for name, title in catalog.available():
        print(f"{name:28} {title}")
    return EXIT_FOUND


def cmd_info(args: argparse.Namespace) -> int:
    from .backends.cnf import CnfEncoder
    with stages(("placements", "model", "clause count")) as step:
        puzzle = catalog.load(args.name)
        facts = puzzle.info()
        step()
        # the sizes alone where the family can count them (half the time and memory of building
        # Eternity's model only to measure it; docs/decisions/2026-11-27-models-and-encodings.md)
        shape = puzzle.model_shape(**model_options(args))
        problem = puzzle.problem(**model_options(args)) if shape is None else shape
        step()
        if shape is None:
            n_vars, n_clauses = CnfEncoder(problem, args.amo).size()
        else:
            n_vars, n_clauses = CnfEncoder.shape_size(shape, args.amo)
    print(f"name          {puzzle.name}")
    if puzzle.title:
        print(f"title         {puzzle.title}")
    print(f"family        {puzzle.family}")
    for key, value in facts.items():
        print(f"{key:13} {value}")
    for key, value in problem.stats().items():
        print(f"{key:13} {value}")
    print(f"cnf ({args.amo})".ljust(13), f"{n_vars} variables, {n_clauses} clauses")
    return EXIT_FOUND


def cmd_encode(args: argparse.Namespace) -> int:
    from contextlib import nullcontext
    from .backends.formats import file_names
    data_path, note = file_names(args.format, args.output)
    if data_path:                          # -o NAME.mzn: the data beside it, checked as -o is
        check_writable(data_path)
        check_not_input(data_path, "-o", [args.name])
    with stages(("model",)):
        puzzle = catalog.load(args.name)
        export = model_export(args, puzzle)
    problem = export.problem
    if note:
        print(f"satiling: note: {note}", file=sys.stderr)
    with output_file(args.output) as out:
        if args.format == "dimacs":
            from .backends.cnf import CnfEncoder
            from .backends.dimacs import write_dimacs
            lines = 3 + len(problem.primary_vars()) + CnfEncoder(problem, args.amo).size()[1]
            with progress_lines(out, lines, "clauses") as counted:
                n_vars, n_clauses = write_dimacs(problem, counted, args.amo, options=export.options)
            print(f"satiling: {puzzle.name}: {n_vars} variables, {n_clauses} clauses", file=sys.stderr)
        else:
            from .backends.formats import write_model
            with output_file(data_path) if data_path else nullcontext() as data:
                sizes = write_model(args.format, export, out, args.amo or "pairwise", data)
            also = f" (data in {data_path})" if data_path else ""
            print(f"satiling: {puzzle.name}: {args.format}: {sizes}{also}", file=sys.stderr)
    return EXIT_FOUND


def model_export(args: argparse.Namespace, puzzle):
    """The model ``encode --format`` writes (and ``decode --format`` reads answers to), with its
    objective: the matching joins for ``--maximize-matches``, the placed pieces of a polyform
    board whose rules are ``at-most`` (dropped, as before, for formats without objectives).
    The model holds every rule, whatever the options ask for solving here (IQ-Link: the eager
    link rule), since the solver reading the file runs no lazy check of satiling's."""
    from .backends.dimacs import encode_command
    from .backends.formats import NO_OBJECTIVE
    from .backends.rows import Export, file_options
    options = file_options(puzzle, model_options(args))
    if args.maximize_matches:
        if not hasattr(puzzle, "match_problem"):
            raise SatilingError("--maximize-matches applies to edge-matching puzzles only")
        other = sorted(set(options) - {"hints"})
        if other:
            raise SatilingError(f"--maximize-matches does not take --{other[0].replace('_', '-')}")
        if args.format in NO_OBJECTIVE:
            raise SatilingError(f"--format {args.format} has no objective: --maximize-matches needs "
                                "wcnf, opb, cpsat, lp, lpsolve, mps, mzn or xcsp3")
        problem, soft = puzzle.match_problem(hints=bool(options.get("hints")))
        meaning, options = "joins that match", {**options, "maximize_matches": True}
    else:
        problem = puzzle.problem(**options)
        at_most = getattr(puzzle, "pieces_rule", "exact") == "at-most"
        soft = problem.primary_vars() if at_most and args.format not in NO_OBJECTIVE else []
        meaning = "pieces placed"
    if problem.lazy:
        raise SatilingError(f"{puzzle.name}: the model leaves rules to lazy checks, which a file "
                            "for another solver cannot hold")
    command = f"{encode_command(puzzle.name, args.amo or 'pairwise', options)} --format {args.format}"
    return Export(problem, soft, command, meaning, options=options)


#: ``solve --engine``; the old spellings ``--solver backtrack|walk|race|A+B`` and
#: ``--maximize-matches ENGINE`` still work, with a note naming the new one
SOLVE_ENGINES = tuple(dict.fromkeys(engine_names("solve") + engine_names("maximise")))
MAXIMISE_ENGINES = engine_names("maximise")[1:]


def solve_engine(args: argparse.Namespace) -> None:
    """Read the old spellings of ``--engine`` into ``args.engine`` and ``args.solver`` (the run
    checks the pair): ``--solver backtrack|walk|race|A+B`` and ``--maximize-matches ENGINE``.  An
    old spelling leaves a note in ``args.notes``, printed after the run (an error stays one line)."""
    engine, solver = args.engine, args.solver or "auto"
    if args.maximize_matches:
        old = args.maximize_matches
        if old != "auto":
            args.notes = [f"--maximize-matches {old} is now spelt --maximize-matches --engine {old}"]
            if engine not in ("auto", old):
                raise SatilingError(f"--maximize-matches {old} and --engine {engine}: choose one")
            args.engine = old
        if args.engine not in engine_names("maximise"):
            raise SatilingError(f"--engine {args.engine} does not maximise; with --maximize-matches "
                                f"choose {', '.join(engine_names('maximise')[1:])}")
        return
    if engine not in engine_names("solve"):
        raise SatilingError(f"--engine {engine} maximises matching joins: add --maximize-matches")
    named_engine = solver in ("backtrack", "walk", "race") or "+" in solver
    if named_engine and engine == "auto":
        new = "--engine race --solver " + solver if "+" in solver else f"--engine {solver}"
        args.notes = [f"--solver {solver} is now spelt {new}"]
        args.engine, args.solver = ("race", solver) if "+" in solver else (solver, "auto")
    else:
        args.solver = solver


def solve_request(args: argparse.Namespace, task: str):
    """The run ``solve`` asks for, from its options."""
    from .run import Request
    extra = {"fill_order": args.fill_order} if getattr(args, "fill_order", None) else {}
    if getattr(args, "start", None):
        extra["start_board"] = start_board(args.name, args.start)
    return Request(catalog.load(args.name), task, args.engine, args.solver, model_options(args),
                   workers=args.workers, dask=args.dask, threads=args.threads,
                   time_limit=args.time_limit, seed=args.seed, proof=args.proof,
                   source=args.name, extra=extra)


def start_board(name: str, path: str) -> list[Any]:
    """The board a maximisation continues from: a file ``satiling score`` reads."""
    from .families.edgematch import EdgeMatchPuzzle
    from .families.edgematch.board import parse_board
    puzzle = catalog.load(name)
    if not isinstance(puzzle, EdgeMatchPuzzle):
        raise SatilingError("--start continues an edge-matching maximisation")
    return puzzle.tiles(parse_board(puzzle, read_text(path, 4 << 20, what="board")))


def cmd_solve(args: argparse.Namespace) -> int:
    from .run import Stop, solve
    solve_engine(args)
    if args.maximize_matches:
        from .commands.edgematch import run_maximize
        req = solve_request(args, "maximise")
        return run_maximize(req, args.svg, args.json, args.best or f"{req.puzzle.name}-best.json")
    if args.best or args.start:
        raise SatilingError(f"--{'best' if args.best else 'start'} applies to --maximize-matches")
    req = solve_request(args, "solve")
    with waiting(f"solving {req.puzzle.name}"):
        answer = solve(req)
    if answer.engine == "argument":
        print(f"satiling: {req.puzzle.name}: no solution, {answer.how}", file=sys.stderr)
        print("no solution")
        return EXIT_NONE
    if answer.proof is not None:
        print(f"satiling: {req.puzzle.name}: UNSAT in {answer.seconds:.2f} s; {answer.how}",
              file=sys.stderr)
        print("no solution")
        return EXIT_NONE if answer.proof.verified else EXIT_ERROR
    verdict = "SAT" if answer.solution else ("UNKNOWN" if answer.stop is Stop.TIME else "UNSAT")
    how = f"{BACKTRACK} in {answer.seconds:.2f} s ({answer.how})" if answer.engine == BACKTRACK \
        else f"{answer.how} in {answer.seconds:.2f} s"
    print(f"satiling: {req.puzzle.name}: {verdict} by {how}", file=sys.stderr)
    if answer.stop is Stop.TIME:
        return EXIT_TIMEOUT
    if answer.solution is None:
        print("no solution")
        return EXIT_NONE
    show(req.puzzle, answer.solution, args.svg, as_json=args.json)
    return EXIT_FOUND


def count_request(args: argparse.Namespace, task: str):
    """The run ``count`` or ``enumerate`` asks for, from its options."""
    from .run import Request
    return Request(catalog.load(args.name), task, args.engine, args.solver, model_options(args),
                   raw=args.raw, symmetry=args.symmetry,
                   symmetry_breaking=not args.no_symmetry_breaking, workers=args.workers,
                   dask=getattr(args, "dask", None), time_limit=args.time_limit,
                   limit=getattr(args, "limit", None), proof=args.proof, resume=args.resume,
                   out=getattr(args, "out", None), source=args.name)


def cmd_count(args: argparse.Namespace) -> int:
    from .run import Events, count
    req = count_request(args, "count")
    with progress(args, "counting") as bar:
        answer = count(req, Events(found=bar.update, work=bar.work))
    if answer.ruled_out is not None:
        print(f"satiling: {req.puzzle.name}: no solution, proved before any search: {answer.ruled_out}",
              file=sys.stderr)
        print(0)
        return EXIT_NONE
    if not answer.stop.complete:
        print(f"satiling: {_stopped(answer.stop)}: {answer.total} solutions so far, the count is not "
              f"complete (partial){_continue_hint(args, answer)}", file=sys.stderr)
        return _stop_exit(answer.stop)
    print(answer.total)
    if req.raw and answer.found == answer.total:
        print(f"satiling: {answer.total} solutions in {answer.classes} symmetry classes", file=sys.stderr)
    say_group(args, answer.group, answer.group_order)
    if answer.proof is not None:
        print(f"satiling: no solution beyond these: {answer.proof.summary()}", file=sys.stderr)
        if not answer.proof.verified:
            return EXIT_ERROR
    return EXIT_FOUND if answer.total else EXIT_NONE


def _stopped(stop: Any) -> str:
    """How the CLI has always named a stop on stderr."""
    return "time limit" if stop.value == "time" else stop.value


def _stop_exit(stop: Any) -> int:
    return EXIT_TIMEOUT if stop.value == "time" else exit_code(reason=stop.value)


def _continue_hint(args: argparse.Namespace, answer: Any) -> str:
    """Where a stopped count's work is and the command that goes on with it: this command with
    ``--resume FILE`` (the run's own file, or the checkpoint written for it), without its
    ``--time-limit``."""
    path = args.resume or answer.checkpoint
    if path is None and not answer.finished_any:
        return "; nothing was searched yet to keep"
    if path is None:
        return "; its finished parts could not be kept (no writable cache or current folder)"
    kept = "" if args.resume else f"; its work is kept in {path}"
    argv, skip = [], False
    for word in args.argv:
        if skip or word.startswith("--time-limit=") or word.startswith("--resume="):
            skip = False
            continue
        if word in ("--time-limit", "--resume"):
            skip = True
            continue
        argv.append(word)
    return f"{kept}; continue with: {shlex.join(['satiling', *argv, '--resume', path])}"


def cmd_enumerate(args: argparse.Namespace) -> int:
    from .run import Events, enumerate_solutions
    req = count_request(args, "enumerate")
    path = args.resume or args.out

    pictures = path is None and not args.json and sys.stdout.isatty()

    def write(solution: list[Any]) -> None:
        if pictures:                      # a person at a terminal: the solution drawn
            show(req.puzzle, solution)
            print(flush=True)
        elif path is None:
            print(solution_json(req.puzzle, solution), flush=True)

    with progress(args, "solutions") as bar:
        answer = enumerate_solutions(req, Events(found=bar.update, solution=write, work=bar.work))
    if answer.torn:
        print(f"satiling: {args.resume}: dropped an incomplete last line", file=sys.stderr)
    if answer.ruled_out is not None:
        print(f"satiling: {req.puzzle.name}: no solution, proved before any search: {answer.ruled_out}",
              file=sys.stderr)
        return EXIT_NONE
    if not answer.stop.complete:
        where = f" ({answer.total} in {path}); continue with --resume {path}" if path else ""
        print(f"satiling: {_stopped(answer.stop)}: stopped after {answer.found} solutions{where}",
              file=sys.stderr)
        return _stop_exit(answer.stop)
    if answer.proof is not None:
        print(f"satiling: no solution beyond these {answer.total}: {answer.proof.summary()}",
              file=sys.stderr)
        if not answer.proof.verified:
            return EXIT_ERROR
    say_group(args, answer.group, answer.group_order)
    return EXIT_FOUND if answer.total else EXIT_NONE


def say_group(args: argparse.Namespace, group: str, order: int) -> None:
    """Name on stderr the group the solutions were counted up to, with its order: a count
    means nothing without it (Soma's cube: 240, 480 or 11520)."""
    from .search.symmetry import group_name
    print(f"satiling: {group_name(group, order)}", file=sys.stderr)


def cmd_decode(args: argparse.Namespace) -> int:
    """A solver's model: 0 and a picture for a solution; 1 for a consistent partial model (the
    board so far, for edge matching); 2 for a contradictory one, or a complete model that breaks
    a clause of the formula; 3 when the solver gave up.  Other formats: :func:`decode_answer`."""
    from .backends.dimacs import Formula
    puzzle = catalog.load(args.name)
    if args.format != "dimacs" or args.maximize_matches:
        return decode_answer(args, puzzle)
    text = read_text(args.output, DECODE_LIMIT, what="solver output")
    if not args.cnf:                      # a verdict without a model needs no formula: at once
        verdict = _bare_verdict(text)
        if verdict is not None:
            return verdict
    formula = Formula.from_args(puzzle, model_options(args), args.amo, args.cnf)
    problem = formula.problem
    if len(text) > 64 + 16 * formula.variables + (1 << 20):
        raise SatilingError(f"{args.output}: too large for the solver output of a formula of "
                            f"{formula.variables} variables")
    try:
        out = formula.read_model(text)
    except SatilingError as e:            # name the file the message is about
        raise SatilingError(f"{'stdin' if args.output == '-' else args.output}: {e}") from None
    if out.status == "UNSATISFIABLE":
        print("no solution")
        return EXIT_NONE
    true = frozenset(v for v in out.true_vars if v <= problem.num_vars and problem.primary[v])
    if not true and out.status == "UNKNOWN":      # interrupted with nothing placed: no answer
        print("satiling: the solver gave no answer", file=sys.stderr)
        return EXIT_TIMEOUT
    if not true and not out.complete:     # complete, it kept every clause: the empty packing
        raise SatilingError(f"the solver output sets none of the {len(problem.primary_vars())} "
                            f"placement variables of {puzzle.name} true")
    solution = problem.decode(true)
    try:
        puzzle.verify(solution)
    except VerificationError as e:
        puzzle.check_partial(problem, true)       # contradictory: SatilingError, exit 2
        if puzzle.family == "edgematch":
            from .commands.edgematch import show_partial
            show_partial(puzzle, solution, str(e), args.svg)
        else:
            n = len(solution)
            print(f"satiling: partial model: {n} placement{'s' * (n != 1)} set true; not a "
                  f"complete solution ({e})", file=sys.stderr)
        return EXIT_NONE
    show(puzzle, solution, args.svg)
    return EXIT_FOUND


#: the largest solver output ``decode`` reads before it knows the formula (then: 16 bytes a variable)
DECODE_LIMIT = 1 << 30


def _bare_verdict(text: str) -> int | None:
    """The exit code of an output that gives no literal at all: "no solution" (1) or no answer
    (3), by the one table of :mod:`satiling.backends.answers`; None when there is a model to
    check, or the output is malformed (the full check says)."""
    from .backends.answers import verdict_exit
    from .backends.dimacs import read_solver_output
    try:
        out = read_solver_output(text, None)
    except SatilingError:
        return None
    code = verdict_exit(out.status, out.literals)
    if code == EXIT_NONE:
        print("no solution")
    elif code == EXIT_TIMEOUT:
        print("satiling: the solver gave no answer", file=sys.stderr)
    return code


def decode_answer(args: argparse.Namespace, puzzle) -> int:
    """``decode --format F``: the answer read in its solver family's words, complete and keeping
    every constraint of the model, else refused in one line (exit 2); 0 and the picture for a
    solution (for ``--maximize-matches``, the full board and its score); 1 when the solver says
    there is none; 3 when it gave no answer (the table of :mod:`satiling.backends.answers`)."""
    from .backends.answers import checked, read_answer, verdict_exit
    if args.cnf:
        raise SatilingError("--cnf is for --format dimacs")
    export = model_export(args, puzzle)
    problem = export.problem
    key, clauses = answer_key(args.format, export, args.amo or "pairwise")
    where = "stdin" if args.output == "-" else args.output
    text = read_text(args.output, 4096 + 64 * key.variables + (1 << 20), what="solver output")
    try:
        answer = read_answer(args.format, text, key)
        code = verdict_exit(answer.status, len(answer.values), key.variables)
        if code == EXIT_NONE:
            print("no solution")
        elif code == EXIT_TIMEOUT:
            print("satiling: the solver gave no answer", file=sys.stderr)
        if code is not None:
            return code
        true = checked(problem, answer, key.variables, clauses)
    except SatilingError as e:            # name the file the message is about
        raise SatilingError(f"{where}: {e}") from None
    solution = problem.decode(v for v in true if problem.primary[v])
    if args.maximize_matches:
        from .commands.edgematch import print_board
        s = print_board(puzzle, puzzle.board_from(solution), args.svg)
        print(f"satiling: {puzzle.name}: a full board, score {s.matched}/{s.joins} (counted from "
              "the pieces)", file=sys.stderr)
        return EXIT_FOUND
    try:
        puzzle.verify(solution)
    except VerificationError as e:        # the model's constraints hold, the puzzle's do not
        raise SatilingError(f"{where}: not a solution of {puzzle.name}: {e}") from None
    if export.soft:
        print(f"satiling: {puzzle.name}: {len(solution)} pieces placed", file=sys.stderr)
    show(puzzle, solution, args.svg)
    return EXIT_FOUND


def answer_key(fmt: str, export, amo: str):
    """What the reader of ``fmt`` needs to know of the model, and the clauses an answer is held
    to (WCNF: the hard clauses, auxiliary variables and all; else None: the model's own)."""
    from .backends.answers import AnswerKey
    problem = export.problem
    if fmt == "wcnf":
        from .backends.cnf import CnfEncoder
        return (AnswerKey(CnfEncoder(problem, amo).size()[0]),
                lambda: CnfEncoder(problem, amo).clauses())
    if fmt in ("lp", "lpsolve", "mps"):
        from .backends.lp import var_name
        names = {var_name(problem, v, strict): v for strict in (False, True)
                 for v in range(1, problem.num_vars + 1)}
        return AnswerKey(problem.num_vars, names=names), None
    if fmt == "xcc":
        from .backends.xcc import xcc_matrix
        return AnswerKey(problem.num_vars, options=xcc_matrix(problem).lookup()), None
    return AnswerKey(problem.num_vars), None


def cmd_verify(args: argparse.Namespace) -> int:
    puzzle = catalog.load(args.name)
    n = 0
    for n, solution in enumerate(read_solutions(puzzle, args.solutions), 1):
        try:
            puzzle.verify(solution)
        except VerificationError as e:
            print(f"satiling: solution {n} is wrong: {e}", file=sys.stderr)
            return EXIT_NONE
    # a file with no solutions (an enumerate that found none) is not an error: 0 verified
    print(f"{n} solution{'s' if n != 1 else ''} verified")
    return EXIT_FOUND


def cmd_render(args: argparse.Namespace) -> int:
    """Draw solution ``--index N`` of the file (default the first; every one with ``--all``).  An
    edge-matching board that breaks joins (``--maximize-matches``) is drawn with its score, exit 1."""
    puzzle = catalog.load(args.name)
    if args.index < 1:
        raise SatilingError("--index counts from 1")
    if args.all and args.svg:
        return _render_all_svg(puzzle, args)
    if puzzle.family == "edgematch" and _is_text_board(args.solution):
        return _render_board(puzzle, args)
    n = 0
    for n, solution in enumerate(read_solutions(puzzle, args.solution), 1):
        if args.all and n > 1:
            print()                       # one blank line between two pictures
        if args.all or n == args.index:
            code = _render_one(puzzle, solution, args.svg)
            if not args.all:
                return code
    if n == 0:
        raise SatilingError(f"{args.solution}: no solution in the file")
    if not args.all:
        raise SatilingError(f"{args.solution}: --index {args.index}, but the file holds {n} solution"
                            f"{'s' * (n != 1)}")
    print(f"satiling: drew {n} solution{'s' * (n != 1)}", file=sys.stderr)
    return EXIT_FOUND


def _svg_folder(path: str) -> bool:
    return path.endswith("/") or os.path.isdir(path)


def _render_all_svg(puzzle, args: argparse.Namespace) -> int:
    """Every solution of the file, verified, as SVG: one page, or one file each in a folder."""
    from .fileio import write_files
    from .render import gallery, pictures
    svgs = []
    for solution in read_solutions(puzzle, args.solution):
        puzzle.verify(solution)
        svgs.append(pictures.solution_svg(puzzle, solution))
    if not svgs:
        raise SatilingError(f"{args.solution}: no solution in the file")
    if _svg_folder(args.svg):
        os.makedirs(args.svg, exist_ok=True)
        write_files(gallery.folder_files(svgs, args.svg))
        where = f"{len(svgs)} files in {args.svg}"
    else:
        from .fileio import write_file
        write_file(args.svg, gallery.page(svgs))
        where = args.svg
    print(f"satiling: drew {len(svgs)} solution{'s' * (len(svgs) != 1)} to {where}", file=sys.stderr)
    return EXIT_FOUND


def _is_text_board(path: str) -> bool:
    """A board as ``solve --maximize-matches`` prints it and ``score`` reads it (not JSON)."""
    if path == "-":
        return False
    try:
        with open(path, "rb") as f:
            head = f.read(256).lstrip()
    except OSError:
        return False                       # read_solutions says what is wrong with the file
    return bool(head) and not head.startswith((b"{", b"["))


def _render_board(puzzle, args: argparse.Namespace) -> int:
    """A text board drawn as ``score`` draws it: 0 when it solves the puzzle, else 1 (its score
    says how far it goes)."""
    from .commands.edgematch import print_board
    from .families.edgematch.score import parse_board
    if args.index != 1 or args.all:
        raise SatilingError(f"{args.solution} is one board: --index and --all are for JSON lines")
    board = parse_board(puzzle, read_text(args.solution, 4 << 20, what="board"))
    s = print_board(puzzle, board, args.svg)
    if args.svg:
        print(f"satiling: wrote {args.svg}", file=sys.stderr)
    return EXIT_FOUND if s.matched == s.joins and s.placed == s.squares else EXIT_NONE


def _render_one(puzzle, solution: list[Any], svg: str | None) -> int:
    try:
        puzzle.verify(solution)
    except VerificationError as e:
        if puzzle.family != "edgematch":
            raise
        from .commands.edgematch import show_partial
        show_partial(puzzle, solution, str(e), svg)
        return EXIT_NONE
    show(puzzle, solution, svg)
    return EXIT_FOUND


# -- helpers --------------------------------------------------------------------------------------
class progress:
    """A tqdm bar on stderr, silent when stderr is not a terminal: solutions found and, when the
    search reports it (``work``), the part of its estimated tree done and the time left
    (:mod:`satiling.search.timeleft`: the whole run's pace, smoothed, not tqdm's recent rate)."""

    def __init__(self, args: argparse.Namespace, unit: str) -> None:
        self.disable = True if getattr(args, "quiet", False) else None
        self.unit = unit
        self.found = 0

    def __enter__(self) -> "progress":
        from tqdm import tqdm
        from .search.timeleft import TimeLeft
        self.bar = tqdm(unit=" sol", desc=self.unit, file=sys.stderr, disable=self.disable,
                        mininterval=0.5)
        self.start = self.shown = time.perf_counter()
        self.left = TimeLeft(self.start)
        return self

    def update(self, n: int) -> None:
        """``n`` more solutions (a resumed run first tells those of the runs before it)."""
        self.found += n
        if self.bar.total is None:
            self.bar.update(n)
        else:
            self.bar.set_description_str(f"{self.unit}: {self.found} sol", refresh=False)
            self._refresh()

    def work(self, fraction: float, finished: float | None = None) -> None:
        """The part of the search done (Knuth's estimate of the tree), and the part in finished
        cubes: the bar's position and the time left."""
        from .search.timeleft import clock
        if self.bar.total is None:
            self.bar.reset(total=100)
            self.bar.bar_format = "{desc} {percentage:3.0f}%|{bar}| {elapsed} elapsed{postfix}"
            self.bar.set_description_str(f"{self.unit}: {self.found} sol", refresh=False)
        self.bar.n = 100 * fraction
        left = self.left.update(time.perf_counter(), fraction, finished)
        self.bar.set_postfix_str(f"about {clock(left)} left" if left is not None else "", refresh=False)
        self._refresh()

    def _refresh(self) -> None:
        """Redraw at most twice a second (tqdm's own pacing skipped updates of a fraction that
        moved by less than its last step: the bar froze after a resume)."""
        now = time.perf_counter()
        if now - self.shown >= 0.5:
            self.shown = now
            self.bar.refresh()

    def __exit__(self, *exc) -> None:
        self.bar.close()


@contextmanager
def waiting(what: str) -> Iterator[None]:
    """A line on stderr that counts the seconds of a step with no measure of its own (a solver's
    search), refreshed twice a second; silent when stderr is not a terminal."""
    import threading
    from tqdm import tqdm
    bar = tqdm(desc=what, file=sys.stderr, disable=None, bar_format="{desc}: {elapsed}", leave=False)
    done = threading.Event()

    def tick() -> None:
        while not done.wait(0.5):
            bar.refresh()

    ticker = threading.Thread(target=tick, daemon=True)
    if not bar.disable:
        ticker.start()
    try:
        yield
    finally:
        done.set()
        bar.close()


@contextmanager
def stages(names: Sequence[str]) -> Iterator[Callable[[], None]]:
    """A bar over the stages of one long command (``info eternity``: placements, model, clause
    count); ``step()`` ends a stage.  On stderr, silent when it is not a terminal."""
    from tqdm import tqdm
    bar = tqdm(total=len(names), desc=names[0], unit=" stage", file=sys.stderr, disable=None,
               mininterval=0.5, bar_format="{desc}: {n}/{total} stages [{elapsed}<{remaining}]")
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        bar.update(1)
        if done < len(names):
            bar.set_description_str(names[done])

    try:
        yield step
    finally:
        bar.close()


class _CountingWriter:
    """A text stream that counts the lines written through it into a progress bar."""

    def __init__(self, out: TextIO, bar) -> None:
        self.out, self.bar = out, bar

    def write(self, text: str) -> int:
        self.bar.update(text.count("\n"))
        return self.out.write(text)


@contextmanager
def progress_lines(out: TextIO, total: int, unit: str) -> Iterator[TextIO]:
    """``out`` with a bar of lines written (total known: rate and time left), on stderr when it is
    a terminal."""
    from tqdm import tqdm
    bar = tqdm(total=total, unit=f" {unit}", unit_scale=True, file=sys.stderr, disable=None,
               mininterval=0.5, desc="writing")
    try:
        yield _CountingWriter(out, bar) if not bar.disable else out
    finally:
        bar.close()


def _version() -> str:
    from . import __version__
    return __version__


if __name__ == "__main__":
    sys.exit(main())
