"""Solvers' answers read back: one reader per solver family, one check for all.

Each reader turns a solver's output into an :class:`Answer` (a verdict and a value per variable of
the model that was written); :func:`checked` then holds a complete answer to every constraint of
the model, so a wrong answer, or one for another puzzle or other options, is refused in one line
before any placement is drawn.

=========  ==================================================================================
format     answers read
=========  ==================================================================================
wcnf       MaxSAT: ``s``/``o``/``v`` lines, ``v`` old style (literals) or new style (``v 0110..``)
opb        PB solvers: ``s``/``o``/``v x1 -x2 ...`` lines (Sat4j, clasp, RoundingSat)
cpsat      CP-SAT's ``CpSolverResponse``, protobuf text or JSON
lp, mps,   solution files of HiGHS (``writeSolution``), SCIP (``write solution``), CBC
lpsolve    (``solu``), Gurobi (``.sol``) and lp_solve's ``-S3`` listing: ``NAME VALUE`` lines,
           unlisted variables 0
xcc        DLX1 / SSXCC solution lines (run with ``m1``): the items of each chosen option
mzn        MiniZinc's output: ``x = [...]`` (or ``--output-mode json``), the last solution
xcsp3      ``<instantiation>`` (with or without the competition's ``v`` prefixes)
=========  ==================================================================================

One rule for ``decode``'s exit code, whatever the format (DIMACS too, through
:func:`verdict_exit`):

====  =========================================================================================
exit  the solver's file
====  =========================================================================================
0     a complete answer that keeps every constraint of the model and solves the puzzle
1     the solver's proof that there is none (``s UNSATISFIABLE``, INFEASIBLE, ``=====UNSAT...``,
      ``Altogether 0 solutions``); DIMACS only: a consistent partial model
3     no answer in it: empty, only comments, UNKNOWN, a time-out (``Time limit reached``,
      ``TIMEOUT!``, ``no solution available``)
2     not that format's output (``hello world``), or a wrong, partial or foreign answer: one line
====  =========================================================================================
"""
from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Callable, Iterable

from ..errors import SatilingError
from ..exits import EXIT_NONE, EXIT_TIMEOUT
from ..problem import Problem
from .lp import EMPTY_COLUMN

#: what a verdict line may say, in any family's words, and what satiling calls it
_VERDICTS = {"OPTIMUM FOUND": "OPTIMAL", "OPTIMAL": "OPTIMAL", "SATISFIABLE": "SATISFIABLE",
             "FEASIBLE": "SATISFIABLE", "UNSATISFIABLE": "UNSATISFIABLE", "INFEASIBLE": "UNSATISFIABLE",
             "UNKNOWN": "UNKNOWN", "UNSUPPORTED": "UNKNOWN"}


@dataclass
class Answer:
    """``status``: OPTIMAL, SATISFIABLE, UNSATISFIABLE, UNKNOWN or None (not said);
    ``values[v]``: the value the solver gave variable ``v``; ``objective``: as the solver said it."""

    status: str | None
    values: dict[int, bool] = field(default_factory=dict)
    objective: float | None = None
    #: answers in the file (the solution kept is the last of an optimisation, the first otherwise)
    found: int = 1


@dataclass
class AnswerKey:
    """What a reader needs to know of the model written: its number of variables, the names of
    its variables (LP / MPS) and its options by items (XCC)."""

    variables: int
    names: dict[str, int] = field(default_factory=dict)
    options: dict[frozenset[str], int] = field(default_factory=dict)


# -- MaxSAT and PB: s / o / v lines ----------------------------------------------------------
def read_maxsat(text: str, key: AnswerKey) -> Answer:
    """MaxSAT Evaluation output; ``v`` lines of literals (old) or one 0/1 string (new, 2020+)."""
    status, cost, tokens = _svo(text, "MaxSAT")
    values: dict[int, bool] = {}
    if len(tokens) == 1 and re.fullmatch(r"[01]{2,}", tokens[0]):
        bits = tokens[0]
        if len(bits) != key.variables:
            raise SatilingError(f"the 'v' line gives {len(bits)} values, the formula has "
                                f"{key.variables} variables")
        values = {v: b == "1" for v, b in enumerate(bits, 1)}
    else:
        for tok in tokens:
            if not re.fullmatch(r"-?\d{1,18}", tok):
                raise SatilingError(f"{tok[:20]!r} in a 'v' line is not a literal")
            lit = int(tok)
            if lit:
                _set(values, abs(lit), lit > 0, key)
    return Answer(status, values, cost)


def read_opb(text: str, key: AnswerKey) -> Answer:
    """PB competition output: ``v x1 -x2 ...`` (``~x2`` too)."""
    status, objective, tokens = _svo(text, "PB")
    values: dict[int, bool] = {}
    for tok in tokens:
        m = re.fullmatch(r"([-~]?)x(\d{1,18})", tok)
        if m is None:
            raise SatilingError(f"{tok[:20]!r} in a 'v' line is not a literal like x3 or -x3")
        _set(values, int(m.group(2)), not m.group(1), key)
    return Answer(status, values, objective)


def _svo(text: str, family: str) -> tuple[str | None, float | None, list[str]]:
    """The verdict, the last ``o`` value and every token of the ``v`` lines."""
    status, objective, tokens = None, None, []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("c"):
            continue
        head, _, rest = line.partition(" ")
        if head == "s":
            said = rest.strip().upper()
            if said not in _VERDICTS:
                raise SatilingError(f"line {n}: unknown verdict {said[:30]!r}")
            status = _VERDICTS[said]
        elif head == "o":
            objective = _number(rest.strip(), n)
        elif head == "v":
            tokens.extend(rest.split())
        else:
            raise SatilingError(f"line {n}: expected 's', 'o', 'v' or 'c' lines of a {family} "
                                f"solver, got {line[:30]!r}")
    return status, objective, tokens


# -- CP-SAT -----------------------------------------------------------------------------------
def read_cpsat(text: str, key: AnswerKey) -> Answer:
    """A ``CpSolverResponse`` as protobuf text (``str(solver.response_proto)``) or JSON
    (``json_format.MessageToJson``)."""
    from google.protobuf import json_format, text_format
    from ortools.sat import cp_model_pb2
    response = cp_model_pb2.CpSolverResponse()
    try:
        if text.lstrip().startswith("{"):
            json_format.Parse(text, response, ignore_unknown_fields=True)
        else:
            text_format.Parse(text, response, allow_unknown_field=True)
    except (json_format.ParseError, text_format.ParseError) as e:
        raise SatilingError(f"not a CP-SAT response: {str(e).splitlines()[0][:80]}") from None
    if not response.ListFields() and not re.search(r"\bstatus\b", text):   # UNKNOWN is the default
        raise SatilingError("not a CP-SAT response: none of its fields (status, solution, ...)")
    status = cp_model_pb2.CpSolverStatus.Name(response.status)
    if status == "MODEL_INVALID":
        raise SatilingError("CP-SAT said MODEL_INVALID: the file it read was not this model")
    values: dict[int, bool] = {}
    if response.solution:
        if len(response.solution) != key.variables:
            raise SatilingError(f"the response gives {len(response.solution)} values, the model "
                                f"has {key.variables} variables")
        for v, value in enumerate(response.solution, 1):
            if value not in (0, 1):
                raise SatilingError(f"the response gives variable {v} the value {value}, not 0 or 1")
            values[v] = value == 1
    return Answer(_VERDICTS.get(status, "UNKNOWN"), values,
                  response.objective_value if response.solution else None)


# -- MIP solution files -------------------------------------------------------------------------
_NAMED = re.compile(r"x\d+(?:_\S*)?")
_INFEASIBLE = re.compile(r"\binfeasible\b", re.I)
_DUAL = re.compile(r"\bdual\b", re.I)
#: what a solution file without values says instead: the status lines of HiGHS (``Model
#: status``, ``Time limit reached``), SCIP (``solution status:``, ``no solution available``, which
#: a time-out also writes: no proof), CBC (``Stopped on time - objective value``), lp_solve
#: (``This problem is ...``) and the ``#`` comments of HiGHS and Gurobi
_SOL_STATUS = re.compile(r"model status|solution status|no solution available|objective value|"
                         r"objective function|this problem|time ?limit|time ?out|interrupted|"
                         r"stopped|unknown|^\s*#", re.I | re.M)


def read_sol(text: str, key: AnswerKey) -> Answer:
    """``NAME VALUE`` lines (CBC: ``INDEX NAME VALUE ...``) up to a section of duals (HiGHS lists
    the same names again there); a variable not listed is 0, as SCIP and CBC list only the others.
    A variable given two values, or a status of "infeasible" beside values, is not one solver's
    answer; text with neither a value nor a solver's status is not a solution file (each a
    SatilingError)."""
    values: dict[int, bool] = {}
    infeasible = placeholder = False
    for n, line in enumerate(text.splitlines(), 1):
        words = line.split()
        if not words:
            continue
        at = 0 if len(words) > 1 and _NAMED.fullmatch(words[0]) else \
            1 if len(words) > 2 and words[0].isdigit() and _NAMED.fullmatch(words[1]) else None
        if at is None:
            if _DUAL.search(line):
                if values or placeholder:
                    break               # the primal values are read: the rest are duals
                continue                # (a dual status says nothing of feasibility)
            infeasible = infeasible or bool(_INFEASIBLE.search(line))
            continue
        name = words[at]
        if name == EMPTY_COLUMN and key.variables == 0:
            placeholder = True      # the one column of a model without variables: a solution
            continue
        if name not in key.names:
            raise SatilingError(f"line {n}: {name[:40]!r} is not a variable of this model "
                                "(another puzzle, or other options?)")
        v, value = key.names[name], _binary(words[at + 1], n, name)
        if values.setdefault(v, value) != value:
            raise SatilingError(f"line {n}: {name[:40]} is given a second value, {words[at + 1][:20]}: "
                                "not one solver's answer")
    if infeasible and (values or placeholder):
        raise SatilingError("the answer says infeasible and also gives values: not one solver's answer")
    if not values and not placeholder:
        if infeasible:
            return Answer("UNSATISFIABLE", found=0)
        if _SOL_STATUS.search(text):
            return Answer("UNKNOWN", found=0)
        raise SatilingError("not a solution file: no line gives a variable of this model a "
                            "value ('NAME VALUE') and none says the solver's status")
    return Answer("SATISFIABLE", {v: values.get(v, False) for v in range(1, key.variables + 1)})


def _binary(word: str, n: int, name: str) -> bool:
    value = _number(word, n)
    if abs(value) > 1e-6 and abs(value - 1) > 1e-6:
        raise SatilingError(f"line {n}: {name[:40]} = {word[:20]}, not 0 or 1")
    return value > 0.5


# -- exact cover ------------------------------------------------------------------------------
_OF = re.compile(r"\s*\(\d+ of \d+\)\s*$")
_ALTOGETHER = re.compile(r"Altogether (\d{1,18}) solutions?")


def read_xcc(text: str, key: AnswerKey) -> Answer:
    """DLX1 / SSXCC output with ``m1``: ``N:`` then one line per chosen option (its items, then
    ``(k of n)``); the first solution is kept.  SSXCC's colours (``item:c``) are ignored."""
    solutions: list[list[int]] = []
    total = None
    for n, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        m = _ALTOGETHER.search(stripped)
        if m:
            total = int(m.group(1))
        elif re.fullmatch(r"\d+:", stripped):
            solutions.append([])
        elif solutions and _OF.search(stripped):
            items = frozenset(w.split(":", 1)[0] for w in _OF.sub("", stripped).split())
            v = key.options.get(items)
            if v is None:
                raise SatilingError(f"line {n}: the option {stripped[:50]!r} is not one of this "
                                    "matrix's (another puzzle, or other options?)")
            if v in solutions[-1]:          # an exact cover never chooses an option twice
                raise SatilingError(f"line {n}: the option {stripped[:50]!r} is chosen twice in "
                                    "one solution: not DLX's output")
            solutions[-1].append(v)
    if not solutions:
        if "TIMEOUT!" in text:        # stopped by its T option: "Altogether 0" proves nothing
            return Answer("UNKNOWN", found=0)
        if total == 0:
            return Answer("UNSATISFIABLE", found=0)
        raise SatilingError("no solution lines: run DLX1 / SSXCC with m1 so that it prints them")
    chosen = set(solutions[0])
    values = {v: v in chosen for v in range(1, key.variables + 1)}
    return Answer("SATISFIABLE", values, found=len(solutions))


# -- MiniZinc ---------------------------------------------------------------------------------
_MZN_ARRAY = re.compile(r'"?x"?\s*[=:]\s*\[([^\]]*)\]')


def read_mzn(text: str, key: AnswerKey) -> Answer:
    """MiniZinc's output: solutions end with ``----------``, a finished search with
    ``==========``; the last solution is kept (the best, when optimising)."""
    if "=====ERROR=====" in text:
        raise SatilingError("MiniZinc reported an error (=====ERROR=====)")
    # a solution beside the verdict of none is no solver's answer (read_answer says so, as it
    # does for every format): the values are read before the verdict is taken
    unsat = "=====UNSATISFIABLE=====" in text
    arrays = _MZN_ARRAY.findall(text)
    if not arrays:
        if unsat:
            return Answer("UNSATISFIABLE", found=0)
        if "=====UNKNOWN=====" in text:
            return Answer("UNKNOWN", found=0)
        raise SatilingError("no 'x = [...]' in the MiniZinc output")
    words = [w.strip() for w in arrays[-1].split(",") if w.strip()]
    if len(words) != key.variables:
        raise SatilingError(f"the answer gives {len(words)} values, the model has {key.variables} variables")
    values = {}
    for v, w in enumerate(words, 1):
        if w not in ("true", "false", "1", "0"):
            raise SatilingError(f"x[{v}] = {w[:20]!r}, not a Boolean")
        values[v] = w in ("true", "1")
    status = "UNSATISFIABLE" if unsat else "OPTIMAL" if "==========" in text else "SATISFIABLE"
    return Answer(status, values, found=len(arrays))


# -- XCSP3 ------------------------------------------------------------------------------------
_INSTANTIATION = re.compile(r"<instantiation\b.*?</instantiation>", re.S)


def read_xcsp3(text: str, key: AnswerKey) -> Answer:
    """The last ``<instantiation>`` of the output (``v`` prefixes of the competition format
    dropped); ``x[]`` names the whole array, ``x[i]`` one variable, ``VxK`` is K times V."""
    status = None
    body = []
    for line in text.splitlines():
        head, _, rest = line.strip().partition(" ")
        if head == "s":
            status = _VERDICTS.get(rest.strip().upper(), "UNKNOWN")
        body.append(rest if head == "v" else line)
    found = _INSTANTIATION.findall("\n".join(body))
    if not found:
        if status in ("UNSATISFIABLE", "UNKNOWN"):
            return Answer(status, found=0)
        raise SatilingError("no <instantiation> in the solver output")
    try:
        inst = ET.fromstring(found[-1])
    except ET.ParseError as e:
        raise SatilingError(f"the <instantiation> is not XML: {e}") from None
    names = (inst.findtext("list") or "").split()
    raw = (inst.findtext("values") or "").split()
    targets = _xcsp_targets(names, key.variables)
    vals: list[str] = []
    for w in raw:
        m = re.fullmatch(r"(-?\d{1,18})x(\d{1,18})", w)        # "0x5": five zeros
        repeat = int(m.group(2)) if m else 1
        if len(vals) + repeat > len(targets):        # never a list longer than the model
            raise SatilingError(f"the <instantiation> gives more values than its "
                                f"{len(targets)} variables")
        vals.extend([m.group(1) if m else w] * repeat)
    if len(targets) != len(vals):
        raise SatilingError(f"the <instantiation> lists {len(targets)} variables and {len(vals)} values")
    values: dict[int, bool] = {}
    for v, w in zip(targets, vals):
        if w not in ("0", "1"):
            raise SatilingError(f"x[{v - 1}] = {w[:20]!r}, not 0 or 1")
        _set(values, v, w == "1", key)
    return Answer(status or "SATISFIABLE", values, found=len(found))


def _xcsp_targets(names: list[str], n: int) -> list[int]:
    out: list[int] = []
    for name in names:
        if name == "x[]":               # the array has one variable even for a model without
            out.extend(range(1, max(n, 1) + 1))
            continue
        m = re.fullmatch(r"x\[(\d{1,18})\]", name)
        if m is None:
            raise SatilingError(f"{name[:30]!r} is not a variable of this model (x[] or x[i])")
        out.append(int(m.group(1)) + 1)
    return out


# -- shared -----------------------------------------------------------------------------------
READERS: dict[str, Callable[[str, AnswerKey], Answer]] = {
    "wcnf": read_maxsat, "opb": read_opb, "cpsat": read_cpsat, "lp": read_sol, "lpsolve": read_sol,
    "mps": read_sol, "xcc": read_xcc, "mzn": read_mzn, "xcsp3": read_xcsp3}


def read_answer(fmt: str, text: str, key: AnswerKey) -> Answer:
    """The answer in ``text``, read as ``fmt``'s solvers write it; empty output (a solver killed
    before it said anything) is no answer in every format, not a malformed file."""
    if not text.strip():
        return Answer("UNKNOWN", found=0)
    answer = READERS[fmt](text, key)
    if answer.status == "UNSATISFIABLE" and answer.values:
        raise SatilingError("the answer says UNSATISFIABLE and also gives values: not one solver's "
                            "answer")
    if answer.status in ("SATISFIABLE", "OPTIMAL") and not answer.values and key.variables:
        raise SatilingError(f"the answer says {answer.status} and gives no values")
    return answer


def verdict_exit(status: str | None, given: int, variables: int | None = None) -> int | None:
    """``decode``'s exit code by the table above, before a model is checked: 1 for a proof of
    none, 3 for no answer; None when there is a model to check (0, or 2 when it fails).
    ``given``: the values in the answer; ``variables``: the model's, when known (a model
    without variables is answered by a verdict alone)."""
    if status == "UNSATISFIABLE":
        return EXIT_NONE
    if given or (variables == 0 and status in ("SATISFIABLE", "OPTIMAL")):
        return None
    return EXIT_TIMEOUT


def _set(values: dict[int, bool], v: int, value: bool, key: AnswerKey) -> None:
    if key.variables == 0 and v == 1:
        return          # the one variable OPB and XCSP3 declare for a model without any
    if not 1 <= v <= key.variables:
        raise SatilingError(f"the answer names variable {v}, but the model has {key.variables} "
                            "(another puzzle, or other options?)")
    if values.get(v, value) != value:
        raise SatilingError(f"the answer sets variable {v} both true and false")
    values[v] = value


def _number(word: str, n: int) -> float:
    try:
        value = float(word)
    except ValueError:
        raise SatilingError(f"line {n}: {word[:20]!r} is not a number") from None
    if not math.isfinite(value):
        raise SatilingError(f"line {n}: {word[:20]!r} is not a finite number")
    return value


def checked(problem: Problem, answer: Answer, variables: int,
            clauses: Callable[[], Iterable[list[int]]] | None = None) -> frozenset[int]:
    """The true variables of a complete answer that keeps every constraint: of the CNF
    ``clauses`` when given (WCNF, whose auxiliary variables the answer also sets), else of
    ``problem`` itself (units, groups, clauses, linear constraints)."""
    given = len(answer.values)
    if given < variables:
        missing = next(v for v in range(1, variables + 1) if v not in answer.values)
        raise SatilingError(f"a partial answer: it gives values to {given} of the {variables} "
                            f"variables (none to {missing}); a complete one is needed")
    true = frozenset(v for v, value in answer.values.items() if value)
    if clauses is not None:
        for k, clause in enumerate(clauses(), 1):
            if not any((lit > 0) == (abs(lit) in true) for lit in clause):
                shown = " ".join(map(str, clause[:8])) + (" ..." if len(clause) > 8 else "")
                raise SatilingError(f"a wrong answer: it breaks hard clause {k} ({shown} 0)")
        return frozenset(v for v in true if v <= problem.num_vars)
    broken = problem.violations(true)
    if broken:
        raise SatilingError(f"a wrong answer: it breaks the constraint '{broken[0]}'"
                            + (f" and {len(broken) - 1} more" if len(broken) > 1 else ""))
    return true
