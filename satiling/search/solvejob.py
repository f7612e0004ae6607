"""How each engine finds one solution: the functions the engine table names for ``solve``
(:mod:`satiling.engines.table`).  Each takes a :class:`SolveJob` and returns :class:`Found`; the
run verifies the solution (:func:`satiling.run.tasks.solve`).

* :func:`by_backtrack` -- the compiled edge-matching backtracker (:mod:`.edgesolve`);
* :func:`by_solver` -- the model, given to the solver the run chose (:func:`.solve.solve`: the
  exact-cover search, a SAT solver, a race of them, CP-SAT or a MIP solver), or settled before any
  search by the puzzle's own argument (parity, coverage), or with a proof of "no solution".
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..errors import SatilingError
from ..limits import NO_DEADLINE, Deadline


@dataclass
class SolveJob:
    puzzle: Any
    engine: str = "auto"                # as the run chose it (named in the answer)
    options: dict[str, Any] = field(default_factory=dict)
    solver: str = "auto"                # the solver of a model (:func:`.solve.solver_name`'s names)
    deadline: Deadline = NO_DEADLINE     # the run's (building the model counts)
    node_limit: int | None = None       # nodes of the search (a solver's conflicts)
    workers: int | None = None          # the backtracker's processes
    threads: int | None = None          # CP-SAT's threads
    dask: str | None = None
    seed: int | None = None
    proof: str | None = None            # write a proof of "no solution" here

    def seconds_left(self) -> float | None:
        """What is left until the deadline, at least a millisecond (a limit is positive); None:
        no limit."""
        return self.deadline.left(floor=1e-3)


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
        raise SatilingError("--workers and --dask split the edge-matching backtracker's search "
                            "(for CP-SAT's threads use --threads)")
    start = time.perf_counter()
    if not job.proof:
        reason = job.puzzle.obstruction()
        if reason is not None:
            return Found("done", None, "argument", time.perf_counter() - start,
                         f"proved before any search: {reason}")
    problem = job.puzzle.problem(**job.options)
    if job.proof:
        from .proof import solve_with_proof
        from .router import prover
        solver = prover(job.solver)
        result = solve_with_proof(problem, job.proof, solver, job.seconds_left())
        if result.status == "UNSAT":
            return Found("done", None, "sat", result.seconds, result.summary(), proof=result)
    else:
        from .solve import solve
        result = solve(problem, solver=job.solver, time_limit=job.seconds_left(), workers=job.threads,
                       node_limit=job.node_limit)
        solver = getattr(result, "solver", job.solver)
    seconds = time.perf_counter() - start
    ran = engine_that_ran(job.engine, solver)
    if result.status == "UNKNOWN":
        # a proof's search stops by time only; a solver's by time or by the node limit
        return Found(getattr(result, "stopped", "") or "time", None, ran, seconds, solver)
    solution = None if result.status == "UNSAT" else problem.decode(result.true_vars)
    return Found("done", solution, ran, seconds, solver)


def engine_that_ran(asked: str, solver: str) -> str:
    """The engine a solve by ``auto`` came to, by the solver that ran (its row in the solver
    table): the exact-cover search, CP-SAT, a race, a SAT solver, or a MIP solver (named by
    itself: MIP solvers have no engine of their own)."""
    from ..engines.table import solver as solver_row
    if asked != "auto":
        return asked
    if "+" in solver or solver.startswith("race"):
        return "race"
    row = solver_row(solver)
    return solver if row is None or row.engine is None else row.engine
