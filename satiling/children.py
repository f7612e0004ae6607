"""Solvers in a forked child process, so that an interrupt or a time limit can always stop them.

Python code is interrupted between two bytecodes.  A solver inside a C call is not (a SAT solver through
PySAT cannot be interrupted at all, and Ctrl-C in the middle of its search leaves it in a state that
aborts the process), so such solvers run in a forked child (:func:`run_in_child`,
:class:`ChildObject`, :func:`child_items`, :func:`race_in_children`) while this process waits in
Python; on an interrupt the child is killed.  The child also sends its stdout to stderr, so a
solver's banner never mixes with the data on stdout.

Every process satiling starts -- these children, the workers of :func:`worker_messages`, the
process pools of :mod:`satiling.search.workers` -- first calls :func:`die_with_parent`: a parent
killed with SIGKILL cannot stop them, so they stop themselves.
"""
from __future__ import annotations

import os
import pickle
import select
import signal
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from .errors import SatilingError
from .limits import NO_DEADLINE, Deadline
from .signals import default_in_child


class _Child:
    """A forked process running ``serve(send, recv)``; messages are pickled over two pipes."""

    def __init__(self, serve: Callable[[Callable[[Any], None], Callable[[], Any]], None]) -> None:
        down_r, down_w = os.pipe()        # requests to the child
        up_r, up_w = os.pipe()            # answers from it
        parent = this_process()
        sys.stdout.flush()
        sys.stderr.flush()
        self.pid = os.fork()
        if self.pid == 0:                                    # the child
            os.close(down_w)
            os.close(up_r)
            code = 0
            try:
                _become_child(parent)
                with os.fdopen(up_w, "wb") as up, os.fdopen(down_r, "rb") as down:
                    serve(lambda msg: _send(up, msg), lambda: pickle.load(down))
            except BaseException:                            # noqa: the parent sees a closed pipe
                code = 1
            finally:
                sys.stderr.flush()
                os._exit(code)
        os.close(down_r)
        os.close(up_w)
        self._down = os.fdopen(down_w, "wb")
        self._up = os.fdopen(up_r, "rb")
        self.alive = True

    def fileno(self) -> int:
        """The pipe the answers come on (for select)."""
        return self._up.fileno()

    def send(self, msg: Any) -> None:
        _send(self._down, msg)

    def receive(self, deadline: Deadline = NO_DEADLINE) -> Any:
        """The next answer; TimeoutError at the deadline.  Waiting is plain Python, so a signal
        interrupts it (and the caller kills the child)."""
        fd = self._up.fileno()
        while deadline.at is not None:
            left = deadline.left()
            if left <= 0:
                raise TimeoutError
            if select.select([fd], [], [], left)[0]:
                break
        try:
            return pickle.load(self._up)
        except (EOFError, pickle.UnpicklingError):
            raise ChildDied from None

    def kill(self) -> None:
        if not self.alive:
            return
        self.alive = False
        for f in (self._down, self._up):
            try:
                f.close()
            except OSError:
                pass
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(self.pid, 0)


class ChildDied(Exception):
    """The child process ended without answering (killed, out of memory, a crash in C)."""


def _send(f, msg: Any) -> None:
    pickle.dump(msg, f, protocol=pickle.HIGHEST_PROTOCOL)
    f.flush()


def _become_child(parent: Parent) -> None:
    """The child dies with its parent, leaves the terminal's Ctrl-C to it (which kills it), and
    writes what solvers print to stderr."""
    die_with_parent(parent)
    default_in_child()
    os.setpgrp()                          # Ctrl-C at the terminal goes to the parent only
    os.dup2(2, 1)                         # a solver's banner never reaches the data on stdout
    sys.stdout = sys.stderr


# -- a worker dies with the process that started it ---------------------------------------------
@dataclass(frozen=True)
class Parent:
    """Who starts a worker: its process id, and whether the starting thread is the main thread
    (one that lives as long as the process)."""

    pid: int
    main_thread: bool


def quiet_resource_tracker() -> None:
    """The program leaves by ``os._exit`` (its answer printed, its files closed), so semaphores of
    a process pool it stopped are left to multiprocessing's resource tracker, which removes them
    and warns on stderr, several lines of it: the tracker, a process of its own started later,
    takes this warning filter with it."""
    quiet = "ignore:resource_tracker:UserWarning"
    if quiet not in sys.warnoptions:
        sys.warnoptions.append(quiet)


def this_process() -> Parent:
    """This process and thread as a worker's :class:`Parent` (taken before starting it)."""
    return Parent(os.getpid(), threading.current_thread() is threading.main_thread())


#: prctl's option: a signal for this process when its parent dies (Linux)
PR_SET_PDEATHSIG = 1
#: seconds between a watcher's looks at the parent
WATCH_SECONDS = 0.1


def die_with_parent(parent: Parent) -> None:
    """The first thing a worker does: end when ``parent`` ends, however it ends (SIGKILL too).

    On Linux the kernel kills the worker (PR_SET_PDEATHSIG) the moment its parent dies, even in
    the middle of a compiled search that never lets Python run.  That signal comes when the
    parent *thread* ends, so it is only used for workers the main thread starts; others, and
    systems without prctl, get a thread that watches the parent.  A parent that died before
    this call has already made the worker an orphan: it ends at once."""
    if parent.main_thread and _kernel_kills_orphan():
        if os.getppid() != parent.pid:    # the parent died before the kernel took note
            os._exit(1)
        return
    threading.Thread(target=_watch, args=(parent.pid,), daemon=True,
                     name="satiling-parent-watch").start()


def _kernel_kills_orphan() -> bool:
    """SIGKILL for this process when its parent dies (True), or False where prctl is missing."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    """An orphan's parent is its reaper, never its old parent: leave when the parent changes.
    (It runs whenever the worker runs Python; a compiled search holding the interpreter lets it
    run at its next return to Python.)"""
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)


def _answer(func: Callable[[], Any]) -> tuple[str, Any]:
    """("ok", value) or ("error", exception) -- a SatilingError keeps its message."""
    try:
        return "ok", func()
    except SatilingError as e:
        return "error", SatilingError(e.template or str(e), **e.parts)   # its options kept
    except Exception as e:                                   # noqa: a bug, reported by type
        return "error", RuntimeError(f"{type(e).__name__}: {e}")


def _unwrap(answer: tuple[str, Any]) -> Any:
    kind, value = answer
    if kind == "error":
        raise value
    return value


def run_in_child(func: Callable[..., Any], *args: Any, deadline: Deadline = NO_DEADLINE) -> Any:
    """``func(*args)`` computed in a forked child.  TimeoutError when ``deadline`` passes first;
    on a signal (or any other exit) the child is killed."""

    def serve(send, receive) -> None:
        send(_answer(lambda: func(*args)))

    child = _Child(serve)
    try:
        return _unwrap(child.receive(deadline))
    finally:
        child.kill()


def race_in_children(calls: list[tuple[Callable[..., Any], tuple]],
                     deadline: Deadline = NO_DEADLINE) -> tuple[int, Any]:
    """A portfolio: each ``func(*args)`` of ``calls`` in its own forked child, at the same time.
    Returns (index, value) of the first to answer and kills the rest.  A child that dies without
    answering drops out (ChildDied when all have); TimeoutError when ``deadline`` passes."""
    children: list[_Child] = []
    try:
        for func, args in calls:
            children.append(_Child(lambda send, receive, f=func, a=args: send(_answer(lambda: f(*a)))))
        waiting = {c.fileno(): (i, c) for i, c in enumerate(children)}
        while waiting:
            left = deadline.left()
            if left is not None and left <= 0:
                raise TimeoutError
            for fd in select.select(list(waiting), [], [], left)[0]:
                i, child = waiting.pop(fd)
                try:
                    return i, _unwrap(child.receive())
                except ChildDied:
                    continue
        raise ChildDied
    finally:
        for child in children:
            child.kill()


class ChildObject:
    """An object built in a forked child, its methods called from here: ``make(*args)`` there,
    then ``call(name, *args)`` for each request.  :meth:`close` (or any interrupt during a call)
    kills the child; a call after that raises :class:`ChildDied`."""

    def __init__(self, make: Callable[..., Any], *args: Any) -> None:
        def serve(send, receive) -> None:
            answer = _answer(lambda: make(*args))
            send(("ok", None) if answer[0] == "ok" else answer)
            if answer[0] != "ok":
                return
            obj = answer[1]
            while True:
                name, call_args = receive()
                send(_answer(lambda: getattr(obj, name)(*call_args)))

        self._child = _Child(serve)
        self._call(None)

    def _call(self, request: tuple[str, tuple] | None) -> Any:
        if not self._child.alive:
            raise ChildDied
        try:
            if request is not None:
                self._child.send(request)
            return _unwrap(self._child.receive())
        except BaseException:
            self._child.kill()
            raise

    def call(self, name: str, *args: Any) -> Any:
        return self._call((name, args))

    @property
    def alive(self) -> bool:
        return self._child.alive

    def close(self) -> None:
        self._child.kill()


def child_items(make: Callable[..., Iterator[Any]], *args: Any) -> Iterator[Any]:
    """The items of the iterator ``make(*args)``, produced in a forked child (which runs ahead of
    the reader by what the pipe holds, and is killed when the reader stops or is interrupted)."""
    def serve(send, receive) -> None:
        items = iter(make(*args))
        while True:
            kind, item = _answer(lambda: next(items, _END))
            if kind == "ok" and item is _END:
                send(("end", None))
                return
            send((kind, item))
            if kind == "error":
                return

    child = _Child(serve)
    try:
        while True:
            answer = child.receive()
            if answer[0] == "end":
                return
            yield _unwrap(answer)
    finally:
        child.kill()


_END = object()        # the end of a child's items (never sent itself)


# -- several forked workers, their messages in one stream ---------------------------------------
def worker_messages(work: Callable[..., None], jobs: list[tuple],
                    error: type[Exception] = RuntimeError) -> Iterator[Any]:
    """Run ``work(*job, send)`` in one forked process per job and yield every message the workers
    ``send``, as they come, until every worker has ended.  A worker's exception comes back as
    ``error`` (its type and message).  Leaving the loop early -- close the generator, e.g. with
    ``contextlib.closing`` -- or an interrupt kills the workers still running."""
    import multiprocessing as mp
    from multiprocessing.connection import wait
    ctx = mp.get_context("fork")
    parent_of = this_process()
    procs, conns = [], []
    try:
        for job in jobs:
            parent, child = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_serve_worker, args=(parent_of, work, job, child),
                               daemon=True)
            # the worker starts with Ctrl-C and SIGTERM held until it has its own handlers: one
            # landing before then raised the parent's KeyboardInterrupt in it (a traceback)
            held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
            try:
                proc.start()
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)
            child.close()
            procs.append(proc)
            conns.append(parent)
        live = list(conns)
        while live:
            for conn in wait(live):
                try:
                    msg = conn.recv()
                except EOFError:                   # the worker has ended
                    live.remove(conn)
                    continue
                if isinstance(msg, tuple) and msg and msg[0] == _FAILED:
                    raise error(msg[1])
                yield msg
    finally:
        for proc in procs:
            if proc.is_alive():
                proc.kill()
            proc.join()
        for conn in conns:
            conn.close()


_FAILED = "satiling: worker failed"


def _serve_worker(parent: Parent, work: Callable[..., None], job: tuple, conn: Any) -> None:
    """The worker's side: the parent stops it (Ctrl-C reaches the whole group), or its death
    does; its messages and its failure go down ``conn``; it leaves without running the parent's
    exit handlers."""
    from .signals import ignore_in_child
    die_with_parent(parent)
    ignore_in_child()
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})   # held till here
    try:
        work(*job, conn.send)
    except BaseException as e:                     # noqa: BLE001 -- reported to the parent
        try:
            conn.send((_FAILED, f"{type(e).__name__}: {e}"))
        except Exception:                          # noqa: BLE001
            pass
    finally:
        conn.close()
        os._exit(0)
