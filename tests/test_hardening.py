"""Bad input, odd files and concurrent runs: one clear line and the right exit code, never a wrong
answer, a lost file or a replaced file (one test per case found by the reliability audit)."""
from __future__ import annotations

import re

from satiling.cli import main


# -- a wrong score -------------------------------------------------------------------------------
def _swap_tokens(text: str, a: str, b: str) -> str:
    """Swap two 'piece/rotation' tokens in a printed board (comment lines untouched)."""
    out = []
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            out.append(line)
            continue
        out.append(re.sub(rf"\b({re.escape(a)}|{re.escape(b)})\b",
                          lambda m: b if m.group(0) == a else a, line))
    return "\n".join(out) + "\n"


def _score(path, capsys) -> tuple[int, int]:
    assert main(["score", "clue1", str(path)]) == 0
    m = re.search(r"^score (\d+)/(\d+)", capsys.readouterr().out, re.M)
    return int(m.group(1)), int(m.group(2))


def test_score_reads_the_grid_not_the_url_comment(tmp_path, capsys):
    """A solved board with two pieces swapped keeps solve's URL comment: its score is the score of
    the grid that is there, the same as for the grid with every comment removed."""
    assert main(["solve", "clue1"]) == 0
    printed = capsys.readouterr().out
    assert "# https://e2.bucas.name/" in printed
    solved = tmp_path / "solved.txt"
    solved.write_text(printed)
    assert _score(solved, capsys) == (60, 60)            # clue 1 is solvable: every join matches
    tokens = re.findall(r"\b\d+/\d\b", printed.split("# score")[0])
    spoiled = tmp_path / "spoiled.txt"
    spoiled.write_text(_swap_tokens(printed, tokens[7], tokens[14]))      # two inner squares
    bare = tmp_path / "bare.txt"
    bare.write_text("".join(ln + "\n" for ln in spoiled.read_text().splitlines()
                            if not ln.startswith("#")))
    with_comments, without = _score(spoiled, capsys), _score(bare, capsys)
    assert with_comments == without
    assert with_comments[0] < 60
