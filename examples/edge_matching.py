"""An edge-matching board from code: square pieces with a colour on each side.

    python examples/edge_matching.py

Each piece is [north, east, south, west]; colour 0 is the border.  The compiled backtracker
solves and counts it, as 'satiling solve' and 'satiling count' do.
"""
import satiling

pieces = [
    [0, 1, 2, 0], [0, 3, 4, 1], [0, 0, 1, 3],      # top row, as planted
    [2, 4, 3, 0], [4, 2, 1, 4], [1, 0, 2, 2],
    [3, 1, 0, 0], [1, 2, 0, 1], [2, 0, 0, 2],
]
puzzle = satiling.EdgeMatching(3, 3, pieces, name="3x3")
solution = puzzle.solve()
print(solution)                     # the board: piece/rotation per square
print(puzzle.count(), "up to the board's turns,", puzzle.count(raw=True), "in all")
