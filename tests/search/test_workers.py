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
