"""Reading and writing the user's files without surprises.

Reading (:func:`read_text`, :func:`iter_lines`): a size cap, so ``/dev/zero`` or a huge file is one
clear error instead of memory running out; ``-`` is stdin.  :func:`loads_json` is ``json.loads``
that refuses what the standard reader lets through or chokes on (``Infinity``/``NaN``, numbers of
thousands of digits, nesting deep enough for a RecursionError), always as a :class:`SatilingError`.

Writing (:func:`write_file`, :class:`output_file`): a regular file (or a new path) is written to a
temporary file beside it and renamed into place, so it appears whole or not at all; a symlink is
followed and its target replaced the same way; a FIFO, a terminal or a device (``/dev/stdout``,
``/dev/null``) is written straight through, never replaced by a regular file; a directory is refused.
Every temporary file is removed on every error path, Ctrl-C included.
"""
from __future__ import annotations

import codecs
import errno
import fcntl
import json
import os
import re
import stat
import sys
import tempfile
from itertools import accumulate
from pathlib import Path
from typing import Any, BinaryIO, Iterator, TextIO

from .errors import SatilingError

#: the default cap on a file read whole (solutions, boards, solver outputs scale it up themselves)
READ_LIMIT = 64 << 20
#: JSON nesting beyond this is refused before the parser recurses
JSON_DEPTH = 64
#: integers in JSON longer than this many digits are refused (no coordinate or count needs more)
JSON_DIGITS = 18


# -- reading ----------------------------------------------------------------------------------------
_CHUNK = 1 << 20


def read_text(path: str, limit: int = READ_LIMIT, what: str = "file", regular: bool = False) -> str:
    """The whole of ``path`` as UTF-8 text, at most ``limit`` bytes.  Binary data (NUL bytes,
    invalid UTF-8) is refused as soon as it is read, so ``/dev/zero`` fails at once.  With
    ``regular`` only a regular file is read (a FIFO or a device is refused without waiting on it),
    as for a file an instance names."""
    with _source(path, what, regular) as f:
        return _read_capped(f, path, limit, what)


def iter_lines(path: str, line_limit: int = READ_LIMIT, what: str = "file") -> Iterator[tuple[int, str]]:
    """(line number, text) of each line of ``path`` (``-``: stdin), read one at a time, each at
    most ``line_limit`` bytes: memory stays bounded however long the file."""
    name = _name(path)
    with _source(path, what) as f:
        n = 0
        while True:
            try:
                line = f.readline(line_limit + 1)
            except OSError as e:
                raise SatilingError(f"{name}: cannot read: {e.strerror or e}") from None
            if not line:
                return
            n += 1
            if len(line) > line_limit:
                raise SatilingError(f"{name}: line {n} is longer than {_size(line_limit)}: not a {what}")
            yield n, _decode(line, name, what, f"line {n}")


def _name(path: str) -> str:
    return "stdin" if path == "-" else path


class _source:
    """A binary stream for ``path`` (stdin for ``-``); SatilingError for what cannot be opened."""

    def __init__(self, path: str, what: str, regular: bool = False) -> None:
        self.path, self.what, self.f, self.regular = path, what, None, regular

    def __enter__(self):
        if self.path == "-" and not self.regular:
            return sys.stdin.buffer
        try:
            if os.path.isdir(self.path):
                raise SatilingError(f"{self.path}: is a directory, not a {self.what}")
            self.f = self._open_regular() if self.regular else open(self.path, "rb")
        except OSError as e:
            raise SatilingError(f"{self.path}: cannot read: {e.strerror or e}") from None
        except ValueError:                        # a NUL in the name
            raise SatilingError(f"{self.path!r}: not a file name") from None
        return self.f

    def _open_regular(self) -> BinaryIO:
        # O_NONBLOCK: opening a FIFO with no writer would otherwise wait for ever
        fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise SatilingError(f"{self.path}: not a regular file: not a {self.what}")
            os.set_blocking(fd, True)
            return os.fdopen(fd, "rb")
        except BaseException:
            os.close(fd)
            raise

    def __exit__(self, *exc) -> None:
        if self.f is not None:
            self.f.close()


def _read_capped(f: BinaryIO, path: str, limit: int, what: str) -> str:
    """Chunks of ``f`` decoded as they come, so binary data is refused at its first block."""
    name, chunks, size = _name(path), [], 0
    decoder = codecs.getincrementaldecoder("utf-8")()
    while True:
        try:
            chunk = f.read(min(_CHUNK, limit + 1 - size))
        except OSError as e:
            raise SatilingError(f"{name}: cannot read: {e.strerror or e}") from None
        if not chunk:
            break
        size += len(chunk)
        if size > limit:
            raise SatilingError(f"{name}: larger than {_size(limit)}: not a {what}")
        chunks.append(_decode(chunk, name, what, f"byte {size - len(chunk)}", decoder))
    return "".join(chunks) + _decode(b"", name, what, "the end", decoder, final=True)


def _decode(data: bytes, name: str, what: str, where: str, decoder=None, final: bool = False) -> str:
    if b"\0" in data:
        raise SatilingError(f"{name}: binary data (NUL bytes at {where}): not a {what}")
    try:
        if decoder is None:
            return data.decode()
        return decoder.decode(data, final)
    except UnicodeDecodeError:
        raise SatilingError(f"{name}: not UTF-8 text (at {where}): not a {what}") from None


def _size(n: int) -> str:
    return f"{n >> 20} MB" if n >= 1 << 20 else f"{n} bytes"


def loads_json(text: str, where: str) -> Any:
    """``json.loads`` for untrusted text: SatilingError naming ``where`` for anything but plain
    JSON with finite numbers, integers of at most :data:`JSON_DIGITS` digits and nesting of at most
    :data:`JSON_DEPTH` levels."""
    if text.count("[") + text.count("{") > JSON_DEPTH and _depth(text) > JSON_DEPTH:
        raise SatilingError(f"{where}: JSON nested deeper than {JSON_DEPTH} levels")
    # each integer is checked only where the text has a run of digits long enough to matter: a
    # solution line has hundreds of small ones, and a Python call each doubled the reading
    small = _small_int if _LONG_DIGITS.search(text) else None
    try:
        return json.loads(text, parse_constant=_no_constant, parse_int=small,
                          parse_float=_finite_float)
    except json.JSONDecodeError as e:
        raise SatilingError(f"{where}: not valid JSON ({e.msg}, column {e.colno})") from None
    except (ValueError, RecursionError) as e:
        raise SatilingError(f"{where}: {e}") from None


def _depth(text: str) -> int:
    """An upper bound on the nesting of ``text`` (brackets inside strings count too)."""
    brackets = _NOT_BRACKETS.sub("", text)
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}         # each bracket's step in depth
#: a run of digits long enough that an integer in it may be too long (see :func:`_small_int`)
_LONG_DIGITS = re.compile(r"\d{%d}" % (JSON_DIGITS + 1))


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number satiling reads")


def _small_int(digits: str) -> int:
    if len(digits.lstrip("-")) > JSON_DIGITS:
        raise ValueError(f"a number of {len(digits)} digits is too long")
    return int(digits)


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"{text[:20]} is not a finite number")
    return value


# -- writing ----------------------------------------------------------------------------------------
def write_file(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (see the module doc for odd files)."""
    with output_file(path) as f:
        f.write(text)


def write_bytes(path: str, data: bytes) -> None:
    """Write ``data`` (a PNG picture) to ``path`` as :func:`write_file` writes text."""
    with output_file(path, binary=True) as f:
        f.write(data)


def hold_for_run(fd: int, path: str) -> None:
    """Take an exclusive ``flock`` on ``fd`` for as long as it stays open, so a second satiling run
    on the same file is refused (one line naming ``path``) rather than writing over the first's;
    the caller closes ``fd`` to let go.  A device without locks has nothing to share."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise SatilingError(f"{_shown(path)}: another satiling run is writing to it") from None
    except OSError:
        pass


def check_writable(path: str) -> None:
    """SatilingError now, before any work, for an output path that cannot be written: a
    directory, a missing folder, a name too long."""
    if path == "-":
        return
    try:
        target = os.path.realpath(path)
        if _kind(target) == "directory":
            raise SatilingError(f"{_shown(path)}: is a directory")
        folder = os.path.dirname(target) or "."
        if not os.path.isdir(folder):
            raise SatilingError(f"{_shown(path)}: cannot write: no folder {_shown(folder)}")
    except (OSError, ValueError) as e:
        raise SatilingError(f"{_shown(path)}: cannot write: {_why(e)}") from None


def check_not_input(path: str, option: str, inputs: list[str]) -> None:
    """SatilingError for an output path that names one of the files the command reads: writing it
    would replace the input (a symlink or another spelling of the same file counts)."""
    if path == "-" or _kind(os.path.realpath(path)) != "regular":
        return                            # a new file, a FIFO or a device replaces nothing
    for source in inputs:
        try:
            same = source != "-" and os.path.samefile(path, source)
        except (OSError, ValueError):
            continue                      # a bundled puzzle's name, a missing file: not this one
        if same:
            raise SatilingError(f"{option} {_shown(path)} names the input file {_shown(source)}: "
                                "choose another name")


def check_picture_name(path: str, kind: str, what: str) -> None:
    """SatilingError for a picture (``kind`` "svg" or "png") whose file name ends in another
    suffix (``--png board.svg`` wrote a PNG every viewer then read as SVG); ``what`` names the
    option or argument.  A name without a suffix is written as given (as ``encode -o`` writes
    any name); stdout ('-'), a device, a FIFO or a folder (``render --all --svg FOLDER``) is no
    name a viewer reads."""
    suffix, wanted = os.path.splitext(os.path.basename(path))[1], "." + kind
    if not suffix or suffix.lower() == wanted or path == "-":
        return
    try:
        named = _kind(os.path.realpath(path)) in ("new", "regular")
    except (OSError, ValueError):         # a name too long, a loop: the write says what is wrong
        named = True
    if named:
        article = "an" if kind == "svg" else "a"
        raise SatilingError(f"{what} {_shown(path)}: {article} {kind.upper()} picture's file name "
                            f"ends in {wanted}, not {_shown(suffix)}")


def write_files(texts: dict[str, str]) -> None:
    """Write several files that belong together (a proof and its formula): on an error, the ones
    already written are removed again, so none is left without the others."""
    done: list[str] = []
    try:
        for path, text in texts.items():
            write_file(path, text)
            done.append(path)
    except BaseException:
        for path in done:
            if _kind(os.path.realpath(path)) == "regular":
                try:
                    os.unlink(path)
                except OSError:
                    pass
        raise


class output_file:
    """A text stream to ``path``: stdout for None or ``-``; a temporary file renamed onto the
    (symlink-resolved) target when the block ends without an error; the file itself for FIFOs and
    devices.  Errors are SatilingErrors naming ``path``; the temporary never outlives the block."""

    def __init__(self, path: str | None, binary: bool = False) -> None:
        self.path = path
        self.mode = "wb" if binary else "w"          # bytes: a picture
        self.tmp: str | None = None
        self.target: str | None = None
        self.f: Any = None

    def __enter__(self) -> Any:
        if self.path is None or self.path == "-":
            return sys.stdout.buffer if self.mode == "wb" else sys.stdout
        try:
            self.target = os.path.realpath(self.path)
            kind = _kind(self.target)
            if kind == "directory":
                raise SatilingError(f"{self.path}: is a directory")
            if kind == "special":                 # FIFO, terminal, device: straight through
                self.f = open(self.target, self.mode)
                return self.f
            target = Path(self.target)
            fd, self.tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name[:40]}.")
            self.f = os.fdopen(fd, self.mode)
            return self.f
        except (OSError, ValueError) as e:        # ValueError: a NUL in the name
            self._discard()
            raise SatilingError(f"{_shown(self.path)}: cannot write: {_why(e)}") from None

    def __exit__(self, exc_type, exc, tb) -> None:
        if self.f is None:                        # stdout
            if exc_type is None:
                _flush_stdout()
            return
        try:
            self.f.close()
            if exc_type is None and self.tmp is not None:
                os.chmod(self.tmp, _mode_for(self.target))
                os.replace(self.tmp, self.target)
                self.tmp = None
        except OSError as e:
            if exc_type is None:
                raise SatilingError(f"{_shown(self.path)}: cannot write: {_why(e)}") from None
        finally:
            self._discard()
        if isinstance(exc, OSError) and not isinstance(exc, SatilingError):
            raise SatilingError(f"{_shown(self.path)}: cannot write: {_why(exc)}") from None

    def _discard(self) -> None:
        if self.f is not None and not self.f.closed:
            try:
                self.f.close()
            except OSError:
                pass
        if self.tmp is not None:
            try:
                os.unlink(self.tmp)
            except OSError:
                pass
            self.tmp = None


def _shown(path: str) -> str:
    """A file name for a one-line message (a name of thousands of characters is cut)."""
    return path if len(path) <= 80 else path[:60] + "..." + path[-10:]


def _why(e: Exception) -> str:
    return (getattr(e, "strerror", None) or str(e)).replace("\n", " ")


def _kind(path: str) -> str:
    """"new", "regular", "directory" or "special" (FIFO, device, socket) for a resolved path."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "new"
    except OSError as e:
        # a symlink loop is no place to create a file: renaming onto it would replace the link
        if e.errno in (errno.ENAMETOOLONG, errno.ELOOP):
            raise
        return "new"                              # let the write report it
    if stat.S_ISDIR(mode):
        return "directory"
    return "regular" if stat.S_ISREG(mode) else "special"


def _mode_for(target: str) -> int:
    """The mode a plain ``open(target, "w")`` would leave: the old file's, else 0666 minus umask."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _flush_stdout() -> None:
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as e:
        raise SatilingError(f"stdout: cannot write: {_why(e)}") from None


# -- solution lines ---------------------------------------------------------------------------------
#: a solution line as satiling writes it: the puzzle's name, its placements' objects, and in a run
#: file the record's number and checksum
_SOLUTION_LINE = re.compile(r'\{"puzzle":("(?:[^"\\]|\\.)*"),"placements":\[(\{.*\})\]'
                            r'(?:,"n":\d+,"sum":"[0-9a-f]{16}")?\}')


class PlacementTexts:
    """Solution lines read by their placements' objects, each distinct object read once (``read``
    turns one parsed object into what the caller wants): a file of a million solutions holds a
    few thousand placements.  Only a line as satiling writes it is cut; for any other, and for a
    line whose pieces ``read`` refuses, :meth:`placements` gives None and the caller reads the
    line whole, with its own messages."""

    def __init__(self, read: Any) -> None:
        self.read = read
        self.known: dict[str, Any] = {}
        self.names: dict[str, Any] = {}

    def placements(self, line: str) -> tuple[str, list[Any]] | None:
        """(the puzzle the line names, what ``read`` made of each placement), or None."""
        m = _SOLUTION_LINE.fullmatch(line.rstrip())
        if m is None:
            return None
        try:
            return self._name(m.group(1)), [self._one(text) for text in _objects(m.group(2))]
        except (SatilingError, KeyError, TypeError, ValueError, AttributeError):
            return None

    def _name(self, text: str) -> str:
        name = self.names.get(text)
        if name is None:
            name = self.names[text] = loads_json(text, "a puzzle's name")
        return name

    def _one(self, text: str) -> Any:
        got = self.known.get(text)
        if got is None:
            data = loads_json(text, "a placement")
            if not isinstance(data, dict):
                raise TypeError(text)
            got = self.known[text] = self.read(data)
        return got


def _objects(text: str) -> list[str]:
    """``{..},{..},{..}`` cut where one object ends and the next begins (a cut inside a string
    leaves a piece that is no JSON object, and the line is read whole)."""
    parts = text.split("},{")
    last = len(parts) - 1
    return [("{" if k else "") + p + ("}" if k < last else "") for k, p in enumerate(parts)]
