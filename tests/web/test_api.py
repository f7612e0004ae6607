"""The web app's API through starlette's test client: every endpoint, its errors (one line of JSON
with satiling's own message, nothing stored), and runs checked against published answers (2
tilings of the 3x20 box by the pentominoes) and against satiling's own verifier and scorer.

One app on one store serves the module; the last tests open a second app on the same store file,
as a restarted server would.
"""
from __future__ import annotations

import json
import re
import time
import tomllib

import pytest
# starlette is satiling's dependency and its test client's httpx2 is in the test extra: a missing
# one is an error here, not a skip (a skip hid this module once, when the client moved to httpx2)
from starlette.testclient import TestClient

from satiling import catalog
from satiling.cli import main as cli_main
from satiling.errors import SatilingError
from satiling.web import create_app
from satiling.web.store import Store

from .api import FINAL, wait

GOOD = """title = "tetrominoes on a cylinder"
piece_set = "tetrominoes"
[region]
rows = 4
cols = 5
topology = "cylinder"
"""
BAD = 'piece_set = "pentominoes"\nfredom = "free"\n[region]\nrows = 6\ncols = 10\n'
SCRIPT = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def store_path(tmp_path_factory):
    return tmp_path_factory.mktemp("web") / "runs.sqlite"


@pytest.fixture(scope="module")
def client(store_path):
    with TestClient(create_app(store_path)) as c:
        yield c


def described(client, name: str) -> dict:
    """A puzzle's page once its facts are measured (the first request may answer before)."""
    deadline = time.monotonic() + 60
    while True:
        page = client.get(f"/api/puzzles/{name}").json()
        if not page["pending"] or time.monotonic() > deadline:
            return page
        time.sleep(0.2)


def start(client, **body) -> str:
    r = client.post("/api/runs", json=body)
    assert r.status_code == 200, r.text
    return r.json()["id"]


def stored_instances(store_path) -> list:
    return sorted(p.name for p in store_path.with_name(store_path.name + ".instances").iterdir())


# -- the page and the puzzles ------------------------------------------------------------------------
def test_page_and_static_files_are_served(client):
    assert client.get("/").status_code == 200
    assert "text/html" in client.get("/").headers["content-type"]
    assert client.get("/static/app.js").status_code == 200


def test_gallery_lists_every_bundled_puzzle(client):
    listed = client.get("/api/puzzles").json()
    assert [p["name"] for p in listed] == [name for name, _ in catalog.available()]
    families = {p["name"]: p["family"] for p in listed}
    assert families["eternity2"] == "edgematch" and families["iqlink-starter"] == "iqlink"


def test_bundled_puzzle_drawn_with_its_facts_apart_from_its_model(client):
    p = described(client, "pentomino-3x20")
    assert p["svg"].lstrip().startswith(("<svg", "<?xml"))
    assert p["facts"]["cells"] == 60 and p["facts"]["pieces"] == 12
    assert p["model"]["placements"] == catalog.load("pentomino-3x20").info()["placements"]
    assert "placements" not in p["facts"] and "cells" not in p["model"] and "variables" in p["model"]
    # the instance file's own words: the known counts and where they come from
    assert "3x20 2 distinct" in p["facts"]["about"] and "Knuth" in p["facts"]["source"]
    assert p["obstruction"] is None
    assert tomllib.loads(p["toml"])["piece_set"] == "pentominoes"


def test_gallery_card_without_facts(client):
    card = client.get("/api/puzzles/eternity?facts=0").json()
    assert card["svg"] and card["model"] == {} and card["pending"] is False
    assert set(card["facts"]) <= {"about", "source"}


def test_parity_argument_shown_before_any_search(client):
    p = described(client, "tetromino-4x5")
    assert p["obstruction"] == catalog.load("tetromino-4x5").obstruction()
    assert "checkerboard" in p["obstruction"]


def test_unknown_puzzle_and_server_path_are_404(client):
    for name in ("no-such-puzzle", "i-000000000000", "..%2F..%2Fetc%2Fpasswd"):
        r = client.get(f"/api/puzzles/{name}")
        assert r.status_code == 404 and set(r.json()) == {"error", "field"}
    assert "unknown puzzle 'no-such-puzzle'" in client.get("/api/puzzles/no-such-puzzle").json()["error"]


def test_piece_sets_by_lattice(client):
    assert "pentominoes" in client.get("/api/piece-sets?lattice=square").json()
    assert client.get("/api/piece-sets?lattice=hexagon").json() == ["tetrahexes"]
    r = client.get("/api/piece-sets?lattice=cubes")
    assert r.status_code == 400 and r.json()["field"] == "lattice"


def test_export_is_the_encode_commands_file(client):
    r = client.get("/api/puzzles/pentomino-3x20/export?format=xcc")
    assert r.status_code == 200
    assert 'filename="pentomino-3x20.xcc"' in r.headers["content-disposition"]
    assert "satiling encode pentomino-3x20" in r.text
    bad = client.get("/api/puzzles/pentomino-3x20/export?format=docx")
    assert bad.status_code == 400 and bad.json()["field"] == "format"


# -- instances ----------------------------------------------------------------------------------------
def test_good_instance_is_stored_and_served(client):
    r = client.post("/api/instances", json={"toml": GOOD})
    assert r.status_code == 200, r.text
    p = r.json()
    assert p["name"].startswith("i-") and len(p["name"]) == 14
    again = described(client, p["name"])
    assert again["facts"]["topology"].startswith("cylinder") and again["toml"] == GOOD
    assert again["svg"] == p["svg"]


def test_bad_instance_gets_satilings_message_and_nothing_is_stored(client, store_path):
    before = stored_instances(store_path)
    with pytest.raises(SatilingError) as expected:
        catalog.load_data(tomllib.loads(BAD), "instance", store_path.parent)
    r = client.post("/api/instances", json={"toml": BAD})
    assert r.status_code == 400
    assert r.json() == {"error": str(expected.value), "field": "toml"}
    assert "Traceback" not in r.text
    assert stored_instances(store_path) == before


def test_malformed_toml_and_server_files_refused(client, store_path):
    before = stored_instances(store_path)
    for text in ("[region\nrows = 2", 'family = "edgematch"\npieces_file = "/etc/passwd"\n'):
        r = client.post("/api/instances", json={"toml": text})
        assert r.status_code == 400 and r.json()["field"] == "toml"
        assert "/etc/passwd" not in r.json()["error"] or "pieces_file" in r.json()["error"]
    r = client.post("/api/instances", json={"toml": 5})
    assert r.status_code == 400 and "not int" in r.json()["error"]
    assert stored_instances(store_path) == before


def test_oversized_upload_is_413_and_nothing_stored(client, store_path):
    before = stored_instances(store_path)
    r = client.post("/api/instances", json={"toml": GOOD + "#" * (1 << 20)})
    assert r.status_code == 413 and "1 MB" in r.json()["error"]
    assert stored_instances(store_path) == before


def test_script_in_title_is_data_and_escaped_in_svg(client):
    text = f'title = "{SCRIPT}"\npiece_set = "tetrominoes"\n[region]\nrows = 4\ncols = 5\n'
    p = client.post("/api/instances", json={"toml": text}).json()
    assert p["title"] == SCRIPT                      # the text itself, for the page to show as text
    assert "<script" not in p["svg"].lower()
    listed = client.get(f"/api/puzzles/{p['name']}").json()
    assert "<script" not in listed["svg"].lower()


def test_painted_board_becomes_an_instance(client):
    cells = [[r, c] for r in range(6) for c in range(10)]
    made = client.post("/api/paint", json={"lattice": "square", "topology": "plane", "cells": cells,
                                           "pieces": "pentominoes", "freedom": "free", "title": "6x10"})
    p = described(client, made.json()["name"])
    assert p["facts"]["cells"] == 60 and p["facts"]["pieces"] == 12
    own = client.post("/api/paint", json={"lattice": "square", "topology": "cylinder",
                                          "cells": [[r, c] for r in range(2) for c in range(4)],
                                          "pieces": [{"name": "D", "cells": [[0, 0], [0, 1]], "count": 4}],
                                          "freedom": "free", "title": "dominoes"}).json()
    own = described(client, own["name"])
    assert own["facts"]["topology"].startswith("cylinder") and own["facts"]["pieces"] == 4


def test_wrapped_triangle_and_hexagon_boards_painted_in_lattice_coordinates(client):
    from satiling.geometry import hexagon, triangle
    torus = client.post("/api/paint", json={"lattice": "hexagon", "topology": "torus",
                                            "cells": [list(c) for c in hexagon.parallelogram(4, 7)],
                                            "pieces": "tetrahexes", "freedom": "free"}).json()
    torus = described(client, torus["name"])
    assert "parallelogram = [4, 7]" in torus["toml"] and torus["facts"]["cells"] == 28
    assert torus["facts"]["topology"].startswith("torus")
    strip = client.post("/api/paint", json={"lattice": "triangle", "topology": "cylinder",
                                            "cells": [list(c) for c in triangle.parallelogram(3, 4)],
                                            "pieces": [{"name": "D", "cells": [[0, 0], [0, 1]], "count": 12}],
                                            "freedom": "free"}).json()
    strip = described(client, strip["name"])
    assert "parallelogram = [3, 4]" in strip["toml"] and strip["facts"]["cells"] == 24


def test_bad_paint_names_its_field(client):
    r = client.post("/api/paint", json={"lattice": "square", "cells": [], "pieces": "pentominoes"})
    assert r.status_code == 400 and r.json()["field"] == "cells"
    r = client.post("/api/paint", json={"lattice": "square", "topology": "torus", "cells": [[0, 0], [1, 1]],
                                        "pieces": "pentominoes"})
    assert r.status_code == 400 and r.json()["field"] == "cells"
    r = client.post("/api/paint", json={"lattice": "square", "cells": [[0, 0]], "pieces": "hexiamonds"})
    assert r.status_code == 400 and r.json()["field"] == "pieces"


def test_painted_copies_counts_and_drawn_pieces(client):
    """Two sets of tetrominoes are the bundled tetromino-4x10's pieces (count = 2 each); a set's
    counts name its pieces as the freedom makes them; a drawn piece the loader refuses names
    'drawn'."""
    box = [[r, c] for r in range(4) for c in range(10)]
    made = client.post("/api/paint", json={"cells": box, "pieces": "tetrominoes", "copies": 2}).json()
    painted = catalog.load_data(tomllib.loads(made["toml"]), "painted", None)
    bundled = catalog.load("tetromino-4x10")
    assert ({(p.name, p.shape, p.count) for p in painted.pieces}
            == {(p.name, p.shape, p.count) for p in bundled.pieces})
    one_sided = client.get("/api/piece-sets/tetrominoes?lattice=square&freedom=one-sided").json()
    assert sorted(p["name"] for p in one_sided["pieces"]) == ["I", "L", "O", "S", "T", "l", "s"]
    r = client.post("/api/paint", json={"cells": box, "pieces": "tetrominoes", "counts": {"l": 1}})
    assert r.status_code == 400 and r.json()["field"] == "counts"
    for drawn, words in (([{"name": "Q", "cells": [[0, 0], [0, 2]]}], "not connected"),
                         ([{"name": "I", "cells": [[0, 0], [0, 1]]}], "two pieces are named 'I'")):
        r = client.post("/api/paint", json={"cells": box, "pieces": "tetrominoes", "drawn": drawn})
        assert r.status_code == 400 and r.json()["field"] == "drawn" and words in r.json()["error"], r.text
    assert client.get("/api/piece-sets/pentominoes?lattice=hexagon").status_code == 404


def test_generated_board_and_bad_size(client):
    p = client.post("/api/generate", json={"rows": 4, "cols": 4, "seed": 3}).json()
    assert p["family"] == "edgematch" and "planted" in p["toml"]
    r = client.post("/api/generate", json={"rows": "four", "cols": 4})
    assert r.status_code == 400 and r.json()["field"] == "rows"


def test_text_that_is_no_text_names_its_field_or_the_request(client):
    """A lone surrogate (JSON's \\ud800) is not text, DEL is no character of an instance file: a
    400, where they were a 500 or a complaint about a 'toml' field the form does not have."""
    cells = [[0, k] for k in range(5)]
    for path, body in (("/api/instances", '{"toml": "title = \\"\\ud800\\""}'),
                       ("/api/paint", '{"cells": %s, "pieces": "pentominoes", "title": "\\ud800"}'
                        % json.dumps(cells))):
        r = client.post(path, content=body.encode(), headers={"content-type": "application/json"})
        assert r.status_code == 400 and "not text" in r.json()["error"], r.text
    r = client.post("/api/paint", json={"cells": cells, "pieces": "pentominoes", "title": "a\x7fb"})
    assert r.status_code == 400 and r.json()["field"] == "title", r.text
    r = client.post("/api/paint", json={"cells": cells, "pieces": [{"name": "d\x7f", "cells": cells}]})
    assert r.status_code == 400 and r.json()["field"] == "pieces", r.text


def test_generate_names_the_field_at_fault(client):
    r = client.post("/api/generate", json={"rows": 3, "cols": 99})
    assert r.status_code == 400 and r.json()["field"] == "cols"
    r = client.post("/api/generate", json={"rows": 3, "cols": 3, "frame_colours": 20000})
    assert r.status_code == 400 and r.json()["field"] == "frame_colours"


def test_body_that_is_not_json_is_one_line(client):
    r = client.post("/api/instances", content=b"not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and set(r.json()) == {"error", "field"}


# -- runs -----------------------------------------------------------------------------------------------
def test_unknown_run_is_404(client):
    for path in ("", "/events", "/solutions", "/solutions/0.svg", "/solutions.jsonl", "/scores"):
        r = client.get(f"/api/runs/r-000000000000{path}")
        assert r.status_code == 404 and "unknown run" in r.json()["error"]
    assert client.post("/api/runs/r-000000000000/stop").status_code == 404


def test_bad_run_arguments_are_400_and_nothing_queued(client):
    before = len(client.get("/api/runs").json())
    for body, field in (({"puzzle": "pentomino-3x20", "task": "count", "engine": "nope"}, "engine"),
                        ({"puzzle": "pentomino-3x20", "task": "dance"}, "task"),
                        ({"puzzle": "pentomino-3x20", "task": "maximise"}, "task"),
                        ({"puzzle": "pentomino-3x20", "task": "count", "time_limit": -1}, "time_limit"),
                        # nothing silently dropped: an unknown field, a count's group on a solve,
                        # raw against a group, an engine that cannot take the model
                        ({"puzzle": "pentomino-3x20", "task": "count", "solver": "glucose4"}, "solver"),
                        ({"puzzle": "pentomino-3x20", "task": "solve", "raw": True}, "raw"),
                        ({"puzzle": "pentomino-3x20", "task": "count", "raw": True, "symmetry": "full"},
                         "symmetry"),
                        ({"puzzle": "iqlink-starter", "task": "solve", "engine": "backtrack"}, "engine"),
                        ({"puzzle": "clue1", "task": "count", "engine": "walk"}, "engine"),
                        ({"puzzle": "iqlink-wizard", "task": "solve", "engine": "walk"}, "engine"),
                        ({"task": "count"}, "puzzle"), ({"puzzle": 7, "task": "count"}, "puzzle"),
                        ({"puzzle": ["pentomino-3x20"], "task": "solve"}, "puzzle")):
        r = client.post("/api/runs", json=body)
        assert r.status_code == 400 and r.json()["field"] == field, r.text
    assert client.post("/api/runs", json={"puzzle": "../etc/passwd", "task": "count"}).status_code == 404
    assert len(client.get("/api/runs").json()) == before


def test_offsets_and_solution_numbers_are_ascii_whole_numbers_in_range(client):
    run = client.post("/api/runs", json={"puzzle": "pentomino-3x20", "task": "enumerate"}).json()["id"]
    wait(client, run)
    for query in ("offset=99999999999999999999", "offset=%C2%B2", "limit=%C2%B9", "offset=%EF%BC%91",
                  "offset=" + "9" * 5000):
        r = client.get(f"/api/runs/{run}/solutions?{query}")
        assert r.status_code == 400 and r.json()["field"] in ("offset", "limit"), (query, r.text)
    for number in ("99999999999999999999", "9" * 5000, "%C2%B2", "1.5"):
        for kind in ("json", "svg"):
            r = client.get(f"/api/runs/{run}/solutions/{number}.{kind}")
            assert r.status_code == 404 and "no such file" in r.json()["error"], r.text
    assert client.get(f"/api/runs/{run}/solutions/0.json").status_code == 200


def test_count_pentomino_3x20_is_2(client):
    run_id = start(client, puzzle="pentomino-3x20", task="count", engine="auto")
    events = [json.loads(line[6:]) for line in client.get(f"/api/runs/{run_id}/events").text.splitlines()
              if line.startswith("data: ")]
    assert events[-1]["type"] == "end" and events[-1]["found"] == 2
    run = wait(client, run_id)
    assert (run["state"], run["stop"], run["found"]) == ("done", "done", 2)
    # the record names the engine that ran (the exact-cover walk, which "auto" chose), and its time
    # is there as soon as the run is done
    assert run["engine"] == "walk"
    assert isinstance(run["seconds"], float) and events[-1]["seconds"] == run["seconds"]
    solved = wait(client, start(client, puzzle="pentomino-3x20", task="solve", engine="auto"))
    assert (solved["state"], solved["engine"]) == ("done", "walk")      # a solve's too


def test_a_run_names_the_engine_auto_chose_while_it_goes(client):
    """Before its search the run names what "auto" became: in its record and as an event, while it
    is still running (the scoring search for Eternity II: the engine `satiling solve eternity2
    --maximize-matches` runs, the table's `backtrack`)."""
    run_id = start(client, puzzle="eternity2", task="maximise", engine="auto", time_limit=60)
    deadline = time.monotonic() + 30
    while True:
        run = client.get(f"/api/runs/{run_id}").json()
        assert run["state"] not in FINAL and time.monotonic() < deadline, run
        if run["engine"] != "auto":
            break
        time.sleep(0.1)
    assert (run["state"], run["engine"]) == ("running", "backtrack")
    assert client.post(f"/api/runs/{run_id}/stop").status_code == 200
    events = events_of(client, run_id)
    assert {"type": "engine", "engine": "backtrack"} in events
    assert wait(client, run_id)["engine"] == "backtrack"


def test_enumerate_pentomino_3x20_gives_2_verified_downloads(client, tmp_path):
    run_id = start(client, puzzle="pentomino-3x20", task="enumerate")
    assert wait(client, run_id)["found"] == 2
    page = client.get(f"/api/runs/{run_id}/solutions?offset=0&limit=24").json()
    assert page["total"] == 2 and [i["index"] for i in page["items"]] == [0, 1]
    for k in (0, 1):
        svg = client.get(f"/api/runs/{run_id}/solutions/{k}.svg")
        assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
        one = client.get(f"/api/runs/{run_id}/solutions/{k}.json").json()
        assert one["puzzle"] == "pentomino-3x20" and len(one["placements"]) == 12
    assert client.get(f"/api/runs/{run_id}/solutions/2.json").status_code == 404
    lines = client.get(f"/api/runs/{run_id}/solutions.jsonl").text
    assert len(lines.splitlines()) == 2
    path = tmp_path / "solutions.jsonl"
    path.write_text(lines)
    assert cli_main(["verify", "pentomino-3x20", str(path)]) == 0     # satiling verify's own path
    late = client.get(f"/api/runs/{run_id}/events").text             # a late page: the state, then end
    assert '"type":"end"' in late and '"found":2' in late


def test_maximise_scores_recorded_and_best_board_scored_by_satiling(client):
    from satiling.families.edgematch.score import score
    board = client.post("/api/generate", json={"rows": 5, "cols": 5, "seed": 7}).json()
    # the planted board's full score ends the search in a second or two (the limit: a loaded machine)
    run_id = start(client, puzzle=board["name"], task="maximise", time_limit=60)
    run = wait(client, run_id, 90)
    assert (run["state"], run["stop"], run["score"], run["joins"]) == ("done", "done", 40, 40)
    scores = client.get(f"/api/runs/{run_id}/scores").json()
    assert scores and scores[-1][1] == run["score"]
    assert [s for _, s in scores] == sorted(s for _, s in scores)
    stored = client.get(f"/api/runs/{run_id}/solutions/0.json").json()
    puzzle = catalog.load_data(tomllib.loads(board["toml"]), board["name"], None)
    placements = [puzzle.placement_from_json(p) for p in stored["placements"]]
    assert score(puzzle, puzzle.board_from(placements, strict=False)).matched == run["score"]
    assert "<svg" in client.get(f"/api/runs/{run_id}").json()["best_svg"]


def test_stop_a_running_count_keeps_its_count(client):
    run_id = start(client, puzzle="obeirne-hexagon", task="count")
    deadline = time.monotonic() + 60
    while client.get(f"/api/runs/{run_id}").json()["found"] == 0:     # running, found some
        assert time.monotonic() < deadline, "no progress within 60 s"
        time.sleep(0.1)
    assert client.post(f"/api/runs/{run_id}/stop").status_code == 200
    asked = time.monotonic()
    run = wait(client, run_id)
    assert time.monotonic() - asked < 10       # not a timing check: the whole count takes minutes
    assert (run["state"], run["stop"]) == ("stopped", "interrupted") and run["found"] > 0


def test_stop_a_queued_run(store_path, tmp_path):
    with TestClient(create_app(tmp_path / "one.sqlite")) as c:
        c.app.state.web.runs.slots = 1
        first = start(c, puzzle="obeirne-hexagon", task="count")
        queued = start(c, puzzle="pentomino-3x20", task="count")
        assert c.get(f"/api/runs/{queued}").json()["state"] == "queued"
        c.post(f"/api/runs/{queued}/stop")
        assert c.get(f"/api/runs/{queued}").json()["state"] == "stopped"
        c.post(f"/api/runs/{first}/stop")
        assert wait(c, first)["state"] == "stopped"


def test_restarted_server_lists_finished_runs_and_their_solutions(tmp_path):
    store_path = tmp_path / "restart.sqlite"
    with TestClient(create_app(store_path)) as client:
        started = client.post("/api/runs", json={"puzzle": "pentomino-3x20", "task": "enumerate"}).json()
        assert wait(client, started["id"])["state"] == "done"
        runs = client.get("/api/runs").json()
    enumerated = next(r for r in runs if r["id"] == started["id"])
    orphan = Store(store_path)              # a run the server was running when it died
    orphan.add_run("r-0123456789ab", "pentomino-6x10", "count", "auto", None, True, None)
    orphan.update_run("r-0123456789ab", state="running", found=17)
    orphan.close()
    with TestClient(create_app(store_path)) as again:
        listed = {r["id"]: r for r in again.get("/api/runs").json()}
        assert {r["id"] for r in runs} <= set(listed)
        assert listed[enumerated["id"]]["state"] == "done"
        assert again.get(f"/api/runs/{enumerated['id']}/solutions").json()["total"] == 2
        assert listed["r-0123456789ab"]["state"] == "stopped" and listed["r-0123456789ab"]["found"] == 17
        end = again.get(f"/api/runs/{enumerated['id']}/events").text
        assert '"state":"done"' in end


# -- the token -----------------------------------------------------------------------------------------
def test_token_needed_on_api_when_set(tmp_path):
    with TestClient(create_app(tmp_path / "t.sqlite", token="s3cret")) as c:
        for headers, params in (({}, {}), ({"X-Satiling-Token": "wrong"}, {}), ({}, {"token": "wrong"})):
            r = c.get("/api/puzzles", headers=headers, params=params)
            assert r.status_code == 403 and set(r.json()) == {"error", "field"}
        assert c.post("/api/runs", json={"puzzle": "pentomino-3x20", "task": "count"}).status_code == 403
        assert c.get("/api/runs").status_code == 403
        assert c.get("/api/puzzles", headers={"X-Satiling-Token": "s3cret"}).status_code == 200
        assert c.get("/api/puzzles", params={"token": "s3cret"}).status_code == 200
        assert c.get("/").status_code == 200                 # the page itself reads the token from its URL


# -- the command ---------------------------------------------------------------------------------------
def test_serve_prints_its_address_and_ctrl_c_stops_it_cleanly(tmp_path):
    import signal
    import socket
    import subprocess
    import sys
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "satiling.cli", "serve", "--port", str(port),
                             "--store", str(tmp_path / "s.sqlite")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline() == f"satiling: serving on http://127.0.0.1:{port}/\n"
        import httpx2 as httpx
        assert httpx.get(f"http://127.0.0.1:{port}/api/puzzles", timeout=30).status_code == 200
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode in (0, 130) and "Traceback" not in err


def test_serve_on_a_busy_port_is_one_line_and_opens_no_store(tmp_path):
    import socket
    import subprocess
    import sys
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "satiling.cli", "serve", "--port", str(port),
                               "--store", str(tmp_path / "s.sqlite")], capture_output=True, text=True,
                              timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"satiling: error: cannot listen on 127.0.0.1:{port}")
    assert len(done.stderr.splitlines()) == 1
    assert not (tmp_path / "s.sqlite").exists()


# -- what a kill, a second server or a burst of Ctrl-C leaves -----------------------------------------
def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(store) -> tuple:
    """``satiling serve`` on ``store`` and a free port: (the process, its address)."""
    import subprocess
    import sys
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "satiling.cli", "serve", "--port", str(port),
                             "--store", str(store)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    line = proc.stdout.readline()
    assert line == f"satiling: serving on http://127.0.0.1:{port}/\n", (line, proc.stderr.read())
    return proc, f"http://127.0.0.1:{port}"


def test_a_body_nested_1000_deep_is_400_not_500(client):
    for body in ("[" * 1000 + "]" * 1000, '{"a":' * 1000 + "1" + "}" * 1000,
                 '{"cells":' + "[" * 50 + "]" * 50 + "}"):
        for path in ("/api/runs", "/api/instances", "/api/paint", "/api/generate"):
            r = client.post(path, content=body.encode(), headers={"content-type": "application/json"})
            assert r.status_code == 400 and set(r.json()) == {"error", "field"}, (path, body[:20], r.text)


def test_no_request_a_client_can_make_answers_500(tmp_path):
    """Bodies of every shape (fields of every type, nested, in every endpoint) answer 200 or
    400/404/413: nothing a client sends is a server fault.  (The runs asked for are checked,
    not run.)"""
    import random
    rng = random.Random(53)
    fields = ("puzzle", "task", "engine", "time_limit", "raw", "symmetry", "toml", "cells", "pieces",
              "lattice", "topology", "freedom", "title", "rows", "cols", "frame_colours",
              "inner_colours", "seed", "name", "count")
    atoms = (None, True, False, 0, -1, 1.5, 10 ** 30, "", "x", "pentomino-3x20", "eternity2",
             "iqlink-starter", "count", "maximise", "\x00", [0, 0], 1e308)

    def value(depth: int = 0):
        kind = rng.randrange(10)
        if depth > 2 or kind < 7:
            return rng.choice(atoms)
        if kind < 9:
            return [value(depth + 1) for _ in range(rng.randrange(4))]
        return {rng.choice(fields): value(depth + 1) for _ in range(rng.randrange(4))}

    with TestClient(create_app(tmp_path / "fuzz.sqlite"), raise_server_exceptions=False) as c:
        c.app.state.web.runs.submit = lambda spec, title="": "r-000000000000"     # checked, not run
        statuses = set()
        for _ in range(300):
            path = rng.choice(("/api/runs", "/api/instances", "/api/paint", "/api/generate"))
            body = {rng.choice(fields): value() for _ in range(rng.randrange(6))}
            if path == "/api/paint" and rng.random() < 0.5:
                body["cells"] = [[0, k] for k in range(5)]
            r = c.post(path, content=json.dumps(body).encode())
            assert r.status_code in (200, 400, 404, 413), (path, body, r.text)
            assert r.status_code == 200 or set(r.json()) == {"error", "field"}, (path, body, r.text)
            statuses.add(r.status_code)
        for query in ("/api/piece-sets?lattice=%00", "/api/puzzles/%00", "/api/runs/%00",
                      "/api/puzzles/pentomino-3x20/export?format=%00", "/api/puzzles/%ff%fe"):
            assert c.get(query).status_code in (400, 404), query
    assert 400 in statuses


def test_a_second_server_on_a_store_in_use_is_refused_and_marks_nothing(tmp_path):
    import subprocess
    import sys
    store = tmp_path / "one.sqlite"
    first, base = serve(store)
    try:
        import httpx2 as httpx
        run_id = httpx.post(f"{base}/api/runs", json={"puzzle": "obeirne-hexagon", "task": "count"},
                            timeout=30).json()["id"]
        second = subprocess.run([sys.executable, "-m", "satiling.cli", "serve", "--port",
                                 str(free_port()), "--store", str(store)],
                                capture_output=True, text=True, timeout=60)
        assert second.returncode == 2 and second.stdout == ""
        assert second.stderr.startswith(f"satiling: error: {store} is in use by another satiling serve")
        assert len(second.stderr.splitlines()) == 1
        assert httpx.get(f"{base}/api/runs/{run_id}", timeout=30).json()["state"] in ("queued", "running")
        httpx.post(f"{base}/api/runs/{run_id}/stop", timeout=30)
    finally:
        first.send_signal(__import__("signal").SIGINT)
        first.communicate(timeout=60)
    # in one process too: a second app on the store is refused when it starts
    with TestClient(create_app(tmp_path / "two.sqlite")):
        with pytest.raises(SatilingError, match="in use by another satiling serve"):
            with TestClient(create_app(tmp_path / "two.sqlite")):
                pass


EMPTY = '{"puzzle":"pentomino-3x20","placements":[]}'


def test_an_enumerations_found_is_written_with_its_solutions(tmp_path):
    store = Store(tmp_path / "e.sqlite")
    store.add_run("r-00000000000a", "pentomino-3x20", "enumerate", "auto", None, False, None)
    store.add_solutions("r-00000000000a", 0, [EMPTY] * 3, counted=True)
    assert store.run("r-00000000000a")["found"] == 3
    store.add_solutions("r-00000000000a", 3, [EMPTY] * 2, counted=True)
    assert store.run("r-00000000000a")["found"] == store.solution_count("r-00000000000a") == 5
    store.close()


def test_an_enumerations_found_is_its_stored_solutions_after_a_kill(tmp_path):
    """A store a kill left with an enumeration's count behind its solutions (as older servers
    could) is put right when the next server opens it."""
    store = Store(tmp_path / "e.sqlite")
    store.add_run("r-00000000000b", "pentomino-3x20", "enumerate", "auto", None, False, None)
    store.update_run("r-00000000000b", state="running", found=1)
    store._run("INSERT INTO solutions VALUES (?, 0, ?), (?, 1, ?)",      # a batch without its count
               ("r-00000000000b", EMPTY, "r-00000000000b", EMPTY))
    store.close()
    with TestClient(create_app(tmp_path / "e.sqlite")) as c:
        run = c.get("/api/runs/r-00000000000b").json()
        assert (run["state"], run["found"]) == ("stopped", 2)
        assert c.get("/api/runs/r-00000000000b/solutions").json()["total"] == 2


def test_ctrl_c_of_serve_any_number_of_times_ends_without_a_traceback(tmp_path):
    import signal
    import httpx2 as httpx
    for burst, gap in ((3, 0.0), (6, 0.03)):
        proc, base = serve(tmp_path / f"c{burst}.sqlite")
        httpx.post(f"{base}/api/runs", json={"puzzle": "obeirne-hexagon", "task": "count"}, timeout=30)
        time.sleep(0.5)
        for _ in range(burst):
            proc.send_signal(signal.SIGINT)
            time.sleep(gap)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 130 and "Traceback" not in err and "Error" not in err, err
        assert err.strip().splitlines()[-1] == "satiling: interrupted"


def scored(puzzle, line: str) -> int:
    from satiling.families.edgematch.score import score
    placements = [puzzle.placement_from_json(p) for p in json.loads(line)["placements"]]
    return score(puzzle, puzzle.board_from(placements, strict=False)).matched


def test_every_look_at_the_store_finds_a_score_with_its_board(tmp_path):
    """While Eternity II is maximised, the store read at any moment (one read, as a restarted
    server reads it) holds the board of the score it lists."""
    import sqlite3
    store_path = tmp_path / "max.sqlite"
    puzzle = catalog.load("eternity2")
    with TestClient(create_app(store_path)) as c:
        run_id = start(c, puzzle="eternity2", task="maximise", time_limit=4)
        reader = sqlite3.connect(str(store_path), isolation_level=None)
        looks = []
        while c.get(f"/api/runs/{run_id}").json()["state"] not in FINAL:
            reader.execute("BEGIN")
            score = reader.execute("SELECT score FROM runs WHERE id = ?", (run_id,)).fetchone()[0]
            board = reader.execute("SELECT json FROM solutions WHERE run = ? AND k = 0", (run_id,)).fetchone()
            reader.execute("COMMIT")
            if score is not None:
                looks.append((score, board[0] if board else None))
            time.sleep(0.01)
    distinct = {}
    for score, board in looks:
        distinct.setdefault(score, set()).add(board)
    assert len(distinct) >= 2, "no improvement seen"
    for score, boards in distinct.items():
        assert all(b is not None and scored(puzzle, b) == score for b in boards), score


def test_serve_killed_during_a_maximisation_keeps_the_board_of_its_score(tmp_path):
    """SIGKILL of ``satiling serve`` while Eternity II improves, then a restart: the run's score
    is ``satiling score`` of its stored board.  (tools/web_kill.py does it ten times.)"""
    import httpx2 as httpx
    store = tmp_path / "kill.sqlite"
    proc, base = serve(store)
    try:
        run_id = httpx.post(f"{base}/api/runs", json={"puzzle": "eternity2", "task": "maximise"},
                            timeout=30).json()["id"]
        deadline = time.monotonic() + 60
        while httpx.get(f"{base}/api/runs/{run_id}", timeout=30).json()["score"] is None:
            assert time.monotonic() < deadline, "no board within 60 s"
            time.sleep(0.05)
        time.sleep(0.3)
    finally:
        proc.kill()
        proc.communicate(timeout=30)
    proc, base = serve(store)
    try:
        run = httpx.get(f"{base}/api/runs/{run_id}", timeout=30).json()
        board = httpx.get(f"{base}/api/runs/{run_id}/solutions/0.json", timeout=30)
    finally:
        proc.send_signal(__import__("signal").SIGINT)
        proc.communicate(timeout=60)
    assert run["state"] == "stopped" and run["score"] is not None
    path = tmp_path / "board.json"
    path.write_text(board.text)
    from satiling.cli import main as satiling
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        satiling(["score", "eternity2", str(path)])
    assert re.search(r"^score (\d+)/480", out.getvalue(), re.M).group(1) == str(run["score"])


# -- what a run says as it goes, and how it ends --------------------------------------------------------
def events_of(client, run_id: str) -> list[dict]:
    """Every event of a run's stream, to its end."""
    return [json.loads(line[6:]) for line in client.get(f"/api/runs/{run_id}/events").text.splitlines()
            if line.startswith("data: ")]


def cli(*args: str) -> int:
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-m", "satiling.cli", *args], capture_output=True,
                          timeout=300).returncode


def test_the_menus_are_the_engine_tables(client):
    from satiling.engines.table import ALL, names
    meta = client.get("/api/meta").json()
    assert meta["tasks"] == [*ALL, "pack", "unique", "forced", "hint"]    # the CLI's own commands last
    for task in ALL:
        assert [e["name"] for e in meta["engines"][task]] == list(names(task))
        assert all(e["label"].startswith(e["name"]) for e in meta["engines"][task])
    assert all([e["name"] for e in meta["engines"][task]] == ["auto"] for task in ("pack", "unique", "forced", "hint"))


@pytest.mark.parametrize("name", ["pentomino-3x20", "clue1", "iqlink-anu"])
def test_the_menus_offer_an_engine_for_the_families_whose_runs_take_it(name):
    """The page offers a task's engine for a puzzle when the engine's ``families`` hold the
    puzzle's family: every engine it hides is one the run refuses for that puzzle (each task),
    and every engine it offers is one the run takes for a solve."""
    from satiling.engines.table import ALL, names
    from satiling.run import Request
    from satiling.run.engines import settled
    from satiling.web.views.puzzles import menus
    puzzle = catalog.load(name)
    for task in ALL[:3]:                      # maximise: the task menu offers it to edge matching only
        for engine in menus()["engines"][task]:
            offered = not engine["families"] or puzzle.family in engine["families"]
            try:
                settled(Request(puzzle, task, engine=engine["name"]))
                taken = True
            except SatilingError:
                taken = False
            assert taken or not offered or task != "solve", (name, task, engine["name"])
            assert offered or not taken, (name, task, engine["name"])
    hidden = {e["name"] for e in menus()["engines"]["solve"] if e["families"] and puzzle.family not in e["families"]}
    assert hidden == {"polyform": {"backtrack"}, "edgematch": {"walk"}, "iqlink": {"backtrack", "walk"}}[puzzle.family]


def test_a_puzzle_is_drawn_as_satiling_show_draws_it(client):
    from satiling.render.pieces import puzzle_svg
    for name in ("pentomino-6x10", "clue1", "iqlink-starter"):
        page = client.get(f"/api/puzzles/{name}?facts=0").json()
        assert page["svg"] == puzzle_svg(catalog.load(name)), name
    iqlink = client.get("/api/puzzles/iqlink-starter?facts=0").json()["svg"]
    assert "3 pieces to place" in iqlink and ": solution" not in iqlink
    assert iqlink.count("<title>") > client.get("/api/puzzles/iqlink-empty?facts=0").json()["svg"].count(
        "<title>") - 12          # the pre-placed pieces are drawn (the empty board has none)


def test_each_state_says_what_the_command_lines_exit_code_says(client):
    """done (exit 0), partial (a time limit: exit 3, the count so far or no answer), stopped."""
    done = wait(client, start(client, puzzle="pentomino-3x20", task="count"))
    assert (done["state"], done["stop"], done["found"]) == ("done", "done", 2)
    assert cli("count", "pentomino-3x20") == 0
    counted = wait(client, start(client, puzzle="obeirne-hexagon", task="count", time_limit=1), 120)
    assert (counted["state"], counted["stop"]) == ("partial", "time") and counted["found"] >= 0
    assert cli("count", "obeirne-hexagon", "--time-limit", "1") == 3
    solved = wait(client, start(client, puzzle="eternity2", task="solve", time_limit=1), 120)
    assert (solved["state"], solved["stop"], solved["found"], solved["stored"]) == ("partial", "time", 0, 0)
    assert cli("solve", "eternity2", "--time-limit", "1") == 3
    end = events_of(client, solved["id"])[-1]
    assert (end["type"], end["state"], end["stop"]) == ("end", "partial", "time")


def test_the_clock_moves_in_every_task(client):
    """Progress at least every half second or so from the run's own clock, with the share of
    the time limit: in a maximisation (which reports boards, not progress) and in a count that
    finds nothing (Eternity II's)."""
    for task in ("maximise", "count"):
        run_id = start(client, puzzle="eternity2", task=task, time_limit=3)
        ticks = [e for e in events_of(client, run_id) if e["type"] == "progress"]
        seconds = [e["seconds"] for e in ticks]
        # (two ticks may read the same tenth of a second on a loaded machine: the clock never
        # goes back, and it moves)
        assert len(set(seconds)) >= 4 and seconds == sorted(seconds), (task, seconds)
        assert max(b - a for a, b in zip(seconds, seconds[1:])) < 2.0, (task, seconds)
        shares = [e["limit_fraction"] for e in ticks]       # of the task's own clock (from its start)
        assert shares == sorted(shares) and 0 < shares[-1] <= 1 and shares[-1] > 0.5, shares
        run = wait(client, run_id)          # one clock: the events', the record's, the end's
        assert seconds[-1] <= run["seconds"] + 0.05 and run["started"] is not None
        assert run["state"] == "partial"


def test_watch_gets_the_solution_found_and_the_board_at_work(client):
    solve = events_of(client, start(client, puzzle="pentomino-6x10", task="solve"))
    solutions = [e for e in solve if e["type"] == "solution"]
    assert solutions and solutions[-1]["index"] == 0 and "<svg" in solutions[-1]["svg"]
    enumerated = events_of(client, start(client, puzzle="pentomino-3x20", task="enumerate"))
    assert {e["index"] for e in enumerated if e["type"] == "solution"} <= {0, 1}
    assert [e for e in enumerated if e["type"] == "solution"][-1]["index"] == 1
    # the walk's board at work, a few times a second while O'Beirne's hexagon is counted
    count = events_of(client, start(client, puzzle="obeirne-hexagon", task="count", time_limit=3))
    boards = [e for e in count if e["type"] == "partial"]
    assert len(boards) >= 3 and all("<svg" in e["svg"] for e in boards), [e["type"] for e in count]
    assert len({e["svg"] for e in boards}) >= 2                           # pieces go down and up
    assert not [e for e in count if e["type"] in ("board", "improve", "solution")]   # not a count's


def test_titles_kept_and_solutions_stored_counted(client):
    cells = [[r, c] for r in range(3) for c in range(20)]
    painted = client.post("/api/paint", json={"cells": cells, "pieces": "pentominoes",
                                              "title": "my long box"}).json()
    posted = client.post("/api/instances", json={"toml": GOOD}).json()
    generated = client.post("/api/generate", json={"rows": 3, "cols": 3, "seed": 1}).json()
    own = {p["name"]: p for p in client.get("/api/instances").json()}
    assert own[painted["name"]] == {"name": painted["name"], "title": "my long box", "family": "polyform"}
    assert own[posted["name"]]["title"] == "tetrominoes on a cylinder"
    assert own[generated["name"]]["title"] == generated["title"] != ""
    runs = {}
    for name, task in ((painted["name"], "enumerate"), (painted["name"], "count"),
                       (posted["name"], "solve"), (generated["name"], "maximise")):
        runs[task] = wait(client, start(client, puzzle=name, task=task, **(
            {"time_limit": 30} if task == "maximise" else {})), 90)
    assert runs["enumerate"]["title"] == runs["count"]["title"] == "my long box"
    assert (runs["enumerate"]["stored"], runs["count"]["stored"]) == (2, 0)
    assert runs["solve"]["stored"] == runs["solve"]["found"] == 1
    assert runs["maximise"]["stored"] == 1 and runs["maximise"]["title"] == generated["title"]
    listed = {r["id"]: r for r in client.get("/api/runs").json()}
    assert listed[runs["enumerate"]["id"]]["title"] == "my long box"


def test_a_second_solution_of_iqlink_unique_is_captioned_so(client):
    """IQ-Link's empty board is not unique (``satiling iqlink unique iqlink-empty`` exits 1): the
    run keeps two solutions, and the picture of the second says it is the second."""
    run_id = client.post("/api/runs", json={"puzzle": "iqlink-empty", "task": "unique"}).json()["id"]
    run = wait(client, run_id, 120)
    assert run["state"] == "done" and run["found"] == 2, run
    def caption(svg: str) -> str:           # its text lines, joined (a long caption is wrapped)
        return " ".join(re.findall(r"<text[^>]*>([^<]*)</text>", svg))
    first = caption(client.get(f"/api/runs/{run_id}/solutions/0.svg").text)
    second = caption(client.get(f"/api/runs/{run_id}/solutions/1.svg").text)
    assert "a second solution, so not unique" in second and "second solution" not in first
    page = client.get(f"/api/runs/{run_id}/solutions?offset=0&limit=2").json()["items"]
    assert ["second solution" in caption(item["svg"]) for item in page] == [False, True]


@pytest.mark.parametrize("name", ["iqlink-anu", "clue1", "pentomino-3x20"])
def test_a_hint_run_keeps_the_pins_and_the_hint_satiling_hint_gives(client, name):
    """A hint as a run, in every family: the run keeps the pins and one placement more, the one
    ``satiling hint NAME --seed S`` reveals for the seed its note names, and says it in words.
    (It failed on every family but polyforms, whose placements alone have cells.)"""
    import subprocess
    import sys
    run = wait(client, client.post("/api/runs", json={"puzzle": name, "task": "hint"}).json()["id"], 120)
    assert (run["state"], run["found"], run["stored"]) == ("done", 1, 1), run
    seed = re.fullmatch(r"A hint: .+\. \(seed (\d+)\)", run["note"])
    assert seed, run["note"]
    said = subprocess.run([sys.executable, "-m", "satiling.cli", "hint", name, "--seed", seed.group(1), "--json"],
                          capture_output=True, text=True, timeout=120)
    hint = json.loads(said.stdout)["hint"]
    puzzle = catalog.load(name)
    pins = [p.to_json() for p in getattr(puzzle, "placed", ()) or getattr(puzzle, "fixed", ())]
    kept = client.get(f"/api/runs/{run['id']}/solutions/0.json").json()
    assert sorted(map(json.dumps, kept["placements"])) == sorted(map(json.dumps, [*pins, hint]))
    # drawn as `satiling hint NAME --svg` draws it, not as a solution (IQ-Link's: the pieces placed)
    picture = subprocess.run([sys.executable, "-m", "satiling.cli", "hint", name, "--seed", seed.group(1),
                              "--svg", "-"], capture_output=True, text=True, timeout=120).stdout
    assert client.get(f"/api/runs/{run['id']}/solutions/0.svg").text == picture
    if name.startswith("iqlink"):
        svg = " ".join(re.findall(r"<text[^>]*>([^<]*)</text>", picture))
        assert f"{len(pins) + 1} of 12 pieces placed" in svg and "solution" not in svg, svg
