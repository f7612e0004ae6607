"""Every solution drawn: `render --all --svg` writes one page (a grid of the solutions, each
numbered) or, given a folder, one file per solution; `enumerate` draws pictures on a terminal and
writes JSON lines to a pipe, a file, or with --json."""
import os
import pty
import re
import subprocess
import sys

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
