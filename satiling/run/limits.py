"""How a run ended, in one vocabulary for every engine and every client.

``done``: the search finished (found what was asked, or proved there is nothing more);
``limit``: it stopped at the number of solutions asked for; ``time``: the time limit ran out;
``nodes``: the node limit ran out (nodes of a search, conflicts of a SAT or CP-SAT solver);
``interrupted`` / ``terminated``: Ctrl-C (SIGINT) / SIGTERM, or a client's stop button.
"""
from __future__ import annotations

from enum import Enum


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


_WORDS = {"": Stop.DONE, "done": Stop.DONE, "exhausted": Stop.DONE, "limit": Stop.LIMIT,
          "time": Stop.TIME, "time limit": Stop.TIME, "UNKNOWN": Stop.TIME,
          "nodes": Stop.NODES, "node limit": Stop.NODES,
          "interrupted": Stop.INTERRUPTED, "terminated": Stop.TERMINATED}
