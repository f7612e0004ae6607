"""Run the test suite several times beside a CPU load, and say which runs passed and which tests
failed: a test that depends on timing (a time limit that a fast run beats, a wait that a loaded
machine overruns) shows up here rather than on a developer's busy machine or in CI.

    python tools/load_suite.py                     # 5 runs, 2 busy processes per core
    python tools/load_suite.py --runs 2 --per-core 1 -- tests/test_api.py -x

The load is plain busy loops, one Python process each (no stress tool needed), started before the
first run and ended after the last.  Arguments after ``--`` go to pytest (the project's own
options, ``-n auto`` included, still apply).  Exit 0 when every run passed.
"""
from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUSY = "while True: pass"


def start_load(per_core: int) -> list[subprocess.Popen]:
    """``per_core`` busy loops for every core this process may run on."""
    cores = len(os.sched_getaffinity(0))
    return [subprocess.Popen([sys.executable, "-c", BUSY], stdin=subprocess.DEVNULL)
            for _ in range(per_core * cores)]


def stop_load(busy: list[subprocess.Popen]) -> None:
    for proc in busy:
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
    for proc in busy:
        proc.wait()


def failures(report: Path) -> tuple[list[str], dict[str, int]]:
    """The ids of the failed and errored tests in a JUnit XML report, and its totals."""
    if not report.exists():
        return ["(no report: pytest ended before writing one)"], {}
    root = ET.parse(report).getroot()
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    totals = {k: sum(int(s.get(k, 0)) for s in suites) for k in ("tests", "failures", "errors", "skipped")}
    failed = []
    for case in root.iter("testcase"):
        problem = case.find("failure")
        problem = case.find("error") if problem is None else problem
        if problem is not None:
            why = (problem.get("message") or "").strip().splitlines()[:1]
            failed.append(f"{test_id(case.get('classname', ''), case.get('name', ''))}: "
                          f"{why[0][:160] if why else '(no message)'}")
    return failed, totals


def test_id(classname: str, name: str) -> str:
    """pytest's id of a test from JUnit's dotted class name (``tests.cli.test_x.TestY``)."""
    parts = classname.split(".")
    for k in range(len(parts), 0, -1):
        path = "/".join(parts[:k]) + ".py"
        if (ROOT / path).is_file():
            return "::".join([path, *parts[k:], name])
    return f"{classname}::{name}"


def one_run(python: str, pytest_args: list[str], folder: Path, n: int) -> tuple[bool, list[str], str]:
    report = folder / f"run{n}.xml"
    began = time.monotonic()
    suite = subprocess.Popen([python, "-m", "pytest", "-p", "no:cacheprovider", f"--junitxml={report}",
                              *pytest_args], cwd=ROOT, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        code = suite.wait()
    finally:                              # stopped early: the suite's workers go with it
        if suite.poll() is None:
            os.killpg(suite.pid, signal.SIGKILL)
            suite.wait()
    failed, totals = failures(report)
    summary = (f"{totals.get('tests', 0)} tests, {totals.get('failures', 0)} failed, "
               f"{totals.get('errors', 0)} errors, {totals.get('skipped', 0)} skipped; exit {code}; "
               f"{time.monotonic() - began:.0f} s; load average {os.getloadavg()[0]:.1f}")
    return code == 0, failed, summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="how many runs of the suite (default 5)")
    parser.add_argument("--per-core", type=int, default=2,
                        help="busy processes per core beside the suite (default 2; 0: no load)")
    parser.add_argument("--python", default=str(ROOT / ".venv" / "bin" / "python"),
                        help="the interpreter with the test tools (default .venv/bin/python)")
    args, rest = parser.parse_known_args()
    # SIGTERM (and SIGINT, which a background job ignores) end the runs and the load cleanly
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(143))
    pytest_args = rest[1:] if rest[:1] == ["--"] else rest
    green = 0
    busy = start_load(args.per_core)
    print(f"load: {len(busy)} busy processes beside the suite", flush=True)
    try:
        with tempfile.TemporaryDirectory(prefix="load-suite-") as tmp:
            for n in range(1, args.runs + 1):
                ok, failed, summary = one_run(args.python, pytest_args, Path(tmp), n)
                green += ok
                print(f"run {n}/{args.runs}: {'passed' if ok else 'FAILED'} ({summary})", flush=True)
                for test in failed:
                    print(f"    failed: {test}", flush=True)
    finally:
        stop_load(busy)
    print(f"{green} of {args.runs} runs passed beside {args.per_core} busy processes per core")
    return 0 if green == args.runs else 1


if __name__ == "__main__":
    sys.exit(main())
