"""The scoring search's maximisation on a Dask cluster: one scoring search per worker thread,
each with its own seed, all hunting boards better than the best any of them has found.

Each search is :func:`~.scoring._backtrack_one` in a task (:func:`search_task`) whose shared
cap is a word in the worker process (:class:`SharedCap`), which the compiled search reads every
few milliseconds, as it reads the shared memory of the local processes.  The words are kept
current through the cluster's event topics (the choice between them, a polled Variable and a
Queue per search is measured in docs/decisions/2026-11-28-eternity2-dask.md): a search logs each
better board on the run's board topic; the client, subscribed to it, checks the board again
(a worker is never trusted), reports it, and logs its broken joins on the run's cap topic, to
which each worker process subscribes once for all its searches of the run.  A search that starts
late (on a worker that replaced a lost one) reads the cap topic's history first.  The first
search also keeps the board it stands on in the run's Variable (one value, the latest, so the
scheduler holds one board whatever the run's length), a few times a second
(:data:`satiling.engines.PARTIAL_SECONDS`); a client that shows the
search at work reads it as often (:class:`_Run`), as the local processes' first worker sends it.

The end: the client logs a stop on the cap topic and every search ends within milliseconds of its
worker hearing it (its cap drops to 0, as when another search finds a perfect board); a search
whose task is cancelled or whose client is gone (the scheduler cancels its tasks) stops the same
way within a second; each task also has the run's time limit, a few seconds later, as a last
resort.  A lost worker loses its search alone: the client goes on with the others, and the
scheduler may start the task again on another worker.
"""
from __future__ import annotations

import ctypes
import queue
import struct
import threading
import time
import uuid
from dataclasses import dataclass
from typing import Any, Callable

from ...engines import PARTIAL_SECONDS
from ...errors import SatilingError
from ...limits import Deadline, clock
from .scoring import _backtrack_one, default_tuning
from .board import Improvement, MaxResult, checked_score
from .job import MaxJob

#: the seeds of the searches: seed + SEED_STRIDE * k (as the local processes')
SEED_STRIDE = 100003
#: seconds a task may run past the run's time limit before its own limit ends it (the client
#: stops it first; this is for a client gone without a word)
TASK_GRACE = 5.0
#: seconds the client waits for the searches to end after the stop, taking their last boards
STOP_WAIT = 3.0
#: seconds between a search's looks at its task's state (cancelled: the client is gone)
WATCH_EVERY = 0.25
#: seconds into a search when the watcher reads the cap topic's past again (:func:`_watch`)
CATCH_UP = 1.0
#: seconds to wait for a cluster with no worker to get one
WORKER_WAIT = 10.0
#: a square no piece covers yet, in a :func:`pack`ed board at work
EMPTY = 0xFFFF


@dataclass(frozen=True)
class Spec:
    """What every task of a run gets: the puzzle and settings, the run's topics, the task's own
    time limit (seconds, None: none) and the fewest broken joins known when it was submitted."""

    run: str
    puzzle: Any
    hints: bool
    tuning: Any
    seconds: float | None
    breaks: int

    @property
    def board_topic(self) -> str:
        return f"satiling-maximise-{self.run}-boards"

    @property
    def cap_topic(self) -> str:
        return f"satiling-maximise-{self.run}-cap"

    @property
    def partial_name(self) -> str:
        """The Variable holding the board the first search stands on."""
        return f"satiling-maximise-{self.run}-partial"


# -- on a worker ----------------------------------------------------------------------------------
class SharedCap:
    """The fewest broken joins of any board of the run, as this process knows it: the parts of
    ``multiprocessing.Value("q")`` that :func:`~.scoring._backtrack_one` uses, for threads.
    ``stopped``: the client asked every search to end (the cap is then 0)."""

    def __init__(self, value: int) -> None:
        self._word = ctypes.c_longlong(value)       # aligned: the compiled search reads it
        self._lock = threading.Lock()
        self.stopped = False

    @property
    def value(self) -> int:
        return self._word.value

    @value.setter
    def value(self, v: int) -> None:
        self._word.value = v

    def get_lock(self) -> threading.Lock:
        return self._lock

    def get_obj(self) -> ctypes.c_longlong:
        return self._word

    def lower(self, breaks: int) -> None:
        with self._lock:
            if breaks < self._word.value:
                self._word.value = breaks

    def stop(self) -> None:
        self.stopped = True
        self.lower(0)


#: per run, the caps of this process's searches (a Dask worker may run several in threads)
_LIVE: dict[str, list[SharedCap]] = {}
_LIVE_LOCK = threading.Lock()


def search_task(spec: Spec, seed: int, watched: bool = False) -> dict[str, Any]:
    """One search of the run on a worker (a module-level function: it pickles by name).  Its
    better boards go to the board topic as they come, and if ``watched`` the board it stands on
    to the run's Variable; returns what it did (seed, status, best breaks, nodes, the CPU
    seconds of its thread, why it ended)."""
    from distributed import Variable, get_client, get_worker
    worker, client = get_worker(), get_client()
    joins = len(spec.puzzle.joins())
    cap = SharedCap(spec.breaks)
    _join(client, spec, cap)                # subscribed first, then the topic's past is read:
    _catch_up(client, spec, cap)            # a stop logged between the two is not missed
    key = worker.get_current_task()
    watching = threading.Event()
    watcher = threading.Thread(target=_watch, args=(worker, key, cap, watching,
                                                    lambda: _catch_up(client, spec, cap)),
                               daemon=True)
    watcher.start()

    def send(imp: Improvement) -> None:
        worker.log_event(spec.board_topic, {"seed": seed, "breaks": joins - imp.score,
                                            "board": pack(spec.puzzle, imp.solution)})

    at_work = Variable(spec.partial_name, client=client) if watched else None
    kept = [-PARTIAL_SECONDS]             # when the last board at work was kept

    def show(tiles: list[Any]) -> None:
        now = clock()
        if now - kept[0] >= PARTIAL_SECONDS and not cap.stopped:     # none after the client's stop
            kept[0] = now
            at_work.set(pack(spec.puzzle, tiles))

    cpu = time.thread_time()
    try:
        result = _backtrack_one(spec.puzzle, spec.seconds, send, spec.hints, clock(),
                                seed, False, spec.tuning, cap, partial=show if watched else None)
    finally:
        watching.set()
        _leave(client, spec, cap)
    why = "stopped" if cap.stopped else "done" if result.status == "OPTIMAL" or cap.value == 0 \
        else "time"
    return {"seed": seed, "status": result.status, "breaks": joins - result.score if result.solution
            else None, "nodes": result.nodes, "cpu": time.thread_time() - cpu, "ended": why}


def pack(puzzle: Any, tiles: list[Any]) -> bytes:
    """A board in 4 bytes a square (piece, rotation; row by row; :data:`EMPTY` where no piece
    is yet): the scheduler keeps a topic's last events, so a board travels and stays small."""
    at = {(t.row, t.col): (t.piece, t.rotation) for t in tiles}
    return struct.pack(f"<{2 * puzzle.rows * puzzle.cols}H",
                       *(x for r in range(puzzle.rows) for c in range(puzzle.cols)
                         for x in at.get((r, c), (EMPTY, 0))))


def unpack(puzzle: Any, data: Any, partial: bool = False) -> list[Any]:
    """The tiles of a :func:`pack` board (SatilingError if it is not one of ``puzzle``'s size,
    or, unless ``partial``, a square is empty).  A partial board is only drawn, never scored:
    its pieces and turns are checked here."""
    from ...families.edgematch.geometry import Tile
    n = puzzle.rows * puzzle.cols
    if not isinstance(data, bytes) or len(data) != 4 * n:
        raise SatilingError(f"a worker sent no board of {puzzle.rows}x{puzzle.cols} squares")
    values = struct.unpack(f"<{2 * n}H", data)
    tiles = [Tile(k // puzzle.cols, k % puzzle.cols, values[2 * k], values[2 * k + 1])
             for k in range(n) if values[2 * k] != EMPTY]
    if not partial and len(tiles) < n:
        raise SatilingError("a worker sent a board with empty squares")
    if partial and any(not 1 <= t.piece <= len(puzzle.pieces) or t.rotation > 3 for t in tiles):
        raise SatilingError("a worker sent a board at work with pieces the puzzle has not")
    return tiles


def _catch_up(client: Any, spec: Spec, cap: SharedCap) -> None:
    """Read what the cap topic has held so far: a search starting late (on a worker that
    replaced a lost one) takes the best cap, or the stop, logged before it subscribed."""
    for _, msg in client.get_events(spec.cap_topic):
        _tell(cap, msg)


def _join(client: Any, spec: Spec, cap: SharedCap) -> None:
    """Add ``cap`` to this process's searches of the run; the first subscribes the process."""
    with _LIVE_LOCK:
        first = spec.run not in _LIVE
        _LIVE.setdefault(spec.run, []).append(cap)
    if first:
        client.subscribe_topic(spec.cap_topic, lambda event, run=spec.run: _hear(run, event[1]))


def _leave(client: Any, spec: Spec, cap: SharedCap) -> None:
    with _LIVE_LOCK:
        caps = _LIVE.get(spec.run, [])
        if cap in caps:
            caps.remove(cap)
        last = not caps
        if last:
            _LIVE.pop(spec.run, None)
    if last:
        try:
            client.unsubscribe_topic(spec.cap_topic)
        except (ValueError, RuntimeError):      # already gone with the client
            pass


def _hear(run: str, msg: Any) -> None:
    """A message on the cap topic (on the worker's event loop): a better cap, or the stop."""
    with _LIVE_LOCK:
        caps = list(_LIVE.get(run, []))
    for cap in caps:
        _tell(cap, msg)


def _tell(cap: SharedCap, msg: Any) -> None:
    if isinstance(msg, dict) and msg.get("stop"):
        cap.stop()
    elif isinstance(msg, dict) and "breaks" in msg:
        cap.lower(int(msg["breaks"]))


def _watch(worker: Any, key: Any, cap: SharedCap, done: threading.Event,
           catch_up: Callable[[], None]) -> None:
    """Stop the search when its task is no longer wanted: cancelled, or its client gone.  Once,
    :data:`CATCH_UP` seconds in, the cap topic's past is read again: a subscription travels on
    its own, so a stop logged just as the search began may have reached the scheduler first."""
    began = clock()
    caught = False
    while not done.wait(WATCH_EVERY):
        task = worker.state.tasks.get(key)
        if task is None or task.state not in ("executing", "long-running"):
            cap.stop()
            return
        if not caught and clock() - began >= CATCH_UP:
            caught = True
            try:
                catch_up()
            except Exception:       # the scheduler gone: the task's state says so next
                pass


# -- on the client --------------------------------------------------------------------------------
def run(job: MaxJob) -> MaxResult:
    """The scoring search on the Dask cluster ``job.dask`` (its row's ``dask`` entry
    in the engine table)."""
    return maximise_on_cluster(job.dask, job.puzzle, job.deadline, job.on_improve, job.hints,
                               job.start, job.seed, job.tuning or default_tuning(job.puzzle),
                               job.known, job.note, job.on_partial)


def maximise_on_cluster(address: str, puzzle: Any, deadline: Deadline,
                        on_improve: Callable[[Improvement], None], hints: bool, start: float,
                        seed: int, tuning: Any, known: tuple[list[Any], int] | None = None,
                        on_note: Callable[[str], None] | None = None,
                        on_partial: Callable[[list[Any]], None] | None = None) -> MaxResult:
    """The search on the cluster at ``address``: one task per worker thread; every better board
    is checked here and reported to ``on_improve``, its cap sent to every search; ``on_partial``
    is shown the board the first search stands on, a few times a second.  Ends at the
    deadline (``start``: a reading of :data:`satiling.limits.clock`), at a perfect board or
    a proof, when every search has ended, or at an interrupt (raised after every search is told
    to stop)."""
    from ...search.workers import dask_client
    note = on_note or (lambda text: None)
    with dask_client(address) as client:
        threads = _threads(client, address)
        joins = len(puzzle.joins())
        board = _Board(puzzle, hints, joins, known)
        # a task's limit is seconds (its worker's clock is its own), a grace past the client's end
        left = deadline.left()
        spec = Spec(uuid.uuid4().hex[:12], puzzle, hints, tuning,
                    None if left is None else left + TASK_GRACE, board.breaks)
        note(f"{threads} searches on the Dask cluster at {address}")
        inbox: queue.Queue = queue.Queue()
        client.subscribe_topic(spec.board_topic, lambda event: inbox.put(event[1]))
        futures = [client.submit(search_task, spec, seed + SEED_STRIDE * k, k == 0 and on_partial is not None,
                                 pure=False, key=f"satiling-maximise-{spec.run}-{k}")
                   for k in range(threads)]
        run = _Run(client, spec, board, futures, on_improve, start, note, on_partial)
        try:
            run.follow(inbox, deadline)
        finally:
            run.stop(inbox)
            client.unsubscribe_topic(spec.board_topic)
    result = board.result(run.proved)
    result.nodes = sum(r["nodes"] for r in run.reports)
    result.cpu = sum(r["cpu"] for r in run.reports)
    note(f"{len(run.reports)} searches ended: {result.nodes:,} nodes in {result.cpu:.1f} CPU-s")
    return result


def _threads(client: Any, address: str) -> int:
    """The worker threads of the cluster (waiting a little for a first worker)."""
    threads = sum(client.nthreads().values())
    if not threads:
        try:
            client.wait_for_workers(1, timeout=WORKER_WAIT)
        except Exception:       # distributed raises its own TimeoutError
            raise SatilingError(f"the Dask cluster at {address} has no workers "
                                f"(none came within {WORKER_WAIT:g} s)") from None
        threads = sum(client.nthreads().values())
    return threads


class _Board:
    """The best board of the run, as this process checked it."""

    def __init__(self, puzzle: Any, hints: bool, joins: int, known: tuple[list[Any], int] | None) -> None:
        self.puzzle, self.hints, self.joins = puzzle, hints, joins
        self.solution: list[Any] = [] if known is None else list(known[0])
        self.breaks = joins + 1 if known is None else known[1]

    def take(self, msg: Any) -> int | None:
        """The score of the board in a worker's message if it is a better board, else None;
        SatilingError if the message holds no board of the puzzle."""
        tiles = unpack(self.puzzle, msg.get("board") if isinstance(msg, dict) else None)
        score = checked_score(self.puzzle, tiles, self.hints, whose="a worker's board")
        if self.joins - score >= self.breaks:
            return None
        self.solution, self.breaks = tiles, self.joins - score
        return score

    def result(self, proved: bool) -> MaxResult:
        if not self.solution:
            return MaxResult("UNKNOWN", 0, self.joins, [], 0.0)
        score = self.joins - self.breaks
        proved = proved or score == self.joins
        return MaxResult("OPTIMAL" if proved else "FEASIBLE", score, self.joins, self.solution,
                         0.0, score if proved else None)


class _Run:
    """The client's side of a run: boards in, caps out, the tasks watched."""

    def __init__(self, client: Any, spec: Spec, board: _Board, futures: list[Any],
                 on_improve: Callable[[Improvement], None], start: float,
                 note: Callable[[str], None],
                 on_partial: Callable[[list[Any]], None] | None = None) -> None:
        self.client, self.spec, self.board, self.futures = client, spec, board, futures
        self.on_improve, self.start, self.note, self.on_partial = on_improve, start, note, on_partial
        self.partial: tuple[float, Any] = (-PARTIAL_SECONDS, None)   # when read, and what
        self.proved = False
        self.seen: set[Any] = set()           # the futures whose end was taken
        self.rejected = 0
        self.reports: list[dict[str, Any]] = []

    def follow(self, inbox: queue.Queue, deadline: Deadline) -> None:
        """Take boards until the deadline, a perfect board, a proof or the end of every task."""
        while True:
            left = deadline.left()
            if left is not None and left <= 0:
                return
            try:
                first = inbox.get(timeout=0.1 if left is None else min(0.1, left))
            except queue.Empty:
                first = None
            if first is not None:
                self.boards_in([first] + _waiting(inbox))
            self.at_work()
            self.tasks_ended()
            if self.board.breaks == 0 or self.proved or len(self.seen) == len(self.futures):
                return

    def boards_in(self, msgs: list[Any]) -> None:
        """The boards that came, the fewest breaks claimed first: checking a board costs the
        client milliseconds (tens on Eternity II), and at a run's start every search sends its
        first board at once; a board that claims no better than the best is not checked."""
        for msg in sorted(msgs, key=_claimed):
            if _claimed(msg) < self.board.breaks:
                self.board_in(msg)

    def board_in(self, msg: Any) -> None:
        try:
            score = self.board.take(msg)
        except SatilingError as e:
            self.rejected += 1
            if self.rejected == 1:
                self.note(f"a board from the cluster was refused: {e}")
            return
        if score is None:
            return
        self.client.log_event(self.spec.cap_topic, {"breaks": self.board.breaks})
        self.on_improve(Improvement(score, self.board.joins, clock() - self.start,
                                    self.board.solution))

    def at_work(self) -> None:
        """Show the board the first search stands on, if it has kept a new one since the last
        look (a look every :data:`PARTIAL_SECONDS` seconds)."""
        if self.on_partial is None or clock() - self.partial[0] < PARTIAL_SECONDS:
            return
        from distributed import Variable
        try:
            data = Variable(self.spec.partial_name, client=self.client).get(timeout=0)
        except Exception:       # none kept yet (distributed raises its own TimeoutError)
            data = self.partial[1]
        fresh = data is not None and data != self.partial[1]
        self.partial = (clock(), data)
        if fresh:
            try:
                self.on_partial(unpack(self.spec.puzzle, data, partial=True))
            except SatilingError:
                pass            # a picture only: a worker's bad one is not drawn

    def tasks_ended(self) -> None:
        """Take the end of each task that ended: a report, or a lost search."""
        for f in self.futures:
            if f in self.seen or not f.done():
                continue
            self.seen.add(f)
            if f.status == "finished":
                report = f.result()
                self.reports.append(report)
                self.proved |= report["status"] == "OPTIMAL"
            elif f.status == "error":
                self.note(f"a search on the cluster ended early: {_why(f)}")

    def stop(self, inbox: queue.Queue) -> None:
        """Tell every search to stop, take the boards still on the way, wait for the tasks."""
        from distributed import wait
        try:
            self.client.log_event(self.spec.cap_topic, {"stop": True})
            wait(self.futures, timeout=STOP_WAIT)
        except Exception:           # a timeout, or the cluster gone: the futures say which
            pass
        finally:
            self.boards_in(_waiting(inbox))
            self.tasks_ended()
            self.client.cancel([f for f in self.futures if not f.done()])
            if self.on_partial is not None:
                from distributed import Variable
                try:
                    Variable(self.spec.partial_name, client=self.client).delete()
                except Exception:   # the cluster gone: nothing is left to delete
                    pass


def _waiting(inbox: queue.Queue) -> list[Any]:
    """Every message in ``inbox`` now."""
    out = []
    while True:
        try:
            out.append(inbox.get_nowait())
        except queue.Empty:
            return out


def _claimed(msg: Any) -> float:
    """The breaks a worker's message claims for its board (a message without a number: checked
    first, and refused by the check; a false number only changes the order of the checks)."""
    breaks = msg.get("breaks") if isinstance(msg, dict) else None
    return breaks if isinstance(breaks, int) and not isinstance(breaks, bool) else float("-inf")


def _why(future: Any) -> str:
    try:
        error = future.exception(timeout=1)
    except Exception as e:              # noqa: the reason is only shown
        error = e
    return f"{type(error).__name__}: {error}" if error is not None else future.status
