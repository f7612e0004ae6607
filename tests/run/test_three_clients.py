"""One run, three clients: the command line, ``puzzle.solve()`` / ``count()`` and
``satiling.solve_puzzle`` build one Request and call satiling.run, so they answer alike: the same
engine (the backtracker on edge matching, the exact-cover search on exact covers, an argument
before any search), the same verdict and the same counts."""
import json

import pytest

import satiling
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
