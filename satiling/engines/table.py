"""Every engine a run can name, in one table: its name, what it is, and for each task it runs the
function (or searcher) that runs it, named ``module:attribute``.

The run (:mod:`satiling.run.engines`) chooses among the rows; :func:`function` finds what a row
names for a task, so adding an engine is one row and nothing else branches on an engine's name.
The command line's ``--engine`` choices and help, the library's checks and the lower layers'
guards are read from here.  The functions are named, not imported, so that this table sits below
the layers that hold them and each is imported only when a run uses it.

What a task's entry is:

* ``solve``: ``f(job) -> Found`` (:mod:`satiling.search.solvejob`);
* ``count`` and ``enumerate``: a searcher (:mod:`satiling.search.searchers`): how the count
  pipeline splits the search into cubes and runs one;
* ``maximise``: ``f(job) -> MaxResult`` (:mod:`satiling.apps.maximize`).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from ..errors import Option, SatilingError


@dataclass(frozen=True)
class Engine:
    """One engine: its name, what it is, and for each task it runs what runs it; the rest says
    which requests it can run (:meth:`can_run`, as networkx's backends say which calls they
    take)."""

    name: str
    help: str
    runs: dict[str, str] = field(default_factory=dict)     # task -> "module:attribute"
    #: what a node limit counts for its solve (None: it takes none)
    unit: str | None = None
    #: what runs its maximise on a Dask cluster, ``module:attribute`` (None: it runs here only)
    dask: str | None = None
    #: the settings of :data:`CHECKED` it uses, by task (given to an engine that does not, a
    #: setting would be left unused, so the run refuses it)
    uses: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: the tasks for which it needs a time limit (it shares the limit out)
    timed: tuple[str, ...] = ()
    #: it writes a proof of "no solution" (through its solver)
    proves: bool = True
    #: its maximise continues from a start board (``--start``), hunting only better boards
    continues: bool = False
    #: ``--solver NAME`` once named this engine (still read, with a note naming ``--engine``)
    solver_spelling: bool = False
    #: the puzzle families whose models it takes (empty: every family's); the web page offers it
    #: for those alone, and a run still checks the model itself (:meth:`can_run` and below)
    families: tuple[str, ...] = ()

    @property
    def tasks(self) -> tuple[str, ...]:
        return tuple(self.runs)

    def can_run(self, request: Any) -> SatilingError | None:
        """None if this engine can run ``request``, else why not: the error the run raises."""
        task = request.task
        if task not in self.runs:
            return SatilingError(f"the {self.name} engine does not {task} (choose from "
                                 f"{', '.join(names(task)[1:])})")
        if request.proof and not self.proves:
            return SatilingError("the {engine} engine writes no proof: drop {proof} or choose "
                                 "another engine", engine=self.name, proof=Option("proof"))
        if request.node_limit is not None and self.unit is None:
            return SatilingError(f"the {self.name} engine takes no node limit")
        unused = unused_setting(request, self.name)
        if unused is not None:
            return unused
        if task in self.timed and request.time_limit is None:
            return needs_time_limit(self.name, task)
        if task == "maximise" and request.dask and self.dask is None:
            return SatilingError(not_on_dask(self.name))
        if task == "maximise" and request.extra.get("start_board") is not None and not self.continues:
            return SatilingError(cannot_continue(self.name))
        return None


ALL = ("solve", "count", "enumerate", "maximise")
#: the two compiled searches' names (the words users type)
BACKTRACK, WALK = "backtrack", "walk"
_SEARCHERS = "satiling.search.searchers"
_SOLVE = "satiling.search.solvejob"
_MAX = "satiling.apps.maximize"
TABLE: tuple[Engine, ...] = (
    Engine(BACKTRACK, "the compiled edge-matching backtracker (maximise: its scoring search)",
           {"solve": f"{_SOLVE}:by_backtrack", "count": f"{_SEARCHERS}:BACKTRACK",
            "enumerate": f"{_SEARCHERS}:BACKTRACK", "maximise": f"{_MAX}.scoring:run"}, "nodes",
           dask=f"{_MAX}.cluster:run", proves=False, solver_spelling=True, continues=True,
           uses={"solve": ("seed",), "maximise": ("seed", "threads", "fill_order")},
           families=("edgematch",)),
    Engine(WALK, "the compiled exact-cover search: dancing links or bitboards with a pocket cut",
           {"solve": f"{_SOLVE}:by_solver", "count": f"{_SEARCHERS}:WALK",
            "enumerate": f"{_SEARCHERS}:WALK"}, "nodes", solver_spelling=True,
           families=("polyform",)),     # edge matching and IQ-Link add variables to the cover
    Engine("sat", "a SAT solver (--solver, CaDiCaL by default); counts with blocking clauses",
           {"solve": f"{_SOLVE}:by_solver", "count": f"{_SEARCHERS}:SAT",
            "enumerate": f"{_SEARCHERS}:SAT"}, "conflicts"),
    Engine("race", "SAT solvers in parallel processes, the first answer wins",
           {"solve": f"{_SOLVE}:by_solver"}, solver_spelling=True),
    Engine("cpsat", "OR-Tools CP-SAT (maximise: proves the optimum)",
           {"solve": f"{_SOLVE}:by_solver", "count": f"{_SEARCHERS}:CPSAT",
            "enumerate": f"{_SEARCHERS}:CPSAT", "maximise": f"{_MAX}.cpsat:run"}, "conflicts",
           uses={"solve": ("threads",), "maximise": ("threads",)}),
    Engine("lns", "large-neighbourhood search: CP-SAT on windows of the board",
           {"maximise": f"{_MAX}.lns:run"}, uses={"maximise": ("seed",)}, timed=("maximise",)),
    Engine("rc2", "the RC2 MaxSAT solver", {"maximise": f"{_MAX}.rc2:run"}),
    Engine("mip", "a MIP solver of OR-Tools on the model (--solver: scip, the default, highs or cbc)",
           {"solve": f"{_SOLVE}:by_solver"}),
)
AUTO = "auto"
#: the settings only some engines use, by task: the rows' ``uses`` say which
CHECKED: dict[str, tuple[str, ...]] = {"solve": ("seed", "threads", "fill_order"),
                                        "maximise": ("seed", "threads", "fill_order")}


def solver_spellings() -> tuple[str, ...]:
    """The engines ``--solver`` once named (their rows' ``solver_spelling``)."""
    return tuple(e.name for e in TABLE if e.solver_spelling)


def on_dask() -> tuple[str, ...]:
    """The engines whose maximise runs on a Dask cluster."""
    return tuple(e.name for e in TABLE if e.dask is not None)


def not_on_dask(engine: str) -> str:
    """Why ``engine``'s maximise cannot go to a Dask cluster, in the words a user reads."""
    return f"a Dask cluster runs the {' and '.join(on_dask())} engine's search, not {engine}'s"


def needs_time_limit(engine: str, task: str) -> SatilingError:
    """Why ``engine`` cannot run ``task`` (one of its row's ``timed``) without a time limit."""
    return SatilingError("{engine} needs {time_limit} to {task}",
                         engine=Option("engine", engine), time_limit=Option("time_limit"), task=task)


def cannot_continue(engine: str) -> str:
    """Why ``engine``'s maximise cannot take a start board."""
    who = " and ".join(e.name for e in TABLE if e.continues)
    return f"a start board continues the {who} engine's search, not {engine}'s"


def users(task: str, setting: str) -> tuple[str, ...]:
    """The engines that use ``setting`` for ``task``, in the table's order."""
    return tuple(e.name for e in TABLE if setting in e.uses.get(task, ()))


def unused_setting(request: Any, engine: str) -> SatilingError | None:
    """Why ``request`` cannot go to ``engine``: a setting of :data:`CHECKED` it leaves unused
    (None: none)."""
    given = {"seed": request.seed is not None, "threads": request.threads is not None,
             "fill_order": bool(request.extra.get("fill_order"))}
    for setting in CHECKED.get(request.task, ()):
        if given[setting] and engine not in users(request.task, setting):
            who = users(request.task, setting)
            where = f"the {' and '.join(who)} engine{'s' if len(who) > 1 else ''}" if who \
                else "maximising"
            return SatilingError("{setting} is for {where}; this run's engine ({engine}) does not "
                                 "use it", setting=Option(setting), where=where, engine=engine)
    return None


def names(task: str) -> tuple[str, ...]:
    """``auto`` and the engines that run ``task``."""
    return (AUTO,) + tuple(e.name for e in TABLE if task in e.runs)


def check(task: str, engine: object) -> str:
    """``engine`` if it runs ``task``, else SatilingError naming the choices."""
    if engine not in names(task):
        raise SatilingError(f"unknown engine {engine!r} for {task} (choose from {', '.join(names(task))})")
    return engine  # type: ignore[return-value]


def row(name: str) -> Engine:
    for engine in TABLE:
        if engine.name == name:
            return engine
    raise SatilingError(f"unknown engine {name!r} (choose from {', '.join(e.name for e in TABLE)})")


def function(task: str, name: str, dask: bool = False) -> Any:
    """What engine ``name``'s row names for ``task`` (imported now); with ``dask``, what runs it on
    a Dask cluster (None if the engine runs here only)."""
    engine = row(name)
    where = engine.runs.get(task)
    if where is None:
        raise SatilingError(f"the {name} engine does not {task} (choose from "
                            f"{', '.join(names(task)[1:])})")
    if dask:
        if engine.dask is None:
            return None
        where = engine.dask
    module, attribute = where.split(":")
    return getattr(importlib.import_module(module), attribute)


# -- solvers ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Solver:
    """A solver an engine runs on the model (PySAT's ``SolverNames`` is the model: every name a
    user may write for it, here and nowhere else).

    ``kind``: ``exact`` (the compiled exact-cover search), ``sat`` (PySAT), ``cp`` (CP-SAT) or
    ``mip`` (OR-Tools' MIP solvers); ``aliases``: the short names; ``proof``: writes DRAT proofs
    that checkers accept; ``conflicts``: takes a node limit (its conflicts, or the exact-cover
    search's nodes); ``incremental``: keeps its clauses across solves and takes assumptions
    (PySAT's Kissat aborts on a clause added after a solve)."""

    name: str
    kind: str
    title: str
    aliases: tuple[str, ...] = ()
    proof: bool = False
    conflicts: bool = False
    incremental: bool = True

    @property
    def engine(self) -> str:
        """The engine that runs this solver on the model."""
        return _ENGINE_OF_KIND[self.kind]


#: every solver; the first SAT solver is the default wherever one is needed.  Proofs: MapleSAT's
#: are known to be broken, MapleCM's lack the empty clause, MiniSat and Kissat write none; PySAT's
#: Kissat does not expose its conflicts and Lingeling takes no budget.
SOLVERS: tuple[Solver, ...] = (
    Solver("cadical195", "sat", "CaDiCaL", ("cadical",), proof=True, conflicts=True),
    Solver("cadical153", "sat", "CaDiCaL 1.5.3", proof=True, conflicts=True),
    Solver("glucose4", "sat", "Glucose", ("glucose",), proof=True, conflicts=True),
    Solver("glucose3", "sat", "Glucose 3", proof=True, conflicts=True),
    Solver("kissat404", "sat", "Kissat", ("kissat",), incremental=False),
    Solver("minisat22", "sat", "MiniSat", ("minisat",), conflicts=True),
    Solver("lingeling", "sat", "Lingeling", proof=True),
    Solver("maplechrono", "sat", "MapleChrono", proof=True, conflicts=True),
    Solver("cpsat", "cp", "CP-SAT", conflicts=True, incremental=False),
    Solver("scip", "mip", "SCIP"),
    Solver("highs", "mip", "HiGHS"),
    Solver("cbc", "mip", "CBC"),
    Solver(WALK, "exact", "the compiled exact-cover search", conflicts=True, incremental=False),
)
_ENGINE_OF_KIND = {"exact": WALK, "sat": "sat", "cp": "cpsat", "mip": "mip"}
SAT_SOLVERS = tuple(s.name for s in SOLVERS if s.kind == "sat")
#: the solver of exact covers (``auto`` runs it on a model of placements only)
EXACT_SOLVER = next(s.name for s in SOLVERS if s.kind == "exact")
MIP_SOLVERS = tuple(s.name for s in SOLVERS if s.kind == "mip")
ALIASES = {a: s.name for s in SOLVERS for a in s.aliases}
#: the SAT solver that runs where one is needed and none is named
DEFAULT_SAT = SAT_SOLVERS[0]
#: ... as a user names it (``--solver cadical``)
DEFAULT_SAT_ALIAS = next(s.aliases[0] for s in SOLVERS if s.kind == "sat")
#: the answer format with ``SAT`` / ``UNSAT`` / ``INDET`` on its first line, the model on the next
RESULT_FILE = "MiniSat's result file"
#: ``race``: SAT solvers, each in its own process, the first answer wins (CDCL run times are
#: heavy-tailed and differ by version: docs/decisions/2026-11-27-router-defaults.md)
RACE = SAT_SOLVERS[:2]


def solver(name: str) -> Solver | None:
    """The row of ``name`` or of the solver it is an alias of (None: no solver)."""
    name = ALIASES.get(name, name)
    return next((s for s in SOLVERS if s.name == name), None)


def takes_node_limit(name: str) -> bool:
    """Whether ``name`` (a solver, an alias, or a race ``A+B``) stops at a node limit."""
    rows = [solver(m) for m in name.split("+")]
    return all(r is not None and r.conflicts for r in rows)


def sat_names() -> tuple[str, ...]:
    """The SAT solvers' short names, then their PySAT names (as error messages list them)."""
    return tuple(a for s in SOLVERS if s.kind == "sat" for a in s.aliases) + SAT_SOLVERS


#: every name ``--solver`` takes (as an unknown one's error lists them): ``auto``, the short names,
#: CP-SAT, the engines a solver name once stood for, the MIP solvers, the SAT solvers
SOLVER_CHOICES = ((AUTO,) + tuple(ALIASES) + ("cpsat", EXACT_SOLVER, "race") + MIP_SOLVERS + SAT_SOLVERS)


def solver_help() -> str:
    """``--solver``'s help for solve, from the table."""
    short = ", ".join(a for s in SOLVERS if s.kind == "sat" for a in s.aliases)
    return (f"auto (default): the compiled backtracker on edge matching, the exact-cover search "
            f"(walk) on exact covers, else {DEFAULT_SAT_ALIAS}; or {short} (SAT: the model, not the "
            f"backtracker); race ({RACE[0]} and {RACE[1]} in two processes, the first answer wins; "
            f"or A+B for any PySAT solvers); cpsat; {', '.join(MIP_SOLVERS)} (MIP); or a PySAT name")


def count_solver_help() -> str:
    """``--solver``'s help for count and enumerate, from the table."""
    short = [a for s in SOLVERS if s.kind == "sat" for a in s.aliases]
    return ("the SAT solver that counts (named without --engine, it takes the place of the "
            "backtracker and the exact-cover search) and writes --proof's proof: "
            f"{short[0]} (the default where one is needed), {', '.join(short[1:])} or another "
            "PySAT name; or cpsat")
