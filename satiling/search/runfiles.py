"""The files a long run leaves behind: the solutions file of ``enumerate`` and the checkpoint of
``count``, both read back by ``--resume``.

Both are JSON Lines: a header line naming the run, then one record per line::

    {"satiling":"enumerate","format":1,"puzzle":"pentomino-6x10","raw":true,...,"fingerprint":"..."}
    {"puzzle":"pentomino-6x10","placements":[...],"n":1,"sum":"5c0f2e9a41d7b3c8"}

``n`` numbers the records and ``sum`` chains them: the BLAKE2b hash (8 bytes) of the previous
record's sum (the header's hash for the first) followed by the record as written without its ``n``
and ``sum``.  So a file of another run (other puzzle, options, ``--raw``, symmetry breaking, engine
or format), a file that is not ours at all, a changed record, a record added, removed or moved are
all refused -- before anything is written, and without changing the file.  Cutting records off the
end leaves a shorter run, which a resume simply continues.  A torn last line (a kill in the middle
of a write) is dropped, and only once the rest of the file has been accepted.  Solution records keep
the ``puzzle``/``placements`` keys, so ``satiling verify`` and ``render`` read the file as it is
(they hold its header to :func:`reader_header` and skip the marks of cubes done).

While a run has the file open it holds an exclusive ``flock``: a second run on the same file is
refused instead of writing every solution a second time.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import Option, SatilingError
from ..fileio import PlacementTexts, hold_for_run, loads_json


def solution_json(puzzle: Any, solution: list[Any]) -> str:
    """One solution as the JSON line every run file, ``enumerate`` and ``solve --json`` write."""
    placements = [p.to_json() for p in sorted(solution, key=lambda p: p.sort_key())]
    return json.dumps({"puzzle": puzzle.name, "placements": placements}, separators=(",", ":"))

FORMAT = 1
_RECORD = re.compile(r'(\{.*),"n":(\d+),"sum":"([0-9a-f]{16})"\}')


#: the record of a solutions file saying how many cubes are done (see :meth:`SolutionFile.mark_done`)
DONE_MARK = "cubes done"


def is_header(data: Any) -> bool:
    """Whether a parsed JSON line is the header of a run file (readers of solutions skip it)."""
    return isinstance(data, dict) and "satiling" in data and "placements" not in data


def is_done_mark(data: Any) -> bool:
    """Whether a parsed JSON line is a record of the cubes done (see :meth:`SolutionFile.mark_done`)."""
    return (isinstance(data, dict) and set(data) == {"satiling", "cubes"} and data["satiling"] == DONE_MARK
            and type(data["cubes"]) is int and data["cubes"] >= 0)


def reader_header(puzzle: str) -> dict[str, Any]:
    """The part of an ``enumerate`` header that a reader of its solutions (``verify``, ``render``)
    can hold it to: its kind, format and puzzle.  Not the fingerprint's value: it also covers
    ``--symmetry``, which the header does not name, and the model this version builds, while the
    reader checks every solution against the puzzle's rules itself."""
    return {"satiling": "enumerate", "format": FORMAT, "puzzle": puzzle}


_FINGERPRINT = re.compile(r"[0-9a-f]{16}")


def header_mismatch(found: dict[str, Any], expected: dict[str, Any],
                    also: dict[str, Any] | None = None) -> str | None:
    """Why the header line ``found`` is not of the run ``expected`` describes (a resumed run's whole
    header, or :func:`reader_header`), None when it is; ``also``: values an earlier version wrote
    for the same run, accepted too (see :func:`earlier_header`)."""
    also, kind = also or {}, expected["satiling"]
    if found.get("satiling") != kind:                     # the file of another command
        return f"the file of 'satiling {str(found.get('satiling'))[:20]}', not of 'satiling {kind}'"
    for key, ours in expected.items():
        there = found.get(key)
        if there == ours or (key in also and there == also[key]):
            continue
        if key in ("fingerprint", "format", "cubes"):
            return f"written by another version of satiling or for another model ({key} differs)"
        return (f"not written by this {kind} run ({key} {json.dumps(there)[:60]} in the file, "
                f"{json.dumps(ours)[:60]} here)")
    fingerprint = found.get("fingerprint")
    if not (isinstance(fingerprint, str) and _FINGERPRINT.fullmatch(fingerprint)):
        return "the header holds no fingerprint of a model: not a header satiling writes"
    return None


def run_header(kind: str, run: Any) -> dict[str, Any]:
    """The header of a ``kind`` ("enumerate" or "count") file for a :class:`~.stream.Run`."""
    job, space = run.job, run.space
    header = {"satiling": kind, "format": FORMAT, "puzzle": space.puzzle.name,
              "raw": run.settings.raw, "symmetry_breaking": job.break_symmetry,
              "options": {k: v for k, v in job.options}, "engine": job.engine,
              "fingerprint": job.fingerprint}
    if kind == "count":
        header["cubes"] = len(space.cubes)
    return header


def earlier_header(run: Any) -> dict[str, Any]:
    """The header values an earlier version wrote for the same run: it named the engine ``auto``
    where the router chose it by the model (the exact-cover search or SAT, the same rule as now),
    so such a file still resumes."""
    from .router import settle
    return {"engine": "auto"} if run.job.engine == settle(run.space.problem) else {}


def _chain(previous: str, body: bytes) -> str:
    return hashlib.blake2b(previous.encode() + body, digest_size=8).hexdigest()


class RunFile:
    """A header and checksummed records, appended one unbuffered ``write`` each, under an
    exclusive lock.  ``records`` holds the bodies already in the file (JSON text, without ``n`` and
    ``sum``).  Nothing changes on disk until :meth:`start`."""

    def __init__(self, path: str, header: dict[str, Any], resume: bool,
                 also: dict[str, Any] | None = None) -> None:
        self.path, self.header = path, header
        #: header values that an earlier version wrote for this same run (key -> value)
        self.also = also or {}
        self.header_line = json.dumps(header, separators=(",", ":"))
        self.records: list[str] = []
        self.torn = False
        self._keep: int | None = None            # truncate to this length at start (a torn line)
        self._new = True
        self._last_sum = _chain("", self.header_line.encode())   # the chain starts at the header
        self.fd = self._open(resume)
        try:
            if self._regular:
                self._read(resume)
        except BaseException:
            self.close()
            raise
        self._sum = self._last_sum

    # -- opening and checking -----------------------------------------------------------------
    def _open(self, resume: bool) -> int:
        path = self.path
        try:
            mode = os.stat(path).st_mode
        except FileNotFoundError:
            mode = None
        except OSError as e:
            raise SatilingError(f"{path}: cannot open: {e.strerror}") from None
        if mode is not None and stat.S_ISDIR(mode):
            raise SatilingError(f"{path}: is a directory")
        self._regular = mode is None or stat.S_ISREG(mode)
        if not self._regular and resume:
            raise SatilingError(f"{path}: not a regular file: a run can only be resumed from a file")
        flags = (os.O_RDWR | os.O_CREAT) if self._regular else os.O_WRONLY
        try:
            fd = os.open(path, flags | os.O_APPEND, 0o666)
        except OSError as e:
            raise SatilingError(f"{path}: cannot open: {e.strerror}") from None
        try:
            hold_for_run(fd, path)
        except SatilingError:
            os.close(fd)
            raise
        return fd

    def _read(self, resume: bool) -> None:
        data = _read_all(self.fd, self.path)
        if not data:
            return
        end = data.rfind(b"\n") + 1
        if end == 0 and self.header_line.encode().startswith(data):
            self._keep, self.torn = 0, True       # killed while writing the header
            return
        if not resume:
            raise SatilingError("{path} already holds {what}: continue it with {resume}, or remove it",
                                path=self.path, what=self._what(), resume=Option("resume", self.path))
        if end < len(data):
            self._keep, self.torn = end, True
        lines = data[:end].split(b"\n")[:-1]
        self._check_header(lines[0] if lines else b"")
        self._new = False
        for n, line in enumerate(lines[1:], 2):
            self.records.append(self._check_record(n, line))

    def _what(self) -> str:
        return "solutions" if self.header["satiling"] == "enumerate" else "a count checkpoint"

    def _foreign(self) -> SatilingError:
        kind = self.header["satiling"]
        return SatilingError(f"{self.path}: not a {'solutions file' if kind == 'enumerate' else 'checkpoint'} "
                             f"of 'satiling {kind}' (no header line naming the run); left unchanged")

    def _check_header(self, line: bytes) -> None:
        try:
            found = loads_json(line.decode(), f"{self.path}: line 1")
        except (SatilingError, UnicodeDecodeError):
            raise self._foreign() from None
        if not is_header(found):
            raise self._foreign()
        why = header_mismatch(found, self.header, self.also)
        if why:
            raise SatilingError(f"{self.path}: {why}; left unchanged")
        if any(found.get(key) == old for key, old in self.also.items()):
            self._last_sum = _chain("", line)     # the chain starts at the file's own header
        if len(found) != len(self.header):
            raise SatilingError(f"{self.path}: line 1 is not the header this version writes; left unchanged")

    def _check_record(self, n: int, line: bytes) -> str:
        try:
            text = line.decode()
        except UnicodeDecodeError:
            raise SatilingError(f"{self.path}: line {n} is not text; left unchanged") from None
        m = _RECORD.fullmatch(text)
        if m is None:
            raise SatilingError(f"{self.path}: line {n} is not a record of this run (no checksum); "
                                "left unchanged")
        body, number, checksum = m.group(1) + "}", m.group(2), m.group(3)
        if number != str(n - 1):
            raise SatilingError(f"{self.path}: line {n} is record {number[:20]}: records were removed, "
                                "added or moved; left unchanged")
        expected = _chain(self._last_sum, body.encode())
        if checksum != expected:
            raise SatilingError(f"{self.path}: line {n} was changed (its checksum does not follow "
                                "from the lines before it); left unchanged")
        self._last_sum = expected
        return body

    # -- writing ------------------------------------------------------------------------------
    def start(self) -> None:
        """Make the file ready for appending: cut a torn last line, write the header if new."""
        try:
            if self._keep is not None:
                os.ftruncate(self.fd, self._keep)
            if self._new:
                self._write(self.header_line + "\n")
        except OSError as e:
            raise SatilingError(f"{self.path}: cannot write: {e.strerror}") from None
        self._new = False

    def append(self, body: str) -> None:
        """Append one record (a JSON object as text, one line)."""
        self._sum = _chain(self._sum, body.encode())
        number = len(self.records) + 1
        self.records.append(body)
        self._write(f'{body[:-1]},"n":{number},"sum":"{self._sum}"}}\n')

    def _write(self, line: str) -> None:
        data = line.encode()
        try:
            while data:
                data = data[os.write(self.fd, data):]
        except OSError as e:
            raise SatilingError(f"{self.path}: cannot write: {e.strerror}") from None

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)                     # releases the lock
            self.fd = -1

    def __enter__(self) -> "RunFile":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _read_all(fd: int, path: str) -> bytes:
    chunks, offset = [], 0
    try:
        while chunk := os.pread(fd, 1 << 20, offset):
            chunks.append(chunk)
            offset += len(chunk)
    except OSError as e:
        raise SatilingError(f"{path}: cannot read: {e.strerror}") from None
    return b"".join(chunks)


# -- the solutions file of enumerate --------------------------------------------------------------
class SolutionFile(RunFile):
    """The solutions file: one verified solution per record (``solution_json`` text)."""

    def __init__(self, path: str, run: Any, resume: bool = False) -> None:
        super().__init__(path, run_header("enumerate", run), resume, earlier_header(run))

    def write_line(self, line: str) -> None:
        self.append(line)

    def mark_done(self, cubes: int) -> None:
        """Cubes ``0 .. cubes-1`` are searched and their solutions written: a resume starts after
        them, however long they ran without a solution (readers of solutions skip this record,
        as they skip the header)."""
        self.append(json.dumps({"satiling": DONE_MARK, "cubes": cubes}, separators=(",", ":")))


@dataclass
class ResumePoint:
    """Where a stream left off: the cube to start from, the solutions of that cube already written."""

    cube: int = 0
    skip: set[frozenset[int]] = field(default_factory=set)
    lines: int = 0
    torn: bool = False
    solutions: list[frozenset[int]] = field(default_factory=list)   # every line, in order


def read_resume(space: Any, file: SolutionFile, raw: bool) -> ResumePoint:
    """Check the records of an accepted solutions file against the stream (every one a solution of
    this puzzle, in the stream's order; see :mod:`satiling.search.stream`) and say where to go on."""
    path = file.path
    point = ResumePoint(torn=file.torn)
    reader = _Placements(space)
    classes: list[tuple[tuple[int, ...], int, int]] = []      # (owner, members seen, line) in order
    seen: set[frozenset[int]] = set()
    for n, line in enumerate(file.records, 2):
        done = _done_mark(line, len(space.cubes), f"{path}: line {n}")
        if done is not None:                    # cubes before ``done`` are searched, written
            if done < point.cube or (point.skip and done <= point.cube):
                raise _not_ours(path, n)
            _check_class_complete(space, classes, raw, path)
            classes.clear()
            point.cube = done
            point.skip.clear()
            continue
        sol = reader.vars(line, f"{path}: line {n}")
        owner = space.owner(sol)
        if owner is None:
            raise SatilingError(f"{path}: line {n} is not a solution of {space.puzzle.name} with these options")
        cube, rep = owner
        if sol in seen:
            raise SatilingError(f"{path}: line {n} repeats an earlier solution")
        if cube < point.cube:
            raise _not_ours(path, n)
        if not raw and rep != tuple(sorted(sol)):
            raise _not_ours(path, n)
        if classes and classes[-1][0] == rep:
            classes[-1] = (rep, classes[-1][1] + 1, n)
        else:
            _check_class_complete(space, classes, raw, path)
            classes.append((rep, 1, n))
        if cube > point.cube:
            point.skip.clear()
        point.cube = cube
        point.skip.add(sol)
        seen.add(sol)
        point.solutions.append(sol)
    point.lines = len(point.solutions)
    return point


def _done_mark(line: str, cubes: int, where: str) -> int | None:
    """The number of cubes a done mark says are searched; None for a solution's record."""
    if not line.startswith('{"satiling":'):
        return None
    data = json.loads(line)
    if not is_done_mark(data) or data["cubes"] > cubes:
        raise SatilingError(f"{where} is neither a solution nor a mark of the cubes done")
    return data["cubes"]


def _check_class_complete(space: Any, classes: list, raw: bool, path: str) -> None:
    """In a raw file every class but the last must be there whole."""
    if raw and classes:
        rep, members, line = classes[-1]
        if members != len(space.group.images(rep)):
            raise _not_ours(path, line)


def _not_ours(path: str, n: int) -> SatilingError:
    return SatilingError("{path}: line {n} is out of place: the file was not written by this "
                         "enumeration (same puzzle, {raw} and {symmetry} options)", path=path, n=n,
                         raw=Option("raw"), symmetry=Option("symmetry"))


class _Placements:
    """A file's solution lines as sets of variables: a line as satiling writes it is cut into its
    placements (:class:`~satiling.fileio.PlacementTexts`); any other is read whole."""

    def __init__(self, space: Any) -> None:
        self.space = space
        self.var_of = {space.problem.meanings[v]: v for v in space.problem.primary_vars()}
        self.texts = PlacementTexts(lambda data: self.var_of[space.puzzle.placement_from_json(data)])

    def vars(self, line: str, where: str) -> frozenset[int]:
        cut = self.texts.placements(line)
        if cut is not None:
            return frozenset(cut[1])
        return _solution_vars(self.space, self.var_of, line, where)


def _solution_vars(space: Any, var_of: dict, line: str, where: str) -> frozenset[int]:
    data = loads_json(line, where)
    try:
        placements = [space.puzzle.placement_from_json(p) for p in data["placements"]]
    except (KeyError, TypeError, ValueError):
        raise SatilingError(f"{where} is not a solution in JSON") from None
    try:
        return frozenset(var_of[p] for p in placements)
    except (KeyError, TypeError):
        raise SatilingError(f"{where} is not a solution of {space.puzzle.name}") from None


# -- the checkpoint of count ----------------------------------------------------------------------
@dataclass
class PartCube:
    """A cube a stopped count searched in part: ``count`` solutions found, the rest in the parts
    ``left`` (cubes of problem literals below the cube's own), about ``done`` of it searched."""

    count: int
    left: list[tuple[int, ...]]
    done: float = 0.0


class Checkpoint(RunFile):
    """The count's record of finished cubes (in the order workers finish them), and of the cube a
    stop found in progress: ``{"cube": i, "count": n}`` for a finished cube; ``{"cube": i, "count":
    n, "left": [[lits], ...], "done": x}`` for one searched in part (the last such record of a cube
    counts, until the cube is finished)."""

    def __init__(self, path: str, run: Any) -> None:
        super().__init__(path, run_header("count", run), resume=True, also=earlier_header(run))
        try:
            self.done, self.partial = self._finished_cubes()
            self.start()
        except BaseException:
            self.close()
            raise

    def _finished_cubes(self) -> tuple[dict[int, int], dict[int, PartCube]]:
        path, done, partial = self.path, {}, {}
        cubes = self.header["cubes"]
        for n, body in enumerate(self.records, 2):
            record = loads_json(body, f"{path}: line {n}")
            cube, count = (record.get("cube"), record.get("count")) if isinstance(record, dict) else (None, None)
            if type(cube) is not int or type(count) is not int or not 0 <= cube < cubes or count < 0:
                raise SatilingError(f"{path}: line {n} is not a finished cube; left unchanged")
            if cube in done:
                raise SatilingError(f"{path}: line {n} records cube {cube} a second time; left unchanged")
            if "left" in record:
                partial[cube] = _part_cube(record, f"{path}: line {n}")
            else:
                done[cube] = count
                partial.pop(cube, None)
        return done, partial

    def add(self, cube: int, count: int) -> None:
        self.append(json.dumps({"cube": cube, "count": count}, separators=(",", ":")))

    def add_part(self, cube: int, part: PartCube) -> None:
        """Record where a stop found cube ``cube`` (a resumed count searches only what is left)."""
        self.append(json.dumps({"cube": cube, "count": part.count, "left": [list(c) for c in part.left],
                                "done": round(part.done, 6)}, separators=(",", ":")))


def _part_cube(record: dict, where: str) -> PartCube:
    left, done = record.get("left"), record.get("done", 0.0)
    ok = (isinstance(left, list) and all(isinstance(c, list) and all(type(x) is int and x != 0 for x in c)
                                        for c in left)
          and isinstance(done, (int, float)) and 0 <= done <= 1 and len(record) == 4)
    if not ok:
        raise SatilingError(f"{where} is not a cube searched in part; left unchanged")
    return PartCube(record["count"], [tuple(c) for c in left], float(done))


# -- a stopped count's own checkpoint ---------------------------------------------------------------
def cache_folder() -> Path | None:
    """Where a stopped count keeps its work when no ``--resume`` file was named: the user's cache
    folder (``$XDG_CACHE_HOME/satiling``, else ``~/.cache/satiling``), so that a count started in
    any folder, a read-only one too, leaves nothing behind there; None without a home."""
    base = os.environ.get("XDG_CACHE_HOME")
    try:
        root = Path(base) if base else Path.home() / ".cache"
    except (RuntimeError, KeyError):
        return None
    return root / "satiling"


def keep_stopped(run: Any, finished: dict[int, int], part: tuple[int, PartCube] | None) -> str | None:
    """Write a stopped count's finished cubes (and the one in progress, ``(cube, part)``) to a
    checkpoint of its own, named after the run's header (the same run stopped twice adds to one
    file), in :func:`cache_folder` or else the current folder; its path, or None if neither
    could be written."""
    # named as an earlier version named the same run's file (its engine "auto"), so a count it
    # stopped and this one stops again add to one file
    header = {**run_header("count", run), **earlier_header(run)}
    digest = hashlib.blake2b(json.dumps(header, sort_keys=True).encode(), digest_size=6).hexdigest()
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", str(header["puzzle"]))[:60]
    for folder in (cache_folder(), Path.cwd()):
        if folder is None:
            continue
        path = folder / f"count-{stem}-{digest}.jsonl"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with Checkpoint(str(path), run) as record:
                for cube, count in sorted(finished.items()):
                    if cube not in record.done:
                        record.add(cube, count)
                if part is not None and part[0] not in record.done:
                    record.add_part(*part)
            return str(path)
        except (SatilingError, OSError):
            continue
    return None
