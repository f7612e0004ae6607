"""The bounds of a time limit and of a number of workers (and the form of a Dask scheduler's
address, where they may run), for the command line and the API alike.

Kept in one place so that ``solve``, ``count``, ``enumerate``, ``pack`` and the Python functions
refuse the same values with the same words.  A time limit is a positive, finite number of seconds
up to :data:`MAX_SECONDS`: beyond about 9.2e9 s Python's timers overflow (``threading.Timer``
fails in its own thread and the run goes on without a limit), so a cap well below that, yet longer
than any run, keeps every limit a working one.
"""
from __future__ import annotations

import argparse
import math
import re
import time
from dataclasses import dataclass
from typing import Any, Callable

from .errors import Option, SatilingError

#: the longest time limit, in seconds (about three years)
MAX_SECONDS = 100_000_000
#: the most workers (processes or CP-SAT threads) a run may ask for
MAX_WORKERS = 1024


#: the run's one clock: every deadline is a reading of it (on Linux it is the C engines'
#: ``CLOCK_MONOTONIC`` too)
clock = time.monotonic


@dataclass(frozen=True)
class Deadline:
    """When a run must stop, made once from its time limit and handed down, as a SAT solver's
    terminator is: every engine asks it how long is left (:meth:`left`) or whether
    it has passed (:meth:`expired`), and a child or a compiled engine is given :meth:`left` once.

    ``at`` is a reading of :data:`clock` (None: no time limit)."""

    at: float | None = None

    @classmethod
    def after(cls, seconds: float | None, since: float | None = None) -> "Deadline":
        """The deadline ``seconds`` after ``since`` (a reading of :data:`clock`; default: now).
        The one place a deadline is computed from the clock."""
        if seconds is None:
            return NO_DEADLINE
        return cls((clock() if since is None else since) + max(0.0, seconds))

    def left(self, floor: float = 0.0) -> float | None:
        """Seconds until the deadline, at least ``floor`` (None: no limit)."""
        if self.at is None:
            return None
        return max(floor, self.at - clock())

    def expired(self) -> bool:
        return self.at is not None and clock() >= self.at

    def later(self, seconds: float) -> "Deadline":
        """This deadline moved ``seconds`` later (a grace on top of it)."""
        return self if self.at is None else Deadline(self.at + seconds)


#: no time limit
NO_DEADLINE = Deadline()


def check_seconds(value: Any, what: str = "time_limit") -> float | None:
    """``value`` as a float if it is a time limit (None: no limit), else SatilingError."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SatilingError(f"{what} is a number of seconds, not {_shown(value)}")
    if not 0 < value <= MAX_SECONDS:            # NaN fails this too
        raise SatilingError(f"{what} must be more than 0 and at most {MAX_SECONDS} seconds "
                            f"(about three years), not {_shown(value)}")
    return float(value)


def check_workers(value: Any, what: str = "workers") -> int | None:
    """``value`` if it is a number of workers (None: the default), else SatilingError."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_WORKERS:
        raise SatilingError(f"{what} is a whole number from 1 to {MAX_WORKERS}, not {_shown(value)}")
    return value


def check_one_place(workers: Any, dask: Any) -> None:
    """SatilingError when both local workers and a Dask cluster are given: a run's work goes to
    one of them."""
    if workers and dask:
        raise SatilingError("choose {workers} or {dask}, not both", workers=Option("workers"),
                            dask=Option("dask"))


#: Dask's schemes whose address is a host and a port (``inproc://`` and a plug-in's are Dask's
#: to read); no scheme means ``tcp``, as for Dask
_HOST_PORT_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")


def check_dask_address(value: Any, what: str = "dask") -> str | None:
    """``value`` if it can be a Dask scheduler's address (``tcp://host:8786``, ``host:8786``,
    ``tls://[::1]:8786``; None: no cluster), else SatilingError.  Checked where it is given: a
    run whose tree is small runs here and never dials the cluster, and a malformed address must
    not pass unseen there."""
    if value is None:
        return None
    why = _address_fault(value) if isinstance(value, str) else "not text"
    if why:
        raise SatilingError("{what} is a Dask scheduler's address (tcp://host:8786), not {value}: "
                            "{why}", what=Option(what), value=_shown(value), why=why)
    return value


def _address_fault(address: str) -> str | None:
    """What is wrong with ``address`` as Dask reads one (its scheme split, then host:port), or None."""
    if not address or any(c.isspace() or c == "\0" for c in address):
        return "empty" if not address else "it holds a space or a control character"
    scheme, sep, where = address.rpartition("://")
    scheme = scheme if sep else "tcp"
    if not re.fullmatch(r"[a-z][a-z0-9+.-]*", scheme):
        return f"{scheme[:20]!r} is not a scheme"
    if scheme not in _HOST_PORT_SCHEMES:
        return None if where else "nothing after the scheme"
    if where.startswith("["):                       # IPv6: [addr]:port
        host, close, tail = where[1:].partition("]")
        if not close or not tail.startswith(":"):
            return "an IPv6 host is written [addr]:port"
        port = tail[1:]
    else:
        host, colon, port = where.rpartition(":")
        if not colon:
            return "no port (host:port)"
        if ":" in host:
            return "an IPv6 host needs brackets ([::1]:8786)"
    if not re.fullmatch(r"[0-9]{1,5}", port) or not 0 < int(port) < 65536:
        return f"{port[:20]!r} is not a port number"
    return None


def check_node_limit(value: Any) -> int | None:
    """``value`` if it is a node limit (None: none), else SatilingError."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10 ** 18:
        raise SatilingError(f"node limit is a whole number from 1 to 10**18, not {_shown(value)}")
    return value


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# -- argparse types: a bad value is argparse's one-line error -------------------------------------
def seconds_arg(text: str) -> float:
    """A ``--time-limit``: a positive, finite number of seconds up to :data:`MAX_SECONDS`."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a number of seconds") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"{text[:20]} is not a positive, finite number of seconds")
    if value > MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"{text[:20]}: at most {MAX_SECONDS} seconds (about three "
                                         f"years)")
    return value


def whole_arg(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``lo`` to ``hi``."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a whole number") from None
        if not lo <= value <= hi:
            bound = f"at least {lo}" if value < lo else f"at most {hi}"
            raise argparse.ArgumentTypeError(f"{text[:20]}: must be {bound}")
        return value
    return parse


#: ``--workers`` and ``--threads``
workers_arg = whole_arg(1, MAX_WORKERS)
