"""``satiling verify --hints``: the solutions of a puzzle with its hint pieces pinned (as ``solve
--hints`` pins them) must hold them; a solution of the puzzle without them passes ``verify`` and
fails ``verify --hints``.  The oracle is the brute force's count with the hints pinned."""
from __future__ import annotations

import json
import tomllib
from pathlib import Path

import brute
from satiling import catalog
from satiling.errors import VerificationError
from clirun import run_cli


def test_verify_hints_accepts_exactly_the_solutions_that_hold_the_hint(tmp_path: Path) -> None:
    made = run_cli("generate-edgematch", "4", "4", "--symmetric", "--seed", "1")
    assert made.returncode == 0, made.stderr
    data = tomllib.loads(made.stdout)
    row_b = next(line for line in data["planted"].splitlines() if line.rstrip().endswith("# B"))
    square, tile = "B2", row_b.split()[1]                      # the planted board's B2: piece/rotation
    piece, rotation = map(int, tile.split("/"))
    data["hint"] = [{"square": square, "piece": piece, "rotation": rotation}]
    instance = tmp_path / "hinted.toml"
    instance.write_text(made.stdout.split("\nplanted = ")[0] + f'\n[[hint]]\nsquare = "{square}"\n'
                        f"piece = {piece}\nrotation = {rotation}\n")
    every = tmp_path / "every.jsonl"
    assert run_cli("enumerate", str(instance), "--raw", "--out", str(every)).returncode == 0
    lines = [line for line in every.read_text().splitlines() if "placements" in json.loads(line)]
    assert len(lines) == brute.edge_answer(data, hints=False)[0]
    puzzle = catalog.load(str(instance))
    held, wrong = [], []
    for line in lines:
        solution = [puzzle.placement_from_json(p) for p in json.loads(line)["placements"]]
        puzzle.verify(solution)
        try:
            puzzle.verify_hints(solution)
            held.append(line)
        except VerificationError as e:
            assert str(e) == f"hint piece {piece} is not on {square} at rotation {rotation}"
            wrong.append(line)
    assert 0 < len(held) == brute.edge_answer(data, hints=True)[0] < len(lines)
    for line, code in ((held[0], 0), (wrong[0], 1)):          # the command line says the same
        one = tmp_path / "one.json"
        one.write_text(line + "\n")
        assert run_cli("verify", str(instance), str(one)).returncode == 0
        assert run_cli("verify", str(instance), str(one), "--hints").returncode == code


def test_verify_hints_on_a_puzzle_without_hint_pieces_is_refused(tmp_path: Path) -> None:
    solution = tmp_path / "s.json"
    solution.write_text(run_cli("solve", "clue1", "--json").stdout)
    assert json.loads(solution.read_text())["placements"]
    for name in ("clue1", "pentomino-3x20"):
        r = run_cli("verify", name, str(solution), "--hints")
        assert (r.returncode, r.stdout) == (2, "")
        assert r.stderr == f"satiling: error: --hints: {name} has no hint pieces\n"
