"""The compiled scoring search (``engines/_edgescore.c``): node for node the same as its Python
reference, every board it reports scored independently, optimal scores equal to CP-SAT's, and
``solve --maximize-matches`` keeping its best board through a time limit and an interrupt."""
import re
import signal
import subprocess
import sys
import time

import pytest

from satiling import catalog
from satiling.engines import edgescore, edgescore_ref
from satiling.families.edgematch import EdgeMatchPuzzle, Tile
from satiling.families.edgematch.generate import generate
from satiling.families.edgematch.score import score
from satiling.search.maximize import checked_score, maximize_matches


def _runs(lay, held, cap, node_limit):
    """The boards reported by the C search and by the reference, and their outcomes."""
    out = {}
    for name, search in (("c", edgescore.search), ("ref", edgescore_ref.search)):
        seen = []
        got = search(lay, held, cap, lambda b, n, board: seen.append((b, n, board)) and False,
                     node_limit=node_limit)
        out[name] = (got, seen)
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
    assert runs["c"] == runs["ref"] and runs["c"][0].status == "exhausted"
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
    if stop is None:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = proc.stderr.readline()
    time.sleep(1.0)
    proc.send_signal(stop)
    out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(cmd, proc.returncode, out, first + err)


@pytest.mark.parametrize("stop, code", [(None, 0), (signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_eternity2_best_board_survives_the_end_of_the_run(cli, tmp_path, stop, code):
    """The time limit or a signal ends the run: the last score on stderr is the board printed,
    and ``satiling score`` agrees."""
    limit = "8" if stop is None else "120"
    r = _maximize("eternity2", "--maximize-matches", "backtrack", "--time-limit", limit, stop=stop)
    assert r.returncode == code, r.stderr
    scores = [int(s) for s in re.findall(r"score (\d+)/480 after", r.stderr)]
    assert scores and scores == sorted(scores) and scores[-1] > 400
    assert "Traceback" not in r.stderr
    (tmp_path / "best.txt").write_text(r.stdout)
    checked = cli("score", "eternity2", str(tmp_path / "best.txt"))
    assert checked.returncode == 0 and f"score {scores[-1]}/480" in checked.stdout


@pytest.mark.parametrize("engine", ["cpsat", "lns"])
def test_cpsat_engines_keep_their_best_board_on_ctrl_c(cli, tmp_path, engine):
    board = tmp_path / "b9.toml"
    board.write_text(cli("generate-edgematch", "9", "9", "--seed", "1").stdout)
    r = _maximize(str(board), "--maximize-matches", engine, "--time-limit", "120", "--json",
                  stop=signal.SIGINT)
    assert r.returncode == 130, r.stderr
    scores = [int(s) for s in re.findall(r"score (\d+)/144 after", r.stderr)]
    assert scores and "Traceback" not in r.stderr
    (tmp_path / "best.json").write_text(r.stdout)
    checked = cli("score", str(board), str(tmp_path / "best.json"))
    assert checked.returncode == 0 and f"score {scores[-1]}/144" in checked.stdout
