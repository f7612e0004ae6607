"""A seeded corpus of mutated inputs through the command line, in-process.

Real files are made first -- solutions (``enumerate --out``), a solver's output (PySAT's CaDiCaL
on the DIMACS file ``encode`` wrote), a DRAT proof (``solve --proof``), a printed board, a
stopped enumeration's resume file and a count checkpoint -- then each is mutated a few dozen times
(cut, lines removed, repeated, swapped or added, bytes flipped, NUL and invalid UTF-8, numbers made
huge, infinite or negative, deep nesting, a line of megabytes, another kind's file).  Whatever the
mutant, the program must answer with a documented exit code, one line on stderr when it refuses
(exit 2), never a traceback, and never change the file it was given -- except a resume or
checkpoint it accepted, and then the run must come out right: every one of pentomino-3x20's 8
tilings (Haselgrove 1960) in the file, or the count 8.  Instance files are fuzzed elsewhere.
"""
from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Callable

import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

from satiling.cli import main

SEED = 20261123
RAW_TILINGS_3X20 = 8


# -- the real files ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def originals(tmp_path_factory) -> dict[str, Path]:
    work = tmp_path_factory.mktemp("originals")
    files = {}

    def run(*argv: str) -> None:
        assert main(list(argv)) in (0, 1), argv

    files["solutions"] = work / "solutions.jsonl"
    run("enumerate", "pentomino-3x20", "--raw", "--quiet", "--out", str(files["solutions"]))
    files["resume"] = work / "resume.jsonl"
    run("enumerate", "pentomino-3x20", "--raw", "--quiet", "--limit", "5", "--out", str(files["resume"]))
    files["checkpoint"] = work / "count.ckpt"
    run("count", "pentomino-3x20", "--raw", "--quiet", "--resume", str(files["checkpoint"]))
    cnf = work / "clue1.cnf"
    run("encode", "clue1", "--encoding", "compact", "-o", str(cnf))
    with Solver(name="cadical195", bootstrap_with=CNF(from_file=str(cnf))) as s:
        assert s.solve()
        model = s.get_model()
    files["model"] = work / "model.txt"
    files["model"].write_text("c cadical\ns SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
    files["cnf"] = cnf
    files["proof"] = work / "p.drat"
    run("solve", "tetromino-4x5", "--solver", "cadical", "--proof", str(files["proof"]))
    files["formula"] = work / "p.drat.cnf"
    files["board"] = work / "board.txt"
    board = files["board"]
    import contextlib
    import io
    with contextlib.redirect_stdout(io.StringIO()) as out:
        run("solve", "clue1")
    board.write_text(out.getvalue())
    return files


# -- mutations --------------------------------------------------------------------------------------
def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _join(lines: list[bytes]) -> bytes:
    return b"\n".join(lines)


def _number(data: bytes, rng: random.Random) -> bytes:
    spots = [m.span() for m in re.finditer(rb"-?\d+", data)]
    if not spots:
        return data + b" 9"
    a, b = rng.choice(spots)
    value = rng.choice([b"Infinity", b"NaN", b"-1", b"1e400", b"9" * 5000, b"0", b"99999999999",
                        b"-0", b"1.5", b"2147483648"])
    return data[:a] + value + data[b:]


def _some_line(data: bytes, rng: random.Random) -> int:
    return rng.randrange(max(1, len(_lines(data))))


MUTATIONS: dict[str, Callable[[bytes, random.Random, dict], bytes]] = {
    "cut": lambda d, r, o: d[:r.randrange(len(d) + 1)],
    "drop line": lambda d, r, o: _join((ls := _lines(d))[:(i := _some_line(d, r))] + ls[i + 1:]),
    "repeat line": lambda d, r, o: _join((ls := _lines(d))[:(i := _some_line(d, r)) + 1] + ls[i:]),
    "swap lines": lambda d, r, o: _join(_swapped(_lines(d), r)),
    "append last": lambda d, r, o: d + (d.rstrip(b"\n").split(b"\n")[-1] + b"\n"),
    "flip byte": lambda d, r, o: _flip(d, r),
    "NUL": lambda d, r, o: _insert(d, r, b"\0" * r.randrange(1, 5)),
    "bad UTF-8": lambda d, r, o: _insert(d, r, b"\xff\xfe\xc3"),
    "number": lambda d, r, o: _number(d, r),
    "nesting": lambda d, r, o: b"[" * 5000 + d + b"]" * 5000,
    "empty": lambda d, r, o: b"",
    "blank": lambda d, r, o: b"\n \n\t\n",
    "junk line": lambda d, r, o: _insert_line(d, r, bytes(r.randrange(32, 127) for _ in range(r.randrange(1, 60)))),
    "long line": lambda d, r, o: _insert_line(d, r, b"1 " * 300000),
    "CRLF": lambda d, r, o: d.replace(b"\n", b"\r\n"),
    "foreign": lambda d, r, o: r.choice(list(o.values())),
}


def _swapped(lines: list[bytes], rng: random.Random) -> list[bytes]:
    if len(lines) > 1:
        i, j = rng.sample(range(len(lines)), 2)
        lines[i], lines[j] = lines[j], lines[i]
    return lines


def _flip(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return b"\x01"
    i = rng.randrange(len(data))
    return data[:i] + bytes([data[i] ^ rng.randrange(1, 256)]) + data[i + 1:]


def _insert(data: bytes, rng: random.Random, what: bytes) -> bytes:
    i = rng.randrange(len(data) + 1)
    return data[:i] + what + data[i:]


def _insert_line(data: bytes, rng: random.Random, line: bytes) -> bytes:
    lines = _lines(data)
    lines.insert(rng.randrange(len(lines) + 1), line)
    return _join(lines)


def corpus(kind: str, original: bytes, others: dict[str, bytes], n: int) -> list[tuple[str, bytes]]:
    """``n`` mutants of ``original``: each mutation once in turn, then random pairs, seeded."""
    rng = random.Random(f"{SEED}-{kind}")
    names = list(MUTATIONS)
    out = []
    for k in range(n):
        chosen = [names[k]] if k < len(names) else rng.sample(names, 2)
        data = original
        for name in chosen:
            data = MUTATIONS[name](data, rng, others)
        out.append(("+".join(chosen), data))
    return out


# -- the commands -----------------------------------------------------------------------------------
#: kind -> (original file key, argv with FILE for the mutant, exit codes the program may give)
KINDS = {
    "verify solutions": ("solutions", ["verify", "pentomino-3x20", "FILE"], {0, 1, 2}),
    "render a solution": ("solutions", ["render", "pentomino-3x20", "FILE"], {0, 1, 2}),
    "decode solver output": ("model", ["decode", "clue1", "FILE", "--encoding", "compact"], {0, 1, 2, 3}),
    "decode with --cnf": ("cnf", ["decode", "clue1", "MODEL", "--cnf", "FILE"], {0, 1, 2, 3}),
    "check-proof proof": ("proof", ["check-proof", "FORMULA", "FILE"], {0, 1, 2}),
    "check-proof formula": ("formula", ["check-proof", "FILE", "PROOF"], {0, 1, 2}),
    "score a board": ("board", ["score", "clue1", "FILE"], {0, 2}),
    "enumerate --resume": ("resume", ["enumerate", "pentomino-3x20", "--raw", "--quiet", "--resume", "FILE"], {0, 2}),
    "count --resume": ("checkpoint", ["count", "pentomino-3x20", "--raw", "--quiet", "--resume", "FILE"], {0, 2}),
}
CASES = {"verify solutions": 48, "render a solution": 30, "decode solver output": 40,
         "decode with --cnf": 20, "check-proof proof": 20, "check-proof formula": 12,
         "score a board": 48, "enumerate --resume": 36, "count --resume": 36}


@pytest.mark.parametrize("kind", list(KINDS))
def test_mutated_inputs(kind, originals, tmp_path, capsys):
    key, argv, codes = KINDS[kind]
    original = originals[key].read_bytes()
    others = {k: p.read_bytes() for k, p in originals.items() if k != key}
    before = dict(others)
    complete = set(_solution_lines(originals["solutions"].read_text()))
    failures = []
    for n, (how, data) in enumerate(corpus(kind, original, others, CASES[kind])):
        path = tmp_path / f"case{n}{originals[key].suffix}"
        path.write_bytes(data)
        fixed = {"FILE": str(path), "MODEL": str(originals["model"]), "FORMULA": str(originals["formula"]),
                 "PROOF": str(originals["proof"])}
        try:
            code = main([fixed.get(a, a) for a in argv])
        except BaseException as e:          # noqa: BLE001 - any escape is the failure we look for
            failures.append(f"{how}: {type(e).__name__}: {e}"[:200])
            continue
        out, err = capsys.readouterr()
        problem = _judge(kind, code, codes, out, err, path, data, complete)
        if problem:
            failures.append(f"{how}: {problem}")
    assert not failures, f"{len(failures)} of {CASES[kind]} cases:\n" + "\n".join(failures[:10])
    assert {k: p.read_bytes() for k, p in originals.items() if k != key} == before   # untouched


def _judge(kind: str, code: int, codes: set[int], out: str, err: str, path: Path, data: bytes,
           complete: set[str]) -> str:
    """What is wrong with one run ("" if nothing)."""
    if code not in codes:
        return f"exit {code}: {err.strip()[:150]}"
    if "Traceback" in err or "Traceback" in out:
        return "a traceback"
    if code == 2 and len(err.strip().splitlines()) != 1:
        return f"exit 2 with {len(err.strip().splitlines())} lines on stderr: {err[:150]}"
    changed = path.read_bytes() != data
    if kind == "enumerate --resume" and code == 0:
        found = _solution_lines(path.read_text())
        if set(found) != complete or len(found) != len(complete):
            return f"resumed to {len(found)} solutions, not the {len(complete)}"
    elif kind == "count --resume" and code == 0:
        if out.strip() != str(RAW_TILINGS_3X20):
            return f"counted {out.strip()!r}, not {RAW_TILINGS_3X20}"
    elif changed:
        return "the input file was changed"
    return ""


def _solution_lines(text: str) -> list[str]:
    """The solutions of a solutions file, without the bookkeeping fields (``n``, ``sum``)."""
    return [re.sub(r',"n":\d+,"sum":"[0-9a-f]+"\}$', "}", ln) for ln in text.splitlines()
            if '"placements"' in ln]


def test_corpus_is_seeded_and_large_enough():
    """The same mutants every run (a failure can be replayed), a few hundred in all."""
    first = corpus("x", b"1 2 3\n4 5 6\n", {"o": b"other"}, 30)
    assert first == corpus("x", b"1 2 3\n4 5 6\n", {"o": b"other"}, 30)
    assert sum(CASES.values()) >= 250


# -- command-line arguments -------------------------------------------------------------------------
JUNK = ["-1", "0", "nan", "inf", "1e309", "abc", "", "x" * 5000, "9" * 20, "-0", "1.5"]
ARGUMENTS = [
    ["solve", "pentomino-3x20", "--time-limit", "VALUE"],         # 1.5 s is fine, 9...9 s too long
    ["count", "pentomino-3x20", "--time-limit", "VALUE"],
    ["count", "pentomino-3x20", "--workers", "VALUE"],
    ["enumerate", "pentomino-3x20", "--limit", "VALUE"],
    ["solve", "pentomino-3x20", "--threads", "VALUE"],
    ["info", "pentomino-3x20", "--amo", "VALUE"],
    ["count", "pentomino-3x20", "--engine", "VALUE"],
    ["VALUE", "pentomino-3x20"],
    ["solve", "VALUE"],
    ["solve", "clue1", "--encoding", "VALUE"],
    ["decode", "pentomino-3x20", "VALUE"],
    ["verify", "pentomino-3x20", "VALUE"],
    ["score", "clue1", "VALUE"],
]


@pytest.mark.parametrize("argv", ARGUMENTS, ids=lambda a: " ".join(a[:3]))
def test_junk_arguments(argv, capsys):
    """Junk where a number, a name or a file belongs: exit 2 and one line, every time."""
    failures = []
    valid = {"1.5"} if "--time-limit" in argv else set()
    for value in (v for v in JUNK if v not in valid):
        code = main([value if a == "VALUE" else a for a in argv])
        err = capsys.readouterr().err
        if code != 2 or len(err.strip().splitlines()) != 1 or "Traceback" in err:
            failures.append(f"{value[:20]!r}: exit {code}: {err.strip()[:200]}")
    assert not failures, "\n".join(failures)
