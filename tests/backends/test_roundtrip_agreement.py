"""Every ``encode --format`` through a solver and back through ``decode``, against brute force.

Each seed makes one small instance with the generators of :mod:`brute` (a polyform board or an
edge-matching board); its model goes out in every format, a solver in this process reads the
file -- PySAT for DIMACS, WCNF (RC2) and OPB, CP-SAT for the CP-SAT model, HiGHS for LP and MPS,
OR-Tools' LP importer with SCIP for lp_solve's LP -- and for the formats whose solvers are
programs elsewhere (Knuth's XCC, MiniZinc, XCSP3) a reader written here that takes the file's
rows to CP-SAT or to a plain exact-cover search, so each file is read for what it says.  The
solver's answer, in its own words, goes back through ``satiling decode``: exit 0 with a verified
solution exactly when the brute force finds one, exit 1 ("no solution") exactly when it finds
none.

Then the cases of issue 38: an IQ-Link file holds the link rule (its answers are linked), a model
without variables is a valid file that every solver reads as infeasible, and ``decode``'s exit
codes follow one table (no answer: 3; not the format's output: 2).
"""
from __future__ import annotations

import contextlib
import io
import json
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Callable

import pytest

import brute
from clirun import run_cli
from satiling.backends.formats import FORMATS
from satiling.cli import main

FAST = 25
SLOW = 400


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def toml(data: dict[str, Any]) -> str:
    """The generators' instance data as TOML (tables, arrays of tables, scalars and lists)."""
    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return json.dumps(v)
    lines = [f"{k} = {value(v)}" for k, v in data.items()
             if not isinstance(v, dict) and not (isinstance(v, list) and v and isinstance(v[0], dict))]
    for k, v in data.items():
        if isinstance(v, dict):
            lines += [f"[{k}]"] + [f"{kk} = {value(vv)}" for kk, vv in v.items()]
        elif isinstance(v, list) and v and isinstance(v[0], dict):
            for item in v:
                lines += [f"[[{k}]]"] + [f"{kk} = {value(vv)}" for kk, vv in item.items()]
    return "\n".join(lines) + "\n"


# -- the solvers, each answering in its own words -------------------------------------------------
def solve_dimacs(path: Path) -> str:
    from pysat.formula import CNF
    from pysat.solvers import Solver
    with Solver(name="cadical195", bootstrap_with=CNF(from_file=str(path))) as s:
        if not s.solve():
            return "s UNSATISFIABLE\n"
        model = set(s.get_model())                  # a variable in no clause: false
        top = _top(path.read_text())
        return "s SATISFIABLE\nv " + " ".join(str(v if v in model else -v) for v in range(1, top + 1)) + " 0\n"


def solve_wcnf(path: Path) -> str:
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF
    wcnf = WCNF(from_file=str(path))
    with RC2(wcnf) as rc2:
        model = rc2.compute()
        if model is None:
            return "s UNSATISFIABLE\n"
        given = {abs(lit) for lit in model}         # variables of no clause: any value
        model += [-v for v in range(1, _top(path.read_text()) + 1) if v not in given]
        return f"s OPTIMUM FOUND\no {rc2.cost}\nv " + " ".join(map(str, model)) + "\n"


def _top(text: str) -> int:
    """The formula's number of variables, from the header's 'primary variables: P of N'."""
    m = re.search(r"primary variables: \d+ of (\d+)", text)
    assert m, "every file says its number of variables"
    return int(m.group(1))


def solve_opb(path: Path) -> str:
    """Each OPB row (coefficients +-1 and 0: the models are counts of literals) as a PySAT
    cardinality constraint; the objective is left out (any solution is an answer)."""
    from pysat.formula import IDPool
    from pysat.solvers import Solver
    text = path.read_text()
    n = int(re.search(r"#variable= (\d+)", text).group(1))
    pool, clauses = IDPool(start_from=n + 1), []
    for line in text.splitlines():
        if line.startswith(("*", "min:")) or not line.strip():
            continue
        m = re.fullmatch(r"(.*) (>=|=) (-?\d+) ;", line)
        assert m, line
        words = m.group(1).split()
        lits, bound = [], int(m.group(3))
        for a, x in zip(words[::2], words[1::2]):
            a, v = int(a), int(x[1:])
            assert a in (-1, 0, 1), line
            if a:
                lits.append(v if a > 0 else -v)
                bound += a < 0                 # -x = (1 - x) - 1
        clauses += _at_least(lits, bound, pool)
        if m.group(2) == "=":
            clauses += _at_least([-lit for lit in lits], len(lits) - bound, pool)
    with Solver(name="cadical195", bootstrap_with=clauses) as s:
        if not s.solve():
            return "s UNSATISFIABLE\n"
        model = set(s.get_model())                  # a variable in no row: false
        return "s SATISFIABLE\nv " + " ".join(f"{'' if v in model else '-'}x{v}"
                                               for v in range(1, _top(text) + 1)) + "\n"


def _at_least(lits: list[int], k: int, pool) -> list[list[int]]:
    from pysat.card import CardEnc, EncType
    if k <= 0:
        return []
    if k > len(lits):
        return [[]]
    return CardEnc.atleast(lits, k, vpool=pool, encoding=EncType.seqcounter).clauses


def solve_cpsat(path: Path) -> str:
    from ortools.sat.python import cp_model
    model = cp_model.CpModel()
    assert model.proto.parse_text_format(path.read_text())
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.solve(model)
    return str(solver.response_proto)


def solve_highs(path: Path) -> str:
    import highspy
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    assert h.readModel(str(path)) == highspy.HighsStatus.kOk
    h.run()
    sol = path.with_name(path.name + ".sol")
    h.writeSolution(str(sol), 0)
    return sol.read_text()


def solve_lpsolve(path: Path) -> str:
    """OR-Tools' LP importer (lp_solve's dialect) and SCIP; the answer as ``lp_solve -S3`` says
    it: the values of the variables, or "This problem is infeasible"."""
    from ortools.linear_solver.python import model_builder as mb
    model = mb.ModelBuilder()
    assert model.import_from_lp_string(path.read_text())
    solver = mb.Solver("scip")
    status = solver.solve(model)
    if status == mb.SolveStatus.INFEASIBLE:
        return "\nThis problem is infeasible\n"
    assert status in (mb.SolveStatus.OPTIMAL, mb.SolveStatus.FEASIBLE), status
    return "\nActual values of the variables:\n" + "".join(
        f"{v.name} {round(solver.value(v))}\n" for v in model.get_variables())


def solve_xcc(path: Path) -> str:
    """The exact-cover file read as DLX1 reads it (items line, then one option per line; ``|``
    comments; ``lo:hi|name`` multiplicities), solved by plain search, answered as DLX1 with m1."""
    lines = [ln for ln in path.read_text().splitlines() if ln.strip() and not ln.startswith("|")]
    primary_part, _, secondary_part = lines[0].partition(" | ")
    bounds: dict[str, tuple[int, int]] = {}
    for spec in primary_part.split():
        lo_hi, _, name = spec.rpartition("|")
        lo, hi = map(int, lo_hi.split(":")) if lo_hi else (1, 1)
        bounds[name] = (lo, hi)
    for name in secondary_part.split():
        bounds[name] = (0, 1)
    options = [ln.split() for ln in lines[1:]]
    chosen = _exact_cover(bounds, options)
    if chosen is None:
        return "Altogether 0 solutions, 0+0 mems, 0 bytes\n"
    body = "".join(f" {' '.join(options[k])} (1 of 1)\n" for k in chosen)
    return f"1:\n{body}Altogether 1 solution, 0+0 mems, 0 bytes\n"


def _exact_cover(bounds: dict[str, tuple[int, int]], options: list[list[str]]) -> list[int] | None:
    count = dict.fromkeys(bounds, 0)
    chosen: list[int] = []

    def search() -> bool:
        short = [i for i, (lo, _) in bounds.items() if count[i] < lo]
        if not short:
            return True
        item = short[0]
        for k, opt in enumerate(options):
            if item in opt and k not in chosen and all(count[i] < bounds[i][1] for i in opt):
                chosen.append(k)
                for i in opt:
                    count[i] += 1
                if search():
                    return True
                for i in opt:
                    count[i] -= 1
                chosen.pop()
        return False
    return chosen if search() else None


def _cpsat_rows(n: int, rows: list[tuple[list[tuple[int, int]], str, str]]) -> list[bool] | None:
    """A solution of rows ``(terms over variables 1..n, op, bound)`` by CP-SAT, or None."""
    from ortools.sat.python import cp_model
    model = cp_model.CpModel()
    x = [None] + [model.new_bool_var(f"x{v}") for v in range(1, max(n, 1) + 1)]
    for terms, op, bound in rows:
        lo, hi = map(int, bound.split("..")) if op == "in" else (int(bound), int(bound))
        lo, hi = {"in": (lo, hi), "==": (lo, hi), ">=": (lo, None), "<=": (None, hi)}[op]
        terms = [(a, v) for a, v in terms if a]
        if not terms:                               # a constant row: it holds, or nothing does
            if (lo is not None and lo > 0) or (hi is not None and hi < 0):
                return None
            continue
        expr = sum(a * x[v] for a, v in terms)
        if lo is not None:
            model.add(expr >= lo)
        if hi is not None:
            model.add(expr <= hi)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    return [bool(solver.value(x[v])) for v in range(1, n + 1)]


def dzn(text: str) -> dict[str, Any]:
    """The assignments of MiniZinc data as the writer spells them: ints, lists of ints or sets,
    sets and 2d arrays (``[| 1, 2 | 3, 4 |]``, an empty one as ``array2d(1..0, 1..w, [])``)."""
    def ints(s: str) -> list[int]:
        return [int(w) for w in s.replace(",", " ").split()]

    data: dict[str, Any] = {}
    for name, value in re.findall(r"^(\w+) = (.*);$", text, re.M):
        if value.startswith("[|"):
            data[name] = [ints(r) for r in value[2:-2].split("|")]
        elif value.startswith("array2d"):
            data[name] = []
        elif value.startswith("[{"):
            data[name] = [set(ints(s)) for s in re.findall(r"\{([^}]*)\}", value)]
        elif value.startswith(("[", "{")):
            data[name] = ints(value[1:-1])
        else:
            data[name] = int(value)
    return data


def solve_mzn(path: Path) -> str:
    """The MiniZinc model's constraints, read from its data (``NAME.dzn`` beside it, or after
    the model): choices, owners' all_different, tables, clauses and linear rows, by CP-SAT;
    answered as MiniZinc prints them."""
    from ortools.sat.python import cp_model
    beside = path.with_suffix(".dzn")
    d = dzn(beside.read_text() if beside.exists() else path.read_text())
    model = cp_model.CpModel()
    n, nc, no = d["n"], d["nc"], d["no"]
    y = [None] + [model.new_int_var(1, d["size"][g], f"y{g}") for g in range(nc)] + \
        [model.new_int_var(1, no, f"o{o}") for o in range(no)]
    x = [None] + [model.new_bool_var(f"x{v}") for v in range(1, n + 1)]
    for v in range(1, n + 1):
        g = d["choice"][v - 1]
        if g:
            model.add(y[g] == d["value"][v - 1]).only_enforce_if(x[v])
            model.add(y[g] != d["value"][v - 1]).only_enforce_if(~x[v])
    model.add_all_different(y[nc + 1:])
    zero = model.new_constant(0)
    for t in range(d["nt"]):
        cols = [y[c] if c else zero for c in d["column"][t]]
        model.add_allowed_assignments(cols, d["row"][d["first"][t] - 1:d["last"][t]])
    for pos, neg in zip(d["pos"], d["neg"]):
        model.add_bool_or([x[v] for v in pos] + [~x[v] for v in neg])
    start = d["start"]
    for r in range(d["nr"]):
        expr = sum(d["coef"][i - 1] * x[d["term"][i - 1]] for i in range(start[r], start[r + 1]))
        model.add_linear_constraint(expr, d["lo"][r], d["hi"][r])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "=====UNSATISFIABLE=====\n"
    values = [bool(solver.value(x[v])) for v in range(1, n + 1)]
    return "x = [" + ", ".join("true" if b else "false" for b in values) + "];\n----------\n"


def solve_xcsp3(path: Path) -> str:
    """The XCSP3 instance's ``<sum>`` constraints by CP-SAT, answered in the competition's words."""
    root = ET.fromstring(path.read_text())
    n = int(root.find("variables/array").get("size")[1:-1])
    ops = {"eq": "==", "ge": ">=", "le": "<=", "in": "in"}
    rows = []
    for s in root.iter("sum"):
        vs = [int(w[2:-1]) + 1 for w in s.findtext("list").split()]
        coeffs = [int(a) for a in s.findtext("coeffs").split()]
        op, bound = s.findtext("condition").strip()[1:-1].split(",")
        rows.append((list(zip(coeffs, vs)), ops[op], bound))
    values = _cpsat_rows(n, rows)
    if values is None:
        return "s UNSATISFIABLE\n"
    return ("s SATISFIABLE\nv <instantiation> <list> x[] </list> <values> "
            + " ".join("1" if b else "0" for b in values) + " </values> </instantiation>\n")


SOLVERS: dict[str, Callable[[Path], str]] = {
    "dimacs": solve_dimacs, "wcnf": solve_wcnf, "opb": solve_opb, "cpsat": solve_cpsat,
    "lp": solve_highs, "mps": solve_highs, "lpsolve": solve_lpsolve, "xcc": solve_xcc,
    "mzn": solve_mzn, "xcsp3": solve_xcsp3}


def round_trip(name: str, fmt: str, tmp: Path, *options: str) -> tuple[int, str, str] | None:
    """Encode, solve, decode: decode's (exit code, stdout, stderr); None when the format
    refuses the model in one line (XCC takes exact covers with an item to cover only)."""
    path = tmp / f"model.{fmt}"
    code, _, err = run("encode", name, "--format", fmt, "-o", str(path), *options)
    if code == 2 and fmt == "xcc" and err.startswith("satiling: error: xcc: ") and err.count("\n") == 1:
        return None
    assert code == 0, (fmt, err)
    answer = tmp / f"answer.{fmt}"
    answer.write_text(SOLVERS[fmt](path))
    return run("decode", name, str(answer), "--format", fmt, *options)


# -- the property: every format agrees with brute force ------------------------------------------
def instance(seed: int, tmp: Path) -> tuple[Path, int]:
    """A generated instance file and its number of solutions by brute force."""
    rng = random.Random(seed)
    for attempt in range(50):
        if rng.random() < 0.6:
            found = next(brute.solved_polyforms([seed * 50 + attempt], f"r{seed}", tmp), None)
            if found is None:
                continue
            data, n = found[0], len(found[2])
        else:
            data = brute.edge_data(seed * 50 + attempt)
            data.pop("hint", None)                 # hints apply only with --hints
            if brute.load_or_none(data, f"r{seed}", tmp) is None:
                continue
            try:
                n = brute.edge_answer(data, hints=False)[0]
            except brute.TooMany:
                continue
        path = tmp / f"r{seed}.toml"
        path.write_text(toml(data))
        return path, n
    pytest.skip("no instance of a size the brute force takes")


def agree(seed: int, tmp: Path) -> None:
    path, n = instance(seed, tmp)
    for fmt in FORMATS:
        done = round_trip(str(path), fmt, tmp)
        if done is None:
            continue
        code, out, err = done
        if n:
            assert code == 0 and out, (seed, fmt, n, err)      # drawn: decode verified it
        else:
            assert (code, out.strip()) == (1, "no solution"), (seed, fmt, code, err)


def pinned_instance(seed: int, tmp: Path) -> tuple[Path, int]:
    """A generated polyform instance with a pin (``[[placed]]``): a placement of one of its
    solutions, or any placement (then perhaps none); its number of solutions by brute force on the
    instance without the pin, those that hold it."""
    rng = random.Random(seed)
    for data, puzzle, sols in brute.solved_polyforms(range(seed * 200, seed * 200 + 200), f"p{seed}", tmp):
        placed = [s for s in sols if s]           # (under "at most" rules nothing placed is one)
        if not placed:
            continue
        pin = rng.choice(sorted(rng.choice(placed)) if seed % 3 else puzzle.placements())
        path = tmp / f"p{seed}.toml"
        path.write_text(toml({**data, "placed": [pin.to_json()]}))
        return path, sum(1 for s in sols if pin in s)
    pytest.skip("no instance of a size the brute force takes")


@pytest.mark.parametrize("seed", [0, 1, 2] + [pytest.param(s, marks=pytest.mark.slow) for s in range(3, 30)])
def test_every_format_honours_pins(seed: int, tmp_path: Path) -> None:
    """A pinned piece is a unit of every format: the solvers' answers decode to solutions that
    hold it (decode's verifier asks for it), and "no solution" exactly when none does."""
    path, n = pinned_instance(seed, tmp_path)
    for fmt in FORMATS:
        done = round_trip(str(path), fmt, tmp_path)
        if done is None:
            continue
        code, out, err = done
        if n:
            assert code == 0 and out, (seed, fmt, n, err)
        else:
            assert (code, out.strip()) == (1, "no solution"), (seed, fmt, code, err)


@pytest.mark.parametrize("seed", range(FAST))
def test_every_format_agrees_with_brute_force(seed: int, tmp_path: Path) -> None:
    agree(seed, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(FAST, FAST + SLOW))
def test_every_format_agrees_with_brute_force_slow(seed: int, tmp_path: Path) -> None:
    agree(seed, tmp_path)


# -- IQ-Link: a file holds the link rule (issue 38) ----------------------------------------------
def _linked_answer(out: str) -> bool:
    """The decoded board's placements (the last line: the solution string) re-checked linked."""
    from satiling.families.iqlink import challenge, parse_placements
    placements = parse_placements(out.split()[-1])
    challenge("").verify(placements)                  # raises unless linked
    return len(placements) == 12


@pytest.mark.parametrize("fmt", ["dimacs", "opb", "cpsat", "xcsp3"])
def test_iqlink_round_trip_is_linked(fmt: str, tmp_path: Path) -> None:
    code, out, err = round_trip("iqlink-expert", fmt, tmp_path)
    assert code == 0, err
    assert _linked_answer(out)


def test_iqlink_export_holds_link_rule(tmp_path: Path) -> None:
    """The default --link-rule lazy wrote a file without the rule: CaDiCaL's first answer on
    the empty board was unlinked ("not linked into one graph", exit 1).  Now every format holds
    it: a full board of twelve pieces that is not linked is no model of the file, and the
    solver's answer decodes to a linked board."""
    from pysat.formula import CNF
    from pysat.solvers import Solver
    from varmap import read_variable_map
    unlinked = _unlinked_board()
    cnf = tmp_path / "iq.cnf"
    assert run("encode", "iqlink-empty", "-o", str(cnf))[0] == 0
    with open(cnf) as f:
        var = {code: v for v, code in read_variable_map(f).items()}
    with Solver(name="cadical195", bootstrap_with=CNF(from_file=str(cnf))) as s:
        assert not s.solve(assumptions=[var[pl.code] for pl in unlinked])
    code, out, err = round_trip("iqlink-starter", "dimacs", tmp_path)
    assert code == 0, err
    assert _linked_answer(out)
    from satiling import catalog
    from satiling.backends.cnf import CnfEncoder
    eager = catalog.load("iqlink-wizard").problem(link_rule="eager")
    for fmt in FORMATS:                       # no format leaves the rule out, whatever is asked
        if fmt == "xcc":
            continue
        code, _, err = run("encode", "iqlink-wizard", "--format", fmt, "--link-rule", "lazy")
        size = CnfEncoder(eager).size()[0] if fmt in ("dimacs", "wcnf") else eager.num_vars
        assert code == 0 and f": {size} " in err, (fmt, err)
    helped = " ".join(run_cli("encode", "--help").stdout.split())
    assert "encode always writes the eager rule" in helped


def _unlinked_board() -> list:
    """Twelve pieces on the board, no two colliding, not one linked graph: the model without
    the link rule, solved and blocked until such a board comes out (checked by the geometry)."""
    from pysat.solvers import Solver
    from satiling.backends.cnf import CnfEncoder
    from satiling.errors import VerificationError
    from satiling.families.iqlink import challenge
    free = challenge("", linked=False).problem()
    primary = free.primary_vars()
    with Solver(name="cadical195", bootstrap_with=CnfEncoder(free).clauses()) as s:
        for _ in range(200):
            assert s.solve()
            true = [v for v in primary if s.get_model()[v - 1] > 0]
            board = free.decode(true)
            try:
                challenge("").verify(board)
            except VerificationError:
                return board
            s.add_clause([-v for v in true])
    raise AssertionError("no unlinked board in 200 solutions")


# -- models without variables (issue 38) ---------------------------------------------------------
NOFIT = ('lattice = "square"\n[region]\nrows = 2\ncols = 2\n[rules]\ncells = "at-most"\n'
         '[[piece]]\nname = "I"\ncells = [[0, 0], [0, 1], [0, 2]]\n')
NOMEET = 'family = "edgematch"\nrows = 2\ncols = 2\npieces = [[1, 2, 3, 4]' + ', [1, 2, 3, 4]' * 3 + ']\n'


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("board", ["nofit", "nomeet"])
def test_empty_model_is_infeasible_in_every_format(board: str, fmt: str, tmp_path: Path) -> None:
    """A piece that fits nowhere, or colours that never meet: the model has no variable.  Every
    format is a file its solver reads as infeasible, and decode says "no solution", exit 1 (LP
    was a traceback, OPB used an undeclared x1, MPS had no column: "unknown", exit 3)."""
    path = tmp_path / f"{board}.toml"
    path.write_text(NOFIT if board == "nofit" else NOMEET)
    done = round_trip(str(path), fmt, tmp_path)
    if done is None:
        return                                      # XCC: the edge-matching model is no cover
    code, out, err = done
    assert (code, out.strip()) == (1, "no solution"), err


@pytest.mark.parametrize("fmt", FORMATS)
def test_empty_model_with_the_empty_solution(fmt: str, tmp_path: Path) -> None:
    """Pieces and cells at most, and no piece fits: no variable, and the empty board is the one
    solution.  Each format's answer (a bare "s SATISFIABLE", an empty 'x = []', the placeholder
    column listed) decodes to it, exit 0 (DIMACS said "no model", the others "no answer")."""
    path = tmp_path / "nofit.toml"
    path.write_text(NOFIT.replace('cells = "at-most"', 'cells = "at-most"\npieces = "at-most"'))
    assert brute.polyform_solutions(brute.load_or_none(
        {"lattice": "square", "region": {"rows": 2, "cols": 2},
         "rules": {"cells": "at-most", "pieces": "at-most"},
         "piece": [{"name": "I", "cells": [[0, 0], [0, 1], [0, 2]]}]}, "nofit", tmp_path)) == [frozenset()]
    done = round_trip(str(path), fmt, tmp_path)
    if done is not None:                          # XCC: nothing to cover, refused
        assert done[0] == 0, done[2]


def test_xcc_options_with_the_same_items_read_back(tmp_path: Path) -> None:
    """Cells at most, and six cells that only a monomino covers: their options are the item
    ``pP0`` alone, six times over.  A solver's answer choosing two of them read back as one
    option twice ("a wrong answer: it breaks the constraint 'piece P0'"); each now has an item
    of its own, so the answer decodes to the board it is."""
    path = tmp_path / "same.toml"
    path.write_text('lattice = "triangle"\n[rules]\ncells = "at-most"\npieces = "exact"\n[region]\n'
                    'cells = [[0, 0], [0, -1], [1, 0], [-1, -1], [-1, 0], [0, 1], [1, -1], [-1, -2], '
                    '[0, 2]]\n[[piece]]\nname = "P0"\ncells = [[0, 0]]\ncount = 2\n[[piece]]\n'
                    'name = "P1"\ncells = [[0, 0], [0, -1], [0, -2]]\nfreedom = "fixed"\n')
    code, out, err = round_trip(str(path), "xcc", tmp_path)
    assert code == 0 and out, err
    text = (tmp_path / "model.xcc").read_text()
    options = [line for line in text.splitlines()[text.splitlines().index(next(
        ln for ln in text.splitlines() if not ln.startswith("|"))) + 1:]]
    assert len(set(options)) == len(options) == 10


def test_lp_of_empty_model(tmp_path: Path) -> None:
    path = tmp_path / "nofit.toml"
    path.write_text(NOFIT)
    for fmt in ("lp", "lpsolve", "mps", "opb"):
        code, text, err = run("encode", str(path), "--format", fmt)
        assert code == 0 and "Traceback" not in err, (fmt, err)
        assert ("x0" if fmt != "opb" else "#variable= 1") in text      # a column / variable declared


# -- decode's exit codes: one table (issue 38) --------------------------------------------------
#: each format's own way of saying it has no answer (a time-out), beside the empty output
NO_ANSWER = {
    "dimacs": "c stopped by the time limit\ns UNKNOWN\n",
    "wcnf": "c timeout\ns UNKNOWN\n",
    "opb": "s UNKNOWN\n",
    "cpsat": "status: UNKNOWN\n",
    "lp": "Model status\nTime limit reached\n\n# Primal solution values\nNone\n",
    "mps": "solution status: time limit reached\nno solution available\n",
    "lpsolve": "\nThis problem was stopped by a time out\n",
    "xcc": "TIMEOUT!\nAltogether 0 solutions, 0+1000 mems, 0 bytes\n",
    "mzn": "=====UNKNOWN=====\n",
    "xcsp3": "s UNKNOWN\n",
}


@pytest.mark.parametrize("fmt", FORMATS)
def test_decode_empty_answer_is_3_for_every_format(fmt: str, tmp_path: Path) -> None:
    """Empty solver output was exit 2 for dimacs, mzn, xcc and xcsp3 and 3 for the others; a
    DLX1 time-out and SCIP's "no solution available" after one read as "no solution"."""
    for text in ("", "\n", NO_ANSWER[fmt]):
        answer = tmp_path / "answer"
        answer.write_text(text)
        code, out, err = run("decode", "pentomino-6x10", str(answer), "--format", fmt)
        assert (code, out) == (3, ""), (fmt, text, err)
        assert err == "satiling: the solver gave no answer\n"


def test_decode_help_says_what_an_answerless_output_exits_with(tmp_path: Path) -> None:
    """3 for an empty output is the answers table's "no answer in it" (a solver stopped or killed
    before it said anything), not bad input: decode's --help and the program's say so."""
    code, help_text, _ = run("decode", "--help")
    assert code == 0
    said = " ".join(help_text.split())
    assert "3 no answer in it: empty" in said
    code, top, _ = run("--help")
    assert "3 time limit without an answer (decode: the solver's output holds no answer)" in " ".join(top.split())
    empty = tmp_path / "empty"
    empty.write_text("")
    assert run("decode", "pentomino-6x10", str(empty))[0] == 3


@pytest.mark.parametrize("fmt", FORMATS)
def test_decode_hello_world_is_2(fmt: str, tmp_path: Path) -> None:
    """Text that is not the format's output: one line, exit 2 (LP, MPS and lp_solve read it as
    "no answer", exit 3)."""
    answer = tmp_path / "answer"
    answer.write_text("hello world\n")
    code, out, err = run("decode", "pentomino-6x10", str(answer), "--format", fmt)
    assert (code, out) == (2, "") and err.startswith("satiling: error: ") and err.count("\n") == 1, err


@pytest.mark.parametrize("fmt", ["lp", "mps", "xcc"])
def test_decode_proof_of_none_is_1(fmt: str, tmp_path: Path) -> None:
    """The same readers still say "no solution" for a proof of none."""
    said = {"lp": "Model status\nInfeasible\n", "mps": "solution status: infeasible\n",
            "xcc": "Altogether 0 solutions, 0+1000 mems, 0 bytes\n"}[fmt]
    answer = tmp_path / "answer"
    answer.write_text(said)
    code, out, _ = run("decode", "pentomino-6x10", str(answer), "--format", fmt)
    assert (code, out.strip()) == (1, "no solution")


@pytest.mark.parametrize("fmt, said", [
    ("opb", "s UNSATISFIABLE\nv x1 -x2\n"), ("wcnf", "s UNSATISFIABLE\nv 1 -2\n"),
    ("xcsp3", "s UNSATISFIABLE\n<instantiation><list>x[]</list><values>0x2056</values></instantiation>\n"),
    ("cpsat", "status: OPTIMAL\n"), ("cpsat", "hello: 1\n"), ("cpsat", '{"foo": 1}'),
    ("lp", "solution status: optimal\nNAME nan\n"),
])
def test_decode_an_answer_at_odds_with_itself_is_2(fmt: str, said: str, tmp_path: Path) -> None:
    """"No solution" and a model at once, a solution said and none given, a CP-SAT response made of
    fields no response has, NaN for a value: each was read as "no solution" (1) or "no answer" (3)."""
    if "NAME" in said:                   # a variable of the model as the LP file names it
        code, lp, _ = run("encode", "pentomino-6x10", "--format", "lp")
        said = said.replace("NAME", re.search(r"\bx1_\S*", lp).group())
    answer = tmp_path / "answer"
    answer.write_text(said)
    code, out, err = run("decode", "pentomino-6x10", str(answer), "--format", fmt)
    assert (code, out) == (2, "") and err.startswith("satiling: error: ") and err.count("\n") == 1, err
