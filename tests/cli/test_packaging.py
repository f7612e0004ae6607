"""The package as it is installed: one version (pyproject.toml's, read from the metadata),
``python -m satiling``, the licence file, and the shell completion script."""
import importlib.metadata
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import satiling

ROOT = Path(__file__).resolve().parents[2]


def test_one_version_written_in_pyproject_only(cli):
    written = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert importlib.metadata.version("satiling") == written
    assert satiling.__version__ == written
    r = cli("--version")
    assert (r.returncode, r.stdout.strip()) == (0, f"satiling {written}")
    source = (ROOT / "satiling" / "__init__.py").read_text()
    assert written not in source                           # not written twice


def test_python_dash_m_satiling_is_the_command(tmp_path):
    r = subprocess.run([sys.executable, "-m", "satiling", "count", "pentomino-3x20"],
                       capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert (r.returncode, r.stdout.strip()) == (0, "2"), r.stderr
    r = subprocess.run([sys.executable, "-m", "satiling", "--help"], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0 and r.stdout.startswith("usage: satiling ")


def test_the_licence_file_is_mit_and_named_by_pyproject():
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "Copyright (c) 2026 the satiling authors" in text
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]


def _complete(script: str, words: list[str]) -> list[str]:
    """What bash offers after ``words`` (the last one the word being completed)."""
    line = " ".join(f"'{w}'" for w in words)
    driver = (f"{script}\nCOMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; _satiling; "
              "printf '%s\\n' \"${COMPREPLY[@]}\"")
    r = subprocess.run(["bash", "-c", driver], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout.split()


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash not installed")
def test_bash_completion_offers_commands_options_choices_and_puzzles(cli, tmp_path):
    r = cli("completion", "bash")
    assert r.returncode == 0, r.stderr
    script = r.stdout
    assert set(_complete(script, ["satiling", "s"])) >= {"solve", "show", "score"}
    assert "--maximize-matches" in _complete(script, ["satiling", "solve", "--max"])
    assert _complete(script, ["satiling", "encode", "clue1", "--format", "w"]) == ["wcnf"]
    assert set(_complete(script, ["satiling", "show", "pentomino-6"])) == {"pentomino-6x10"}
    zsh = cli("completion", "zsh").stdout
    assert zsh.startswith("autoload -U +X bashcompinit") and script in zsh


def test_completion_for_an_unknown_shell_is_one_line_exit_2(cli):
    r = cli("completion", "fish")
    assert r.returncode == 2 and r.stderr.count("\n") == 1
