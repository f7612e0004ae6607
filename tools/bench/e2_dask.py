"""Benchmark: the Eternity II maximisation on a Dask cluster of this machine.

Every cluster here is a ``dask scheduler`` and ``dask worker --nthreads 1`` processes started by
this script (the scheduler in a process of its own, so that its CPU time is its own), stopped at
the end of each measurement.

    python tools/bench/e2_dask.py ratio --seconds 60      # 2 local processes against 2 Dask
                                                          # workers, in turn: nodes per CPU-s
    python tools/bench/e2_dask.py channels --workers 1 2 4 8 --seconds 10 --rate 20
                                                          # how a better cap reaches the others:
                                                          # event topics, a polled Variable,
                                                          # Queues (latency, scheduler CPU)
    python tools/bench/e2_dask.py load --workers 1 2 4 8 --seconds 60
                                                          # the real search: messages per worker
                                                          # per second, the scheduler's CPU
    python tools/bench/e2_dask.py idle --seconds 20       # after a run's end: the workers' CPU
    python tools/bench/e2_dask.py threads                 # the search in a thread: its node rate,
                                                          # two at once in one process
    PYTHONPATH=OTHER python tools/bench/e2_dask.py threads --pair 10 &   # two threads of another
    python tools/bench/e2_dask.py threads --pair 10; wait              # build beside this one's

``channels`` simulates the traffic (each worker "finds" ``--rate`` boards a second; the client
passes each on as a cap to every worker) so that the costs are measured without the search;
``load`` runs ``maximize_matches(..., dask=...)`` itself.  On this 2-core machine more than two
workers share the cores (8 workers: each a quarter of a core), which slows the searches, not the
messages.  Measurements: docs/decisions/2026-11-28-eternity2-dask.md.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[2]
DASK = str(Path(sys.executable).with_name("dask"))


# -- a cluster of processes -----------------------------------------------------------------------
class Cluster:
    """A scheduler and ``workers`` worker processes (nanny and worker each), this machine."""

    def __init__(self, workers: int, nthreads: int = 1, profile: bool = True) -> None:
        self.dir = tempfile.mkdtemp(prefix="e2-dask-")
        sched_file = os.path.join(self.dir, "scheduler.json")
        env = dict(os.environ)
        if not profile:                   # Dask's sampling profiler off in the workers
            env["DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED"] = "False"
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "cwd": self.dir, "env": env}
        self.scheduler = subprocess.Popen([DASK, "scheduler", "--host", "127.0.0.1", "--port", "0",
                                           "--no-dashboard", "--scheduler-file", sched_file], **quiet)
        while not os.path.exists(sched_file) or not os.path.getsize(sched_file):
            time.sleep(0.1)
        time.sleep(0.2)
        self.address = json.loads(Path(sched_file).read_text())["address"]
        self.workers = [subprocess.Popen([DASK, "worker", self.address, "--nthreads", str(nthreads),
                                          "--no-dashboard", "--local-directory", self.dir], **quiet)
                        for _ in range(workers)]
        from distributed import Client
        with Client(self.address, timeout="30s") as c:
            c.wait_for_workers(workers, timeout=120)

    def scheduler_cpu(self) -> float:
        import psutil
        t = psutil.Process(self.scheduler.pid).cpu_times()
        return t.user + t.system

    def worker_cpu(self) -> list[float]:
        """CPU seconds of each worker (its nanny and worker processes)."""
        import psutil
        out = []
        for w in self.workers:
            p = psutil.Process(w.pid)
            out.append(sum(sum(q.cpu_times()[:2]) for q in [p] + p.children(recursive=True)))
        return out

    def close(self) -> None:
        for p in self.workers + [self.scheduler]:
            p.terminate()
        for p in self.workers + [self.scheduler]:
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        import shutil
        shutil.rmtree(self.dir, ignore_errors=True)


@contextmanager
def cluster(workers: int, nthreads: int = 1, profile: bool = True) -> Iterator[Cluster]:
    c = Cluster(workers, nthreads, profile)
    try:
        yield c
    finally:
        c.close()


# -- channels: how a cap reaches the other workers ----------------------------------------------
def _sim_task(kind: str, run: str, me: int, workers: int, seconds: float, rate: float,
              poll: float) -> dict:
    """A worker's side: find a board ``rate`` times a second (send it to the client), hear the
    caps the client sends on (their latency from the sending worker's clock: one machine)."""
    import random
    from distributed import Queue, Variable, get_client, get_worker
    client, worker = get_client(), get_worker()
    heard: list[float] = []
    done = threading.Event()

    def hear(msg: Any) -> None:
        if msg and msg["from"] != me:
            heard.append(time.time() - msg["t"])

    if kind == "events":
        client.subscribe_topic(f"{run}-cap", lambda event: hear(event[1]))
    elif kind == "variable":
        def poller() -> None:
            var, last = Variable(f"{run}-cap", client=client), None
            while not done.is_set():
                try:
                    msg = var.get(timeout=1)
                except Exception:
                    msg = None
                if msg and msg["seq"] != last:
                    last = msg["seq"]
                    hear(msg)
                done.wait(poll)
        threading.Thread(target=poller, daemon=True).start()
    else:
        def getter() -> None:
            q = Queue(f"{run}-cap-{me}", client=client)
            while not done.is_set():
                try:
                    hear(q.get(timeout=0.5))
                except Exception:
                    pass
        threading.Thread(target=getter, daemon=True).start()
    boards = Queue(f"{run}-boards", client=client) if kind == "queues" else None
    rng, end, sent = random.Random(me), time.time() + seconds, 0
    while time.time() < end:
        time.sleep(rng.expovariate(rate))
        msg = {"from": me, "seq": f"{me}-{sent}", "t": time.time()}
        if boards is not None:
            boards.put(msg)
        else:
            worker.log_event(f"{run}-boards", msg)
        sent += 1
    time.sleep(1.0)                       # the last caps on their way
    done.set()
    if kind == "events":
        client.unsubscribe_topic(f"{run}-cap")
    return {"sent": sent, "heard": heard}


def channels(args: argparse.Namespace) -> None:
    import queue
    import uuid
    from distributed import Client, Queue, Variable
    print(f"{'channel':9} {'workers':>7} {'boards/s':>9} {'latency ms (median, p90)':>25} "
          f"{'sched CPU ms/s':>15} {'idle ms/s':>10} {'sched us/board':>15}")
    for n in args.workers:
        with cluster(n) as cl, Client(cl.address) as client:
            t0, c0 = time.time(), cl.scheduler_cpu()
            time.sleep(args.seconds)
            idle = (cl.scheduler_cpu() - c0) / (time.time() - t0)
            for kind in args.kinds:
                run = uuid.uuid4().hex[:8]
                inbox: queue.Queue = queue.Queue()
                if kind != "queues":
                    client.subscribe_topic(f"{run}-boards", lambda event: inbox.put(event[1]))
                qin = Queue(f"{run}-boards", client=client) if kind == "queues" else None
                outs = [Queue(f"{run}-cap-{k}", client=client) for k in range(n)] if kind == "queues" else []
                var = Variable(f"{run}-cap", client=client) if kind == "variable" else None
                t0, c0 = time.time(), cl.scheduler_cpu()
                futs = [client.submit(_sim_task, kind, run, k, n, args.seconds, args.rate, args.poll,
                                      pure=False) for k in range(n)]
                relayed = 0
                while not all(f.done() for f in futs):
                    try:
                        msg = qin.get(timeout=0.1) if qin is not None else inbox.get(timeout=0.1)
                    except Exception:
                        continue
                    relayed += 1
                    if kind == "events":
                        client.log_event(f"{run}-cap", msg)
                    elif kind == "variable":
                        var.set(msg)
                    else:
                        for q in outs:
                            q.put(msg)
                took = time.time() - t0
                cpu = cl.scheduler_cpu() - c0
                res = client.gather(futs)
                lat = sorted(x * 1000 for r in res for x in r["heard"])
                sent = sum(r["sent"] for r in res)
                p90 = lat[int(0.9 * (len(lat) - 1))] if lat else float("nan")
                per = (cpu - idle * took) / max(1, sent) * 1e6
                print(f"{kind:9} {n:7} {sent / took:9.1f} "
                      f"{statistics.median(lat) if lat else float('nan'):12.1f} {p90:12.1f} "
                      f"{cpu / took * 1000:15.1f} {idle * 1000:10.1f} {per:15.0f}", flush=True)
                if kind != "queues":
                    client.unsubscribe_topic(f"{run}-boards")


# -- the real search ------------------------------------------------------------------------------
def _local_searches(processes: int, seconds: float, seed: int) -> tuple[int, float, int]:
    """``processes`` local searches as ``--maximize-matches`` runs them (forked, a shared cap),
    ``seconds`` of wall clock: their nodes, their CPU seconds, the best score."""
    import multiprocessing as mp
    from satiling import catalog
    from satiling.apps.maximize import default_tuning
    from satiling.apps.maximize.scoring import _backtrack_one
    from satiling.apps.maximize.cluster import SEED_STRIDE
    e2 = catalog.load("eternity2")
    joins = len(e2.joins())
    ctx = mp.get_context("fork")
    shared = ctx.Value("q", joins + 1)
    out = ctx.Queue()

    def one(k: int) -> None:
        r = _backtrack_one(e2, seconds, lambda imp: None, False, time.monotonic(),
                           seed + SEED_STRIDE * k, False, default_tuning(e2), shared)
        t = os.times()
        out.put((r.nodes, t.user + t.system, r.score))

    procs = [ctx.Process(target=one, args=(k,)) for k in range(processes)]
    for p in procs:
        p.start()
    got = [out.get() for _ in procs]
    for p in procs:
        p.join()
    return sum(g[0] for g in got), sum(g[1] for g in got), max(g[2] for g in got)


def _dask_search(cl: Cluster, seconds: float, seed: int) -> dict:
    from satiling import catalog
    from satiling.apps.maximize import maximize_matches
    e2 = catalog.load("eternity2")
    w0, s0, t0 = sum(cl.worker_cpu()), cl.scheduler_cpu(), time.time()
    boards = []
    r = maximize_matches(e2, seconds, boards.append, dask=cl.address, seed=seed)
    took = time.time() - t0
    cpu, sched = sum(cl.worker_cpu()) - w0, cl.scheduler_cpu() - s0
    from distributed import Client
    with Client(cl.address) as c:           # the run's topics: its boards in, its caps out
        events = c.get_events()
    sent = sum(len(v) for k, v in events.items() if k.startswith("satiling-maximise-") and k.endswith("-boards"))
    caps = sum(len(v) for k, v in events.items() if k.startswith("satiling-maximise-") and k.endswith("-cap"))
    return {"nodes": r.nodes, "cpu": cpu, "threads": r.cpu, "sched": sched, "score": r.score,
            "boards": len(boards),
            "sent": sent, "caps": caps, "seconds": took}


def ratio(args: argparse.Namespace) -> None:
    """Local processes and Dask workers in turn (the machine's load hits both alike): nodes per
    CPU-s of the local processes, of the worker processes (their nannies, Dask's own threads
    included) and of the search threads alone."""
    print(f"{'round':>5} {'where':6} {'nodes':>14} {'CPU s':>7} {'Mnodes/CPU-s':>13} "
          f"{'threads CPU s':>14} {'Mnodes/thread-CPU-s':>20} {'score':>5}")
    nodes = {"local": 0, "dask": 0}
    cpu = {"local": 0.0, "dask": 0.0, "threads": 0.0}
    with cluster(args.processes, profile=not args.no_profile) as cl:
        _dask_search(cl, 2.0, args.seed)        # the workers import satiling before the rounds
        for k in range(args.rounds):
            n, c, score = _local_searches(args.processes, args.seconds, args.seed + k)
            nodes["local"] += n
            cpu["local"] += c
            print(f"{k:5} {'local':6} {n:14,} {c:7.1f} {n / c / 1e6:13.2f} {'':14} {'':20} {score:5}",
                  flush=True)
            d = _dask_search(cl, args.seconds, args.seed + k)
            nodes["dask"] += d["nodes"]
            cpu["dask"] += d["cpu"]
            cpu["threads"] += d["threads"]
            print(f"{k:5} {'dask':6} {d['nodes']:14,} {d['cpu']:7.1f} {d['nodes'] / d['cpu'] / 1e6:13.2f} "
                  f"{d['threads']:14.1f} {d['nodes'] / d['threads'] / 1e6:20.2f} {d['score']:5}", flush=True)
    local = nodes["local"] / cpu["local"]
    print(f"nodes per CPU-s, Dask / local: {nodes['dask'] / cpu['dask'] / local:.3f} (the worker "
          f"processes); {nodes['dask'] / cpu['threads'] / local:.3f} (the search threads alone); "
          f"the workers' own share of their CPU: {1 - cpu['threads'] / cpu['dask']:.3f}")


def load(args: argparse.Namespace) -> None:
    """The real search on ``n`` workers: the boards the workers sent (events in), the caps the
    client sent on (each an event to each of the ``n`` workers, the stop included), per worker
    per second; the scheduler's CPU in the run and idle with the same workers."""
    print(f"{'workers':>7} {'sent':>5} {'caps':>5} {'in/worker/s':>12} {'out/worker/s':>13} "
          f"{'sched CPU ms/s':>15} {'idle ms/s':>10} {'us/message':>11} {'score':>5}")
    for n in args.workers:
        with cluster(n) as cl:
            t0, c0 = time.time(), cl.scheduler_cpu()
            time.sleep(min(10.0, args.seconds))
            idle = (cl.scheduler_cpu() - c0) / (time.time() - t0)
            d = _dask_search(cl, args.seconds, args.seed)
        secs = d["seconds"]
        messages = d["sent"] + d["caps"] * (1 + n)      # a cap: from the client, to n workers
        extra = d["sched"] - idle * secs
        print(f"{n:7} {d['sent']:5} {d['caps']:5} {d['sent'] / n / secs:12.3f} "
              f"{d['caps'] / secs:13.3f} {d['sched'] / secs * 1000:15.1f} {idle * 1000:10.1f} "
              f"{extra / max(1, messages) * 1e6:11.0f} {d['score']:5}", flush=True)


def idle(args: argparse.Namespace) -> None:
    """A run's end: each worker's CPU in the half seconds after it (a search still running
    would take a whole core)."""
    with cluster(args.processes) as cl:
        d = _dask_search(cl, args.seconds, args.seed)
        print(f"score {d['score']}, run {d['seconds']:.2f} s")
        before = cl.worker_cpu()
        for k in range(1, 9):
            time.sleep(0.5)
            now = cl.worker_cpu()
            print(f"{0.5 * k:4.1f} s after the end: worker CPU in the last 0.5 s "
                  + " ".join(f"{(a - b) / 0.5 * 100:5.1f} %" for a, b in zip(now, before)), flush=True)
            before = now


def _one_search(seed: int, nodes: int, out: list, seconds: float = 0.0) -> None:
    """The default search at the cap of a 463 board for ``nodes`` nodes (or ``seconds``):
    (nodes, thread CPU-s)."""
    import array
    from satiling import catalog
    from satiling.apps.maximize import default_tuning
    from satiling.engines import edgescore
    e2 = catalog.load("eternity2")
    tuning, n, joins = default_tuning(e2), 256, len(e2.joins())
    lay = edgescore.layout(e2, seed=seed, order=tuning.order, priority=tuning.priority,
                           double=tuning.double, rim_breaks=tuning.rim_breaks)
    hist = array.array("q", [0] * 4 * (n + 1))
    start = time.thread_time()
    o = edgescore.search(lay, tuning.held(n, joins - 463), joins - 463, lambda *a: False,
                         node_limit=nodes, seconds=seconds, need=tuning.need(e2), hist=hist)
    out.append((o.nodes, time.thread_time() - start))


def threads(args: argparse.Namespace) -> None:
    """The search in another thread than the main one (where it runs without the GIL between its
    looks) against the main thread: nodes per CPU-s, in turn; then two searches in two threads of
    one process at once: the process's CPU over the wall clock (1 at most if they took turns)."""
    import satiling
    print(f"satiling from {Path(satiling.__file__).parent}")
    if args.pair:
        _pair(args.pair)
        return
    total = {"main": [0, 0.0], "thread": [0, 0.0]}
    for _ in range(args.rounds):
        for seed in (1, 2, 3):
            for where in ("main", "thread"):
                out: list = []
                if where == "main":
                    _one_search(seed, int(args.nodes), out)
                else:
                    t = threading.Thread(target=_one_search, args=(seed, int(args.nodes), out))
                    t.start()
                    t.join()
                total[where][0] += out[0][0]
                total[where][1] += out[0][1]
    rate = {k: v[0] / v[1] for k, v in total.items()}
    print(f"Mnodes per CPU-s: main thread {rate['main'] / 1e6:.2f}, another thread "
          f"{rate['thread'] / 1e6:.2f}, ratio {rate['thread'] / rate['main']:.3f}")
    _pair(10.0)


def _pair(seconds: float) -> None:
    start, cpu0 = time.time(), os.times()
    pair = [threading.Thread(target=_one_search, args=(s, 0, [], seconds)) for s in (1, 2)]
    for t in pair:
        t.start()
    for t in pair:
        t.join()
    cpu1 = os.times()
    print(f"two searches in two threads: process CPU / wall = "
          f"{(cpu1.user - cpu0.user + cpu1.system - cpu0.system) / (time.time() - start):.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    r = sub.add_parser("ratio")
    r.add_argument("--seconds", type=float, default=60)
    r.add_argument("--processes", type=int, default=2)
    r.add_argument("--rounds", type=int, default=2)
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--no-profile", action="store_true",
                   help="start the workers with Dask's sampling profiler off")
    c = sub.add_parser("channels")
    c.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4, 8])
    c.add_argument("--kinds", nargs="+", default=["events", "variable", "queues"])
    c.add_argument("--seconds", type=float, default=10)
    c.add_argument("--rate", type=float, default=20, help="boards per worker per second")
    c.add_argument("--poll", type=float, default=0.1, help="the Variable's polling interval (s)")
    lo = sub.add_parser("load")
    lo.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4, 8])
    lo.add_argument("--seconds", type=float, default=60)
    lo.add_argument("--seed", type=int, default=0)
    i = sub.add_parser("idle")
    i.add_argument("--seconds", type=float, default=20)
    i.add_argument("--processes", type=int, default=2)
    i.add_argument("--seed", type=int, default=0)
    t = sub.add_parser("threads")
    t.add_argument("--nodes", type=float, default=1e8)
    t.add_argument("--rounds", type=int, default=3)
    t.add_argument("--pair", type=float, metavar="SECONDS",
                   help="only the two searches at once, for SECONDS (to run beside another build)")
    args = ap.parse_args()
    {"ratio": ratio, "channels": channels, "load": load, "idle": idle, "threads": threads}[args.what](args)


if __name__ == "__main__":
    main()
