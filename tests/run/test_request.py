"""The library's documented calls check their arguments in one place (satiling.run.Request), with
the command line's bounds, and only SatilingError leaves them for bad input."""
import math

import pytest

import satiling
from satiling import EdgeMatching, IQLink, Polyform, SatilingError
from satiling.backends.cnf import to_cnf
from satiling.backends.cpsat import to_cpsat


@pytest.fixture(scope="module")
def box():
    return satiling.load("pentomino-3x20")


@pytest.mark.parametrize("build", [
    lambda: Polyform((6.5, 10), "pentominoes"),
    lambda: Polyform((math.nan, 10), "pentominoes"),
    lambda: Polyform((True, 10), "pentominoes"),
    lambda: Polyform((6, 10, 1, 1), "pentominoes"),
    lambda: Polyform([(0, 0), (0, "1")], {"I": [(0, 0), (0, 1)]}),
    lambda: EdgeMatching(2, 2, None),
    lambda: EdgeMatching(2, 2, [None] * 4),
    lambda: IQLink(5),
    lambda: IQLink(None),
    lambda: IQLink(["tfi"]),               # a lower-case typo is not read as TFI
    lambda: to_cnf(None),
    lambda: to_cpsat(None),
], ids=["size-float", "size-nan", "size-bool", "size-4", "cell-str", "pieces-none", "piece-none",
        "iqlink-int", "iqlink-none", "iqlink-lower", "to_cnf-none", "to_cpsat-none"])
def test_bad_construction_is_a_satiling_error(build):
    with pytest.raises(SatilingError):
        build()


@pytest.mark.parametrize("kwargs", [
    {"workers": "x"}, {"workers": 2.5}, {"workers": 10**6}, {"workers": True}, {"time_limit": "x"},
    {"time_limit": math.inf}, {"time_limit": 1e10}, {"time_limit": -1}, {"solver": "bogus"},
    {"raw": "yes"}, {"parity": "x"}, {"no_such_option": True}, {"symmetry": "mirror"},
    {"engine": "dlx"}, {"symmetry_breaking": 0},
])
def test_bad_count_arguments_are_refused_before_any_work(box, kwargs):
    with pytest.raises(SatilingError):
        box.count(**kwargs)


@pytest.mark.parametrize("kwargs", [{"solver": "bogus"}, {"time_limit": 0}, {"threads": 0},
                                    {"parity": 1}])
def test_bad_solve_arguments_are_refused(box, kwargs):
    with pytest.raises(SatilingError):
        box.solve(**kwargs)


def test_to_svg_refuses_what_is_not_a_solution_of_the_puzzle(box):
    with pytest.raises(SatilingError):
        box.to_svg(5)
    placements = box.solve().to_json()
    placements[0] = {**placements[0], "piece": "Q"}        # no Q among the pentominoes
    with pytest.raises(SatilingError, match="no piece 'Q'"):
        box.to_svg(placements)
    assert "<svg" in box.to_svg(placements[1:])           # a partial solution still draws


def test_decode_takes_true_variables_only(box):
    problem = box.problem()
    for bad in ([-1], [0], [problem.num_vars + 1], [1.0]):
        with pytest.raises(SatilingError):
            problem.decode(bad)


def test_good_arguments_still_count(box):
    assert box.count() == 2 and box.count(raw=True) == 8 and box.count(symmetry="rotations") == 4
    assert box.count(parity=True, time_limit=600, workers=1) == 2
