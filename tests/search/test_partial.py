"""The live picture of a search (``Events.partial``): every snapshot is a partial solution,
checked against the puzzle's own placements and rules (never the engine's rows), snapshots come
while a count runs, no faster than the pace set, and a run with a watcher gives the answers of
one without."""
from collections import Counter

import pytest

import satiling
from satiling.engines import PARTIAL_SECONDS
from satiling.run.request import Request
from satiling.run.tasks import Events, count, enumerate_solutions, maximise


class Enough(Exception):
    """Raised by a watcher that has seen enough: the run ends there."""


def assert_partial_covers(puzzle, snapshots) -> None:
    """Each snapshot: placements the puzzle has (its geometry's list), pairwise disjoint, no
    piece used more often than it has copies: part of a cover of the board."""
    legal = set(puzzle.placements())
    copies = {p.name: p.count for p in puzzle.pieces}
    assert snapshots
    for placements in snapshots:
        assert placements and all(pl in legal for pl in placements), placements
        cells = [cell for pl in placements for cell in pl.cells]
        assert len(cells) == len(set(cells)), placements
        used = Counter(pl.piece for pl in placements)
        assert all(n <= copies[name] for name, n in used.items()), used


def assert_partial_boards(puzzle, snapshots, joins: bool = True) -> None:
    """Each snapshot: pieces of the puzzle on squares where its rules allow them (the colours of
    one of its legal placements there), no square or piece twice, and (``joins``) every join
    between two of them matching: part of a board, as the puzzle sees it."""
    legal: dict = {}
    for t in puzzle.placements():
        legal.setdefault((t.row, t.col, t.piece), set()).add(puzzle.edges(t.piece, t.rotation))
    assert snapshots
    for tiles in snapshots:
        _assert_partial_board(puzzle, legal, tiles, joins)


def _assert_partial_board(puzzle, legal: dict, tiles, joins: bool) -> None:
    assert tiles and all(puzzle.edges(t.piece, t.rotation) in legal.get((t.row, t.col, t.piece), ())
                         for t in tiles), tiles
    at = {(t.row, t.col): t for t in tiles}
    assert len(at) == len(tiles) == len({t.piece for t in tiles}), tiles
    sides = ((1, (0, 1)), (2, (1, 0))) if joins else ()              # its E and S joins
    for (r, c), t in at.items():
        for side, (dr, dc) in sides:
            other = at.get((r + dr, c + dc))
            if other is not None:
                assert puzzle.edges(t.piece, t.rotation)[side] == \
                    puzzle.edges(other.piece, other.rotation)[(side + 2) % 4], (t, other)


def generated(tmp_path, rows: int, cols: int, frame: int, inner: int, seed: int):
    from satiling.families.edgematch.generate import generate, instance_toml
    path = tmp_path / f"g{rows}x{cols}-{seed}.toml"
    path.write_text(instance_toml(generate(rows, cols, frame, inner, seed)))
    return satiling.load(str(path))


def watched(limit: int) -> tuple[list, callable]:
    """A watcher keeping (time, placements), and raising :class:`Enough` after ``limit`` of them."""
    import time
    seen: list = []

    def show(placements):
        seen.append((time.monotonic(), list(placements)))
        if len(seen) >= limit:
            raise Enough
    return seen, show


def test_snapshots_of_a_count_are_partial_covers_at_the_pace_set():
    """A count of the pentominoes and the 2x2 square in 8x8 (seconds of search) shows its board
    again and again; each snapshot is part of a cover, and none comes sooner than the pace allows
    (the rate is an upper bound the run enforces, not a measurement)."""
    puzzle = satiling.load("pentomino-8x8-square")
    seen, show = watched(4)
    with pytest.raises(Enough):
        count(Request(puzzle, "count"), Events(partial=show))
    assert len(seen) == 4
    assert_partial_covers(puzzle, [placements for _, placements in seen])
    gaps = [b - a for (a, _), (b, _) in zip(seen, seen[1:])]
    assert min(gaps) >= 0.95 * PARTIAL_SECONDS, gaps
    assert len({tuple(p) for _, p in seen}) > 1          # the board changes as the search goes


@pytest.mark.slow
def test_a_whole_count_with_a_watcher_has_the_published_count():
    puzzle = satiling.load("pentomino-8x8-square")
    seen: list = []
    answer = count(Request(puzzle, "count"), Events(partial=seen.append))
    assert answer.stop.complete and answer.total == 16146        # Polyform Puzzler's count
    assert len(seen) >= 2
    assert_partial_covers(puzzle, seen)


def test_an_enumeration_with_a_watcher_lists_what_one_without_lists():
    """The same solutions in the same order, each still verified, with or without a watcher."""
    puzzle = satiling.load("pentomino-5x12")
    plain: list = []
    enumerate_solutions(Request(puzzle, "enumerate"), Events(solution=plain.append))
    watched_out, shown = [], []
    enumerate_solutions(Request(puzzle, "enumerate"),
                        Events(solution=watched_out.append, partial=shown.append))
    assert len(plain) == 1010 and watched_out == plain           # Fletcher's 1010 up to symmetry
    assert_partial_covers(puzzle, shown)                          # the first look shows at once


def test_a_solver_engine_shows_nothing_and_counts_the_same():
    """SAT solvers have no board to show between two answers: no snapshot, the same count."""
    puzzle = satiling.load("tetromino-cylinder-4x5")
    shown: list = []
    answer = count(Request(puzzle, "count", "sat"), Events(partial=shown.append))
    assert answer.total == 7 and shown == []                     # as the compiled engine counts


def test_the_engine_shows_its_rows_and_stops_when_told():
    """The compiled exact-cover search's own watcher: rows it has taken, each a row of the matrix,
    no item met twice; watch(None) ends it; a watcher that is not callable is refused."""
    from satiling.engines.exactcover import ExactCover
    from satiling.search.cubes import CubeSpace
    space = CubeSpace(satiling.load("pentomino-4x15"))
    engine = space.exact_cover()
    rows: list = []
    engine.watch(rows.append, 0.0)                     # at every look
    engine.count()
    assert rows
    for taken in rows:
        items = [i for r in taken for i in engine.matrix.rows[r]]
        assert len(items) == len(set(items))
    engine.watch(None)
    rows.clear()
    engine.count()
    assert rows == []
    with pytest.raises(TypeError):
        engine.watch(42)
    assert isinstance(engine, ExactCover)


@pytest.mark.parametrize("task", ["count", "enumerate"])
def test_snapshots_of_the_backtracker_are_partial_boards(tmp_path, task):
    """A generated 6x6 board (seconds of search): the edge-matching backtracker shows its board
    again and again, each a part of a board by the puzzle's rules, the pinned corner in place."""
    puzzle = generated(tmp_path, 6, 6, 3, 4, 1)
    seen, show = watched(3)
    run = {"count": count, "enumerate": enumerate_solutions}[task]
    with pytest.raises(Enough):
        run(Request(puzzle, task, "backtrack"), Events(partial=show))
    assert_partial_boards(puzzle, [tiles for _, tiles in seen])
    gaps = [b - a for (a, _), (b, _) in zip(seen, seen[1:])]
    assert min(gaps) >= 0.95 * PARTIAL_SECONDS, gaps


def test_the_backtracker_with_a_watcher_lists_what_one_without_lists(tmp_path):
    puzzle = generated(tmp_path, 5, 5, 2, 4, 1)
    plain: list = []
    enumerate_solutions(Request(puzzle, "enumerate", "backtrack"), Events(solution=plain.append))
    watched_out, shown = [], []
    enumerate_solutions(Request(puzzle, "enumerate", "backtrack"),
                        Events(solution=watched_out.append, partial=shown.append))
    assert len(plain) > 100 and watched_out == plain
    assert_partial_boards(puzzle, shown)


@pytest.mark.parametrize("threads", [1, 2])
def test_snapshots_of_the_scoring_search_are_boards_on_their_way(threads):
    """A maximisation of Eternity II by the scoring search (one process, or two with the first
    one's board sent back): its board shown again and again, pieces where the rules allow them,
    none twice (its joins may break: that is the search)."""
    puzzle = satiling.load("eternity2")
    seen, show = watched(3)
    with pytest.raises(Enough):
        maximise(Request(puzzle, "maximise", "backtrack", time_limit=60, threads=threads),
                 Events(partial=show))
    assert_partial_boards(puzzle, [tiles for _, tiles in seen], joins=False)
    gaps = [b - a for (a, _), (b, _) in zip(seen, seen[1:])]
    assert min(gaps) >= 0.95 * PARTIAL_SECONDS, gaps


def test_a_maximisation_with_a_watcher_proves_the_same_best_board(tmp_path):
    """A 5x5 board is searched whole, to the proof of its best score: the same with a watcher."""
    puzzle = generated(tmp_path, 5, 5, 3, 4, 2)
    plain = maximise(Request(puzzle, "maximise", "backtrack", threads=1))
    shown: list = []
    watched_max = maximise(Request(puzzle, "maximise", "backtrack", threads=1), Events(partial=shown.append))
    assert plain.status == watched_max.status == "OPTIMAL"
    assert plain.score == watched_max.score and plain.solution == watched_max.solution
    assert_partial_boards(puzzle, shown, joins=False)
