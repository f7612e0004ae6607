"""The web app's figures: `satiling serve` started on a fresh store and measured as a browser uses it.

    python tools/bench/web.py [--count NAME] [--port PORT] [--repeat N (5)]

- page ready: GET / and its static files (and the gallery's list), wall time, median of N;
- progress latency: from the engine's progress report (the event's `at`, the server's clock) to
  the server-sent event read by a client on the same machine (median and worst over a count);
- the live board: the partial boards (`partial` events) a client watching the count receives,
  how many and how many a second;
- a count through the web app (POST to the run's end state, watched by one client) against
  `satiling count` on the same puzzle in a process of its own, in turn in the same run (wall time
  both, each with its process start): the ratio (the target: within 1.2x);
- 10 server-sent-event clients watching one count against none (the same count, wall time);
- a gallery page: `enumerate pentomino-6x10 --raw` stored (9356 solutions), then
  `solutions?offset=K&limit=24` at several offsets (the page's 24 pictures drawn on demand).

Wall times on a shared machine move with its load: the ratios are the figures to compare.
Needs httpx2 (``pip install -e '.[test]'``).
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx2 as httpx


def serve(port: int, store: Path) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "satiling.cli", "serve", "--port", str(port),
                             "--store", str(store)], stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    if "serving on" not in line:
        raise SystemExit(f"the server did not start: {line!r}")
    return proc


def wait_up(base: str) -> None:
    for _ in range(100):
        try:
            httpx.get(base + "api/puzzles", timeout=5)
            return
        except httpx.TransportError:
            time.sleep(0.1)
    raise SystemExit("the server does not answer")


def page_ready(base: str, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        with httpx.Client(base_url=base, timeout=30) as c:
            for path in ("/", "/static/app.js", "/static/app.css", "/api/puzzles"):
                c.get(path).raise_for_status()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def start(c: httpx.Client, **body) -> str:
    r = c.post("/api/runs", json=body)
    r.raise_for_status()
    return r.json()["id"]


def finish(c: httpx.Client, run_id: str) -> dict:
    while True:
        run = c.get(f"/api/runs/{run_id}").json()
        if run["state"] in ("done", "partial", "stopped", "failed"):
            return run
        time.sleep(0.02)


def watch(base: str, run_id: str, lags: list[float] | None = None,
          boards: list[float] | None = None, ended: list[float] | None = None) -> None:
    """Read the run's events to the end; with ``lags``, record each progress event's lateness,
    with ``boards`` when each partial board came, with ``ended`` when the end came."""
    with httpx.stream("GET", f"{base}api/runs/{run_id}/events", timeout=None) as r:
        for line in r.iter_lines():
            if not line.startswith("data: "):
                continue
            event = json.loads(line[6:])
            if lags is not None and event["type"] == "progress" and "at" in event:
                lags.append(time.time() - event["at"])
            if boards is not None and event["type"] == "partial":
                boards.append(time.monotonic())
            if event["type"] == "end":
                if ended is not None:
                    ended.append(time.perf_counter())
                return


def timed_count(base: str, name: str, watchers: int, lags: list[float] | None = None,
                boards: list[float] | None = None) -> float:
    """Wall seconds from POST to the end of ``count NAME`` as a page hears it (its stream's
    ``end``: no polling beside the count), with ``watchers`` SSE clients (at least one)."""
    with httpx.Client(base_url=base, timeout=60) as c:
        t = time.perf_counter()
        run_id = start(c, puzzle=name, task="count")
        ended: list[float] = []
        threads = [threading.Thread(target=watch, args=(base, run_id) + (
            (lags, boards, ended) if i == 0 else ())) for i in range(max(watchers, 1))]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        seconds = ended[0] - t
        run = c.get(f"/api/runs/{run_id}").json()
    if run["state"] != "done":
        raise SystemExit(f"count {name} ended {run['state']}: {run}")
    return seconds


def cli_count(name: str) -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "satiling.cli", "count", name, "--quiet"], check=True,
                   capture_output=True)
    return time.perf_counter() - t


def gallery(base: str) -> tuple[int, list[tuple[int, float]]]:
    with httpx.Client(base_url=base, timeout=120) as c:
        run = finish(c, start(c, puzzle="pentomino-6x10", task="enumerate", raw=True))
        total = c.get(f"/api/runs/{run['id']}/solutions?limit=1").json()["total"]
        out = []
        for offset in (0, 24, 4680, total - 24):
            t = time.perf_counter()
            page = c.get(f"/api/runs/{run['id']}/solutions?offset={offset}&limit=24").json()
            out.append((offset, time.perf_counter() - t))
            assert len(page["items"]) == 24
    return total, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", default="pentomino-8x8-square", help="the puzzle counted")
    ap.add_argument("--port", type=int, default=18779)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    base = f"http://127.0.0.1:{args.port}/"
    with tempfile.TemporaryDirectory() as tmp:
        proc = serve(args.port, Path(tmp) / "bench.sqlite")
        try:
            wait_up(base)
            print(f"page ready (GET /, app.js, app.css, /api/puzzles): {page_ready(base, 5):.3f} s")
            lags: list[float] = []
            web, cli, boards = [], [], []
            for _ in range(args.repeat):          # in turn: both see the same load
                seen: list[float] = []
                web.append(timed_count(base, args.count, 0, lags, seen))
                boards.append(seen)
                cli.append(cli_count(args.count))
            print(f"progress latency, engine to SSE client: median {statistics.median(lags) * 1000:.0f} ms, "
                  f"worst {max(lags) * 1000:.0f} ms ({len(lags)} events)")
            shown = [(len(b), (b[-1] - b[0]) if len(b) > 1 else 0.0) for b in boards]
            print("partial boards received while counting: " + ", ".join(
                f"{n} in {s:.1f} s ({(n - 1) / s if s else 0:.1f} a second)" for n, s in shown))
            w, k = statistics.median(web), statistics.median(cli)
            print(f"count {args.count}: web app {w:.2f} s (runs: {', '.join(f'{x:.2f}' for x in web)}), "
                  f"satiling count {k:.2f} s (runs: {', '.join(f'{x:.2f}' for x in cli)}): ratio {w / k:.2f}; "
                  f"median of the pairs' ratios {statistics.median(x / y for x, y in zip(web, cli)):.2f}")
            ten = [timed_count(base, args.count, 10) for _ in range(3)]
            t10 = statistics.median(ten)
            print(f"count {args.count} watched by 10 SSE clients: {t10:.2f} s against {w:.2f} s "
                  f"unwatched: ratio {t10 / w:.2f}")
            total, pages = gallery(base)
            shown = ", ".join(f"offset {o}: {s:.3f} s" for o, s in pages)
            print(f"gallery page of 24 among {total} stored solutions: {shown}")
        finally:
            proc.send_signal(signal.SIGINT)
            proc.wait(30)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
