"""``satiling forced`` against the intersection of every solution, and ``satiling hint`` against the
set of every solution.

The oracle is ``satiling enumerate --raw`` (every solution, each verified) or, on generated boards,
the brute force of :mod:`brute` on the board without its pins: the placements every one of those
solutions holds must be exactly what ``forced`` prints, with each method; a hint must be a
placement of one of them.  Boards: bundled ones on the square, triangle, hexagon, cubic and drafter
lattices, a cylinder, edge matching and IQ-Link (the SAT path), some with pins, one with none
forced and one with no solution; and generated pinned boards of every lattice.
"""
from __future__ import annotations

import contextlib
import io
import json
import random
import signal
from pathlib import Path
from typing import Any

import pytest

import brute
from satiling import catalog
from satiling.cli import main
from satiling.search.backbone import Backbone, ExactOracle, backbone

#: (name, pins as (piece, cells)): bundled boards, pinned where the list is not empty
BOARDS: list[tuple[str, list[tuple[str, list]]]] = [
    ("pentomino-3x20", []),
    ("pentomino-6x10", [("Z", [[0, 6], [1, 6], [1, 7], [1, 8], [2, 8]])]),       # 129 tilings, V forced
    ("pentomino-8x8-centre", [("Y", [[1, 1], [1, 2], [1, 3], [1, 4], [2, 3]])]),
    ("tetrahex-4x7", []),
    ("hexiamond-6x6", [("H", [[3, -1], [3, 0], [3, 1], [3, 2], [4, 1], [4, 2]])]),
    ("soma-cube", [("T", [[0, 2, 0], [1, 2, 0], [1, 2, 1], [2, 2, 0]])]),
    ("serenity", []),
    ("tetromino-cylinder-4x5", [("I", [[0, 3], [0, 4], [0, 0], [0, 1]])]),
    ("iqlink-junior", []),
    ("hexiamond-3x12", []),                                                   # no solution
]
#: the polyform boards ``--method sat`` runs on too (the others' CNF takes seconds to build)
SMALL = {"tetrahex-4x7", "soma-cube", "serenity", "tetromino-cylinder-4x5"}


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def instance(name: str, pins: list, tmp: Path) -> str:
    """The board's name, or a copy of its file with the pins as ``[[placed]]`` tables."""
    if not pins:
        return name
    text = catalog.instances_dir().joinpath(f"{name}.toml").read_text()
    for piece, cells in pins:
        text += f'\n[[placed]]\npiece = "{piece}"\ncells = {json.dumps(cells)}\n'
    path = tmp / f"{name}-pinned.toml"
    path.write_text(text)
    return str(path)


def every_solution(name: str) -> list[set[str]]:
    code, out, err = run("enumerate", name, "--raw", "--quiet", "--json")
    assert code in (0, 1), err
    return [{_key(p) for p in json.loads(line)["placements"]} for line in out.splitlines()]


def _key(placement: dict[str, Any]) -> str:
    return json.dumps(placement, sort_keys=True)


def forced_json(name: str, *options: str) -> tuple[int, dict[str, Any]]:
    code, out, err = run("forced", name, "--json", *options)
    assert code in (0, 1), err
    return code, json.loads(out)


@pytest.mark.parametrize("name, pins", BOARDS, ids=[b[0] for b in BOARDS])
def test_forced_is_the_intersection_of_every_solution(name: str, pins: list, tmp_path: Path) -> None:
    target = instance(name, pins, tmp_path)
    solutions = every_solution(target)
    polyform = catalog.load(target).family == "polyform"
    # (CaDiCaL's model of a pentomino or hexiamond board takes seconds to build: the small ones)
    methods = ["auto"] + (["exact", "enumerate"] if polyform else []) + (["sat"] if name in SMALL else [])
    for method in methods:
        code, data = forced_json(target, "--method", method)
        if not solutions:
            assert (code, data["forced"], data["complete"]) == (1, None, True), method
            continue
        assert code == 0 and data["complete"] and data["undecided"] == []
        assert {_key(p) for p in data["forced"]} == set.intersection(*solutions), method
    if solutions and pins:
        assert len(set.intersection(*solutions)) >= len(pins)


@pytest.mark.parametrize("name, pins", BOARDS[:9], ids=[b[0] for b in BOARDS[:9]])
def test_a_hint_is_a_placement_of_some_solution(name: str, pins: list, tmp_path: Path) -> None:
    target = instance(name, pins, tmp_path)
    solutions = every_solution(target)
    anywhere = set.union(*solutions)
    shown = set()
    for seed in range(3):
        code, out, err = run("hint", target, "--json", "--seed", str(seed))
        assert code == 0, err
        data = json.loads(out)
        assert data["seed"] == seed and _key(data["hint"]) in anywhere
        assert _key(data["hint"]) not in {_key({"piece": p, "cells": c}) for p, c in pins}
        shown.add(_key(data["hint"]))
    assert run("hint", target, "--json", "--seed", "2")[1] == out                # the same again
    if len(anywhere) > 12:
        assert len(shown) > 1                       # seeds reveal different placements


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4] + [pytest.param(s, marks=pytest.mark.slow) for s in range(5, 15)])
def test_forced_on_generated_pinned_boards(seed: int, tmp_path: Path) -> None:
    """Generated boards (every lattice, wrapped ones, every rule) with a pin from one of their
    solutions: ``forced`` is what every brute-force solution holding the pin holds, and a hint is a
    placement of one of them."""
    rng = random.Random(seed)
    lattice = brute.LATTICES[seed % len(brute.LATTICES)]
    for data, puzzle, sols in brute.solved_polyforms(
            range(seed * 100_000, seed * 100_000 + 100_000), "g", tmp_path,
            lambda data: data["lattice"] == lattice):
        if len([s for s in sols if s]) >= 2:
            break
    pin = rng.choice(sorted(rng.choice([s for s in sols if s])))
    holding = [s for s in sols if pin in s]
    path = tmp_path / "g.toml"
    path.write_text("".join(f"{k} = {_toml(v)}\n" for k, v in {**data, "placed": [pin.to_json()]}.items()))
    want = {_key(p.to_json()) for p in frozenset.intersection(*holding)}
    for method in ("auto", "sat", "enumerate"):
        assert {_key(p) for p in forced_json(str(path), "--method", method)[1]["forced"]} == want
    code, out, _ = run("hint", str(path), "--json", "--seed", str(seed))
    got = json.loads(out)["hint"]
    anywhere = {_key(p.to_json()) for s in holding for p in s}
    assert code == 0 and (got is None and anywhere == want or _key(got) in anywhere - {_key(pin.to_json())})


def _toml(v: Any) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {_toml(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    return json.dumps(v)


def test_a_stopped_backbone_claims_only_what_it_proved() -> None:
    """Stopped after each number of questions in turn, the backbone's ``forced`` is always part of
    the true one and ``open`` holds the rest of it: a partial answer never claims too much, nor
    drops a forced placement unmentioned."""
    puzzle = catalog.load(instance("pentomino-8x8-centre", BOARDS[2][1], Path.cwd()))
    problem = puzzle.problem()
    whole = backbone(problem, ExactOracle(problem, puzzle.cover_board(problem)), Backbone("exact"))
    assert len(whole.forced) == 2 and whole.complete

    class Stopped(Exception):
        pass

    for allowed in range(whole.questions):
        ask = ExactOracle(problem, puzzle.cover_board(problem))
        first, asked = ask.first, []

        def limited(assume=(), first=first, asked=asked):
            if len(asked) == allowed:
                raise Stopped
            asked.append(assume)
            return first(assume)
        ask.first = limited
        known = Backbone("exact")
        with pytest.raises(Stopped):
            backbone(problem, ask, known)
        assert not known.complete
        assert set(known.forced) <= set(whole.forced) <= set(known.forced) | set(known.open) \
            or known.exists is None


def test_forced_stopped_by_the_time_limit_says_partial(tmp_path: Path) -> None:
    code, out, err = run("forced", "tortoise", "--time-limit", "0.5")
    assert code == 3
    assert "partial" in err and "not settled" in err
    assert "none proved yet" in out or "(pinned)" in out or out.strip()


def test_a_stopped_hint_says_so_in_its_json(tmp_path: Path) -> None:
    """A hint stopped before it met a solution prints, with --json, a line saying it is not
    complete (so a reader of the JSON, the web app's hint among them, tells it from "no solution"
    and from a bad puzzle); a finished hint says it is complete."""
    code, out, err = run("hint", "eternity", "--json", "--time-limit", "0.5", "--seed", "1")
    assert code == 3, err
    answer = json.loads(out)
    assert answer["hint"] is None and answer["complete"] is False and answer["seed"] == 1
    assert "no hint yet" in err
    code, out, err = run("hint", "pentomino-3x20", "--json", "--seed", "1")
    assert code == 0 and json.loads(out)["complete"] is True, err
    code, out, err = run("hint", "hexiamond-3x12", "--json")       # no solution: complete too
    assert code == 1 and json.loads(out) == {"puzzle": "hexiamond-3x12", "hint": None, "complete": True}


def test_forced_and_hint_refuse_bad_input_in_one_line() -> None:
    for argv in (["forced", "no-such-board"], ["hint", "pentomino-6x10", "--seed", "x"],
                 ["forced", "pentomino-6x10", "--method", "guess"], ["forced", "pentomino-6x10", "--time-limit", "-1"]):
        code, out, err = run(*argv)
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, (argv, err)


def test_forced_interrupted_exits_130(tmp_path: Path) -> None:
    """SIGINT during the search: what is proved so far is printed, partial, exit 130."""
    import subprocess
    import sys
    import time
    script = Path(sys.executable).parent / "satiling"
    p = subprocess.Popen([str(script), "forced", "tortoise"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    time.sleep(2)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    assert "partial" in err and "Traceback" not in err


def test_the_library_has_forced_and_hint() -> None:
    import satiling
    pins = BOARDS[1][1]
    puzzle = satiling.Polyform((6, 10), "pentominoes", placed=pins)
    every = [set(s) for s in puzzle.solutions(raw=True)]
    assert len(every) == 129
    got = puzzle.forced()
    assert got.complete and got.exists and set(got) == set.intersection(*every) and len(got) == 2
    for seed in range(3):
        placement = puzzle.hint(seed=seed)
        assert placement in set.union(*every) and placement not in got
    assert satiling.load("hexiamond-3x12").forced().exists is False
    assert satiling.load("hexiamond-3x12").hint() is None


def test_forced_says_what_is_forced_beyond_the_pins(tmp_path: Path) -> None:
    """The pins are in every solution, and the user placed them: the summary counts what else
    is. X pinned on the 6x10 forces nothing more, Z pinned forces V; the JSON lists the pins in
    ``forced`` and again in ``pinned``."""
    x_pinned = "satiling:1ePn7cQ-Jg-uoMKswNMDrSfyOwRIEEahhYITmY0MdY4RfawG9_Sn_"
    code, out, err = run("forced", x_pinned)
    assert code == 0 and "x6x10: nothing is forced beyond the 1 pinned piece, proved by" in err, err
    assert out.splitlines()[-1] == "X 0,2 1,1 1,2 1,3 2,2  (pinned)"
    z_pinned = instance("pentomino-6x10", BOARDS[1][1], tmp_path)
    code, out, err = run("forced", z_pinned)
    assert code == 0 and "1 placement in every solution beyond the 1 pinned, proved by" in err, err
    code, data = forced_json(z_pinned)
    assert data["pinned"] == [{"piece": "Z", "cells": BOARDS[1][1][0][1]}]
    assert [p["piece"] for p in data["forced"]] == ["Z", "V"]
    code, out, err = run("forced", "pentomino-3x20")
    assert code == 0 and "pentomino-3x20: nothing is forced, proved by" in err, err
    assert forced_json("pentomino-3x20")[1]["pinned"] == []


def test_the_words_count_the_placements_beyond_the_pins() -> None:
    from satiling.run import Stop
    from satiling.run.forced import ForcedAnswer, forced_words

    def words(forced: int, pinned: int, stop: Stop = Stop.DONE) -> str:
        return forced_words(ForcedAnswer(stop, list(range(forced)), list(range(pinned)), exists=True))
    assert words(0, 0) == "nothing is forced"
    assert words(1, 0) == "1 placement in every solution"
    assert words(1, 1) == "nothing is forced beyond the 1 pinned piece"
    assert words(5, 2) == "3 placements in every solution beyond the 2 pinned"
    assert words(3, 1, Stop.TIME) == "2 placements proved in every solution beyond the 1 pinned so far"
    assert words(2, 2, Stop.TIME) == "nothing proved forced beyond the 2 pinned pieces yet"
