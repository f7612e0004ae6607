"""The README runs top to bottom: every command in its ```sh blocks, in order, in one fresh directory
(under pytest-xdist, ``--dist loadscope`` keeps the module on one worker).

The README is read when the test runs, so a line added to it is tested at once.  Each line runs in
bash with this environment's ``satiling`` first on the PATH.  What a line promises in its comment is
checked: ``exit N`` is the exit code (else 0); a leading number (``# 2339 (distinct ...)``) is the
first line of stdout; a quoted phrase (``# "no solution"``) appears on stdout.  No line may print a
traceback.

Lines that run for minutes get SIGTERM after a few seconds (``BUDGET``) and must then stop as the
interrupt contract says (exit 143, no traceback).  A short, explicit list is not run (``SKIP``), and
lines calling an outside program run only when it is installed (``NEEDS``).
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"

#: lines containing the key are not run, for the reason given
SKIP = {
    "make ": "installs the package and runs the whole test suite (this test is part of it)",
    "--dask": "needs a Dask scheduler and workers; the README says how to start them",
}
#: lines starting with the key run only when that program is on the PATH
NEEDS = {"cadical ": "cadical"}
#: lines starting with the key (simple commands) take minutes: stopped by SIGTERM after this many
#: seconds
BUDGET = {
    "satiling info eternity": 1.0,
    "satiling encode eternity >": 1.0,
    "satiling solve eternity2 --maximize-matches --time-limit 60": 1.5,   # keeps its best board
}
#: lines starting with the key are stopped (as BUDGET says) only once this file is in the folder:
#: the lines after them read it, and a loaded machine may take longer than the budget to write it
UNTIL = {"satiling solve eternity2 --maximize-matches --time-limit 60": "eternity2-best.json"}
#: any other line must finish within this many seconds
LIMIT = 120.0


def readme_commands() -> list[str]:
    """The command lines of every ```sh block, in order (comment-only lines left out)."""
    lines, inside = [], False
    for line in README.read_text().splitlines():
        if line.startswith("```"):
            inside = line.strip() == "```sh"
            continue
        if inside and line.strip() and not line.lstrip().startswith("#"):
            lines.append(line.strip())
    return lines


def split_comment(line: str) -> tuple[str, str]:
    """('satiling count x', '2339 (distinct ...)') from 'satiling count x   # 2339 (distinct ...)'."""
    m = re.search(r"\s#\s", line)
    return (line[:m.start()].strip(), line[m.end():].strip()) if m else (line, "")


def expectations(comment: str) -> tuple[int, str | None, str | None]:
    """(exit code, exact first stdout line, phrase on stdout) promised by a comment."""
    code = re.search(r"\bexit (\d+)\b", comment)
    first = re.match(r"(\d+)\b", comment)
    phrase = re.search(r'"([^"]+)"', comment)
    return (int(code.group(1)) if code else 0, first.group(1) if first else None,
            phrase.group(1) if phrase else None)


def why_not_run(command: str) -> str | None:
    for key, why in SKIP.items():
        if key in command:
            return why
    for key, program in NEEDS.items():
        if command.startswith(key) and shutil.which(program) is None:
            return f"{program} is not installed"
    return None


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("readme")


def run(command: str, cwd: Path) -> tuple[int, str, str, bool]:
    """(exit code, stdout, stderr, stopped by the budget) of one README line."""
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    budget = next((s for key, s in BUDGET.items() if command.startswith(key)), None)
    if budget is not None:
        command = "exec " + command           # the signal goes to satiling, not to bash
    p = subprocess.Popen(["bash", "-c", command], cwd=cwd, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    until = next((cwd / name for key, name in UNTIL.items() if command.startswith("exec " + key)), None)
    try:
        out, err = p.communicate(timeout=budget or LIMIT)
        return p.returncode, out, err, False
    except subprocess.TimeoutExpired:
        if until is not None:
            _wait_for(p, until)
        if p.poll() is not None:
            out, err = p.communicate()
            return p.returncode, out, err, False
        os.killpg(p.pid, signal.SIGTERM)
        try:
            out, err = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, err = p.communicate()
            return -9, out, err, True
        if budget is None:
            pytest.fail(f"{command!r} ran past {LIMIT} s")
        return p.returncode, out, err, True


def _wait_for(p: subprocess.Popen, path: Path) -> None:
    """Until ``path`` exists (or ``p`` ended, or LIMIT passed): what the budget waits for."""
    deadline = time.monotonic() + LIMIT
    while not path.exists() and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)


def test_readme_has_commands():
    commands = readme_commands()
    assert len(commands) > 20 and all(c.split()[0] in ("satiling", "make", "cadical", "source") for c in commands)


@pytest.mark.parametrize("line", readme_commands())
def test_readme_line(line: str, workdir: Path):
    command, comment = split_comment(line)
    why = why_not_run(command)
    if why:
        pytest.skip(why)
    code, out, err, stopped = run(command, workdir)
    assert "Traceback" not in err, err[-2000:]
    if stopped:                                  # a long line, stopped: the interrupt contract
        assert code == 143, (command, code, err[-500:])
        return
    want_code, first, phrase = expectations(comment)
    assert code == want_code, (command, code, err[-1000:])
    if first is not None:
        assert out.splitlines()[:1] == [first], (command, out[:300])
    if phrase is not None:
        assert phrase in out, (command, phrase, out[-500:])
