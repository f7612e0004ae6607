"""A board drawn as ASCII art and pieces of your own.

    python examples/own_pieces.py

Any character but '.' and space is a cell.  Pieces are ASCII art too, or lists of cells; 'count'
gives copies, 'freedom' says whether a piece may be turned over.
"""
import satiling

board = """
####.
#####
#####
.####
"""
pieces = {
    "L": {"ascii": "#.\n#.\n##", "count": 2},        # two L-tetrominoes
    "O": "##\n##",
    "S": [(0, 1), (0, 2), (1, 0), (1, 1)],            # cells as (row, col)
    "I": "##",
}
puzzle = satiling.Polyform(board, pieces, name="own")
print(puzzle.count(raw=True), "tilings,", puzzle.count(), "up to the board's symmetries")
print(puzzle.solve())
