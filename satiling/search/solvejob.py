"""How each engine finds one solution: the functions the engine table names for ``solve``
(:mod:`satiling.engines.table`).  Each takes a :class:`SolveJob` and returns :class:`Found`; the
run verifies the solution (:func:`satiling.run.tasks.solve`).

* :func:`by_backtrack` -- the compiled edge-matching backtracker (:mod:`.edgesolve`);
* :func:`by_solver` -- the model, given to the solver the run chose (:func:`.solve.solve`: the
  exact-cover search, a SAT solver, a race of them, CP-SAT or a MIP solver), or with a proof of
  "no solution".  (The puzzle's own argument for "no solution" is the run's, before this.)
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..errors import Option, SatilingError
from ..limits import NO_DEADLINE, Deadline


@dataclass
class SolveJob:
    puzzle: Any
    engine: str                         # as the run chose it (named in the answer)
    options: dict[str, Any] = field(default_factory=dict)
    solver: str = ""                    # the solver the engine runs on the model (a solver table name)
    deadline: Deadline = NO_DEADLINE     # the run's (building the model counts)
    node_limit: int | None = None       # nodes of the search (a solver's conflicts)
    workers: int | None = None          # the backtracker's processes
    threads: int | None = None          # CP-SAT's threads
    dask: str | None = None
    seed: int | None = None
    proof: str | None = None            # write a proof of "no solution" here
    problem: Any = None                 # the model, when the run built it to choose the engine


@dataclass
class Found:
    stop: str                           # "done" (found, or proved none), "time" or "nodes"
    solution: list[Any] | None          # placements, not yet verified
    engine: str                         # the engine, or "argument" when one settled it
    seconds: float
    how: str = ""
    proof: Any = None


def by_backtrack(job: SolveJob) -> Found:
    from .edgesolve import solve_board
    start = time.perf_counter()
    answer = solve_board(job.puzzle, bool(job.options.get("hints")), job.deadline, job.workers,
                         job.dask, job.seed, job.node_limit)
    stop = {"time limit": "time", "nodes": "nodes"}.get(answer.status, "done") \
        if answer.solution is None else "done"
    return Found(stop, answer.solution, job.engine, time.perf_counter() - start,
                 f"{job.engine} ({answer.how})")


def by_solver(job: SolveJob) -> Found:
    if (job.workers or 1) > 1 or job.dask:
        raise SatilingError("{workers} and {dask} split the edge-matching backtracker's search; "
                            "CP-SAT takes {threads}", workers=Option("workers"), dask=Option("dask"),
                            threads=Option("threads"))
    start = time.perf_counter()
    problem = job.puzzle.problem(**job.options) if job.problem is None else job.problem
    if job.proof:
        from .proof import solve_with_proof
        from .router import prover
        solver = prover(job.solver)
        result = solve_with_proof(problem, job.proof, solver, job.deadline.left(floor=1e-3))
        if result.status == "UNSAT":
            return Found("done", None, job.engine, result.seconds, result.summary(), proof=result)
    else:
        from .solve import solve
        result = solve(problem, solver=job.solver, time_limit=job.deadline.left(floor=1e-3), workers=job.threads,
                       node_limit=job.node_limit)
        solver = getattr(result, "solver", job.solver)
    seconds = time.perf_counter() - start
    if result.status == "UNKNOWN":
        # a proof's search stops by time only; a solver's by time or by the node limit
        return Found(getattr(result, "stopped", "") or "time", None, job.engine, seconds, solver)
    solution = None if result.status == "UNSAT" else problem.decode(result.true_vars)
    return Found("done", solution, job.engine, seconds, solver)
