"""The ``satiling`` command: parse, run the command, map errors to exit codes.

Exit codes: 0 solved / found, 1 no solution (as grep finding nothing), 2 error (one line on stderr),
3 time limit reached without an answer, 130 / 143 interrupted.  Data goes to stdout, progress and
messages to stderr.
"""
from __future__ import annotations

import argparse
import os
import sys
from contextlib import ExitStack, contextmanager
from typing import Any, Iterator, TextIO

from ..children import quiet_resource_tracker
from ..errors import SatilingError
from ..fileio import check_not_input, check_picture_name, check_writable
from ..commands.common import (EXIT_ERROR, EXIT_FOUND)
from ..signals import exit_code, interrupt_cause, interrupts, leave
from .parser import maximize_flag, parser as command_parser, said


#: options that name a file to write
OUTPUT_OPTIONS = ("svg", "output", "proof", "out", "best", "png")


def main(argv: list[str] | None = None) -> int:
    if argv is None:                      # the program itself, which leaves by os._exit
        quiet_resource_tracker()
    with sturdy_stderr():
        code = _guarded(argv)
    if argv is None:
        # the program itself: what it found is printed and every file it wrote is closed, so it
        # leaves at once.  The interpreter's teardown would put a pause between the answer
        # and the exit (freeing the model, unloading OR-Tools), and a signal landing there, once
        # Python has put back the default handlers, would kill it without its exit code.
        leave(code)
    return code


def _guarded(argv: list[str] | None) -> int:
    # SIGINT and SIGTERM raise Interrupt: exit 130 / 143; when this is the program itself (argv
    # None), a signal after the work (while the interpreter shuts down) exits 130 / 143 at once
    try:
        with interrupts(final=argv is None) as received:
            try:
                return _main(argv)
            except Exception as e:        # an error a signal caused (a module's import cut short)
                cause = interrupt_cause(e, received[-1] if received else 0)
                if cause is None:
                    raise
                raise cause from None
    except KeyboardInterrupt as e:        # outside the command (reading the options, leaving)
        return _stopped(e, argv)


def _main(argv: list[str] | None) -> int:
    parser = command_parser()
    try:
        args = parser.parse_args(maximize_flag(list(sys.argv[1:] if argv is None else argv)))
    except SystemExit as e:               # --help, --version (0) or a bad argument (2, one line)
        return int(e.code or 0)
    args.argv = list(sys.argv[1:] if argv is None else argv)     # to say how to continue a run
    try:
        check_outputs(args)               # refused before any work is done
        code = int(args.run(args) or 0)
        sys.stdout.flush()                # a full disk on stdout is an error, not a lost answer
        for text in getattr(args, "notes", ()):
            print(f"satiling: note: {text}", file=sys.stderr)
        return code
    except SatilingError as e:            # an option it names, by its flag
        print(f"satiling: error: {said(e)}", file=sys.stderr)
        return EXIT_ERROR
    except OSError as e:                  # stdout on a full disk or a vanished device
        if isinstance(e, BrokenPipeError):
            _silence_stdout()
            return EXIT_FOUND
        _silence_stdout()
        print(f"satiling: error: cannot write: {e.strerror or e}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt as e:        # what was found is printed already
        return _stopped(e, argv)


def _stopped(e: KeyboardInterrupt, argv: list[str] | None) -> int:
    """Say that a signal stopped the command; the program itself then leaves at once, before
    the frames the exception holds (the model, the search) are freed: tens of milliseconds."""
    code = exit_code(e)
    print("satiling: interrupted" if code == 130 else "satiling: terminated", file=sys.stderr)
    if argv is None:
        leave(code)
    return code


def check_outputs(args: argparse.Namespace) -> None:
    """Every file a command will write can be written, and none of them is a file it reads; at
    most one picture is written to stdout ('-'), and then it is the command's only data there."""
    pictures = [f"--{o} -" for o in ("svg", "png") if getattr(args, o, None) == "-"]
    if len(pictures) > 1:
        raise SatilingError(f"{' and '.join(pictures)} would both write to stdout: give one of "
                            "them a file name")
    if pictures and getattr(args, "json", False):
        raise SatilingError(f"--json and {pictures[0]} would both write to stdout: give "
                            f"{pictures[0].split()[0]} a file name")
    inputs = [getattr(args, dest) for dest in getattr(args, "inputs", ())]
    for option in OUTPUT_OPTIONS:
        path = getattr(args, option, None)
        if path and option not in getattr(args, "inputs", ()):
            if option == "svg" and getattr(args, "all", False) and path.endswith("/"):
                continue                  # render --all --svg FOLDER/: made when written
            if not (option == "svg" and getattr(args, "all", False) and os.path.isdir(path)):
                check_writable(path)
            check_not_input(path, f"--{option}", [p for p in inputs if isinstance(p, str)])
            if option in ("svg", "png"):
                check_picture_name(path, option, f"--{option}")


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so the final flush at exit cannot fail a second time (the reader
    went away, as in ``satiling enumerate ... | head``, or the disk is full)."""
    _silence(sys.stdout)


def _silence(stream: Any) -> None:
    """Point the file descriptor under ``stream`` at /dev/null (what is buffered goes there)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, stream.fileno())
        finally:
            os.close(null)
    except (OSError, ValueError, AttributeError):      # no descriptor (a test's capture)
        pass


class _SturdyStream:
    """A text stream whose failures are dropped: stderr carries only progress and messages, so a
    full disk or a closed pipe there must not change the answer on stdout or the exit code."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except (OSError, ValueError):                  # ValueError: the stream was closed
            self._give_up()
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except (OSError, ValueError):
            self._give_up()

    def _give_up(self) -> None:
        # later writes then succeed into /dev/null, and so does the interpreter's own flush at
        # exit (which would otherwise turn the exit code into 120)
        _silence(self._stream)

    def __getattr__(self, name: str) -> Any:           # fileno, isatty, encoding, ...
        return getattr(self._stream, name)


@contextmanager
def sturdy_stderr() -> Iterator[None]:
    """``sys.stderr`` as a :class:`_SturdyStream` for one command, put back afterwards.  A closed
    stderr (``2>&-``: Python's is None, and ``print(file=None)`` would write to stdout) becomes
    /dev/null."""
    original = sys.stderr
    with ExitStack() as stack:
        target = original if original is not None else stack.enter_context(open(os.devnull, "w"))
        sys.stderr = _SturdyStream(target)
        try:
            yield
        finally:
            sys.stderr = original
