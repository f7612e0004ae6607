"""The web app's memory: one SQLite file (the standard library's) holding the runs, their solutions
(as the JSON lines ``satiling enumerate`` writes), their scores over time and the instances posted
to the app.  A server that stops and starts again reads everything back from it.

One server owns a store: :class:`Store` takes an exclusive lock on ``FILE.lock`` beside it
(``flock``, released by the kernel however the process ends), so a second server on the same file
is refused before it touches anything, and never marks the first one's runs as stopped.

Whatever must agree is written in one transaction: a better board with its score, a batch of an
enumeration's solutions with the run's ``found``, the end of a run with its last board.  A server
killed at any moment leaves a store whose figures match its solutions.

One connection, shared by the server's threads under a lock: the writes are small and batched (the
run manager inserts solutions many at a time), and WAL mode lets a second process read the file
while the server writes it.
"""
from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Iterable

from ..errors import SatilingError

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY, created REAL NOT NULL, puzzle TEXT NOT NULL, task TEXT NOT NULL,
    engine TEXT NOT NULL, time_limit REAL, raw INTEGER NOT NULL, symmetry TEXT,
    state TEXT NOT NULL, stop TEXT, found INTEGER NOT NULL DEFAULT 0, score INTEGER,
    joins INTEGER, started REAL, seconds REAL, error TEXT, note TEXT, title TEXT, options TEXT);
CREATE TABLE IF NOT EXISTS solutions (
    run TEXT NOT NULL, k INTEGER NOT NULL, json TEXT NOT NULL, PRIMARY KEY (run, k));
CREATE TABLE IF NOT EXISTS scores (run TEXT NOT NULL, seconds REAL NOT NULL, score INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS scores_run ON scores (run);
CREATE TABLE IF NOT EXISTS instances (
    id TEXT PRIMARY KEY, created REAL NOT NULL, title TEXT, family TEXT, toml TEXT NOT NULL);
"""
#: columns added since the first stores were written: (table, column, type); a run stored before
#: ``options`` (the family's model options, as JSON) had none: NULL, read as ``{}``
ADDED = (("runs", "title", "TEXT"), ("runs", "options", "TEXT"))

#: the columns of a run as the API lists it
RUN_FIELDS = ("id", "puzzle", "title", "task", "engine", "state", "stop", "found", "score", "joins",
              "started", "seconds")


class StoreInUse(SatilingError):
    """Another server holds the store."""


class StoreLock:
    """The exclusive lock on ``FILE.lock`` that makes one server the store's owner (the file holds
    the owner's process id, for the message to a second)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(str(path) + ".lock")
        self.created = not self.path.exists()
        try:
            self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as e:
            raise SatilingError(f"{self.path}: cannot open: {e.strerror}") from None
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            owner = os.pread(self.fd, 32, 0).decode("ascii", "replace").strip()
            os.close(self.fd)
            raise StoreInUse(f"{path} is in use by another satiling serve"
                             f"{f' (process {owner})' if owner.isdigit() else ''}: stop it, or "
                             "give this one another --store") from None
        except OSError:
            pass                            # a file system without locks: nothing to share
        os.ftruncate(self.fd, 0)
        os.pwrite(self.fd, f"{os.getpid()}\n".encode(), 0)

    def release(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)               # closing the file releases the lock
            self.fd = -1

    def abandon(self) -> None:
        """Release, and remove the lock file if this lock made it: a store that could not be
        opened leaves nothing behind."""
        self.release()
        if self.created:
            self.path.unlink(missing_ok=True)


class Store:
    """The SQLite file at ``path`` (created if missing), owned while open (:class:`StoreLock`;
    ``lock`` one already taken); stored instances live as TOML files in :attr:`instances_dir`,
    beside it, so that a run's worker process can load them by path."""

    def __init__(self, path: str | Path, lock: StoreLock | None = None) -> None:
        self.path = Path(path)
        self.instances_dir = self.path.with_name(self.path.name + ".instances")
        self.owner = lock or StoreLock(self.path)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
            self._db.row_factory = sqlite3.Row
            with self._lock:
                self._db.execute("PRAGMA journal_mode=WAL")     # a file that is no store fails here
                self._db.execute("PRAGMA synchronous=NORMAL")
                self._db.executescript(SCHEMA)
                self._add_columns()
            self.instances_dir.mkdir(parents=True, exist_ok=True)
        except BaseException:
            self.owner.abandon()
            raise

    def _add_columns(self) -> None:
        for table, column, kind in ADDED:
            have = {r["name"] for r in self._db.execute(f"PRAGMA table_info({table})")}
            if column not in have:
                self._db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")

    def close(self, release: bool = True) -> None:
        """Close the file (``release``: and let go of the lock)."""
        with self._lock:
            self._db.close()
        if release:
            self.owner.release()

    def _run(self, sql: str, args: Iterable[Any] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._db.execute(sql, tuple(args)).fetchall()

    def _transaction(self, steps: list[tuple[str, Iterable[Any]]]) -> None:
        """Every step or none (a kill between two leaves neither)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in steps:
                    self._db.execute(sql, tuple(args))
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # -- runs -------------------------------------------------------------------------------------
    def stop_orphans(self) -> None:
        """Runs a previous server left queued or running: they ended with it (what they found is
        stored), so they are listed as stopped; an enumeration's ``found`` is its stored
        solutions (what the last batch stored, whatever the figure said when it died)."""
        self._transaction([
            ("UPDATE runs SET found = MAX(found, (SELECT COUNT(*) FROM solutions WHERE run = runs.id)) "
             "WHERE state IN ('queued', 'running') AND task = 'enumerate'", ()),
            ("UPDATE runs SET state = 'stopped', stop = COALESCE(stop, 'interrupted') "
             "WHERE state IN ('queued', 'running')", ())])

    def add_run(self, run_id: str, puzzle: str, task: str, engine: str, time_limit: float | None,
                raw: bool, symmetry: str | None, title: str = "",
                options: dict[str, Any] | None = None) -> None:
        self._run("INSERT INTO runs (id, created, puzzle, task, engine, time_limit, raw, symmetry, "
                  "state, title, options) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?)",
                  (run_id, time.time(), puzzle, task, engine, time_limit, int(raw), symmetry, title,
                   json.dumps(options or {})))

    def update_run(self, run_id: str, **fields: Any) -> None:
        if fields:
            self._transaction([_update(run_id, fields)])

    def run(self, run_id: str) -> dict[str, Any] | None:
        """The run's row, with ``stored``: the number of its solutions in the store."""
        rows = self._run(f"{_WITH_STORED} WHERE id = ?", (run_id,))
        return dict(rows[0]) if rows else None

    def runs(self) -> list[dict[str, Any]]:
        return [dict(r) for r in self._run(f"{_WITH_STORED} ORDER BY created DESC")]

    # -- what a run finds: boards with their scores, solutions with their count ------------------------
    def improve(self, run_id: str, seconds: float, score: int, joins: int, board: str) -> None:
        """A better board of a maximisation: kept as solution 0 with its score, in one step."""
        self._transaction([
            ("INSERT OR REPLACE INTO solutions VALUES (?, 0, ?)", (run_id, board)),
            ("INSERT INTO scores VALUES (?, ?, ?)", (run_id, seconds, score)),
            _update(run_id, {"score": score, "joins": joins, "found": 1})])

    def add_solutions(self, run_id: str, first: int, lines: list[str], counted: bool = False) -> None:
        """Solutions ``first``, ``first + 1``, ... of the run (JSON lines); ``counted``: the run's
        ``found`` is the number stored (an enumeration), set in the same step."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany("INSERT OR REPLACE INTO solutions VALUES (?, ?, ?)",
                                     [(run_id, first + i, line) for i, line in enumerate(lines)])
                if counted:
                    self._db.execute(*_update(run_id, {"found": first + len(lines)}))
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def finish(self, run_id: str, fields: dict[str, Any], board: str | None = None) -> None:
        """A run's end (and its last board, a maximisation's, with its score), in one step."""
        steps = [("INSERT OR REPLACE INTO solutions VALUES (?, 0, ?)", (run_id, board))] if board else []
        self._transaction(steps + [_update(run_id, fields)])

    def scores(self, run_id: str) -> list[list[float]]:
        return [[r["seconds"], r["score"]] for r in
                self._run("SELECT seconds, score FROM scores WHERE run = ? ORDER BY rowid", (run_id,))]

    def solution_count(self, run_id: str) -> int:
        return self._run("SELECT COUNT(*) FROM solutions WHERE run = ?", (run_id,))[0][0]

    def solutions(self, run_id: str, offset: int = 0, limit: int = -1) -> list[tuple[int, str]]:
        rows = self._run("SELECT k, json FROM solutions WHERE run = ? AND k >= ? ORDER BY k LIMIT ?",
                         (run_id, offset, limit))
        return [(r["k"], r["json"]) for r in rows]

    def iter_solutions(self, run_id: str, batch: int = 2000) -> Iterable[str]:
        """Every solution of the run, in order, read a batch at a time."""
        k = 0
        while True:
            rows = self.solutions(run_id, k, batch)
            if not rows:
                return
            yield from (line for _, line in rows)
            k = rows[-1][0] + 1

    # -- instances ----------------------------------------------------------------------------------
    def add_instance(self, inst_id: str, toml: str, title: str, family: str) -> None:
        self._run("INSERT INTO instances VALUES (?, ?, ?, ?, ?)",
                  (inst_id, time.time(), title, family, toml))

    def instance(self, inst_id: str) -> dict[str, Any] | None:
        rows = self._run("SELECT * FROM instances WHERE id = ?", (inst_id,))
        return dict(rows[0]) if rows else None

    def instances(self) -> list[dict[str, Any]]:
        """The posted instances, newest first: id, title, family."""
        return [dict(r) for r in self._run("SELECT id, title, family FROM instances "
                                           "ORDER BY created DESC")]


_WITH_STORED = "SELECT *, (SELECT COUNT(*) FROM solutions WHERE run = runs.id) AS stored FROM runs"


def _update(run_id: str, fields: dict[str, Any]) -> tuple[str, tuple[Any, ...]]:
    names = ", ".join(f"{k} = ?" for k in fields)
    return f"UPDATE runs SET {names} WHERE id = ?", (*fields.values(), run_id)


def options_of(row: dict[str, Any]) -> dict[str, Any]:
    """A stored run's model options (``{}`` for a run stored before they were)."""
    return json.loads(row["options"]) if row.get("options") else {}


def placements_of(line: str) -> list[Any]:
    """The placements (as JSON) of a stored solution line."""
    return json.loads(line)["placements"]
