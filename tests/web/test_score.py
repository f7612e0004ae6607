"""A pasted board scored by the web app (``POST /api/puzzles/{name}/score``) against ``satiling
score NAME - --svg - --hints`` run as a process of its own: the same score, the same picture byte
for byte, the same pinned pieces out of place; and bad input refused naming its field, as the
command line refuses it.
"""
from __future__ import annotations

import json
import re
import tomllib

import pytest
from starlette.testclient import TestClient

from satiling import catalog, share
from satiling.families.edgematch.score import parse_board
from satiling.render.edgematch_svg import board_text
from satiling.web import create_app

from clirun import run_cli
from e2boards import BLACKWOOD_470

from .api import CLUED

#: the starter and the four clue pieces, as the official hint sheet places them
OFFICIAL_PINS = [("I8", 139, 2), ("C3", 208, 3), ("C14", 255, 3), ("N3", 181, 3), ("N14", 249, 0)]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with TestClient(create_app(tmp_path_factory.mktemp("score") / "runs.sqlite")) as c:
        yield c


def e2_boards() -> dict[str, str]:
    """Blackwood's 470 as a grid, as the viewer's URL, with every third square emptied (the
    starter among them), and the five official pins alone as JSON placements."""
    e2 = catalog.load("eternity2")
    full = parse_board(e2, BLACKWOOD_470)
    partial = {sq: held for sq, held in full.items() if (sq[0] + sq[1]) % 3}
    pins = [{"square": square, "piece": piece, "rotation": rotation} for square, piece, rotation in OFFICIAL_PINS]
    return {"full grid": board_text(e2, full), "bucas URL": BLACKWOOD_470,
            "partial grid": board_text(e2, partial), "JSON pins": json.dumps(pins)}


BOARDS = e2_boards()


def the_cli(name: str, board: str) -> tuple[int, str, list[str], str]:
    """``satiling score NAME - --svg - --hints`` of ``board``: its exit code, its score line, the
    squares it names as not holding their pinned piece (with what they hold), and its SVG."""
    done = run_cli("score", name, "-", "--svg", "-", "--hints", input=board, timeout=60)
    line = re.search(r"^score .*$", done.stderr, re.M).group(0)
    wrong = re.findall(r"^satiling: (\S+) should hold the pinned piece \S+; it (.*)$", done.stderr, re.M)
    return done.returncode, line, sorted(wrong), done.stdout


def said(got: dict) -> tuple[str, list[tuple[str, str]]]:
    """The API's answer in the command line's words."""
    extra = f", {got['misfits']} pieces off their frame position" if got["misfits"] else ""
    line = (f"score {got['score']}/{got['joins']}  ({got['score']}/{got['joins']} joins match, "
            f"{got['filled']}/{got['squares']} squares filled{extra})")
    wrong = [(p["square"], "is empty" if p["holds"] is None else f"holds {p['holds']['piece']}/{p['holds']['rotation']}")
             for p in got["pins"] if not p["in_place"]]
    return line, sorted(wrong)


@pytest.mark.parametrize("kind", list(BOARDS))
def test_a_pasted_board_scores_and_draws_as_satiling_score(client, kind):
    code, line, wrong, svg = the_cli("eternity2", BOARDS[kind])
    r = client.post("/api/puzzles/eternity2/score", json={"board": BOARDS[kind]})
    assert r.status_code == 200, r.text
    got = r.json()
    assert said(got) == (line, wrong)
    assert got["svg"] == svg and svg.startswith("<svg")
    assert (code == 0) == all(p["in_place"] for p in got["pins"])
    assert {p["square"]: (p["piece"], p["rotation"], p["kind"]) for p in got["pins"]} == \
        {s: (p, r, "fixed" if s == "I8" else "hint") for s, p, r in OFFICIAL_PINS}


def test_a_stored_instance_and_a_share_text_score_as_the_command_line_reads_them(client, tmp_path):
    """A puzzle named by its stored instance's id is the instance file of that name; one named by
    its share text is the share text the command line is given."""
    name = client.post("/api/instances", json={"toml": CLUED}).json()["name"]
    path = tmp_path / f"{name}.toml"
    path.write_text(CLUED)
    text = share.encode(tomllib.loads(CLUED))
    board = "---/- 2/1 ---/-\n4/0 9/2 ---/-\n---/- ---/- ---/-\n"
    for named, read in ((name, str(path)), (text, text)):
        code, line, wrong, svg = the_cli(read, board)
        assert code == 1 and [w[0] for w in wrong] == ["B2"]
        got = client.post(f"/api/puzzles/{named}/score", json={"board": board}).json()
        assert said(got) == (line, wrong) and got["svg"] == svg


@pytest.mark.parametrize("board", [
    "139/2 1/0\n",                                                       # not 16 lines of 16
    "https://e2.bucas.name/#board_w=16&board_h=16&board_edges=abc",     # a URL cut short
    '[{"square": "A1", "piece": 1, "rotation": 0}, {"square": "A2", "piece": 1, "rotation": 0}]',
    '[{"square": "Q1", "piece": 1, "rotation": 0}]',
    '{"placements": 3}',
    "# only a comment\n",
])
def test_a_board_satiling_score_refuses_is_refused_with_its_message(client, board):
    done = run_cli("score", "eternity2", "-", input=board, timeout=60)
    r = client.post("/api/puzzles/eternity2/score", json={"board": board})
    assert done.returncode == 2 and r.status_code == 400
    assert r.json() == {"error": done.stderr.strip().removeprefix("satiling: error: "), "field": "board"}


@pytest.mark.parametrize("name, body, field", [
    ("pentomino-3x20", {"board": "1/0"}, "puzzle"),           # not an edge-matching puzzle
    ("satiling:not-a-share-text", {"board": "1/0"}, "puzzle"),
    ("eternity2", {}, "board"),
    ("eternity2", {"board": ["139/2"]}, "board"),
])
def test_a_request_without_a_board_to_score_names_its_field(client, name, body, field):
    r = client.post(f"/api/puzzles/{name}/score", json=body)
    assert r.status_code == 400 and r.json()["field"] == field and r.json()["error"], r.text


def test_a_board_over_the_body_limit_is_refused_as_every_large_request(client):
    """The app's one cap on a request body (1 MB, 413), before the board is read."""
    r = client.post("/api/puzzles/eternity2/score", json={"board": "---/- " * 200_000})
    assert r.status_code == 413 and "1 MB" in r.json()["error"]
