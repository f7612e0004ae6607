"""Every solution, streamed: a generator of verified placements, not variable numbers.

    python examples/stream_solutions.py

Solutions come as the search finds them; stop reading and the search stops.
"""
import itertools

import satiling

puzzle = satiling.load("pentomino-3x20")          # a bundled puzzle, by name
for n, solution in enumerate(puzzle.solutions(raw=True), 1):
    print(f"solution {n}:")
    print(solution)

# the first two of the 6x10 box's 2339 classes, without searching for the rest
for solution in itertools.islice(satiling.load("pentomino-6x10").solutions(), 2):
    print(solution.to_json()[0])
