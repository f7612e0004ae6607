"""The library's answers to calls a user may get wrong: a model the exact-cover walk cannot read
goes to a solver that can, forced and hint never ask a symmetry-broken model, a Solution is
verified whoever builds it, a picture refuses another puzzle's placements, and data built in code
meets the instance files' rules."""
from __future__ import annotations

import pytest

import satiling
from satiling.api import Count, Forced
from satiling.errors import SatilingError, VerificationError
from satiling.search.solve import solve

EM_2X2 = [[0, 1, 2, 0], [0, 0, 3, 1], [2, 4, 0, 0], [3, 0, 0, 4]]


def _two_vars() -> tuple[satiling.Problem, int, int]:
    p = satiling.Problem("x")
    return p, p.new_var("a", primary=True), p.new_var("b", primary=True)


def test_a_group_of_at_most_none_is_solved_by_a_solver_that_reads_it():
    """The walk kills rows only as groups fill: it took both rows of a group allowing none."""
    p, a, b = _two_vars()
    p.cardinality([a, b], 0, 0)
    p.at_most_one([a, b])
    result = solve(p)
    assert result.status == "SAT" and result.solver != "walk"
    assert not result.true_vars & {a, b} and p.violations(result.true_vars) == []


@pytest.mark.parametrize("lo, hi", [(2, 1), (-1, 1), (1.5, 2), (True, 1)])
def test_a_cardinality_group_without_room_is_refused(lo, hi):
    p, a, b = _two_vars()
    with pytest.raises(SatilingError, match="0 <= lo <= hi"):
        p.cardinality([a, b], lo, hi)


def test_forced_and_hint_refuse_a_symmetry_broken_model():
    """Under fix_corner one solution of each class is kept: every tile of it looked forced."""
    board = satiling.EdgeMatching(2, 2, EM_2X2)
    assert board.count(raw=True) == 4 and board.forced() == []
    for ask in (board.forced, board.hint):
        with pytest.raises(SatilingError, match="symmetry class"):
            ask(fix_corner=True)


@pytest.mark.parametrize("value", ["x", 0, []])
def test_forced_and_hint_check_an_option_value_as_solve_does(value):
    puzzle = satiling.load("pentomino-3x20")
    for ask in (puzzle.forced, puzzle.hint):
        with pytest.raises(SatilingError, match="True or False"):
            ask(parity=value)


def test_a_solution_is_verified_whoever_builds_it():
    small, big = satiling.load("pentomino-3x20"), satiling.load("pentomino-6x10")
    mine, theirs = small.solve(), big.solve()
    assert len(satiling.Solution(small, mine)) == 12
    for wrong in (theirs, [], mine[:-1], mine + mine):
        with pytest.raises(SatilingError):
            satiling.Solution(small, wrong)


def test_a_picture_refuses_placements_that_are_not_the_puzzles():
    small, big = satiling.load("pentomino-3x20"), satiling.load("pentomino-6x10")
    mine = small.solve()
    assert small.to_svg(mine[:5]).lstrip().startswith(("<svg", "<?xml"))   # a partial one draws
    with pytest.raises(SatilingError, match="leaves the board"):
        small.to_svg(big.solve())
    with pytest.raises(SatilingError, match="do not have its shape"):
        small.to_svg([{"piece": "F", "cells": [[0, c] for c in range(5)]}])


@pytest.mark.parametrize("name, piece", [("pentomino-3x20", "F"), ("hexiamond-6x6", "C"), ("tetrahex-4x7", "I"),
                                         ("soma-cube", "A"), ("tetromino-cylinder-4x5", "I"), ("trinity", "210")])
def test_a_placement_without_cells_is_no_piece_on_any_lattice(name, piece):
    """A placement whose cell list is empty is not its piece: a VerificationError (one line,
    exit 1 from the command line), not an error from normalising no cells at all."""
    puzzle = satiling.load(name)
    with pytest.raises(VerificationError, match="do not have its shape"):
        puzzle.verify([{"piece": piece, "cells": []}])


@pytest.mark.parametrize("build", [
    lambda: satiling.Polyform({1: 2}, "pentominoes"),
    lambda: satiling.Polyform((1, 2), [{"name": "A", "ascii": "##", 1: 2}]),
    lambda: satiling.EdgeMatching(2, 2, EM_2X2, fixed=[{"square": "A1", "piece": 1, 7: 1}]),
])
def test_a_key_that_is_not_a_string_is_refused_in_one_line(build):
    with pytest.raises(SatilingError, match="is not a string") as e:
        build()
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("name", ["a\nb", "../x", "a/b"])
def test_a_name_given_in_code_meets_the_files_rule(name):
    with pytest.raises(SatilingError, match="a name is one line"):
        satiling.Polyform((3, 20), "pentominoes", name=name)


@pytest.mark.parametrize("kwargs, said", [
    ({"assumptions": [0]}, "an assumption is a literal"),
    ({"assumptions": ["a"]}, "an assumption is a literal"),
    ({"assumptions": [10 ** 7], "solver": "cadical"}, "an assumption is a literal"),   # grew to 3 GB
    ({"assumptions": "12"}, "assumptions are a list"),
    ({"node_limit": -1}, "node limit is a whole number"),
    ({"node_limit": True}, "node limit is a whole number"),
    ({"node_limit": 1.5}, "node limit is a whole number"),
])
def test_a_solve_of_a_model_checks_its_assumptions_and_node_limit(kwargs, said):
    problem = satiling.load("pentomino-3x20").problem()
    with pytest.raises(SatilingError, match=said):
        solve(problem, **kwargs)
    assert solve(problem, assumptions=[1]).status in ("SAT", "UNSAT")


def test_a_placement_without_cells_is_not_a_solution():
    puzzle = satiling.load("pentomino-3x20")
    found = puzzle.solve()
    with pytest.raises(SatilingError, match="its cells are not a list of cells"):
        puzzle.verify([type(found[0])(found[0].piece, None)] + list(found[1:]))


def _answer(**kw):
    from satiling.run import Stop
    from satiling.run.forced import ForcedAnswer
    return ForcedAnswer(**{"stop": Stop.DONE, "exists": True, **kw})


@pytest.mark.parametrize("args, said", [
    ((-1, "DONE"), "at least 0, not '-1'"),
    ((2.5, "DONE"), "whole number of solutions"),
    ((True, "DONE"), "whole number of solutions"),
    (("3", "DONE"), "whole number of solutions"),
    ((3, "done"), "stop is how the run ended"),
    ((3, "TIME", 5), "checkpoint is a file name or None"),
    ((3, "TIME", ""), "checkpoint is a file name or None"),
])
def test_a_count_that_can_never_be_is_refused(args, said):
    """``Count(-1, ...)`` and ``Count(2.5, ...)`` (made 2) were counts; a stop that is no Stop
    failed later, at ``.complete``."""
    from satiling.run import Stop
    total, stop, *rest = args
    stop = getattr(Stop, stop) if stop.isupper() else stop
    with pytest.raises(SatilingError, match=said):
        Count(total, stop, *rest)


def test_a_count_that_can_be_is_kept():
    from satiling.run import Stop
    assert (Count(0, Stop.DONE), Count(7, Stop.TIME, "c.run").checkpoint) == (0, "c.run")
    assert Count(7, Stop.TIME, "c.run").complete is False


@pytest.mark.parametrize("placements, answer, said", [
    ("AB", {}, "forced placements are a list of placements, not str"),
    (5, {}, "not int"),
    ([], None, "how their search ended"),
    (["X"], {"exists": False}, "without a solution has no forced placements"),
    ([], {"stop": "done"}, "stop is how the run ended"),
    ([], {"exists": 1}, "True, False or None"),
    ([], {"pinned": 5}, "the pinned placements are a list"),
])
def test_forced_placements_that_can_never_be_are_refused(placements, answer, said):
    """``Forced("AB", ...)`` was the list ['A', 'B']; an answer without a stop an AttributeError."""
    with pytest.raises(SatilingError, match=said):
        Forced(placements, None if answer is None else _answer(**answer))


def test_forced_placements_that_can_be_are_kept():
    forced = Forced(("X", "Y"), _answer(pinned=["X"]))
    assert (forced, forced.pinned, forced.complete, forced.exists) == (["X", "Y"], ["X"], True, True)
    assert Forced([], _answer(exists=False)).exists is False


@pytest.mark.parametrize("add, said", [
    (lambda p, a, b: p.add_clause([a, 0]), "literal 0 names no variable"),
    (lambda p, a, b: p.add_clause([a, 3]), "literal 3 names no variable of x \\(its variables are 1 to 2\\)"),
    (lambda p, a, b: p.add_clause([-3]), "literal -3"),
    (lambda p, a, b: p.add_clause([1.0]), "'1.0' is not a whole number"),
    (lambda p, a, b: p.add_clause([True]), "'True' is not a whole number"),
    (lambda p, a, b: p.add_clause("12"), "takes a list of literals, not str"),
    (lambda p, a, b: p.add_clause(1), "takes a list of literals, not int"),
    (lambda p, a, b: p.exactly_one([a, None]), "'None' is not a whole number"),
    (lambda p, a, b: p.at_most_one([a, b, 7]), "literal 7"),
    (lambda p, a, b: p.cardinality([a, 0], 0, 1), "literal 0"),
    (lambda p, a, b: p.cardinality(list(range(1, 3)) * 20 + [0], 0, 1), "literal 0"),   # a long group
    (lambda p, a, b: p.cardinality([a] * 20 + [2.0], 0, 1), "'2.0' is not a whole number"),
    (lambda p, a, b: p.fix(0), "literal 0"),
    (lambda p, a, b: p.fix(False), "'False' is not a whole number"),
    (lambda p, a, b: p.restrict(-9), "literal -9"),
    (lambda p, a, b: p.add_linear([(1, -a)], 0, 1), "variables, not negated literals"),
    (lambda p, a, b: p.add_linear([(1.5, a)], 0, 1), "'1.5' is not a whole number"),
    (lambda p, a, b: p.add_linear([a], 0, 1), "\\(coefficient, variable\\) pairs"),
])
def test_a_literal_that_names_no_variable_is_refused_when_added(add, said):
    """0, a bool, a float or a variable the model lacks was taken as it was added and failed at
    solve time (a RuntimeError from inside the solver) or, for True and 5, not at all."""
    p, a, b = _two_vars()
    with pytest.raises(SatilingError, match=said):
        add(p, a, b)
    assert (p.groups, p.clauses, p.units, p.linears) == ([], [], [], [])


def test_literals_a_model_has_are_kept():
    import numpy as np
    p, a, b = _two_vars()
    p.add_clause([a, -b])
    p.add_clause(np.array([b]))                       # numpy integers read as whole numbers
    p.add_clause([])                                  # the empty clause: a model without solutions
    p.cardinality(list(range(1, 3)) * 20, 0, 40)
    p.add_linear([(2, a), (3, b)], 0, 4)
    assert p.clauses == [(a, -b), (b,), ()] and type(p.clauses[1][0]) is int
    assert p.groups[0].lits == (1, 2) * 20 and p.linears[0].terms == ((2, a), (3, b))
