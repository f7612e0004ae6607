"""``solve``, ``count`` and ``enumerate`` of an edge-matching puzzle by the backtracking engine.

The puzzle becomes the engine's boards and the engine's boards become tiles in
:mod:`satiling.search.edgeboards` (the API uses the same bridge); every board printed here has
passed ``puzzle.verify``.  Which models it takes (no model option but ``--hints``; see the table
there) is decided by :mod:`satiling.search.router`.

    satiling solve clue1                          # the backtracker by default
    satiling count gen6.toml --workers 2          # jobs split by prefix, on local processes
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import Any, Callable

from ..exits import EXIT_FOUND, EXIT_NONE, EXIT_TIMEOUT
from ..families.edgematch import EdgeMatchPuzzle
from ..search.edgeboards import edge_boards, symmetry_order, tiles

NAME = "backtrack"
#: ``solve --workers``: below this estimated tree (a few seconds of search) one process answers
#: sooner than starting workers and splitting the tree (about a second)
JOBS_ABOVE = 2e8


# -- solve -------------------------------------------------------------------------------------
def run_solve(puzzle: EdgeMatchPuzzle, options: dict[str, Any], args: argparse.Namespace,
              show: Callable[..., None]) -> int:
    """One board, verified and given to ``show(puzzle, solution, svg, as_json=...)``; exit 0
    found, 1 none, 3 time limit."""
    from ..engines.edgematch import race, solve_engines
    start = time.perf_counter()
    (board,) = edge_boards(puzzle, bool(options.get("hints")), distinct=False)
    engines, jobs = solve_engines(board), 0
    if splitting(args):
        placed, status, jobs = _solve_in_jobs(engines, args)
    else:
        placed, status, engines = race(board, args.time_limit, engines, seed=getattr(args, "seed", None))
    took = time.perf_counter() - start
    verdict = "SAT" if placed else ("UNKNOWN" if status == "time limit" else "UNSAT")
    first = engines[0].board
    how = f"{first.order} order, {first.values} value order" if len(engines) == 1 else \
        f"{len(engines)} orders in turn: {', '.join(f'{e.board.order} {e.nodes}' for e in engines)} nodes"
    if jobs:
        how += f"; {jobs} jobs on " + (f"{args.workers} workers" if not args.dask else "the Dask cluster")
    print(f"satiling: {puzzle.name}: {verdict} by {NAME} in {took:.2f} s ({how})", file=sys.stderr)
    if not placed:
        if verdict == "UNKNOWN":
            return EXIT_TIMEOUT
        print("no solution")
        return EXIT_NONE
    solution = tiles(placed)
    puzzle.verify(solution)
    show(puzzle, solution, args.svg, as_json=args.json)
    return EXIT_FOUND


def _runs(jobs: list, workers: int | None) -> list[list]:
    """The jobs cut into runs, a task each (about eight per worker): a worker sets the engine up
    once per task, and a task is small enough to spread the tree's uneven parts."""
    size = max(1, len(jobs) // (8 * (workers or 8)))
    return [jobs[i:i + size] for i in range(0, len(jobs), size)]


def splitting(args: argparse.Namespace) -> bool:
    """Whether ``--workers`` / ``--dask`` ask for the search split into jobs."""
    return (args.workers or 1) > 1 or bool(args.dask)


def _solve_in_jobs(engines: list, args: argparse.Namespace) -> tuple[list | None, str, int]:
    """One solution by ``--workers`` processes or a ``--dask`` cluster: the search of the first
    engine split into prefix jobs, queued in search order; the first job to meet a solution wins
    and the rest are stopped.  A small tree (below :data:`JOBS_ABOVE` nodes) or a race of orders
    (billions of solutions, where any order finds one at once) runs here instead.
    Returns (solution or None, "limit" / "exhausted" / "time limit", jobs made)."""
    import concurrent.futures as cf
    from ..engines.edgematch import ORDER_PROBES, race, run_jobs, split
    from ..search.cubes import executor, stop
    if len(engines) > 1 or engines[0].estimate(probes=ORDER_PROBES) < JOBS_ABOVE:
        placed, status, _ = race(engines[0].board, args.time_limit, engines, seed=getattr(args, "seed", None))
        return placed, status, 0
    deadline = None if args.time_limit is None else time.monotonic() + args.time_limit
    jobs = [p for p, _ in split(engines[0])]
    chunks = _runs(jobs, args.workers)
    with executor(args.workers, args.dask) as ex:
        futures = [ex.submit(run_jobs, engines[0].board, c, args.time_limit, True, 1) for c in chunks]
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        try:
            for f in cf.as_completed(futures, left):
                result = f.result()[-1]              # a task stops at its first solution
                if result.boards or result.status == "time limit":
                    stop(ex)
                    return (result.boards[0] if result.boards else None), result.status, len(jobs)
        except cf.TimeoutError:
            stop(ex)
            return None, "time limit", len(jobs)
    return None, "exhausted", len(jobs)


# -- count and enumerate -------------------------------------------------------------------------
def _jobs(boards: list, args: argparse.Namespace, on_solution: Callable[[list], None] | None,
          on_result: Callable[[Any], None]) -> str:
    """Search every board: here, streaming each solution to ``on_solution``; or split into prefix
    jobs for ``--workers`` / ``--dask``, whose solutions come back per job, in search order.
    ``on_result`` sees each job's counts.  Returns "" (done) or "time limit"."""
    from ..engines.edgematch import Engine, JobResult
    from ..search.cubes import executor
    deadline = None if args.time_limit is None else time.monotonic() + args.time_limit
    parallel = bool(args.workers and args.workers > 1) or bool(args.dask)
    keep = on_solution is not None
    with executor(args.workers, args.dask) as ex:
        for board in boards:
            engine = Engine(board)
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not parallel:
                status = engine.solutions(seconds=left, on_solution=on_solution)
                results = [JobResult((), engine.search.solutions, engine.nodes, 0.0, status)]
            else:
                results = _parallel(ex, engine, args, left, keep)
                for r in results:
                    for placed in r.boards or ():
                        on_solution(placed)  # type: ignore[misc]
            for r in results:
                on_result(r)
            if any(r.status == "time limit" for r in results):
                return "time limit"
    return ""


def _parallel(ex: Any, engine: Any, args: argparse.Namespace, seconds: float | None,
              keep: bool) -> list:
    """The engine's search split into prefix jobs, run in chunks on the executor; the results in
    search order.  Progress on a terminal: the share of the estimated tree done, the time left."""
    import concurrent.futures as cf
    from ..engines.edgematch import run_jobs, split
    jobs = split(engine)
    chunks = _runs(jobs, args.workers)
    # the workers get the order chosen here, which the prefixes refer to
    futures = {ex.submit(run_jobs, engine.board, [p for p, _ in c], seconds, keep): i
               for i, c in enumerate(chunks)}
    total = sum(e for _, e in jobs)
    show = sys.stderr.isatty() and not args.quiet
    start, done, got = time.monotonic(), 0.0, {}
    for f in cf.as_completed(futures):
        i = futures[f]
        got[i] = f.result()
        done += sum(e for _, e in chunks[i])
        if show:
            took = time.monotonic() - start
            print(f"\rsatiling: {100 * done / total:5.1f}% of the estimated tree, about "
                  f"{took * (total - done) / done:.0f} s left ", end="", file=sys.stderr, flush=True)
    if show:
        print(file=sys.stderr)
    return [r for i in range(len(chunks)) for r in got[i]]


def run_count(puzzle: EdgeMatchPuzzle, options: dict[str, Any], args: argparse.Namespace) -> int:
    """The number of solutions on stdout (exit 0, or 1 for none); a partial count on stderr on a
    time limit (exit 3) or an interrupt (130 / 143)."""
    from ..signals import exit_code
    hints = bool(options.get("hints"))
    order = symmetry_order(puzzle, hints)
    distinct = not args.raw and order > 1
    total = [0, 0]                                 # solutions, nodes
    boards = edge_boards(puzzle, hints, distinct and not args.no_symmetry_breaking)

    def add(r: Any) -> None:
        total[0] += r.solutions
        total[1] += r.nodes

    start = time.perf_counter()
    try:
        stopped = _jobs(boards, args, None, add)
    except KeyboardInterrupt as e:
        print(f"satiling: {_stop_reason(e)}: {_scaled(total[0], distinct, args, order)} solutions "
              "so far, the count is not complete", file=sys.stderr)
        return exit_code(e)
    n = _scaled(total[0], distinct, args, order)
    if stopped:
        print(f"satiling: time limit: {n} solutions so far, the count is not complete", file=sys.stderr)
        return EXIT_TIMEOUT
    print(n)
    print(f"satiling: {NAME}: {total[1]} nodes in {time.perf_counter() - start:.2f} s", file=sys.stderr)
    if args.raw:
        print(f"satiling: {n} solutions in {n // order} symmetry classes", file=sys.stderr)
    return EXIT_FOUND if n else EXIT_NONE


def _stop_reason(e: BaseException) -> str:
    from ..signals import exit_code
    return "terminated" if exit_code(e) == 143 else "interrupted"


def _scaled(found: int, distinct: bool, args: argparse.Namespace, order: int) -> int:
    """Classes counted directly, or all solutions divided by the (free) symmetry group."""
    return found // order if distinct and args.no_symmetry_breaking else found


def run_enumerate(puzzle: EdgeMatchPuzzle, options: dict[str, Any], args: argparse.Namespace,
                  line: Callable[[Any, list[Any]], str]) -> int:
    """Every solution (one per symmetry class unless ``--raw``), verified, one ``line(puzzle,
    solution)`` each on stdout or appended to ``--out`` (a new or empty file)."""
    if not args.out:
        return _enumerate(puzzle, options, args, lambda sol: print(line(puzzle, sol), flush=True))
    from ..search.runfiles import FORMAT, RunFile
    header = {"satiling": "enumerate", "format": FORMAT, "puzzle": puzzle.name, "raw": bool(args.raw),
              "symmetry_breaking": not args.no_symmetry_breaking, "options": options,
              "engine": "backtrack"}
    # the same header, checksummed records and lock as every other solutions file; the
    # backtracker does not resume, so a file that already holds solutions is refused unchanged
    with RunFile(args.out, header, resume=False) as out:
        out.start()
        return _enumerate(puzzle, options, args, lambda sol: out.append(line(puzzle, sol)))


def _enumerate(puzzle: EdgeMatchPuzzle, options: dict[str, Any], args: argparse.Namespace,
               write: Callable[[list[Any]], None]) -> int:
    from ..signals import exit_code
    hints = bool(options.get("hints"))
    distinct = not args.raw and symmetry_order(puzzle, hints) > 1
    boards = edge_boards(puzzle, hints, distinct)
    written = [0]

    class Enough(Exception):
        pass

    def each(placed: list) -> None:
        if args.limit is not None and written[0] >= args.limit:
            raise Enough
        solution = tiles(placed)
        puzzle.verify(solution)
        write(solution)
        written[0] += 1

    try:
        stopped = _jobs(boards, args, each, lambda r: None)
    except Enough:
        stopped = ""
    except KeyboardInterrupt as e:
        print(f"satiling: {_stop_reason(e)}: stopped after {written[0]} solutions", file=sys.stderr)
        return exit_code(e)
    if stopped:
        print(f"satiling: time limit: stopped after {written[0]} solutions", file=sys.stderr)
        return EXIT_TIMEOUT
    return EXIT_FOUND if written[0] else EXIT_NONE
