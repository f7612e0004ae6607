"""The Markov chain's schedule of breaks (satiling.engines.edgeschedule)."""
import numpy as np
import pytest

from satiling import catalog
from satiling.apps.maximize import Tuning, default_tuning
from satiling.engines import edgeschedule, edgescore
from satiling.families.edgematch.generate import generate


def test_eternity2_has_5_frame_colours_and_17_inside():
    """The published colour count of Eternity II: 22 colours, 5 on the frame's joins, 17 inside."""
    frame, inside = edgeschedule.side_colours(catalog.load("eternity2").pieces)
    assert (len(frame), len(inside)) == (5, 17)
    assert sum(frame.values()) == 4 * 2 + 56 * 2 and sum(inside.values()) == 56 + 196 * 4


def test_the_chain_counts_the_candidates_of_each_square():
    """The first square of Eternity II's row scan (a corner, no neighbour placed) has its 4 corner
    pieces for ways; the second (a frame edge beside it, one join along the frame) its 56 edge
    pieces times the chance that the join matches, or not."""
    e2 = catalog.load("eternity2")
    order = edgescore.fill_order(16, 16)
    a0, a1 = edgeschedule.join_rates(e2, order, [(8, 7)])
    frame, _ = edgeschedule.side_colours(e2.pieces)
    p = sum(v * v for v in frame.values()) / sum(frame.values()) ** 2
    assert a0[0] == 4 and a1[0] == 0
    assert a0[1] == pytest.approx(56 * p) and a1[1] == pytest.approx(56 * (1 - p))


def test_best_slips_never_lose_to_their_start_and_allow_the_cap_by_the_end():
    e2 = catalog.load("eternity2")
    a0, a1 = edgeschedule.join_rates(e2, edgescore.fill_order(16, 16), [(8, 7)])
    tuning = default_tuning(e2)
    for cap in (12, 17, 25):
        start = tuning.curve_slips(256, cap)
        slips = edgeschedule.best_slips(a0, a1, cap, start)
        allow = edgeschedule.allowance(slips, 256)
        assert len(slips) == cap and allow[-1] == cap and all(np.diff(allow) >= 0)
        before, after = edgeschedule.merit(a0, a1, np.array([edgeschedule.allowance(start, 256), allow]), cap)
        assert after >= before


def test_markov_tuning_holds_back_breaks_as_the_planner_allows():
    pz = generate(16, 16, seed=3).puzzle()
    order = edgescore.fill_order(16, 16)
    planner = edgeschedule.Planner(pz, order)
    t = Tuning(markov=True)
    held = t.held(256, 20, planner=planner)
    assert held[-1] == 0 and held[0] == 20 and all(a >= b for a, b in zip(held, held[1:]))
    assert Tuning(markov=True).held(256, 20) == Tuning().held(256, 20)     # no planner: the curve
    loose = edgeschedule.MODEL_CAP + 5
    assert t.held(256, loose, planner=planner) == Tuning().held(256, loose)  # loose caps: the curve


def test_measured_rates_replace_the_model_where_a_depth_was_entered_often():
    """Counts of a search on a 3-square order: depth 0 entered 5000 times (2000 filled whole, 600
    with a break out of 1000 entries with room), depth 1 too seldom for its counts, depth 2 entered
    often but never with room (the model's a1 scaled as its a0 moved), no rate at zero."""
    a0, a1 = np.array([4.0, 2.0, 1.0]), np.array([8.0, 6.0, 3.0])
    m = edgeschedule.MEASURED
    placed, broken = [2600, 30, 3 * m], [600, 10, 0]
    entered, room = [5 * m // 2, 40, 6 * m], [m, 40, 0]
    hist = [x for row in (placed + [0], broken + [0], entered + [0], room + [0]) for x in row]
    b0, b1 = edgeschedule.measured_rates(a0, a1, hist)
    assert b0[0] == pytest.approx(2000 / (5 * m // 2)) and b1[0] == pytest.approx(600 / m)
    assert (b0[1], b1[1]) == (2.0, 6.0)
    assert b0[2] == pytest.approx(0.5) and b1[2] == pytest.approx(3.0 * 0.5)
    zero = [x for row in ([0, 0, 0, 0], [0] * 4, [m, 0, 0, 0], [m, 0, 0, 0]) for x in row]
    z0, z1 = edgeschedule.measured_rates(a0, a1, zero)
    assert z0[0] > 0 and z1[0] > 0


def test_a_planner_plans_again_from_the_rates_a_search_measured():
    """Eternity II's chain, then the counts of a short search of its row scan (they fit the rows
    of ``edgescore.HIST_ROWS``): the schedule found again from the measured rates is, by those
    rates, at least as good as the model's."""
    import array
    e2 = catalog.load("eternity2")
    tuning = default_tuning(e2)
    planner = edgeschedule.Planner(e2, edgescore.fill_order(16, 16), [(8, 7)])
    curve = lambda k: tuning.curve_slips(256, k)      # noqa: E731
    modelled = planner.allow(30, curve)
    lay = edgescore.layout(e2, seed=1, priority=tuning.priority, double=False)
    hist = array.array("q", [0] * len(edgescore.HIST_ROWS) * 257)
    out = edgescore.search(lay, tuning.held(256, 30, [], planner), 30, lambda *a: False,
                           node_limit=2_000_000, need=tuning.need(e2), hist=hist)
    assert sum(hist[:257]) == out.nodes
    planner.measure(hist)
    assert not np.array_equal(planner.a0, planner.model[0])
    measured = planner.allow(30, curve)
    assert measured[-1] == 30
    before, after = edgeschedule.merit(planner.a0, planner.a1, np.array([modelled, measured]), 30)
    assert after >= before


def test_ahead_the_chain_counts_a_pinned_piece_where_the_search_checks_it():
    """Eternity II's row scan meets the starter (I8) at depth 119; the square south of it (J8,
    depth 103) is checked against its south side too.  With ``ahead`` the chain counts that third
    join at depth 103 (one inner join's chance less) and the starter's square fills whole."""
    e2 = catalog.load("eternity2")
    order = edgescore.fill_order(16, 16)
    _, inside = edgeschedule.side_colours(e2.pieces)
    p = sum(v * v for v in inside.values()) / sum(inside.values()) ** 2
    a0, _ = edgeschedule.join_rates(e2, order, [(8, 7)])
    b0, b1 = edgeschedule.join_rates(e2, order, [(8, 7)], ahead=True)
    assert order.index((8, 7)) == 119 and order.index((9, 7)) == 103
    assert (b0[119], b1[119]) == (1.0, 0.0)
    assert b0[103] == pytest.approx(a0[103] * p)
    assert np.array_equal(a0[:103], b0[:103])


def test_the_hints_room_under_the_chain_can_be_left_out():
    pz = generate(16, 16, seed=3).puzzle()
    planner = edgeschedule.Planner(pz, edgescore.fill_order(16, 16))
    with_room = Tuning(markov=True).held(256, 20, [40], planner)
    without = Tuning(markov=True, pin_room=False).held(256, 20, [40], planner)
    assert without == Tuning(markov=True).held(256, 20, [], planner)
    assert [a - b for a, b in zip(without, with_room)] == [int(d >= 39 and w > 0) for d, w in enumerate(without)]
