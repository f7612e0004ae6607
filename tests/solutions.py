"""Every solution of a puzzle, through the run every client uses (satiling.run), as placements."""
from __future__ import annotations

from typing import Any

from satiling.run import Events, Request, enumerate_solutions


def solutions(puzzle: Any, raw: bool = False, engine: str = "auto", symmetry_breaking: bool = True,
              **options: Any) -> list[list[Any]]:
    """The verified solutions: one per symmetry class, or every one with ``raw``."""
    found: list[list[Any]] = []
    req = Request(puzzle, "enumerate", engine, raw=raw, symmetry_breaking=symmetry_breaking,
                  options=options)
    answer = enumerate_solutions(req, Events(solution=found.append))
    assert answer.stop.complete and answer.found == len(found)
    return found
