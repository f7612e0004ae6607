"""The command line as a user runs it: a real process with a real exit code."""
import shutil
import subprocess
import sys


def run_cli(*args: str, input: str | None = None, cwd=None) -> subprocess.CompletedProcess:
    """Run the installed command line as a user would (a real process, real exit code)."""
    return subprocess.run([sys.executable, "-m", "satiling.cli", *args], capture_output=True,
                          text=True, input=input, cwd=cwd, timeout=600)


def have(binary: str) -> bool:
    return shutil.which(binary) is not None
