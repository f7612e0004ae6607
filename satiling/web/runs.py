"""The web app's runs: a queue, at most one run per core at a time, each in a child process that
calls :mod:`satiling.run` (the same run code as the command line) and sends what happens through a
queue; the server writes it all to the store and hands it to the pages watching.

    POST /api/runs -> RunManager.submit -> queue -> child: satiling.run.count(...) --events--> reader
                                                     thread -> store (SQLite) + Live (SSE clients)

The child throttles progress and boards to a few a second; every solution is sent (in batches) and
stored.  Stop is SIGINT to the child: the run code answers it with what was found
(``Stop.INTERRUPTED``), as it answers Ctrl-C in a terminal.
"""
from __future__ import annotations

import json
import multiprocessing
import os
import queue
import secrets
import signal
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from .store import Store

#: at most this many progress events (and boards) a second from one run
EVENTS_PER_SECOND = 5
#: solutions are sent in batches of at most this many
BATCH = 500
#: a run asked to stop that has not ended after this long is terminated, then killed
STOP_GRACE = 3.0
#: the most recent events kept in memory per run, for the pages watching it
KEEP_EVENTS = 500

FINAL_STATES = ("done", "stopped", "failed")


@dataclass(frozen=True)
class Spec:
    """One run as the child process needs it (picklable: the puzzle is rebuilt from ``source``)."""

    puzzle: str                 # the name the user gave (bundled name or instance id)
    source: str                 # what catalog.load reads: a bundled name or an instance file path
    task: str
    engine: str = "auto"
    time_limit: float | None = None
    raw: bool = False
    symmetry: str | None = None


# -- the child process ------------------------------------------------------------------------------
def child_main(spec: Spec, out: Any) -> None:
    """Run ``spec`` and send its events to ``out`` (a multiprocessing queue); the last message
    is ``{"type": "end", ...}`` or ``{"type": "failed", "error": ...}``."""
    os.setpgrp()      # the terminal's Ctrl-C stops the server, which stops its runs (not the terminal)
    exit_with_parent()
    sender = _Sender(out)
    try:
        _child_run(spec, sender)
    except KeyboardInterrupt:          # stopped before the search began (loading the puzzle)
        sender.flush()
        out.put({"type": "end", "stop": "interrupted", "found": sender.found, "score": None})
    except BaseException as e:         # noqa: BLE001 -- any error ends the run as "failed"
        from ..errors import SatilingError
        sender.flush()
        message = str(e) if isinstance(e, SatilingError) else f"{type(e).__name__}: {e}"
        out.put({"type": "failed", "error": message})


def exit_with_parent() -> None:
    """End this process when the server that started it is gone (killed, not stopped): with a
    process group of its own nothing else would end it, and nobody would store what it finds."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)
    threading.Thread(target=watch, daemon=True, name="exit-with-parent").start()


def _child_run(spec: Spec, sender: "_Sender") -> None:
    from .. import catalog
    from ..run import Events, Request, perform
    puzzle = catalog.load(spec.source)
    sender.puzzle = puzzle
    req = Request(puzzle, spec.task, engine=spec.engine, time_limit=spec.time_limit, raw=spec.raw,
                  symmetry=spec.symmetry, source=spec.source)
    events = Events(found=sender.on_found, work=sender.on_work, solution=sender.on_solution,
                    improve=sender.on_improve)
    end: dict[str, Any] = {"type": "end", "score": None, "joins": None}
    answer = perform(req, events)
    end["engine"] = answer.engine              # the engine that ran ("auto" chose it)
    if spec.task == "solve":
        if answer.solution is not None:
            sender.on_solution(answer.solution)
        end.update(stop=answer.stop.value, found=int(answer.solution is not None), note=answer.how)
    elif spec.task in ("count", "enumerate"):
        end.update(stop=answer.stop.value, found=answer.total, note=answer.ruled_out)
    else:
        if answer.solution:
            sender.board(answer.solution, answer.score, answer.joins, force=True)
        end.update(stop=answer.stop.value, found=int(bool(answer.solution)), score=answer.score,
                   joins=answer.joins)
    sender.flush()
    sender.progress(force=True)
    sender.out.put(end)


@dataclass
class _Sender:
    """The child's side: counts, throttles and batches what it sends."""

    out: Any
    puzzle: Any = None
    found: int = 0
    fraction: float | None = None
    start: float = field(default_factory=time.perf_counter)
    last: float = 0.0
    last_board: float = 0.0
    batch: list[str] = field(default_factory=list)
    timeleft: Any = None

    def seconds(self) -> float:
        return time.perf_counter() - self.start

    def on_found(self, n: int) -> None:
        self.found += n
        self.progress()

    def on_work(self, done: float, finished: float) -> None:
        from ..search.timeleft import TimeLeft
        if self.timeleft is None:
            self.timeleft = TimeLeft(self.start)
        self.fraction = done
        self.timeleft.update(time.perf_counter(), done, finished)
        self.progress()

    def on_solution(self, placements: list[Any]) -> None:
        from ..search.runfiles import solution_json
        self.batch.append(solution_json(self.puzzle, placements))
        if len(self.batch) >= BATCH:
            self.flush()

    def on_improve(self, imp: Any) -> None:
        self.out.put({"type": "improve", "score": imp.score, "joins": imp.joins,
                      "seconds": round(imp.seconds, 3)})
        self.board(imp.solution, imp.score, imp.joins)

    def board(self, placements: list[Any], score: int, joins: int, force: bool = False) -> None:
        """The best board so far, drawn, at most a few times a second."""
        from ..search.runfiles import solution_json
        from ..render.edgematch_svg import board_svg
        now = time.perf_counter()
        if not placements or (not force and now - self.last_board < 1.0 / EVENTS_PER_SECOND):
            return
        self.last_board = now
        svg = board_svg(self.puzzle, self.puzzle.board_from(placements, strict=False))
        self.out.put({"type": "board", "svg": svg, "json": solution_json(self.puzzle, placements),
                      "score": score, "joins": joins})

    def flush(self) -> None:
        if self.batch:
            self.out.put({"type": "solutions", "lines": self.batch})
            self.batch = []

    def progress(self, force: bool = False) -> None:
        now = time.perf_counter()
        if not force and now - self.last < 1.0 / EVENTS_PER_SECOND:
            return
        self.last = now
        self.flush()
        seconds = self.seconds()
        eta = self.timeleft.seconds if self.timeleft is not None else None
        self.out.put({"type": "progress", "found": self.found, "fraction": self.fraction,
                      "rate": round(self.found / seconds, 2) if seconds > 0 else None,
                      "eta": None if eta is None else round(eta, 1), "seconds": round(seconds, 3),
                      "at": time.time()})       # the wall clock when sent: how late a page hears it


# -- the server's side ------------------------------------------------------------------------------
class Live:
    """What the pages watching one run read: the recent events, numbered, and the latest of each
    kind (a page that connects late gets those first)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.events: list[tuple[int, dict[str, Any]]] = []
        self.next = 0
        self.latest: dict[str, dict[str, Any]] = {}
        self.finished = False

    def add(self, event: dict[str, Any]) -> None:
        with self.lock:
            self.events.append((self.next, event))
            self.next += 1
            if len(self.events) > KEEP_EVENTS:
                del self.events[: len(self.events) - KEEP_EVENTS]
            self.latest[event["type"]] = event
            if event["type"] == "end":
                self.finished = True

    def since(self, seq: int) -> tuple[list[dict[str, Any]], int, bool]:
        """The events numbered ``seq`` on, the next number, and whether the run has ended."""
        with self.lock:
            return [e for n, e in self.events if n >= seq], self.next, self.finished

    def snapshot(self) -> tuple[list[dict[str, Any]], int, bool]:
        """The latest event of each kind (progress, improve, board, and end once ended), the
        next number, and whether the run has ended."""
        with self.lock:
            first = [self.latest[k] for k in ("progress", "improve", "board", "end") if k in self.latest]
            return first, self.next, self.finished


@dataclass
class _Running:
    spec: Spec
    process: Any
    out: Any
    stop_asked: float | None = None
    found: int = 0
    solutions: int = 0
    began: float = field(default_factory=time.monotonic)

    def seconds(self) -> float:
        return round(time.monotonic() - self.began, 3)


class RunManager:
    """The queue and the children; one reader thread per running child writes to ``store``."""

    def __init__(self, store: Store, slots: int | None = None) -> None:
        self.store = store
        self.slots = max(1, slots or os.cpu_count() or 1)
        self._ctx = multiprocessing.get_context("spawn")
        self._lock = threading.Condition()
        self._queue: list[tuple[str, Spec]] = []
        self._running: dict[str, _Running] = {}
        self._live: dict[str, Live] = {}
        self._closed = False
        self._threads: list[threading.Thread] = []
        store.stop_orphans()

    # -- asked by the app ---------------------------------------------------------------------------
    def submit(self, spec: Spec) -> str:
        run_id = "r-" + secrets.token_hex(6)
        self.store.add_run(run_id, spec.puzzle, spec.task, spec.engine, spec.time_limit, spec.raw,
                           spec.symmetry)
        with self._lock:
            self._live[run_id] = Live()
            self._queue.append((run_id, spec))
            self._start_queued()
        return run_id

    def live(self, run_id: str) -> Live | None:
        with self._lock:
            return self._live.get(run_id)

    def stop(self, run_id: str) -> None:
        """Stop a queued run at once, a running one by SIGINT (it keeps what it found)."""
        with self._lock:
            for i, (queued, _) in enumerate(self._queue):
                if queued == run_id:
                    del self._queue[i]
                    self.store.update_run(run_id, state="stopped", stop="interrupted")
                    self._live[run_id].add({"type": "end", "state": "stopped", "stop": "interrupted",
                                            "found": 0, "score": None})
                    return
            running = self._running.get(run_id)
            if running is None or running.stop_asked is not None:
                return
            running.stop_asked = time.monotonic()
        _signal(running.process, signal.SIGINT)

    def close(self, wait: float = 5.0) -> None:
        """Stop every run (each keeps what it found) and wait for the readers to store it."""
        with self._lock:
            self._closed = True
            for run_id, _ in self._queue:
                self.store.update_run(run_id, state="stopped", stop="interrupted")
            self._queue.clear()
            running = list(self._running)
        for run_id in running:
            self.stop(run_id)
        deadline = time.monotonic() + wait
        for thread in list(self._threads):
            thread.join(max(0.0, deadline - time.monotonic()))

    # -- the queue --------------------------------------------------------------------------------
    def _start_queued(self) -> None:
        """Start queued runs while a slot is free (called with the lock held)."""
        while self._queue and len(self._running) < self.slots and not self._closed:
            run_id, spec = self._queue.pop(0)
            out = self._ctx.Queue()
            # not daemonic: a run may start processes of its own (maximise's portfolio); close()
            # stops every child
            process = self._ctx.Process(target=child_main, args=(spec, out), daemon=False,
                                        name=f"satiling-run-{run_id}")
            process.start()
            self._running[run_id] = _Running(spec, process, out)
            self.store.update_run(run_id, state="running", started=time.time())
            thread = threading.Thread(target=self._read, args=(run_id,), daemon=True)
            self._threads.append(thread)
            thread.start()

    def _read(self, run_id: str) -> None:
        """Store and publish the child's events until it ends; then free its slot."""
        running = self._running[run_id]
        live = self._live[run_id]
        final: dict[str, Any] | None = None
        while final is None:
            try:
                event = running.out.get(timeout=0.2)
            except queue.Empty:
                if not running.process.is_alive():
                    final = self._drain(running, run_id, live)
                else:
                    self._escalate(running)
                continue
            final = self._take(run_id, running, live, event)
        running.process.join(2.0)
        live.add(final)
        with self._lock:
            del self._running[run_id]
            self._threads = [t for t in self._threads if t is not threading.current_thread()]
            self._start_queued()

    def _drain(self, running: _Running, run_id: str, live: Live) -> dict[str, Any]:
        """The child is gone: take what is left in its queue, else it died without an answer."""
        try:
            while True:
                final = self._take(run_id, running, live, running.out.get(timeout=0.5))
                if final is not None:
                    return final
        except queue.Empty:
            pass
        code = running.process.exitcode
        if running.stop_asked is not None:
            self.store.update_run(run_id, state="stopped", stop="interrupted", found=running.found,
                                  seconds=running.seconds())
            return {"type": "end", "state": "stopped", "stop": "interrupted", "found": running.found,
                    "score": None, "seconds": running.seconds()}
        error = f"the run's process ended without an answer (exit code {code})"
        self.store.update_run(run_id, state="failed", error=error, seconds=running.seconds())
        return {"type": "end", "state": "failed", "stop": None, "found": running.found,
                "score": None, "error": error, "seconds": running.seconds()}

    def _escalate(self, running: _Running) -> None:
        """A child that ignores SIGINT for :data:`STOP_GRACE` seconds gets SIGTERM, then SIGKILL."""
        if running.stop_asked is None:
            return
        late = time.monotonic() - running.stop_asked
        if late > 2 * STOP_GRACE:
            _signal(running.process, signal.SIGKILL)
        elif late > STOP_GRACE:
            _signal(running.process, signal.SIGTERM)

    def _take(self, run_id: str, running: _Running, live: Live,
              event: dict[str, Any]) -> dict[str, Any] | None:
        """Store one event of the child; the final one is returned (not yet published)."""
        kind = event["type"]
        if kind == "solutions":
            if running.spec.task == "maximise":
                return None
            self.store.add_solutions(run_id, running.solutions, event["lines"])
            running.solutions += len(event["lines"])
            return None
        if kind == "progress":
            running.found = max(running.found, event["found"] or 0)
            self.store.add_progress(run_id, event)
            self.store.update_run(run_id, found=running.found)
            live.add(event)
        elif kind == "improve":
            self.store.add_score(run_id, event["seconds"], event["score"])
            self.store.update_run(run_id, score=event["score"], joins=event["joins"])
            live.add(event)
        elif kind == "board":
            self.store.add_solutions(run_id, 0, [event["json"]])     # the best board so far
            running.found = 1
            self.store.update_run(run_id, found=1, score=event["score"], joins=event["joins"])
            live.add({"type": "board", "svg": event["svg"]})
        elif kind == "end":
            state = "stopped" if event["stop"] in ("interrupted", "terminated") else "done"
            engine = {"engine": event["engine"]} if event.get("engine") else {}
            seconds = running.seconds()
            self.store.update_run(run_id, state=state, stop=event["stop"], found=event["found"],
                                  score=event.get("score"), joins=event.get("joins"),
                                  note=event.get("note"), seconds=seconds, **engine)
            return {"type": "end", "state": state, "stop": event["stop"], "found": event["found"],
                    "score": event.get("score"), "seconds": seconds, **engine}
        elif kind == "failed":
            self.store.update_run(run_id, state="failed", error=event["error"], seconds=running.seconds())
            return {"type": "end", "state": "failed", "stop": None, "found": running.found,
                    "score": None, "error": event["error"], "seconds": running.seconds()}
        return None


def _signal(process: Any, sig: int) -> None:
    try:
        if process.pid is not None and process.is_alive():
            os.kill(process.pid, sig)
    except (ProcessLookupError, OSError):
        pass


def as_json(event: dict[str, Any]) -> str:
    return json.dumps(event, separators=(",", ":"))
