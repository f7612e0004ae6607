"""What a person at a terminal sees while a command works: bars with the time left, a counter of
seconds, the stages of a long step; silent in a pipe or with ``--quiet``.
"""
from __future__ import annotations

import argparse
import sys
import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator, Sequence, TextIO



class progress:
    """A tqdm bar on stderr, silent when stderr is not a terminal: solutions found and, when the
    search reports it (``work``), the part of its estimated tree done and the time left
    (:mod:`satiling.search.timeleft`: the whole run's pace, smoothed, not tqdm's recent rate)."""

    def __init__(self, args: argparse.Namespace, unit: str) -> None:
        self.disable = True if getattr(args, "quiet", False) else None
        self.unit = unit
        self.found = 0

    def __enter__(self) -> "progress":
        from tqdm import tqdm
        from ..search.timeleft import TimeLeft
        self.bar = tqdm(unit=" sol", desc=self.unit, file=sys.stderr, disable=self.disable,
                        mininterval=0.5)
        self.start = self.shown = time.perf_counter()
        self.left = TimeLeft(self.start)
        return self

    def update(self, n: int) -> None:
        """``n`` more solutions (a resumed run first tells those of the runs before it)."""
        self.found += n
        if self.bar.total is None:
            self.bar.update(n)
        else:
            self.bar.set_description_str(f"{self.unit}: {self.found} sol", refresh=False)
            self._refresh()

    def work(self, fraction: float, finished: float | None = None) -> None:
        """The part of the search done (Knuth's estimate of the tree), and the part in finished
        cubes: the bar's position and the time left."""
        from ..search.timeleft import clock
        if self.bar.total is None:
            self.bar.reset(total=100)
            self.bar.bar_format = "{desc} {percentage:3.0f}%|{bar}| {elapsed} elapsed{postfix}"
            self.bar.set_description_str(f"{self.unit}: {self.found} sol", refresh=False)
        self.bar.n = 100 * fraction
        left = self.left.update(time.perf_counter(), fraction, finished)
        self.bar.set_postfix_str(f"about {clock(left)} left" if left is not None else "", refresh=False)
        self._refresh()

    def _refresh(self) -> None:
        """Redraw at most twice a second (tqdm's own pacing skipped updates of a fraction that
        moved by less than its last step: the bar froze after a resume)."""
        now = time.perf_counter()
        if now - self.shown >= 0.5:
            self.shown = now
            self.bar.refresh()

    def __exit__(self, *exc) -> None:
        self.bar.close()


@contextmanager
def waiting(what: str) -> Iterator[None]:
    """A line on stderr that counts the seconds of a step with no measure of its own (a solver's
    search), refreshed twice a second; silent when stderr is not a terminal."""
    from tqdm import tqdm
    bar = tqdm(desc=what, file=sys.stderr, disable=None, bar_format="{desc}: {elapsed}", leave=False)
    done = threading.Event()

    def tick() -> None:
        while not done.wait(0.5):
            bar.refresh()

    ticker = threading.Thread(target=tick, daemon=True)
    if not bar.disable:
        ticker.start()
    try:
        yield
    finally:
        done.set()
        bar.close()


@contextmanager
def stages(names: Sequence[str]) -> Iterator[Callable[[], None]]:
    """A bar over the stages of one long command (``info eternity``: placements, model, clause
    count); ``step()`` ends a stage.  On stderr, silent when it is not a terminal."""
    from tqdm import tqdm
    bar = tqdm(total=len(names), desc=names[0], unit=" stage", file=sys.stderr, disable=None,
               mininterval=0.5, bar_format="{desc}: {n}/{total} stages [{elapsed}<{remaining}]")
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        bar.update(1)
        if done < len(names):
            bar.set_description_str(names[done])

    try:
        yield step
    finally:
        bar.close()


class _CountingWriter:
    """A text stream that counts the lines written through it into a progress bar."""

    def __init__(self, out: TextIO, bar) -> None:
        self.out, self.bar = out, bar

    def write(self, text: str) -> int:
        self.bar.update(text.count("\n"))
        return self.out.write(text)


@contextmanager
def progress_lines(out: TextIO, total: int, unit: str) -> Iterator[TextIO]:
    """``out`` with a bar of lines written (total known: rate and time left), on stderr when it is
    a terminal."""
    from tqdm import tqdm
    bar = tqdm(total=total, unit=f" {unit}", unit_scale=True, file=sys.stderr, disable=None,
               mininterval=0.5, desc="writing")
    try:
        yield _CountingWriter(out, bar) if not bar.disable else out
    finally:
        bar.close()
