"""One run of a puzzle, for every client: the command line, the library and the web app each build
a :class:`Request` and call one of :func:`solve`, :func:`count`, :func:`enumerate_solutions` or
:func:`maximise` (or :func:`perform`, which calls the request's own); they only print, return or
send what comes back.

    request (what to do) -> engines.choose (which engine) -> the task's function -> Stop + answer

Nothing above this package chooses an engine, checks a limit or verifies a solution again.
"""
from __future__ import annotations

from .limits import Stop
from .request import Request, TASKS
from .tasks import (CountAnswer, Events, MaxAnswer, SolveAnswer, count, enumerate_solutions,
                    maximise, perform, solve)

__all__ = ["CountAnswer", "Events", "MaxAnswer", "Request", "SolveAnswer", "Stop", "TASKS", "count",
           "enumerate_solutions", "maximise", "perform", "solve"]
