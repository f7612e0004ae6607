"""The ``satiling`` program's first step: SIGINT and SIGTERM end it at once with 130 / 143 while it
loads its modules (a few tenths of a second, longer on a busy machine), then the command line
(:func:`satiling.cli.main`) takes over with its own handlers.

Without this step a Ctrl-C in those first tenths would land inside an import: a traceback, and the
status of a death by signal (or 1, "no solution") rather than 130.  There is nothing to keep yet,
so leaving at once is the whole answer.  This module and ``satiling/__init__.py`` import nothing
heavy, so the step comes first.
"""
from __future__ import annotations

import os
import signal
from typing import Any

from .exits import signal_exit


def main() -> None:
    """The ``satiling`` command (its console script and ``python -m satiling``)."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, _leave)
    from .cli import main as command
    command()                         # leaves the process itself, with the command's exit code


def _leave(signum: int, frame: Any) -> None:
    os._exit(signal_exit(signum))
