"""The closing repair (an experiment: ``pytest tools/experiments/test_repair.py``): its assignment
against brute force, and moves that never lower the score and keep a legal board."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "engines"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from repair import Repair, assign, repair  # noqa: E402

from satiling.apps.maximize import greedy_board  # noqa: E402
from satiling.apps.maximize import checked_score  # noqa: E402
from satiling.families.edgematch.score import score  # noqa: E402
from satiling.families.edgematch.generate import generate  # noqa: E402
from test_edgescore import _pinned  # noqa: E402


def test_assignment_is_optimal_against_brute_force():
    import itertools

    import numpy as np

    rng = np.random.default_rng(0)
    for _ in range(200):
        n = int(rng.integers(1, 7))
        m = n + int(rng.integers(0, 2))
        cost = rng.integers(0, 5, (n, m))
        to = assign(cost)
        best = min(sum(cost[i, p[i]] for i in range(n)) for p in itertools.permutations(range(m), n))
        assert len(set(to.tolist())) == n and sum(cost[i, to[i]] for i in range(n)) == best


def test_repair_moves_never_lose_and_keep_a_legal_board():
    gen = generate(7, 7, seed=5)
    pz = _pinned(gen, [(3, 3)])
    board = greedy_board(pz)
    rep = Repair(pz, board, {(3, 3)}, seed=1)
    start = rep.score()
    assert start == score(pz, board).matched
    for _ in range(60):
        before = rep.score()
        kind = int(rep.rng.integers(0, 3))
        gain = rep.move(rep.pick(kind, 12, rep.broken()))
        assert gain >= 0 and rep.score() == before + gain
    assert checked_score(pz, pz.tiles(rep.board())) == rep.score() >= start
    better, s = repair(pz, board, {(3, 3)}, 1.0, seed=2)
    assert checked_score(pz, pz.tiles(better)) == s >= start
