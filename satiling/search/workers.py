"""Cubes on other processes: local worker processes or a Dask cluster's executor.

Workers get either a *plan* -- an exact cover's matrix (:class:`~.cubes.Plan`) or the
edge-matching backtracker's boards (:class:`~.edgespace.EdgePlan`), plain data that travels with
the tasks -- or a :class:`Job` naming the puzzle and options, from which each worker rebuilds the
model once (a SAT solver's cubes) and checks its fingerprint against the driver's.  Results come
back as they complete (:func:`results`) and, where the order matters, in cube order
(:func:`in_order`).  On any exit but success the queued cubes are cancelled and local workers
killed (:func:`executor`); a worker dies with its driver (:func:`~satiling.children.die_with_parent`).
"""
from __future__ import annotations

import concurrent.futures as cf
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Sequence

from ..children import die_with_parent, this_process
from ..engines.table import DEFAULT_SAT_ALIAS
from ..errors import SatilingError
from ..limits import check_dask_address
from .cubes import CubeResult, CubeSpace
from .runner import CubeRunner


@dataclass(frozen=True)
class Job:
    """What a worker needs to rebuild the same cubes: names and options, never the formula."""

    puzzle: str                                   # bundled name or instance file (absolute path)
    options: tuple[tuple[str, Any], ...] = ()
    break_symmetry: bool = True
    engine: str = "auto"
    solver: str = DEFAULT_SAT_ALIAS
    fingerprint: str = ""
    symmetry: str = "full"                        # the group of CubeSpace (raw runs: "full")


def run_cube(job: Job, cube: int, raw: bool, keep: bool, verify: bool) -> CubeResult:
    """One cube in a worker process (a module-level function, so it pickles by name)."""
    return _runner(job).run(cube, raw, keep, verify)


#: a worker's models, one per thread (a Dask worker may run several tasks at once in threads, and
#: an incremental solver must not be shared between them)
_WORKER = threading.local()


def _runner(job: Job) -> CubeRunner:
    """The worker's model, built once per thread and job, checked against the driver's."""
    cache = _WORKER.__dict__.setdefault("runners", {})
    if job not in cache:
        cache.clear()                           # one job at a time: free the previous model
        cache[job] = _build_runner(job)
    return cache[job]


def _build_runner(job: Job) -> CubeRunner:
    from ..catalog import load
    puzzle = load(job.puzzle)
    space = CubeSpace(puzzle, puzzle.problem(**dict(job.options)), job.break_symmetry,
                      symmetry=job.symmetry)
    if space.fingerprint() != job.fingerprint:
        raise SatilingError(f"a worker built a different model of {job.puzzle} than this process "
                            f"(fingerprint {space.fingerprint()} != {job.fingerprint}); "
                            "do the workers run the same satiling and data?")
    from .searchers import searcher
    return searcher(job.engine, space.problem).runner(space, job.solver)


#: cubes per task when workers get a plan: the plan travels with every task (85 kB for 6x10),
#: so it goes with a few cubes at a time; at most this many tasks per run, or one cube per task
PLAN_TASKS = 64


def run_plan_cubes(plan: Any, cubes: Sequence[int], raw: bool, keep: bool = True) -> list[CubeResult]:
    """Consecutive cubes in a worker, by a plan's own engine (an exact cover's :class:`Plan`, or
    the edge-matching backtracker's :class:`~.edgespace.EdgePlan`); ``keep``: every owner back."""
    return [plan.run_cube(cube, raw, keep) for cube in cubes]


def results(executor: cf.Executor, job: Job, cubes: Iterable[int], raw: bool, keep: bool,
            verify: bool, plan: Any = None) -> Iterator[CubeResult]:
    """Run cubes on an executor; results as they complete (the queue is dynamic: cubes differ a
    lot in size, so a worker that finishes early takes the next one).  With a ``plan`` the workers
    search its matrix and return every owner, unverified: the caller verifies them."""
    cubes = list(cubes)
    if plan is not None:
        size = max(1, -(-len(cubes) // PLAN_TASKS))
        batches = [cubes[k:k + size] for k in range(0, len(cubes), size)]
        futures = [executor.submit(run_plan_cubes, plan, batch, raw, keep) for batch in batches]
    else:
        futures = [executor.submit(run_cube, job, i, raw, keep, verify) for i in cubes]
    try:
        for f in cf.as_completed(futures):
            yield from (f.result() if plan is not None else [f.result()])
    finally:
        for f in futures:
            f.cancel()


def in_order(done: Iterable[CubeResult], first: int, last: int) -> Iterator[CubeResult]:
    """Results of cubes ``first..last-1`` in cube order (later ones wait for the earlier)."""
    waiting: dict[int, CubeResult] = {}
    nxt = first
    for r in done:
        waiting[r.cube] = r
        while nxt in waiting:
            yield waiting.pop(nxt)
            nxt += 1
    if nxt < last:
        raise RuntimeError(f"cube {nxt} never came back")


@contextmanager
def executor(workers: int | None = None, dask: str | None = None) -> Iterator[cf.Executor | None]:
    """Local worker processes, a Dask cluster's executor, or None (run here, in this process).

    On any exit other than success (Ctrl-C, time limit, error) the cubes still queued are
    cancelled and local workers are stopped at once rather than finishing their cube.
    """
    if dask:
        with _dask_executor(dask) as ex:
            yield ex
        return
    if not workers or workers <= 1:
        yield None
        return
    import multiprocessing
    # spawn: workers start clean (no copied threads or locks), as on a Dask cluster; a driver
    # killed with SIGKILL takes them along (the pool starts them at submit, in the thread that
    # opened it here: each caller submits in the thread that holds the pool)
    ex = cf.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                initializer=_worker_start, initargs=(this_process(),))
    try:
        yield ex
    except BaseException:
        _terminate(ex)
        raise
    ex.shutdown(wait=True)


def stop(ex: cf.Executor) -> None:
    """The answer is in: drop the queued tasks and stop the running ones at once."""
    if isinstance(ex, cf.ProcessPoolExecutor):
        _terminate(ex)
    else:
        ex.shutdown(wait=False, cancel_futures=True)


def _worker_start(parent: Any) -> None:
    """A worker dies with its driver, and leaves Ctrl-C at the terminal (which reaches the whole
    process group) to the driver, which stops it: no traceback of each worker's interrupt."""
    from ..signals import ignore_in_child
    die_with_parent(parent)
    ignore_in_child()


def _terminate(ex: cf.ProcessPoolExecutor) -> None:
    """Cancel queued cubes and kill the running ones (Python 3.14 calls this terminate_workers)."""
    _quiet_pool_race()
    processes = list(getattr(ex, "_processes", {}).values())
    ex.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        p.terminate()
    for p in processes:
        p.join(5)


def _quiet_pool_race() -> None:
    """Python 3.11's pool, seeing its killed workers, marks the cubes it had queued as failed,
    and those this process cancelled first raise InvalidStateError in its manager thread: a
    harmless race (fixed in later Pythons) whose traceback would follow Ctrl-C on stderr."""
    previous = threading.excepthook
    if getattr(previous, "quiet_pool_race", False):
        return

    def hook(args: Any) -> None:
        if not (args.exc_type is cf.InvalidStateError
                and type(args.thread).__name__ == "_ExecutorManagerThread"):
            previous(args)
    hook.quiet_pool_race = True          # type: ignore[attr-defined]
    threading.excepthook = hook


#: seconds to reach a Dask scheduler, handshake included (a scheduler answers in milliseconds;
#: with the start of the program, an unreachable one is said within 10 s)
DASK_TIMEOUT = 6.0


def _connect(client_class: Any, address: str, timeout: float) -> Any:
    """A Dask client within ``timeout`` seconds, or SatilingError.  The client is built in another
    thread: a listener that accepts and never answers stalls the handshake past the client's own
    ``timeout``, and a malformed address raises ValueError deep inside."""
    _knock(address, timeout)
    box: dict[str, Any] = {}

    def build() -> None:
        try:
            box["client"] = client_class(address, timeout=f"{max(1.0, timeout - 1):g}s")
        except BaseException as e:        # handed to the caller below
            box["error"] = e

    builder = threading.Thread(target=build, daemon=True)
    builder.start()
    builder.join(timeout)
    if builder.is_alive():
        raise SatilingError(f"the Dask scheduler at {address} did not answer within {timeout:g} s")
    error = box.get("error")
    if isinstance(error, (OSError, TimeoutError, ValueError, TypeError)):
        raise SatilingError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    if isinstance(error, Exception):      # something answered, not in Dask's protocol
        raise SatilingError(f"cannot reach the Dask scheduler at {address}: what answers there "
                            f"is not a Dask scheduler ({type(error).__name__})") from None
    if error is not None:
        raise error
    return box["client"]


def _knock(address: str, timeout: float) -> None:
    """SatilingError for a TCP address where nothing listens (connection refused, no such host:
    at once, where Dask's client would try again until its time-out; a host that never answers:
    within ``timeout``)."""
    import socket
    from urllib.parse import urlsplit
    if "://" in address and not address.startswith("tcp://"):
        return                            # tls, inproc, ...: Dask's own connection says
    try:
        where = urlsplit(address if "://" in address else "tcp://" + address)
        host, port = where.hostname, where.port
    except ValueError:
        return                            # Dask names what is wrong with it
    if not host or not port:
        return
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except TimeoutError:
        raise SatilingError(f"the Dask scheduler at {address} did not answer within {timeout:g} s") from None
    except OSError as e:                  # refused, no such host, unreachable
        raise SatilingError(f"cannot reach the Dask scheduler at {address}: {e.strerror or e}") from None


@contextmanager
def dask_client(address: str) -> Iterator[Any]:
    """A client of the Dask scheduler at ``address`` (SatilingError within :data:`DASK_TIMEOUT`
    seconds if there is none), closed on the way out."""
    check_dask_address(address)           # malformed: the same line as the run's own check
    try:
        from distributed import Client
    except ImportError:
        raise SatilingError("a Dask cluster needs the 'distributed' package: pip install "
                            "'satiling[dask]'") from None
    client = _connect(Client, address, DASK_TIMEOUT)
    try:
        yield client
    finally:
        client.close()


@contextmanager
def _dask_executor(address: str) -> Iterator[cf.Executor]:
    with dask_client(address) as client:
        ex = client.get_executor(pure=False)
        try:
            yield ex
        except BaseException:
            ex.shutdown(wait=False)       # cancels what has not finished
            raise
        ex.shutdown(wait=True)
