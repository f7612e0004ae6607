"""One Stop vocabulary: a time limit ends every engine's run with Stop.TIME, whatever the engine
calls it inside (the compiled searches' "time", a solver's UNKNOWN, the backtracker's "time limit"),
and keeps what was found."""
import time

import pytest

import satiling
from satiling.run import Request, Stop, count, enumerate_solutions, maximise, solve

LIMIT = 0.2


@pytest.mark.parametrize("name, engine", [
    ("pentomino-6x10", "walk"), ("pentomino-6x10", "sat"), ("pentomino-6x10", "cpsat"),
    ("eternity2", "backtrack"),
])
def test_a_count_stops_at_its_time_limit_with_stop_time(name, engine):
    req = Request(satiling.load(name), "count", engine, raw=True, time_limit=LIMIT,
                  symmetry_breaking=engine != "walk")
    start = time.monotonic()
    answer = count(req)
    assert answer.stop is Stop.TIME and not answer.stop.complete
    assert time.monotonic() - start < 30          # not a timing check: it did not run to the end
    assert 0 <= answer.total < 9356


def test_an_enumeration_stops_with_stop_time_and_keeps_its_solutions():
    seen = []
    req = Request(satiling.load("pentomino-6x10"), "enumerate", "sat", raw=True, time_limit=LIMIT)
    from satiling.run import Events
    answer = enumerate_solutions(req, Events(solution=seen.append))
    assert answer.stop is Stop.TIME and answer.found == len(seen)


@pytest.mark.parametrize("engine", ["backtrack", "sat", "cpsat"])
def test_a_solve_stops_with_stop_time(engine):
    answer = solve(Request(satiling.load("eternity2"), "solve", engine, time_limit=LIMIT))
    assert answer.stop is Stop.TIME and answer.solution is None


def test_a_maximisation_stops_with_stop_time_and_its_best_board():
    answer = maximise(Request(satiling.load("eternity2"), "maximise", "backtrack", time_limit=1.0))
    assert answer.stop is Stop.TIME
    assert answer.solution and 0 < answer.score <= answer.joins


def test_a_limit_of_solutions_is_stop_limit():
    req = Request(satiling.load("pentomino-3x20"), "enumerate", raw=True, limit=3)
    answer = enumerate_solutions(req)
    assert answer.stop is Stop.LIMIT and answer.found == 3 and answer.stop.complete
