"""One Stop vocabulary: a time limit ends every engine's run with Stop.TIME, whatever the engine
calls it inside (the compiled searches' "time", a solver's UNKNOWN, the backtracker's "time limit"),
and keeps what was found; a node limit ends every solve engine's run with Stop.NODES."""
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


@pytest.mark.parametrize("task", ["solve", "count", "enumerate"])
def test_a_time_limit_counts_the_building_of_the_model(task):
    """Monckton's Eternity takes about a minute to place its 209 pieces (1.4 million placements):
    a one-second limit ends the run there, not after the placements and the model are built."""
    run = {"solve": solve, "count": count, "enumerate": enumerate_solutions}[task]
    start = time.monotonic()
    answer = run(Request(satiling.load("eternity"), task, time_limit=1.0))
    assert answer.stop is Stop.TIME
    assert time.monotonic() - start < 20          # not a timing check: it did not build it all
    assert (answer.solution is None) if task == "solve" else (answer.total == 0)


def test_a_resumed_count_out_of_time_at_once_still_counts_what_it_resumed(tmp_path, monkeypatch):
    """A limit that runs out before the search of a resumed count: the answer holds the count
    the file kept (its finished cubes; a cube searched in part counts once it is entered again),
    not 0."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))     # a checkpoint of this test's own
    puzzle = satiling.load("pentomino-8x8-square")
    for limit in (0.5, 2.0, 8.0):                 # a loaded machine may stop before the search began
        first = count(Request(puzzle, "count", time_limit=limit))
        if first.stop is Stop.DONE or first.total > 0:
            break
    assert first.stop is Stop.TIME and first.total > 0 and first.checkpoint
    again = count(Request(puzzle, "count", time_limit=1e-6, resume=first.checkpoint))
    assert again.stop is Stop.TIME and 0 < again.total <= first.total


@pytest.mark.slow        # (make test has the same for solve, count, enumerate and pack)
def test_a_cpsat_maximisation_counts_building_its_model_in_the_time_limit():
    """CP-SAT's model of Eternity II takes seconds to build: a limit shorter than that ends the
    run before the build is done (a ratio to the build measured here, not a timing check)."""
    from satiling.backends.cpsat import to_cpsat
    e2 = satiling.load("eternity2")
    start = time.monotonic()
    to_cpsat(e2.match_problem()[0])
    build = time.monotonic() - start
    start = time.monotonic()
    answer = maximise(Request(e2, "maximise", "cpsat", time_limit=0.1, threads=1))
    assert answer.stop is Stop.TIME and not answer.solution
    assert time.monotonic() - start < 0.5 * build + 0.5, build


def test_a_maximisation_stops_with_stop_time_and_its_best_board():
    answer = maximise(Request(satiling.load("eternity2"), "maximise", "backtrack", time_limit=1.0,
                              threads=1))
    assert answer.stop is Stop.TIME
    assert answer.solution and 0 < answer.score <= answer.joins


def test_a_limit_of_solutions_is_stop_limit():
    req = Request(satiling.load("pentomino-3x20"), "enumerate", raw=True, limit=3)
    answer = enumerate_solutions(req)
    assert answer.stop is Stop.LIMIT and answer.found == 3 and answer.stop.complete


@pytest.mark.parametrize("name, engine, solver, nodes", [
    ("pentomino-6x10", "walk", "auto", 10), ("pentomino-6x10", "sat", "auto", 5),
    ("pentomino-6x10", "sat", "glucose", 5), ("pentomino-6x10", "cpsat", "auto", 5),
    ("eternity2", "backtrack", "auto", 1000), ("eternity2", "auto", "auto", 1000),
])
def test_a_node_limit_stops_a_solve_with_stop_nodes(name, engine, solver, nodes):
    """Nodes of the compiled searches, conflicts of a SAT solver and of CP-SAT: one Stop (CP-SAT
    on one thread under a node limit, whatever the cores)."""
    answer = solve(Request(satiling.load(name), "solve", engine, solver, node_limit=nodes))
    assert answer.stop is Stop.NODES and answer.solution is None


def test_a_node_limit_large_enough_finds_the_solution():
    answer = solve(Request(satiling.load("pentomino-6x10"), "solve", "walk", node_limit=10 ** 6))
    assert answer.stop is Stop.DONE and answer.solution


@pytest.mark.parametrize("task, engine, solver", [
    ("count", "auto", "auto"), ("maximise", "auto", "auto"), ("solve", "race", "auto"),
])
def test_a_node_limit_where_no_node_is_counted_is_refused(task, engine, solver):
    from satiling.errors import SatilingError
    with pytest.raises(SatilingError, match="node limit"):
        Request(satiling.load("clue1"), task, engine, solver, node_limit=5)


def test_a_solver_without_a_budget_refuses_a_node_limit():
    from satiling.errors import SatilingError
    with pytest.raises(SatilingError, match="takes no node limit"):
        solve(Request(satiling.load("pentomino-6x10"), "solve", "auto", "scip", node_limit=5))


def test_a_solve_with_a_proof_stops_at_its_time_limit():
    """The proof's search ends by the time limit like any other (it once crashed there)."""
    answer = solve(Request(satiling.load("tortoise"), "solve", proof="p.drat", time_limit=LIMIT))
    assert answer.stop is Stop.TIME and answer.solution is None


@pytest.mark.parametrize("task", ["count", "enumerate"])
def test_a_time_limit_stops_the_backtracker_inside_a_long_cube(tmp_path, capsys, task):
    """A generated 7x7 board whose cubes each take the backtracker tens of seconds: the limit's
    timer is a Python thread, and the compiled search held the GIL until its cube ended (a one-
    second limit ran 20-45 s).  The search lets go of the GIL at each look at the clock."""
    from satiling.cli import main
    assert main(["generate-edgematch", "7", "7", "--seed", "3"]) == 0
    board = tmp_path / "b7.toml"
    board.write_text(capsys.readouterr().out)
    run = {"count": count, "enumerate": enumerate_solutions}[task]
    start = time.monotonic()
    answer = run(Request(satiling.load(str(board)), task, "backtrack", time_limit=1.0))
    assert answer.stop is Stop.TIME
    assert time.monotonic() - start < 12          # not a timing check: it did not run on to the cube's end


def test_a_time_limit_stops_the_proof_and_keeps_the_complete_count(tmp_path, monkeypatch, capsys):
    """``count --proof``: the limit ran on through the proof (a 4 s limit took 49 s) and a stop
    there printed no count; now the complete count is printed, the proof said unchecked, exit 3.
    A count stopped before it is complete offers to go on without --proof (a proof needs every
    solution of one run, and --resume with --proof is refused).

    A loaded machine may spend a limit on the count itself, or stop the count before it searched
    anything to keep: each such run is checked for what it says, and the next gets a longer limit
    (the proof of the 3x20 count takes far longer than the longest)."""
    from satiling.cli import main
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    for limit in ("1.5", "4.5", "13.5"):
        start = time.monotonic()
        assert main(["count", "pentomino-3x20", "--proof", f"p{limit}.drat", "--time-limit", limit]) == 3
        out, err = capsys.readouterr()
        if "the count is not complete" not in err:
            break
        assert "proof" not in out and int(out) < 2, err     # the limit ran out in the count
    assert out.split() == ["2"] and "proof was stopped before it was checked" in err, err
    # it names the files to check only where they were written
    wrote = (tmp_path / f"p{limit}.drat").is_file() and (tmp_path / f"p{limit}.drat.cnf").is_file()
    assert ("its files are checked by" if wrote else "no proof file was written") in err, err
    # not a timing check: it did not run on to check the proof
    assert time.monotonic() - start < float(limit) + 13.5
    for limit in ("0.5", "1.5", "4.5", "13.5"):
        assert main(["count", "clue1", "--proof", f"q{limit}.drat", "--quiet", "--time-limit", limit]) == 3
        err = capsys.readouterr().err
        if "nothing was searched yet to keep" not in err:
            break
    hint = err.split("continue with: ")[1].split()
    assert "--proof" not in hint and "--resume" in hint


def test_one_deadline_answers_how_long_is_left_and_whether_it_passed():
    from satiling.limits import NO_DEADLINE, Deadline, clock
    assert Deadline.after(None) is NO_DEADLINE
    assert NO_DEADLINE.left() is None and not NO_DEADLINE.expired()
    now = clock()
    soon = Deadline.after(60.0, since=now)
    assert soon.at == now + 60.0 and 0 < soon.left() <= 60.0 and not soon.expired()
    assert soon.later(0.5).at == soon.at + 0.5 and NO_DEADLINE.later(0.5) is NO_DEADLINE
    gone = Deadline.after(1.0, since=now - 2.0)
    assert gone.expired() and gone.left() == 0.0 and gone.left(floor=1e-3) == 1e-3


def test_each_stop_has_one_exit_code():
    """The exit codes of the module doc of satiling.exits: 3 at a limit, 128 + the signal after
    one; a complete run's code says what it found."""
    assert [Stop.TIME.exit_code, Stop.NODES.exit_code] == [3, 3]
    assert [Stop.INTERRUPTED.exit_code, Stop.TERMINATED.exit_code] == [130, 143]
    assert Stop.DONE.exit_code is None and Stop.LIMIT.exit_code is None
    assert Stop.TIME.said == "time limit" and Stop.INTERRUPTED.said == "interrupted"
