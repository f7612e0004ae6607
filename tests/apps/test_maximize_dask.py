"""One maximisation on a Dask cluster: one search per worker thread, every better board checked
again on the client and kept in the best-board file, a start board continued, a lost worker
costing its own search only, and a scheduler that cannot be reached said in one line."""
import os
import signal
import socket
import threading
import time

import pytest

from satiling.cli.main import main
from satiling.errors import SatilingError
from satiling.families.edgematch.generate import generate, instance_toml

distributed = pytest.importorskip("distributed")


def _board(tmp_path, rows=8, cols=8, seed=3) -> str:
    path = tmp_path / f"g{rows}x{cols}.toml"
    path.write_text(instance_toml(generate(rows, cols, None, None, seed), "test"))
    return str(path)


def _scores(err: str) -> list[int]:
    """The scores a maximisation printed as it improved."""
    return [int(line.split("score ")[1].split("/")[0]) for line in err.splitlines()
            if line.startswith("satiling: score ")]


def _scored(capsys, puzzle: str, board: str) -> int:
    """The board's score by ``satiling score`` (the scorer the search never calls directly)."""
    capsys.readouterr()
    assert main(["score", puzzle, board]) == 0
    return int(capsys.readouterr().out.split("score ")[-1].split("/")[0])


def test_a_maximisation_on_a_local_cluster_keeps_and_continues_its_best_board(tmp_path, capsys):
    path = _board(tmp_path)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        assert main(["solve", path, "--maximize-matches", "--dask", address, "--time-limit", "2",
                     "--best", "b.json"]) == 0
        err = capsys.readouterr().err
        assert "2 searches on the Dask cluster" in err
        scores = _scores(err)
        assert scores and scores == sorted(set(scores))        # each better than the last
        best = scores[-1]
        assert f"best score {best}/112" in err
        assert _scored(capsys, path, "b.json") == best
        assert (tmp_path / "b.scores.tsv").read_text().splitlines()[-1].endswith(f"\t{best}")

        # a client started again from the best board: it is the first, only better ones follow
        assert main(["solve", path, "--maximize-matches", "--dask", address, "--time-limit", "1",
                     "--start", "b.json", "--best", "c.json"]) == 0
        again = _scores(capsys.readouterr().err)
        assert again[0] == best and again == sorted(set(again))
        assert _scored(capsys, path, "c.json") == again[-1]
        with distributed.Client(address) as client:
            assert _idle_within(client)            # every search ended with its run


def _searching(client) -> int:
    """The searches still running on the cluster's workers."""
    from satiling.apps.maximize import cluster
    return sum(client.run(lambda: sum(len(caps) for caps in cluster._LIVE.values())).values())


def _idle_within(client, seconds: float = 2.0) -> bool:
    """Every search on the cluster ended within ``seconds`` of the run's end (the issue's
    bound: a search cancelled on a late worker ends at its watcher's next look)."""
    end = time.monotonic() + seconds
    while _searching(client) and time.monotonic() < end:
        time.sleep(0.05)
    return _searching(client) == 0


def test_a_lost_worker_costs_its_own_search_only(tmp_path):
    """One of two worker processes killed a second into the run: the run goes on with the other
    and ends at its time limit with a checked board."""
    from satiling import load
    from satiling.apps.maximize import maximize_matches
    from satiling.apps.maximize.board import checked_score
    puzzle = load(_board(tmp_path))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster.scheduler_address) as client:
        pids = client.run(os.getpid)
        boards, killed = [], []
        victim = next(iter(pids.values()))
        killer = threading.Timer(1.0, lambda: (os.kill(victim, signal.SIGKILL), killed.append(1)))
        killer.start()
        start = time.monotonic()
        result = maximize_matches(puzzle, 4.0, boards.append, dask=cluster.scheduler_address)
        took = time.monotonic() - start
        killer.join()
        assert _idle_within(client)
    assert killed, "the worker was not killed during the run"
    assert 3.5 < took < 8.0
    assert result.status == "FEASIBLE" and result.solution
    assert checked_score(puzzle, result.solution) == result.score == boards[-1].score


def test_a_search_that_starts_after_the_stop_ends_at_once(tmp_path):
    """A task started late (as on a worker that replaced a lost one) reads the stop the client
    logged before the task subscribed, and ends without searching: stopped, within a second."""
    from satiling import load
    from satiling.apps.maximize import cluster
    from satiling.apps.maximize.scoring import default_tuning
    puzzle = load(_board(tmp_path))
    spec = cluster.Spec("late", puzzle, False, default_tuning(puzzle), 30.0, len(puzzle.joins()) + 1)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as local, \
            distributed.Client(local.scheduler_address) as client:
        client.log_event(spec.cap_topic, {"stop": True})
        while not client.get_events(spec.cap_topic):
            time.sleep(0.01)
        start = time.monotonic()
        report = client.submit(cluster.search_task, spec, 1, pure=False).result(timeout=10)
        assert time.monotonic() - start < 1.0
        assert report["ended"] == "stopped"
        assert _searching(client) == 0


def test_a_scheduler_that_cannot_be_reached_is_one_line_and_exit_2(tmp_path, capsys):
    with socket.socket() as s:                  # a port where nothing listens
        s.bind(("127.0.0.1", 0))
        address = "tcp://127.0.0.1:%d" % s.getsockname()[1]
    start = time.monotonic()
    assert main(["solve", "eternity2", "--maximize-matches", "--dask", address]) == 2
    assert time.monotonic() - start < 10
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot reach the Dask scheduler" in err
    assert not list(tmp_path.iterdir())         # no best-board file begun


def test_a_listener_that_is_no_scheduler_is_one_line_and_exit_2(capsys):
    """Something answers on the port, not in Dask's protocol: the client's error is said in one
    line, not as a traceback."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        address = "tcp://127.0.0.1:%d" % listener.getsockname()[1]

        def babble() -> None:
            for _ in range(2):                  # the knock at the port, then Dask's client
                conn, _ = listener.accept()
                with conn:
                    conn.sendall(b"\xff" * 64)
                    time.sleep(0.5)

        threading.Thread(target=babble, daemon=True).start()
        start = time.monotonic()
        assert main(["solve", "eternity2", "--maximize-matches", "--dask", address]) == 2
        assert time.monotonic() - start < 10
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Dask scheduler" in err


def test_the_cluster_runs_the_backtracker_only(tmp_path, capsys):
    path = _board(tmp_path, 4, 4)
    for extra in (["--engine", "cpsat"], ["--threads", "2"]):
        assert main(["solve", path, "--maximize-matches", "--dask", "tcp://127.0.0.1:1", *extra]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Dask" in err
    assert not list(tmp_path.glob("*best*"))


def test_a_board_from_the_cluster_counts_by_its_own_score_never_by_its_claim(tmp_path):
    """The client checks each worker's board itself: a board claiming every join gets its true
    score; a board with a piece twice and a message with no board are refused, with one note."""
    from satiling import load
    from satiling.apps.maximize.scoring import _first_board
    from satiling.apps.maximize.cluster import Spec, _Board, _Run, pack
    from satiling.families.edgematch.geometry import Tile
    from satiling.families.edgematch.score import score
    puzzle = load(_board(tmp_path, 5, 5))
    joins = len(puzzle.joins())
    tiles, breaks = _first_board(puzzle, False, 0)
    true_score = score(puzzle, puzzle.board_from(tiles)).matched      # the scorer `score` uses
    assert true_score == joins - breaks < joins
    twice = [Tile(t.row, t.col, tiles[0].piece if k == 1 else t.piece, t.rotation)
             for k, t in enumerate(tiles)]
    logged, improved, notes = [], [], []

    class Client:
        def log_event(self, topic, msg):
            logged.append(msg)

    board = _Board(puzzle, False, joins, None)
    run = _Run(Client(), Spec("t", puzzle, False, None, None, joins + 1), board, [], improved.append,
               0.0, notes.append)
    run.boards_in([{"breaks": 0, "board": pack(puzzle, twice)}, {"breaks": 0, "board": b"junk"},
                   {"breaks": 0, "board": pack(puzzle, tiles)}])
    assert [imp.score for imp in improved] == [true_score]
    assert logged == [{"breaks": breaks}]              # the cap sent on is the board's own
    assert len(notes) == 1 and "refused" in notes[0]
    assert board.result(False).score == true_score


def test_the_board_at_work_comes_from_the_first_search_and_leaves_nothing_behind(tmp_path):
    """``on_partial`` is shown the board the first search stands on (a board of the puzzle's
    pieces, each once, some squares still empty), as a local run's first worker shows it; the
    scheduler keeps no board of the run after it."""
    from satiling import load
    from satiling.apps.maximize import maximize_matches
    from satiling.apps.maximize.cluster import EMPTY, pack, unpack
    puzzle = load(_board(tmp_path, 12, 12))
    shown: list = []
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster.scheduler_address) as client:
        result = maximize_matches(puzzle, 3.0, lambda imp: None, on_partial=shown.append,
                                  dask=cluster.scheduler_address)
        left = client.run_on_scheduler(lambda dask_scheduler: list(dask_scheduler.extensions["variables"].variables))
    assert result.solution and shown
    for tiles in shown:
        squares = {(t.row, t.col) for t in tiles}
        assert len(squares) == len(tiles) == len({t.piece for t in tiles}) <= 144
        assert all(0 <= r < 12 and 0 <= c < 12 for r, c in squares)
    assert not [name for name in left if name.startswith("satiling-maximise")]
    some = shown[0][:5]
    assert unpack(puzzle, pack(puzzle, some), partial=True) == sorted(some, key=lambda t: (t.row, t.col))
    with pytest.raises(SatilingError):           # a board at work of pieces the puzzle has not
        unpack(puzzle, pack(puzzle, some)[:-4] + bytes([0xFE, 0xFF, 0, 0]), partial=True)
    with pytest.raises(SatilingError):           # a board with empty squares is no better board
        unpack(puzzle, pack(puzzle, some))
    assert EMPTY not in {t.piece for t in unpack(puzzle, pack(puzzle, some), partial=True)}
