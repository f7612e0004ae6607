"""Every engine against a brute-force enumerator, on generated small instances.

Each seed makes one instance (:mod:`brute`): polyforms on every lattice, plane and wrapped boards,
holes, copies, every freedom and every combination of the rules (``exact`` / ``at-most`` for cells
and for pieces); edge-matching boards with few colours (equal pieces, many solutions or none),
colours numbered far apart, fixed pieces and hints, and one in four of them made by
``generate-edgematch --symmetric --random-counts`` (different pieces, some equal to their own turns,
colours the pieces may leave out).  The command line then counts it with each engine -- walk, SAT
with each PySAT solver in turn, CP-SAT, the edge-matching backtracker -- raw and up to symmetry,
under each group (``--symmetry none|rotations``), with and without symmetry breaking, both
edge-matching encodings and ``--fix-corner``, and enumerates it (every solution compared, not only
their number).  Every answer must equal the brute force's.

``make test`` runs the first ``FAST`` seeds with every run; the slow set (``pytest -m slow``, run by
``.ci/run``) runs every run of the seeds up to ``FULL``, then ``SLOW`` more, three runs of each
chosen at random.
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
from satiling.errors import SatilingError
from satiling.families.edgematch.generate import generate

FAST = 20
FULL = 300
SLOW = 500           # 0.1 CPU-s a seed: 2750, then 2000, until CI neared its ten minutes
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
    m = re.search(r"(\d+) solutions? in (\d+) symmetry class(?:es)?", err)
    return n, int(m.group(2)) if m else None


def enumerated(path: Path, *options: str) -> list[frozenset]:
    code, out, err = run("enumerate", str(path), "--quiet", "--raw", *options)
    assert code in (0, 1), (options, code, err)
    sols = [frozenset(json.dumps(p, sort_keys=True) for p in json.loads(line)["placements"])
            for line in out.splitlines()]
    assert len(set(sols)) == len(sols), (options, "a solution repeated")
    return sols


def check_counts(path: Path, raw: int, classes: int, options: tuple[str, ...]) -> None:
    if "--symmetry" in options:
        check_group(path, raw, classes, options)
        return
    n, k = count(path, "--raw", *options)
    assert (n, k) == (raw, classes if raw else k), (options, "raw", n, k, raw, classes)
    n, _ = count(path, *options)
    assert n == classes, (options, "distinct", n, classes)


def check_group(path: Path, raw: int, classes: int, options: tuple[str, ...]) -> None:
    """The count under ``--symmetry`` (none: every solution; rotations: an edge-matching board is
    only turned, so its rotations are its whole group)."""
    group = options[options.index("--symmetry") + 1]
    n, _ = count(path, *options)
    assert n == (raw if group == "none" else classes), (options, n, raw, classes)


# -- polyforms -----------------------------------------------------------------------------------
def polyform_case(seed: int, tmp: Path) -> None:
    found = next(brute.solved_polyforms(range(seed * 50, seed * 50 + 50), f"g{seed}", tmp), None)
    if found is None:
        pytest.skip("no instance of a size the brute force takes")
    data, puzzle, sols = found
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
    if seed < FULL or seed % 4 == 0:
        want = {frozenset(json.dumps(p.to_json(), sort_keys=True) for p in s) for s in sols}
        got = enumerated(path, *engines[(seed // 3) % len(engines)])
        assert set(got) == want


# -- edge matching -------------------------------------------------------------------------------
#: (rows, cols, frame colours, inner colours) of the generated edge-matching boards: colours that
#: rarely leave the generator without room for different pieces; with one or two inner colours
#: most of the 3x3 and larger boards hold pieces equal to their own turns
GENERATED_BOARDS = ((2, 2, 3, 1), (2, 3, 3, 1), (2, 5, 3, 3), (3, 3, 3, 1), (3, 3, 3, 2), (3, 4, 3, 2),
                    (4, 3, 3, 2), (4, 4, 3, 3))


def generated_edge_data(seed: int) -> dict[str, Any] | None:
    """A board of ``generate-edgematch --symmetric`` (all pieces different, some equal to their own
    turns), its colour counts even or random (``--random-counts``: a colour may go unused), half
    of them with colours renumbered far apart; None when the colours leave no room for different
    pieces.  The backtracker numbers colours 1..n (its candidate table): these boards make it
    renumber."""
    rng = random.Random(seed)
    rows, cols, frame, inner = rng.choice(GENERATED_BOARDS)
    try:
        made = generate(rows, cols, frame, inner, seed, symmetric=True, even=rng.random() < 0.5)
    except SatilingError:
        return None
    far = rng.random() < 0.5
    pieces = [[90 + 13 * x if far and x else x for x in p] for p in made.pieces]
    return {"family": "edgematch", "rows": rows, "cols": cols, "pieces": pieces}


def edge_instance(seed: int) -> tuple[dict[str, Any], bool, list[tuple], dict]:
    """(data, hints, the brute force's boards, the pinned squares) of an edge-matching seed: one in
    four a generated board (:func:`generated_edge_data`), the others :func:`brute.edge_data`."""
    for attempt in range(50):
        if (seed // 3) % 4 == 3:
            data = generated_edge_data(seed * 50 + attempt)
            if data is None:
                continue
        else:
            data = brute.edge_data(seed * 50 + attempt)
        hints = "hint" in data and seed % 2 == 0
        pinned = edge_pinned(data, hints)
        try:
            boards = brute.edge_solutions(data["rows"], data["cols"], pieces_of(data), pinned)
        except brute.TooMany:
            continue
        return data, hints, boards, pinned
    pytest.skip("no instance of a size the brute force takes")


def pieces_of(data: dict[str, Any]) -> list[tuple[int, ...]]:
    return [tuple(p) for p in data["pieces"]]


def edge_pinned(data: dict[str, Any], hints: bool) -> dict[tuple[int, int], tuple[int, tuple]]:
    """The fixed pieces (and the hints with ``hints``) as :func:`brute.edge_solutions` takes them."""
    pieces = pieces_of(data)
    out = {}
    for t in list(data.get("fixed", [])) + (list(data.get("hint", [])) if hints else []):
        r, c = ord(t["square"][0]) - 65, int(t["square"][1:]) - 1
        out[(r, c)] = (t["piece"], brute.rotate(pieces[t["piece"] - 1], t.get("rotation", 0)))
    return out


def listed_boards(path: Path, data: dict[str, Any], *options: str) -> list[tuple]:
    """The solutions ``satiling enumerate`` lists, as the brute force writes a board: (piece,
    colours shown) per square in reading order."""
    code, out, err = run("enumerate", str(path), "--quiet", *options)
    assert code in (0, 1), (options, code, err)
    return [board_of(data, json.loads(line)["placements"]) for line in out.splitlines()]


def board_of(data: dict[str, Any], placements: list[dict[str, Any]]) -> tuple:
    """A listed solution as the brute force writes a board.  The compact encoding lists each
    square's piece and each join's colour, not the piece's turn: the colours shown are read off
    the joins around the square (grey on the rim)."""
    rows, cols, pieces = data["rows"], data["cols"], pieces_of(data)
    joins = {p["join"]: p["colour"] for p in placements if "join" in p}

    def name(r: int, c: int) -> str:
        return f"{chr(65 + r)}{c + 1}"

    def shown(r: int, c: int) -> tuple[int, ...]:
        return (joins[name(r - 1, c) + "S"] if r > 0 else 0,
                joins[name(r, c) + "E"] if c < cols - 1 else 0,
                joins[name(r, c) + "S"] if r < rows - 1 else 0,
                joins[name(r, c - 1) + "E"] if c > 0 else 0)
    at = {}
    for p in placements:
        if "square" in p:
            r, c = ord(p["square"][0]) - 65, int(p["square"][1:]) - 1
            edges = brute.rotate(pieces[p["piece"] - 1], p["rotation"]) if "rotation" in p else shown(r, c)
            at[r * cols + c] = (p["piece"], edges)
    return tuple(at[i] for i in range(rows * cols))


def check_edge_listing(path: Path, data: dict[str, Any], boards: list[tuple], pinned: dict,
                       options: tuple[str, ...]) -> None:
    """Every solution (``--raw``) exactly the brute force's, once; up to symmetry, brute-force
    solutions one per class (as many as there are classes, no two equivalent)."""
    listed = listed_boards(path, data, "--raw", *options)
    assert len(listed) == len(set(listed)) and set(listed) == set(boards), options
    reps = listed_boards(path, data, *options)
    rows, cols = data["rows"], data["cols"]
    assert set(reps) <= set(boards), options
    assert len(reps) == brute.edge_classes(rows, cols, reps, pinned) == \
        brute.edge_classes(rows, cols, boards, pinned), options


def edge_case(seed: int, tmp: Path) -> None:
    data, hints, boards, pinned = edge_instance(seed)
    raw, classes = len(boards), brute.edge_classes(data["rows"], data["cols"], boards, pinned)
    path = tmp / f"e{seed}.toml"
    path.write_text(toml(data))
    extra = ("--hints",) if hints else ()
    solver = sat_solver(seed, raw, cubes_many=True)
    encoding = ("--encoding", ("direct", "compact")[seed % 2])
    runs = [("--engine", "auto"), ("--engine", "sat", "--solver", solver, *encoding),
            ("--engine", "sat", "--solver", sat_solver(seed + 3, raw, cubes_many=True), "--encoding",
             ("compact", "direct")[seed % 2])]
    pieces = pieces_of(data)
    distinct = len({min(brute.rotate(p, k) for k in range(4)) for p in pieces}) == len(pieces)
    # the backtracker counts boards of different pieces only; with equal pieces the same runs go
    # to the SAT model by default
    searcher = ("--engine", "backtrack") if distinct else ("--engine", "auto")
    if distinct:
        runs.append(searcher)
    if seed % 3 == 0 and raw <= SLOW_SOLVER_MAX:
        runs.append(("--engine", "cpsat", *encoding))
    configs = [r + extra for r in runs] + [runs[seed % 3] + extra + ("--no-symmetry-breaking",)]
    if "fixed" not in data and not hints:
        configs.append(runs[seed % 3] + ("--fix-corner",))
    unbroken = ((), ("--no-symmetry-breaking",))
    grouped = [searcher + extra + ("--symmetry", group) + b for group in ("none", "rotations")
               for b in unbroken]
    if distinct:        # every one on the backtracker (the KeyError of issue 38 hid here)
        configs += [searcher + extra + ("--no-symmetry-breaking",)] + grouped
    else:               # the SAT model, which the runs above already check: one, in turn
        configs.append(grouped[(seed // 3) % len(grouped)])
    for options in chosen(seed, configs):
        check_counts(path, raw, classes, options)
    if seed < FULL or seed % 4 == 0:
        listed = listed_boards(path, data, "--raw", *runs[seed % len(runs)], *extra)
        assert len(listed) == len(set(listed)) == raw and set(listed) == set(boards)
        if distinct:
            check_edge_listing(path, data, boards, pinned, searcher + extra + unbroken[(seed // 3) % 2])


def chosen(seed: int, configs: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """Every run for the first ``FULL`` seeds; three of them, at random, for each seed of the slow set
    (ten times the instances in about three times the time)."""
    if seed < FULL:
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
@pytest.mark.parametrize("seed", range(FAST, FULL + SLOW))
def test_engines_agree_with_brute_force_slow(seed: int, tmp_path: Path) -> None:
    agree(seed, tmp_path)
