"""The compiled exact-cover engine (satiling/engines/_exactcover.c), held to outside answers and to
the readable Python walk.

Outside answers: raw counts from the literature -- 8x8 minus the centre 520 (Scott 1958, Knuth's
"Dancing Links"), the hexiamonds in the 6x6 rhombus 156 x 4 = 624 (Knuth), Serenity 12 (its
instance notes); the pentominoes and the 2x2 square in 8x8, 16146 up to symmetry (Polyform
Puzzler), are in tests/test_counts.py.  The pocket cut must lose none of them, with either search
(bitboards or dancing links).  Everything else is checked against :class:`satiling.engines.exactcover_ref.Walk`, which shares no code with
the engine.
"""
from __future__ import annotations

import dataclasses

import pytest

from satiling import catalog
from satiling.engines.exactcover import Board, ExactCover, Matrix, matrix_of
from satiling.search.cubes import CubeSpace
from satiling.engines.exactcover_ref import Walk

#: bundled boards the Python walk enumerates within a second or so (restricted by symmetry); and
#: Serenity, a board of Eternity drafters (876 placements, 3 s)
SMALL = 700


def engine_for(name: str, strategy: str = "auto", restricted: bool = True, pocket: bool = True):
    puzzle = catalog.load(name)
    problem = CubeSpace(puzzle).problem if restricted else puzzle.problem()
    matrix = matrix_of(problem, puzzle.cover_board(problem) if pocket else None)
    return problem, ExactCover(dataclasses.replace(matrix, strategy=strategy))


#: what :func:`small_boards` gives, written out so that collecting the tests builds no puzzle
#: (Eternity's 1.4 M placements took 17 s at collection); ``test_small_boards_are_listed`` (slow)
#: holds the list to the catalogue
SMALL_BOARDS = ("soma-cube", "tetracube-2x2x8", "tetrahex-4x7", "tetrahex-triangle7", "tetromino-4x10",
                "tetromino-cylinder-4x5", "trinity", "serenity")


def small_boards() -> list[str]:
    """Bundled boards with few placements that no parity argument rules out (those trees are
    huge: that is why the argument is applied before any search)."""
    out = []
    for name, _ in catalog.available():
        puzzle = catalog.load(name)
        if (puzzle.family == "polyform" and len(puzzle.placements()) <= SMALL
                and puzzle.obstruction() is None):
            out.append(name)
    return out + ["serenity"]


# -- outside answers --------------------------------------------------------------------------------
@pytest.mark.parametrize("strategy", ["bitboard", "links"])
@pytest.mark.parametrize("name, raw", [
    ("pentomino-8x8-centre", 65 * 8),     # 65 distinct, each in 8 orientations of the square
    ("hexiamond-6x6", 156 * 4),           # 156 distinct, 4 symmetries of the rhombus
])
def test_raw_counts_with_the_pocket_cut(name, raw, strategy):
    _, engine = engine_for(name, strategy, restricted=False)
    assert engine.count() == raw
    assert engine.stats().cuts > 0                # the cut was at work


def test_serenity_raw_count_by_dancing_links():
    _, engine = engine_for("serenity", restricted=False)
    assert not engine.matrix.bitboard_fits()      # 876 drafter cells: dancing links
    assert engine.count() == 12


# -- the engine against the Python walk ----------------------------------------------------------
@pytest.mark.slow
def test_small_boards_are_listed():
    assert tuple(small_boards()) == SMALL_BOARDS


@pytest.mark.parametrize("name", SMALL_BOARDS)
def test_engine_and_walk_agree_on_every_small_board(name):
    """The same solutions of the symmetry-restricted problem, with the pocket cut and without it,
    by bitboards and by dancing links."""
    problem, engine = engine_for(name)
    expected = set(Walk(problem).solutions())
    runs = [("links", True), ("links", False)]
    if engine.matrix.bitboard_fits():
        runs.append(("bitboard", True))           # (the bitboard search needs the board)
    for strategy, pocket in runs:
        _, e = engine_for(name, strategy, pocket=pocket)
        found = [frozenset(r + 1 for r in rows) for rows in e.solutions()]
        assert len(found) == len(set(found)) and set(found) == expected, (strategy, pocket)


@pytest.mark.parametrize("name", ["tetromino-4x10", "tetrahex-4x7", "pentomino-4x15"])
def test_cubes_partition_the_solutions(name):
    """Every solution lies in exactly one cube, and the cubes are the same on every call."""
    problem, engine = engine_for(name)
    whole = {frozenset(s) for s in engine.solutions()}
    cubes = engine.cubes(fraction=1 / 50, least=0)            # split even a small tree
    assert len(cubes) > 1 and all(size >= 0 for _, size in cubes)
    pieces = [frozenset(rows) for cube, _ in cubes for rows in engine.solutions(cube)]
    assert len(pieces) == len(whole) and set(pieces) == whole
    assert engine.cubes(fraction=1 / 50, least=0) == cubes


def test_multiplicities_branch_in_or_out():
    """Exactly-k items (two copies of each tetromino) under dancing links: binary branching."""
    problem, engine = engine_for("tetromino-4x10", "links", restricted=False)
    assert max(engine.matrix.hi) == 2
    assert {frozenset(r + 1 for r in s) for s in engine.solutions()} == set(Walk(problem).solutions())


def test_assumptions_force_rows_in_and_out():
    problem, engine = engine_for("pentomino-3x20", restricted=False)
    first = engine.first()
    assert first is not None
    half = sorted(first)[:6]
    again = engine.first(half)
    assert set(half) <= set(again)
    assert engine.first([-(r + 1) for r in first]) != first
    assert engine.first([first[0], -(first[0] + 1)]) is None      # in and out: contradiction


def test_calls_cut_by_nodes_or_by_time_give_the_same_answers():
    """The compiled search stops after a node budget ("nodes") or a slice of time ("time", seen by
    its clock between nodes) and goes on where it stopped, to the same solutions."""
    _, engine = engine_for("pentomino-4x15")
    whole = sorted(sorted(s) for s in engine.solutions())
    for budget, seconds in ((97, 0.0), (0, 1e-6)):
        assert engine.start()
        found, statuses = [], set()
        while True:
            batch, status = engine._engine.run(budget, 0, True, seconds)
            found += batch
            statuses.add(status)
            if status == "done":
                break
        assert sorted(sorted(s) for s in found) == whole
        assert statuses == {"nodes" if budget else "time", "done"}


def test_progress_grows_to_the_end():
    _, engine = engine_for("pentomino-4x15")
    seen = []
    found = list(engine.solutions(progress=seen.append))
    assert len(found) == engine.count() > 0
    assert seen == sorted(seen) and 0 <= seen[0] and seen[-1] == 1.0


def test_a_stop_in_the_middle_leaves_the_engine_usable():
    """An exception from the progress callback (Ctrl-C, a time limit) ends the search between two
    batches; the next start() unwinds what was applied."""
    _, engine = engine_for("pentomino-5x12")
    total = engine.count()

    def stop(part: float) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        for _ in engine.solutions(progress=stop):
            pass
    assert engine.count() == total > 1000


def test_knuths_estimate_is_near_the_tree_size():
    """The mean of many random paths estimates the number of nodes the search tries."""
    for strategy in ("bitboard", "links"):
        _, engine = engine_for("tetrahex-4x7", strategy, restricted=False)
        engine.count()
        nodes = engine.stats().nodes
        estimate = engine.estimate(probes=20000, seed=7)
        assert 0.8 * nodes < estimate < 1.25 * nodes, (strategy, nodes, estimate)


# -- the matrix ------------------------------------------------------------------------------------
def test_items_with_bounds_and_optional_rows():
    """lo..hi bounds: item 0 exactly once, item 1 at most once, item 2 twice; rows beyond the
    needs (on at-most items only) may be in or out, as the walk says."""
    m = Matrix(rows=[(0,), (0, 1), (2,), (2,), (2, 1), (1,)], lo=[1, 0, 2], hi=[1, 1, 2])
    found = sorted(sorted(s) for s in ExactCover(m).solutions())
    expected = sorted(sorted(s) for s in _brute_force(m))
    assert found == expected and len(found) > 3


def _brute_force(m: Matrix):
    n = len(m.rows)
    for bits in range(1 << n):
        rows = [r for r in range(n) if bits >> r & 1]
        taken = [sum(i in m.rows[r] for r in rows) for i in range(len(m.lo))]
        if all(lo <= t <= hi for lo, t, hi in zip(m.lo, taken, m.hi)):
            yield rows


def test_bad_matrices_are_refused():
    with pytest.raises(ValueError):
        ExactCover(Matrix(rows=[(0,), ()], lo=[1], hi=[1]))           # a row without items
    with pytest.raises(ValueError):
        ExactCover(Matrix(rows=[(3,)], lo=[1], hi=[1]))               # an unknown item
    with pytest.raises(ValueError):
        ExactCover(Matrix(rows=[(0,)], lo=[2], hi=[1]))               # lo > hi
    board = Board(cells=[0], neighbours=[[5]], areas={1: 1})
    with pytest.raises(ValueError):
        ExactCover(Matrix(rows=[(0,)], lo=[1], hi=[1], board=board))  # a neighbour off the board


def test_a_problem_with_auxiliary_variables_is_no_matrix():
    puzzle = catalog.load("clue1")
    assert matrix_of(puzzle.problem()) is None


def test_tilings_of_drafter_boards_are_verified(cli):
    """The engine is the default solver on exact covers; its tiling passes the verifier."""
    for name in ("boat", "whale"):
        r = cli("solve", name, "--solver", "walk", "--json")
        assert r.returncode == 0, r.stderr
        assert '"placements"' in r.stdout


def test_cubes_with_optional_pieces_on_a_bitboard():
    """A strip of 4 cells: dominoes A and B used once, monominoes C and D at most once.  The first
    split may branch on a piece only if every solution uses it once: never on C or D."""
    rows = [(0, 1, 4), (1, 2, 4), (2, 3, 4), (0, 1, 5), (1, 2, 5), (2, 3, 5)]
    rows += [(c, 6) for c in (2, 3)] + [(c, 7) for c in range(4)]     # C: fewer places than cell 0
    board = Board(cells=[0, 1, 2, 3], neighbours=[[1], [0, 2], [1, 3], [2]], areas={2: 2, 1: 2})
    m = Matrix(rows=rows, lo=[1, 1, 1, 1, 1, 1, 0, 0], hi=[1] * 8, board=board, strategy="bitboard")
    engine = ExactCover(m)
    expected = sorted(sorted(s) for s in _brute_force(m))
    assert sorted(sorted(s) for s in engine.solutions()) == expected
    cubes = engine.cubes(least=0)
    assert sorted(sorted(s) for cube, _ in cubes for s in engine.solutions(cube)) == expected


def test_a_node_cap_stops_the_search_and_says_so():
    _, engine = engine_for("pentomino-6x10")
    some = engine.count(max_nodes=5000)
    assert not engine.stats().finished and 5000 <= engine.stats().nodes < 5000 + 100
    assert some < engine.count() == 2339 and engine.stats().finished
    assert engine.first(max_nodes=10**9) is not None and engine.stats().finished is False


@pytest.mark.parametrize("name, board", [("pentomino-3x20", True), ("pentomino-3x20", False),
                                         ("tetromino-4x10", False),
                                         pytest.param("soma-cube", False, marks=pytest.mark.slow)])
def test_where_a_paused_search_stands_partitions_what_is_left(name, board):
    # remaining(): the cubes below the path of a paused search hold exactly the solutions it has
    # not met yet (n-ary and in/out branchings, bitboards and dancing links, paused by a node
    # budget or after a number of solutions)
    from satiling import load
    puzzle = load(name)
    problem = puzzle.problem()
    matrix = matrix_of(problem, puzzle.cover_board(problem) if board else None)
    engine = ExactCover(matrix)
    assert bool(matrix.search_board()) == board
    every = {tuple(sorted(s)) for s in engine.solutions()}
    assert engine.remaining() == []                    # done: nothing left
    for budget, most in ((1, 0), (7, 0), (60, 0), (500, 0), (0, 1), (0, 3)):
        engine.start()
        assert engine.remaining() == [()]              # not begun: everything left
        met, status = engine._engine.run(budget, most, True, 0.0)
        met = {tuple(sorted(s)) for s in met}
        rest = [tuple(sorted(s)) for cube in engine.remaining()
                for s in ExactCover(matrix).solutions(cube)]
        assert not met & set(rest) and len(rest) == len(set(rest))
        assert met | set(rest) == every, (budget, most, status)
