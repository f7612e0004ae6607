"""One interrupt contract for every command and every solver.

SIGINT (Ctrl-C) and SIGTERM both raise :class:`Interrupt`, a ``KeyboardInterrupt`` that remembers its
signal, so every ``except KeyboardInterrupt`` and every ``finally`` already in the code cleans up the
same way for both.  A command keeps what it found (the solutions so far, the count so far marked
partial) and the CLI exits ``128 + signal``: 130 for SIGINT, 143 for SIGTERM.

Python code is interrupted between two bytecodes.  A solver inside a C call is not, so such solvers
run in a forked child (:mod:`satiling.children`) while this process waits in Python.

:class:`stop_on` turns an interrupt or a time limit into a clean end of a block (counts and
enumerations), with a critical section for writing a solution and counting it; :func:`on_signals`
turns them into a call, and :func:`in_thread` runs a compiled search in a thread that such a
call stops.  Every signal handler of satiling is installed here; the exit codes are in
:mod:`satiling.exits`.
"""
from __future__ import annotations

import os
import signal
import sys
import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator, TypeVar

from .errors import SatilingError
from .exits import signal_exit
from .limits import MAX_SECONDS

SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: why a run stopped, by signal (``Outcome.stopped`` of counts and enumerations)
REASONS = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated"}
#: a stop that came during an import is tried again this many seconds later
AGAIN_SECONDS = 0.02
T = TypeVar("T")


class Interrupt(KeyboardInterrupt):
    """SIGINT or SIGTERM arrived; ``exit_code`` is what the command exits with."""

    def __init__(self, signum: int = signal.SIGINT) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return signal_exit(self.signum)


def exit_code(exc: BaseException | None = None, reason: str = "interrupted") -> int:
    """130 or 143: from an exception (a plain KeyboardInterrupt is SIGINT) or a stop reason."""
    if isinstance(exc, Interrupt):
        return exc.exit_code
    if exc is None and reason == REASONS[signal.SIGTERM]:
        return signal_exit(signal.SIGTERM)
    return signal_exit(signal.SIGINT)


@contextmanager
def interrupts(final: bool = False) -> Iterator[list[int]]:
    """SIGINT and SIGTERM raise :class:`Interrupt` inside the block (the CLI's whole run).

    ``final``: the block is the program's whole work; after it (interpreter shutdown, workers
    joined) a signal ends the process at once with 130 / 143 instead of raising where nothing
    would catch it.  The handler switches in one step, so no signal finds a gap between the two.
    Yields the list of the signals that came (for :func:`interrupt_cause`).
    """
    received: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield received
        return
    closing = False

    def handler(signum: int, frame: Any) -> None:
        if closing:
            _leave(signum)
        received.append(signum)
        raise Interrupt(signum)

    def again(signum: int) -> None:
        if not closing:
            signal.pthread_kill(threading.main_thread().ident, signum)

    old = {sig: signal.signal(sig, handler) for sig in SIGNALS}
    hook = _Swallowed(again)
    try:
        yield received
    finally:
        hook.remove()
        if final:
            closing = True
        else:
            for sig, previous in old.items():
                signal.signal(sig, previous)


class _Swallowed:
    """While installed (as ``sys.unraisablehook``), an :class:`Interrupt` that Python swallowed
    -- raised in a callback whose errors it only prints: the at-fork handlers around a fork
    (logging's lock), a ``__del__`` -- is sent again a moment later (``again(signum)``), so
    that a stop is never lost and the search never runs on to its end."""

    def __init__(self, again: Callable[[int], None]) -> None:
        self.again, self.previous = again, sys.unraisablehook
        sys.unraisablehook = self

    def __call__(self, info: Any) -> None:
        if not isinstance(info.exc_value, Interrupt):
            self.previous(info)
            return
        timer = threading.Timer(AGAIN_SECONDS, self.again, (info.exc_value.signum,))
        timer.daemon = True
        timer.start()

    def remove(self) -> None:
        if sys.unraisablehook is self:
            sys.unraisablehook = self.previous


def importing(frame: Any, outer: Any = None) -> bool:
    """Whether the frame runs inside an import (a module's top level being executed) that began
    below ``outer`` (a block running inside an import of its own, a script's count at the top
    level of an imported module, is not thereby kept from stopping)."""
    while frame is not None and frame is not outer:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def interrupt_cause(exc: BaseException | None, signum: int = 0) -> KeyboardInterrupt | None:
    """The interrupt an error came from, if any: a signal that lands while a compiled module
    initialises (``import ortools...``) comes out as ``ImportError: initialization failed``
    caused by the KeyboardInterrupt; one that lands inside PySAT's encoders or solvers can come
    out as their own error, "Caught keyboard interrupt", with nothing chained (PySAT catches
    SIGINT alone; ``signum``: the signal this process's handler saw, if it saw one)."""
    first, seen = exc, 0
    while exc is not None and seen < 20:
        if isinstance(exc, KeyboardInterrupt):
            return exc
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    if first is not None and "keyboard interrupt" in str(first).lower():
        return Interrupt(signum or signal.SIGINT)
    return None


def _leave(signum: int) -> None:
    leave(signal_exit(signum), release=False)       # a signal's exit waits for nothing


def leave(code: int, release: bool = True) -> None:
    """End the process now with ``code``, its output flushed (no interpreter teardown).  With
    ``release``, the semaphores of a worker pool stopped early are released first, within half a
    second (multiprocessing's own exit step, which the teardown would run): else its resource
    tracker finds them left over and warns on stderr."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        if release:
            _release_semaphores()
    except (OSError, ValueError):
        pass
    finally:
        os._exit(code)


def _release_semaphores() -> None:
    mp_util = sys.modules.get("multiprocessing.util")
    if mp_util is None:
        return
    # exit priority 0 and up: the semaphores' unlinking (and the queues' closing)
    step = threading.Thread(target=mp_util._run_finalizers, args=(0,), daemon=True)
    step.start()
    step.join(0.5)


@contextmanager
def on_signals(callback: Callable[[int], None]) -> Iterator[list[int]]:
    """Inside the block SIGINT and SIGTERM call ``callback(signum)`` instead of raising (the main
    thread waits while a search runs in another and is asked to stop); the list it yields holds
    the signals that came, so the command can exit ``signal_exit`` of the first."""
    caught: list[int] = []

    def handler(signum: int, frame: Any) -> None:
        caught.append(signum)
        callback(signum)

    old = {sig: signal.signal(sig, handler) for sig in SIGNALS}
    try:
        yield caught
    finally:
        for sig, previous in old.items():
            signal.signal(sig, previous)


def in_thread(work: Callable[[], T], stop: Callable[[], None]) -> tuple[T, int | None]:
    """``work()`` in a thread while this thread takes SIGINT and SIGTERM, each calling ``stop()``:
    for a compiled solver that a signal cannot interrupt but a call can stop (CP-SAT's
    ``stop_search``).  Returns what ``work`` returned and the first signal that came (None if none).

    Why not the solver's own handler: CP-SAT's logs from inside the C signal handler and can
    deadlock there, and it takes no SIGTERM.  Why not ``except KeyboardInterrupt`` around
    ``join``: a join an exception breaks may take the thread for finished, and the process then
    exits under a running solver and aborts."""
    if threading.current_thread() is not threading.main_thread():
        return work(), None
    result: list[T] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            result.append(work())
        except BaseException as exc:     # handed to the caller's thread below
            failed.append(exc)

    with on_signals(lambda signum: stop()) as caught:
        worker = threading.Thread(target=run, daemon=True)
        worker.start()
        while worker.is_alive():
            worker.join(0.2)
            if caught:
                stop()     # again: a stop that came before the solver started may have been lost
    if failed:
        raise failed[0]
    return result[0], (caught[0] if caught else None)


def default_in_child() -> None:
    """In a forked solver: SIGINT and SIGTERM end it (the parent decides, and kills it)."""
    for sig in SIGNALS:
        signal.signal(sig, signal.SIG_DFL)


def ignore_in_child() -> None:
    """In a worker process of a search: Ctrl-C at the terminal reaches the whole process group,
    and the parent stops its workers itself; SIGTERM (the parent's kill) ends the worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def within(seconds: float | None, work: Callable[[], T]) -> tuple[bool, T | None]:
    """(True, ``work()``), or (False, None) when ``seconds`` ran out first (the work is stopped by
    the time limit's signal, as :class:`stop_on` stops a block).  Ctrl-C and SIGTERM rise as they
    would outside.  Off the main thread, or with no limit, ``work()`` runs unbounded: the limit
    stops it by a signal to the main thread."""
    if seconds is None or threading.current_thread() is not threading.main_thread():
        return True, work()
    with stop_on(seconds) as stop:
        stop.arm()
        return True, work()
    if stop.reason == "time limit":
        return False, None
    raise Interrupt(stop.signum or signal.SIGINT)


# -- stopping a block cleanly -----------------------------------------------------------------------
class stop_on:
    """Turn SIGINT, SIGTERM and the time limit into a clean stop: the block ends, ``reason`` says
    why ("" if it ran to the end; "interrupted", "terminated" or "time limit").  Cleanup inside
    the block (closing workers) runs first.

    The block starts with ``stop.arm()``: the clock and the signal handlers start there, inside the
    block, so a limit already used up (by building the model) still ends the block cleanly.
    Inside ``with stop.critical():`` (writing a solution and counting it) a stop waits until the
    section is over, so what was written and what was counted always agree.
    """

    def __init__(self, seconds: float | None) -> None:
        self.seconds, self.reason = seconds, ""
        self.signum = 0
        self._expired = self._done = False
        self._in_critical = self._pending = self._leaving = False
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._old: dict = {}
        self._block: Any = None
        self._hook: _Swallowed | None = None

    def __enter__(self) -> "stop_on":
        self._block = sys._getframe(1)          # the frame the with-block runs in
        return self

    def arm(self) -> None:
        main = threading.current_thread() is threading.main_thread()
        if main:
            for sig in SIGNALS:
                self._old[sig] = signal.signal(sig, self._on_signal)
            self._hook = _Swallowed(self._again)
        if self.seconds is None:
            return
        if not main:
            raise SatilingError("a time limit needs the main thread (it stops the run with a signal)")
        if self.seconds <= 0:
            self._expired = True
            raise KeyboardInterrupt
        # beyond threading.TIMEOUT_MAX the timer thread dies at once and the run has no limit:
        # the longest limit the CLI takes (years) is far below it, and longer ones are cut to it
        self._timer = threading.Timer(min(self.seconds, MAX_SECONDS), self._expire)
        self._timer.daemon = True
        self._timer.start()

    def _expire(self) -> None:
        with self._lock:
            if not self._done:
                self._expired = True
                # a real signal, which also wakes a main thread blocked in a system call (waiting
                # for a child solver); _thread.interrupt_main would wait until that call returns
                signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)

    def _on_signal(self, signum: int, frame: Any) -> None:
        if not (self._expired and signum == signal.SIGINT) and not self.signum:
            self.signum = signum                   # the first real signal decides the exit code
        if self._in_critical or self._leaving:     # never raise inside the cleanup
            self._pending = True
        elif importing(frame, self._block):
            # a module cut off halfway stays half made for every module that imported it (numpy
            # without its ufuncs for the rest of a library user's session): stop once it is made
            self._later(signum)
        else:
            raise Interrupt(signum)

    def _later(self, signum: int) -> None:
        timer = threading.Timer(AGAIN_SECONDS, self._again, (signum,))
        timer.daemon = True
        timer.start()

    def _again(self, signum: int) -> None:
        with self._lock:
            if not self._done:
                signal.pthread_kill(threading.main_thread().ident, signum)

    @contextmanager
    def critical(self) -> Iterator[None]:
        self._in_critical = True
        try:
            yield
        finally:
            self._in_critical = False
        if self._pending:
            raise Interrupt(self.signum or signal.SIGINT)

    def __exit__(self, exc_type, exc, tb) -> bool:
        self._leaving = True
        with self._lock:
            self._done = True
        if self._timer is not None:
            self._timer.cancel()
        if self._hook is not None:
            self._hook.remove()
        for sig, handler in self._old.items():
            signal.signal(sig, handler)
        if exc_type is not None and interrupt_cause(exc, self.signum or (signal.SIGINT if self._expired else 0)) is not None:
            if self.signum:
                self.reason = REASONS.get(self.signum, "interrupted")
            elif self._expired:
                self.reason = "time limit"
            else:
                signum = getattr(interrupt_cause(exc), "signum", signal.SIGINT)
                self.reason = REASONS.get(signum, "interrupted")
            return True
        return False
