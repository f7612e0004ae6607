"""One vocabulary for engines: ``--engine`` on solve, count, enumerate and --maximize-matches, the
old spellings still working with one note after the run, and the router's choices."""
from __future__ import annotations

import contextlib
import io

import pytest

from satiling import catalog
from satiling.cli import main
from satiling.search import router


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("argv, by", [
    (("solve", "pentomino-3x20", "--engine", "walk"), "by walk"),
    (("solve", "clue1", "--engine", "backtrack"), "by backtrack"),
    (("solve", "clue1", "--engine", "sat"), "by cadical195"),
    (("solve", "clue1", "--engine", "sat", "--solver", "glucose"), "by glucose4"),
    (("solve", "clue1", "--engine", "race"), "first of"),
    (("solve", "clue1", "--engine", "cpsat", "--threads", "1"), "by cpsat"),
])
def test_solve_takes_engine(argv, by):
    code, out, err = run(*argv)
    assert code == 0 and by in err and "note" not in err


@pytest.mark.parametrize("old, new", [
    (("solve", "pentomino-3x20", "--solver", "walk"), "--engine walk"),
    (("solve", "clue1", "--solver", "race"), "--engine race"),
    (("solve", "clue1", "--maximize-matches", "rc2"), "--maximize-matches --engine rc2"),
])
def test_old_spellings_work_with_a_note(old, new):
    code, out, err = run(*old)
    assert code == 0
    notes = [line for line in err.splitlines() if line.startswith("satiling: note:")]
    assert len(notes) == 1 and new in notes[0]


def test_maximise_takes_engine():
    code, out, err = run("solve", "clue1", "--maximize-matches", "--engine", "rc2")
    assert code == 0 and "best score 60/60" in err


@pytest.mark.parametrize("argv", [
    ("solve", "clue1", "--engine", "lns"),
    ("solve", "clue1", "--maximize-matches", "--engine", "walk"),
    ("solve", "clue1", "--maximize-matches", "rc2", "--engine", "cpsat"),
    ("solve", "clue1", "--engine", "sat", "--solver", "cpsat"),
])
def test_engine_that_does_not_fit_is_one_line(argv):
    code, out, err = run(*argv)
    assert code == 2 and err.count("\n") == 1 and err.startswith("satiling: error:")


def test_router_choices():
    pentominoes, clue = catalog.load("pentomino-3x20"), catalog.load("clue1")
    assert router.settle(pentominoes.problem()) == "walk"
    assert router.settle(clue.problem()) == "sat"
    assert router.settle(clue.problem(encoding="compact")) == "sat"   # clauses: not the walk
    assert router.use_backtrack(clue, {}, "auto")
    assert not router.use_backtrack(clue, {}, "auto", counting=True)      # clue1 has equal pieces
    assert not router.use_backtrack(clue, {"balanced_rotation": True}, "auto")
    assert not router.use_backtrack(pentominoes, {}, "auto")
    assert router.maximise_engine(clue) == "cpsat"
    assert router.maximise_engine(catalog.load("eternity2")) == "backtrack"


@pytest.mark.parametrize("name, task, engine, solver, options, chosen", [
    ("pentomino-3x20", "solve", "auto", "auto", {}, "walk"),           # placements only
    ("pentomino-3x20", "count", "auto", "auto", {}, "walk"),
    ("pentomino-3x20", "solve", "auto", "glucose", {}, "sat"),         # a solver named runs
    ("pentomino-3x20", "solve", "auto", "highs", {}, "mip"),
    ("pentomino-3x20", "solve", "auto", "cpsat", {}, "cpsat"),
    ("pentomino-3x20", "solve", "auto", "cadical+glucose", {}, "race"),
    ("pentomino-3x20", "count", "auto", "cpsat", {}, "cpsat"),
    ("clue1", "solve", "auto", "auto", {}, "backtrack"),
    ("clue1", "solve", "auto", "auto", {"encoding": "compact"}, "sat"),   # clauses: the model tells
    ("clue1", "count", "auto", "auto", {"encoding": "direct"}, "sat"),   # not the backtracker's option
    ("iqlink-wizard", "solve", "auto", "auto", {}, "sat"),              # units beside the placements
    ("clue1", "maximise", "auto", "auto", {}, "cpsat"),
])
def test_choose_answers_with_an_engine_of_the_table_never_auto(name, task, engine, solver, options, chosen):
    """``choose`` settles ``auto`` itself (building the model where only it tells), and the solver
    a solve runs is one of the solver table's (or a race of them)."""
    from satiling.engines.table import TABLE, solver as solver_row
    from satiling.run import Request
    from satiling.run.engines import choose, solver_of
    req = Request(catalog.load(name), task, engine, solver, options)
    assert choose(req) == chosen and chosen in {e.name for e in TABLE}
    if task == "solve" and chosen != "backtrack":
        ran = solver_of(req, chosen)
        assert "+" in ran or ran == "race" or solver_row(ran) is not None, ran
