"""The compiled edge-matching backtracker.

Answers come from outside the engine: the SAT engine's counts (``count --engine sat``), the plain
Python reference search (same solutions in the same order, same node counts), the verifier, and
the official clue puzzles.
"""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from satiling import catalog
from satiling.cli import main
from satiling.engines.edgematch import ORDERS, EdgeBoard, Engine, run_jobs, split
from satiling.engines.edgematch_ref import Reference
from satiling.families.edgematch import Tile
from satiling.families.edgematch.generate import generate, instance_toml


def board_of(puzzle, fixed=(), order="auto") -> EdgeBoard:
    return EdgeBoard(puzzle.rows, puzzle.cols, tuple(puzzle.pieces), tuple(fixed), order)


def instance(tmp_path, rows, cols, seed, **colours) -> str:
    gen = generate(rows, cols, colours.get("frame"), colours.get("inner"), seed)
    path = tmp_path / f"g{rows}x{cols}-{seed}.toml"
    path.write_text(instance_toml(gen, "test"))
    return str(path)


def count(board: EdgeBoard) -> tuple[int, str, int]:
    """(solutions, how the search ended, nodes) of a whole board by the engine."""
    engine = Engine(board)
    status = engine.solutions()
    return engine.search.solutions, status, engine.nodes


def cli_count(capsys, *args) -> int:
    capsys.readouterr()
    code = main(["count", *args, "--quiet"])
    assert code in (0, 1)
    return int(capsys.readouterr().out.split()[0])


@pytest.mark.parametrize("rows, cols, seed, order, inner", [
    (4, 4, 1, "rows", None), (4, 5, 2, "columns", 6), (5, 5, 1, "rows-up", 7),
    (4, 4, 2, "spiral", None), (4, 4, 3, "frame", None), (4, 6, 4, "columns-left", 7),
    (5, 5, 4, "auto", 7)])
def test_compiled_search_equals_the_reference(rows, cols, seed, order, inner):
    pz = generate(rows, cols, None, inner, seed).puzzle()
    board = board_of(pz, order=order)
    eng = Engine(board)
    found = []
    assert eng.solutions(on_solution=found.append) == "exhausted"
    ref = Reference(eng.board)
    assert ref.solutions() == found
    assert ref.nodes == eng.nodes
    assert found, "a generated board has its planted solution"
    for placed in found:
        pz.verify([Tile(r, c, p + 1, rot) for r, c, p, rot in placed])


def test_equal_pieces_and_fixed_pieces_against_the_reference():
    # clue 1 has equal pieces; pin one piece of a known solution in the middle of the board
    pz = catalog.load("clue1")
    assert pz.has_equal_pieces()
    first = [[]]
    Engine(board_of(pz, order="rows")).solutions(limit=1, on_solution=first.append)
    pin = next(t for t in first[-1] if (t[0], t[1]) == (2, 3))
    board = board_of(pz, fixed=[pin], order="rows")
    eng = Engine(board)
    found = []
    eng.solutions(limit=20, on_solution=found.append)
    ref = Reference(board)
    assert ref.solutions(limit=20) == found
    assert ref.nodes == eng.nodes and len(found) == 20
    for placed in found:
        pz.verify([Tile(r, c, q + 1, t) for r, c, q, t in placed])
        assert pin in placed


@pytest.mark.parametrize("rows, seed, inner", [(5, 1, None), (5, 2, None), (6, 2, 9),
                                               pytest.param(6, 3, 8, marks=pytest.mark.slow)])
def test_counts_equal_the_sat_engine(tmp_path, capsys, rows, seed, inner):
    path = instance(tmp_path, rows, rows, seed, inner=inner)
    for raw in ([], ["--raw"]):
        sat = cli_count(capsys, path, "--engine", "sat", *raw)
        assert cli_count(capsys, path, *raw) == sat          # the backtracker by default
        assert cli_count(capsys, path, "--engine", "backtrack", "--no-symmetry-breaking", *raw) == sat


def test_rectangle_counts_up_to_the_half_turn(tmp_path, capsys):
    path = instance(tmp_path, 4, 6, 5)
    assert cli_count(capsys, path) == cli_count(capsys, path, "--engine", "sat")


def test_workers_give_identical_counts(tmp_path, capsys):
    path = instance(tmp_path, 6, 6, 1)
    one = cli_count(capsys, path, "--engine", "backtrack")
    assert cli_count(capsys, path, "--workers", "2") == one


@pytest.mark.parametrize("values", ["table", "tight"])
def test_prefix_jobs_partition_the_solutions(values):
    pz = generate(5, 5, None, None, 6).puzzle()
    eng = Engine(replace(board_of(pz, order="rows"), values=values))
    jobs = [prefix for prefix, _ in split(eng, share=1 / 50)]
    assert len(jobs) > 10
    results = run_jobs(eng.board, jobs, keep=True)
    whole = []
    eng.solutions(on_solution=whole.append)
    assert [b for r in results for b in r.boards] == whole      # same solutions, same order
    assert sum(r.solutions for r in results) == count(eng.board)[0]


@pytest.mark.parametrize("name", ["clue1", "clue2", "clue3", "clue4"])
def test_clue_puzzles_solved(capsys, name):
    assert main(["solve", name, "--json"]) == 0
    out = capsys.readouterr()
    assert "by backtrack" in out.err
    pz = catalog.load(name)
    pz.verify([pz.placement_from_json(p) for p in json.loads(out.out)["placements"]])


def test_fixed_starter_is_respected_and_time_limit_stops():
    pz = catalog.load("eternity2")
    t = pz.fixed[0]
    eng = Engine(board_of(pz, fixed=[(t.row, t.col, t.piece - 1, t.rotation)], order="rows-up"))
    assert eng.solutions(limit=1, seconds=0.2) == "time limit"
    assert eng.nodes > 0


def test_model_options_of_the_sat_model_fall_back_or_refuse(tmp_path, capsys):
    path = instance(tmp_path, 5, 5, 1)
    sat = cli_count(capsys, path, "--engine", "sat")
    assert cli_count(capsys, path, "--balanced-rotation") == sat          # the SAT path
    assert main(["count", path, "--engine", "backtrack", "--balanced-rotation"]) == 2
    assert "option of the SAT model" in capsys.readouterr().err


def test_every_order_finds_the_same_count():
    pz = generate(4, 4, None, None, 1).puzzle()
    want = len(Reference(board_of(pz, order="rows")).solutions())
    assert {count(board_of(pz, order=order))[0] for order in ORDERS} == {want}


def test_a_stopped_search_resumes_without_loss_or_repeat():
    pz = generate(5, 5, None, None, 2).puzzle()
    eng = Engine(board_of(pz, order="rows"))
    pieces = []
    status = eng.solutions(on_solution=pieces.append, max_nodes=1 << 16, resume=True)
    while status != "exhausted":
        status = eng.solutions(on_solution=pieces.append, max_nodes=1 << 16, resume=True)
    whole = []
    Engine(board_of(pz, order="rows")).solutions(on_solution=whole.append)
    assert pieces == whole


def test_a_whole_board_prefix_resumes_to_nothing_more():
    # a prefix that fills the board is its one leaf: handed over at the limit, then exhausted (a
    # resume met that leaf again, so prefix jobs of small boards counted their leaves twice)
    pz = generate(3, 4, 2, 3, 1).puzzle()
    eng = Engine(board_of(pz, order="rows"))
    whole = []
    eng.solutions(on_solution=lambda b: whole.append(b))
    assert whole
    prefix = next(p for p, _ in split(eng, share=0) if len(p) == len(eng.plan.steps))
    got = []
    assert eng.solutions(prefix, limit=1, on_solution=got.append) == "limit"
    assert eng.solutions(prefix, limit=1, on_solution=got.append, resume=True) == "exhausted"
    assert len(got) == 1 and got[0] in whole


@pytest.mark.slow          # (make test runs a count on Dask in test_scale, and its time-out)
def test_dask_gives_identical_counts(tmp_path, capsys):
    distributed = pytest.importorskip("distributed")
    path = instance(tmp_path, 6, 6, 3, inner=6)
    one = cli_count(capsys, path, "--engine", "backtrack", "--raw")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        assert cli_count(capsys, path, "--raw", "--dask", cluster.scheduler_address) == one


def test_fixed_pieces_that_do_not_match_leave_no_solution():
    pz = generate(4, 4, None, None, 1).puzzle()
    placed = {(r, c): (p, rot) for r, c, p, rot in _first(pz)}
    (p, rot), (q, _) = placed[0, 1], placed[0, 2]
    # the two pieces swapped along the top row: each fits the frame, not each other
    board = board_of(pz, fixed=[(0, 1, q, rot), (0, 2, p, rot)])
    eng = Engine(board)
    found = []
    assert eng.solutions(on_solution=found.append) == "exhausted" and not found
    assert len(Reference(eng.board).solutions()) == 0


def _first(pz):
    found = []
    Engine(board_of(pz, order="rows")).solutions(limit=1, on_solution=found.append)
    return found[0]


@pytest.mark.parametrize("rows, cols, seed, order", [(4, 4, 1, "rows"), (4, 4, 3, "spiral"),
                                                     (4, 4, 2, "columns-left")])
def test_tight_value_order_equals_the_reference(rows, cols, seed, order):
    pz = generate(rows, cols, None, None, seed).puzzle()
    board = replace(board_of(pz, order=order), values="tight")
    eng = Engine(board)
    found = []
    assert eng.solutions(on_solution=found.append) == "exhausted"
    ref = Reference(board)
    assert ref.solutions() == found
    assert ref.nodes == eng.nodes
    in_table_order = []
    assert Engine(board_of(pz, order=order)).solutions(on_solution=in_table_order.append) == "exhausted"
    assert in_table_order and sorted(found) == sorted(in_table_order)    # the same, maybe reordered


@pytest.mark.parametrize("values", ["table", "tight"])
def test_a_board_of_more_than_64_piece_types_equals_the_reference(values):
    """Where it can, the compiled search reads a key's free piece types as one 64-bit set; a
    board of 72 types (9x8, 10 frame + 36 inner colours: a small tree) takes the scan of the
    key's range instead, and still meets the reference's solutions and nodes."""
    pz = generate(9, 8, 10, 36, 1).puzzle()
    board = replace(board_of(pz, order="rows"), values=values)
    eng = Engine(board)
    assert len(eng.plan.types) > 64
    found = []
    assert eng.solutions(on_solution=found.append) == "exhausted"
    ref = Reference(board)
    assert ref.solutions() == found
    assert ref.nodes == eng.nodes
    assert len(found) == 2                  # the planted board and its half turn


def test_solve_uses_the_tight_value_order_on_a_few_solution_board(tmp_path, capsys):
    path = instance(tmp_path, 6, 6, 3)
    assert main(["solve", path, "--json"]) == 0
    out = capsys.readouterr()
    assert "tight value order" in out.err
    pz = generate(6, 6, None, None, 3).puzzle()
    pz.verify([pz.placement_from_json(p) for p in json.loads(out.out)["placements"]])


def test_enumerate_out_is_a_locked_checksummed_solutions_file(tmp_path, capsys):
    """The backtracker's --out file has the header and checksums of every solutions file: verify
    reads it, and a second run refuses it without changing a byte."""
    path, out = instance(tmp_path, 4, 4, 2), str(tmp_path / "s.jsonl")
    assert main(["enumerate", path, "--out", out, "--quiet"]) == 0
    assert main(["count", path, "--quiet"]) == 0
    n = int(capsys.readouterr().out.split()[0])
    lines = open(out).read().splitlines()
    assert json.loads(lines[0])["engine"] == "backtrack" and len(lines) == n + 1
    assert main(["verify", path, out]) == 0
    before = open(out, "rb").read()
    assert main(["enumerate", path, "--out", out, "--quiet"]) == 2
    assert open(out, "rb").read() == before


# -- randomised value orders and restarts (issue 24) ---------------------------------------------
@pytest.mark.parametrize("values, seed", [("table", 1), ("tight", 2), ("table", 3)])
def test_a_seeded_search_meets_the_same_solutions_in_another_order(values, seed):
    """A whole search in a randomised value order counts exactly what the fixed order counts (the
    SAT engine's counts stand behind the fixed order), the same solutions; the same seed gives the
    same order again."""
    pz = generate(5, 5, None, 6, seed).puzzle()
    board = replace(board_of(pz, order="rows"), values=values)
    fixed, shuffled, again = [], [], []
    Engine(board).solutions(on_solution=fixed.append)
    for out, s in ((shuffled, 11), (again, 11)):
        eng = Engine(board)
        assert eng.solutions(on_solution=out.append, seed=s) == "exhausted"
    assert sorted(shuffled) == sorted(fixed) and len(fixed) > 1
    assert again == shuffled
    for placed in shuffled:
        pz.verify([Tile(r, c, p + 1, rot) for r, c, p, rot in placed])


def test_a_seeded_search_stops_and_resumes_in_its_own_order():
    pz = generate(5, 5, None, 6, 4).puzzle()
    board = board_of(pz, order="rows")
    whole, parts = [], []
    Engine(board).solutions(on_solution=whole.append, seed=5)
    eng = Engine(board)
    status = eng.solutions(on_solution=parts.append, max_nodes=300, seed=5)
    while status == "node limit":
        status = eng.solutions(on_solution=parts.append, max_nodes=300, resume=True)
    assert status == "exhausted" and parts == whole


def test_the_luby_sequence():
    from satiling.engines.edgematch import luby
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


@pytest.mark.parametrize("seed", [1, 2])
def test_restarts_find_a_verified_board_and_are_reproducible(seed):
    from satiling.engines.edgematch import restarts, solve_engines
    pz = generate(6, 6, None, 7, seed).puzzle()
    runs = []
    for _ in range(2):
        (eng,) = solve_engines(board_of(pz))[:1]
        found, status = restarts(eng, seed=seed, unit=64)     # tiny runs: many restarts
        assert status == "limit"
        pz.verify([Tile(r, c, p + 1, rot) for r, c, p, rot in found])
        runs.append((found, eng.nodes))
    assert runs[0] == runs[1]


def test_restarts_prove_there_is_no_board():
    """An edge piece given a colour no other piece has: every run ends its tree, and the first
    run not cut off by its node budget says there is no board."""
    from satiling.engines.edgematch import race, restarts, solve_engines
    pz = generate(4, 4, None, None, 1).puzzle()
    pieces = list(pz.pieces)
    i = next(k for k, e in enumerate(pieces) if sum(x == 0 for x in e) == 1)
    pieces[i] = tuple(99 if x not in (0,) and j == 1 else x for j, x in enumerate(pieces[i]))
    board = EdgeBoard(4, 4, tuple(pieces))
    assert count(board)[0] == 0
    (eng,) = solve_engines(board)[:1]
    assert restarts(eng, seed=3, unit=8) == (None, "exhausted")
    assert race(board, seed=3)[:2] == (None, "exhausted")


def test_a_time_limit_stops_a_big_search():
    pz = generate(9, 9, None, None, 1).puzzle()
    eng = Engine(board_of(pz, order="rows"))
    assert eng.solutions(seconds=0.05) == "time limit"
    assert eng.solutions(seconds=0.0, resume=True) == "time limit"


def test_owens_7x7_board_is_solved_and_verified(capsys):
    """Brendan Owen's public 7x7 benchmark (tests/data/owen): the backtracker's board passes
    ``verify`` (main checks every board it prints), plain and with restarts."""
    from pathlib import Path

    from satiling.search.edgeboards import edge_boards, tiles
    from satiling.engines.edgematch import race
    path = str(Path(__file__).parents[1] / "data" / "owen" / "owen7.toml")
    assert main(["solve", path]) == 0
    pz = catalog.load(path)
    (board,) = edge_boards(pz, False, distinct=False)
    found, status, _ = race(board, seed=7)
    assert status == "limit"
    pz.verify(tiles(found))


def test_one_corner_piece_decides_whether_a_square_board_has_a_solution():
    """The fixed-starter partition: on a square board without fixed pieces, solve searches below
    one corner piece only.  With solutions it meets the same first one as the whole search; with
    none it proves it in a part of the nodes.  Rectangles and boards with a fixed piece keep the
    whole search."""
    from satiling.engines.edgematch import corner_starter, race, solve_engines
    pz = generate(5, 5, None, None, 2).puzzle()
    (eng,) = solve_engines(board_of(pz))
    whole = Engine(eng.board)
    met = []
    whole.solutions(limit=1, on_solution=met.append)
    assert race(board_of(pz))[0] == met[0]
    pieces = list(generate(5, 5, None, None, 1).puzzle().pieces)
    e = pieces[22]                              # an inner piece turned inside out: no board left
    pieces[22] = (e[0], e[3], e[2], e[1])
    board = EdgeBoard(5, 5, tuple(pieces))
    (eng,) = solve_engines(board)
    solutions, status, all_nodes = count(replace(board, order=eng.board.order, values="tight"))
    assert (solutions, status) == (0, "exhausted")
    found, status, engines = race(board)
    assert (found, status) == (None, "exhausted")
    assert sum(e.nodes for e in engines) < all_nodes / 2
    rect = generate(4, 6, None, None, 1).puzzle()
    assert corner_starter(Engine(board_of(rect))) == ()
    assert corner_starter(Engine(board_of(pz, [(0, 0, 0, 0)]))) == ()
