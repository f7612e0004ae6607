"""Pieces placed by hand (``[[placed]]``) on every lattice and topology, against brute force.

The oracle never sees a pin: it is the brute force's every solution of the puzzle *without* the
pins (:func:`brute.polyform_solutions`), kept where every pin is one of its placements, and its
classes under the board motions of that unpinned puzzle that map the set of pins onto itself.
satiling's model (pins as units, clashing placements left out) must count and enumerate exactly
those, with every engine, raw, up to symmetry and up to rotations, with and without symmetry
breaking; and every bad pin is refused in one line, exit 2.
"""
from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

import brute
from satiling import catalog
from satiling.cli import main

#: (lattice, topology) of each generated case: every lattice, and each wrapped board
KINDS = [("square", "plane"), ("square", "cylinder"), ("square", "torus"), ("triangle", "plane"),
         ("triangle", "torus"), ("hexagon", "plane"), ("hexagon", "cylinder"), ("cubic", "plane"),
         ("drafter", "plane")]
X_PIN = [[0, 2], [1, 1], [1, 2], [1, 3], [2, 2]]


def toml(data: dict[str, Any]) -> str:
    """Instance data as TOML: every key at the top level, its value inline (JSON's arrays; tables
    inline)."""
    def value(v: Any) -> str:
        if isinstance(v, dict):
            return "{" + ", ".join(f"{k} = {value(x)}" for k, x in v.items()) + "}"
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return json.dumps(v)
    return "".join(f"{k} = {value(v)}\n" for k, v in data.items())


def run(*argv: str) -> tuple[int, str, str]:
    import contextlib
    import io
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def count(path: Path, *options: str) -> int:
    code, out, err = run("count", str(path), "--quiet", *options)
    assert code in (0, 1), (options, code, err)
    return int(out.split()[0])


def enumerated(path: Path, *options: str) -> set[frozenset]:
    code, out, err = run("enumerate", str(path), "--quiet", "--raw", *options)
    assert code in (0, 1), (options, code, err)
    return {frozenset(json.dumps(p, sort_keys=True) for p in json.loads(line)["placements"])
            for line in out.splitlines()}


def classes(solutions: list[frozenset], motions: list) -> int:
    return len({min(tuple(sorted(g(p).sort_key() for p in s)) for g in motions) for s in solutions})


def keeping(motions: list, pins: set) -> list:
    """The motions that map the set of pins onto itself."""
    return [g for g in motions if {g(p) for p in pins} == pins]


def oracle(data: dict[str, Any], pins: list[dict], tmp: Path) -> tuple[int, int, int, set]:
    """(raw, classes, classes up to rotations, solutions as JSON sets) by brute force on the
    puzzle without its pins."""
    puzzle = catalog.load_data(data, "free", tmp)
    wanted = {puzzle.placement_from_json(p) for p in pins}
    sols = [s for s in brute.polyform_solutions(puzzle) if wanted <= s]
    full, rot = keeping(puzzle.symmetries(), wanted), keeping(puzzle.rotations(), wanted)
    as_json = {frozenset(json.dumps(p.to_json(), sort_keys=True) for p in s) for s in sols}
    return len(sols), classes(sols, full), classes(sols, rot), as_json


def _topology(data: dict[str, Any]) -> str:
    return data["region"].get("topology", "plane")


def pinned_instance(lattice: str, topology: str, seed: int, tmp: Path) -> tuple[dict, list[dict]]:
    """A generated instance of this kind the brute force takes, with one or two pins from one of
    its solutions (or, one time in four, any placement: then perhaps no solution)."""
    rng = random.Random(seed)
    for data, puzzle, sols in brute.solved_polyforms(
            range(seed * 100_000, seed * 100_000 + 100_000), "free", tmp,
            lambda data: data["lattice"] == lattice and _topology(data) == topology):
        sols = [s for s in sols if s]             # (under "at most" rules nothing placed is one)
        if not sols or len(sols) < 2 and rng.random() < 0.7:
            continue
        if rng.random() < 0.25:
            pins = [rng.choice(puzzle.placements())]
        else:
            chosen = sorted(rng.choice(sols))
            pins = rng.sample(chosen, min(len(chosen), rng.choice([1, 1, 2])))
        return data, [p.to_json() for p in pins]
    raise AssertionError(f"no {lattice} {topology} instance")


@pytest.mark.parametrize("lattice, topology", KINDS)
@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_pins_against_brute_force(lattice: str, topology: str, seed: int, tmp_path: Path) -> None:
    data, pins = pinned_instance(lattice, topology, seed, tmp_path)
    raw, distinct, rotations, sols = oracle(data, pins, tmp_path)
    path = tmp_path / "pinned.toml"
    path.write_text(toml({**data, "placed": pins}))
    engines = [("--engine", "auto"), ("--engine", "walk"), ("--engine", "sat")]
    if seed == 1:
        engines.append(("--engine", "cpsat"))
    for options in engines + [engines[seed] + ("--no-symmetry-breaking",)]:
        assert count(path, "--raw", *options) == raw, options
        assert count(path, *options) == distinct, options
        assert count(path, "--symmetry", "rotations", *options) == rotations, options
    assert enumerated(path, *engines[seed]) == sols
    code, out, err = run("solve", str(path), "--json")
    assert code == (0 if raw else 1), err
    if raw:
        got = {json.dumps(p, sort_keys=True) for p in json.loads(out)["placements"]}
        assert {json.dumps(p, sort_keys=True) for p in pins} <= got


def test_symmetric_pins_keep_their_motions(tmp_path: Path) -> None:
    """Pins that some motions keep: the count up to symmetry is over those motions alone (a 4x4
    board of dominoes, whose eight motions keep: two of a domino in the middle of a side; four
    of two such dominoes face to face; two of two in opposite corners, swapped by a half turn)."""
    def d(*cells: tuple[int, int]) -> dict:
        return {"piece": "D", "cells": [list(c) for c in cells]}
    domino = {"name": "D", "cells": [[0, 0], [0, 1]], "count": 8}
    data = {"lattice": "square", "region": {"rows": 4, "cols": 4}, "piece": [domino]}
    merged = 0
    for pins, kept in (([d((1, 1), (1, 2))], 2), ([d((1, 1), (1, 2)), d((2, 1), (2, 2))], 4),
                       ([d((0, 0), (1, 0)), d((2, 3), (3, 3))], 2), ([d((1, 0), (2, 0))], 2)):
        raw, distinct, rotations, sols = oracle(data, pins, tmp_path)
        path = tmp_path / "d.toml"
        path.write_text(toml({**data, "placed": pins}))
        puzzle = catalog.load(str(path))
        assert len(puzzle.symmetries()) == kept
        merged += raw - distinct
        for breaking in ((), ("--no-symmetry-breaking",)):
            assert count(path, "--raw", *breaking) == raw
            assert count(path, *breaking) == distinct
            assert count(path, "--symmetry", "rotations", *breaking) == rotations
        assert enumerated(path) == sols
    assert merged > 0                   # some classes hold two solutions


def test_x_pinned_on_the_6x10(tmp_path: Path) -> None:
    """The 6x10 with X pinned near a corner: its raw count is the number of the 9356 raw 6x10
    solutions with X on those cells, and no motion of the board keeps the pin, so its distinct
    count is the same number."""
    cells = sorted(map(tuple, X_PIN))
    code, out, _ = run("enumerate", "pentomino-6x10", "--raw", "--quiet")
    lines = [json.loads(line)["placements"] for line in out.splitlines()]
    assert code == 0 and len(lines) == 9356
    there = sum(1 for sol in lines
                if any(p["piece"] == "X" and sorted(map(tuple, p["cells"])) == cells for p in sol))
    path = tmp_path / "x.toml"
    path.write_text(catalog.instances_dir().joinpath("pentomino-6x10.toml").read_text()
                    + f'\n[[placed]]\npiece = "X"\ncells = {X_PIN}\n')
    assert there == 389                 # (so the check below is not of zero against zero)
    assert count(path, "--raw") == there
    assert count(path) == there
    code, _, err = run("count", str(path), "--raw", "--quiet")
    assert re.search(r"389 solutions in 389 symmetry classes", err)


BAD = {
    "off the board": ([{"piece": "X", "cells": [[0, 9], [1, 8], [1, 9], [1, 10], [2, 9]]}], "off the board"),
    "overlap": ([{"piece": "X", "cells": X_PIN}, {"piece": "I", "cells": [[1, c] for c in range(5)]}],
                "[[placed]] 2: cell [1, 1] is pinned by [[placed]] 1 too"),
    "shape": ([{"piece": "X", "cells": [[0, 2], [1, 1], [1, 2], [1, 3], [2, 3]]}], "not piece X"),
    "size": ([{"piece": "X", "cells": X_PIN[:4]}], "not piece X"),
    "too often": ([{"piece": "X", "cells": X_PIN}, {"piece": "X", "cells": [[r + 3, c] for r, c in X_PIN]}],
                  "piece X is pinned 2 times, but the set has it once"),
    "unknown piece": ([{"piece": "Q", "cells": [[0, 0]]}], "no piece 'Q'"),
    "cell twice": ([{"piece": "X", "cells": X_PIN[:4] + [X_PIN[0]]}], "a cell is listed twice"),
    "cell of 3": ([{"piece": "X", "cells": [[0, 2, 1]]}], "[[placed]] 1 cells item 1"),
    "no cells": ([{"piece": "X"}], "needs the key 'cells'"),
    "unknown key": ([{"piece": "X", "cells": X_PIN, "colour": 3}], "unknown key 'colour'"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_pins_are_one_line(case: str, tmp_path: Path) -> None:
    pins, words = BAD[case]
    path = tmp_path / "bad.toml"
    path.write_text(toml({"piece_set": "pentominoes", "region": {"rows": 6, "cols": 10}, "placed": pins}))
    for command in ("count", "show", "encode"):
        code, out, err = run(command, str(path))
        assert code == 2 and out == "", (command, err)
        assert len(err.strip().splitlines()) == 1 and words in err, err


def test_pins_on_a_cylinder_and_a_torus(tmp_path: Path) -> None:
    """A pin across the seam is read in the board's own cells, and refused off them."""
    base = {"piece_set": "tetrominoes", "region": {"rows": 4, "cols": 5, "topology": "cylinder"}}
    across = {"piece": "I", "cells": [[0, 3], [0, 4], [0, 0], [0, 1]]}
    raw, distinct, _, _ = oracle(base, [across], tmp_path)
    path = tmp_path / "c.toml"
    path.write_text(toml({**base, "placed": [across]}))
    assert (count(path, "--raw"), count(path)) == (raw, distinct)
    path.write_text(toml({**base, "placed": [{"piece": "I", "cells": [[0, 3], [0, 4], [0, 5], [0, 6]]}]}))
    code, _, err = run("count", str(path))
    assert code == 2 and "off the board" in err


def test_the_library_takes_pins() -> None:
    import satiling
    pin = ("X", [(0, 2), (1, 1), (1, 2), (1, 3), (2, 2)])
    puzzle = satiling.Polyform((6, 10), "pentominoes", placed=[pin])
    assert puzzle.count(raw=True) == 389 == puzzle.count()
    solution = puzzle.solve()
    assert puzzle.verify(solution)
    assert any(p.piece == "X" and list(p.cells) == pin[1] for p in solution)
    without = [p for p in solution if p.piece != "X"]
    with pytest.raises(satiling.SatilingError):
        puzzle.verify(without)
    with pytest.raises(satiling.SatilingError, match="off the board"):
        satiling.Polyform((6, 10), "pentominoes", placed=[("X", [(r + 5, c) for r, c in pin[1]])])


def test_pack_keeps_the_pins(tmp_path: Path) -> None:
    """A packing holds every pin: on a board the pins make untileable (a 4x5 with I pinned down
    its first column: the checkerboard leaves 4 of 5 tetrominoes) and on one they leave tileable."""
    base = {"piece_set": "tetrominoes", "region": {"rows": 4, "cols": 5}}
    pin = {"piece": "I", "cells": [[0, 0], [1, 0], [2, 0], [3, 0]]}
    path = tmp_path / "t.toml"
    path.write_text(toml({**base, "placed": [pin]}))
    code, out, err = run("pack", str(path), "--json", "--time-limit", "30")
    data = json.loads(out)
    assert code == 0 and data["status"] == "OPTIMAL" and data["pieces"] == 4, err
    assert pin in data["placements"]
    path.write_text(catalog.instances_dir().joinpath("pentomino-6x10.toml").read_text()
                    + f'\n[[placed]]\npiece = "X"\ncells = {X_PIN}\n')
    code, out, err = run("pack", str(path), "--json", "--time-limit", "30")
    data = json.loads(out)
    assert code == 0 and data["pieces"] == 12 and {"piece": "X", "cells": X_PIN} in data["placements"]


def test_workers_and_resume_keep_the_pins(tmp_path: Path) -> None:
    """Worker processes rebuild the pinned puzzle from its file, and a resumed enumeration goes on
    with the pins: the counts stay the brute force's."""
    path = tmp_path / "x.toml"
    path.write_text(catalog.instances_dir().joinpath("pentomino-6x10.toml").read_text()
                    + f'\n[[placed]]\npiece = "X"\ncells = {X_PIN}\n')
    assert count(path, "--raw", "--workers", "2") == 389
    out = tmp_path / "x.jsonl"
    code, _, err = run("enumerate", str(path), "--raw", "--quiet", "--limit", "100", "--out", str(out))
    assert code == 0, err
    code, _, err = run("enumerate", str(path), "--raw", "--quiet", "--resume", str(out))
    assert code == 0, err
    code, stdout, err = run("verify", str(path), str(out))
    assert code == 0 and "389 solutions verified" in (stdout + err)
