"""The ``rc2`` engine: PySAT's RC2 MaxSAT solver, each join a soft unit clause; it reports the
optimum only (core-guided search has no intermediate boards), in a child process the time limit
can stop."""
from __future__ import annotations

from ...errors import SatilingError
from ...limits import Deadline, clock
from .board import Improvement, MaxResult, score_of
from .job import MaxJob


def run(job: MaxJob) -> MaxResult:
    """The rc2 engine's entry in the engine table."""
    job.fresh("rc2")
    problem, matched = job.puzzle.match_problem(hints=job.hints)
    return _rc2(job.puzzle, problem, matched, job.deadline, job.on_improve, job.start)


def _rc2(puzzle, problem, matched, deadline: Deadline, on_improve, start) -> MaxResult:
    from ...children import run_in_child
    try:                                  # RC2 inside C cannot be stopped: a child, killed at the limit
        model = run_in_child(_rc2_model, problem, matched, deadline=deadline)
    except TimeoutError:
        return MaxResult("UNKNOWN", 0, len(matched), [], 0.0)
    if model is None:
        raise SatilingError(f"{puzzle.name}: the hard constraints have no solution")
    true = {v for v in model if v > 0}
    solution = problem.decode(v for v in problem.primary_vars() if v in true)
    s = score_of(puzzle, solution)
    if on_improve:
        on_improve(Improvement(s, len(matched), clock() - start, solution))
    return MaxResult("OPTIMAL", s, len(matched), solution, 0.0, s)


def _rc2_model(problem, matched) -> list[int] | None:
    """RC2's optimum: the true variables, or None when the hard clauses have no model."""
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF
    from ...backends.cnf import CnfEncoder
    enc = CnfEncoder(problem, "seqcounter")
    wcnf = WCNF()
    for clause in enc.clauses():
        wcnf.append(clause)
    for m in matched:
        wcnf.append([m], weight=1)
    with RC2(wcnf, solver="g4") as rc2:
        model = rc2.compute()
    return None if model is None else [v for v in model if v > 0]
