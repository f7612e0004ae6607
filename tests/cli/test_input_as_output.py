"""An output option that names a file the command reads is refused before any work: the input is
never replaced (issue: `encode x.toml -o x.toml`, `solve x.toml --svg x.toml`, `render x.toml
s.jsonl --svg s.jsonl` replaced their input and exited 0)."""
import shutil
from pathlib import Path

import pytest

from clirun import run_cli

INSTANCE = Path(__file__).resolve().parents[2] / "instances" / "pentomino-3x20.toml"


@pytest.fixture
def instance(tmp_path):
    path = tmp_path / "x.toml"
    shutil.copy(INSTANCE, path)
    return path


def _refused(result, option: str) -> None:
    assert result.returncode == 2, result.stderr
    assert f"{option} " in result.stderr and "names the input file" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


@pytest.mark.parametrize("command, option", [
    (["encode", "x.toml", "-o", "x.toml"], "--output"),
    (["encode", "x.toml", "--format", "lp", "-o", "x.toml"], "--output"),
    (["solve", "x.toml", "--svg", "x.toml"], "--svg"),
    (["enumerate", "x.toml", "--out", "x.toml"], "--out"),
])
def test_output_naming_the_instance_is_refused(instance, command, option):
    before = instance.read_bytes()
    _refused(run_cli(*command, cwd=instance.parent), option)
    assert instance.read_bytes() == before


def test_render_svg_naming_the_solution_file_is_refused(instance):
    solutions = instance.parent / "s.jsonl"
    assert run_cli("enumerate", "x.toml", "--out", "s.jsonl", cwd=instance.parent).returncode == 0
    before = solutions.read_bytes()
    _refused(run_cli("render", "x.toml", "s.jsonl", "--svg", "s.jsonl", cwd=instance.parent), "--svg")
    assert solutions.read_bytes() == before


def test_a_symlink_to_the_input_is_the_input(instance):
    (instance.parent / "y.toml").symlink_to("x.toml")
    before = instance.read_bytes()
    _refused(run_cli("encode", "x.toml", "-o", "y.toml", cwd=instance.parent), "--output")
    assert instance.read_bytes() == before


def test_another_output_file_is_written(instance):
    result = run_cli("encode", "x.toml", "-o", "x.cnf", cwd=instance.parent)
    assert result.returncode == 0, result.stderr
    assert (instance.parent / "x.cnf").read_text().startswith(("c ", "p cnf"))
