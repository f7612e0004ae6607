"""``satiling serve --dask``: the web app's maximisations run on a Dask cluster (one search per
worker thread), their boards stored and shown as a local run's are, each checked again by the
scorer; a scheduler that is not there is one line before the server starts."""
from __future__ import annotations

import time
import tomllib

import pytest
from starlette.testclient import TestClient

from satiling import catalog
from satiling.cli.main import main
from satiling.families.edgematch.score import score
from satiling.web import create_app

from .api import wait

distributed = pytest.importorskip("distributed")


def _searching(address: str) -> int:
    """The searches still running on the cluster's workers."""
    from satiling.apps.maximize import cluster
    with distributed.Client(address) as client:
        return sum(client.run(lambda: sum(len(caps) for caps in cluster._LIVE.values())).values())


def test_a_maximisation_of_the_web_app_runs_on_the_cluster(tmp_path):
    # tcp: the run is a process of its own, which reaches the scheduler as any client would
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp",
                                  dashboard_address=None) as cluster, \
            TestClient(create_app(tmp_path / "runs.sqlite", dask=cluster.scheduler_address)) as client:
        board = client.post("/api/generate", json={"rows": 8, "cols": 8, "seed": 3}).json()
        r = client.post("/api/runs", json={"puzzle": board["name"], "task": "maximise", "time_limit": 3})
        assert r.status_code == 200, r.text
        run = wait(client, r.json()["id"], 90)
        assert run["state"] in ("done", "partial") and run["engine"] == "backtrack"
        assert "2 searches on the Dask cluster" in run["note"]
        scores = client.get(f"/api/runs/{run['id']}/scores").json()
        assert scores and [s for _, s in scores] == sorted({s for _, s in scores})   # each better
        assert scores[-1][1] == run["score"]
        stored = client.get(f"/api/runs/{run['id']}/solutions/0.json").json()
        puzzle = catalog.load_data(tomllib.loads(board["toml"]), board["name"], None)
        placements = [puzzle.placement_from_json(p) for p in stored["placements"]]
        assert score(puzzle, puzzle.board_from(placements, strict=False)).matched == run["score"]
        assert "<svg" in run["best_svg"] or "<svg" in client.get(f"/api/runs/{run['id']}").json()["best_svg"]

        # a count stays on this machine: the cluster is for the maximisation's searches
        count = client.post("/api/runs", json={"puzzle": "pentomino-3x20", "task": "count"}).json()["id"]
        counted = wait(client, count, 90)
        assert counted["found"] == 2 and "Dask" not in (counted["note"] or "")
        address = cluster.scheduler_address
        assert _searching(address) == 0                 # every search ended with its run


def test_serve_refuses_a_scheduler_that_is_not_there(tmp_path, capsys):
    started = time.monotonic()
    code = main(["serve", "--store", str(tmp_path / "s.sqlite"), "--port", "8799",
                 "--dask", "tcp://127.0.0.1:9"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "127.0.0.1:9" in err
    assert time.monotonic() - started < 15
