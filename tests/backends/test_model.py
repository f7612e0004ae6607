"""The model, its backends and the walk, checked against each other and against brute force."""
import itertools
import re
from pathlib import Path

import pytest

from satiling import SatilingError, VerificationError, load
from satiling.backends.cnf import AMO_ENCODINGS, CnfEncoder
from satiling.backends.dimacs import read_solver_output
from satiling.catalog import load_data
from satiling.problem import Problem
from satiling.search.searchers import solutions
from satiling.search.solve import solve

ROOT = Path(__file__).resolve().parents[2]


def brute_force(problem: Problem) -> set[frozenset[int]]:
    """Every assignment of a tiny problem, checked constraint by constraint."""
    n = problem.num_vars
    out = set()
    for bits in itertools.product([0, 1], repeat=n):
        true = frozenset(v + 1 for v in range(n) if bits[v])
        if not problem.violations(true) and not any(c(true) for c in problem.lazy):
            out.add(true)
    return out


def random_problem(seed: int) -> Problem:
    import random
    rng = random.Random(seed)
    p = Problem("random")
    n = rng.randint(4, 11)
    for _ in range(n):
        p.new_var(primary=True)
    for _ in range(rng.randint(1, 5)):
        lits = rng.sample(range(1, n + 1), rng.randint(1, min(n, 5)))
        lo = rng.choice([0, 1, 1, 2])
        hi = rng.choice([1, 1, 2, 3])
        p.cardinality(lits, min(lo, hi), hi)
    if rng.random() < 0.3:
        p.add_linear([(rng.choice([-2, -1, 1, 2]), v) for v in range(1, n + 1)], -1, 2)
    if rng.random() < 0.3:
        p.add_clause([rng.choice([-1, 1]) * v for v in rng.sample(range(1, n + 1), 2)])
    return p


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("engine", ["walk", "sat"])
def test_engines_match_brute_force(seed, engine):
    p = random_problem(seed)
    assert set(solutions(p, engine=engine)) == brute_force(p)


@pytest.mark.parametrize("seed", range(0, 40, 4))
def test_cpsat_engine_matches_brute_force(seed, engine="cpsat"):
    p = random_problem(seed)
    assert set(solutions(p, engine=engine)) == brute_force(p)


@pytest.mark.parametrize("amo", [pytest.param(a, marks=pytest.mark.slow) if a == "totalizer" else a
                                 for a in sorted(AMO_ENCODINGS)])      # (PySAT's, as mtotalizer)
def test_every_amo_encoding_gives_the_same_solutions(amo):
    puzzle = load("pentomino-8x8-centre")
    problem = puzzle.problem()
    from satiling.search import enumerate as en
    enc = CnfEncoder(problem, amo, pairwise_limit=0 if amo == "pairwise" else 1000)
    assert sum(1 for _ in enc.clauses()) > 0
    # the blocking-clause engine over this encoding, restricted to cubes keeps it quick
    first = next(solutions(problem, engine="walk"))
    cube = sorted(first)[:3]
    via_sat = set(_sat_with(problem, amo, cube))
    via_walk = set(solutions(problem, engine="walk", assume=cube))
    assert via_sat == via_walk and via_walk


def _sat_with(problem, amo, cube):
    from pysat.solvers import Solver
    with Solver(name="cadical195") as s:
        enc = CnfEncoder(problem, amo)
        s.append_formula(list(enc.clauses()))
        while s.solve(assumptions=cube):
            true = frozenset(v for v in s.get_model() if 0 < v <= problem.num_vars)
            yield true
            s.add_clause([-v for v in true])


def test_multiplicity_and_packing_rules():
    """Two copies of a domino and one monomino in a 1x6 strip with one cell to spare."""
    data = {"family": "polyform", "region": {"rows": 1, "cols": 6}, "rules": {"cells": "at-most"},
            "piece": [{"name": "D", "ascii": "##", "count": 2}, {"name": "M", "ascii": "#"}]}
    puzzle = load_data(data, "strip", ROOT)
    problem = puzzle.problem()
    walk = set(solutions(problem, engine="walk"))
    assert walk == brute_force(problem) == set(solutions(problem, engine="sat"))
    # by hand: the words over the multiset {D, D, M, empty} (copies of D are alike): 4!/2! = 12
    assert len(walk) == 12
    for s in walk:
        puzzle.verify(problem.decode(s))


def test_more_pieces_than_room():
    data = {"family": "polyform", "region": {"rows": 2, "cols": 2}, "rules": {"pieces": "at-most"},
            "piece": [{"name": "D", "ascii": "##"}, {"name": "E", "ascii": "##"}, {"name": "O", "ascii": "##\n##"}]}
    puzzle = load_data(data, "box", ROOT)
    problem = puzzle.problem()
    sols = set(solutions(problem))
    assert sols == brute_force(problem)
    # O alone (1 way), or D and E side by side: 2 orientations x 2 orders = 4
    assert len(sols) == 5


def test_free_one_sided_fixed_orientations():
    lat_data = {"family": "polyform", "region": {"rows": 3, "cols": 3}, "rules": {"cells": "at-most"}}
    counts = {}
    for freedom in ("free", "one-sided", "fixed"):
        data = dict(lat_data, piece=[{"name": "L", "ascii": "#.\n#.\n##", "freedom": freedom}])
        puzzle = load_data(data, "l", ROOT)
        counts[freedom] = len(puzzle.orientations(puzzle.pieces[0]))
    assert counts == {"free": 8, "one-sided": 4, "fixed": 1}
    x = load("pentomino-6x10")
    assert len(x.orientations(x.by_name["X"])) == 1 and len(x.orientations(x.by_name["I"])) == 2


def test_verifier_catches_every_kind_of_mistake():
    puzzle = load("pentomino-3x20")
    problem = puzzle.problem()
    good = problem.decode(solve(problem).true_vars)
    puzzle.verify(good)
    from satiling.families.polyform import PolyformPlacement
    a, b = good[0], good[1]
    moved = PolyformPlacement(a.piece, tuple((r, c + 100) for r, c in a.cells))
    reshaped = PolyformPlacement(a.piece, b.cells)
    mistakes = {
        "missing piece": good[1:],
        "piece twice": good + [good[0]],
        "off the board": [moved] + good[1:],
        "wrong shape": [reshaped] + good[1:],
        "unknown piece": [PolyformPlacement("Q", a.cells)] + good[1:],
    }
    for what, bad in mistakes.items():
        with pytest.raises(VerificationError):
            puzzle.verify(bad)


def test_lazy_constraints_are_honoured():
    """A lazy check that forbids one of two solutions: both engines return only the other."""
    p = Problem()
    a, b = p.new_var(primary=True), p.new_var(primary=True)
    p.exactly_one([a, b])
    p.add_lazy(lambda true: [[-a]] if a in true else [])
    for engine in ("walk", "sat", "cpsat"):
        assert list(solutions(p, engine=engine)) == [frozenset({b})]
    for solver in ("cadical", "cpsat", "glucose", "scip", "highs", "cbc", "walk"):
        r = solve(p, solver=solver)
        assert r.status == "SAT" and r.true_vars == frozenset({b})


def test_solver_output_reader():
    out = read_solver_output("c comment\ns SATISFIABLE\nv 1 -2 3\nv -4 0\n", num_vars=4)
    assert out.status == "SATISFIABLE" and out.true_vars == {1, 3}
    assert read_solver_output("s UNSATISFIABLE\n").status == "UNSATISFIABLE"
    assert read_solver_output("1 -2 3 0").true_vars == {1, 3}
    assert read_solver_output("").status == "UNKNOWN"      # killed before it said anything
    for bad in ("v 1 x 0", "s SATISFIABLE\nv 1 -1 0", "1 2 3 9"):
        with pytest.raises(SatilingError):
            read_solver_output(bad, num_vars=4)


def test_readme_python_example_runs():
    """The README's API example is real code: run it."""
    readme = (ROOT / "README.md").read_text()
    api = readme[readme.index("## The Python API"):]
    block = re.search(r"```python\n(.*?)```", api, re.S).group(1)
    exec(compile(block, "README.md", "exec"), {})


@pytest.mark.parametrize("solver", ["scip", "highs", "cbc", "cpsat", "cadical"])
def test_every_solver_agrees_with_brute_force(solver):
    """One solve per random problem: SAT with a true solution exactly when brute force finds one."""
    for seed in range(0, 40, 3):
        p = random_problem(seed)
        truth = brute_force(p)
        result = solve(p, solver=solver)
        assert result.status == ("SAT" if truth else "UNSAT"), seed
        if truth:
            assert not p.violations(result.true_vars), seed


@pytest.mark.parametrize("name,solver", [
    ("boat", "scip"),        # Burkardt and Garvie's route: the exact cover as a binary linear system
    ("whale", "walk"),       # the exact-cover search as a one-shot solver
])
def test_drafter_board_tiled_by(name, solver):
    puzzle = load(name)
    problem = puzzle.problem()
    result = solve(problem, solver=solver)
    assert result.status == "SAT"
    puzzle.verify(problem.decode(result.true_vars))


def test_walk_refutes_and_refuses():
    """`solve --solver walk` proves no solution, and refuses models with auxiliary variables."""
    assert solve(load("tetromino-4x5").problem(), solver="walk").status == "UNSAT"
    with pytest.raises(SatilingError, match="exact covers only"):
        solve(load("clue1").problem(), solver="walk")
