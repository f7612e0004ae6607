"""Every engine against a brute-force enumerator, on generated small instances.

Each seed makes one instance (:mod:`brute`): polyforms on every lattice, plane and wrapped boards,
holes, copies, every freedom and every combination of the rules (``exact`` / ``at-most`` for cells
and for pieces); edge-matching boards with few colours (equal pieces, many solutions or none),
colours numbered far apart, fixed pieces and hints.  The command line then counts it with each
engine -- walk, SAT with each PySAT solver in turn, CP-SAT, the edge-matching backtracker -- raw and
up to symmetry, with and without symmetry breaking, both edge-matching encodings and
``--fix-corner``, and enumerates it (every solution compared, not only their number).  Every answer
must equal the brute force's.

``make test`` runs the first ``FAST`` seeds with every run; the slow set (``pytest -m slow``, run by
``.ci/run``) runs ``SLOW`` more, three runs of each chosen at random.
"""
from __future__ import annotations

import contextlib
import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

import brute
from satiling.cli import main

FAST = 320
SLOW = 3000
SOLVERS = ("cadical195", "glucose4", "kissat404", "minisat22", "lingeling", "maplechrono",
           "cadical153", "glucose3")
#: Kissat and CP-SAT start a solver per solution: kept to instances with at most this many
SLOW_SOLVER_MAX = 60


def sat_solver(seed: int, raw: int, cubes_many: bool = False) -> str:
    """The PySAT solver of this seed's runs.  Kissat also starts a process per cube, and a model
    that is not an exact cover is split into 256 cubes (3 s a run on a 3x3 board): it runs on
    polyforms (an exact cover's few cubes) only."""
    name = SOLVERS[seed % len(SOLVERS)]
    if name.startswith("kissat") and (raw > SLOW_SOLVER_MAX or cubes_many):
        return "cadical195"
    return name


def toml(data: dict[str, Any]) -> str:
    """The instance as TOML (the few shapes the generators make)."""
    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return repr(v)
        if isinstance(v, str):
            return json.dumps(v)
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        raise TypeError(v)
    top = [f"{k} = {value(v)}" for k, v in data.items() if not isinstance(v, (dict, list)) or
           (isinstance(v, list) and not (v and isinstance(v[0], dict)))]
    out = top
    for k, v in data.items():
        if isinstance(v, dict):
            out += [f"[{k}]"] + [f"{kk} = {value(vv)}" for kk, vv in v.items()]
        elif isinstance(v, list) and v and isinstance(v[0], dict):
            for item in v:
                out += [f"[[{k}]]"] + [f"{kk} = {value(vv)}" for kk, vv in item.items()]
    return "\n".join(out) + "\n"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def count(path: Path, *options: str) -> tuple[int, int | None]:
    """(count, classes where --raw printed them) from ``satiling count``."""
    code, out, err = run("count", str(path), "--quiet", *options)
    assert code in (0, 1), (options, code, err)
    n = int(out.split()[0])
    assert (code == 1) == (n == 0), (options, code, n)
    m = re.search(r"(\d+) solutions in (\d+) symmetry classes", err)
    return n, int(m.group(2)) if m else None


def enumerated(path: Path, *options: str) -> list[frozenset]:
    code, out, err = run("enumerate", str(path), "--quiet", "--raw", *options)
    assert code in (0, 1), (options, code, err)
    sols = [frozenset(json.dumps(p, sort_keys=True) for p in json.loads(line)["placements"])
            for line in out.splitlines()]
    assert len(set(sols)) == len(sols), (options, "a solution repeated")
    return sols


def check_counts(path: Path, raw: int, classes: int, options: tuple[str, ...]) -> None:
    n, k = count(path, "--raw", *options)
    assert (n, k) == (raw, classes if raw else k), (options, "raw", n, k, raw, classes)
    n, _ = count(path, *options)
    assert n == classes, (options, "distinct", n, classes)


# -- polyforms -----------------------------------------------------------------------------------
def polyform_case(seed: int, tmp: Path) -> None:
    for attempt in range(50):
        data = brute.polyform_data(seed * 50 + attempt)
        puzzle = brute.load_or_none(data, f"g{seed}", tmp)
        if puzzle is None:
            continue
        try:
            sols = brute.polyform_solutions(puzzle)
        except brute.TooMany:
            continue
        break
    else:
        pytest.skip("no instance of a size the brute force takes")
    raw, classes = len(sols), brute.polyform_classes(puzzle, sols)
    path = tmp / f"g{seed}.toml"
    path.write_text(toml(data))
    solver = sat_solver(seed, raw)
    engines = [("--engine", "auto"), ("--engine", "walk"), ("--engine", "sat", "--solver", solver)]
    if seed % 3 == 0 and raw <= SLOW_SOLVER_MAX:
        engines.append(("--engine", "cpsat"))
    configs = engines + [engines[seed % len(engines)] + ("--no-symmetry-breaking",)]
    for options in chosen(seed, configs):
        check_counts(path, raw, classes, options)
    if seed < FAST or seed % 4 == 0:
        want = {frozenset(json.dumps(p.to_json(), sort_keys=True) for p in s) for s in sols}
        got = enumerated(path, *engines[(seed // 3) % len(engines)])
        assert set(got) == want


# -- edge matching -------------------------------------------------------------------------------
def edge_case(seed: int, tmp: Path) -> None:
    for attempt in range(50):
        data = brute.edge_data(seed * 50 + attempt)
        hints = "hint" in data and seed % 2 == 0
        try:
            raw, classes = brute.edge_answer(data, hints)
        except brute.TooMany:
            continue
        break
    else:
        pytest.skip("no instance of a size the brute force takes")
    path = tmp / f"e{seed}.toml"
    path.write_text(toml(data))
    extra = ("--hints",) if hints else ()
    solver = sat_solver(seed, raw, cubes_many=True)
    encoding = ("--encoding", ("direct", "compact")[seed % 2])
    runs = [("--engine", "auto"), ("--engine", "sat", "--solver", solver, *encoding),
            ("--engine", "sat", "--solver", sat_solver(seed + 3, raw, cubes_many=True), "--encoding",
             ("compact", "direct")[seed % 2])]
    pieces = [tuple(p) for p in data["pieces"]]
    if len({min(brute.rotate(p, k) for k in range(4)) for p in pieces}) == len(pieces):
        runs.append(("--engine", "backtrack"))      # it counts boards of distinct pieces only
    if seed % 3 == 0 and raw <= SLOW_SOLVER_MAX:
        runs.append(("--engine", "cpsat", *encoding))
    configs = [r + extra for r in runs] + [runs[seed % 3] + extra + ("--no-symmetry-breaking",)]
    if "fixed" not in data and not hints:
        configs.append(runs[seed % 3] + ("--fix-corner",))
    for options in chosen(seed, configs):
        check_counts(path, raw, classes, options)
    if seed < FAST or seed % 4 == 0:
        assert len(enumerated(path, *runs[seed % len(runs)], *extra)) == raw


def chosen(seed: int, configs: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """Every run for the first seeds; three of them, at random, for each seed of the slow set
    (ten times the instances in about three times the time)."""
    if seed < FAST:
        return configs
    return random.Random(seed).sample(configs, min(3, len(configs)))


def agree(seed: int, tmp: Path) -> None:
    if seed % 3 == 2:
        edge_case(seed, tmp)
    else:
        polyform_case(seed, tmp)


@pytest.mark.parametrize("seed", range(FAST))
def test_engines_agree_with_brute_force(seed: int, tmp_path: Path) -> None:
    agree(seed, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(FAST, FAST + SLOW))
def test_engines_agree_with_brute_force_slow(seed: int, tmp_path: Path) -> None:
    agree(seed, tmp_path)
