"""The facts of puzzles, measured in processes of the web app's own: one of the largest puzzles
(Eternity: 1.4 million placements, a minute and more) keeps no smaller puzzle's facts waiting."""
from satiling.web.state import Puzzles


def test_a_small_puzzles_facts_come_while_the_largest_are_measured():
    puzzles = Puzzles()
    try:
        largest = puzzles.facts("eternity")
        small = puzzles.facts("tetromino-4x5").result(timeout=120)
        # with one facts process the small puzzle waited until Eternity's were done
        assert not largest.done()
        assert small["facts"]["cells"] == 20 and "checkerboard" in small["obstruction"]
        assert puzzles.facts("tetromino-4x5").result(timeout=1) is small     # measured once
    finally:
        puzzles.close()
