"""The library's promise on bad arguments, checked by hypothesis: every public call, whatever it is
given and in whatever order the calls come, answers or raises :class:`SatilingError` -- never a
ValueError, TypeError, AttributeError or any other exception from inside.

Single calls are not enough: a state machine (hypothesis' stateful testing, the way mobical drives a
SAT solver through random sequences of API calls) builds and loads puzzles, solves, counts, lists,
verifies and draws them, and hands one puzzle's solutions, checkpoints and pictures to another, with
every argument now a good value, now junk.  Every solution it is handed back must pass the
puzzle's verifier.  The puzzles kept for searching are small (their counts take well under a
second), solves always run under a time limit (the walk never ends on a puzzle without a
solution), and ``make test`` runs a fixed sample; ``pytest -m slow`` a larger random one.
"""
from __future__ import annotations

import functools
import itertools
import json
import os
from collections import Counter
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, note, settings, strategies as st
from hypothesis.stateful import (Bundle, RuleBasedStateMachine, initialize, invariant, multiple,
                                 rule, run_state_machine_as_test)

import satiling
from satiling import SatilingError
from satiling.api import Count, Solution


def _every_module_loaded() -> None:
    """Import all of satiling now, when the suite is collected.  Hypothesis draws a few values
    from the constants of the project's modules loaded so far, so a derandomized sample differed
    with the tests that ran before it in the same process (after another module's tests, one drew
    no count at all and failed ``_exercised``); with every module loaded before any test, the
    sample is the same wherever the test runs."""
    import importlib
    import pkgutil
    for module in pkgutil.walk_packages(satiling.__path__, "satiling."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)


_every_module_loaded()

#: bundled puzzles the sequences load: all but clue1 count in a fraction of a second, and are kept
#: for searching (clue1, whose count takes minutes, is loaded and dropped)
SMALL = ["pentomino-3x20", "tetromino-4x5", "tetromino-cylinder-4x5", "soma-cube",
         "iqlink-expert", "hexiamond-3x12", "clue1"]
#: a polyform built in a sequence is kept for searching up to this many cells (any count of so
#: small a board takes a moment)
COUNTABLE_CELLS = 12

#: (call, answered) -> how often: what a run exercised (a sample that only ever fails says little)
CALLS: Counter = Counter()
REFUSALS: Counter = Counter()

EDGE_PIECES = [[0, 100, 60, 0], [0, 0, 70, 100], [60, 80, 0, 0], [70, 0, 0, 80]]

# -- arguments: good values mixed with junk -------------------------------------------------------
JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3),
    st.sampled_from([10 ** 30, -(2 ** 63), 2 ** 64, float("nan"), float("inf"), -0.0, 1e-300]),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=5),
    st.sampled_from(["", "\0", "a\0b", "..", "/", "\udcff", "é" * 3, " ", "-", "\n"]),
    st.binary(max_size=3), st.lists(st.integers(-2, 6), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(-1, 3), max_size=2),
    st.tuples(st.integers(-1, 4), st.integers(-1, 4)), st.just(object()), st.just(Path(".")),
)


def arg(*good: Any) -> st.SearchStrategy:
    """A good value most of the time, junk the rest (for a call's one or two arguments)."""
    return st.one_of(st.sampled_from(good), st.sampled_from(good), JUNK)


def keywords(**params: tuple[tuple[Any, ...], tuple[Any, ...]]) -> st.SearchStrategy:
    """A call's keyword arguments, each ``(good values, bad values)``: all good half the time,
    else one of them bad (one of its bad values, or junk), so that most calls get as far as the
    search while every argument is tried with junk."""
    names = sorted(params)

    @st.composite
    def draw(draw: Any) -> dict[str, Any]:
        kwargs = {k: draw(st.sampled_from(params[k][0])) for k in names}
        key = draw(st.one_of(st.none(), st.sampled_from(names)))
        if key is not None:
            bad = params[key][1]
            kwargs[key] = draw(st.one_of(st.sampled_from(bad), JUNK) if bad else JUNK)
        return kwargs
    return draw()


ENGINES = (("auto", "auto", "backtrack", "sat", "cpsat"), ("walk", "race", "lns", "rc2", "dlx", ""))
SOLVERS = (("auto", "auto", "auto", "cadical", "glucose", "minisat"),
           ("cpsat", "backtrack", "walk", "scip", "cadical+glucose", "kissat", "highs", "x"))
OPTION_KEYS = ("parity", "hints", "encoding", "colour_counts", "balanced_rotation",
               "checkerboard_parity", "fix_corner", "link_rule")
OPTIONS = st.one_of(st.just({}), st.just({}), st.just({}), st.dictionaries(
    st.sampled_from(OPTION_KEYS + ("nope", "")),
    arg(True, False, None, "direct", "compact", "lazy", "eager"), max_size=2))
TIME = ((0.5, 2.0), (1e-6, 0, -1, float("nan"), float("inf"), "1", True, 10 ** 12))
COUNT_TIME = ((None, 2.0), TIME[1])
WORKERS = ((None, 1), (0, -1, 1.5, "2", True, 10 ** 9))
PATH_VALUES = ((None, "out.svg", Path("p.svg")),
               ("sub/x.svg", "", "a\0b", 5, b"x.svg", ".", "nodir/deeper/x.svg", "x" * 300))
PATHS = st.one_of(st.sampled_from(PATH_VALUES[0]), st.sampled_from(PATH_VALUES[0]),
                  st.sampled_from(PATH_VALUES[1]))
FILES = ((None,), ("p.drat", "", "a\0b", 5, ".", "nodir/p", "c.jsonl", "x" * 300))
BOOL = ((False, True), (None, 0, 1, "yes"))


@functools.cache
def first() -> tuple[Any, ...]:
    """The puzzles every sequence starts with, one of each family that searches fast, and one
    solution of each (made once, when the test runs, not when it is collected)."""
    puzzles = (satiling.load("pentomino-3x20"), satiling.EdgeMatching(2, 2, EDGE_PIECES),
               satiling.load("iqlink-expert"))
    return puzzles, tuple(p.solve() for p in puzzles)


class Library(RuleBasedStateMachine):
    """Puzzles, their solutions and their checkpoints, called on in any order."""

    puzzles = Bundle("puzzles")
    solutions = Bundle("solutions")
    checkpoints = Bundle("checkpoints")

    # -- calling ----------------------------------------------------------------------------------
    def call(self, what: str, f: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[bool, Any]:
        """(True, the answer) or (False, None) for a SatilingError; any other exception fails."""
        note(f"{what}{args!r:.200} {kwargs!r:.300}")
        try:
            answer = f(*args, **kwargs)
        except SatilingError as e:
            assert str(e).strip() and "\n" not in str(e).strip(), f"not one line: {e!r}"
            CALLS[what, False] += 1
            REFUSALS[what, str(e)[:70]] += 1
            return False, None
        CALLS[what, True] += 1
        return True, answer

    def searchable(self, puzzle: Any) -> bool:
        """Small enough that any search of it ends in a moment."""
        if puzzle.family == "polyform":
            return len(puzzle.region) <= COUNTABLE_CELLS or puzzle.name in SMALL
        if puzzle.family == "edgematch":
            return puzzle.rows * puzzle.cols <= 9
        return puzzle.name in SMALL

    # -- puzzles ----------------------------------------------------------------------------------
    @initialize(target=puzzles)
    def first_puzzles(self):
        return multiple(*first()[0])

    @initialize(target=solutions)
    def first_solutions(self):
        return multiple(*first()[1])

    @rule(target=puzzles, name=arg(*SMALL, "eternity2", "no-such-puzzle", "p.svg", "c.jsonl"))
    def load(self, name):
        ok, puzzle = self.call("load", satiling.load, name)
        return puzzle if ok and self.searchable(puzzle) else multiple()

    @rule(target=puzzles, kwargs=keywords(
        board=(((1, 2), (2, 2), (1, 4), (3, 4), ["##.", "###"], [(0, 0), (0, 1)],
                {"rows": 2, "cols": 3}, (2, 2, 2)), ("#", (2,), (0, 5), (-1, 2), [(0, 0), (0, 0)], {"rows": 2})),
        pieces=(("tetrominoes", "soma", {"L": "##\n#.", "I": [(0, 0), (0, 1)]},
                 {"D": "##"}, {"D": "##"}, {"D": "##", "E": "##"},
                 ["tetrominoes", {"name": "D", "ascii": "##"}]),
                ({"X": (0, 0)}, {"": "#"}, {"A": ""}, ["tetrominoes", "soma"], [{"ascii": "#"}])),
        lattice=(("square", "square", "square", "triangle", "hexagon", "cubic"), ("drafter", "")),
        freedom=((None, "free", "one-sided", "fixed"), ("loose",)),
        topology=((None, None, None, "cylinder", "torus"), ("klein",)), wrap=((None,), ("torus", "x")),
        cells=(("exact", "at-most", "at-most"), ("at-least",)),
        pieces_rule=(("exact", "at-most", "at-most"), ("",)),
        placed=(((), (), [("D", [(0, 0), (0, 1)])]), ([("D", [(0, 0)])], [("Q", [(0, 0), (0, 1)])],
                                                       [{"piece": "D"}], "D", [("D", "ab")])),
        name=(("polyform", "mine"), ("", "a\0b")), title=(("", "t"), ())))
    def polyform(self, kwargs):
        ok, puzzle = self.call("Polyform", satiling.Polyform, **kwargs)
        return puzzle if ok and self.searchable(puzzle) else multiple()

    @rule(target=puzzles, kwargs=keywords(
        rows=((1, 2, 3), (0, -1, 2.0, 10 ** 6)), cols=((1, 2, 3), (0, True, "2")),
        pieces=((EDGE_PIECES, EDGE_PIECES[:2], [[0, 1, 1, 0], [0, 0, 1, 1]], [[0, 0, 0, 0]]),
                ([[0, 1, 2]], [[1, 1, 1, 1]] * 4, [], "pieces", [[0, -1, 0, 0]], [["a", 0, 0, 0]])),
        fixed=(((), [("A1", 1, 0)]), ([("A1", 9)], [("Z9", 1, 0)], [{"square": "A1"}], ["A1"])),
        hints=(((),), ([("A1", 1, 0, 5)],)), name=(("edgematch",), ("",)), title=(("",), ())))
    def edge_matching(self, kwargs):
        ok, puzzle = self.call("EdgeMatching", satiling.EdgeMatching, **kwargs)
        return puzzle if ok and self.searchable(puzzle) else multiple()

    @rule(kwargs=keywords(placed=(("TFIOGK", ["TFI", "OGK", "MIK", "JKE", "PLE"]), ("ZZZ", ["TFI", "TFI"],
                                                                                   "TF", [5])),
                          linked=((True, False), ("yes",)), name=(("iq",), ("",)), title=(("",), ())))
    def iqlink(self, kwargs):
        self.call("IQLink", satiling.IQLink, **kwargs)          # built, not searched (too slow)

    # -- searches -----------------------------------------------------------------------------------
    @rule(target=solutions, puzzle=puzzles, options=OPTIONS, kwargs=keywords(
        solver=SOLVERS, engine=ENGINES, time_limit=TIME, node_limit=((None,), (1000, 1, 0, 10 ** 19, 2.0)),
        seed=((None,), (7, 2 ** 70, -1)), threads=((None,), WORKERS[1] + (1,)), workers=WORKERS,
        proof=FILES))
    def solve(self, puzzle, options, kwargs):
        ok, found = self.call("solve", puzzle.solve, **kwargs, **options)
        if not ok or found is None:
            return multiple()
        assert isinstance(found, Solution) and puzzle.verify(found)
        return found

    @rule(target=checkpoints, puzzle=puzzles, options=OPTIONS, kwargs=keywords(
        raw=BOOL, symmetry=((None, "full", "rotations", "none"), ("mirror", "")), engine=ENGINES,
        solver=SOLVERS, workers=WORKERS, time_limit=COUNT_TIME, symmetry_breaking=BOOL,
        resume=FILES, progress=BOOL))
    def count(self, puzzle, options, kwargs):
        ok, counted = self.call("count", puzzle.count, **kwargs, **options)
        if not ok:
            return multiple()
        assert isinstance(counted, Count) and counted >= 0
        return counted.checkpoint if counted.checkpoint else multiple()

    @rule(puzzle=puzzles, resume=checkpoints)
    def resume_a_count(self, puzzle, resume):
        """A checkpoint of this puzzle goes on; one of another is refused."""
        ok, counted = self.call("count(resume)", puzzle.count, resume=resume)
        assert not ok or isinstance(counted, Count)

    @rule(target=solutions, puzzle=puzzles, options=OPTIONS, take=st.integers(0, 2), kwargs=keywords(
        raw=BOOL, symmetry=((None, "full", "rotations", "none"), ("mirror",)), engine=ENGINES,
        solver=SOLVERS, symmetry_breaking=BOOL))
    def solutions_listed(self, puzzle, options, take, kwargs):
        ok, listed = self.call("solutions", puzzle.solutions, **kwargs, **options)
        if not ok:
            return multiple()
        ok, first = self.call("next", lambda: list(itertools.islice(listed, take)))
        for s in first or ():
            assert isinstance(s, Solution) and puzzle.verify(s)
        return multiple(*(first or ()))

    @rule(puzzle=puzzles, options=OPTIONS, kwargs=keywords(
        method=(("auto", "exact", "sat", "enumerate"), ("dlx", "")), time_limit=COUNT_TIME))
    def forced(self, puzzle, options, kwargs):
        ok, held = self.call("forced", puzzle.forced, **kwargs, **options)
        assert not ok or isinstance(held, list)

    @rule(puzzle=puzzles, options=OPTIONS, kwargs=keywords(seed=((None, 3), (2 ** 70, -1, "1")),
                                                           time_limit=COUNT_TIME))
    def hint(self, puzzle, options, kwargs):
        self.call("hint", puzzle.hint, **kwargs, **options)

    # -- solutions, good and bad ------------------------------------------------------------------
    @rule(puzzle=puzzles, solution=solutions, change=st.sampled_from(
        ["as is", "json", "drop", "twice", "reversed", "text", "empty", "junk placement", "none"]),
        junk=JUNK)
    def verify(self, puzzle, solution, change, junk):
        changed = _changed(solution, change, junk)
        ok, answer = self.call("verify", puzzle.verify, changed)
        assert not ok or answer is True
        if change in ("as is", "json") and puzzle is solution.puzzle:
            assert ok                                   # its own solution, as given or as JSON

    @rule(puzzle=st.one_of(st.none(), puzzles), solution=st.one_of(solutions, solutions, JUNK),
          path=PATHS)
    def draw(self, puzzle, solution, path):
        """A puzzle draws a solution, its own (puzzle None) or another's."""
        if puzzle is None:
            puzzle = getattr(solution, "puzzle", first()[0][0])
        ok, svg = self.call("to_svg", puzzle.to_svg, solution, path)
        assert not ok or svg.startswith("<")

    @rule(puzzle=st.one_of(puzzles, puzzles, JUNK), solution=st.one_of(solutions, solutions, JUNK),
          colour=arg(None, "256", "truecolor"))
    def render(self, puzzle, solution, colour):
        self.call("render.to_svg", satiling.render.to_svg, puzzle, solution)
        self.call("render.to_text", satiling.render.to_text, puzzle, solution, colour)

    @rule(puzzle=st.one_of(puzzles, puzzles, JUNK), placements=st.one_of(solutions, solutions, JUNK),
          change=st.sampled_from(["as is", "json", "drop", "junk placement"]), junk=JUNK, path=PATHS)
    def solution_object(self, puzzle, placements, change, junk, path):
        if isinstance(placements, Solution):
            placements = _changed(placements, change, junk)
        ok, made = self.call("Solution", Solution, puzzle, placements)
        if ok:
            for what, f in (("text", made.text), ("str", made.__str__), ("to_json", made.to_json),
                            ("svg", lambda: made.to_svg(path)), ("repr_svg", made._repr_svg_)):
                self.call(what, f)

    @rule(puzzle=st.one_of(puzzles, puzzles, JUNK), options=OPTIONS,
          kwargs=keywords(solver=SOLVERS, time_limit=TIME))
    def solve_puzzle(self, puzzle, options, kwargs):
        ok, found = self.call("solve_puzzle", satiling.solve_puzzle, puzzle, **kwargs, **options)
        assert not ok or found is None or puzzle.verify(found)

    @rule(puzzle=puzzles)
    def describe(self, puzzle):
        self.call("repr", repr, puzzle)
        self.call("_repr_svg_", puzzle._repr_svg_)

    @invariant()
    def nothing_left_in_the_way(self):
        """A run never leaves a temporary file beside what it wrote."""
        assert not [p for p in os.listdir(".") if p.startswith(".") and p != ".hypothesis"]


def _changed(solution: Solution, change: str, junk: Any) -> Any:
    placements = list(solution)
    if change == "json":
        return solution.to_json()
    if change == "drop":
        return placements[1:]
    if change == "twice":
        return placements + placements[:1]
    if change == "reversed":
        return placements[::-1]
    if change == "text":
        return json.dumps(solution.to_json())
    if change == "empty":
        return []
    if change == "junk placement":
        return placements[:-1] + [junk]
    if change == "none":
        return None
    return placements


@pytest.fixture
def in_a_folder(tmp_path, monkeypatch):
    """Files the calls write (pictures, proofs, checkpoints) land in a folder of the test's own."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


FAST = settings(max_examples=30, stateful_step_count=20, deadline=None, derandomize=True,
                database=None, suppress_health_check=list(HealthCheck))


def _exercised() -> None:
    """The sample reached the searches, not only the refusals: a property that holds because
    every call was refused at its first argument would say little."""
    answered = {what for (what, ok), n in CALLS.items() if ok}
    assert {"solve", "count", "solutions", "verify", "to_svg"} <= answered, sorted(answered)


def test_any_sequence_of_calls_works_or_raises_a_satiling_error(in_a_folder):
    CALLS.clear()
    run_state_machine_as_test(Library, settings=FAST)
    _exercised()


@pytest.mark.slow
def test_many_sequences_of_calls_work_or_raise_a_satiling_error(in_a_folder):
    CALLS.clear()
    # derandomized, as the quick one: a random sample of 60 once reached no verify that answered,
    # and a run that fails by chance says nothing about the code
    run_state_machine_as_test(Library, settings=settings(
        max_examples=60, stateful_step_count=30, deadline=None, derandomize=True, database=None,
        suppress_health_check=list(HealthCheck)))
    _exercised()


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(name=JUNK, board=JUNK, pieces=JUNK, rows=JUNK, cols=JUNK, placed=JUNK, keyword=JUNK)
def test_any_arguments_to_the_constructors_work_or_raise_a_satiling_error(name, board, pieces, rows,
                                                                          cols, placed, keyword):
    for f in (lambda: satiling.load(name), lambda: satiling.Polyform(board, pieces),
              lambda: satiling.Polyform((1, 2), {"I": "##"}, lattice=keyword),
              lambda: satiling.Polyform((1, 2), {"I": "##"}, freedom=keyword, title=keyword),
              lambda: satiling.Polyform((1, 2), {"I": "##"}, wrap=keyword, topology=keyword),
              lambda: satiling.EdgeMatching(rows, cols, pieces),
              lambda: satiling.EdgeMatching(1, 2, [[0, 0, 0, 1], [0, 1, 0, 0]], hints=keyword),
              lambda: satiling.IQLink(placed), lambda: satiling.IQLink(linked=keyword, title=keyword)):
        try:
            f()
        except SatilingError:
            pass
