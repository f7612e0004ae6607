"""SIGKILL ``satiling serve`` in the middle of a run, start it again on the same store, and check
what the store kept against satiling's own commands.

    python tools/experiments/web_kill.py [--kills 10] [--task maximise|enumerate] [--seed 1]

- ``maximise`` (Eternity II): after each restart the run's listed ``score`` must be what
  ``satiling score eternity2`` says of the run's stored board (``solutions/0.json``);
- ``enumerate`` (``pentomino-6x10 --raw``, 9356 solutions): the run's ``found`` must be the number
  of solutions stored and served, and ``satiling verify`` must accept every one of them.

Each kill comes at a random moment, 0 to 8 s after the run's first board (or solution): the
first seconds, when Eternity's score climbs fastest, included; one server after another on one
store.  Prints one line a kill
and a summary; exits 1 if any check failed.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx2 as httpx


def serve(store: Path) -> tuple[subprocess.Popen, str]:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "satiling.cli", "serve", "--port", str(port),
                             "--store", str(store)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    line = proc.stdout.readline()
    if "serving on" not in line:
        raise SystemExit(f"the server did not start: {line!r} {proc.stderr.read()}")
    return proc, f"http://127.0.0.1:{port}"


def satiling(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "satiling.cli", *args], capture_output=True,
                          text=True, timeout=600)


def started(run: dict) -> bool:
    """Whether the run has something to lose: a board, a solution."""
    return run["score"] is not None or run["found"] > 0 or run["state"] not in ("queued", "running")


def check_maximise(base: str, run_id: str, folder: Path) -> tuple[bool, str]:
    run = httpx.get(f"{base}/api/runs/{run_id}", timeout=60).json()
    if run["score"] is None:
        return True, "no board yet"
    board = folder / f"{run_id}.json"
    board.write_text(httpx.get(f"{base}/api/runs/{run_id}/solutions/0.json", timeout=60).text)
    out = satiling("score", "eternity2", str(board)).stdout
    found = re.search(r"^score (\d+)/480", out, re.M)
    scored = int(found.group(1)) if found else None
    return scored == run["score"], f"listed {run['score']}, satiling score {scored}"


def check_enumerate(base: str, run_id: str, folder: Path) -> tuple[bool, str]:
    run = httpx.get(f"{base}/api/runs/{run_id}", timeout=60).json()
    total = httpx.get(f"{base}/api/runs/{run_id}/solutions?limit=1", timeout=60).json()["total"]
    lines = folder / f"{run_id}.jsonl"
    lines.write_text(httpx.get(f"{base}/api/runs/{run_id}/solutions.jsonl", timeout=600).text)
    verified = total == 0 or satiling("verify", "pentomino-6x10", str(lines)).returncode == 0
    return run["found"] == total and verified, \
        f"found {run['found']}, stored {total}, verified {'yes' if verified else 'NO'}"


RUNS = {"maximise": ({"puzzle": "eternity2", "task": "maximise"}, check_maximise),
        "enumerate": ({"puzzle": "pentomino-6x10", "task": "enumerate", "raw": True}, check_enumerate)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=10)
    ap.add_argument("--task", choices=sorted(RUNS), default="maximise")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    body, check = RUNS[args.task]
    good = 0
    with tempfile.TemporaryDirectory() as tmp:
        folder, store = Path(tmp), Path(tmp) / "kill.sqlite"
        proc, base = serve(store)
        for k in range(1, args.kills + 1):
            run_id = httpx.post(f"{base}/api/runs", json=body, timeout=60).json()["id"]
            begun = time.monotonic()
            while not started(httpx.get(f"{base}/api/runs/{run_id}", timeout=60).json()):
                time.sleep(0.02)
            time.sleep(rng.uniform(0.0, 8.0))
            after = time.monotonic() - begun
            proc.kill()
            proc.communicate(timeout=60)
            proc, base = serve(store)
            ok, what = check(base, run_id, folder)
            state = httpx.get(f"{base}/api/runs/{run_id}", timeout=60).json()["state"]
            good += ok
            print(f"kill {k:2d} after {after:4.1f} s: {run_id} {state}, {what}: "
                  f"{'ok' if ok else 'WRONG'}", flush=True)
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=60)
    print(f"{good} of {args.kills} kills left a store that agrees with satiling ({args.task})")
    return 0 if good == args.kills else 1


if __name__ == "__main__":
    sys.exit(main())
