"""tools/dlx_search.py: the C dancing-links search that tiles Pram.

Its pocket cut must lose no tiling, so its raw counts are checked against the published ones, and
the tilings it returns go through the verifier.
"""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[1] / "tools" / "dlx_search.py"
pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True)


@pytest.mark.parametrize("name, raw", [
    ("pentomino-8x8-centre", 65 * 8),   # 65 distinct, each in 8 orientations of the square
    ("hexiamond-6x6", 156 * 4),         # 156 distinct, 4 symmetries of the rhombus
    ("serenity", 12),
])
def test_counts_with_the_pocket_cut(name, raw):
    done = run(name, "--count")
    assert done.returncode == 0, done.stderr
    assert f"s COUNT {raw}" in done.stdout.splitlines()


def test_a_tiling_is_verified_and_written(tmp_path):
    out, svg = tmp_path / "boat.json", tmp_path / "boat.svg"
    done = run("boat", "--seed", "3", "--out", str(out), "--svg", str(svg))
    assert done.returncode == 0, done.stderr
    assert "s SOLUTION (verified)" in done.stdout
    assert svg.read_text().count("<title") == 21      # one group per piece
    check = subprocess.run([str(Path(sys.executable).with_name("satiling")), "verify", "boat", str(out)],
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stderr


def test_a_given_part_is_kept(tmp_path):
    """Whale lies inside Pram with 8 of Pram's pieces; a board made of Whale alone is exactly it."""
    done = run("whale", "--given", "whale")
    assert done.returncode == 0, done.stderr
    assert "s SOLUTION (verified)" in done.stdout
    wrong = run("whale", "--given", "boat")
    assert wrong.returncode == 2 and wrong.stderr.strip() == "dlx_search: boat is not a part of whale"
    other = run("clue1")
    assert other.returncode == 2 and other.stderr.strip() == "dlx_search: clue1 is not a polyform board"


def test_paths_split_the_tree():
    """The subtrees under the rows of the first branching add up to the whole count."""
    first = run("hexiamond-6x6", "--count", "--path", "0")
    degree = int(first.stderr.split("c branching at depth 0: column ")[1].split(", ")[1].split()[0])
    counts = [first] + [run("hexiamond-6x6", "--count", "--path", str(k)) for k in range(1, degree)]
    total = sum(int(line.split()[2]) for done in counts for line in done.stdout.splitlines()
                if line.startswith("s COUNT"))
    assert degree > 1 and total == 156 * 4
