"""The web app's memory: one SQLite file (the standard library's) holding the runs, their progress,
their solutions (as the JSON lines ``satiling enumerate`` writes), their scores over time and the
instances posted to the app.  A server that stops and starts again reads everything back from it.

One connection, shared by the server's threads under a lock: the writes are small and batched (the
run manager inserts solutions many at a time), and WAL mode lets a second process read the file
while the server writes it.
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Iterable

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY, created REAL NOT NULL, puzzle TEXT NOT NULL, task TEXT NOT NULL,
    engine TEXT NOT NULL, time_limit REAL, raw INTEGER NOT NULL, symmetry TEXT,
    state TEXT NOT NULL, stop TEXT, found INTEGER NOT NULL DEFAULT 0, score INTEGER,
    joins INTEGER, started REAL, seconds REAL, error TEXT, note TEXT);
CREATE TABLE IF NOT EXISTS progress (
    run TEXT NOT NULL, seconds REAL NOT NULL, found INTEGER, fraction REAL, rate REAL, eta REAL);
CREATE INDEX IF NOT EXISTS progress_run ON progress (run);
CREATE TABLE IF NOT EXISTS solutions (
    run TEXT NOT NULL, k INTEGER NOT NULL, json TEXT NOT NULL, PRIMARY KEY (run, k));
CREATE TABLE IF NOT EXISTS scores (run TEXT NOT NULL, seconds REAL NOT NULL, score INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS scores_run ON scores (run);
CREATE TABLE IF NOT EXISTS instances (
    id TEXT PRIMARY KEY, created REAL NOT NULL, title TEXT, family TEXT, toml TEXT NOT NULL);
"""

#: the columns of a run as the API lists it
RUN_FIELDS = ("id", "puzzle", "task", "engine", "state", "stop", "found", "score", "joins",
              "started", "seconds")


class Store:
    """The SQLite file at ``path`` (created if missing); stored instances live as TOML files in
    :attr:`instances_dir`, beside it, so that a run's worker process can load them by path."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.instances_dir = self.path.with_name(self.path.name + ".instances")
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        self.instances_dir.mkdir(parents=True, exist_ok=True)
        self._db.row_factory = sqlite3.Row
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _run(self, sql: str, args: Iterable[Any] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._db.execute(sql, tuple(args)).fetchall()

    # -- runs -------------------------------------------------------------------------------------
    def stop_orphans(self) -> None:
        """Runs a previous server left queued or running: they ended with it (what they found is
        stored), so they are listed as stopped."""
        self._run("UPDATE runs SET state = 'stopped', stop = COALESCE(stop, 'interrupted') "
                  "WHERE state IN ('queued', 'running')")

    def add_run(self, run_id: str, puzzle: str, task: str, engine: str, time_limit: float | None,
                raw: bool, symmetry: str | None) -> None:
        self._run("INSERT INTO runs (id, created, puzzle, task, engine, time_limit, raw, symmetry, "
                  "state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued')",
                  (run_id, time.time(), puzzle, task, engine, time_limit, int(raw), symmetry))

    def update_run(self, run_id: str, **fields: Any) -> None:
        if not fields:
            return
        names = ", ".join(f"{k} = ?" for k in fields)
        self._run(f"UPDATE runs SET {names} WHERE id = ?", (*fields.values(), run_id))

    def run(self, run_id: str) -> dict[str, Any] | None:
        rows = self._run("SELECT * FROM runs WHERE id = ?", (run_id,))
        return dict(rows[0]) if rows else None

    def runs(self) -> list[dict[str, Any]]:
        return [dict(r) for r in self._run("SELECT * FROM runs ORDER BY created DESC")]

    # -- progress, scores, solutions ----------------------------------------------------------------
    def add_progress(self, run_id: str, event: dict[str, Any]) -> None:
        self._run("INSERT INTO progress VALUES (?, ?, ?, ?, ?, ?)",
                  (run_id, event["seconds"], event.get("found"), event.get("fraction"),
                   event.get("rate"), event.get("eta")))

    def add_score(self, run_id: str, seconds: float, score: int) -> None:
        self._run("INSERT INTO scores VALUES (?, ?, ?)", (run_id, seconds, score))

    def scores(self, run_id: str) -> list[list[float]]:
        return [[r["seconds"], r["score"]] for r in
                self._run("SELECT seconds, score FROM scores WHERE run = ? ORDER BY rowid", (run_id,))]

    def add_solutions(self, run_id: str, first: int, lines: list[str]) -> None:
        """Solutions ``first``, ``first + 1``, ... of the run (JSON lines); an index stored
        again is replaced (a maximisation keeps its best board as solution 0)."""
        with self._lock:
            self._db.execute("BEGIN")
            self._db.executemany("INSERT OR REPLACE INTO solutions VALUES (?, ?, ?)",
                                 [(run_id, first + i, line) for i, line in enumerate(lines)])
            self._db.execute("COMMIT")

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


def placements_of(line: str) -> list[Any]:
    """The placements (as JSON) of a stored solution line."""
    return json.loads(line)["placements"]
