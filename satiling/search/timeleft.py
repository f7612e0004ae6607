"""The time left of a long count or enumeration, honest enough to plan by.

The search reports the part of its estimated tree done (:class:`~satiling.search.stream.Meter`:
Knuth's estimates of the cubes, and his measure of the position inside the cube in progress).
That fraction moves in jumps and stalls -- a cube estimated large that turns out quick, a position
measure that says "half done" early in a subtree -- and a rate taken over the last few updates
(tqdm's ``remaining``) turns each jump into a short time left and each stall into a long one
(measurements: docs/decisions/2026-11-27-models-and-encodings.md).

Here the time left is the pace of the whole run so far, over two measures of what is done: the
fraction above, and the finished fraction (cubes finished, each by its estimate, without the
position inside the one in progress), each turned into "time so far x part left / part done this
run" and the two averaged (geometrically: they err by factors, not by seconds).  Only this run's
work counts towards its pace: a resumed run starts at the fraction an earlier run reached, which
it did not spend this run's time on.  The result is then smoothed over time (an exponential
average of its logarithm, with a time constant of a quarter of the run so far, at least
``MIN_SMOOTHING`` seconds).

What it cannot know is how far Knuth's estimates are off: they are right on average over random
paths, but the subtrees a search meets last are often the heaviest, and the estimates run low
there.  On ``count obeirne-hexagon`` (735 cubes, 19.7 minutes in all) the last tenth of the cubes
took half the time against a sixth of the estimate, so every measure of "done" ran ahead: at a
third of the run the time left said about 7 minutes where 13 were left, and it stayed low until
the end.  It no longer swings, nor says "0 left" while the search goes on.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

#: the shortest time constant of the smoothing, in seconds
MIN_SMOOTHING = 10.0
#: the time constant as a part of the run so far: later in a run, one jump moves the estimate less
SMOOTHING_SHARE = 0.25
#: no time left is given before this much of the run has passed (seconds) or been done (part)
MIN_ELAPSED, MIN_DONE = 2.0, 1e-4


@dataclass
class TimeLeft:
    """Feed :meth:`update` the clock and the parts done; read :attr:`seconds` (None: not known yet)."""

    start: float
    seconds: float | None = None
    _first: tuple[float, float] | None = field(default=None, repr=False)   # where this run began
    _last: float | None = field(default=None, repr=False)                  # the clock then

    def update(self, now: float, fraction: float, finished: float | None = None) -> float | None:
        """The time left after hearing that ``fraction`` of the work is done (``finished``: the
        part in finished cubes only; default the same)."""
        finished = fraction if finished is None else min(finished, fraction)
        if self._first is None:
            self._first = (fraction, finished)       # a resumed run starts part way
        step = 0.0 if self._last is None else max(0.0, now - self._last)
        self._last = now
        if fraction >= 1.0:
            self.seconds = 0.0
            return self.seconds
        raw = self._raw(now - self.start, fraction, finished)
        if raw is None:
            return self.seconds
        if self.seconds is None:
            self.seconds = raw
        else:
            # the clock runs down between reports, but never below what the pace says (a smoothed
            # count-down lags by the time constant: it said "0 left" for minutes while the
            # search went on)
            guess = max(self.seconds - step, min(self.seconds, raw))
            tau = max(MIN_SMOOTHING, SMOOTHING_SHARE * (now - self.start))
            weight = 1.0 - math.exp(-step / tau)
            old = math.log(max(guess, 1e-3))
            self.seconds = math.exp(old + weight * (math.log(max(raw, 1e-3)) - old))
        return self.seconds

    def _raw(self, elapsed: float, fraction: float, finished: float) -> float | None:
        """The pace of this run so far, over each measure, averaged (None: too early to say)."""
        f0, g0 = self._first or (0.0, 0.0)
        guesses = [elapsed * (1.0 - done) / (done - first)
                   for done, first in ((fraction, f0), (finished, g0)) if done - first > MIN_DONE]
        if elapsed < MIN_ELAPSED or not guesses:
            return None
        return math.exp(sum(math.log(max(g, 1e-3)) for g in guesses) / len(guesses))


def clock(seconds: float | None) -> str:
    """``1:02:03``, ``04:05`` or ``?``."""
    if seconds is None or not math.isfinite(seconds):
        return "?"
    s = int(round(seconds))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"
