"""How a run ended, in one vocabulary for every engine and every client.

``done``: the search finished (found what was asked, or proved there is nothing more);
``limit``: it stopped at the number of solutions asked for; ``time``: the time limit ran out;
``nodes``: the node limit ran out (nodes of a search, conflicts of a SAT or CP-SAT solver);
``interrupted`` / ``terminated``: Ctrl-C (SIGINT) / SIGTERM, or a client's stop button.
"""
from __future__ import annotations

import signal
from enum import Enum

from ..exits import EXIT_TIMEOUT, signal_exit


class Stop(str, Enum):
    DONE = "done"
    LIMIT = "limit"
    TIME = "time"
    NODES = "nodes"
    INTERRUPTED = "interrupted"
    TERMINATED = "terminated"

    @classmethod
    def of(cls, word: str) -> "Stop":
        """The Stop for a word the search layer uses ("" and "exhausted": done, "time limit",
        "UNKNOWN": time, ...)."""
        return _WORDS[word]

    @property
    def complete(self) -> bool:
        return self in (Stop.DONE, Stop.LIMIT)

    @property
    def said(self) -> str:
        """The stop as the command line says it on stderr ("time limit", "interrupted", ...)."""
        return "time limit" if self is Stop.TIME else self.value

    @property
    def exit_code(self) -> int | None:
        """The command line's exit code for a run that stopped so (None: a complete run, whose
        code says what it found)."""
        return _EXITS.get(self)


#: how the command line exits after a run stopped early: 3 at a limit, 130 / 143 after a signal
_EXITS = {Stop.TIME: EXIT_TIMEOUT, Stop.NODES: EXIT_TIMEOUT,
          Stop.INTERRUPTED: signal_exit(signal.SIGINT), Stop.TERMINATED: signal_exit(signal.SIGTERM)}

_WORDS = {"": Stop.DONE, "done": Stop.DONE, "exhausted": Stop.DONE, "limit": Stop.LIMIT,
          "time": Stop.TIME, "time limit": Stop.TIME, "UNKNOWN": Stop.TIME,
          "nodes": Stop.NODES, "node limit": Stop.NODES,
          "interrupted": Stop.INTERRUPTED, "terminated": Stop.TERMINATED}
