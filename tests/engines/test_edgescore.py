"""The compiled scoring search (``engines/_edgescore.c``): node for node the same as its Python
reference, every board it reports scored independently, optimal scores equal to CP-SAT's, and
``solve --maximize-matches`` keeping its best board through a time limit and an interrupt."""
import array
import re
import signal
import subprocess
import sys
import tempfile
import time

import pytest

from satiling import SatilingError, catalog
from satiling.engines import edgescore, edgescore_ref
from satiling.families.edgematch import EdgeMatchPuzzle, Tile
from satiling.families.edgematch.generate import generate
from satiling.families.edgematch.score import score
from satiling.apps.maximize import checked_score, maximize_matches


def _runs(lay, held, cap, node_limit):
    """The boards reported by the C search and by the reference, their outcomes and their counts
    per depth (``hist``)."""
    out = {}
    n = len(lay.order)
    for name, search in (("c", edgescore.search), ("ref", edgescore_ref.search)):
        # the compiled search counts into a buffer, the reference into a list
        seen, hist = [], array.array("q", [0] * 4 * (n + 1)) if name == "c" else [0] * 4 * (n + 1)
        got = search(lay, held, cap, lambda b, n, board: seen.append((b, n, board)) and False,
                     node_limit=node_limit, hist=hist)
        out[name] = (got, seen, list(hist))
    placed, broken, entered, room = (out["c"][2][k * (n + 1):(k + 1) * (n + 1)] for k in range(4))
    assert sum(placed) == out["c"][0].nodes
    # each node enters the next square, but for the last one at a node limit
    assert entered[0] == 1 and all(e <= p for e, p in zip(entered[1:n], placed))
    assert sum(placed[:n - 1]) - sum(entered[1:n]) in (0, 1)
    assert all(b <= p for b, p in zip(broken, placed)) and all(r <= e for r, e in zip(room, entered))
    return out


def _pinned(gen, squares, turn=0):
    """The generated puzzle with the planted pieces of ``squares`` pinned, turned ``turn`` more."""
    tiles = [Tile(r, c, gen.planted[r, c][0], (gen.planted[r, c][1] + turn) % 4) for r, c in squares]
    return EdgeMatchPuzzle("pinned", gen.rows, gen.cols, gen.pieces, fixed=tiles)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_compiled_search_follows_the_reference_node_for_node(seed):
    pz = generate(5, 5, seed=seed).puzzle()
    lay = edgescore.layout(pz, seed=seed)
    for held, cap, limit in ((edgescore.reserve(25, 8, 0.3, 0.9), 8, 0), ([0] * 25, 40, 3000)):
        runs = _runs(lay, held, cap, limit)
        assert runs["c"] == runs["ref"]
        assert runs["c"][1], "the search reported no board"
        for breaks, _, raw in runs["c"][1]:        # each board scores what the search says
            board = lay.board(raw)
            assert score(pz, board).matched == lay.joins - breaks
            assert checked_score(pz, pz.tiles(board)) == lay.joins - breaks


def test_pinned_pieces_stay_and_their_joins_count():
    """Two touching pinned pieces turned a quarter from the planted board: the same nodes as the reference, the pins in
    place on every board, and the proved best score equal to CP-SAT's."""
    gen = generate(4, 4, seed=3)
    pz = _pinned(gen, [(1, 1), (1, 2)], turn=1)
    lay = edgescore.layout(pz, seed=7)
    runs = _runs(lay, [0] * 16, lay.joins, 0)
    assert runs["c"] == runs["ref"] and runs["c"][0].status == "done"
    for breaks, _, raw in runs["c"][1]:
        assert checked_score(pz, pz.tiles(lay.board(raw))) == lay.joins - breaks
    best = lay.joins - runs["c"][1][-1][0]
    cpsat = maximize_matches(pz, 60, engine="cpsat")
    ours = maximize_matches(pz, 60, engine="backtrack")
    assert cpsat.status == ours.status == "OPTIMAL"
    assert ours.score == cpsat.score == best < lay.joins


def test_backtrack_finds_the_planted_board():
    gen = generate(5, 5, seed=4)
    pz = _pinned(gen, [(2, 3)])
    seen = []
    result = maximize_matches(pz, 60, seen.append, engine="backtrack")
    assert result.status == "OPTIMAL" and result.score == result.joins == 40
    pz.verify(result.solution)
    assert [imp.score for imp in seen] == sorted({imp.score for imp in seen})


def test_eternity2_boards_keep_the_starter_and_the_hints():
    e2 = catalog.load("eternity2")
    for hints in (False, True):
        lay = edgescore.layout(e2, hints=hints, seed=1)
        boards = []
        edgescore.search(lay, [0] * 256, 480,
                         lambda b, n, raw: boards.append((b, raw)) and False, node_limit=20000)
        assert boards
        for breaks, raw in boards:
            assert checked_score(e2, e2.tiles(lay.board(raw)), hints) == 480 - breaks


def _maximize(*args, stop=None):
    """Run ``satiling solve ... --maximize-matches``; with ``stop`` send that signal once the
    first score is on stderr."""
    cmd = [sys.executable, "-m", "satiling.cli", "solve", *args]
    folder = tempfile.mkdtemp()           # where the run keeps its best board (NAME-best.json)
    if stop is None:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=folder)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=folder)
    first = ""
    while True:                           # up to the first score (a line naming the best file first)
        line = proc.stderr.readline()
        first += line
        if not line or "score " in line:
            break
    time.sleep(0.5)
    proc.send_signal(stop)
    # read through the file objects: readline may have buffered later lines that arrived with the
    # first (communicate() reads the pipes underneath and would miss them); the output is small
    out, err = proc.stdout.read(), proc.stderr.read()
    proc.wait(timeout=60)
    return subprocess.CompletedProcess(cmd, proc.returncode, out, first + err)


#: each way a run ends once in make test; SIGINT as well in the slow set (test_signals holds 130 for
#: every command)
@pytest.mark.parametrize("stop, code", [(None, 0), pytest.param(signal.SIGINT, 130, marks=pytest.mark.slow),
                                        (signal.SIGTERM, 143)])
def test_eternity2_best_board_survives_the_end_of_the_run(cli, tmp_path, stop, code):
    """The time limit or a signal ends the run: the last score on stderr is the board printed,
    and ``satiling score`` agrees."""
    limit = "1.5" if stop is None else "120"
    r = _maximize("eternity2", "--maximize-matches", "backtrack", "--time-limit", limit,
                  "--threads", "1", stop=stop)
    assert r.returncode == code, r.stderr
    scores = [int(s) for s in re.findall(r"score (\d+)/480 after", r.stderr)]
    assert scores and scores == sorted(scores)     # the first board comes at once, however loaded
    assert "Traceback" not in r.stderr
    (tmp_path / "best.txt").write_text(r.stdout)
    checked = cli("score", "eternity2", str(tmp_path / "best.txt"))
    assert checked.returncode == 0 and f"score {scores[-1]}/480" in checked.stdout


@pytest.mark.parametrize("engine, stop, code", [pytest.param("cpsat", signal.SIGINT, 130, marks=pytest.mark.slow),
                                                ("lns", signal.SIGINT, 130), ("cpsat", signal.SIGTERM, 143)])
def test_cpsat_engines_keep_their_best_board_on_a_signal(cli, tmp_path, engine, stop, code):
    """CP-SAT solves in a thread that the signal stops (its own SIGINT handler can deadlock and
    takes no SIGTERM): the run ends at once with its best board."""
    board = tmp_path / "b9.toml"
    board.write_text(cli("generate-edgematch", "9", "9", "--seed", "1").stdout)
    began = time.perf_counter()
    r = _maximize(str(board), "--maximize-matches", engine, "--time-limit", "120", "--json",
                  stop=stop)
    assert r.returncode == code, r.stderr
    assert time.perf_counter() - began < 100        # stopped by the signal, not the time limit
    scores = [int(s) for s in re.findall(r"score (\d+)/144 after", r.stderr)]
    assert scores and "Traceback" not in r.stderr
    (tmp_path / "best.json").write_text(r.stdout)
    checked = cli("score", str(board), str(tmp_path / "best.json"))
    assert checked.returncode == 0 and f"score {scores[-1]}/144" in checked.stdout


# -- issue 24: tileability, the comb order, slips, workers -----------------------------------------
def _all_runs(lay, held, cap, node_limit, tile):
    out = {}
    for name, search in (("c", edgescore.search), ("ref", edgescore_ref.search)):
        seen = []
        got = search(lay, held, cap, lambda b, n, board: seen.append((b, n, board)) and False,
                     node_limit=node_limit, tile=tile)
        out[name] = (got, seen)
    return out


@pytest.mark.parametrize("seed, order", [(1, "rows"), (2, "comb"), (3, "comb"), (4, "rows")])
def test_tileability_cut_follows_the_reference_and_keeps_the_optimum(seed, order):
    """With the tileability cut the compiled search and the reference meet the same boards after
    the same nodes; searched to the end, the cut changes the nodes, never the best score."""
    pz = generate(5, 5, seed=seed).puzzle()
    lay = edgescore.layout(pz, seed=seed, order=order, teeth=2)
    for held, cap, limit in ((edgescore.reserve(25, 8, 0.3, 0.9), 8, 0), ([0] * 25, 40, 3000)):
        runs = _all_runs(lay, held, cap, limit, tile=True)
        assert runs["c"] == runs["ref"]
        for breaks, _, raw in runs["c"][1]:
            assert checked_score(pz, pz.tiles(lay.board(raw))) == lay.joins - breaks
    pinned = _pinned(generate(4, 4, seed=3), [(1, 1), (1, 2)], turn=1)    # cannot score in full
    lay = edgescore.layout(pinned, seed=seed, order=order)
    best = {}
    for tile in (False, True):
        seen = []
        out = edgescore.search(lay, [0] * 16, lay.joins, lambda b, n, raw: seen.append(b) and False, tile=tile)
        assert out.status == "done"
        best[tile] = seen[-1]
    assert best[True] == best[False] > 0


@pytest.mark.parametrize("rows, cols, teeth", [(16, 16, None), (5, 7, 2), (6, 4, 3), (3, 3, 1)])
def test_the_comb_order_fills_each_square_after_its_south_and_west_neighbours(rows, cols, teeth):
    order = edgescore.fill_order(rows, cols, "comb", teeth)
    assert sorted(order) == [(r, c) for r in range(rows) for c in range(cols)]
    depth = {sq: d for d, sq in enumerate(order)}
    for (r, c), d in depth.items():
        assert depth.get((r + 1, c), -1) < d and depth.get((r, c - 1), -1) < d
        assert depth.get((r - 1, c), rows * cols) > d and depth.get((r, c + 1), rows * cols) > d
    if rows == 16:          # Blackwood's: 11 rows, then a 5-wide block by rows, then 5-high columns
        assert order[175] == (5, 15) and order[176] == (4, 0) and order[201] == (4, 5)


def test_slips_unlock_one_break_at_each_depth():
    held = edgescore.slips(20, 5, [10, 12, 15])
    allowed = [5 - h for h in held]
    assert allowed[:10] == [0] * 10 and allowed[10:12] == [1, 1] and allowed[12] == 2
    assert allowed[15] == 3 and allowed[-1] == 5


def test_the_schedule_holds_breaks_back_evenly_or_bent_towards_the_end():
    # 10 squares, cap 4, breaks from depth 2 to depth 8: allowed = floor(4 * x ** bend), x the
    # fraction of the way (worked by hand: bend 1 at depth 5 is 4 * 3/6 = 2; bend 2, 4 * 1/4 = 1)
    assert edgescore.reserve(10, 4, 0.2, 0.8) == [4, 4, 4, 4, 3, 2, 2, 1, 0, 0]
    assert edgescore.reserve(10, 4, 0.2, 0.8, bend=2.0) == [4, 4, 4, 4, 4, 3, 3, 2, 0, 0]
    even, bent = edgescore.reserve(256, 21, 205 / 256, 1.0), edgescore.reserve(256, 21, 205 / 256, 1.0, 1.3)
    assert all(b >= e for b, e in zip(bent, even)) and bent[:206] == even[:206] == [21] * 206
    assert all(x >= y for x, y in zip(bent, bent[1:])) and bent[-1] == even[-1]
    with pytest.raises(ValueError, match="bend"):
        edgescore.reserve(10, 4, 0.2, 0.8, bend=0)


def test_the_comb_search_reports_boards_the_scorer_agrees_with():
    e2 = catalog.load("eternity2")
    lay = edgescore.layout(e2, seed=3, order="comb")
    boards = []
    edgescore.search(lay, [0] * 256, 479,
                     lambda b, n, raw: boards.append((b, raw)) and False, node_limit=20000, tile=True)
    assert boards
    for breaks, raw in boards:
        assert checked_score(e2, e2.tiles(lay.board(raw))) == 480 - breaks


def test_two_workers_report_checked_boards_in_rising_order():
    pz = generate(9, 9, seed=2).puzzle()
    seen = []
    result = maximize_matches(pz, 1.0, seen.append, engine="backtrack", workers=2)
    assert result.status in ("FEASIBLE", "OPTIMAL") and seen
    assert [imp.score for imp in seen] == sorted({imp.score for imp in seen})
    assert checked_score(pz, result.solution) == result.score == seen[-1].score


def test_a_search_lowers_its_cap_below_a_board_found_elsewhere():
    """The shared bound of the workers: another process's better board lowers the cap of a
    running search at its next look at the clock, and a perfect board found elsewhere stops it."""
    import multiprocessing as mp
    e2 = catalog.load("eternity2")
    lay = edgescore.layout(e2, seed=3)
    caps = []
    for lower in (False, True):
        bound = mp.get_context("fork").Value("q", 481)
        seen = []

        def found(breaks, nodes, raw):
            seen.append(breaks)
            if lower and len(seen) == 1:            # as if another worker found a far better one
                bound.value = breaks - 60
            return False

        out = edgescore.search(lay, [0] * 256, 479, found, node_limit=200000, bound=bound.get_obj())
        assert out.status == "nodes" and seen
        caps.append((out.cap, seen[0]))
    (alone, _), (shared, first) = caps
    assert alone > first - 61                      # alone, the search gets nowhere near it
    assert shared == first - 61
    perfect = mp.get_context("fork").Value("q", 0)
    out = edgescore.search(lay, [0] * 256, 479, lambda *a: False, node_limit=10**7,
                           bound=perfect.get_obj())
    assert out.status == "limit" and out.nodes < 10**7


def test_a_worker_hunts_only_boards_better_than_the_shared_best():
    """A worker of the scoring search told that another has a board of 9 breaks reports only
    boards with fewer, and writes its own better boards to the shared count."""
    import multiprocessing as mp
    from satiling.apps import maximize as mx
    pz = generate(9, 9, seed=2).puzzle()
    joins = len(pz.joins())
    shared = mp.get_context("fork").Value("q", 9)
    seen = []
    mx._backtrack_one(pz, 1, seen.append, False, time.monotonic(), 1, False,
                      mx.default_tuning(pz), shared)
    assert seen, "no board better than 9 breaks in 1 s"
    assert all(imp.score > joins - 9 for imp in seen)
    assert shared.value == joins - seen[-1].score


def test_hints_pin_the_four_clue_pieces_when_maximising():
    from satiling.apps.maximize import Tuning
    e2 = catalog.load("eternity2")
    loose = Tuning(start=0.0, full=0.5)          # breaks allowed early: a board within moments
    result = maximize_matches(e2, 1, engine="backtrack", hints=True, workers=1, tuning=loose)
    board = e2.board_from(result.solution, strict=False)
    for t in e2.fixed + e2.hints:
        assert board[t.row, t.col] == (t.piece, t.rotation)
    assert checked_score(e2, result.solution, hints=True) == result.score


def test_slack_gives_the_schedule_of_a_looser_cap_within_the_cap():
    from satiling.apps.maximize import Tuning
    from satiling.engines.edgescore import reserve
    n, cap = 256, 17
    loose = reserve(n, cap + 1, 200 / 256, 1.0, 1.2)
    held = Tuning(start=200 / 256, full=1.0, bend=1.2, slack=1).held(n, cap)
    # allowed breaks: the looser cap's schedule, but never more than the cap
    assert [cap - h for h in held] == [min(cap, cap + 1 - h) for h in loose]
    assert held[0] == cap and held[-1] == 0
    tight = Tuning(start=200 / 256, full=1.0, bend=1.2).held(n, cap)
    assert all(a <= b for a, b in zip(held, tight)) and held != tight     # looser, somewhere


def test_restarts_grow_from_the_first_patience_to_the_longest():
    from satiling.apps.maximize import Tuning
    t = Tuning(restart_nodes=1000, restart_max=6000)
    assert [t.patience(k) for k in range(5)] == [1000, 2000, 4000, 6000, 6000]
    assert t.patience(10 ** 6) == 6000                   # no overflow after many restarts
    assert Tuning(restart_nodes=1000, restart_max=10).patience(3) == 1000   # never below the first


def test_restarts_grow_only_while_the_best_board_stalls():
    from dataclasses import replace

    from satiling.apps.maximize import Tuning
    t = Tuning(restart_nodes=1000, restart_max=6000, stall=True)
    # restart 5 after two restarts without a better board: doubled twice, not five times
    assert t.restart_patience(5, 2) == 4000
    assert t.restart_patience(5, 0) == 1000           # a better board starts the doubling again
    assert replace(t, stall=False).restart_patience(5, 0) == 6000   # growing at every restart


@pytest.mark.parametrize("seed, tile", [(1, False), (2, True), (3, False)])
def test_priority_colours_follow_the_reference(seed, tile):
    """Blackwood's heuristic: pieces of the priority colours first in every run, and a square's
    candidate cut when too few of their sides are placed by its depth; the compiled search and the
    reference meet the same boards after the same nodes, and the scorer agrees with each."""
    pz = generate(5, 5, seed=seed).puzzle()
    colours = (1, 5, 6)
    lay = edgescore.layout(pz, seed=seed, priority=colours)
    assert lay.prio == [sum(x in colours for x in c[2:]) for c in lay.cands]
    need = [min(d, 12) for d in range(25)]
    for held, cap, limit in ((edgescore.reserve(25, 8, 0.3, 0.9), 8, 0), ([0] * 25, 40, 3000)):
        out = {}
        for name, search in (("c", edgescore.search), ("ref", edgescore_ref.search)):
            seen = []
            got = search(lay, held, cap, lambda b, n, board: seen.append((b, n, board)) and False,
                         node_limit=limit, tile=tile, need=need)
            out[name] = (got, seen)
        assert out["c"] == out["ref"] and out["c"][1]
        for breaks, _, raw in out["c"][1]:
            board = lay.board(raw)
            assert checked_score(pz, pz.tiles(board)) == lay.joins - breaks
            placed = [sum(x in colours for x in pz.edges(*board[sq])) for sq in lay.order]
            assert all(sum(placed[:d + 1]) >= need[d] for d in range(25))


def test_eternity2_gets_blackwoods_priority_colours_by_default():
    """The rule (Eternity2Puzzles.jl's: the frame colour on fewest corner sides, then the inner
    pair on fewest pieces with it) gives Blackwood's published three, his 13, 16 and 10 (5, 20
    and 7 here), whatever the pieces' order and turns; his need curve stays as he gave it."""
    from satiling.apps.maximize import default_tuning
    e2 = catalog.load("eternity2")
    assert default_tuning(e2).priority == (5, 7, 20)
    turned = [tuple(p[1:]) + (p[0],) for p in reversed(e2.pieces)]
    assert edgescore.priority_colours(turned) == (5, 7, 20)
    assert edgescore.priority_sides(e2.pieces, (5, 7, 20)) == edgescore.BLACKWOOD_SIDES
    need = edgescore.blackwood_need(256)
    assert max(need) == 119 and need[160] == 119 and need[161] == 0 and need[16] == 0


def test_priority_colours_need_a_frame_colour_and_never_ask_too_much():
    pz = generate(8, 8, seed=2).puzzle()
    colours = edgescore.priority_colours(pz.pieces)
    assert len(colours) == 3
    sides = edgescore.priority_sides(pz.pieces, colours)
    assert 0 < max(edgescore.blackwood_need(64, sides)) <= sides
    # a board bigger than Eternity II with fewer priority sides than it: scaled to those sides
    assert max(edgescore.blackwood_need(324, 100)) <= 100
    # frame colours also inside the board: no colour belongs to the frame, so no priority colours
    inside = {c for p in pz.pieces if 0 not in p for c in p}
    frame = {c for p in pz.pieces if 0 in p for c in p if c} - inside
    inner = min(inside)
    assert colours[0] in frame
    mixed = [tuple(inner if c in frame else c for c in p) for p in pz.pieces]
    assert edgescore.priority_colours(mixed) == ()


# one board in make test (each takes about a CPU-second, most of it in the Python reference, with
# a node budget on the deep subtree budgets that would run to millions of nodes); the others in
# the slow set
@pytest.mark.parametrize("seed, order", [(1, "rows"), pytest.param(2, "comb", marks=pytest.mark.slow),
                                         pytest.param(3, "rows", marks=pytest.mark.slow)])
def test_break_kinds_and_subtree_budgets_follow_the_reference(seed, order):
    """Squares that may break one join at a time, no join between two frame squares, and a
    node budget for each subtree below a depth: the compiled search and the reference meet the
    same boards after the same nodes; every board scores what the search says and breaks only
    the joins allowed."""
    pz = generate(5, 5, seed=seed).puzzle()
    for double, rim in ((False, True), (True, False), (False, False)):
        lay = edgescore.layout(pz, seed=seed, order=order, teeth=2, double=double, rim_breaks=rim)
        for held, cap, limit in ((edgescore.reserve(25, 8, 0.3, 0.9), 8, 200_000), ([0] * 25, 40, 3000)):
            for sub in ((0, 0), (6, 40), (12, 5)):
                out = {}
                for name, search in (("c", edgescore.search), ("ref", edgescore_ref.search)):
                    seen = []
                    got = search(lay, held, cap, lambda b, n, board: seen.append((b, n, board)) and False,
                                 node_limit=limit, sub_depth=sub[0], sub_limit=sub[1])
                    out[name] = (got, seen)
                assert out["c"] == out["ref"]
                for breaks, _, raw in out["c"][1]:
                    board = lay.board(raw)
                    assert checked_score(pz, pz.tiles(board)) == lay.joins - breaks
                    for sq, (p, r) in board.items():
                        e, (row, col) = pz.edges(p, r), sq
                        for nb, mine, theirs in (((row + 1, col), 2, 0), ((row, col - 1), 3, 1)):
                            if nb not in board or pz.edges(*board[nb])[theirs] == e[mine]:
                                continue
                            frame = lambda q: any(pz.on_rim(q, k) for k in range(4))   # noqa: E731
                            assert rim or not (frame(sq) and frame(nb)), "a frame join broke"
                    if not double:       # no square breaks both its south and west joins
                        for sq, (p, r) in board.items():
                            row, col = sq
                            e = pz.edges(p, r)
                            s_bad = (row + 1, col) in board and pz.edges(*board[row + 1, col])[0] != e[2]
                            w_bad = (row, col - 1) in board and pz.edges(*board[row, col - 1])[1] != e[3]
                            assert not (s_bad and w_bad)


def test_run_copies_of_the_deep_squares_keep_the_reference_nodes():
    """An 8x8 board searched deep and long enough that every level of run copies (each made from
    the one above it) is remade many times: the same boards after the same nodes as the reference."""
    pz = generate(8, 8, seed=4).puzzle()
    lay = edgescore.layout(pz, seed=1)
    runs = _runs(lay, edgescore.reserve(64, 40, 0.3, 0.9), 40, 100000)
    assert runs["c"] == runs["ref"]
    assert len(runs["c"][1]) >= 5, "too few boards to follow the search deep"


@pytest.mark.parametrize("patience, limit", [(1500, 0), (40000, 0), (0, 777), (50000, 9001)])
def test_patience_and_node_limit_stop_where_the_reference_stops(patience, limit):
    """The compiled search checks its node limit and patience together, at one node count kept
    ahead of the count: it must still stop at the very node the reference stops at (a pinned
    square's node counts, but the limits act at the free squares' nodes), with the same boards."""
    pz = _pinned(generate(7, 7, seed=5), [(3, 3), (3, 4)], turn=1)     # no perfect board
    lay = edgescore.layout(pz, seed=3)
    held = edgescore.reserve(49, 30, 0.3, 0.9)
    out = {}
    for name, search in (("c", edgescore.search), ("ref", edgescore_ref.search)):
        seen = []
        got = search(lay, held, 30, lambda b, n, board: seen.append((b, n, board)) and False,
                     node_limit=limit, patience=patience)
        out[name] = (got, seen)
    assert out["c"] == out["ref"]
    assert out["c"][0].status == "nodes"
    assert out["c"][1], "the search reported no board before it stopped"


def test_the_cpsat_engine_reports_its_greedy_board_first():
    """CP-SAT starts from a greedy board (a hint): that board is reported at once, so a run whose
    time runs out before CP-SAT finds one still ends with a board (clue4: none in 0.5 s before)."""
    from satiling.apps.maximize.cpsat import _cpsat, _model, greedy_board
    pz = catalog.load("clue4")
    made = _model(pz, True, False)
    greedy = greedy_board(pz)
    seen = []
    # the time left for CP-SAT's search: its floor, a hundredth of a second
    from satiling.limits import Deadline, clock
    result = _cpsat(pz, *made, Deadline.after(1e-9), seen.append, 1, clock())
    assert seen and seen[0].solution == made[4] and len(made[4]) == len(greedy) == 72
    assert seen[0].score == checked_score(pz, made[4]) > 0
    assert result.solution and result.score == checked_score(pz, result.solution) >= seen[0].score


@pytest.mark.parametrize("engine, module", [("cpsat", "cpsat"), ("rc2", "rc2"), ("lns", "lns")])
def test_every_engines_boards_are_checked_before_they_are_reported(monkeypatch, engine, module):
    """The front door re-scores every board an engine reports with the scorer of 'satiling
    score', after checking it is a board: an engine whose own count is off (here made one too
    high) is an internal error, not a board printed with the wrong score."""
    import importlib
    pz = generate(3, 3, seed=5).puzzle()
    assert maximize_matches(pz, 20, engine=engine).solution
    mod = importlib.import_module(f"satiling.apps.maximize.{module}")
    if hasattr(mod, "score_of"):
        monkeypatch.setattr(mod, "score_of", lambda puzzle, solution: checked_score(puzzle, solution) + 1)
    else:                                           # lns counts its own breaks
        real = mod.Improvement
        monkeypatch.setattr(mod, "Improvement", lambda score, *rest: real(score + 1, *rest))
    seen = []
    with pytest.raises(SatilingError, match="internal error: a board reported with"):
        maximize_matches(pz, 20, engine=engine, on_improve=seen.append)
    assert seen == []


def test_the_priority_need_leaves_out_the_sides_the_clues_hold_and_demand():
    """Blackwood's three priority colours have 122 sides on Eternity II's pieces (his count);
    the starter has none of them, so without the clues the need is his curve for 122 sides, as
    before.  With the clues, each priority side of a clue piece is held by the clue and demands
    its match of the free square it faces (every clue square is inside the board): those sides,
    counted from the instance's clues here, are left out."""
    from satiling.apps.maximize.scoring import default_tuning, free_priority_sides
    from satiling.engines.edgescore import BLACKWOOD_SIDES, blackwood_need
    e2 = catalog.load("eternity2")
    tuning = default_tuning(e2)
    assert free_priority_sides(e2, tuning.priority) == BLACKWOOD_SIDES == 122
    assert tuning.need(e2) == blackwood_need(256, 122)
    held = sum(c in tuning.priority for t in e2.hints for c in e2.pieces[t.piece - 1])
    assert held == 2                                      # one side each on N3's and C14's piece
    assert free_priority_sides(e2, tuning.priority, hints=True) == 122 - 2 * held
    assert tuning.need(e2, hints=True) == blackwood_need(256, 118)
