"""A puzzle's name starts every message and names the files a run writes: one line, no path in it;
a share text's texts are Unicode; a packing with no piece placed is a solution; a store that
cannot be opened leaves no file behind."""
from __future__ import annotations

import base64
import json
import socket
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from satiling import share
from satiling.cli import main

EM_2X2 = 'family = "edgematch"\nrows = 2\ncols = 2\npieces = [[0,1,2,0],[0,0,3,1],[2,4,0,0],[3,0,0,4]]\n'
PENTOMINOES = 'piece_set = "pentominoes"\n[region]\nrows = 6\ncols = 10\n'


def _refused(capsys, argv: list[str]) -> str:
    """Exit 2 and one 'satiling: error:' line, which is returned."""
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2 and len(err.splitlines()) == 1 and err.startswith("satiling: error:"), (code, err)
    return err.strip()


def _share_of(data: dict) -> str:
    """A share text of ``data`` as satiling's own packing makes it, whatever the data holds (the
    checksum holds: only the loader can refuse it)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS, 9, zlib.Z_DEFAULT_STRATEGY,
                              share._DICTIONARY)
    packed = packer.compress(json.dumps(data).encode()) + packer.flush()
    return share.PREFIX + share.VERSION + base64.urlsafe_b64encode(packed).rstrip(b"=").decode()


@pytest.mark.parametrize("name", ["../../escaped", "sub/x", "a\\b", "a\nb", "..", "."])
def test_a_name_with_a_path_or_a_line_end_is_refused_and_writes_nothing(tmp_path, monkeypatch, capsys, name):
    """A maximisation writes NAME-best.json in the current folder: a name was a path out of it."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    (work / "em.toml").write_text(f"name = {json.dumps(name)}\n" + EM_2X2)
    line = _refused(capsys, ["solve", "em.toml", "--maximize-matches", "--time-limit", "1"])
    assert line.startswith("satiling: error: em: name: a name is one line without / or \\")
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["em.toml", "work"]
    shared = _share_of({"name": name, **_em_data()})
    assert "a name is one line" in _refused(capsys, ["solve", shared, "--maximize-matches",
                                                     "--time-limit", "1"])
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["em.toml", "work"]


def _em_data() -> dict:
    import tomllib
    return tomllib.loads(EM_2X2)


def test_a_good_name_still_names_the_best_board_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("em.toml").write_text('name = "my board 2x2"\n' + EM_2X2)
    assert main(["solve", "em.toml", "--maximize-matches", "--time-limit", "1"]) == 0
    assert Path("my board 2x2-best.json").is_file()


@pytest.mark.parametrize("command", ["show", "info", "solve", "hint", "forced"])
def test_half_a_surrogate_pair_in_a_share_text_is_one_line(capsys, command):
    """JSON can spell a lone surrogate (TOML cannot): show and info printed a traceback, the
    others took the title."""
    shared = _share_of({"title": "\ud800", "piece_set": "pentominoes",
                        "region": {"rows": 6, "cols": 10}})
    line = _refused(capsys, [command, shared])
    assert "title: the text '\\ud800' is not Unicode text" in line


def test_a_packing_with_no_piece_placed_is_solved_not_no_solution(tmp_path, capsys):
    """At-most rules and a piece that fits nowhere: the empty board is the solution (it said "no
    solution, proved" and exited 0)."""
    path = tmp_path / "nofit.toml"
    path.write_text('[rules]\npieces = "at-most"\ncells = "at-most"\n[region]\nrows = 2\ncols = 2\n'
                    '[[piece]]\nname = "I"\ncells = [[0,0],[0,1],[0,2]]\n')
    assert main(["solve", str(path), "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["placements"] == []
    assert "nofit: solved by" in err and "no solution" not in err


@pytest.mark.parametrize("kind", ["not a store", "a folder"])
def test_a_store_that_cannot_be_opened_leaves_nothing(tmp_path, kind):
    store = tmp_path / "s.sqlite"
    if kind == "a folder":
        store.mkdir()
    else:
        store.write_text(PENTOMINOES)
    before = sorted(p.name for p in tmp_path.iterdir())
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    done = subprocess.run([sys.executable, "-m", "satiling.cli", "serve", "--port", str(port),
                           "--store", str(store)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, done.stderr
    assert "cannot open the store" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == before
