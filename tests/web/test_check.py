"""A pasted solution file checked by the web app (``POST /api/puzzles/{name}/check``) against
``satiling verify NAME FILE`` and ``satiling render NAME FILE --svg -`` run as processes of their
own: the same count, the same first wrong solution in the verifier's words, the same picture byte
for byte; and text that is no solution file refused with the reader's message, naming its field.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from satiling.web import create_app

from clirun import run_cli


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with TestClient(create_app(tmp_path_factory.mktemp("check") / "runs.sqlite")) as c:
        yield c


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, tuple[str, str]]:
    """Each kind of solution file, as (puzzle, text), written by the command line."""
    folder = tmp_path_factory.mktemp("solutions")

    def solved(name: str) -> str:
        return run_cli("solve", name, "--json", timeout=60).stdout

    def enumerated(*flags: str) -> str:
        out = folder / f"enum{''.join(flags)}.jsonl"
        assert run_cli("enumerate", "pentomino-3x20", *flags, "--out", str(out), timeout=60).returncode == 0
        return out.read_text()

    pento = solved("pentomino-3x20")
    lines = enumerated()
    return {"solve --json": ("pentomino-3x20", pento),
            "enumerate --out": ("pentomino-3x20", lines),
            "enumerate --raw --out": ("pentomino-3x20", enumerated("--raw")),
            "second shifted off": ("pentomino-3x20", lines + shifted(pento, 6)),
            "first shifted off": ("pentomino-3x20", shifted(pento, 6) + pento),
            "repeated": ("pentomino-3x20", pento + pento),
            "edge matching": ("clue1", solved("clue1")),
            "edge matching turned": ("clue1", turned(solved("clue1"))),
            "iqlink": ("iqlink-anu", solved("iqlink-anu")),
            "iqlink challenge": ("iqlink-starter", solved("iqlink-starter"))}


def shifted(line: str, rows: int) -> str:
    """The solution with its first piece moved ``rows`` rows down: off a 3-row board."""
    data = json.loads(line)
    first = data["placements"][0]
    first["cells"] = [[r + rows, c] for r, c in first["cells"]]
    return json.dumps(data) + "\n"


def turned(line: str) -> str:
    """The board with its first square's piece turned a quarter: its joins no longer match."""
    data = json.loads(line)
    data["placements"][0]["rotation"] = (data["placements"][0]["rotation"] + 1) % 4
    return json.dumps(data) + "\n"


def the_cli(name: str, text: str, folder: Path) -> tuple[int, str, str]:
    """``satiling verify NAME FILE``: its exit code and its line; and ``satiling render NAME FILE
    --svg -``'s SVG ("" when it draws none)."""
    path = folder / "solution.jsonl"
    path.write_text(text)
    done = run_cli("verify", name, str(path), timeout=60)
    line = (done.stdout or done.stderr).strip().removeprefix("satiling: ")
    drawn = run_cli("render", name, str(path), "--svg", "-", timeout=60)
    return done.returncode, line, drawn.stdout if drawn.returncode == 0 else ""


def said(got: dict) -> str:
    """The API's answer in ``satiling verify``'s words."""
    if got["wrong"]:
        return f"solution {got['wrong']['index']} is wrong: {got['wrong']['error']}"
    again = got["solutions"] - got["different"]
    repeats = f" ({again} repeat{'s' if again == 1 else ''} an earlier one: {got['different']} different)" if again else ""
    return f"{got['solutions']} solution{'s' if got['solutions'] != 1 else ''} verified{repeats}"


@pytest.mark.parametrize("kind", ["solve --json", "enumerate --out", "enumerate --raw --out", "second shifted off",
                                  "first shifted off", "repeated", "edge matching", "edge matching turned",
                                  "iqlink", "iqlink challenge"])
def test_a_pasted_solution_is_checked_and_drawn_as_satiling_verify_and_render(client, files, kind, tmp_path):
    name, text = files[kind]
    code, line, svg = the_cli(name, text, tmp_path)
    r = client.post(f"/api/puzzles/{name}/check", json={"solution": text})
    assert r.status_code == 200, r.text
    got = r.json()
    assert said(got) == line
    assert (code == 0) == (got["wrong"] is None) == (got["verified"] == got["solutions"])
    assert got["svg"] == (svg if code == 0 else None)
    assert code != 0 or svg.startswith("<svg")


def test_the_counts_and_the_verifiers_words(client, files):
    """What the lines above stand for: the raw enumeration's 8, a piece off the board named."""
    assert client.post("/api/puzzles/pentomino-3x20/check",
                       json={"solution": files["enumerate --raw --out"][1]}).json()["verified"] == 8
    got = client.post("/api/puzzles/pentomino-3x20/check", json={"solution": files["second shifted off"][1]}).json()
    assert got["solutions"] == 3 and got["verified"] == 2 and got["wrong"]["index"] == 3
    assert re.fullmatch(r"piece \w leaves the board at \(\d+, \d+\)", got["wrong"]["error"]), got


@pytest.mark.parametrize("text", [
    "not json\n",                                                     # not JSON
    '{"puzzle": "clue1", "placements": []}\n',                      # another puzzle's record
    '{"satiling": "enumerate", "format": 1, "puzzle": "clue1"}\n',  # another puzzle's header
    '{"puzzle": "pentomino-3x20", "placements": [{"piece": "F"}]}\n',               # a placement that does not read
    '{"puzzle": "pentomino-3x20", "placements": [{"piece": "F", "cells": [["a", 0]]}]}\n',
    '{"puzzle": "pentomino-3x20", "placements": 3}\n',
    '{"puzzle": "pentomino-3x20", "placement": []}\n',             # a misspelt key
])
def test_text_that_is_no_solution_file_is_refused_with_the_readers_message(client, text):
    done = run_cli("verify", "pentomino-3x20", "-", input=text, timeout=60)
    r = client.post("/api/puzzles/pentomino-3x20/check", json={"solution": text})
    assert done.returncode == 2 and r.status_code == 400, r.text
    message = re.sub(r"^-: ", "the pasted solution: ", done.stderr.strip().removeprefix("satiling: error: "))
    assert r.json() == {"error": message, "field": "solution"}


def test_more_than_a_thousand_solutions_are_refused(client, files):
    text = files["solve --json"][1] * 1001
    r = client.post("/api/puzzles/pentomino-3x20/check", json={"solution": text})
    assert r.status_code == 400 and r.json()["field"] == "solution" and "1000" in r.json()["error"]
    got = client.post("/api/puzzles/pentomino-3x20/check", json={"solution": files["solve --json"][1] * 1000}).json()
    assert got["verified"] == 1000 and got["different"] == 1


@pytest.mark.parametrize("body", [{}, {"solution": ["x"]}, {"solution": 3}])
def test_a_request_without_a_solution_names_its_field(client, body):
    r = client.post("/api/puzzles/pentomino-3x20/check", json=body)
    assert r.status_code == 400 and r.json()["field"] == "solution" and r.json()["error"], r.text
