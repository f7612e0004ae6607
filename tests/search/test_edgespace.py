"""The edge-matching backtracker runs through the one run pipeline (search/edgespace.py): its
counts and solutions agree with the SAT model's (the SAT engine is the independent reference
here), with and without symmetry breaking, here and on worker processes, and a stopped count or
enumeration resumes without losing or repeating a solution."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from satiling import catalog
from satiling.cli import main
from satiling.families.edgematch.generate import generate, instance_toml
from satiling.limits import Deadline
from satiling.search.stream import Run, Settings


def board(tmp_path: Path, rows: int, cols: int, frame: int, inner: int, seed: int) -> str:
    path = tmp_path / f"g{rows}x{cols}-{seed}.toml"
    path.write_text(instance_toml(generate(rows, cols, frame, inner, seed)))
    return str(path)


def count(path: str, **settings) -> int:
    puzzle = catalog.load(path)
    out = Run(path, puzzle, puzzle.problem(), {}, Settings(**settings)).count()
    assert out.complete
    return out.total


def solutions(path: str, **settings) -> list[frozenset]:
    puzzle = catalog.load(path)
    run = Run(path, puzzle, puzzle.problem(), {}, Settings(**settings))
    found: list = []
    out = run.enumerate(found.append)
    assert out.complete
    return [frozenset((t.row, t.col, t.piece, t.rotation) for t in sol) for sol in found]


@pytest.mark.parametrize("shape", [(3, 4, 2, 3, 1), (4, 4, 2, 3, 2), (3, 5, 2, 3, 3), (4, 4, 3, 3, 4)])
def test_counts_agree_with_the_sat_model(tmp_path, shape):
    path = board(tmp_path, *shape)
    for raw in (False, True):
        want = count(path, raw=raw, engine="sat")
        assert count(path, raw=raw, engine="backtrack") == want
        assert count(path, raw=raw, engine="backtrack", break_symmetry=False) == want


def test_solutions_agree_with_the_sat_model_and_come_once(tmp_path):
    path = board(tmp_path, 4, 4, 2, 3, 5)
    for raw in (False, True):
        ours = solutions(path, raw=raw, engine="backtrack")
        assert len(set(ours)) == len(ours) > 0
        assert set(ours) == set(solutions(path, raw=raw, engine="sat"))


def test_workers_count_what_one_process_counts(tmp_path):
    path = board(tmp_path, 5, 5, 2, 4, 1)
    here = count(path, engine="backtrack")
    assert here > 100                            # enough to spread over many cubes
    assert count(path, engine="backtrack", workers=2) == here
    assert count(path, engine="backtrack", workers=2, raw=True) == 4 * here


def _stop_after(calls: int):
    heard = {"n": 0}

    def work(fraction: float, finished: float) -> None:
        heard["n"] += 1
        if heard["n"] > calls:
            raise KeyboardInterrupt
    return work


def test_a_stopped_count_resumes_without_losing_or_repeating(tmp_path):
    path = board(tmp_path, 5, 5, 2, 4, 1)
    want = count(path, engine="backtrack")
    puzzle = catalog.load(path)
    checkpoint = str(tmp_path / "count.jsonl")
    for calls in (3, 5, 4, 0):
        run = Run(path, puzzle, puzzle.problem(), {}, Settings(engine="backtrack"))
        out = run.count(checkpoint, work=_stop_after(calls) if calls else None)
        assert out.complete == (calls == 0)
    assert out.total == want
    records = [json.loads(line) for line in Path(checkpoint).read_text().splitlines()[1:]]
    cubes = [r["cube"] for r in records if "left" not in r]
    assert len(cubes) == len(set(cubes)) == len(run.space.cubes) > 1
    # the stops came inside cubes, whose parts left were kept (a resumed count searched only those)
    assert any("left" in r for r in records)
    assert json.loads(Path(checkpoint).read_text().splitlines()[0])["engine"] == "backtrack"


def test_a_part_stopped_in_again_is_split_deeper(tmp_path):
    """A cube is searched part by part: fresh, its children; resumed, the part the stop came in
    split into its children and the parts after it as they were, so a count stopped again and
    again in one part still moves on.  A part its search never meets is refused."""
    from satiling.errors import SatilingError
    from satiling.search.edgespace import part_records
    path = board(tmp_path, 5, 5, 2, 4, 1)
    puzzle = catalog.load(path)
    space = Run(path, puzzle, puzzle.problem(), {}, Settings(engine="backtrack")).space
    cube = max(range(len(space.cubes)), key=lambda i: space.estimates[i])
    fresh = space.parts(cube, [()])
    assert len(fresh) > 1 and all(len(p) == 1 for p in fresh)
    again = space.parts(cube, part_records(fresh))
    assert again[-(len(fresh) - 1):] == fresh[1:]
    deeper = again[:len(again) - len(fresh) + 1]
    assert deeper and all(len(p) == 2 and p[0] == fresh[0][0] for p in deeper)
    with pytest.raises(SatilingError, match="never meets"):
        space.parts(cube, [(10 ** 6,)])


def test_a_cut_solutions_file_resumes_to_the_whole_enumeration(tmp_path, capsys):
    path = board(tmp_path, 5, 5, 2, 4, 1)
    full, cut = tmp_path / "full.jsonl", tmp_path / "cut.jsonl"
    assert main(["enumerate", path, "--quiet", "--out", str(full)]) == 0
    lines = full.read_text().splitlines(keepends=True)
    assert '"engine":"backtrack"' in lines[0]
    cut.write_text("".join(lines[:40]) + lines[40][:50])          # 39 solutions, one torn
    assert main(["enumerate", path, "--quiet", "--resume", str(cut)]) == 0
    assert "dropped an incomplete last line" in capsys.readouterr().err

    def placements(p: Path) -> list:
        return [json.dumps(json.loads(line)["placements"]) for line in p.read_text().splitlines()[1:]]
    assert placements(cut) == placements(full)
    assert main(["verify", path, str(cut)]) == 0


def test_solve_in_jobs_on_workers(monkeypatch):
    """solve --workers: the first solution any prefix job meets, verified; none when every job
    is exhausted (a board whose one piece was spoiled)."""
    from satiling.engines.edgematch import EdgeBoard, Engine, solve_engines
    from satiling.search import edgesolve
    from satiling.search.edgeboards import edge_boards, tiles
    monkeypatch.setattr(edgesolve, "JOBS_ABOVE", 0)           # these trees are small: split them anyway
    pz = generate(5, 5, None, None, 6).puzzle()
    (board,) = edge_boards(pz, False, distinct=False)
    placed, status, jobs = edgesolve._in_jobs(solve_engines(board), Deadline.after(60), 2, None, None)
    assert status == "limit" and jobs > 1
    pz.verify(tiles(placed))
    spoiled = list(pz.pieces)
    spoiled[12] = tuple(x if x == 0 else 1 + x % 3 for x in spoiled[12][::-1])   # an inner piece
    board = EdgeBoard(5, 5, tuple(spoiled))
    engine = Engine(board)
    assert engine.solutions() == "exhausted" and engine.search.solutions == 0
    assert edgesolve._in_jobs(solve_engines(board), Deadline.after(60), 2, None, None)[:2] == (None, "exhausted")


def test_solve_says_when_its_workers_were_not_used(tmp_path, capsys):
    """A tree too small to split runs in this process: stderr says so, not silence about the
    --workers or --dask asked for."""
    path = board(tmp_path, 4, 4, 2, 3, 5)
    for extra in (["--workers", "2"], ["--dask", "tcp://127.0.0.1:1"]):
        assert main(["solve", path, *extra]) == 0
        assert "in this process, not on" in capsys.readouterr().err
