"""The command line as a user runs it: a real process with a real exit code.

Each command is a process of its own, forked from a server that imported satiling and its solvers
once (multiprocessing's forkserver, one per test worker).  The child takes the caller's folder,
environment and standard streams and runs ``satiling``'s ``main`` as the installed script does, to
its ``os._exit``: what a fresh ``satiling`` does, less the interpreter's start and the imports
(some 0.2 s of CPU a command).  The README's lines and the signal tests still start the real
script.
"""
from __future__ import annotations

import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: imported once by the server, before it forks a command: what most commands import (each
#: command forked without them spent some 60 ms of CPU importing them again)
PRELOAD = ["satiling.cli.main", "satiling.search.solve", "satiling.run.tasks", "numpy",
           "pysat.solvers", "pysat.card", "ortools.sat.python.cp_model",
           "satiling.search.stream", "satiling.search.cubes", "satiling.search.workers",
           "satiling.search.searchers", "satiling.engines.exactcover", "satiling.engines.edgematch",
           "satiling.families.edgematch.puzzle", "satiling.families.iqlink.puzzle",
           "satiling.families.polyform.parity", "satiling.families.polyform.coverage",
           "satiling.render.pictures", "satiling.backends.cnf", "satiling.backends.formats",
           "satiling.commands.edgematch", "satiling.commands.iqlink", "satiling.commands.pack",
           "satiling.commands.show", "satiling.commands.check_proof", "tqdm"]


_CONTEXT = multiprocessing.get_context("forkserver")
_CONTEXT.set_forkserver_preload(PRELOAD)       # read when the server starts, at the first command


def _command(argv: list[str], cwd: str, env: dict[str, str], folder: str) -> None:
    """In the forked child: the caller's folder, environment and streams, then the command."""
    multiprocessing.set_start_method(None, force=True)     # the platform's default, as in satiling
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    for fd, name, flags in ((0, "in", os.O_RDONLY), (1, "out", os.O_WRONLY), (2, "err", os.O_WRONLY)):
        os.dup2(os.open(os.path.join(folder, name), flags), fd)
    sys.stdin = sys.__stdin__ = open(0, encoding="utf-8", closefd=False)
    sys.stdout = sys.__stdout__ = open(1, "w", encoding="utf-8", closefd=False)
    sys.stderr = sys.__stderr__ = open(2, "w", encoding="utf-8", errors="backslashreplace",
                                       closefd=False)
    sys.argv = ["satiling", *argv]
    code = 1
    try:
        from satiling.cli.main import main
        code = main()                     # leaves by os._exit once its answer is out
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code if isinstance(code, int) else 1)


def run_cli(*args: str, input: str | None = None, cwd=None,
            timeout: float = 600) -> subprocess.CompletedProcess:
    """Run the command line as a user would (a process of its own, its real exit code)."""
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "in").write_text(input or "", encoding="utf-8")
        Path(folder, "out").touch()
        Path(folder, "err").touch()
        p = _CONTEXT.Process(target=_command,        # not daemonic: it may start processes
                               args=(list(args), str(cwd or os.getcwd()), dict(os.environ), folder))
        p.start()
        p.join(timeout)
        if p.exitcode is None:
            p.kill()
            p.join()
            raise subprocess.TimeoutExpired(["satiling", *args], timeout)
        out = Path(folder, "out").read_text(encoding="utf-8")
        err = Path(folder, "err").read_text(encoding="utf-8", errors="replace")
    return subprocess.CompletedProcess(["satiling", *args], p.exitcode, out, err)


def have(binary: str) -> bool:
    return shutil.which(binary) is not None
