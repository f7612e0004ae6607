"""Interrupt every command x solver pair with SIGINT and SIGTERM at random moments; print a table.

    python tools/experiments/interrupt_matrix.py                      # 5 of each signal per pair, seed 1
    python tools/experiments/interrupt_matrix.py --repeats 1 --only count

The contract (``satiling/signals.py``): exit 130 after SIGINT, 143 after SIGTERM (or the command's
own answer, when it finished before the signal), never a traceback, never an abort, and what was
found is kept: enumerate's output has only complete JSON lines, count reports its partial count,
an output file is whole or absent.  Each run is sent its signal at a moment drawn uniformly from
[--earliest, --latest] seconds after it started (seeded), so it lands in model building, in the
search, or in a child solver.  Columns: exit codes seen, runs that kept the contract, tracebacks,
runs whose output broke (a torn line, a half-written file, a partial count not reported).  A
signal that lands before satiling's code runs (the interpreter starting and importing: about
0.1 CPU-s, more on a loaded machine) meets Python's defaults; such runs are counted apart ("before
start") and not in the other columns.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

#: a generated 8x8 edge-matching board (3 + 8 colours, seed 2: minutes of search), written into
#: the run's directory when a pair names it
GENERATED = "g8.toml"

#: (command label, solver label, arguments); all but the 6x10 enumerations (about 2 s, so signals land
#: in the stream and after it) run for longer than --latest seconds
PAIRS: list[tuple[str, str, list[str]]] = [
    ("solve", "auto (walk)", ["solve", "pram"]),
    ("solve", "cadical", ["solve", "tortoise", "--solver", "cadical"]),
    ("solve", "glucose", ["solve", "tortoise", "--solver", "glucose"]),
    ("solve", "cpsat", ["solve", "pram", "--solver", "cpsat"]),
    ("solve", "highs", ["solve", "pram", "--solver", "highs"]),
    ("solve", "scip", ["solve", "pram", "--solver", "scip"]),
    ("solve", "auto (edge matching)", ["solve", "eternity2"]),
    ("solve", "cadical (edge matching)", ["solve", "eternity2", "--solver", "cadical", "--hints"]),
    ("solve", "maximize-matches", ["solve", "eternity2", "--maximize-matches", "--time-limit", "60"]),
    ("solve", "maximize-matches cpsat", ["solve", GENERATED, "--maximize-matches", "--engine", "cpsat",
                                         "--time-limit", "60"]),
    ("solve", "proof (cadical)", ["solve", "tortoise", "--proof", "p.drat"]),
    ("solve", "race", ["solve", "tortoise", "--solver", "race"]),
    ("solve", "backtrack, 2 workers", ["solve", GENERATED, "--workers", "2"]),
    ("count", "walk", ["count", "pram"]),
    ("count", "sat", ["count", "pentomino-6x10", "--engine", "sat"]),
    ("count", "cpsat", ["count", "pentomino-6x10", "--engine", "cpsat"]),
    ("count", "walk, 2 workers", ["count", "pram", "--workers", "2"]),
    ("enumerate", "walk", ["enumerate", "pentomino-6x10", "--raw"]),
    ("enumerate", "sat", ["enumerate", "pentomino-6x10", "--engine", "sat"]),
    ("enumerate", "cpsat", ["enumerate", "pentomino-6x10", "--engine", "cpsat"]),
    ("enumerate", "walk --out", ["enumerate", "pentomino-6x10", "--raw", "--out", "s.jsonl"]),
    ("info", "-", ["info", "eternity"]),
    ("encode", "dimacs -o", ["encode", "eternity", "-o", "e.cnf"]),
    ("encode", "dimacs stdout", ["encode", "eternity"]),
    ("pack", "cpsat", ["pack", "tortoise", "--exact-seconds", "0", "--time-limit", "60"]),
    ("iqlink unique", "cadical", ["iqlink", "unique", ""]),
    ("iqlink generate", "cadical", ["iqlink", "generate", "--pieces-to-place", "11", "--seed", "3"]),
]


@dataclass
class Row:
    command: str
    solver: str
    codes: Counter = field(default_factory=Counter)
    kept: int = 0
    runs: int = 0
    tracebacks: int = 0
    broken: int = 0
    early: int = 0              # signalled before satiling's code ran (counted apart)
    stops: list = field(default_factory=list)   # seconds from the signal to the exit


def run_once(argv: list[str], sig: int, delay: float, workdir: Path,
             limit: float) -> tuple[int, str, str, float | None]:
    """Start ``satiling argv`` in ``workdir``, send ``sig`` after ``delay`` s; (exit code, stdout,
    stderr, seconds from the signal to the exit -- None when it ended before the signal).  A run
    still alive ``limit`` s after the signal is killed (exit code -9)."""
    cmd = [sys.executable, "-m", "satiling.cli", *argv]
    stopped = None
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, cwd=workdir, stdout=out, stderr=err)
        try:
            p.wait(delay)
        except subprocess.TimeoutExpired:
            # a pidfd turns readable the moment the process ends (Popen.wait polls every 50 ms)
            pidfd = os.pidfd_open(p.pid)
            try:
                p.send_signal(sig)
                sent = time.monotonic()
                ended = select.select([pidfd], [], [], limit)[0]
                stopped = time.monotonic() - sent
            finally:
                os.close(pidfd)
            if not ended:
                p.kill()
            p.wait()
        out.seek(0)
        err.seek(0)
        return (p.returncode, out.read().decode(errors="replace"), err.read().decode(errors="replace"),
                stopped)


def write_generated(path: Path) -> None:
    from satiling.families.edgematch.generate import generate, instance_toml
    path.write_text(instance_toml(generate(8, 8, 3, 8, 2), "generate-edgematch 8 8 --seed 2"))


def output_ok(command: str, argv: list[str], code: int, out: str, err: str, workdir: Path) -> bool:
    """What was found is kept and nothing half-written is left."""
    if command == "enumerate":
        text = (workdir / "s.jsonl").read_text() if "--out" in argv and (workdir / "s.jsonl").exists() else out
        if text and not text.endswith("\n"):
            return False
        try:
            [json.loads(line) for line in text.splitlines()]
        except ValueError:
            return False
    if command == "count" and code in (130, 143):      # a partial count, or stopped before counting
        return ("so far" in err and "partial" in err) or "solutions" not in err
    if command == "count" and code == 0:
        return out.strip().isdigit()
    if "-o" in argv and code != 0:
        return not (workdir / "e.cnf").exists()
    leftovers = [p.name for p in workdir.iterdir() if p.name.startswith(".")]
    return not leftovers


def before_start(code: int, err: str) -> bool:
    """The signal came before satiling's code ran (the interpreter starting, imports): Python's
    own defaults apply there (a KeyboardInterrupt traceback, or death by the signal).  Once
    ``satiling.cli.main`` runs, every message starts with 'satiling:' and every traceback would
    pass through main."""
    ours = " in main\n" in err or " in _main\n" in err or err.startswith("satiling:") \
        or "\nsatiling:" in err
    if code in (-signal.SIGINT, -signal.SIGTERM):
        return not ours
    return "Traceback" in err and not ours


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=5, help="runs per pair and signal (default 5)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--earliest", type=float, default=0.5, help="earliest signal, seconds after start")
    ap.add_argument("--latest", type=float, default=4.0, help="latest signal, seconds after start")
    ap.add_argument("--grace", type=float, default=30.0,
                    help="seconds a run may take to stop after its signal before it counts as hung")
    ap.add_argument("--only", help="only pairs whose command starts with this")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    rows = []
    start = time.monotonic()
    for command, solver, argv in PAIRS:
        if args.only and not command.startswith(args.only):
            continue
        row = Row(command, solver)
        for sig in (signal.SIGINT, signal.SIGTERM):
            for _ in range(args.repeats):
                delay = rng.uniform(args.earliest, args.latest)
                with tempfile.TemporaryDirectory() as tmp:
                    if GENERATED in argv:
                        write_generated(Path(tmp) / GENERATED)
                    code, out, err, stopped = run_once(argv, sig, delay, Path(tmp), args.grace)
                    ok_output = output_ok(command, argv, code, out, err, Path(tmp))
                if before_start(code, err):
                    row.early += 1
                    where = [ln.strip() for ln in err.splitlines() if ln.strip().startswith("File")]
                    print(f"  (before start: {command} [{solver}] {signal.Signals(sig).name} at "
                          f"{delay:.2f} s: exit {code}; {where[-1:] or err.strip()[-80:]})",
                          file=sys.stderr)
                    continue
                row.runs += 1
                row.codes[code] += 1
                if stopped is not None:
                    row.stops.append(stopped)
                tb = err.count("Traceback")
                row.tracebacks += tb
                row.broken += not ok_output
                row.kept += (code in (128 + sig, 0, 1)) and ok_output and not tb
                if code not in (128 + sig, 0, 1) or tb or not ok_output:
                    print(f"  {command} [{solver}] {signal.Signals(sig).name} at {delay:.2f} s: "
                          f"exit {code}; {' | '.join(err.strip().splitlines()[-8:])}", file=sys.stderr)
        rows.append(row)
        print(f"{command} [{solver}]: {dict(row.codes)}", file=sys.stderr, flush=True)
    print("| command | solver | exit codes (runs) | contract kept | tracebacks | output broken "
          "| before start | signal to exit, median / worst (ms) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        codes = ", ".join(f"{c} x{n}" for c, n in sorted(r.codes.items()))
        stops = sorted(r.stops)
        latency = f"{1000 * stops[len(stops) // 2]:.0f} / {1000 * stops[-1]:.0f}" if stops else "-"
        print(f"| {r.command} | {r.solver} | {codes} | {r.kept}/{r.runs} | {r.tracebacks} | "
              f"{r.broken} | {r.early} | {latency} |")
    total = sum(r.runs for r in rows)
    print(f"\n{total} runs, {sum(r.kept for r in rows)} kept the contract, "
          f"{sum(r.tracebacks for r in rows)} tracebacks; {sum(r.early for r in rows)} more signalled "
          f"before satiling's code ran; {time.monotonic() - start:.0f} s "
          f"(seed {args.seed}, signals at {args.earliest}-{args.latest} s)")


if __name__ == "__main__":
    main()
