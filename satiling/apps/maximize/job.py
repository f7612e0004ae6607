"""What a maximise engine is given: one :class:`MaxJob`, so every engine's ``run(job)`` has the
same signature and the engine table (:mod:`satiling.engines.table`) can name any of them."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ...engines.table import cannot_continue
from ...errors import SatilingError
from ...limits import NO_DEADLINE, Deadline
from .board import Improvement


@dataclass
class MaxJob:
    """One ``--maximize-matches`` run, as :func:`satiling.apps.maximize.maximize_matches` was
    asked for it.

    ``time_limit``: seconds from ``start`` (a reading of :data:`satiling.limits.clock`), or None
    for no limit, and ``deadline`` its end (the backtracker counts the limit by itself, in CPU
    seconds with ``cpu_time``); ``on_improve``: called with every better board; ``hints``: the hint pieces are pinned;
    ``workers``: CP-SAT's threads or the backtracker's processes (None: the engine's default);
    ``greedy_start``: CP-SAT starts from the greedy board; ``cpu_time``: the limit counts CPU
    seconds (backtracker); ``tuning``: the backtracker's settings (None: its default);
    ``known``: the start board to continue from and its breaks, or None; ``on_partial``: shown
    the board the search stands on, a few times a second, by an engine that can tell (the
    backtracker), or None; ``dask``: the address of a Dask scheduler whose workers run the search
    (backtracker); ``note``: a line for the user."""

    puzzle: Any
    time_limit: float | None
    on_improve: Callable[[Improvement], None]
    hints: bool
    workers: int | None
    greedy_start: bool
    start: float
    seed: int
    cpu_time: bool
    tuning: Any = None                  # scoring.Tuning (scoring imports this module)
    known: tuple[list[Any], int] | None = None
    on_partial: Callable[[list[Any]], None] | None = None
    dask: str | None = None
    note: Callable[[str], None] | None = None
    deadline: Deadline = NO_DEADLINE

    def fresh(self, engine: str) -> None:
        """Refuse a start board: ``engine`` searches from scratch and cannot continue one."""
        if self.known is not None:
            raise SatilingError(cannot_continue(engine))
