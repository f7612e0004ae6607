"""DRAT proofs that there is no (more) solution, and checkers that do not trust the solver.

A SAT solver's "unsatisfiable" is a claim; a DRAT proof makes it checkable.  The solvers whose row
of the solver table (:data:`satiling.engines.table.SOLVERS`) says ``proof`` write proofs that
checkers accept (``with_proof=True``); the others are refused.

Two statements get proofs:

* ``solve --proof``: the formula has no solution (the last call of the lazy-constraint loop, whose
  added cuts are part of the formula written beside the proof);
* ``count --proof`` / ``enumerate --proof``: there is no solution beyond those found.  The formula is
  the symmetry-restricted problem plus one blocking clause per solution of it (every member of every
  class found that passes the restriction), and it must be unsatisfiable.  This certifies that the
  enumeration missed nothing; the symmetry argument (de Bruijn's restriction, the class count) is not
  part of the proof.

A proof certifies its formula; what the formula takes beyond the puzzle's rules (redundant
constraints from satiling's own arguments, ``Problem.assumed``, and the symmetry restriction) is
named in :meth:`ProofReport.summary`.

Every proof is written as text DRAT to FILE and its formula as DIMACS to ``FILE.cnf`` so anyone can
re-check it, then checked here by dratify (an independent checker from PyPI, in-process) and by
drat-trim when it is on the PATH.  "verified" means every checker that ran accepted it.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, Sequence

from ..errors import Option, SatilingError
from ..fileio import read_text, write_files
from ..children import run_in_child
from ..limits import NO_DEADLINE, Deadline, clock
from ..problem import Problem
from ..engines.table import DEFAULT_SAT_ALIAS, SOLVERS
from .solve import lazy_cuts, primary_true, solver_name

if TYPE_CHECKING:
    import dratify

#: PySAT solvers whose proofs checkers accept
PROOF_SOLVERS = tuple(s.name for s in SOLVERS if s.proof)
#: the largest formula or proof read whole (a cap: /dev/zero is an error, not memory exhausted)
PROOF_LIMIT = 1 << 30
#: a formula may declare this many variables however short it is (dratify's floor, the same rule)
_VARIABLES_FLOOR = 1 << 20


@dataclass
class Check:
    """One checker's verdict on one proof."""

    checker: str
    ok: bool
    detail: str
    seconds: float


@dataclass
class ProofReport:
    """``status`` UNSAT (a proof was written), SAT (a solution, no proof) or UNKNOWN (time limit)."""

    status: str
    proof: str = ""
    formula: str = ""
    steps: int = 0
    true_vars: frozenset[int] = frozenset()
    checks: list[Check] = field(default_factory=list)
    seconds: float = 0.0
    #: what the refuted formula takes as given beyond the puzzle's rules (``Problem.assumed``, the
    #: symmetry restriction): the proof certifies the puzzle only together with these
    given: tuple[str, ...] = ()
    #: the formula holds the empty clause: what it is given settles it, and the proof adds nothing
    empty_clause: bool = False

    @property
    def verified(self) -> bool:
        return bool(self.checks) and all(c.ok for c in self.checks)

    def summary(self) -> str:
        """One line for the terminal: what was proved and who checked it."""
        if self.verified:
            who = " and ".join(c.checker for c in self.checks)
            said = f"DRAT proof {self.proof} ({self.steps} steps) verified by {who}"
        else:
            bad = "; ".join(f"{c.checker}: {c.detail}" for c in self.checks if not c.ok) or "no checker ran"
            said = f"DRAT proof {self.proof} ({self.steps} steps) NOT verified ({bad})"
        return said + self._resting_on()

    def _resting_on(self) -> str:
        given = " and ".join(self.given)
        if self.empty_clause:
            return (f"; the formula holds the empty clause, from {given or 'the model itself'}: the "
                    "proof adds nothing to that")
        return f"; it takes as given {given}, which it does not check" if given else ""


def proof_solver(name: str) -> str:
    """The PySAT name of a solver that writes proofs (SatilingError for one that does not)."""
    canonical = solver_name(name)
    if canonical not in PROOF_SOLVERS:
        raise SatilingError("{proof} needs a solver that writes DRAT proofs ({solvers}), not {name}",
                            proof=Option("proof"), solvers=", ".join(PROOF_SOLVERS), name=name)
    return canonical


# -- proving --------------------------------------------------------------------------------------
def solve_with_proof(problem: Problem, path: str, solver: str = DEFAULT_SAT_ALIAS,
                     time_limit: float | None = None) -> ProofReport:
    """Solve ``problem``; if it has no solution, write and check a proof of that.  The time limit
    counts from here: writing the clauses of a large model takes seconds of it."""
    start = clock()
    deadline = Deadline.after(time_limit, start)
    clauses = _encoded(problem, deadline)
    if clauses is None:
        return ProofReport("UNKNOWN", seconds=clock() - start)
    return _prove(problem, clauses, path, proof_solver(solver), deadline,
                  f"c satiling {problem.name}: the model (see 'satiling encode')")


def _encoded(problem: Problem, deadline: Deadline) -> list[list[int]] | None:
    """The model's clauses (None: the deadline passed first)."""
    from ..backends.cnf import CnfEncoder
    clauses = []
    for k, clause in enumerate(CnfEncoder(problem).clauses()):
        if k % 65536 == 0 and deadline.expired():
            return None
        clauses.append(clause)
    return clauses


def prove_complete(problem: Problem, solutions: Iterable[frozenset[int]], path: str,
                   solver: str = DEFAULT_SAT_ALIAS, time_limit: float | None = None) -> ProofReport:
    """Prove that ``problem`` has no solution outside ``solutions`` (each a set of true placements).

    The blocking clause of a solution lists its placements negated; that excludes exactly it when
    every placement lies in an exactly-one group (a superset of a solution then breaks a group),
    otherwise the clause also lists the placements it leaves out.
    """
    from ..backends.cnf import CnfEncoder
    enc = CnfEncoder(problem)
    clauses = list(enc.clauses())
    primary = problem.primary_vars()
    in_exact = {v for g in problem.groups if g.is_exactly_one for v in g.lits if v > 0}
    short = all(v in in_exact for v in primary)
    blocked = 0
    for sol in solutions:
        clauses.append([-v for v in sorted(sol)] + ([] if short else [v for v in primary if v not in sol]))
        blocked += 1
    report = _prove(problem, clauses, path, proof_solver(solver), Deadline.after(time_limit),
                    f"c satiling {problem.name}: the model restricted by symmetry, and {blocked} "
                    "blocking clauses, one per solution found")
    if report.status == "SAT":
        raise SatilingError(f"the SAT solver found a solution the enumeration missed: "
                            f"{sorted(report.true_vars)} (a bug: please report it)")
    return report


def _prove(problem: Problem, clauses: list[list[int]], path: str, name: str,
           deadline: Deadline, comment: str) -> ProofReport:
    """Solve ``clauses`` with a proof-writing solver; on UNSAT write the proof and the formula it
    refutes, then check them.  The solver runs in a child process, killed at the deadline or on a
    signal (a SAT solver in a C call cannot be interrupted through PySAT); the files are written here, after it
    answered, so a kill never leaves half a file."""
    start = time.perf_counter()
    from .solve import in_child            # killed on a signal too (satiling.signals)
    answer = in_child(_solve, deadline, problem, clauses, name)
    if isinstance(answer, _Refutation):
        clauses.extend(answer.cuts)
        report = ProofReport("UNSAT", proof=path, formula=path + ".cnf", steps=len(answer.lines),
                             given=_given(problem), empty_clause=any(not c for c in clauses))
        write_files({report.formula: _dimacs(clauses, answer.top, comment),
                     path: "\n".join(answer.lines) + "\n"})
    else:
        report = answer if isinstance(answer, ProofReport) else ProofReport(answer.status)
    report.seconds = time.perf_counter() - start
    if report.status == "UNSAT":
        report.checks = check_proof(report.formula, report.proof)
    return report


def _given(problem: Problem) -> tuple[str, ...]:
    """What a refutation of ``problem`` rests on beyond the puzzle's rules, in words."""
    restricted = len(problem.restriction)
    symmetry = [f"the symmetry restriction ({restricted} unit{'s' if restricted != 1 else ''})"]
    return tuple(problem.assumed) + tuple(symmetry if restricted else ())


@dataclass
class _Refutation:
    """What the solver hands back on UNSAT: its proof lines, the lazy cuts it added (part of the
    refuted formula) and the highest variable."""

    lines: list[str]
    cuts: list[list[int]]
    top: int


def _solve(problem: Problem, clauses: list[list[int]], name: str) -> "ProofReport | _Refutation":
    """The solve, lazy checks as cuts: a solution (SAT) or the refutation."""
    from pysat.solvers import Solver
    added: list[list[int]] = []
    with Solver(name=name, with_proof=True, bootstrap_with=clauses) as s:
        while s.solve():
            true = primary_true(problem, s.get_model())
            cuts = lazy_cuts(problem, true)
            if not cuts:
                return ProofReport("SAT", true_vars=true)
            for c in cuts:
                s.add_clause(c)
                added.append(list(c))
        lines = s.get_proof()
        top = max(s.nof_vars(), max((abs(x) for c in clauses + added for x in c), default=0))
    if not lines or lines[-1].strip() != "0":
        lines.append("0")                       # checkers want the empty clause said out loud
    return _Refutation(lines, added, top)


def _dimacs(clauses: Sequence[Sequence[int]], top: int, comment: str) -> str:
    body = "".join(" ".join(map(str, c)) + " 0\n" for c in clauses)
    return f"{comment}\np cnf {top} {len(clauses)}\n{body}"


# -- checking -------------------------------------------------------------------------------------
def check_solvers_proof(problem: Problem, amo: str, options: dict, proof: str,
                        deadline: Deadline = NO_DEADLINE) -> ProofReport:
    """Another solver's DRAT proof that satiling's CNF of ``problem`` (its at-most-one ``amo``,
    built with the model ``options``) has no model: checked against that formula as satiling
    writes it, never a file the user names, so that a verified proof refutes this puzzle's model
    and nothing else.  The formula is written to a folder of its own for the checkers, which
    read files, and removed with it.  The check runs in a child process, killed when
    ``deadline`` passes (TimeoutError) or a signal comes: a long proof's check grows with the
    square of its length, and nothing else could stop it."""
    import tempfile
    from ..backends.dimacs import write_dimacs
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="satiling-proof-") as folder:
        formula = os.path.join(folder, "formula.cnf")
        with open(formula, "w") as out:
            write_dimacs(problem, out, amo, options=options)
        checks, steps = run_in_child(_checks, formula, proof, deadline=deadline)
    return ProofReport("UNSAT", proof=proof, steps=steps, checks=checks, given=_given(problem),
                       empty_clause=any(not c for c in problem.clauses),
                       seconds=time.perf_counter() - start)


def check_proof(formula: str, proof: str) -> list[Check]:
    """Check a DRAT proof of a DIMACS formula with dratify, and with drat-trim if on the PATH.

    Both files are read first: one that is not what it should be (a malformed formula, a solver's
    model given as the proof) is a SatilingError, bad input rather than a proof that fails.  An
    empty proof is valid DRAT (no lemmas): the checkers' verdict on it stands."""
    return _checks(formula, proof)[0]


def _checks(formula: str, proof: str) -> tuple[list[Check], int]:
    """The checkers' verdicts, and the number of steps of the proof."""
    cnf = _read_formula(formula)
    steps = _read_steps(proof, cnf.nvars)
    checks = [_dratify(cnf, steps)]
    if shutil.which("drat-trim"):
        checks.append(_drat_trim(formula, proof))
    return checks, len(steps)


def _dratify(cnf: "dratify.CNF", steps: list[tuple[str, tuple[int, ...]]]) -> Check:
    import dratify
    start = time.perf_counter()
    try:
        result = dratify.check_proof(cnf, steps)
    except (ValueError, MemoryError, RecursionError) as e:     # the checker gave up: no verdict
        return Check("dratify", False, str(e) or type(e).__name__, time.perf_counter() - start)
    return Check("dratify", bool(result.ok), result.reason, time.perf_counter() - start)


def _drat_trim(formula: str, proof: str) -> Check:
    start = time.perf_counter()
    try:
        run = subprocess.run(["drat-trim", formula, proof], capture_output=True, text=True)
    except OSError as e:
        return Check("drat-trim", False, f"cannot run: {e.strerror}", time.perf_counter() - start)
    said = [ln for ln in run.stdout.splitlines() if ln.startswith("s ")]
    verdict = said[-1][2:].strip() if said else f"no verdict (exit {run.returncode})"
    return Check("drat-trim", verdict == "VERIFIED", verdict, time.perf_counter() - start)


def _read_formula(path: str) -> "dratify.CNF":
    """The formula, read by satiling's one DIMACS reader (which checks the ``p cnf`` line's counts)
    into dratify's container."""
    import dratify
    from ..backends.dimacs import read_cnf        # with PySAT's encoders: loaded when used
    text = _read(path)
    variables, clauses = read_cnf(text.splitlines(), path)
    # the checker allocates for every declared variable, used or not: a header is untrusted, so
    # its count is held to what the file's size could use (dratify's own parser's rule)
    if variables > max(len(text), _VARIABLES_FLOOR):
        raise SatilingError(f"{path}: its 'p cnf' line declares {variables} variables, more than a "
                            f"formula of {len(text)} characters can use")
    cnf = dratify.CNF(variables)
    for clause in clauses:
        cnf.add_dimacs(clause)
    return cnf


def _read_steps(path: str, variables: int) -> list[tuple[str, tuple[int, ...]]]:
    """The steps of a text DRAT proof of a formula of ``variables`` variables (SatilingError,
    naming the line, for anything else)."""
    import dratify
    text = _read_proof(path)
    try:
        steps = dratify.parse_proof(text)
    except ValueError as e:             # dratify names the line: "proof line 2: bad token 'x'"
        raise SatilingError(f"{path}: {e}") from None
    # a lemma may name new variables, at most one per literal written (dratify's bound)
    _check_literals(text, variables + sum(len(lits) for _, lits in steps), path)
    return steps


def _check_literals(text: str, top: int, path: str) -> None:
    """SatilingError for a literal beyond variable ``top`` (the checker sizes its tables by the
    largest).  Only numbers with as many digits as ``top`` or more can be too large."""
    body = re.sub(r"(?m)^[ \t]*c.*$", "", text)           # comments may hold any number
    for m in re.finditer(r"[0-9]{%d,}" % len(str(top)), body):
        if int(m.group()[:30]) > top:
            line = body.count("\n", 0, m.start()) + 1
            raise SatilingError(f"{path}: proof line {line}: literal {m.group()[:20]} is beyond the "
                                f"{top} variables the formula and the proof's length allow")


def _read_proof(path: str) -> str:
    """The proof's text; a binary DRAT proof is told apart from other binary data, so its
    error says what to do."""
    try:
        return _read(path)
    except SatilingError:
        if _binary_drat(path):
            raise SatilingError(f"{path}: a binary DRAT proof; dratify reads text DRAT only: have "
                                "the solver write text (CaDiCaL, Kissat: --no-binary)") from None
        raise


def _binary_drat(path: str) -> bool:
    """Whether a regular file ``path`` starts as binary DRAT does: an 'a' or 'd' byte, and a NUL
    (which ends each clause) soon after; text never holds a NUL."""
    if not os.path.isfile(path):        # stdin, a FIFO: what was read cannot be read again
        return False
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:                     # unreadable: the reader's own error says so
        return False
    return head[:1] in (b"a", b"d") and b"\0" in head


def _read(path: str) -> str:
    """A formula or proof, read whole (dratify wants text) up to :data:`PROOF_LIMIT`."""
    return read_text(path, PROOF_LIMIT, what="DIMACS formula or DRAT proof")
