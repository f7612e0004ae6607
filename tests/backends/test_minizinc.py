"""The MiniZinc export through a real MiniZinc (issue 41): a model plus its data, with global
constraints, solved by the solver the CI installs (Debian's ``minizinc`` with Gecode).

clue1's score problem is proved optimal (its 60 joins all matching) inside a 10 s budget; every
solution Gecode lists of small boards is one the brute force finds, and it lists them all; boards
without a solution or without variables read back as "no solution".  Then the names: ``-o
NAME.mzn`` writes ``NAME.dzn`` beside it, stdout gets one file, and a name minizinc or ACE will not
read gets a note.  The MiniZinc tests are skipped where minizinc or its Gecode is missing.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

import brute
from clirun import run_cli
from test_roundtrip_agreement import NOFIT, NOMEET, instance

#: the budget of the must-show: clue1's score proved optimal in under 10 s
BUDGET_MS = 10_000


def _gecode() -> bool:
    if shutil.which("minizinc") is None:
        return False
    listed = subprocess.run(["minizinc", "--solvers"], capture_output=True, text=True).stdout
    return "org.gecode.gecode" in listed


needs_gecode = pytest.mark.skipif(not _gecode(), reason="minizinc with Gecode is not installed")


def minizinc(*files: Path, all_solutions: bool = False) -> str:
    """Gecode's output on the model (and data) files, within the budget."""
    argv = ["minizinc", "--solver", "gecode", "--time-limit", str(BUDGET_MS)]
    argv += ["--all-solutions"] if all_solutions else []
    done = subprocess.run(argv + [str(f) for f in files], capture_output=True, text=True,
                          timeout=BUDGET_MS / 1000 + 60)
    assert "Error" not in done.stderr, done.stderr[-2000:]
    return done.stdout


def encode(tmp: Path, name: str, *options: str) -> tuple[Path, Path]:
    model = tmp / "model.mzn"
    done = run_cli("encode", name, "--format", "mzn", "-o", str(model), *options)
    assert done.returncode == 0, done.stderr
    return model, tmp / "model.dzn"


def decode(tmp: Path, name: str, output: str, *options: str) -> subprocess.CompletedProcess:
    answer = tmp / "answer.txt"
    answer.write_text(output)
    return run_cli("decode", name, str(answer), "--format", "mzn", *options)


@needs_gecode
def test_clue1_score_proved_optimal_within_10s(tmp_path):
    """The must-show: Gecode says ``==========`` (the search finished: optimal) inside the
    budget, and the board it gives matches every one of clue1's 60 joins (the most there are)."""
    model, data = encode(tmp_path, "clue1", "--maximize-matches")
    assert data.exists()
    out = minizinc(model, data)
    assert "==========" in out
    done = decode(tmp_path, "clue1", out, "--maximize-matches")
    assert done.returncode == 0, done.stderr
    from satiling import catalog
    joins = len(catalog.load("clue1").joins())
    assert f"score {joins}/{joins} (counted from the pieces)" in done.stderr


def _data(path: Path) -> dict[str, str]:
    return dict(re.findall(r"^(\w+) = (.*);$", path.read_text(), re.M))


def test_one_model_for_every_puzzle_with_globals(tmp_path):
    """The .mzn says the model once (two puzzles' files differ in their first line only); the
    .dzn of clue1 holds its 36 squares' tables (piece, rotation and colours) and the 36 pieces'
    all_different, with no clause left over."""
    texts = []
    for name in ("clue1", "pentomino-6x10"):
        model, data = encode(tmp_path, name)
        texts.append(model.read_text().split("\n", 1)[1])
        if name == "clue1":
            d = _data(data)
            assert (d["no"], d["nt"], d["ncl"]) == ("36", "36", "0")
    assert texts[0] == texts[1]
    assert "all_different(" in texts[0] and "table(" in texts[0]


@needs_gecode
@pytest.mark.parametrize("seed", range(12))
def test_all_solutions_agree_with_brute_force(seed, tmp_path):
    """Every board Gecode lists of a small generated instance (polyform or edge matching) is a
    solution, and there are as many as the brute force finds: the model with its globals says
    the puzzle, no more and no less.  A board whose pieces are at most (an objective: the most
    pieces placed) is proved optimal at the brute force's best."""
    from satiling import catalog
    path, n = instance(seed, tmp_path)
    model, data = encode(tmp_path, str(path))
    soft = _data(data)["soft"] != "{}"
    out = minizinc(model, data, all_solutions=not soft)
    puzzle = catalog.load(str(path))
    primary = puzzle.problem().primary_vars()
    boards = [frozenset(v for v in primary if bits.split(", ")[v - 1] == "true")
              for bits in re.findall(r"x = \[([^\]]*)\]", out)]
    if soft and n:
        best = max(len(s) for s in brute.polyform_solutions(puzzle))
        assert "==========" in out and len(boards[-1]) == best
    elif not soft:
        assert len(set(boards)) == len(boards) == n
    if n:
        assert decode(tmp_path, str(path), out).returncode == 0
    else:
        assert "=====UNSATISFIABLE=====" in out and decode(tmp_path, str(path), out).returncode == 1


@needs_gecode
@pytest.mark.parametrize("board", ["nofit", "nomeet", "empty solution"])
def test_models_without_variables(board, tmp_path):
    """No piece fits, or colours never meet: no variable, and Gecode's "unsatisfiable" decodes
    to "no solution"; with pieces at most, the empty board is the solution."""
    path = tmp_path / "board.toml"
    text = NOMEET if board == "nomeet" else NOFIT
    if board == "empty solution":
        text = text.replace('cells = "at-most"', 'cells = "at-most"\npieces = "at-most"')
    path.write_text(text)
    model, data = encode(tmp_path, str(path))
    done = decode(tmp_path, str(path), minizinc(model, data))
    assert done.returncode == (0 if board == "empty solution" else 1), done.stderr


@needs_gecode
def test_stdout_is_one_file_minizinc_reads(tmp_path):
    """To stdout the data follows the model: ``encode > p.mzn`` is one file Gecode solves, and
    its answer decodes to a verified 6x10 board; a board without solution says so."""
    for name, code in (("pentomino-6x10", 0), ("tetromino-4x5", 1)):
        done = run_cli("encode", name, "--format", "mzn")
        assert done.returncode == 0 and "note" not in done.stderr
        single = tmp_path / "p.mzn"
        single.write_text(done.stdout)
        answer = decode(tmp_path, name, minizinc(single))
        assert answer.returncode == code, answer.stderr
    assert len(answer.stdout.splitlines()) == 1 and not (tmp_path / "p.dzn").exists()


def test_names_minizinc_and_ace_read(tmp_path):
    """``-o m.mzn``: m.mzn and m.dzn, the sizes line naming the data file; ``-o m.txt``: one file
    (model and data) and a one-line note asking for .mzn; XCSP3 to a name without .xml (which ACE
    takes for a Java class) gets the same note, ``.xml`` none."""
    done = run_cli("encode", "clue1", "--format", "mzn", "-o", "m.mzn", cwd=tmp_path)
    assert done.returncode == 0 and "(data in m.dzn)" in done.stderr
    assert (tmp_path / "m.dzn").read_text().startswith("% satiling encode clue1")
    assert "\nn = " not in (tmp_path / "m.mzn").read_text()
    done = run_cli("encode", "clue1", "--format", "mzn", "-o", "m.txt", cwd=tmp_path)
    note = [line for line in done.stderr.splitlines() if "note" in line]
    assert done.returncode == 0 and len(note) == 1 and ".mzn" in note[0]
    assert "\nn = " in (tmp_path / "m.txt").read_text() and not (tmp_path / "m.txt.dzn").exists()
    for name, noted in (("p.xcsp", True), ("p.xml", False)):
        done = run_cli("encode", "clue1", "--format", "xcsp3", "-o", name, cwd=tmp_path)
        assert done.returncode == 0 and (tmp_path / name).exists()
        assert ("ending in .xml" in done.stderr) == noted, done.stderr


def test_data_file_that_cannot_be_written_is_refused_first(tmp_path):
    """A folder where m.dzn would go: one line, exit 2, and no model written either."""
    (tmp_path / "m.dzn").mkdir()
    done = run_cli("encode", "clue1", "--format", "mzn", "-o", "m.mzn", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "m.dzn" in done.stderr
    assert not (tmp_path / "m.mzn").exists()

