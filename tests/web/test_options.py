"""The family's model options on the web, through starlette's test client: listed by
``GET /api/meta`` as the command line's parser has them (both read the registry), taken by
``POST /api/runs`` for the tasks whose commands take them and refused (400, ``field: "options"``)
elsewhere, stored with the run (a restart and a store written before they were included), and
reaching the run: a raw count with a clue piece pinned (``hints``) against the brute force, and
Eternity II's scoring search with its four hint pieces where the instance file puts them.
"""
from __future__ import annotations

import argparse
import sqlite3
import sys
import tomllib
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from satiling import catalog
from satiling.errors import SatilingError
from satiling.registry import families
from satiling.web import create_app

from .api import CLUED, wait

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # tests/brute.py
import brute  # noqa: E402


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with TestClient(create_app(tmp_path_factory.mktemp("web") / "runs.sqlite")) as c:
        yield c


@pytest.fixture(scope="module")
def clued(client) -> str:
    """The clued board, posted: its name."""
    r = client.post("/api/instances", json={"toml": CLUED})
    assert r.status_code == 200, r.text
    return r.json()["name"]


def start(client, **body) -> str:
    r = client.post("/api/runs", json=body)
    assert r.status_code == 200, r.text
    return r.json()["id"]


def subcommand(parser: argparse.ArgumentParser, *path: str) -> argparse.ArgumentParser:
    for name in path:
        parser = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[name]
    return parser


def option_flags(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """The family model options' flags the command takes, each with its action."""
    known = {o.flag for record in families().values() for o in record.options}
    return {s: a for a in parser._actions for s in a.option_strings if s in known}


#: each task of the page and the command that runs it on the command line
COMMANDS = {"solve": ("solve",), "count": ("count",), "enumerate": ("enumerate",),
            "maximise": ("solve",), "pack": ("pack",), "unique": ("iqlink", "unique"),
            "forced": ("forced",), "hint": ("hint",)}


def test_meta_lists_each_familys_options_as_the_command_line_has_them(client):
    """One table: the flags, help, kinds and choices of every family's options, under its
    title, are the ones ``satiling solve`` has in that family's help group."""
    from satiling.cli.parser import build_parser
    meta = client.get("/api/meta").json()
    solve = subcommand(build_parser(), "solve")
    groups = {g.title: g._group_actions for g in solve._action_groups}
    assert set(meta["families"]) == set(families())
    for name, record in meta["families"].items():
        actions = groups[f"{record['title']} options"]
        assert [o["flag"] for o in record["options"]] == [a.option_strings[0] for a in actions], name
        for option, action in zip(record["options"], actions):
            assert option["help"] == action.help
            assert option["kind"] == ("flag" if action.nargs == 0 else "int" if action.type is int else "str")
            assert option["choices"] == list(action.choices or ())
            assert option["key"] == option["flag"][2:].replace("-", "_")
    assert [o["key"] for o in meta["families"]["polyform"]["options"]] == ["parity"]
    assert "hints" in [o["key"] for o in meta["families"]["edgematch"]["options"]]


def test_the_tasks_that_take_options_are_those_whose_commands_do(client, clued):
    """A task takes model options where its command has their flags (``iqlink unique`` IQ-Link's
    ``--link-rule``; ``pack``, ``forced`` and ``hint`` none); maximise the ones the run's own
    check lets through (the hint pieces: the others are the SAT model's)."""
    from satiling.cli.parser import build_parser
    from satiling.run import Request
    from satiling.run.tasks import check_maximise
    meta = client.get("/api/meta").json()
    parser = build_parser()
    for task, path in COMMANDS.items():
        flags = option_flags(subcommand(parser, *path))
        assert (task in meta["option_tasks"]) == bool(flags), (task, sorted(flags))
    iqlink = {o["flag"] for o in meta["families"]["iqlink"]["options"]}
    assert set(option_flags(subcommand(parser, "iqlink", "unique"))) == iqlink
    assert [meta["option_tasks"][t] for t in ("solve", "count", "enumerate", "unique")] == [None] * 4
    puzzle = catalog.load_data(tomllib.loads(CLUED), clued, None)
    for option in meta["families"]["edgematch"]["options"]:
        value = option["choices"][-1] if option["choices"] else True
        try:
            check_maximise(Request(puzzle, "maximise", time_limit=5, options={option["key"]: value}))
            taken = True
        except SatilingError:
            taken = False
        assert taken == (option["key"] in meta["option_tasks"]["maximise"]), option["key"]


def test_the_clue_option_reaches_the_count(client, clued):
    """``hints`` pins the board's clue: the raw count is the brute force's with the clue in place,
    not without it (16 and 4: the option changed the answer)."""
    data = tomllib.loads(CLUED)
    free, pinned = brute.edge_answer(data, hints=False)[0], brute.edge_answer(data, hints=True)[0]
    assert free != pinned
    without = wait(client, start(client, puzzle=clued, task="count", raw=True))
    with_hints = wait(client, start(client, puzzle=clued, task="count", raw=True, options={"hints": True}))
    assert (without["state"], without["found"], without["options"]) == ("done", free, {})
    assert (with_hints["state"], with_hints["found"], with_hints["options"]) == ("done", pinned, {"hints": True})
    listed = {r["id"]: r["options"] for r in client.get("/api/runs").json()}
    assert listed[with_hints["id"]] == {"hints": True} and listed[without["id"]] == {}


def test_eternity2_maximise_with_hints_keeps_its_clue_pieces_on_their_squares(client):
    """The scoring search with Eternity II's four clue pieces pinned (``satiling solve eternity2
    --maximize-matches --hints``): its best board holds each where the instance file puts it,
    and the starter piece."""
    from satiling.families.edgematch import square_name
    run = wait(client, start(client, puzzle="eternity2", task="maximise", time_limit=3,
                             options={"hints": True}), 90)
    assert run["state"] == "partial" and run["options"] == {"hints": True} and run["score"], run
    board = client.get(f"/api/runs/{run['id']}/solutions/0.json").json()["placements"]
    on = {p["square"]: (p["piece"], p["rotation"]) for p in board}
    puzzle = catalog.load("eternity2")
    assert len(puzzle.hints) == 4
    for tile in [*puzzle.hints, *puzzle.fixed]:
        assert on[square_name(tile.row, tile.col)] == (tile.piece, tile.rotation), tile


def test_bad_options_are_400_naming_options_and_nothing_is_queued(client, clued):
    before = len(client.get("/api/runs").json())
    for body in ({"puzzle": "pentomino-3x20", "task": "solve", "options": {"nope": True}},
                 {"puzzle": "pentomino-3x20", "task": "count", "options": {"hints": True}},   # another family's
                 {"puzzle": "clue1", "task": "solve", "options": {"parity": True}},
                 {"puzzle": "pentomino-3x20", "task": "solve", "options": ["parity"]},
                 {"puzzle": "pentomino-3x20", "task": "solve", "options": {"parity": 1}},
                 {"puzzle": "clue1", "task": "solve", "options": {"encoding": "tight"}},
                 {"puzzle": "clue1", "task": "count", "options": {"encoding": False}},   # not a flag: not unset
                 {"puzzle": "clue1", "task": "solve", "options": {"hints": True}},      # clue1 has none
                 {"puzzle": clued, "task": "maximise", "time_limit": 5, "options": {"colour_counts": True}},
                 # refused by the puzzle, before its model is built (a run failed on them)
                 {"puzzle": "eternity2", "task": "solve", "options": {"fix_corner": True}},
                 {"puzzle": clued, "task": "count", "options": {"hints": True, "fix_corner": True}},
                 # tasks whose commands take no model options: refused, never dropped
                 {"puzzle": "pentomino-3x20", "task": "pack", "options": {"parity": True}},
                 {"puzzle": "pentomino-3x20", "task": "forced", "options": {"parity": True}},
                 {"puzzle": clued, "task": "hint", "options": {"hints": True}}):
        r = client.post("/api/runs", json=body)
        assert r.status_code == 400 and r.json()["field"] == "options", (body, r.text)
        assert "\n" not in r.json()["error"]
    assert "fix_corner: the fixed pieces of eternity2 already break" in client.post("/api/runs", json={
        "puzzle": "eternity2", "task": "solve", "options": {"fix_corner": True}}).json()["error"]
    assert "pack takes no model options" in client.post("/api/runs", json={
        "puzzle": "pentomino-3x20", "task": "pack", "options": {"parity": True}}).json()["error"]
    assert len(client.get("/api/runs").json()) == before


def test_unset_options_are_unset_for_every_task(client, clued):
    """None, and a flag's False, ask for nothing: a task without model options takes them as it
    takes no options (they were refused there, and dropped for maximise)."""
    for task in ("forced", "hint"):
        run = wait(client, start(client, puzzle=clued, task=task, options={"hints": None}), 60)
        assert run["state"] == "done" and run["options"] == {}, run
    run = wait(client, start(client, puzzle=clued, task="forced", options={"hints": False}), 60)
    assert run["state"] == "done" and run["options"] == {}, run


def test_a_share_text_is_one_puzzle_whatever_white_space_a_paste_leaves(client):
    """A share text pasted with a newline, or spaces around it, names the same puzzle, under the
    same name (a run stored it with them: one puzzle under three names)."""
    import subprocess
    import sys
    from urllib.parse import quote
    text = subprocess.run([sys.executable, "-m", "satiling.cli", "share", "pentomino-3x20"],
                          capture_output=True, text=True, timeout=60).stdout.strip()
    for pasted in (text + "\n", f"  {text} ", "\n" + text):
        assert client.get(f"/api/puzzles/{quote(pasted)}?facts=0").json()["name"] == text
        run = wait(client, start(client, puzzle=pasted, task="count"), 60)
        assert (run["puzzle"], run["found"]) == (text, 2), run          # 2: Knuth's 3x20 count


def test_unique_takes_iqlinks_link_rule(client):
    """``satiling iqlink unique --link-rule eager``: the generated challenge is unique either way."""
    run = wait(client, start(client, puzzle="iqlink-starter", task="unique", options={"link_rule": "eager"}), 90)
    assert (run["state"], run["found"], run["options"]) == ("done", 1, {"link_rule": "eager"})


#: the runs table of a store written before runs had options (and titles)
OLD_RUNS = """CREATE TABLE runs (
    id TEXT PRIMARY KEY, created REAL NOT NULL, puzzle TEXT NOT NULL, task TEXT NOT NULL,
    engine TEXT NOT NULL, time_limit REAL, raw INTEGER NOT NULL, symmetry TEXT,
    state TEXT NOT NULL, stop TEXT, found INTEGER NOT NULL DEFAULT 0, score INTEGER,
    joins INTEGER, started REAL, seconds REAL, error TEXT, note TEXT)"""


def test_options_kept_through_a_restart_and_an_old_store_read(tmp_path):
    """A store written before runs had options opens (its runs listed with none), and a run's
    options are listed again by the next server on the same file."""
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.execute(OLD_RUNS)
    db.execute("INSERT INTO runs (id, created, puzzle, task, engine, raw, state, found) "
               "VALUES ('r-0123456789ab', 1.0, 'pentomino-3x20', 'count', 'walk', 0, 'done', 2)")
    db.commit()
    db.close()
    with TestClient(create_app(path)) as client:
        old = client.get("/api/runs/r-0123456789ab").json()
        assert (old["found"], old["options"], old["title"]) == (2, {}, "")
        run = wait(client, start(client, puzzle="pentomino-3x20", task="solve", options={"parity": True}))
        assert (run["state"], run["found"], run["options"]) == ("done", 1, {"parity": True})
    with TestClient(create_app(path)) as again:
        listed = {r["id"]: r["options"] for r in again.get("/api/runs").json()}
        assert listed == {"r-0123456789ab": {}, run["id"]: {"parity": True}}
        assert again.get(f"/api/runs/{run['id']}").json()["options"] == {"parity": True}
