"""The local worker pool: its workers leave Ctrl-C to the driver, and stopping it says nothing."""
import concurrent.futures as cf
import signal
import threading

from satiling.search import workers


def _sigint_handler() -> object:
    return signal.getsignal(signal.SIGINT)


def test_workers_leave_ctrl_c_to_the_driver():
    """Ctrl-C at a terminal reaches every process of the group: a worker that took it would print
    its own KeyboardInterrupt traceback; the driver stops the workers itself."""
    with workers.executor(2) as ex:
        assert ex.submit(_sigint_handler).result() == signal.SIG_IGN


class _ExecutorManagerThread(threading.Thread):      # the name of the pool's own thread class
    pass


def test_the_pools_harmless_race_prints_nothing_and_other_errors_still_do():
    """Python 3.11's pool marks cubes cancelled a moment before as failed when its workers are
    killed: InvalidStateError in its manager thread, a traceback after every Ctrl-C."""
    before = threading.excepthook
    seen = []
    try:
        threading.excepthook = lambda args: seen.append((args.exc_type, type(args.thread).__name__))
        workers._quiet_pool_race()
        workers._quiet_pool_race()               # once is enough, twice changes nothing
        for error, thread_class in ((cf.InvalidStateError, _ExecutorManagerThread),
                                    (ValueError, _ExecutorManagerThread),
                                    (cf.InvalidStateError, threading.Thread)):
            thread = thread_class(target=lambda e=error: (_ for _ in ()).throw(e("x")))
            thread.start()
            thread.join()
    finally:
        threading.excepthook = before
    assert seen == [(ValueError, "_ExecutorManagerThread"), (cf.InvalidStateError, "Thread")]


_LEAVE_A_SEMAPHORE = """
import os, sys
if sys.argv[1] == "quiet":
    from satiling.children import quiet_resource_tracker
    quiet_resource_tracker()
import multiprocessing
lock = multiprocessing.get_context("spawn").Semaphore()    # as a stopped pool's queue leaves one
os._exit(0)                                               # as the program leaves
"""


def test_a_stopped_pools_semaphore_gives_no_warning_on_stderr():
    """A --workers run stopped by its time limit or SIGTERM printed, one time in seven, four lines
    of multiprocessing's resource tracker after its one line: it removes what the program left
    behind, and warns (here without satiling's filter, then with it: the same program)."""
    import subprocess
    import sys
    runs = {mode: subprocess.run([sys.executable, "-c", _LEAVE_A_SEMAPHORE, mode], capture_output=True,
                                 text=True, timeout=60) for mode in ("plain", "quiet")}
    assert "leaked semaphore" in runs["plain"].stderr        # the test does reproduce it
    assert runs["quiet"].stderr == "" and runs["quiet"].returncode == 0


def _one_message(x, send):
    send(x)


def test_a_ctrl_c_as_a_forked_worker_starts_is_no_traceback(monkeypatch, capfd):
    """Ctrl-C at the terminal reaches every process of the group, a worker just forked too: before
    it set its own handlers, the parent's raised KeyboardInterrupt in it (a traceback on stderr, a
    failed worker).  Here the signal lands in that moment, every time."""
    import os
    import signal
    from satiling import children
    monkeypatch.setattr(children, "die_with_parent", lambda parent: os.kill(os.getpid(), signal.SIGINT))

    def parents_handler(signum, frame):
        raise KeyboardInterrupt
    old = signal.signal(signal.SIGINT, parents_handler)
    try:
        got = sorted(children.worker_messages(_one_message, [(1,), (2,)]))
    finally:
        signal.signal(signal.SIGINT, old)
    assert got == [1, 2]
    assert "Traceback" not in capfd.readouterr().err
