"""The interrupt contract (satiling/signals.py): SIGINT and SIGTERM stop every solver cleanly, keep
what was found, exit 130 / 143, never a traceback; solvers in child processes give the answers the
same solvers give in this process; no solver banner reaches stdout."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

import satiling
from satiling.errors import SatilingError
from satiling.limits import Deadline
from satiling.search.solve import open_pysat, primary_true, solve
from satiling.children import ChildDied, race_in_children, run_in_child
from satiling.signals import Interrupt, exit_code, in_thread, interrupts, stop_on

CLI = [sys.executable, "-m", "satiling.cli"]


def signalled(args: list[str], sig: int, after: float, cwd) -> subprocess.CompletedProcess:
    """Run satiling, send ``sig`` once it has worked ``after`` seconds, wait for it to stop."""
    p = subprocess.Popen(CLI + args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    handled(p.pid)
    time.sleep(after)
    p.send_signal(sig)
    out, err = p.communicate(timeout=60)
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


def handled(pid: int, seconds: float = 30.0) -> None:
    """Until process ``pid`` catches SIGTERM (its ``SigCgt`` mask; Python itself never does):
    satiling's own handlers are in, so its work has begun.  On a busy machine Python's start-up
    alone may take the seconds a test means satiling to work, and a signal before the handlers
    ends it as Python does (the README says so), which is not what these tests ask."""
    deadline = time.monotonic() + seconds
    bit = 1 << (signal.SIGTERM - 1)
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/status") as f:
                caught = next(int(line.split()[1], 16) for line in f if line.startswith("SigCgt:"))
        except (OSError, StopIteration):      # no /proc here, or the process has ended
            return
        if caught & bit:
            return
        time.sleep(0.01)


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_sat_count_stops_cleanly(sig, code, tmp_path):
    """CaDiCaL used to abort the process ("invalid API usage") on Ctrl-C during count --engine sat."""
    r = signalled(["count", "pentomino-6x10", "--engine", "sat", "--quiet"], sig, 1.5, tmp_path)
    assert "Traceback" not in r.stderr and "fatal" not in r.stderr
    if r.returncode == 0:                      # a fast machine finished first: the published count
        assert r.stdout.split() == ["2339"]
        return
    assert r.returncode == code, r.stderr
    assert "partial" in r.stderr or "solutions" not in r.stderr


def test_sat_enumerate_keeps_whole_lines(tmp_path):
    out = tmp_path / "s.jsonl"
    r = signalled(["enumerate", "pentomino-6x10", "--engine", "sat", "--out", str(out), "--quiet"],
                  signal.SIGTERM, 1.5, tmp_path)
    assert "Traceback" not in r.stderr
    assert r.returncode in (143, 0), r.stderr
    text = out.read_text() if out.exists() else ""
    assert text == "" or text.endswith("\n")
    records = [json.loads(line) for line in text.splitlines()]     # every line whole JSON
    lines = [r for r in records if "placements" in r]               # (the first is a header)
    if lines:                                    # what was kept verifies
        v = subprocess.run(CLI + ["verify", "pentomino-6x10", str(out)], capture_output=True, text=True)
        assert v.returncode == 0 and v.stdout.split()[0] == str(len(lines))


def test_cadical_solve_stops_at_once(tmp_path):
    """Tortoise takes CaDiCaL minutes (the walk: seconds); SIGTERM ends it within seconds."""
    start = time.monotonic()
    r = signalled(["solve", "tortoise", "--solver", "cadical"], signal.SIGTERM, 3.0, tmp_path)
    assert r.returncode == 143 and "Traceback" not in r.stderr, r.stderr
    assert time.monotonic() - start < 20


def test_no_banner_on_stdout(tmp_path):
    """HiGHS prints a banner on stdout from C; in the child it goes to stderr, and --json parses."""
    r = subprocess.run(CLI + ["solve", "tetromino-4x10", "--solver", "highs", "--json"],
                       capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert r.returncode == 0, r.stderr
    solution = json.loads(r.stdout)
    assert len(solution["placements"]) == 10
    assert subprocess.run(CLI + ["verify", "tetromino-4x10", "-"], input=r.stdout,
                          capture_output=True, text=True).returncode == 0


def test_child_sat_finds_what_the_walk_finds():
    """Every solution of a small board by the SAT solver in its child process (blocking clauses)
    and by the exact-cover walk here, an independent engine: the same set (140 of them)."""
    from satiling.engines.exactcover_ref import Walk
    problem = satiling.load("tetromino-cylinder-4x5").problem()
    sat = set()
    with open_pysat(problem, "cadical195") as s:
        while s.solve():
            true = primary_true(problem, s.get_model())
            sat.add(true)
            s.add_clause([-v for v in true])
    assert sat == set(Walk(problem).solutions()) and sat


def test_solvers_in_child_find_verified_solutions():
    puzzle = satiling.load("tetromino-4x10")
    problem = puzzle.problem()
    for solver in ("glucose", "cpsat", "walk", "auto"):
        result = solve(problem, solver)
        assert result.status == "SAT"
        puzzle.verify(problem.decode(result.true_vars))


def _raise_user_error() -> None:
    raise SatilingError("bad input")


def _sleep(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def _print_and_return() -> int:
    print("a solver's banner")
    sys.stdout.flush()
    os.write(1, b"from C\n")
    return 7


def test_run_in_child(capfd):
    assert run_in_child(_sleep, 0.0) == 0.0
    with pytest.raises(SatilingError, match="bad input"):
        run_in_child(_raise_user_error)
    with pytest.raises(TimeoutError):
        run_in_child(_sleep, 30.0, deadline=Deadline.after(0.5))
    assert run_in_child(_print_and_return) == 7
    captured = capfd.readouterr()
    assert "banner" not in captured.out and "from C" not in captured.out
    assert "banner" in captured.err and "from C" in captured.err


def _die() -> None:
    os._exit(9)


def test_race_in_children():
    """The first answer wins and the others are killed; a child that dies drops out."""
    start = time.monotonic()
    assert race_in_children([(_sleep, (30.0,)), (_sleep, (0.1,))]) == (1, 0.1)
    assert time.monotonic() - start < 10
    assert race_in_children([(_die, ()), (_sleep, (0.2,))]) == (1, 0.2)
    with pytest.raises(ChildDied):
        race_in_children([(_die, ()), (_die, ())])
    with pytest.raises(TimeoutError):
        race_in_children([(_sleep, (30.0,)), (_sleep, (30.0,))], Deadline.after(0.3))
    with pytest.raises(SatilingError, match="bad input"):
        race_in_children([(_raise_user_error, ()), (_sleep, (30.0,))])


def test_race_of_sat_solvers(tmp_path):
    """solve --solver race: an answer verified like any other, and who gave it; a race cannot count."""
    r = subprocess.run(CLI + ["solve", "clue1", "--solver", "race", "--json"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "first of cadical195+cadical153" in r.stderr
    assert json.loads(r.stdout)
    r = subprocess.run(CLI + ["solve", "tetromino-4x10", "--solver", "cadical153+glucose4"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "first of cadical153+glucose4" in r.stderr, r.stderr
    for bad in (["solve", "clue1", "--solver", "cadical+nosuch"],
                ["count", "tetromino-4x10", "--engine", "sat", "--solver", "race"]):
        r = subprocess.run(CLI + bad, cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr


def test_stop_on_reasons():
    with stop_on(0.3) as stop:
        stop.arm()
        time.sleep(5)
    assert stop.reason == "time limit"
    with stop_on(None) as stop:
        stop.arm()
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)
    assert stop.reason == "terminated" and exit_code(reason=stop.reason) == 143
    with stop_on(None) as stop:
        stop.arm()
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)
    assert stop.reason == "interrupted" and exit_code(reason=stop.reason) == 130
    assert exit_code(Interrupt(signal.SIGTERM)) == 143 and exit_code(KeyboardInterrupt()) == 130
    assert ChildDied.__mro__[1] is Exception


def test_a_limit_that_lands_in_an_import_waits_for_the_module(tmp_path, monkeypatch):
    """A time limit or a signal during an import stops the block once the module is made: cut
    off halfway, the module would stay half made for every module that imported it (a library
    user's numpy without its functions after a count's time limit)."""
    (tmp_path / "slow_module.py").write_text("import time\ntime.sleep(0.4)\nwhole = True\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for signum, reason in ((None, "time limit"), (signal.SIGTERM, "terminated")):
        sys.modules.pop("slow_module", None)
        with stop_on(0.1 if signum is None else None) as stop:
            stop.arm()
            if signum is not None:                # 0.1 s on: inside the import
                threading.Timer(0.1, signal.pthread_kill, (threading.main_thread().ident, signum)).start()
            import slow_module  # noqa: F401
            time.sleep(5)
        assert stop.reason == reason
        assert sys.modules["slow_module"].whole
    # a block that itself runs inside an import (a script's count at the top level of a module)
    # still stops at its limit
    (tmp_path / "counting_module.py").write_text(
        "import time\nfrom satiling.signals import stop_on\n"
        "with stop_on(0.1) as stop:\n    stop.arm()\n    time.sleep(60)\nreason = stop.reason\n")
    began = time.monotonic()
    import counting_module
    assert counting_module.reason == "time limit" and time.monotonic() - began < 40   # not the sleep's end


def test_in_thread_stops_the_work_and_hands_back_its_result_and_errors():
    """A compiled search in a thread (CP-SAT's maximisation, pack): the signal calls ``stop`` and
    the work's result comes back with the signal; its own error reaches the caller; the handlers
    before are back afterwards."""
    import threading
    before = signal.getsignal(signal.SIGTERM)
    stopped = threading.Event()

    def work() -> str:
        os.kill(os.getpid(), signal.SIGTERM)      # the signal comes while the work runs
        assert stopped.wait(30)
        return "best so far"

    assert in_thread(work, stopped.set) == ("best so far", signal.SIGTERM)
    assert in_thread(lambda: 7, stopped.set) == (7, None)

    def broken() -> None:
        raise SatilingError("bad input")

    with pytest.raises(SatilingError, match="bad input"):
        in_thread(broken, stopped.set)
    assert signal.getsignal(signal.SIGTERM) is before



def test_pysats_own_error_for_a_signal_is_the_signal():
    """PySAT's encoders and solvers can turn Ctrl-C inside them into their own error, "Caught
    keyboard interrupt", with nothing chained (a solve --proof stopped while encoding exited 1
    with that traceback): it is the interrupt, 130, or 143 when this process saw SIGTERM."""
    import signal as sig
    import pycard
    from satiling.signals import interrupt_cause
    error = pycard.error("Caught keyboard interrupt")
    assert interrupt_cause(error).exit_code == 130
    assert interrupt_cause(error, sig.SIGTERM).exit_code == 143
    assert interrupt_cause(pycard.error("bad literal")) is None


def test_a_signal_while_the_program_loads_ends_it_with_its_code_and_no_traceback():
    """Ctrl-C in the program's first tenths of a second, while it imports its modules, exits 130
    (SIGTERM 143) at once: nothing is found yet, and a KeyboardInterrupt inside an import would
    end it with a traceback.  The signal is sent the moment the command line's module is looked
    for (a finder placed first on the import path), as a user's Ctrl-C lands."""
    script = ("import os, signal, sys\n"
              "class Trip:\n"
              "    def find_spec(self, name, path=None, target=None):\n"
              "        if name == 'satiling.cli.main':\n"
              "            os.kill(os.getpid(), signal.%s)\n"
              "        return None\n"
              "sys.meta_path.insert(0, Trip())\n"
              "sys.argv = ['satiling', 'count', 'pentomino-6x10']\n"
              "from satiling.launch import main\n"
              "main()\n")
    for sig, code in (("SIGINT", 130), ("SIGTERM", 143)):
        r = subprocess.run([sys.executable, "-c", script % sig], capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == code and r.stderr == "" and r.stdout == ""


class _SwallowsIt:
    """An object whose ``__del__`` takes a SIGINT: the Interrupt raised there is one Python only
    prints and drops (as in the at-fork handlers that run around every fork)."""

    def __del__(self):
        # to the main thread itself: a process-wide signal may be taken by another thread (the
        # test runner's), and the main thread then sleeps on, never woken, to the sleep's end
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
        for _ in range(1000):             # the handler runs here, inside __del__
            pass


def test_a_stop_python_swallows_comes_again(capsys):
    """A Ctrl-C landing where Python ignores errors (logging's lock released after a fork, in
    the parent: a count by CP-SAT ran on to its end) is sent again, and the block stops."""
    with stop_on(None) as stop:
        stop.arm()
        _SwallowsIt()
        time.sleep(60)
    assert stop.reason == "interrupted"
    began = time.monotonic()
    with pytest.raises(Interrupt):
        with interrupts():
            _SwallowsIt()
            time.sleep(60)
    assert time.monotonic() - began < 40      # sent again: not the sleep's end
    assert "Interrupt" not in capsys.readouterr().err     # dropped quietly, raised again


def _kept(path) -> int:
    """The solutions a checkpoint keeps: its finished cubes, and the last record of each cube
    searched in part (as the count's reader takes them)."""
    done, parts = {}, {}
    for line in path.read_text().splitlines()[1:]:
        record = json.loads(line)
        (parts if "left" in record else done)[record["cube"]] = record["count"]
    return sum(done.values()) + sum(n for cube, n in parts.items() if cube not in done)


def test_a_stopped_count_says_what_its_checkpoint_keeps(tmp_path):
    """A stopped count said "10048 solutions so far" where its checkpoint kept 9911 (the cube in
    progress counted past the last place the search recorded): what it says is kept is what a
    resumed count starts from, at every stop, and the stops end at the published 16146."""
    import re
    ck = tmp_path / "c.jsonl"
    args = ["count", "pentomino-8x8-square", "--quiet", "--resume", str(ck)]
    for after in (0.1, 0.2, 0.4, 0.3, 0.6):
        r = signalled(args, signal.SIGINT, after, tmp_path)
        if r.returncode == 0:                  # a fast machine finished first
            break
        assert r.returncode == 130, r.stderr
        said = re.search(r"(\d+) solutions so far", r.stderr)
        if said is None:                       # stopped while the model was built: no count yet
            assert "Traceback" not in r.stderr and len(r.stderr.splitlines()) == 1, r.stderr
            continue
        so_far = int(said.group(1))
        recounted = re.search(r"all but the last (\d+) of them kept", r.stderr)
        assert _kept(ck) == so_far - (int(recounted.group(1)) if recounted else 0), r.stderr
    r = subprocess.run(CLI + args, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert (r.returncode, r.stdout.split()) == (0, ["16146"]), r.stderr


@pytest.mark.parametrize("sig, code, said", [(signal.SIGINT, 130, "interrupted"),
                                             (signal.SIGTERM, 143, "terminated")])
def test_a_stopped_maximisation_says_how_it_was_stopped(sig, code, said, tmp_path):
    """Its last line named every signal "interrupted", where the exit code says which."""
    r = signalled(["solve", "eternity2", "--maximize-matches", "--threads", "1"], sig, 1.0, tmp_path)
    assert r.returncode == code, r.stderr
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("satiling: eternity2: best score") and f", {said} after" in last, last
