"""``solve``, ``count`` and ``enumerate``: each builds one request for the run (:mod:`satiling.run`)
from its options and prints what comes back.
"""
from __future__ import annotations

import argparse
import json
import shlex
import sys
from typing import Any

from .. import catalog
from ..errors import SatilingError
from ..commands.common import (EXIT_ERROR, EXIT_FOUND, EXIT_NONE, EXIT_TIMEOUT, show,
                               solution_json)
from ..engines.table import solver_spellings
from ..run.engines import names as engine_names
from .args import model_options
from .progress import progress, waiting


#: ``solve --engine``; the old spellings ``--solver ENGINE|A+B`` (the engine table's rows with
#: ``solver_spelling``) and
#: ``--maximize-matches ENGINE`` still work, with a note naming the new one
SOLVE_ENGINES = tuple(dict.fromkeys(engine_names("solve") + engine_names("maximise")))
MAXIMISE_ENGINES = engine_names("maximise")[1:]


def solve_engine(args: argparse.Namespace) -> None:
    """Read the old spellings of ``--engine`` into ``args.engine`` and ``args.solver`` (the run
    checks the pair): ``--solver ENGINE|A+B`` and ``--maximize-matches ENGINE``.  An
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
    named_engine = solver in solver_spellings() or "+" in solver
    if named_engine and engine == "auto":
        new = "--engine race --solver " + solver if "+" in solver else f"--engine {solver}"
        args.notes = [f"--solver {solver} is now spelt {new}"]
        args.engine, args.solver = ("race", solver) if "+" in solver else (solver, "auto")
    else:
        args.solver = solver


def no_solution(name: str, as_json: bool) -> None:
    """stdout's answer when there is none: the words, or with ``--json`` the shape of a solution's
    JSON with no placements."""
    if as_json:
        print(json.dumps({"puzzle": name, "placements": None}, separators=(",", ":")))
    else:
        print("no solution")


def solve_request(args: argparse.Namespace, task: str):
    """The run ``solve`` asks for, from its options."""
    from ..run import Request
    extra = {"fill_order": args.fill_order} if getattr(args, "fill_order", None) else {}
    if getattr(args, "start", None):
        extra["start_board"] = start_board(args.name, args.start)
    return Request(catalog.load(args.name), task, args.engine, args.solver, model_options(args),
                   workers=args.workers, dask=args.dask, threads=args.threads,
                   time_limit=args.time_limit, node_limit=args.node_limit, seed=args.seed,
                   proof=args.proof, source=args.name, extra=extra)


def start_board(name: str, path: str) -> list[Any]:
    """The board a maximisation continues from: a file ``satiling score`` reads."""
    from ..commands.edgematch import full_board
    from ..families.edgematch import EdgeMatchPuzzle
    puzzle = catalog.load(name)
    if not isinstance(puzzle, EdgeMatchPuzzle):
        raise SatilingError("--start continues an edge-matching maximisation")
    try:                                  # a full board, before any file is made
        return full_board(puzzle, path)[0]
    except SatilingError as e:
        raise SatilingError(f"--start {e}") from None


def cmd_solve(args: argparse.Namespace) -> int:
    from ..run import Stop, solve
    solve_engine(args)
    if args.maximize_matches:
        from ..commands.edgematch import run_maximize
        req = solve_request(args, "maximise")
        return run_maximize(req, args.svg, args.json, args.best or f"{req.puzzle.name}-best.json",
                            png=args.png)
    if args.best or args.start:
        raise SatilingError(f"--{'best' if args.best else 'start'} applies to --maximize-matches")
    req = solve_request(args, "solve")
    with waiting(f"solving {req.puzzle.name}"):
        answer = solve(req)
    if answer.engine == "argument":
        print(f"satiling: {req.puzzle.name}: no solution, {answer.how}", file=sys.stderr)
        no_solution(req.puzzle.name, args.json)
        return EXIT_NONE
    if answer.proof is not None:
        print(f"satiling: {req.puzzle.name}: no solution, proved in {answer.seconds:.2f} s; {answer.how}",
              file=sys.stderr)
        no_solution(req.puzzle.name, args.json)
        return EXIT_NONE if answer.proof.verified else EXIT_ERROR
    gave_up = answer.stop in (Stop.TIME, Stop.NODES)
    # in words a newcomer reads (the solver's own SAT / UNSAT / UNKNOWN stay in the files)
    verdict = "solved" if answer.solution is not None else (     # [] solves an at-most puzzle
        f"no answer within the {'node' if answer.stop is Stop.NODES else 'time'} limit" if gave_up
        else "no solution, proved")
    how = f"{answer.how} in {answer.seconds:.2f} s"
    print(f"satiling: {req.puzzle.name}: {verdict} by {how}", file=sys.stderr)
    if gave_up:
        return EXIT_TIMEOUT
    if answer.solution is None:
        no_solution(req.puzzle.name, args.json)
        return EXIT_NONE
    show(req.puzzle, answer.solution, args.svg, as_json=args.json, png=args.png)
    return EXIT_FOUND


def count_request(args: argparse.Namespace, task: str):
    """The run ``count`` or ``enumerate`` asks for, from its options."""
    from ..run import Request
    return Request(catalog.load(args.name), task, args.engine, args.solver, model_options(args),
                   raw=args.raw, symmetry=args.symmetry,
                   symmetry_breaking=not args.no_symmetry_breaking, workers=args.workers,
                   dask=getattr(args, "dask", None), time_limit=args.time_limit,
                   limit=getattr(args, "limit", None), proof=args.proof, resume=args.resume,
                   out=getattr(args, "out", None), source=args.name)


def cmd_count(args: argparse.Namespace) -> int:
    from ..run import Events, count
    req = count_request(args, "count")
    with progress(args, "counting") as bar:
        answer = count(req, Events(found=bar.update, work=bar.work))
    if answer.ruled_out is not None:
        print(f"satiling: {req.puzzle.name}: no solution, proved before any search: {answer.ruled_out}",
              file=sys.stderr)
        print(0)
        return EXIT_NONE
    if not answer.stop.complete:
        print(f"satiling: {answer.stop.said}: {answer.total} solutions so far, the count is not "
              f"complete (partial){_continue_hint(args, answer)}", file=sys.stderr)
        return answer.stop.exit_code
    print(answer.total)
    if req.raw and answer.found == answer.total:
        print(f"satiling: {answer.total} solution{'s' * (answer.total != 1)} in {answer.classes} "
              f"symmetry class{'es' * (answer.classes != 1)}", file=sys.stderr)
    say_group(args, answer.group, answer.group_order)
    if answer.proof_stop is not None:
        return _proof_stopped(answer)
    if answer.proof is not None:
        print(f"satiling: no solution beyond these: {answer.proof.summary()}", file=sys.stderr)
        if not answer.proof.verified:
            return EXIT_ERROR
    return EXIT_FOUND if answer.total else EXIT_NONE


def _proof_stopped(answer: Any) -> int:
    """The count is complete, its proof stopped before it was checked."""
    from pathlib import Path
    proof = answer.proof.proof
    if Path(proof).is_file() and Path(f"{proof}.cnf").is_file():
        then = f"its files are checked by 'satiling check-proof {proof}.cnf {proof}'"
    else:                                 # stopped before the solver wrote them
        then = "no proof file was written: count again with --proof for one"
    print(f"satiling: {answer.proof_stop.said}: the count is complete; its proof was stopped "
          f"before it was checked ({then})", file=sys.stderr)
    return answer.proof_stop.exit_code


def _continue_hint(args: argparse.Namespace, answer: Any) -> str:
    """Where a stopped count's work is and the command that goes on with it: this command with
    ``--resume FILE`` (the run's own file, or the checkpoint written for it), without its
    ``--time-limit``."""
    path = args.resume or answer.checkpoint
    on_workers = (getattr(args, "workers", None) or 1) > 1 or getattr(args, "dask", None)
    if on_workers and not answer.finished_any:
        # workers keep whole cubes only: the same limit again would search the same cubes again
        return ("; the workers finished no cube in this run and keep only whole ones: go on with a "
                "longer --time-limit, or in one process (without --workers / --dask), which keeps "
                "the part of a cube it searched")
    if path is None and not answer.finished_any:
        return "; nothing was searched yet to keep"
    if path is None:
        return "; its finished parts could not be kept (no writable cache or current folder)"
    kept = "" if args.resume else f"; its work is kept in {path}"
    if answer.recounted:            # counted past the last place the search recorded
        kept += f"; all but the last {answer.recounted} of them kept (a resumed count finds those again)"
    argv, skip = [], False
    for word in args.argv:            # (a proof needs every solution of one run: not resumed)
        if skip or word.startswith(("--time-limit=", "--resume=", "--proof=")):
            skip = False
            continue
        if word in ("--time-limit", "--resume", "--proof"):
            skip = True
            continue
        argv.append(word)
    return f"{kept}; continue with: {shlex.join(['satiling', *argv, '--resume', path])}"


def cmd_enumerate(args: argparse.Namespace) -> int:
    from ..run import Events, enumerate_solutions
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
        if path and not answer.finished_any:
            # a resume starts at the cube of the last solution: the same limit would stop again
            where += (" and give it longer (this run finished no cube of the search: a resume "
                      "starts where it did)")
        print(f"satiling: {answer.stop.said}: stopped after {answer.found} solutions{where}",
              file=sys.stderr)
        return answer.stop.exit_code
    if answer.proof_stop is not None:
        say_group(args, answer.group, answer.group_order)
        return _proof_stopped(answer)
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
    from ..search.symmetry import group_name
    print(f"satiling: {group_name(group, order)}", file=sys.stderr)
