"""The library: puzzles built from code or loaded by name, that solve, count, list, check and draw
themselves, through the same router, engines and count pipeline as the command line.

    >>> import satiling
    >>> puzzle = satiling.Polyform((3, 20), "pentominoes")      # a 3x20 box, the 12 pentominoes
    >>> puzzle.count(), puzzle.count(raw=True), puzzle.count(symmetry="rotations")
    (2, 8, 4)
    >>> solution = puzzle.solve()                                # verified placements
    >>> puzzle.verify(solution), len(solution), solution[0].piece
    (True, 12, 'F')

* ``satiling.Polyform(board, pieces, ...)``, ``satiling.EdgeMatching(rows, cols, pieces, ...)`` and
  ``satiling.IQLink(placed, ...)`` build a puzzle from Python values: the same data an instance file
  holds (``instances/README.md``), checked by the same loader, so a mistake is one
  :class:`~satiling.errors.SatilingError` naming it;
* ``satiling.load(name)`` is a bundled puzzle or an instance file, with the same methods;
* ``solve()``, ``count(raw=..., symmetry=...)``, ``solutions()`` (a generator of placements, one per
  class or every one), ``verify(solution)``, ``to_svg()`` (``svg(solution)``: the same picture); a
  puzzle and a :class:`Solution` draw themselves in Jupyter (``_repr_svg_``).

Every solution returned or yielded has passed ``puzzle.verify``.  Counts go through
:class:`satiling.search.stream.Run`, as ``satiling count`` does: the symmetry restriction, the
compiled exact-cover search on the board's cells with the pocket cut, the cubes, and each class
expanded to its members for a raw count.  (A bare ``ExactCover(matrix_of(problem)).count()`` has
none of these: on the 6x10 pentomino board it searches the whole tree of 9356 solutions by dancing
links without the cut, many times slower than the pipeline; measurements:
docs/decisions/2026-11-27-models-and-encodings.md.)

Layers: the families never import the search or the renderers, so the methods that need them are
added here, above both: each API class is its family's puzzle class with :class:`Solvable` mixed
in, and ``load`` hands back the family's puzzle as an instance of it.
"""
from __future__ import annotations

import operator
import signal
from collections import abc
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from .catalog import load as find_puzzle, load_data
from .render import to_svg, to_text
from .errors import SatilingError
from .fileio import check_picture_name
from .schema import Name
from .families.base import Puzzle
from .families.edgematch import EdgeMatchPuzzle
from .families.iqlink import IQLinkPuzzle
from .families.polyform import PolyformPuzzle

__all__ = ["Count", "EdgeMatching", "Forced", "IQLink", "Polyform", "Solution", "Solvable", "Terminated",
           "load"]


class Solution(list):
    """A verified solution: the list of its placements (``PolyformPlacement``, edge-matching
    ``Tile``, ``IQLinkPlacement``), which draws itself (``str()``, ``to_svg()``, in Jupyter)."""

    def __init__(self, puzzle: Puzzle, placements: Iterable[Any]) -> None:
        read = _placements(puzzle, placements)
        puzzle.verify(read)                 # what the name promises, whoever builds one
        super().__init__(read)
        self.puzzle = puzzle

    def text(self) -> str:
        """The picture for the terminal (as ``satiling solve`` prints it)."""
        return to_text(self.puzzle, list(self))

    def to_svg(self, path: str | Path | None = None) -> str:
        """The SVG picture; also written to ``path`` when given (whole or not at all)."""
        return _svg(self.puzzle, list(self), path)

    def to_json(self) -> list[Any]:
        """The placements as JSON data (``satiling verify`` and ``render`` read them back)."""
        return [p.to_json() for p in self]

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def __str__(self) -> str:
        return self.text()


class Solvable:
    """What a puzzle of the library can do beyond its family's geometry (mixed into the family's
    puzzle class: ``self`` is that puzzle)."""

    #: the name or path ``load`` read (worker processes rebuild the puzzle from it); None for a
    #: puzzle built in code
    _source: str | None = None

    def solve(self, *, solver: str = "auto", engine: str = "auto", time_limit: float | None = None,
              threads: int | None = None, node_limit: int | None = None, workers: int | None = None,
              seed: int | None = None, proof: str | None = None, **options: Any) -> Solution | None:
        """One verified solution, or None when there is none.  ``solver``: ``auto`` (the run's
        choice, as ``satiling solve``), an engine (:data:`satiling.engines.table.TABLE`) or a
        solver (:data:`satiling.engines.table.SOLVERS`); ``engine`` names the engine as
        ``--engine`` does (``solver`` then the solver inside it); ``options``: the
        family's model options (``parity=True``, ``hints=True``, ...); ``node_limit``: give up
        after that many nodes of the search (a SAT solver's or CP-SAT's conflicts); ``workers``
        and ``seed``: the edge-matching backtracker's processes and restarts, as ``--workers``
        and ``--seed``; ``proof``: a file for a DRAT proof of "no solution" (and the formula beside
        it, ``FILE.cnf``), checked before None is returned, as ``--proof``.  Raises SatilingError
        when the time or node limit ran out before an answer, or a proof did not check."""
        from .run import Stop, solve
        settings = solver_settings(solver) if engine == "auto" else {"engine": engine, "solver": solver}
        answer = solve(self._request("solve", **settings, time_limit=time_limit, node_limit=node_limit,
                                     threads=threads, workers=workers, seed=seed, proof=proof,
                                     options=options))
        if answer.stop in (Stop.TIME, Stop.NODES):
            raise SatilingError(f"{self.name}: no answer within the {answer.stop.value} limit")
        if answer.proof is not None and not answer.proof.verified:
            raise SatilingError(f"{self.name}: the proof of no solution did not check: {answer.how}")
        return None if answer.solution is None else Solution(self, answer.solution)   # type: ignore[arg-type]

    def count(self, *, raw: bool = False, symmetry: str | None = None, engine: str = "auto",
              solver: str = "auto", workers: int | None = None, time_limit: float | None = None,
              symmetry_breaking: bool = True, resume: str | None = None, progress: bool = False,
              **options: Any) -> "Count":
        """The number of solutions: one per class of the board's symmetries (``symmetry="full"``,
        the default), of its rotations only (``"rotations"``: no mirror images), or every one
        (``raw=True`` or ``symmetry="none"``).  ``engine``: ``auto`` or an engine of the table
        that counts; ``workers``: processes sharing the cubes; ``progress``: a progress bar
        (in a notebook, its own widget).

        A :class:`Count`: the number, with how the count ended (``.stop``, ``.complete``).  A time
        limit or Ctrl-C returns what was counted so far, its work kept in ``.checkpoint``;
        ``resume=`` that file (or a ``satiling count --resume`` file) goes on from it.  SIGTERM
        raises :class:`Terminated` (a ``SystemExit``: the program ends with 143 unless caught),
        whose ``.count`` is that count."""
        from .run import Events, Stop, count
        if not isinstance(progress, bool):
            raise SatilingError(f"progress is True or False, not {progress!r}")
        req = self._request("count", engine=engine, solver=solver, raw=raw, symmetry=symmetry,
                            symmetry_breaking=symmetry_breaking, workers=workers,
                            time_limit=time_limit, resume=resume, options=options)
        with _bar(progress, "counting") as bar:
            answer = count(req, Events(found=bar.update))
        checkpoint = resume or answer.checkpoint
        counted = Count(answer.total, answer.stop, None if answer.stop is Stop.DONE else checkpoint)
        if answer.stop is Stop.TERMINATED:
            raise Terminated(counted)        # SIGTERM ends the program, as it would without satiling
        return counted

    def solutions(self, *, raw: bool = False, symmetry: str | None = None, engine: str = "auto",
                  solver: str = "auto", symmetry_breaking: bool = True,
                  **options: Any) -> Iterator[Solution]:
        """Every solution, verified, as placements: one per symmetry class (the group as in
        :meth:`count`) or, with ``raw=True``, every one.  A generator: it searches only as far as
        it is read (``itertools.islice(puzzle.solutions(), 10)`` runs until the tenth).  Bad
        arguments are refused at the call, before the first solution is asked for."""
        from .run.engines import settled
        req = self._request("enumerate", engine=engine, solver=solver, raw=raw, symmetry=symmetry,
                            symmetry_breaking=symmetry_breaking, options=options)
        return self._stream(req, settled(req))

    def _stream(self, req: Any, engine: str | None) -> Iterator[Solution]:
        """The solutions as a generator, everything that may be refused done first, at the call
        (the model and its options, the engine for it, the cubes): only the search waits for
        the first ``next``.  ``engine`` None: chosen once the model is built (only it tells)."""
        from .run.engines import choose
        from .search.stream import Settings, cube_space, symmetry_choice
        if self.obstruction() is not None:
            return iter(())
        raw, group = symmetry_choice(req.raw, req.symmetry)
        problem = self.problem(**req.options)
        settings = Settings(raw=raw, engine=engine or choose(req, problem), solver=req.sat_solver,
                            break_symmetry=req.symmetry_breaking, symmetry=group)
        return self._searched(cube_space(self, problem, dict(req.options), settings), settings)

    def _searched(self, space: Any, settings: Any) -> Iterator[Solution]:
        """The search of ``space``'s cubes, run as far as it is read, each solution verified."""
        from .search.stream import space_solutions
        for sol in space_solutions(space, settings):
            yield self._verified(space.problem.decode(sol))

    def forced(self, *, method: str = "auto", time_limit: float | None = None,
               **options: Any) -> "Forced":
        """The placements every solution holds (the pinned ones among them), as ``satiling
        forced``: a list with ``.complete``; a time limit or Ctrl-C returns those proved so far
        (``.complete`` False, ``.undecided`` the candidates not settled).  ``method``: ``auto``,
        ``exact``, ``sat`` or ``enumerate``.  An empty list with ``.exists`` False: no solution."""
        from .run.forced import forced
        answer = forced(self, method, time_limit, options)
        return Forced(answer.forced, answer)

    def hint(self, *, seed: int | None = None, time_limit: float | None = None, **options: Any) -> Any:
        """One placement, not pinned, of some verified solution, chosen at random (``seed``: the
        same one again), as ``satiling hint``; None when there is no solution or the pins are a
        whole solution already.  Raises SatilingError when the time limit ran out first."""
        from .run import Stop
        from .run.forced import hint
        answer = hint(self, seed, time_limit, options)
        if answer.stop is Stop.TIME:
            raise SatilingError(f"{self.name}: no hint within the time limit")
        return answer.placement

    def _request(self, task: str, options: dict[str, Any], **settings: Any) -> Any:
        """The run's request for this puzzle: every argument checked there, as the command line's."""
        from .run import Request
        return Request(self, task, options=options, source=self._source, **settings)   # type: ignore[arg-type]

    def verify(self, solution: Sequence[Any]) -> bool:
        """True when ``solution`` (placements or their JSON data) solves the puzzle, re-checked
        from the geometry alone; else VerificationError saying what is wrong."""
        super().verify(solution)                              # type: ignore[misc]
        return True

    def to_svg(self, solution: Sequence[Any] | None = None, path: str | Path | None = None) -> str:
        """The SVG of ``solution``, or of the empty board; also written to ``path`` when given."""
        if solution is not None and (isinstance(solution, (str, bytes)) or not isinstance(solution, (list, tuple))):
            raise SatilingError(f"a solution is a list of placements, not {type(solution).__name__}")
        solution = [] if solution is None else list(solution)
        if solution:
            self._check_pieces(solution)
        return _svg(self, solution, path)

    def svg(self, solution: Sequence[Any]) -> str:
        """The SVG of ``solution``, as :meth:`to_svg` draws it (the family's picture); a family
        whose record names no picture draws with its puzzle class's own, if any."""
        from .registry import picture
        if picture(self.family, "svg") is None:          # type: ignore[attr-defined]
            return super().svg(solution)                  # type: ignore[misc]
        return self.to_svg(solution)

    def _check_pieces(self, solution: list[Any]) -> None:
        """Every placement of ``solution`` reads as one of this puzzle's (a picture of a piece the
        puzzle lacks would draw nonsense); a partial solution may still be drawn."""
        placements = [self.placement_from_json(p) if isinstance(p, dict) else p for p in solution]
        known = getattr(self, "by_name", None)       # polyforms: pieces by name
        for pl in placements:
            piece = getattr(pl, "piece", None)
            if known is not None and piece not in known:
                raise SatilingError(f"{self.name} has no piece {piece!r}")
            if isinstance(piece, int) and not 1 <= piece <= len(getattr(self, "pieces", ())):
                raise SatilingError(f"{self.name} has no piece {piece}")     # edge matching: from 1
            why = self.misplaced(pl)
            if why is not None:
                raise SatilingError(f"{self.name}: {why}")

    def _repr_svg_(self) -> str:
        """The board above the pieces (``satiling show``'s picture): what Jupyter draws."""
        from .render.pieces import puzzle_svg
        return puzzle_svg(self)

    def __repr__(self) -> str:
        from .render.pieces import summary
        return f"<{type(self).__name__} {self.name}: {summary(self)}>"

    # -- helpers ----------------------------------------------------------------------------------
    def _verified(self, placements: list[Any]) -> Solution:
        return Solution(self, placements)   # type: ignore[arg-type]   (it verifies them)

class Forced(list):
    """The placements every solution holds (a list), with how the search ended: ``complete``
    (False: stopped, these are proved and ``undecided`` may be forced too), ``exists`` (False: no
    solution; None: none found before the stop), ``stop``; ``pinned``: the puzzle's own pins
    among them (what is forced beyond the pins: those not in ``pinned``)."""

    def __init__(self, placements: Iterable[Any], answer: Any) -> None:
        super().__init__(_placement_list(placements, "forced placements"))
        _check_forced_answer(answer, bool(self))
        self.pinned: list[Any] = list(answer.pinned)
        self.complete: bool = answer.complete
        self.exists: bool | None = answer.exists
        self.undecided: list[Any] = list(answer.open)
        self.stop = answer.stop


class Count(int):
    """A number of solutions with how the count ended: ``stop`` (``Stop.DONE``, or ``TIME`` /
    ``INTERRUPTED`` for a count cut short), ``complete``, and ``checkpoint``, the file that keeps
    a stopped count's work (``puzzle.count(resume=...)`` goes on from it)."""

    stop: Any
    checkpoint: str | None

    def __new__(cls, total: int, stop: Any, checkpoint: str | None = None) -> "Count":
        _check_count(total, stop, checkpoint)
        out = super().__new__(cls, total)
        out.stop, out.checkpoint = stop, checkpoint
        return out

    @property
    def complete(self) -> bool:
        return bool(self.stop.complete)

    def __repr__(self) -> str:
        return int.__repr__(self) if self.complete else \
            f"Count({int(self)}, stop={self.stop.value!r}, checkpoint={self.checkpoint!r})"


def _stop_of(stop: Any, what: str) -> None:
    """SatilingError unless ``stop`` is a :class:`satiling.run.Stop` (how a run ended)."""
    from .run import Stop
    if not isinstance(stop, Stop):
        raise SatilingError(f"{what} stop is how the run ended (satiling.run.Stop.DONE, ...), not "
                            f"{str(stop)[:40]!r}")


def _check_count(total: Any, stop: Any, checkpoint: Any) -> None:
    """A count is a whole number of solutions, at least 0; its checkpoint a file name or None."""
    if isinstance(total, bool) or not hasattr(type(total), "__index__") or operator.index(total) < 0:
        raise SatilingError(f"a count is a whole number of solutions, at least 0, not {str(total)[:40]!r}")
    _stop_of(stop, "a count's")
    if checkpoint is not None and (not isinstance(checkpoint, str) or not checkpoint or "\0" in checkpoint):
        raise SatilingError(f"a count's checkpoint is a file name or None, not {str(checkpoint)[:40]!r}")


def _placement_list(placements: Any, what: str) -> list[Any]:
    """``placements`` as a list: a list, tuple or other iterable of them, never a string or a mapping
    (whose characters or keys would pass for placements)."""
    if isinstance(placements, (str, bytes, dict)) or not isinstance(placements, abc.Iterable):
        raise SatilingError(f"{what} are a list of placements, not {type(placements).__name__}")
    return list(placements)


def _check_forced_answer(answer: Any, any_forced: bool) -> None:
    """``answer`` says how the search for forced placements ended: its stop, whether a solution
    exists (True, False or None: not known), the pins and the open candidates; "no solution"
    with placements forced is no answer at all (the list is empty then)."""
    missing = [name for name in ("stop", "exists", "pinned", "open") if not hasattr(answer, name)]
    if missing:
        raise SatilingError(f"forced placements come with how their search ended (puzzle.forced()), "
                            f"not {type(answer).__name__} (no {missing[0]})")
    _stop_of(answer.stop, "the search's")       # before complete, which a Stop answers
    if not (answer.exists is None or isinstance(answer.exists, bool)):
        raise SatilingError(f"whether a solution exists is True, False or None, not {str(answer.exists)[:40]!r}")
    complete = getattr(answer, "complete", None)
    if not isinstance(complete, bool):
        raise SatilingError(f"whether the search is complete is True or False, not {str(complete)[:40]!r}")
    for name in ("pinned", "open"):
        _placement_list(getattr(answer, name), f"the {name} placements")
    if answer.exists is False and any_forced:
        raise SatilingError("a puzzle without a solution has no forced placements to list")


class Terminated(SystemExit):
    """SIGTERM arrived during ``count()``: the program ends (exit code 143, as the command line's),
    unless the caller catches this; ``.count`` is what was counted, its work in
    ``.count.checkpoint`` (``count(resume=...)`` goes on from it)."""

    def __init__(self, count: Count) -> None:
        from .exits import signal_exit
        super().__init__(signal_exit(signal.SIGTERM))
        self.count = count


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def __enter__(self) -> "_NoBar":
        return self

    def __exit__(self, *exc: Any) -> None:
        pass


def _bar(shown: bool, what: str) -> Any:
    """tqdm's automatic bar (a widget in a notebook, text elsewhere), or none."""
    if not shown:
        return _NoBar()
    from tqdm.auto import tqdm
    return tqdm(desc=what, unit=" sol")


def solver_settings(solver: Any) -> dict[str, Any]:
    """``engine`` and ``solver`` of a solve request from the library's one ``solver`` argument,
    which names an engine of the table or a SAT / MIP solver."""
    from .run.engines import names
    if solver is None:
        return {}
    if isinstance(solver, str) and "+" in solver:
        return {"engine": "race", "solver": solver}
    if isinstance(solver, str) and solver != "auto" and solver in names("solve"):
        return {"engine": solver}
    return {"solver": solver}


# -- the puzzles ----------------------------------------------------------------------------------
class Polyform(Solvable, PolyformPuzzle):
    """Pieces of a lattice packed into a region, built from Python values.

    ``board``: ASCII art (any character but ``.`` and space is a cell), ``(rows, cols)`` (a
    parallelogram on the triangle and hexagon lattices, ``(layers, rows, cols)`` a box on the
    cubic one), a list of cells, a list of layer drawings (cubic), or a ``[region]`` table as a
    dict (``{"hexagon": 3}``, ``{"word": ...}``).  ``pieces``: a bundled set's name
    (``"pentominoes"``), a dict from names to shapes (ASCII art, cells, layers, or a ``[[piece]]``
    table), or a list mixing one set name and ``[[piece]]`` tables.  ``freedom`` (``free``,
    ``one-sided``, ``fixed``) applies to the set and to pieces that do not give their own;
    ``topology`` and ``wrap`` glue the sides (``"cylinder"``, ``"torus"``); ``cells`` and
    ``pieces_rule`` are ``"exact"`` or ``"at-most"``.  ``placed`` pins pieces by hand, each
    ``(name, cells)``, a ``{"piece": ..., "cells": ...}`` dict (``[[placed]]``) or a placement:
    they are in every solution, and a count up to symmetry uses the motions that keep them.

        >>> import satiling
        >>> satiling.Polyform(["##.", "###"], {"L": "##\\n#.", "I": [(0, 0), (0, 1)]}).count(raw=True)
        2
        >>> satiling.Polyform((3, 20), "pentominoes", placed=[("I", [(0, c) for c in range(3, 8)])]).count(raw=True)
        2
    """

    def __init__(self, board: Any, pieces: Any, *, lattice: str = "square", freedom: str | None = None,
                 topology: str | None = None, wrap: str | None = None, cells: str = "exact",
                 pieces_rule: str = "exact", placed: Iterable[Any] = (), name: str = "polyform",
                 title: str = "") -> None:
        data: dict[str, Any] = {"family": "polyform", "lattice": lattice, "title": title,
                                "region": _region(board, lattice, topology, wrap),
                                "rules": {"cells": cells, "pieces": pieces_rule}}
        data.update(_pieces(pieces, freedom))
        pins = [_pin(p) for p in _sequence(list(placed) if isinstance(placed, (set, frozenset)) else placed,
                                           "placed")]
        if pins:
            data["placed"] = pins
        _become(self, load_data(data, _label(name), Path.cwd()))


class EdgeMatching(Solvable, EdgeMatchPuzzle):
    """Square pieces with a colour on each side (``[N, E, S, W]``, 0 the border), on a
    ``rows`` x ``cols`` board; ``fixed`` and ``hints`` pin pieces, each a ``(square, piece)`` or
    ``(square, piece, rotation)`` (``("A1", 1, 0)``: 1-based piece, quarter turns clockwise) or
    a ``[[fixed]]`` table as a dict."""

    def __init__(self, rows: int, cols: int, pieces: Sequence[Sequence[int]], *,
                 fixed: Iterable[Any] = (), hints: Iterable[Any] = (), name: str = "edgematch",
                 title: str = "") -> None:
        data: dict[str, Any] = {"family": "edgematch", "rows": rows, "cols": cols, "title": title,
                                "pieces": [_sequence(p, "a piece's colours")
                                           for p in _sequence(pieces, "pieces")]}
        for key, tiles in (("fixed", _listed(fixed, "fixed")), ("hint", _listed(hints, "hints"))):
            if tiles:
                data[key] = [_tile(t) for t in tiles]
        _become(self, load_data(data, _label(name), Path.cwd()))


class IQLink(Solvable, IQLinkPuzzle):
    """An IQ-Link challenge: ``placed`` pre-placed pieces as three-letter placements
    (``["TFI", "OGK"]`` or ``"TFIOGK"``; none: the empty board); ``linked`` the one-graph rule."""

    def __init__(self, placed: str | Sequence[str] = (), *, linked: bool = True, name: str = "iqlink",
                 title: str = "") -> None:
        data = {"family": "iqlink", "placed": placed if isinstance(placed, str) else
                _sequence(placed, "placed"),
                "linked": linked, "title": title}
        _become(self, load_data(data, _label(name), Path.cwd()))


def load(name_or_path: str | Path) -> Puzzle:
    """A bundled puzzle by name (``satiling list``) or an instance file, with the methods of
    :class:`Solvable`; it is also an instance of its family's puzzle class."""
    puzzle = find_puzzle(name_or_path)
    out = _adopt(puzzle)
    out._source = str(name_or_path)          # workers rebuild it from here
    return out


#: the library's class for each family's puzzle class; other families get one made on first use
_API_CLASS: dict[type, type] = {PolyformPuzzle: Polyform, EdgeMatchPuzzle: EdgeMatching,
                                IQLinkPuzzle: IQLink}


def _adopt(puzzle: Puzzle) -> Any:
    """The same puzzle as an instance of its library class (its state shared, not rebuilt)."""
    if isinstance(puzzle, Solvable):
        return puzzle
    family_class = type(puzzle)
    cls = _API_CLASS.get(family_class)
    if cls is None:        # a plug-in family: its class with the methods mixed in
        cls = _API_CLASS[family_class] = type(family_class.__name__, (Solvable, family_class),
                                              {"__module__": __name__})
    return _become(cls.__new__(cls), puzzle)


def _become(target: Any, built: Puzzle) -> Any:
    """``target`` takes the state of a puzzle the family's loader built (and checked): the
    library's constructors go through the loader rather than repeat its checks."""
    target.__dict__.update(vars(built))
    return target


# -- from Python values to instance data ------------------------------------------------------------
def _region(board: Any, lattice: str, topology: str | None, wrap: str | None) -> dict[str, Any]:
    if isinstance(board, dict):
        region = dict(board)
    elif isinstance(board, str):
        region = {"ascii": board}
    elif _numbers(board) and not (_ints(board) and len(board) == (3 if lattice == "cubic" else 2)):
        raise SatilingError(f"a board's size is {'(layers, rows, cols)' if lattice == 'cubic' else '(rows, cols)'} "
                            f"in whole numbers, not {board!r}")
    elif _ints(board) and len(board) == 3 and lattice == "cubic":
        region = {"box": list(board)}
    elif _ints(board) and len(board) == 2:
        rows, cols = board
        region = {"rows": rows, "cols": cols} if lattice in ("square", "cubic") else \
            {"parallelogram": [rows, cols]}
    elif isinstance(board, (list, tuple)) and board and all(isinstance(x, str) for x in board):
        region = {"layers": list(board)} if lattice == "cubic" else {"ascii": "\n".join(board)}
    elif isinstance(board, (list, tuple, set, frozenset)):
        region = {"cells": _cells(board, "a board")}
    else:
        raise SatilingError(f"a board is ASCII art, (rows, cols), a list of cells or a dict, not "
                            f"{type(board).__name__}")
    if topology is not None:
        region["topology"] = topology
    if wrap is not None:
        region["wrap"] = wrap
    return region


def _pieces(pieces: Any, freedom: str | None) -> dict[str, Any]:
    """``piece_set`` and ``piece`` entries of an instance file from the ``pieces`` argument."""
    if isinstance(pieces, str):
        pieces = [pieces]
    elif isinstance(pieces, dict):
        pieces = [_piece(name, shape) for name, shape in pieces.items()]
    elif not isinstance(pieces, (list, tuple)):
        raise SatilingError(f"pieces are a set's name, a dict of shapes or a list, not "
                            f"{type(pieces).__name__}")
    sets = [p for p in pieces if isinstance(p, str)]
    if any(not isinstance(p, (str, dict)) for p in pieces):
        raise SatilingError("a piece of your own is a dict like {'name': 'D', 'ascii': '##'}")
    own = [dict(p) for p in pieces if isinstance(p, dict)]
    if len(sets) > 1:
        raise SatilingError(f"one bundled piece set at a time, not {', '.join(sets)}")
    out: dict[str, Any] = {}
    if sets:
        out["piece_set"] = sets[0] if freedom is None else {"name": sets[0], "freedom": freedom}
    if own:
        if freedom is not None:
            for p in own:
                p.setdefault("freedom", freedom)
        out["piece"] = own
    return out


def _piece(name: str, shape: Any) -> dict[str, Any]:
    if isinstance(shape, dict):
        return {"name": name, **shape}
    if isinstance(shape, str):
        return {"name": name, "ascii": shape}
    if isinstance(shape, (list, tuple)) and shape and all(isinstance(x, str) for x in shape):
        return {"name": name, "layers": list(shape)}
    if isinstance(shape, (list, tuple, set, frozenset)):
        return {"name": name, "cells": _cells(shape, f"piece {name}")}
    raise SatilingError(f"piece {name}: a shape is ASCII art, a list of cells or a dict, not "
                        f"{type(shape).__name__}")


def _pin(pin: Any) -> dict[str, Any]:
    """A ``[[placed]]`` table from ``(name, cells)``, a dict or a placement."""
    if isinstance(pin, dict):
        return dict(pin)
    if hasattr(pin, "piece") and hasattr(pin, "cells"):
        return {"piece": pin.piece, "cells": _cells(pin.cells, f"pinned piece {pin.piece}")}
    if isinstance(pin, (list, tuple)) and len(pin) == 2 and isinstance(pin[0], str) and \
            isinstance(pin[1], (list, tuple, set, frozenset)):
        return {"piece": pin[0], "cells": _cells(pin[1], f"pinned piece {pin[0]}")}
    raise SatilingError(f"a pinned piece is (name, cells), a dict or a placement, not {pin!r:.60}")


def _tile(tile: Any) -> dict[str, Any]:
    if isinstance(tile, dict):
        return dict(tile)
    if isinstance(tile, (list, tuple)) and len(tile) in (2, 3):
        return dict(zip(("square", "piece", "rotation"), tile))
    raise SatilingError(f"a pinned piece is (square, piece[, rotation]) or a dict, not {tile!r}")


def _ints(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and all(type(x) is int for x in value)


def _numbers(value: Any) -> bool:
    """A tuple of numbers (a size, whether or not a good one), not a list of cells."""
    return isinstance(value, (list, tuple)) and bool(value) and \
        all(isinstance(x, (int, float)) for x in value)


def _cells(cells: Any, what: str) -> list[list[int]]:
    """Cells as the instance file writes them: each a sequence of whole numbers."""
    if not all(_ints(c) for c in cells):
        raise SatilingError(f"{what}: a cell is a tuple of whole numbers like (0, 1)")
    return [list(c) for c in sorted(tuple(c) for c in cells)]


def _listed(value: Any, what: str) -> list[Any]:
    """Any iterable of items (a list, a tuple, a generator), not a string or a dict."""
    if isinstance(value, (str, bytes, dict)):
        raise SatilingError(f"{what} is a list, not {type(value).__name__}")
    try:
        return list(value)
    except TypeError:
        raise SatilingError(f"{what} is a list, not {type(value).__name__}") from None


def _sequence(value: Any, what: str) -> list[Any]:
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        raise SatilingError(f"{what} is a list, not {type(value).__name__}")
    return list(value)


def _label(name: Any) -> str:
    """A puzzle's name (it heads its messages and the files written for it)."""
    if not isinstance(name, str) or not name.strip() or "\0" in name:
        raise SatilingError(f"a puzzle's name is a non-empty string, not {str(name)[:60]!r}")
    Name().check(name, "name")          # one line, no path: the instance file's rule
    return name


def _placements(puzzle: Any, placements: Any) -> list[Any]:
    """The placements of a :class:`Solution`: each one of the puzzle's (JSON data read as its
    family reads it), of pieces the puzzle has."""
    if not isinstance(puzzle, Puzzle):
        raise SatilingError(f"a solution belongs to a puzzle (satiling.load, ...), not "
                            f"{type(puzzle).__name__}")
    if isinstance(placements, (str, bytes)) or not isinstance(placements, (list, tuple)):
        raise SatilingError(f"a solution is a list of placements, not {type(placements).__name__}")
    if not puzzle.placement_types:
        return list(placements)
    read = [p if isinstance(p, puzzle.placement_types) else puzzle.placement_from_json(p)
            for p in placements]
    _adopt(puzzle)._check_pieces(read)
    return read


def _svg(puzzle: Any, solution: list[Any], path: str | Path | None) -> str:
    if path is not None and (not isinstance(path, (str, Path)) or not str(path) or "\0" in str(path)):
        raise SatilingError(f"path is a file name, not {str(path)[:60]!r}")
    if path is not None:
        check_picture_name(str(path), "svg", "path")
    svg = to_svg(puzzle, solution)
    if path is not None:
        from .fileio import write_file
        write_file(str(path), svg)
    return svg

