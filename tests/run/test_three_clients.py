"""One run, three clients: the command line, ``puzzle.solve()`` / ``count()`` and
``satiling.solve_puzzle`` build one Request and call satiling.run, so they answer alike: the same
engine (the backtracker on edge matching, the exact-cover search on exact covers, an argument
before any search), the same verdict and the same counts."""
import json

import pytest

import satiling
from satiling import SatilingError
from clirun import run_cli

CASES = [   # (puzzle, has a solution, the engine the run chooses)
    ("pentomino-3x20", True, "walk"),
    ("clue1", True, "backtrack"),
    ("tetromino-4x5", False, "argument"),     # the checkerboard argument, before any search
    ("iqlink-wizard", True, "auto"),
]


@pytest.mark.parametrize("name, solvable, engine", CASES)
def test_solve_is_one_behaviour(name, solvable, engine):
    from satiling.run import Request, solve
    answer = solve(Request(satiling.load(name), "solve"))
    assert (answer.solution is not None) == solvable
    if engine != "auto":
        assert answer.engine in (engine, "auto") if engine == "walk" else answer.engine == engine
    library = satiling.load(name).solve()
    function = satiling.solve_puzzle(satiling.load(name))
    cli = run_cli("solve", name, "--json")
    assert (library is not None) == (function is not None) == solvable
    assert cli.returncode == (0 if solvable else 1), cli.stderr
    if engine == "backtrack":
        assert "by backtrack" in cli.stderr
    if engine == "argument":
        assert "proved before any search" in cli.stderr
    if solvable:
        placements = json.loads(cli.stdout)["placements"]
        puzzle = satiling.load(name)
        for solution in (library, function, placements):
            assert puzzle.verify(solution)


def test_solve_puzzle_takes_the_parity_argument():
    puzzle = satiling.load("tetromino-4x5")
    assert satiling.solve_puzzle(puzzle, parity=True) is None
    assert puzzle.solve(parity=True) is None


@pytest.mark.parametrize("name, raw, expected", [("pentomino-3x20", False, 2),
                                                 ("pentomino-3x20", True, 8),
                                                 ("hexiamond-6x6", False, 156)])
def test_count_is_one_behaviour(name, raw, expected):
    from satiling.run import Request, count
    assert count(Request(satiling.load(name), "count", raw=raw)).total == expected
    assert satiling.load(name).count(raw=raw) == expected
    cli = run_cli("count", name, *(["--raw"] if raw else []))
    assert cli.returncode == 0 and cli.stdout.split() == [str(expected)]


def _key(placements) -> tuple:
    return tuple(sorted(json.dumps(p if isinstance(p, dict) else p.to_json(), sort_keys=True)
                        for p in placements))


@pytest.mark.parametrize("name, raw, expected", [("pentomino-3x20", True, 8),
                                                 ("pentomino-3x20", False, 2),
                                                 ("g.toml", False, None)])
def test_enumerate_is_one_behaviour(name, raw, expected):
    """The same solutions from the run, the library's generator and the command line's lines
    (Haselgrove's 8 tilings of 3x20, 2 up to symmetry; a generated edge-matching board, which
    the backtracker enumerates, against its count by the SAT model)."""
    from satiling.run import Events, Request, count, enumerate_solutions
    if name == "g.toml":
        with open(name, "w") as f:
            f.write(run_cli("generate-edgematch", "3", "3", "--seed", "3").stdout)
        expected = count(Request(satiling.load(name), "count", "sat")).total
        assert expected > 0
    found = []
    answer = enumerate_solutions(Request(satiling.load(name), "enumerate", raw=raw),
                                 Events(solution=found.append))
    library = list(satiling.load(name).solutions(raw=raw))
    cli = run_cli("enumerate", name, "--json", *(["--raw"] if raw else []))
    assert cli.returncode == 0, cli.stderr
    lines = [json.loads(line)["placements"] for line in cli.stdout.splitlines()]
    assert answer.found == len(found) == len(library) == len(lines) == expected
    assert {_key(s) for s in found} == {_key(s) for s in library} == {_key(s) for s in lines}


def test_maximise_is_one_behaviour():
    """clue1's proved best score (CP-SAT proves it on a board this small) from the run and from
    the command line, each board scored again by ``satiling score``."""
    from satiling.run import Request, maximise
    answer = maximise(Request(satiling.load("clue1"), "maximise", time_limit=60))
    cli = run_cli("solve", "clue1", "--maximize-matches", "--time-limit", "60", "--json")
    assert cli.returncode == 0, cli.stderr
    assert f"best score {answer.score}/{answer.joins}" in cli.stderr
    with open("best.json", "w") as f:
        f.write(cli.stdout)
    scored = run_cli("score", "clue1", "best.json")
    assert scored.returncode == 0 and f"score {answer.score}/{answer.joins}" in scored.stdout
    assert satiling.load("clue1").verify(answer.solution)      # 60 of 60: a solution


def test_a_solver_named_without_an_engine_runs():
    """A SAT solver named without an engine runs (the README: ``solve b.toml --solver cadical``,
    "the SAT model instead of the backtracker"): the backtracker and the exact-cover search,
    which take no solver, step aside in every client.  With a proof to write, a count's solver
    writes it and the count's engine stays the router's."""
    from satiling.run import Request, count, solve
    answer = solve(Request(satiling.load("clue1"), "solve", solver="glucose4"))
    assert answer.engine != "backtrack" and "glucose4" in answer.how
    cli = run_cli("solve", "clue1", "--solver", "glucose4")
    assert cli.returncode == 0 and "by glucose4" in cli.stderr, cli.stderr
    puzzle = satiling.load("clue1")
    assert puzzle.verify(puzzle.solve(solver="glucose4"))
    assert puzzle.verify(satiling.solve_puzzle(puzzle, solver="glucose4"))
    counted = count(Request(satiling.load("soma-cube"), "count", solver="glucose4"))
    assert (counted.engine, counted.total) == ("sat", 240)          # Conway and Guy's 240
    assert satiling.load("soma-cube").count(solver="glucose4") == 240
    cli = run_cli("count", "soma-cube", "--solver", "glucose4", "--quiet")
    assert cli.returncode == 0 and cli.stdout.split() == ["240"], cli.stderr
    assert count(Request(satiling.load("soma-cube"), "count")).engine == "walk"


@pytest.mark.parametrize("name, task", [("clue1", "count"), ("iqlink-wizard", "solve")])
def test_the_walk_on_a_model_that_is_no_exact_cover_is_refused_alike(name, task):
    """Refused by the engine's choice, before any model is built, in every client (the web's 400
    is in tests/web/test_api.py)."""
    from satiling.run import Request
    from satiling.run.engines import choose
    with pytest.raises(SatilingError, match="walk engine takes exact covers only"):
        choose(Request(satiling.load(name), task, "walk"))
    r = run_cli(task, name, "--engine", "walk")
    assert r.returncode == 2 and "exact covers only" in r.stderr
    with pytest.raises(SatilingError, match="exact covers only"):
        getattr(satiling.load(name), task)(engine="walk")
    # the compact encoding's side colours are placements of their own: the walk takes it
    assert choose(Request(satiling.load("clue1"), "count", "walk", options={"encoding": "compact"})) == "walk"
