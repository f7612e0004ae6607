"""The compiled engines refuse a malformed table from Python with a ValueError, never a crash."""
from __future__ import annotations

import numpy as np
import pytest

from satiling.engines import _edgematch, _exactcover


def u32(values: list[int]) -> bytes:
    return np.array(values, dtype=np.uint32).tobytes()


def i32(values: list[int]) -> bytes:
    return np.array(values, dtype=np.int32).tobytes()


#: one step, one entry of colour 1 all round, a table of two keys
GOOD = dict(nsteps=1, nkeys=2, nentries=1, ntypes=1, nslots=4, start=u32([0, 1, 1]),
            ent_type=i32([0]), ent_col=bytes([1, 1, 1, 1]), mult=i32([1]), step_cell=i32([0]),
            step_base=u32([0]), step_nbr=i32([4, 4, 4, 4]), step_w=u32([0, 0, 0, 0]), col=bytes(5))


def test_a_good_table_is_taken():
    _edgematch.Search(**GOOD)


@pytest.mark.parametrize("key, value", [
    ("step_w", u32([1000, 0, 0, 0])),        # a key beyond the table once a colour is read
    ("step_base", u32([2])),                 # a key beyond the table at once
    ("start", u32([1, 0, 1])),               # ranges that run backwards
    ("start", u32([0, 1, 5])),               # a range beyond the entries
    ("step_nbr", i32([9, 4, 4, 4])),         # a slot that does not exist
    ("ent_type", i32([3])),                  # an entry of a type that does not exist
    ("start", u32([0, 1])),                  # a buffer of the wrong size
])
def test_a_malformed_edge_matching_table_is_refused(key, value):
    with pytest.raises(ValueError):
        _edgematch.Search(**dict(GOOD, **{key: value}))


def test_the_exact_cover_engine_says_its_largest_bitboard():
    assert _exactcover.MAX_BOARD in (64, 128)


@pytest.mark.parametrize("compiler", ["gcc", "clang"])
@pytest.mark.parametrize("source", ["_exactcover.c", "_edgematch.c", "_edgescore.c"])
def test_the_c_engines_compile_without_a_warning(tmp_path, compiler, source):
    import shutil
    import subprocess
    import sysconfig
    from pathlib import Path

    import satiling.engines
    if shutil.which(compiler) is None:
        pytest.skip(f"{compiler} is not installed")
    here = Path(satiling.engines.__file__).parent
    cmd = [compiler, "-std=c11", "-O2", "-Wall", "-Wextra", "-Wpedantic",
           "-I" + sysconfig.get_paths()["include"], "-I" + np.get_include(),
           "-c", str(here / source), "-o", str(tmp_path / "engine.o")]
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0 and "warning" not in done.stderr, done.stderr


def exact_cover_arrays() -> list:
    """The exact-cover engine's arguments for a bitboard board (neighbours, areas, shift rules)."""
    from satiling import catalog
    from satiling.engines.exactcover import matrix_of
    puzzle = catalog.load("tetromino-4x10")
    problem = puzzle.problem()
    return list(matrix_of(problem, puzzle.cover_board(problem)).arrays())


def test_a_good_exact_cover_matrix_is_taken():
    engine = _exactcover.Engine(*exact_cover_arrays())
    assert engine.start([]) and engine.run(0, 1, True, 0.0)[1] in ("limit", "done")


@pytest.mark.parametrize("index, mutate", [
    (0, lambda a: [10 ** 6] + a[1:]),                   # an item beyond the items
    (0, lambda a: [-1] + a[1:]),                        # a negative item
    (1, lambda a: [0, a[2], a[1]] + a[3:]),             # row ranges that run backwards
    (1, lambda a: a[:-1]),                              # one row start short
    (2, lambda a: [5] + a[1:]),                         # lo above hi
    (3, lambda a: [0] + a[1:]),                         # hi of 0
    (4, lambda a: [0, 10 ** 6] + a[2:]),                # a neighbour range beyond the list
    (5, lambda a: [10 ** 6] + a[1:]),                   # a neighbour that is no cell
    (8, lambda a: [99] + a[1:]),                        # a row's area class that does not exist
    (10, lambda a: 999),                                # a board size the engine has not
])
def test_a_malformed_exact_cover_matrix_is_refused(index, mutate):
    args = exact_cover_arrays()
    args[index] = mutate(list(args[index]) if isinstance(args[index], (list, tuple)) else args[index])
    with pytest.raises(ValueError):
        _exactcover.Engine(*args)


@pytest.mark.parametrize("part, cut", [(0, 8), (1, 8), (2, 4)])
def test_a_malformed_scoring_layout_is_refused(part, cut):
    """A layout whose candidates, runs or cells buffer is cut short reads past no buffer."""
    from satiling.engines import edgescore
    from satiling.families.edgematch.generate import generate
    puzzle = generate(4, 4, seed=1).puzzle()
    lay = edgescore.layout(puzzle, seed=1)
    packed = list(lay.packed)
    packed[part] = packed[part][:-cut] if part != 2 else packed[part][:len(packed[part]) // 2]
    lay.packed = tuple(packed)
    with pytest.raises(ValueError):
        edgescore.search(lay, [0] * len(lay.order), 0, lambda *a: False)
