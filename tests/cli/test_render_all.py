"""Every solution drawn: `render --all --svg` writes one page (a grid of the solutions, each
numbered) or, given a folder, one file per solution; `enumerate` draws pictures on a terminal and
writes JSON lines to a pipe, a file, or with --json."""
import os
import pty
import re
import subprocess
import sys
import time

from clirun import run_cli


def _solutions(folder):
    result = run_cli("enumerate", "pentomino-3x20", "--raw", "--out", "s.jsonl", cwd=folder)
    assert result.returncode == 0, result.stderr
    return folder / "s.jsonl"


def test_render_all_to_one_page(tmp_path):
    _solutions(tmp_path)
    result = run_cli("render", "pentomino-3x20", "s.jsonl", "--all", "--svg", "all.svg", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "all.svg").read_text()
    assert page.count("<svg") == 1 + 8                  # the page and the 8 raw solutions (literature)
    assert [int(n) for n in re.findall(r">(\d+)</text>", page)] == list(range(1, 9))


def test_render_all_to_a_folder(tmp_path):
    _solutions(tmp_path)
    result = run_cli("render", "pentomino-3x20", "s.jsonl", "--all", "--svg", "pics/", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    files = sorted(p.name for p in (tmp_path / "pics").iterdir())
    assert files == [f"solution-{k:04d}.svg" for k in range(1, 9)]


def test_enumerate_json_in_a_pipe_and_with_json():
    piped = run_cli("enumerate", "pentomino-3x20")
    assert piped.returncode == 0 and all(line.startswith("{") for line in piped.stdout.splitlines())
    assert len(piped.stdout.splitlines()) == 2


def test_enumerate_pictures_on_a_terminal():
    def on_a_terminal(*args):
        leader, follower = pty.openpty()
        proc = subprocess.Popen([sys.executable, "-m", "satiling.cli", "enumerate", "pentomino-3x20",
                                 "--quiet", *args], stdout=follower, stderr=subprocess.DEVNULL,
                                env={**os.environ, "NO_COLOR": "1"})
        os.close(follower)
        out = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        proc.wait(timeout=60)
        os.close(leader)
        return out.decode()

    drawn = on_a_terminal()
    assert "{" not in drawn and drawn.count("UU") >= 2       # two pictures of the 3x20 box
    assert on_a_terminal("--json").lstrip().startswith("{")


def test_a_board_with_a_frame_piece_turned_is_drawn_with_its_score(tmp_path):
    """render draws an edge-matching board that is no solution with its score, exit 1, as for a
    join that does not match: a frame piece turned was refused as a 'contradictory model', while
    score scored the same file and verify called it wrong."""
    import json
    (tmp_path / "b.toml").write_text(run_cli("generate-edgematch", "4", "4", "--seed", "2").stdout)
    solved = run_cli("solve", "b.toml", "--json", cwd=tmp_path)
    board = json.loads(solved.stdout)
    corner = next(p for p in board["placements"] if p["square"] == "A1")
    corner["rotation"] = (corner["rotation"] + 1) % 4
    (tmp_path / "turned.json").write_text(json.dumps(board) + "\n")
    r = run_cli("render", "b.toml", "turned.json", "--svg", "t.svg", cwd=tmp_path)
    assert r.returncode == 1 and "contradictory" not in r.stderr, r.stderr
    assert "score 22/24" in r.stdout and "does not fit the frame at A1" in r.stderr
    assert (tmp_path / "t.svg").read_text().startswith("<svg")
    scored = run_cli("score", "b.toml", "turned.json", cwd=tmp_path)
    assert scored.returncode == 0 and "score 22/24" in scored.stdout
    assert run_cli("verify", "b.toml", "turned.json", cwd=tmp_path).returncode == 1


def test_a_wrong_solution_is_not_drawn_and_exits_1_as_verify_says(tmp_path):
    """render and verify give one answer on a solution that is wrong: exit 1, the line naming what
    is wrong, nothing drawn (render exited 2, as for a malformed file)."""
    import json
    line = run_cli("solve", "pentomino-3x20", "--json").stdout
    sol = json.loads(line)
    sol["placements"][1]["cells"] = sol["placements"][0]["cells"]     # two pieces on the same cells
    (tmp_path / "wrong.jsonl").write_text(line + json.dumps(sol) + "\n")
    checked = run_cli("verify", "pentomino-3x20", "wrong.jsonl", cwd=tmp_path)
    assert checked.returncode == 1 and "solution 2 is wrong" in checked.stderr
    for argv in (["--index", "2", "--svg", "w.svg"], ["--all", "--svg", "w.svg"], ["--all"]):
        r = run_cli("render", "pentomino-3x20", "wrong.jsonl", *argv, cwd=tmp_path)
        assert r.returncode == 1, (argv, r.stderr)
        assert "solution 2 is wrong" in r.stderr and not (tmp_path / "w.svg").exists(), argv


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(c) for c in f.read().split()]
    except OSError:
        return []


def test_a_signal_while_a_page_is_drawn_as_png_ends_at_once(tmp_path):
    """A page of 300 solutions takes resvg seconds in one call, which a signal used to wait for:
    the drawing is now a child process, killed with the command (143, no file, no traceback)."""
    if not os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/children"):
        import pytest
        pytest.skip("no /proc/PID/task/PID/children here")
    made = run_cli("enumerate", "pentomino-6x10", "--raw", "--limit", "300", "--out", "s.jsonl", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    p = subprocess.Popen([sys.executable, "-m", "satiling.cli", "render", "pentomino-6x10", "s.jsonl", "--all",
                          "--png", "all.png"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    drawing: list[int] = []
    while p.poll() is None and not drawing:         # the PNG's child, once the page is laid out
        drawing = _children(p.pid)
    assert drawing, "the PNG was not drawn in a child process"
    p.send_signal(15)
    out, err = p.communicate(timeout=30)
    assert (p.returncode, out) == (143, "") and "Traceback" not in err, err
    assert not (tmp_path / "all.png").exists()
    # the child was killed with it (a busy machine may take a moment to end it)
    deadline = time.monotonic() + 10
    while any(_alive(c) for c in drawing) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(c) for c in drawing)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
