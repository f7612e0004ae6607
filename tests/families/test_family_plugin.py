"""A family registered from outside the package is a first-class family: listed, solved, counted,
enumerated, verified and drawn by the command line, with its own model option and instance files.

The toy family: a strip of cells and bars of given lengths, each bar used once.  With k bars of
different lengths that fill the strip exactly, the solutions are the k! orders of the bars, and up
to the strip's reflection k!/2 of them (no order of distinct lengths reads the same reversed).
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from satiling import registry
from satiling.cli import main
from satiling.errors import SatilingError, VerificationError
from satiling.families.base import Puzzle
from satiling.options import ModelOption, check_known
from satiling.problem import Problem
from satiling.schema import COMMON, Int, List, Table, check_instance

STRIP_FORMAT = Table({**COMMON, "length": Int(1, 100), "bars": List(Int(1, 100), 1, 10)},
                     required=("length", "bars"))


@dataclass(frozen=True, order=True)
class Bar:
    start: int
    length: int

    def to_json(self) -> dict[str, int]:
        return {"start": self.start, "length": self.length}

    def sort_key(self) -> tuple[int, int]:
        return (self.start, self.length)


class StripPuzzle(Puzzle):
    family = "strip"

    def __init__(self, name: str, length: int, bars: list[int], title: str = "") -> None:
        self.name, self.length, self.bars, self.title = name, length, bars, title

    def problem(self, **options: Any) -> Problem:
        check_known(self.family, options, {"long_first"})
        p = Problem(self.name)
        at: dict[int, list[int]] = {c: [] for c in range(self.length)}
        bars = sorted(self.bars, reverse=True) if options.get("long_first") else self.bars
        for n in bars:
            lits = []
            for start in range(self.length - n + 1):
                v = p.new_var(Bar(start, n), primary=True)
                lits.append(v)
                for c in range(start, start + n):
                    at[c].append(v)
            p.exactly_one(lits, name=f"bar {n}")
        for c, lits in at.items():
            p.exactly_one(lits, name=f"cell {c}")
        return p

    def verify(self, solution: list[Any]) -> None:
        if sorted(b.length for b in solution) != sorted(self.bars):
            raise VerificationError("not every bar is used once")
        covered = sorted(c for b in solution for c in range(b.start, b.start + b.length))
        if covered != list(range(self.length)):
            raise VerificationError("the bars do not cover the strip once")

    def placement_from_json(self, data: Any) -> Bar:
        return Bar(int(data["start"]), int(data["length"]))

    def symmetries(self) -> list:
        return [lambda b: b, lambda b: Bar(self.length - b.start - b.length, b.length)]


def load_strip(data: dict[str, Any], name: str, base: Path) -> StripPuzzle:
    check_instance(STRIP_FORMAT, data, name)
    if sum(data["bars"]) != data["length"]:
        raise SatilingError(f"{name}: the bars do not add up to the strip's length")
    return StripPuzzle(name, data["length"], data["bars"], data.get("title", ""))


def strip_text(puzzle: StripPuzzle, solution: list[Bar]) -> str:
    cells = ["."] * puzzle.length
    for b in solution:
        cells[b.start:b.start + b.length] = [str(b.length)] * b.length
    return "".join(cells)


def strip_svg(puzzle: StripPuzzle, solution: list[Bar]) -> str:
    rects = "".join(f'<rect x="{10 * b.start}" y="0" width="{10 * b.length}" height="10" '
                    f'fill="none" stroke="black"/>' for b in solution)
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="{10 * puzzle.length}" height="10">{rects}</svg>'


@pytest.fixture
def strip_family(tmp_path):
    (tmp_path / "strip-10.toml").write_text('family = "strip"\ntitle = "Bars of 1 to 4 in a strip of 10"\n'
                                            'length = 10\nbars = [1, 2, 3, 4]\n')
    record = registry.Family(name="strip", title="strip", load=load_strip, text=strip_text, svg=strip_svg,
                             options=(ModelOption("--long-first", "order the bars longest first",
                                                                 "the longest bars first"),),
                             instances=tmp_path)
    registry.register(record)
    yield tmp_path
    registry.unregister("strip")


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_listed(strip_family, capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0 and "strip-10" in out and "Bars of 1 to 4" in out
    assert "pentomino-6x10" in out                   # the bundled ones are still there


def test_solved_and_drawn(strip_family, capsys, tmp_path):
    svg = tmp_path / "s.svg"
    code, out, _ = run(capsys, "solve", "strip-10", "--svg", str(svg))
    assert code == 0
    picture = out.strip().splitlines()[-1]
    assert sorted(picture) == sorted("1223334444")
    assert svg.read_text().startswith("<svg") and svg.read_text().count("<rect") == 4


@pytest.mark.parametrize("engine", ["auto", "sat", "cpsat", "walk"])
def test_counted(strip_family, capsys, engine):
    code, out, _ = run(capsys, "count", "strip-10", "--raw", "--engine", engine)
    assert code == 0 and out.split()[0] == str(math.factorial(4))
    code, out, _ = run(capsys, "count", "strip-10", "--engine", engine)
    assert code == 0 and out.split()[0] == str(math.factorial(4) // 2)


def test_enumerated_and_verified(strip_family, capsys, tmp_path):
    code, out, _ = run(capsys, "enumerate", "strip-10", "--raw")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 24 and len(set(lines)) == 24
    path = tmp_path / "all.jsonl"
    path.write_text(out)
    code, out, _ = run(capsys, "verify", "strip-10", str(path))
    assert code == 0
    bad = [dict(b, start=b["start"] + 1) if i == 0 else b
           for i, b in enumerate(json.loads(lines[0])["placements"])]
    path.write_text(json.dumps({"puzzle": "strip-10", "placements": bad}) + "\n")
    code, _, err = run(capsys, "verify", "strip-10", str(path))
    assert code == 1 and "cover" in err


def test_its_option_and_its_errors(strip_family, capsys):
    code, out, _ = run(capsys, "count", "strip-10", "--long-first")
    assert code == 0 and out.split()[0] == "12"
    assert "--long-first" in run(capsys, "solve", "--help")[1]
    code, _, err = run(capsys, "count", "pentomino-3x20", "--long-first")
    assert code == 2 and "does not apply to polyform" in err
    (strip_family / "bad.toml").write_text('family = "strip"\nlength = 10\nbarz = [1]\n')
    code, _, err = run(capsys, "solve", str(strip_family / "bad.toml"))
    assert code == 2 and "did you mean 'bars'" in err and len(err.strip().splitlines()) == 1


def test_a_family_without_a_picture_says_so_in_one_line(strip_family, capsys, tmp_path):
    """No picture in the record and none on the class: puzzle.svg and the CLI's --svg were a
    NotImplementedError (a traceback); one SatilingError now, and nothing written."""
    import satiling
    registry.register(registry.Family(name="strip", title="strip", load=load_strip, text=strip_text,
                                      instances=strip_family))
    puzzle = satiling.load("strip-10")
    for draw in (lambda: puzzle.svg(puzzle.solve()), lambda: puzzle.to_svg()):
        with pytest.raises(SatilingError, match="^no SVG pictures for strip puzzles"):
            draw()
    svg = tmp_path / "s.svg"
    code, _, err = run(capsys, "solve", "strip-10", "--svg", str(svg))
    assert (code, svg.exists(), "Traceback" in err) == (2, False, False), err
    assert err.splitlines()[-1].startswith("satiling: error: no SVG pictures for strip puzzles")
