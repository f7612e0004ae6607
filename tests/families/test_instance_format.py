"""Malformed instance files: every one is exit 2 with one line on stderr, never a traceback.

The corpus is made by mutating the bundled instance files with a seeded random generator; every
mutation is one the format (``satiling/schema.py``, documented in ``instances/README.md``)
must refuse: a misspelt or unknown key, a value of the wrong type or out of range, a table where a
value belongs, a required key dropped, bytes that are not UTF-8, a file cut off after ``=``, nesting
far too deep.  The cases the reliability audit reported (issue 15) are spelled out one by one.
"""
from __future__ import annotations

import json
import math
import random
import tomllib
from pathlib import Path

import pytest

from satiling import catalog
from satiling.cli import main

SEED = 20261123
#: instances to mutate: every bundled one but Eternity (its file is valid and large; mutations of
#: the other drafter boards cover its keys)
SOURCES = [n for n, _ in catalog.available() if n != "eternity"]
REQUIRED = {"polyform": ["region"], "edgematch": [], "iqlink": []}
#: wrong values, by the type of the value they replace; none is valid for any key of that type
BAD = {
    int: ["six", 6.7, math.inf, math.nan, [6], True, 10 ** 12, {"x": 1}],
    str: [7, True, [1, 2], {"x": 1}, math.inf],
    bool: [1, "yes", [True]],
    list: [7, True, {"x": 1}, 2.5],
    dict: [5, "exact", [1, 2], True],
}


# -- a small TOML writer (the standard library only reads TOML) ---------------------------------
def dumps(data: dict) -> str:
    lines = [f"{k} = {_value(v)}" for k, v in data.items() if not _is_table(v) and not _is_tables(v)]
    for k, v in data.items():
        if _is_table(v):
            lines.append(f"\n[{k}]")
            lines += [f"{kk} = {_value(vv)}" for kk, vv in v.items()]
        elif _is_tables(v):
            for entry in v:
                lines.append(f"\n[[{k}]]")
                lines += [f"{kk} = {_value(vv)}" for kk, vv in entry.items()]
    return "\n".join(lines) + "\n"


def _is_table(v) -> bool:
    return isinstance(v, dict)


def _is_tables(v) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(e, dict) for e in v)


def _value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and math.isnan(v):
        return "nan"
    if isinstance(v, float) and math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)                      # a TOML basic string is JSON's escaping
    if isinstance(v, list):
        return "[" + ", ".join(_value(e) for e in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_value(e)}" for k, e in v.items()) + " }"
    raise TypeError(v)


# -- mutations -----------------------------------------------------------------------------------
def _slots(data: dict) -> list[tuple[dict, str]]:
    """(table, key) of every value in the top level, its tables and its arrays of tables."""
    out = [(data, k) for k in data]
    for v in data.values():
        if isinstance(v, dict):
            out += [(v, k) for k in v]
        elif _is_tables(v):
            out += [(e, k) for e in v for k in e]
    return out


def _misspell(key: str, rng: random.Random) -> str:
    i = rng.randrange(len(key))
    return key[:i] + key[i + 1:] + ("x" if len(key) < 3 else "")


def mutate(text: str, family: str, rng: random.Random) -> tuple[str, bytes]:
    """One invalid variant of an instance file: (what was done, the file's bytes)."""
    data = tomllib.loads(text)
    kind = rng.choice(["misspell", "unknown", "retype", "retype", "retype", "nest", "drop",
                       "bytes", "truncate", "deep"])
    if kind == "drop" and not REQUIRED[family]:
        kind = "unknown"
    if kind == "misspell":
        table, key = rng.choice(_slots(data))
        table[_misspell(key, rng)] = table.pop(key)
    elif kind == "unknown":
        table, _ = rng.choice(_slots(data))
        table[rng.choice(["colour", "rotations", "pieces_count", "topolgy"])] = 1
    elif kind == "retype":
        table, key = rng.choice([s for s in _slots(data) if type(s[0][s[1]]) in BAD])
        table[key] = rng.choice(BAD[type(table[key])])
    elif kind == "nest":
        table, key = rng.choice(_slots(data))
        table[key] = [table[key]] if isinstance(table[key], dict) else {"value": table[key]}
    elif kind == "drop":
        del data[rng.choice(REQUIRED[family])]
    if kind in ("misspell", "unknown", "retype", "nest", "drop"):
        return kind, dumps(data).encode()
    raw = text.encode()
    if kind == "bytes":
        i = rng.randrange(len(raw))
        return kind, raw[:i] + rng.choice([b"\xff", b"\xc3\x28", b"\xe2\x82", b"\x80\x80"]) + raw[i:]
    if kind == "truncate":
        cuts = [i + 1 for i, b in enumerate(raw) if b == ord("=")]
        return kind, raw[:rng.choice(cuts)]
    depth = rng.choice([100, 1000, 100_000])
    return kind, raw + b"\nextra = " + b"[" * depth + b"]" * depth + b"\n"


def corpus(n: int = 200) -> list[tuple[str, str, bytes]]:
    rng = random.Random(SEED)
    files = {name: (catalog.instances_dir() / f"{name}.toml").read_text() for name in SOURCES}
    out = []
    for i in range(n):
        name = SOURCES[i % len(SOURCES)]
        family = tomllib.loads(files[name]).get("family", "polyform")
        what, raw = mutate(files[name], family, rng)
        out.append((f"{i:03d}-{name}-{what}", name, raw))
    return out


def run(path: Path, capsys) -> tuple[int, list[str]]:
    code = main(["info", str(path)])
    err = capsys.readouterr().err
    return code, err.splitlines()


def _copy_data(tmp_path: Path) -> None:
    """Mutated files sit beside a copy of the bundled data they name (pieces files)."""
    for sub in ("data",):
        src = catalog.instances_dir() / sub
        for f in src.rglob("*.txt"):
            dest = tmp_path / f.relative_to(catalog.instances_dir())
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(f.read_bytes())


def test_mutated_instances_fail_in_one_line(tmp_path, capsys):
    _copy_data(tmp_path)
    cases = corpus()
    assert len(cases) >= 150
    failures = []
    for label, _, raw in cases:
        path = tmp_path / f"{label}.toml"
        path.write_bytes(raw)
        try:
            code, lines = run(path, capsys)
        except BaseException as e:            # a traceback: the worst outcome
            failures.append(f"{label}: raised {type(e).__name__}: {e}")
            continue
        if code != 2 or len(lines) != 1 or not lines[0].startswith("satiling: error: "):
            failures.append(f"{label}: exit {code}, stderr {lines!r}")
    assert not failures, "\n".join(failures[:20])


# -- the audit's cases, one by one -------------------------------------------------------------------
SQUARE = 'piece_set = "pentominoes"\n[region]\n'


@pytest.mark.parametrize("body, expect", [
    (SQUARE + 'rows = "six"\ncols = 10\n', "[region] rows: expected an integer"),
    (SQUARE + "rows = inf\ncols = 10\n", "got inf"),
    (SQUARE + "rows = nan\ncols = 10\n", "got nan"),
    (SQUARE + "rows = [6]\ncols = 10\n", "got a list of 1 items"),
    (SQUARE + "rows = 6.7\ncols = 10\n", "got 6.7"),
    ('piece_set = "pentominoes"\nrules = "exact"\n[region]\nrows = 6\ncols = 10\n', "rules: expected a table"),
    (SQUARE + "cells = [[0, 0, 0], [0, 0, 1]]\n", "expected a list of 2 items"),
    ('lattice = "triangle"\npiece_set = "hexiamonds"\n[region]\nhexagon = 1e9\n', "[region] hexagon"),
    ('lattice = "triangle"\npiece_set = "hexiamonds"\n[region]\nhexagon = 1000000000\n', "from 1 to 100"),
    (SQUARE + "rows = 1000\ncols = 1000\n", "1000000 cells is more than the 20000"),
    (SQUARE + "rows = 6\ncols = 11\n", "the pieces cover 60 cells but the region has 66"),
    ('piece_set = { name = "pentominoes", fredom = "one-sided" }\n[region]\nrows = 6\ncols = 10\n',
     "unknown key 'fredom' in [piece_set]: did you mean 'freedom'?"),
    (SQUARE + "rows = 6\ncols = 10\ntopolgy = \"torus\"\n", "did you mean 'topology'?"),
    ('piece_set = "../pentominoes"\n[region]\nrows = 6\ncols = 10\n', "unknown piece set"),
    ('lattice = "cubic"\npiece_set = "pentominoes"\n[region]\nrows = 6\ncols = 10\n', "unknown key 'rows'"),
    (SQUARE + 'rows = 6\ncols = 10\nwrap = "rows"\n', "add topology"),
    ('lattice = "drafter"\npiece_set = "pentominoes"\n[region]\ncells = [[0, 0, 0]]\n', "piece set pentominoes"),
])
def test_audit_cases(tmp_path, capsys, body, expect):
    path = tmp_path / "case.toml"
    path.write_text(body)
    code, lines = run(path, capsys)
    assert code == 2 and len(lines) == 1, lines
    assert expect in lines[0]


@pytest.mark.parametrize("raw", [b"rows = 6\n\xff\xfe\n", b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n"])
def test_unreadable_files(tmp_path, capsys, raw):
    path = tmp_path / "case.toml"
    path.write_bytes(raw)
    code, lines = run(path, capsys)
    assert code == 2 and len(lines) == 1 and "case.toml" in lines[0]


def test_bundled_files_follow_the_format():
    """Every bundled instance loads (the format is not stricter than the files it documents)."""
    for name in SOURCES:
        assert catalog.load(name).name


@pytest.mark.parametrize("body, expect", [
    ('lattice = "hexagon"\n[[piece]]\nname = "A"\nascii = "o"\ncount = 1801\n[region]\nhexagon = 25\n', None),
    ("".join(f'[[piece]]\nname = "{k}"\nascii = """\n' + ("#" * 200 + "\n") * 100 + '"""\n' for k in "ABCDEF")
     + "[region]\nrows = 2\ncols = 2\n", "the pieces' shapes have 120000 cells"),
])
def test_size_limits_count_cells_per_lattice(tmp_path, capsys, body, expect):
    """A hexagon of side 25 on the hexagon lattice has 1801 cells (not the triangle lattice's 3750);
    pieces too large to turn are refused before any orientation is computed."""
    path = tmp_path / "case.toml"
    path.write_text(body)
    if expect is None:
        assert len(catalog.load(str(path)).region) == 1801
        return
    code, lines = run(path, capsys)
    assert code == 2 and len(lines) == 1 and expect in lines[0]
