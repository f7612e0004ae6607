"""instances/README.md's examples run as written: each TOML block, copied into a file, loads and
solves, and gives the count its comment promises (published counts: Knuth, Goodger, Bouwkamp,
Timmermans); each error message it shows is what satiling prints for the mistake it names.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "instances" / "README.md"
#: counts that take more than a few seconds run in the slow set
SLOW = {3940, 16146}


def blocks() -> list[str]:
    return re.findall(r"```toml\n(.*?)```", README.read_text(), re.S)


def promised(block: str) -> int | None:
    """The count a block's comment promises: '... 46 distinct (...)'."""
    found = re.search(r"(\d+) distinct", block)
    return int(found.group(1)) if found else None


def test_the_readme_has_examples():
    assert len(blocks()) >= 6 and sum(promised(b) is not None for b in blocks()) >= 5


@pytest.mark.parametrize("k", range(len(blocks())))
def test_an_example_solves(cli, tmp_path, k):
    path = tmp_path / "example.toml"
    path.write_text(blocks()[k])
    r = cli("solve", str(path))
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("block", [pytest.param(b, marks=pytest.mark.slow) if promised(b) in SLOW else b
                                   for b in blocks() if promised(b) is not None])
def test_an_example_gives_its_published_count(cli, tmp_path, block):
    path = tmp_path / "example.toml"
    path.write_text(block)
    r = cli("count", str(path))
    assert r.returncode == 0, r.stderr
    assert int(r.stdout.split()[0]) == promised(block)


BOARD = 'piece_set = "pentominoes"\n[region]\nrows = 6\ncols = 10\n'
#: the mistakes the README names, each made in the 6x10 board
MISTAKES = {
    "fredom": '[piece_set]\nname = "pentominoes"\nfredom = "free"\n[region]\nrows = 6\ncols = 10\n',
    "6.7": BOARD.replace("rows = 6", "rows = 6.7"),
    "66": BOARD.replace("cols = 10", "cols = 11"),
}


@pytest.mark.parametrize("mistake", MISTAKES)
def test_an_error_it_shows_is_what_satiling_says(cli, tmp_path, mistake):
    path = tmp_path / "mine.toml"
    path.write_text(MISTAKES[mistake])
    r = cli("info", str(path))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    line = r.stderr.strip()
    assert mistake in line and line in README.read_text().splitlines(), line
