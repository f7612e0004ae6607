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


class Puzzles:
    """Loaded puzzles by source (a few, most recently used) and their facts (computed once each
    in a process of its own: the largest take a minute, and a server that stops ends that
    process at once instead of waiting for it)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loaded: OrderedDict[str, Any] = OrderedDict()
        self._facts: dict[str, concurrent.futures.Future] = {}
        self._worker: Any = None
        self._jobs: Any = None
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
            if self._worker is None or not self._worker.is_alive():
                self._start()
            self._jobs.put(source)
            return future

    def _start(self) -> None:
        self._jobs, results = queue(), queue()
        self._worker = start(facts_loop, (self._jobs, results), "satiling-facts")
        threading.Thread(target=self._read, args=(results,), daemon=True).start()

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
        if self._worker is not None and self._worker.is_alive():
            self._worker.terminate()
            self._worker.join(2.0)


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
