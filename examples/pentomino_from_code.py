"""Build a puzzle from code: the 12 pentominoes in a 6x10 box, solved and drawn.

    python examples/pentomino_from_code.py
"""
import satiling

# (rows, cols) is a box on the square lattice; "pentominoes" is a bundled piece set
puzzle = satiling.Polyform((6, 10), "pentominoes", name="pentomino-6x10")

solution = puzzle.solve()            # the exact-cover search; verified from the geometry
print(solution)                      # the picture, one letter per piece
for placement in sorted(solution)[:3]:
    print(placement.piece, placement.cells)
