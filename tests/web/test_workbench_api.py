"""The workbench's API through starlette's test client: pictures as PNG, share texts wherever a
puzzle's name goes (on a server that never saw the puzzle), pins by hand, forced placements and
a hint. Counts are checked against an enumeration of the same board (the 3x20 box: 2 tilings,
8 with their mirror images), forced placements against the intersection of its solutions, a
hint against the solutions themselves.
"""
from __future__ import annotations

import json
import time
import tomllib

import pytest
from starlette.testclient import TestClient

from satiling import catalog
from satiling.render.png import PNG_SIGNATURE, png_size
from satiling.web import create_app

from .api import FINAL

#: the X pentomino where the CLI's example pins it on the 6x10 box
X_PIN = {"piece": "X", "cells": [[0, 2], [1, 1], [1, 2], [1, 3], [2, 2]]}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with TestClient(create_app(tmp_path_factory.mktemp("web") / "runs.sqlite")) as c:
        yield c


@pytest.fixture(scope="module")
def other(tmp_path_factory):
    """A second server with a store of its own: it never saw any puzzle the first made."""
    with TestClient(create_app(tmp_path_factory.mktemp("other") / "runs.sqlite")) as c:
        yield c


def run(client, **body) -> dict:
    r = client.post("/api/runs", json=body)
    assert r.status_code == 200, r.text
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        answer = client.get(f"/api/runs/{r.json()['id']}").json()
        if answer["state"] in FINAL:
            assert answer["state"] == "done", answer
            return answer
        time.sleep(0.1)
    raise AssertionError(f"run of {body} did not end")


@pytest.fixture(scope="module")
def tilings(client) -> tuple[str, list[set]]:
    """Every raw tiling of the 3x20 box, as sets of (piece, cells), and the run that stored them."""
    done = run(client, puzzle="pentomino-3x20", task="enumerate", raw=True)
    assert done["found"] == 8                     # 2 tilings (Goodger) times the box's 4 motions
    lines = client.get(f"/api/runs/{done['id']}/solutions.jsonl").text.splitlines()
    solutions = [{(p["piece"], tuple(map(tuple, p["cells"]))) for p in json.loads(line)["placements"]}
                 for line in lines]
    assert len(solutions) == 8
    return done["id"], solutions


def refused(response, field: str) -> str:
    assert response.status_code == 400, response.text
    assert response.json()["field"] == field, response.json()
    return response.json()["error"]


# -- pictures -----------------------------------------------------------------------------------------
def test_a_solution_and_a_puzzle_come_as_png_the_size_of_their_svg(client, tilings) -> None:
    run_id, _ = tilings
    for k in (0, 7):
        png = client.get(f"/api/runs/{run_id}/solutions/{k}.png")
        assert png.status_code == 200 and png.headers["content-type"] == "image/png"
        assert png.content[:8] == PNG_SIGNATURE
        assert f'{run_id}-{k}.png' in png.headers["content-disposition"]
        svg = client.get(f"/api/runs/{run_id}/solutions/{k}.svg").text
        width, height = png_size(png.content)
        assert f'width="{width}"' in svg and f'height="{height}"' in svg
    assert client.get(f"/api/runs/{run_id}/solutions/8.png").status_code == 404
    assert client.get(f"/api/runs/{run_id}/solutions/x.png").status_code == 404
    for name in ("pentomino-6x10", "soma-cube", "clue1", "iqlink-wizard"):
        picture = client.get(f"/api/puzzles/{name}/picture.png")
        assert picture.status_code == 200 and picture.content[:8] == PNG_SIGNATURE, name
        svg = client.get(f"/api/puzzles/{name}/picture.svg")
        assert svg.text == client.get(f"/api/puzzles/{name}?facts=0").json()["svg"]
    assert client.get("/api/puzzles/no-such/picture.png").status_code == 404
    assert client.get("/api/puzzles/pentomino-6x10/picture.gif").status_code == 404


# -- share texts --------------------------------------------------------------------------------------
def test_a_share_text_opens_and_counts_on_a_server_that_never_saw_it(client, other) -> None:
    text = client.get("/api/puzzles/pentomino-3x20/share").json()["text"]
    assert text == catalog.share_text("pentomino-3x20")
    page = other.get(f"/api/puzzles/{text}", params={"facts": "0"}).json()
    assert page["name"] == text and page["family"] == "polyform"
    assert page["svg"] == client.get("/api/puzzles/pentomino-3x20?facts=0").json()["svg"]
    assert tomllib.loads(page["toml"])["region"] == {"rows": 3, "cols": 20}
    assert run(other, puzzle=text, task="count")["found"] == 2        # Goodger: 2 tilings
    assert other.get(f"/api/puzzles/{text}/picture.png").content[:8] == PNG_SIGNATURE


def test_a_damaged_share_text_is_a_400_naming_the_puzzle(client) -> None:
    text = catalog.share_text("pentomino-3x20")
    for bad in (text[:-12], text[:20] + ("A" if text[20] != "A" else "B") + text[21:], "satiling:9abc"):
        refused(client.post("/api/runs", json={"puzzle": bad, "task": "count"}), "puzzle")
        refused(client.get(f"/api/puzzles/{bad}"), "puzzle")
    # a share text naming a file on the server is not read
    from satiling import share
    leak = share.encode({"family": "edgematch", "pieces_file": "../../secret.txt"})
    assert "pieces_file" in refused(client.post("/api/runs", json={"puzzle": leak}), "puzzle")


# -- pins ---------------------------------------------------------------------------------------------
def test_the_workbench_lists_every_placement_with_its_orientation_and_cell(client) -> None:
    bench = client.get("/api/puzzles/pentomino-6x10/workbench").json()
    puzzle = catalog.load("pentomino-6x10")
    assert len(bench["cells"]) == 60 and all(len(c["points"]) == 4 for c in bench["cells"])
    orientations = {p["name"]: len(p["orientations"]) for p in bench["pieces"]}
    assert orientations["X"] == 1 and orientations["F"] == 8 and orientations["I"] == 2
    got = {(p["piece"], tuple(map(tuple, p["cells"]))) for p in bench["placements"]}
    assert got == {(p.piece, p.cells) for p in puzzle.unpinned_placements()}
    for p in bench["placements"]:
        assert p["at"] in p["cells"] and 0 <= p["o"] < orientations[p["piece"]]
    # on a cylinder a placement across the seam has its orientation too
    wrapped = client.get("/api/puzzles/tetromino-cylinder-4x5/workbench").json()
    assert len(wrapped["placements"]) == len(catalog.load("tetromino-cylinder-4x5").unpinned_placements())
    assert all(p["o"] >= 0 and p["at"] in p["cells"] for p in wrapped["placements"])
    refused(client.get("/api/puzzles/soma-cube/workbench"), "puzzle")
    refused(client.get("/api/puzzles/clue1/workbench"), "puzzle")


def test_pins_count_as_the_enumeration_says_and_bad_pins_are_refused(client, other, tilings) -> None:
    _, solutions = tilings
    one = sorted(solutions[0])
    for pins in ([one[0]], one[:3]):
        body = {"puzzle": "pentomino-3x20", "placed": [{"piece": p, "cells": c} for p, c in pins]}
        text = client.post("/api/pinned", json=body).json()["text"]
        expected = sum(1 for s in solutions if set(pins) <= s)
        assert run(other, puzzle=text, task="count", raw=True)["found"] == expected
        assert other.get(f"/api/puzzles/{text}/workbench").json()["placed"] == \
            [{"piece": p, "cells": [list(c) for c in cells]} for p, cells in sorted(pins)]
    x = client.post("/api/pinned", json={"puzzle": "pentomino-6x10", "placed": [X_PIN]}).json()["text"]
    assert catalog.load(x).placed[0].cells == tuple(map(tuple, X_PIN["cells"]))
    for bad in ([{"piece": "X", "cells": [[0, 9], [1, 8], [1, 9], [1, 10], [2, 9]]}],      # off the board
                [X_PIN, {"piece": "I", "cells": [[0, 2], [0, 3], [0, 4], [0, 5], [0, 6]]}],  # a clash
                [{"piece": "X", "cells": [[0, 0], [0, 1], [0, 2], [0, 3], [0, 4]]}],        # not an X
                [X_PIN, {"piece": "X", "cells": [[3, 6], [4, 5], [4, 6], [4, 7], [5, 6]]}],  # two X
                [{"piece": "Q", "cells": [[0, 0]]}], "X"):
        refused(client.post("/api/pinned", json={"puzzle": "pentomino-6x10", "placed": bad}), "placed")
    refused(client.post("/api/pinned", json={"puzzle": "pentomino-6x10", "pins": []}), "pins")
    refused(client.post("/api/pinned", json={"placed": []}), "puzzle")


def test_forced_is_the_intersection_of_the_solutions_and_a_hint_is_in_one(client, tilings) -> None:
    _, solutions = tilings
    pin = sorted(solutions[0])[0]
    text = client.post("/api/pinned", json={"puzzle": "pentomino-3x20",
                                            "placed": [{"piece": pin[0], "cells": pin[1]}]}).json()["text"]
    answer = client.post("/api/forced", json={"puzzle": text}).json()
    with_pin = [s for s in solutions if pin in s]
    assert answer["complete"] is True
    assert {(p["piece"], tuple(map(tuple, p["cells"]))) for p in answer["forced"]} == set.intersection(*with_pin)
    assert answer["svg"].startswith("<svg") and answer["note"]
    seen = set()
    for seed in (1, 2, 3):
        hint = client.post("/api/hint", json={"puzzle": text, "seed": seed}).json()
        placement = (hint["hint"]["piece"], tuple(map(tuple, hint["hint"]["cells"])))
        assert hint["seed"] == seed and placement != pin
        assert any(placement in s for s in with_pin)
        seen.add(placement)
    refused(client.post("/api/forced", json={"puzzle": text, "time_limit": 0}), "time_limit")
    refused(client.post("/api/hint", json={"puzzle": text, "seed": -1}), "seed")
    refused(client.post("/api/forced", json={"puzzle": text, "seed": 1}), "seed")


def test_a_hint_stopped_by_its_time_limit_is_an_answer_not_a_bad_puzzle(client) -> None:
    """Eternity's 209 pieces meet no solution in half a second: the hint is none yet, not
    complete, and the puzzle is not refused (a 400 naming ``puzzle`` said it was bad)."""
    response = client.post("/api/hint", json={"puzzle": "eternity", "time_limit": 0.5, "seed": 1})
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["hint"] is None and answer["complete"] is False and "no hint yet" in answer["note"]


def test_every_bundled_instance_shared_reads_back_from_the_toml_see_shows() -> None:
    """A shared puzzle has no file: See shows (and downloads) its data written as TOML, which
    reads back to the same data for every bundled instance (Eternity II's 256 tiles included)."""
    from satiling import share
    from satiling.web.toml_text import toml_text
    names = [n for n, _ in catalog.available()]
    assert len(names) > 40
    for name in names:
        data, stem, base = catalog.instance_data(name)
        data = {"name": stem, **share.self_contained(data, base)}
        assert tomllib.loads(toml_text(data)) == data, name
