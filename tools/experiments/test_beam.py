"""Selby's beam search (an experiment: ``pytest tools/experiments/test_beam.py``), held to published tiling counts and to the solutions stored with the data.

With no limit on the width and nothing left to exhaust, the beam is a breadth-first walk of the
whole search tree, so its last level must hold every tiling: Trinity, Whale and Boat have one,
Serenity twelve (Burkardt & Garvie's boards, counted by exhaustive SAT with the data); the
pentominoes tile 3x20 in 2 ways and 4x15 in 368 (Haselgrove 1960; Knuth's "Dancing links"), four
raw tilings each under the rectangle's symmetries; the five tetrominoes cannot tile 4x5 (Golomb).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))   # the Eternity data helper
sys.path.insert(0, str(Path(__file__).resolve().parent))
from beam import (Board, Weights, beam_search, compiled_exhaust, dfs_exhaust,  # noqa: E402
                  piece_tilability, root)
from eternity_data import DATA, data_solution  # noqa: E402

from satiling import SatilingError, load  # noqa: E402

RAW_TILINGS = {"trinity": 1, "whale": 1, "serenity": 12, "boat": 1, "pentomino-3x20": 8}


def stored(puzzle) -> set[frozenset]:
    entries = json.loads((DATA / "solutions" / f"{puzzle.name}.json").read_text())["solutions"]
    return {frozenset(data_solution(puzzle, e)) for e in entries}


def every_leaf(board: Board) -> list[list]:
    """The last level of an unbounded beam, each state checked complete and verified (the
    exhaust below only records the states it is given)."""
    states = []
    result = beam_search(board, width=10**9, exhaust_at=0,
                         exhaust=lambda b, s, n: (states.append(s) or None, True, 0))
    assert result.favourable == len(states)
    assert all(not s.open for s in states)
    return [board.solution(s.rows) for s in states]


@pytest.mark.parametrize("name", sorted(RAW_TILINGS))
def test_unbounded_beam_reaches_every_tiling(name):
    tilings = every_leaf(Board(load(name)))
    assert len({frozenset(t) for t in tilings}) == len(tilings) == RAW_TILINGS[name]


def test_unbounded_beam_finds_the_stored_tilings():
    for name in ("serenity", "boat"):
        puzzle = load(name)
        assert {frozenset(t) for t in every_leaf(Board(puzzle))} == stored(puzzle)


@pytest.mark.parametrize("name,width,exhaust_at", [("whale", 5, 3), ("boat", 10, 8), ("serenity", 3, 4)])
def test_narrow_beam_then_exhaust_finds_the_stored_tiling(name, width, exhaust_at):
    puzzle = load(name)
    result = beam_search(Board(puzzle), width=width, exhaust_at=exhaust_at)
    assert result.status == "SAT"
    puzzle.verify(result.tiling)
    assert frozenset(result.tiling) in stored(puzzle)


def test_sampled_tilability_still_finds_boat():
    puzzle = load("boat")
    board = Board(puzzle)
    weights = Weights(piece_tilability(board, samples=20, seed=3), roughness=2.0)
    assert len(weights.tilability) == 21 and abs(sum(weights.tilability)) < 1e-9
    result = beam_search(board, width=8, exhaust_at=10, weights=weights)
    assert result.status == "SAT" and frozenset(result.tiling) in stored(puzzle)


def test_fixed_placements_start_every_state():
    puzzle = load("boat")
    solution = sorted(next(iter(stored(puzzle))))
    board = Board(puzzle)
    result = beam_search(board, width=4, exhaust_at=5, fixed=solution[:3])
    assert result.status == "SAT" and set(solution[:3]) <= set(result.tiling)
    with pytest.raises(SatilingError):
        root(board, [solution[0], solution[0]])


def test_no_tiling_of_4x5_by_the_five_tetrominoes():
    result = beam_search(Board(load("tetromino-4x5")), width=10**9, exhaust_at=0)
    assert result.status == "UNSAT" and result.tiling == []


def test_exhaust_budget_stops_and_says_so():
    board = Board(load("boat"))
    rows, finished, nodes = dfs_exhaust(board, root(board), budget=3)
    assert (rows, finished, nodes) == (None, False, 3)
    rows, finished, _ = dfs_exhaust(board, root(board), budget=10**6)
    assert finished and frozenset(board.solution(rows)) in stored(load("boat"))


@pytest.mark.parametrize("name,exhaust_at", [("boat", 17), ("pentomino-3x20", 8)])
def test_compiled_and_python_exhausts_agree_on_every_state(name, exhaust_at):
    board = Board(load(name))
    states = []
    beam_search(board, width=10**9, exhaust_at=exhaust_at,
                exhaust=lambda b, s, n: (states.append(s) or None, True, 0))
    compiled = compiled_exhaust(board)
    assert len(states) >= 4
    for state in states:
        ours, done, _ = dfs_exhaust(board, state, 10**6)
        theirs, done2, _ = compiled(board, state, 10**6)
        assert done and done2 and (ours is None) == (theirs is None)
        if theirs is not None:
            board.solution(theirs)                   # verified
    budget_hit = compiled(board, root(board), 5)
    assert budget_hit[:2] == (None, False)


def test_beam_needs_an_exact_polyform_cover():
    with pytest.raises(SatilingError):
        Board(load("iqlink-starter"))
