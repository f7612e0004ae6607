"""The web app's runs, the server's side: a queue, at most one run per core at a time, each in a
process of its own (:mod:`.child`) whose events a reader thread writes to the store and hands to
the pages watching.

    POST /api/runs -> RunManager.submit -> queue -> child.run_main: satiling.run.perform(...)
                        --events--> reader thread -> Store (SQLite) + Live (the pages' streams)

A run ends in one of four states (:func:`state_of`), as the command line's exit code says it:
``done`` (the search finished: exit 0 or 1), ``partial`` (a time or node limit ended it: exit 3),
``stopped`` (the stop button or the server's Ctrl-C: exit 130 / 143), ``failed`` (exit 2).
"""
from __future__ import annotations

import json
import os
import queue
import secrets
import signal
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

from ..limits import Deadline
from .child import Spec, queue as child_queue, run_main, start
from .store import Store

#: a run asked to stop that has not ended after this long is terminated, then killed
STOP_GRACE = 3.0
#: the most recent events kept in memory per run, for the pages watching it
KEEP_EVENTS = 500
#: the events whose latest a page that connects late gets first, in this order
LATEST = ("engine", "progress", "improve", "board", "solution", "partial", "end")

FINAL_STATES = ("done", "partial", "stopped", "failed")


def state_of(stop: str | None) -> str:
    """A run's final state from how it stopped (:class:`satiling.run.Stop`'s words)."""
    if stop in ("interrupted", "terminated"):
        return "stopped"
    if stop in ("time", "nodes"):
        return "partial"
    return "done"


def end_event(state: str, stop: str | None, found: int, seconds: float, score: int | None = None,
              engine: str | None = None, error: str | None = None) -> dict[str, Any]:
    """The last event of every run, however it ended: the one place it is made."""
    return {"type": "end", "state": state, "stop": stop, "found": found, "score": score,
            "seconds": seconds, "engine": engine, "error": error}


class Live:
    """What the pages watching one run read: the recent events, numbered, and the latest of each
    kind (a page that connects late gets those first)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.events: list[tuple[int, dict[str, Any]]] = []
        self.next = 0
        self.latest: dict[str, dict[str, Any]] = {}
        self.finished = False
        self.listeners: set[Callable[[], None]] = set()

    def add(self, event: dict[str, Any]) -> None:
        with self.lock:
            self.events.append((self.next, event))
            self.next += 1
            if len(self.events) > KEEP_EVENTS:
                del self.events[: len(self.events) - KEEP_EVENTS]
            self.latest[event["type"]] = event
            if event["type"] == "end":
                self.finished = True
            listeners = list(self.listeners)
        for wake in listeners:            # the pages' streams send it at once (no polling delay)
            wake()

    def listen(self, wake: Callable[[], None]) -> None:
        """Call ``wake()`` (from the thread that adds) whenever an event is added."""
        with self.lock:
            self.listeners.add(wake)

    def unlisten(self, wake: Callable[[], None]) -> None:
        with self.lock:
            self.listeners.discard(wake)

    def since(self, seq: int) -> tuple[list[dict[str, Any]], int]:
        """The events numbered ``seq`` on, and the next number."""
        with self.lock:
            return [e for n, e in self.events if n >= seq], self.next

    def snapshot(self) -> tuple[list[dict[str, Any]], int]:
        """The latest event of each kind (:data:`LATEST`), and the next number."""
        with self.lock:
            return [self.latest[k] for k in LATEST if k in self.latest], self.next


@dataclass
class _Running:
    spec: Spec
    process: Any
    out: Any
    stop_asked: float | None = None
    found: int = 0
    started: float | None = None        # when its task began (Unix seconds; the run's clock)

    def seconds(self) -> float:
        """The run's clock: since its task began, as its process reads it (0 before)."""
        return 0.0 if self.started is None else round(max(0.0, time.time() - self.started), 3)


class RunManager:
    """The queue and the run processes; one reader thread per running process writes to ``store``."""

    def __init__(self, store: Store, slots: int | None = None) -> None:
        self.store = store
        self.slots = max(1, slots or os.cpu_count() or 1)
        self._lock = threading.Condition()
        self._queue: list[tuple[str, Spec]] = []
        self._running: dict[str, _Running] = {}
        self._live: dict[str, Live] = {}
        self._closed = False
        self._threads: list[threading.Thread] = []
        store.stop_orphans()

    # -- asked by the app ---------------------------------------------------------------------------
    def submit(self, spec: Spec, title: str = "") -> str:
        run_id = "r-" + secrets.token_hex(6)
        self.store.add_run(run_id, spec.puzzle, spec.task, spec.engine, spec.time_limit, spec.raw,
                           spec.symmetry, title, spec.options)
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
                    self._end(run_id, end_event("stopped", "interrupted", 0, 0.0))
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
                self._end(run_id, end_event("stopped", "interrupted", 0, 0.0))
            self._queue.clear()
            running = list(self._running)
        for run_id in running:
            self.stop(run_id)
        deadline = Deadline.after(wait)
        for thread in list(self._threads):
            thread.join(deadline.left())

    # -- the queue --------------------------------------------------------------------------------
    def _start_queued(self) -> None:
        """Start queued runs while a slot is free (called with the lock held)."""
        while self._queue and len(self._running) < self.slots and not self._closed:
            run_id, spec = self._queue.pop(0)
            out = child_queue()
            process = start(run_main, (spec, out), f"satiling-run-{run_id}")
            self._running[run_id] = _Running(spec, process, out)     # "running" once its task begins
            thread = threading.Thread(target=self._read, args=(run_id,), daemon=True)
            self._threads.append(thread)
            thread.start()

    def _read(self, run_id: str) -> None:
        """Store and publish the run's events until it ends; then free its slot."""
        running = self._running[run_id]
        final: _Final | None = None
        while final is None:
            try:
                event = running.out.get(timeout=0.2)
            except queue.Empty:
                if not running.process.is_alive():
                    final = self._drain(running, run_id)
                else:
                    self._escalate(running)
                continue
            final = self._take(run_id, running, event)
        running.process.join(2.0)
        with self._lock:
            self._end(run_id, *final)
            del self._running[run_id]
            self._threads = [t for t in self._threads if t is not threading.current_thread()]
            self._start_queued()

    def _end(self, run_id: str, end: dict[str, Any], more: dict[str, Any] | None = None) -> None:
        """Store the run's end (``more``: its last board, its joins and note) and publish it."""
        more = dict(more or {})
        board = more.pop("board", None)
        fields = {k: end[k] for k in ("state", "stop", "found", "seconds", "error")}
        fields.update((k, end[k]) for k in ("engine", "score") if end[k] is not None)
        self.store.finish(run_id, {**fields, **more}, board)
        live = self._live.get(run_id)
        if live is not None:
            live.add(end)

    def _drain(self, running: _Running, run_id: str) -> "_Final":
        """The process is gone: take what is left in its queue, else it died without an answer."""
        try:
            while True:
                final = self._take(run_id, running, running.out.get(timeout=0.5))
                if final is not None:
                    return final
        except queue.Empty:
            pass
        if running.stop_asked is not None:
            return end_event("stopped", "interrupted", running.found, running.seconds()), None
        error = f"the run's process ended without an answer (exit code {running.process.exitcode})"
        return end_event("failed", None, running.found, running.seconds(), error=error), None

    def _escalate(self, running: _Running) -> None:
        """A run that ignores SIGINT for :data:`STOP_GRACE` seconds gets SIGTERM, then SIGKILL."""
        if running.stop_asked is None:
            return
        late = time.monotonic() - running.stop_asked
        if late > 2 * STOP_GRACE:
            _signal(running.process, signal.SIGKILL)
        elif late > STOP_GRACE:
            _signal(running.process, signal.SIGTERM)

    def _take(self, run_id: str, running: _Running, event: dict[str, Any]) -> "_Final | None":
        """Store one event of the run and publish it; the final one is returned, not yet stored
        (with what is stored with it)."""
        kind, live = event["type"], self._live[run_id]
        if kind == "started":              # its task begins: running, and its clock starts
            running.started = event["at"]
            self.store.update_run(run_id, state="running", started=event["at"])
        elif kind == "solutions":
            self.store.add_solutions(run_id, event["first"], event["lines"],
                                     counted=running.spec.task == "enumerate")
        elif kind == "improve":
            self.store.improve(run_id, event["seconds"], event["score"], event["joins"], event["board"])
            running.found = 1
            live.add({k: v for k, v in event.items() if k != "board"})
        elif kind == "progress":
            event = self._now(running, event)
            running.found = max(running.found, event["found"] or 0)
            if running.spec.task == "count":      # a count's figure: it stores no solutions
                self.store.update_run(run_id, found=running.found)
            live.add(event)
        elif kind == "engine":             # what "auto" became: named while the run goes
            self.store.update_run(run_id, engine=event["engine"])
            live.add(event)
        elif kind in ("board", "solution", "partial"):
            live.add(event)
        elif kind == "end":
            end = end_event(state_of(event["stop"]), event["stop"], event["found"], running.seconds(),
                            event["score"], event.get("engine"))
            return end, {k: event[k] for k in ("board", "joins", "note")}
        elif kind == "failed":
            return end_event("failed", None, running.found, running.seconds(), error=event["error"]), None
        return None

    @staticmethod
    def _now(running: _Running, event: dict[str, Any]) -> dict[str, Any]:
        """A progress event on the run's clock as the server reads it now: the process sent it
        a moment ago, or longer when a compiled search kept the process's sending thread waiting,
        and a page must never see the clock go back."""
        if running.started is None:
            return event
        seconds, limit = running.seconds(), running.spec.time_limit
        return {**event, "seconds": seconds,
                "limit_fraction": None if not limit else round(min(1.0, seconds / limit), 4)}


#: a run's end event, and what is stored with it
_Final = tuple[dict[str, Any], "dict[str, Any] | None"]


def _signal(process: Any, sig: int) -> None:
    try:
        if process.pid is not None and process.is_alive():
            os.kill(process.pid, sig)
    except (ProcessLookupError, OSError):
        pass


def as_json(event: dict[str, Any]) -> str:
    return json.dumps(event, separators=(",", ":"))
