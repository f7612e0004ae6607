"""What a client asks of a run, checked in one place.

The command line builds a :class:`Request` from its options, the library from its keyword
arguments, the web app from a form: every value is checked here, with the same bounds and the
same words, so a bad argument is one :class:`~satiling.errors.SatilingError` whoever asked.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Mapping

from ..errors import Option, SatilingError
from ..families.base import Puzzle
from ..options import not_for
from ..limits import (check_dask_address, check_node_limit, check_one_place, check_seconds,
                      check_workers)
from ..engines import table as engines

TASKS = engines.ALL


@dataclass(frozen=True)
class Request:
    """One run of ``puzzle``: ``task`` (solve, count, enumerate, maximise) by ``engine``
    (:mod:`.engines`; ``solver`` names the SAT/MIP solver where the engine takes one), with the
    family's model ``options`` and the limits."""

    puzzle: Puzzle
    task: str = "solve"
    engine: str = "auto"
    solver: str = "auto"
    options: Mapping[str, Any] = field(default_factory=dict)
    raw: bool = False
    symmetry: str | None = None          # full, rotations, none (None: full, or none when raw)
    symmetry_breaking: bool = True
    workers: int | None = None           # processes sharing the search
    dask: str | None = None              # a Dask scheduler's address instead of local workers
    threads: int | None = None           # CP-SAT's search threads
    time_limit: float | None = None      # seconds; None: no limit
    node_limit: int | None = None        # solve: nodes of the search (a solver's conflicts); None: no limit
    limit: int | None = None             # enumerate: stop after this many solutions
    seed: int | None = None
    proof: str | None = None             # where a DRAT proof of "no (more) solution" is written
    resume: str | None = None            # a run file to continue (count, enumerate)
    out: str | None = None               # enumerate: the solutions file written as they come
    source: str | None = None            # the name or path worker processes rebuild the puzzle from
    extra: Mapping[str, Any] = field(default_factory=dict)   # a task's own settings (fill_order, ...)

    @property
    def sat_solver(self) -> str:
        """The SAT solver of a count, an enumeration or a proof: ``solver``, the default for auto."""
        return engines.DEFAULT_SAT_ALIAS if self.solver == "auto" else self.solver

    def __post_init__(self) -> None:
        if not isinstance(self.puzzle, Puzzle):
            raise SatilingError(f"a run takes a puzzle (satiling.load, satiling.Polyform, ...), not "
                                f"{type(self.puzzle).__name__}")
        if self.task not in TASKS:
            raise SatilingError(f"unknown task {self.task!r} (choose from {', '.join(TASKS)})")
        engines.check(self.task, self.engine)
        _check_solver(self.task, self.solver)
        _check_solver_engine(self)
        object.__setattr__(self, "options", checked_options(self.puzzle, self.options))
        for name in ("raw", "symmetry_breaking"):
            if not isinstance(getattr(self, name), bool):
                raise SatilingError(f"{name} is True or False, not {getattr(self, name)!r}")
        _check_symmetry(self.raw, self.symmetry)
        object.__setattr__(self, "time_limit", check_seconds(self.time_limit))
        check_workers(self.workers)
        check_workers(self.threads, "threads")
        check_dask_address(self.dask)
        check_one_place(self.workers, self.dask)
        _check_node_limit(self)
        for name in ("limit", "seed"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise SatilingError(f"{name} is a whole number, not {value!r}")
        if self.proof and (self.resume or self.limit is not None):
            raise SatilingError("a proof needs every solution of one run: drop the proof, or "
                                + ("resume" if self.resume else "the limit"))
        if self.resume and self.out and _resolved(self.out) != _resolved(self.resume):
            raise SatilingError("{out} and {resume} name different files (a resumed enumeration "
                                "writes to the file it resumes)", out=Option("out"), resume=Option("resume"))
        if self.limit is not None and self.limit < 1:
            raise SatilingError("limit must be at least 1")
        for name in ("proof", "resume", "out", "source"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, str) or "\0" in value or not value):
                raise SatilingError(f"{name} is a file name, not {str(value)[:60]!r}")

    @property
    def counting(self) -> bool:
        return self.task in ("count", "enumerate")


def _check_node_limit(req: "Request") -> None:
    """A node limit: a whole number of nodes, for a solve on one process by an engine that counts
    them (the table's ``unit``)."""
    if check_node_limit(req.node_limit) is None:
        return
    if req.task != "solve":
        raise SatilingError(f"a node limit stops a solve; {req.task} stops by a time limit")
    if (req.workers or 1) > 1 or req.dask:
        raise SatilingError("a node limit counts one search: drop {workers} / {dask}",
                            workers=Option("workers"), dask=Option("dask"))
    if (req.threads or 1) > 1:
        raise SatilingError("a node limit counts one search: CP-SAT runs on one thread under it "
                            "(the same work on every machine); drop {threads}", threads=Option("threads"))
    if req.proof:
        raise SatilingError("a proof of no solution needs the whole search: drop the node limit")
    if req.engine != engines.AUTO and engines.row(req.engine).unit is None:
        raise SatilingError(f"the {req.engine} engine takes no node limit")


def _check_solver(task: str, solver: Any) -> None:
    from ..search.solve import enumeration_solver, solver_name
    if task == "solve":
        if solver not in engines.solver_spellings():
            solver_name(solver)
    elif task in ("count", "enumerate") and solver != "auto":
        enumeration_solver(solver)


def _check_solver_engine(req: "Request") -> None:
    """A count's or an enumeration's solver is for the SAT engine, or for the proof: an engine
    named that takes none, with no proof to write, would leave it unused."""
    if req.task in ("count", "enumerate") and req.solver != "auto" and not req.proof \
            and req.engine not in ("auto", "sat", req.solver):
        raise SatilingError(f"the {req.engine} engine takes no solver (got {req.solver}): drop it, "
                            "or choose the sat engine")


def _check_symmetry(raw: bool, symmetry: Any) -> None:
    from ..search.stream import symmetry_choice
    symmetry_choice(raw, symmetry)          # an unknown group, or raw with a group, refused


def checked_options(puzzle: Puzzle, options: Any) -> dict[str, Any]:
    """The model options, each known to the puzzle's family and of its kind (a flag is a bool, an
    ``int`` option a whole number, a ``str`` option one of its choices); unset ones dropped (None,
    a flag's False; an unset option of another family too, but never a name no family knows: a
    misspelling), and together as the puzzle takes them (``Puzzle.check_options``)."""
    from ..registry import families, family
    if not isinstance(options, Mapping):
        raise SatilingError(f"model options are keyword arguments, not {type(options).__name__}")
    known = {opt.key: opt for opt in family(puzzle.family).options}
    out: dict[str, Any] = {}
    for key, value in options.items():
        opt = known.get(key)
        if opt is None:
            anywhere = any(o.key == key for f in families().values() for o in f.options)
            if anywhere and (value is None or value is False):
                continue
            raise not_for(puzzle.family, key, known)
        if value is None or (value is False and opt.kind == "flag"):       # unset
            continue
        if opt.kind == "flag" and value is not True:
            raise SatilingError(f"option {key!r} is True or False, not {value!r}")
        if opt.kind == "int" and (isinstance(value, bool) or not isinstance(value, int)):
            raise SatilingError(f"option {key!r} is a whole number, not {value!r}")
        if opt.kind == "str" and (not isinstance(value, str) or (opt.choices and value not in opt.choices)):
            raise SatilingError(f"option {key!r} is one of {', '.join(opt.choices)}, not {value!r}")
        out[key] = value
    puzzle.check_options(**out)
    return out


def _resolved(path: str) -> str:
    return os.path.realpath(path)
