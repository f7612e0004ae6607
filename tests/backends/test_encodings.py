"""The encodings pages state exact sizes; the code must produce them."""
import re
from math import comb
from pathlib import Path

import pytest

from satiling import load
from satiling.backends.cnf import CnfEncoder

PAGE = Path(__file__).resolve().parents[2] / "encodings" / "exact-cover.md"


def table_rows():
    text = PAGE.read_text().split("## Exact sizes", 1)[1]
    for line in text.splitlines():
        m = re.match(r"\| ([\w-]+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|", line)
        if m:
            yield m.group(1), tuple(int(x) for x in m.groups()[1:])


@pytest.mark.parametrize("name,sizes", list(table_rows()))
def test_stated_sizes(name, sizes):
    puzzle = load(name)
    problem = puzzle.problem()
    enc = CnfEncoder(problem)
    n_clauses = sum(1 for _ in enc.clauses())
    assert (len(puzzle.placements()), len(problem.groups), enc.top, n_clauses) == sizes
    # and the formula on the page: one ALO plus n(n-1)/2 binary clauses per group
    assert n_clauses == sum(1 + comb(len(g.lits), 2) for g in problem.groups)


@pytest.mark.parametrize("name,options,amo,limit", [
    ("tetromino-4x5", {}, "pairwise", 500),
    ("pentomino-6x10", {}, "pairwise", 40),          # groups above 40 literals take the ladder
    ("tetromino-4x45", {"parity": True}, "pairwise", 500),   # linear constraints (PBEnc)
    ("clue1", {"colour_counts": True}, "pairwise", 20),      # auxiliary colour variables
    ("clue1", {}, "seqcounter", 500),
])
def test_size_without_producing_the_clauses(name, options, amo, limit):
    """The DIMACS header's counts come from CnfEncoder.size(), which never lists the clauses."""
    problem = load(name).problem(**options)
    produced = CnfEncoder(problem, amo, pairwise_limit=limit)
    n_clauses = sum(1 for _ in produced.clauses())
    assert CnfEncoder(problem, amo, pairwise_limit=limit).size() == (produced.top, n_clauses)
