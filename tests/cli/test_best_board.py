"""An Eternity II hunter never loses the best board: a maximisation keeps it in a file as it
improves (written whole each time) with a score log beside it, so a SIGKILL leaves a board that
`satiling score` reads with the score the log last recorded, and `--start` continues from it."""
import json
import os
import signal
import subprocess
import sys
import time

from clirun import run_cli


def _last_logged(log) -> int:
    lines = log.read_text().splitlines()
    assert lines[0] == "seconds\tscore"
    return int(lines[-1].split("\t")[1])


def _scored(folder, board, puzzle="eternity2") -> int:
    result = run_cli("score", puzzle, board, cwd=folder)
    assert result.returncode == 0, result.stderr
    return int(result.stdout.split("score ")[-1].split("/")[0])


def test_a_killed_maximisation_keeps_its_best_board(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "satiling.cli", "solve", "eternity2",
                             "--maximize-matches", "--workers", "1"], cwd=tmp_path, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    log = tmp_path / "eternity2-best.scores.tsv"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if log.exists() and len(log.read_text().splitlines()) >= 4:
                break
            time.sleep(0.2)
        else:
            raise AssertionError("no better board within two minutes")
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    first_line = proc.stderr.readline()
    assert "eternity2-best.json" in first_line           # the first progress line names it
    logged = _last_logged(log)
    assert _scored(tmp_path, "eternity2-best.json") == logged

    # --start: the kept board is the first best board, and only better ones follow
    result = run_cli("solve", "eternity2", "--maximize-matches", "--workers", "1", "--time-limit",
                     "1", "--start", "eternity2-best.json", "--best", "next.json", "--json",
                     cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    scores = [int(line.split("score ")[1].split("/")[0]) for line in result.stderr.splitlines()
              if "after" in line and "score " in line and "best score" not in line]
    assert scores[0] == logged and scores == sorted(scores) and len(set(scores)) == len(scores)
    assert _scored(tmp_path, "next.json") == _last_logged(tmp_path / "next.scores.tsv") >= logged


def test_start_is_refused_where_it_cannot_apply(tmp_path):
    board = tmp_path / "b.json"
    board.write_text("not a board")
    result = run_cli("solve", "eternity2", "--maximize-matches", "--start", str(board),
                     "--time-limit", "1", cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    result = run_cli("solve", "pentomino-3x20", "--best", "x.json", cwd=tmp_path)
    assert result.returncode == 2 and "--maximize-matches" in result.stderr
    # a board with empty squares is the user's, not an internal error; no file is made
    (tmp_path / "g5.toml").write_text(run_cli("generate-edgematch", "5", "5", "--seed", "3").stdout)
    (tmp_path / "part.txt").write_text("---/- 9/2 7/2 16/2 4/2\n" + "---/- ---/- ---/- ---/- ---/-\n" * 4)
    result = run_cli("solve", "g5.toml", "--maximize-matches", "--engine", "backtrack", "--start",
                     "part.txt", "--best", "y.json", cwd=tmp_path)
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1
    assert "--start part.txt: not a full board" in result.stderr
    assert not list(tmp_path.glob("y.*"))


def test_a_board_kept_from_before_is_replaced_only_by_a_better_one(tmp_path):
    """The default file may hold the board of yesterday's hours: a new run writes over it only
    a better board, and a file holding no board of the puzzle is refused, left as it was."""
    (tmp_path / "g5.toml").write_text(run_cli("generate-edgematch", "5", "5", "--seed", "3").stdout)
    assert run_cli("solve", "g5.toml", "--maximize-matches", "--time-limit", "60",
                   cwd=tmp_path).returncode == 0
    best = json.loads((tmp_path / "g5-best.json").read_text())
    assert _scored(tmp_path, "g5-best.json", "g5.toml") == 40            # the planted board's every join
    # a worse board kept from before (two inner pieces swapped) gives way to the better one
    worse = json.loads(json.dumps(best))
    at = {p["square"]: p for p in worse["placements"]}
    at["B2"]["piece"], at["D4"]["piece"] = at["D4"]["piece"], at["B2"]["piece"]
    (tmp_path / "w.json").write_text(json.dumps(worse))
    before = _scored(tmp_path, "w.json", "g5.toml")
    assert before < 40
    result = run_cli("solve", "g5.toml", "--maximize-matches", "--time-limit", "60", "--best",
                     "w.json", cwd=tmp_path)
    assert result.returncode == 0 and f"holds a board of {before}/40 from before" in result.stderr
    assert _scored(tmp_path, "w.json", "g5.toml") == _last_logged(tmp_path / "w.scores.tsv") == 40
    # the best board kept: a run that finds no better one leaves the file and its log as they were
    kept, log = (tmp_path / "w.json").read_bytes(), (tmp_path / "w.scores.tsv").read_text()
    result = run_cli("solve", "g5.toml", "--maximize-matches", "--time-limit", "60", "--best",
                     "w.json", cwd=tmp_path)
    assert result.returncode == 0 and "holds a board of 40/40 from before" in result.stderr
    assert (tmp_path / "w.json").read_bytes() == kept
    assert (tmp_path / "w.scores.tsv").read_text() == log
    # a file that holds no board of the puzzle is never overwritten
    (tmp_path / "notes.json").write_text("my notes\n")
    result = run_cli("solve", "g5.toml", "--maximize-matches", "--time-limit", "60", "--best",
                     "notes.json", cwd=tmp_path)
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1
    assert "notes.json holds no board of g5" in result.stderr
    assert (tmp_path / "notes.json").read_text() == "my notes\n"


def _scores_printed(stderr: str) -> list[int]:
    return [int(line.split("score ")[1].split("/")[0]) for line in stderr.splitlines()
            if line.startswith("satiling: score ")]


def test_one_best_board_file_belongs_to_one_run(tmp_path):
    """A second maximisation given the file a first one keeps its best board in is refused (one
    line, exit 2) and writes nothing there, as a second 'enumerate --out' is; the first run's
    file then holds the board of the last score it printed, whenever it is killed."""
    first = subprocess.Popen([sys.executable, "-m", "satiling.cli", "solve", "eternity2",
                              "--maximize-matches", "--engine", "backtrack", "--workers", "1",
                              "--seed", "1", "--best", "shared.json", "--time-limit", "120"],
                             cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True, start_new_session=True)
    try:
        assert "the best board is kept in shared.json" in first.stderr.readline()   # it holds the file
        second = run_cli("solve", "eternity2", "--maximize-matches", "--engine", "backtrack",
                         "--workers", "1", "--seed", "2", "--best", "shared.json", "--time-limit",
                         "1", cwd=tmp_path)
        assert second.returncode == 2
        assert second.stderr.splitlines() == [
            "satiling: error: shared.json: another satiling run is writing to it"]
        deadline = time.monotonic() + 120
        while not (tmp_path / "shared.scores.tsv").exists() or \
                len((tmp_path / "shared.scores.tsv").read_text().splitlines()) < 3:
            assert first.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
    finally:
        os.killpg(first.pid, signal.SIGKILL)
        first.wait()
    printed = _scores_printed(first.stderr.read())
    assert printed and _scored(tmp_path, "shared.json") == _last_logged(tmp_path / "shared.scores.tsv")
    assert _scored(tmp_path, "shared.json") >= printed[-1]      # the board before its score
    # the file is free again once its run has ended: a later run takes it up
    later = run_cli("solve", "eternity2", "--maximize-matches", "--engine", "backtrack", "--workers",
                    "1", "--best", "shared.json", "--time-limit", "1", cwd=tmp_path)
    assert later.returncode == 0 and "holds a board of" in later.stderr


def test_a_start_board_of_another_puzzle_is_refused(tmp_path):
    """As verify refuses it: a board naming another puzzle may fit this one by chance."""
    toml = run_cli("generate-edgematch", "5", "5", "--seed", "3").stdout
    (tmp_path / "g5.toml").write_text(toml)
    (tmp_path / "h5.toml").write_text(toml)                     # the same pieces, another puzzle
    assert run_cli("solve", "g5.toml", "--maximize-matches", "--time-limit", "60",
                   cwd=tmp_path).returncode == 0
    for argv in (["solve", "h5.toml", "--maximize-matches", "--start", "g5-best.json",
                  "--best", "h.json"], ["score", "h5.toml", "g5-best.json"]):
        result = run_cli(*argv, cwd=tmp_path)
        assert result.returncode == 2 and len(result.stderr.splitlines()) == 1, argv
        assert "names puzzle 'g5', not 'h5'" in result.stderr
    assert not list(tmp_path.glob("h.*"))
    assert run_cli("solve", "g5.toml", "--maximize-matches", "--engine", "backtrack", "--start",
                   "g5-best.json", "--best", "g.json", cwd=tmp_path).returncode == 0
    # an engine that cannot continue from a board is refused before the file is announced
    result = run_cli("solve", "g5.toml", "--maximize-matches", "--engine", "cpsat", "--start",
                     "g5-best.json", "--best", "c.json", cwd=tmp_path)
    assert result.returncode == 2 and result.stderr.splitlines() == [
        "satiling: error: a start board continues the backtrack engine's search, not cpsat's"]


def test_lns_without_a_time_limit_is_refused_before_anything_is_announced(tmp_path):
    result = run_cli("solve", "eternity2", "--maximize-matches", "--engine", "lns", "--best",
                     "l.json", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "satiling: error: --engine lns needs --time-limit to maximise"]
    assert not list(tmp_path.iterdir())
