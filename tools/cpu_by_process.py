"""Run a command and say the CPU seconds of every process it starts, grouped by kind: where a test
suite's time goes when most of it is in child processes (the CLI, solvers, a browser).

    python tools/cpu_by_process.py .venv/bin/pytest -p no:cacheprovider

It samples ``/proc`` every 50 ms, so a process that lives less than that is missed (its parent's
share of it is not counted either): the total it prints is a floor, to set beside
``tools/cpu_ticks.sh``'s.
"""
from __future__ import annotations

import collections
import os
import subprocess
import sys
import time

HZ = os.sysconf("SC_CLK_TCK")
#: kinds of process, by a word of their command line, first match wins
KINDS = [("exec(eval", "pytest workers (the tests in process, and what they fork)"),
         ("forkserver", "the tests' command server and its commands"),
         ("chromium", "Chromium"), ("chromedriver", "Chromium"),
         ("spawn_main", "spawned workers and web runs"), ("cadical", "CaDiCaL"),
         ("bin/satiling", "satiling programs (the README's lines, ...)"),
         ("-m satiling", "satiling programs (the README's lines, ...)")]


def kind(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return "gone"
    return next((name for word, name in KINDS if word in cmd), cmd.split(" ")[0] or "other")


def snapshot() -> tuple[dict[int, int], dict[int, int]]:
    """(parent of each pid, its CPU ticks so far)."""
    parent, ticks = {}, {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            rest = stat[stat.rindex(")") + 2:].split()
            parent[int(d)], ticks[int(d)] = int(rest[1]), int(rest[11]) + int(rest[12])
    return parent, ticks


def main(argv: list[str]) -> int:
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seen: dict[int, tuple[str, int]] = {}
    while proc.poll() is None:
        parent, ticks = snapshot()
        for pid, t in ticks.items():
            q = pid
            for _ in range(50):                 # is proc an ancestor?
                if q == proc.pid or q not in parent:
                    break
                q = parent[q]
            if q == proc.pid:
                name = seen[pid][0] if pid in seen else kind(pid)
                seen[pid] = (name, max(t, seen.get(pid, ("", 0))[1]))
        time.sleep(0.05)
    by = collections.Counter()
    for name, t in seen.values():
        by[name] += t / HZ
    for name, seconds in by.most_common():
        print(f"{seconds:8.1f} s  {name}")
    print(f"{sum(by.values()):8.1f} s  in all (exit {proc.returncode})")
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
