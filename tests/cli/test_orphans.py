"""Workers die with their parent (satiling.children.die_with_parent): a satiling killed with SIGKILL
cannot stop its workers, so every kind of worker stops itself (within a second on an idle machine) -- the maximise
workers, a pool of ``--workers``, the processes of ``--engine race``, a forked SAT solver, and
workers started from a thread other than the main one.  (SIGINT and SIGTERM, which let the
parent keep what its workers found, are tests/cli/test_signals.py.)"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from satiling.children import ChildObject

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

CLI = [sys.executable, "-m", "satiling.cli"]
#: seconds the workers have to end once their parent is dead (a second on an idle machine; a
#: worker that outlived its parent would search on for ever, so a longer wait tells them apart
#: just as well on a loaded one)
GRACE = 30.0
#: seconds a run may take to start its workers (a loaded machine; never reached on an idle one)
START = 60.0


def session(sid: int) -> list[int]:
    """The live processes of session ``sid`` (a run started in its own session: the parent and
    everything it started, even the children that moved to a process group of their own)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
        except OSError:                          # ended while we looked
            continue
        state, _ppid, _pgrp, sess = stat[stat.rindex(")") + 2:].split()[:4]
        if int(sess) == sid and state != "Z":    # a zombie has ended (its reaper is not ours)
            found.append(int(name))
    return found


def kill_session(sid: int) -> None:
    """Leave nothing behind, whatever the test found."""
    for pid in session(sid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def left_after_parent_killed(args: list[str], workers: int) -> list[str]:
    """Start ``args`` in a session of its own, wait until it runs ``workers`` other processes,
    SIGKILL the parent, and return the command lines of the processes still alive when every
    one has ended or ``GRACE`` seconds have passed."""
    p = subprocess.Popen(args, start_new_session=True, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + START
        while len(session(p.pid)) < workers + 1:
            assert p.poll() is None, f"{args} ended before its workers ran: {p.stderr.read()}"
            assert time.monotonic() < deadline, f"{args}: no {workers} workers in {START} s"
            time.sleep(0.05)
        p.kill()
        p.wait()
        deadline = time.monotonic() + GRACE
        while session(p.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        return [_cmdline(pid) for pid in session(p.pid)]
    finally:
        p.kill()
        p.wait()
        p.stderr.close()
        kill_session(p.pid)


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f"{pid}: " + f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return f"{pid}: (ended)"


def test_maximise_workers_die_with_their_parent():
    """The issue: both workers of a maximisation with no time limit searched on, forever."""
    left = left_after_parent_killed(CLI + ["solve", "eternity2", "--maximize-matches"], workers=2)
    assert left == []


def test_count_pool_workers_die_with_their_parent():
    """count --workers: a pool of spawned processes (and the pool's resource tracker)."""
    left = left_after_parent_killed(CLI + ["count", "clue2", "--workers", "2", "--quiet"], workers=3)
    assert left == []


def test_race_solvers_die_with_their_parent():
    """--engine race: two SAT solvers in forked children, inside a C call that never returns."""
    left = left_after_parent_killed(CLI + ["solve", "tortoise", "--engine", "race"], workers=2)
    assert left == []


def test_forked_sat_solver_dies_with_its_parent():
    left = left_after_parent_killed(CLI + ["solve", "tortoise", "--solver", "cadical"], workers=1)
    assert left == []


SPIN_FROM_A_THREAD = """
import threading
from contextlib import closing
from satiling.children import worker_messages

def spin(send):
    while True:
        pass

def run():
    with closing(worker_messages(spin, [(), ()])) as messages:
        for _ in messages:
            pass

threading.Thread(target=run).start()
"""


def test_workers_started_from_a_thread_die_with_their_parent():
    """The kernel's parent-death signal follows the starting thread, so these workers watch
    their parent process instead."""
    left = left_after_parent_killed([sys.executable, "-c", SPIN_FROM_A_THREAD], workers=2)
    assert left == []


def test_a_child_outlives_the_thread_that_started_it():
    """A forked solver made in a thread that has since ended still answers: the parent-death
    signal, which comes when the starting thread ends, is not used for it."""
    made: list[ChildObject] = []
    maker = threading.Thread(target=lambda: made.append(ChildObject(dict, {"answer": 42})))
    maker.start()
    maker.join()
    time.sleep(0.3)                       # a signal at the thread's end would have landed
    try:
        assert made[0].call("get", "answer") == 42
    finally:
        made[0].close()


def test_a_pool_stopped_early_leaves_nothing_on_stderr(tmp_path):
    """Workers stopped at the limit: their pool's semaphores are released before the exit, so
    multiprocessing's resource tracker has nothing to warn about on stderr."""
    r = subprocess.run([sys.executable, "-m", "satiling", "enumerate", "hexiamond-6x6", "--raw",
                        "--limit", "5", "--workers", "2"], capture_output=True, text=True,
                       timeout=120, cwd=tmp_path)
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 5, r.stderr
    assert "leaked" not in r.stderr and "Warning" not in r.stderr, r.stderr
