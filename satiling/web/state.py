"""What the web app holds while it serves: the store, the runs, the loaded puzzles and their
facts.  :class:`Web` is made once, in the app's lifespan, and closed there."""
from __future__ import annotations

import concurrent.futures
import queue as queues
import signal
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from ..errors import SatilingError
from .child import queue, ready, start
from .instances import facts
from .runs import RunManager
from .store import Store, StoreLock

#: puzzles kept loaded for drawing solutions
PUZZLE_CACHE = 16
#: the processes that measure puzzles' facts, each taking the next puzzle asked for: with one, a
#: small puzzle's facts waited behind one of the largest (Eternity's 1.4 million placements, a
#: minute and more: tetromino-4x5's page waited 34 s for its facts after Eternity's had been asked)
FACTS_PROCESSES = 2


class Puzzles:
    """Loaded puzzles by source (a few, most recently used) and their facts (computed once each
    in the facts processes: the largest take a minute, and a server that stops ends those
    processes at once instead of waiting for them)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loaded: OrderedDict[str, Any] = OrderedDict()
        self._facts: dict[str, concurrent.futures.Future] = {}
        self._workers: list[Any] = []
        self._jobs: Any = None
        self._results: Any = None
        self._closed = threading.Event()

    def load(self, source: str) -> Any:
        from .. import catalog
        with self._lock:
            if source in self._loaded:
                self._loaded.move_to_end(source)
                return self._loaded[source]
        puzzle = catalog.load(source)
        with self._lock:
            self._loaded[source] = puzzle
            while len(self._loaded) > PUZZLE_CACHE:
                self._loaded.popitem(last=False)
        return puzzle

    def facts(self, source: str) -> concurrent.futures.Future:
        """The facts of ``source``, asked of the facts process once (a failure other than
        satiling's own message is asked again next time)."""
        with self._lock:
            future = self._facts.get(source)
            if future is not None and not (future.done() and future.exception() is not None
                                           and not isinstance(future.exception(), SatilingError)):
                return future
            future = self._facts[source] = concurrent.futures.Future()
            self._start()
            self._jobs.put(source)
            return future

    def _start(self) -> None:
        """A facts process more where every one is busy (up to :data:`FACTS_PROCESSES`), or
        where one has ended; the queues stay, and each process takes the next puzzle asked for."""
        if self._jobs is None:
            self._jobs, self._results = queue(), queue()
            threading.Thread(target=self._read, args=(self._results,), daemon=True).start()
        self._workers = [w for w in self._workers if w.is_alive()]
        waiting = sum(1 for f in self._facts.values() if not f.done())
        while len(self._workers) < min(FACTS_PROCESSES, waiting):
            self._workers.append(start(facts_loop, (self._jobs, self._results), "satiling-facts"))

    def _read(self, results: Any) -> None:
        while not self._closed.is_set():
            try:
                source, ok, value = results.get(timeout=0.5)
            except queues.Empty:
                continue
            except (EOFError, OSError):
                return
            with self._lock:
                future = self._facts.get(source)
            if future is not None and not future.done():
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(SatilingError(value))

    def close(self) -> None:
        self._closed.set()
        for worker in self._workers:
            if worker.is_alive():
                worker.terminate()
        for worker in self._workers:
            worker.join(2.0)


def facts_loop(jobs: Any, results: Any) -> None:
    """The facts process: measure each puzzle asked for, in turn."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)      # the server ends it
    ready()
    while True:
        source = jobs.get()
        try:
            results.put((source, True, facts(source)))
        except SatilingError as e:
            results.put((source, False, str(e)))
        except Exception as e:            # noqa: BLE001 -- one line for the page, never a trace
            results.put((source, False, f"{type(e).__name__}: {e}"))


class Web:
    """The app's state: the store (owned: ``lock`` the store's, taken already, or taken here),
    the runs, the puzzles; ``closing`` is set when the server begins to stop (the pages' event
    streams end at once, before the runs are stopped)."""

    def __init__(self, store_path: str | Path, closing: threading.Event,
                 lock: StoreLock | None = None, dask: str | None = None) -> None:
        self.store = Store(store_path, lock)
        self.dask = dask                  # the Dask scheduler maximisations run on (None: here)
        self.runs = RunManager(self.store)
        self.puzzles = Puzzles()
        self.closing = closing

    def close(self) -> None:
        self.closing.set()
        self.runs.close()
        self.puzzles.close()
        self.store.close()
