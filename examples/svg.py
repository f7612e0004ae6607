"""Draw a solution as SVG (in Jupyter a puzzle and a solution draw themselves).

    python examples/svg.py [FILE]        # default: hexiamonds.svg
"""
import sys

import satiling

# the 12 hexiamonds in a 6x6 rhombus of the triangle lattice
puzzle = satiling.Polyform((6, 6), "hexiamonds", lattice="triangle", name="hexiamond-6x6")
solution = puzzle.solve()
path = sys.argv[1] if len(sys.argv) > 1 else "hexiamonds.svg"
solution.to_svg(path)                     # the file appears whole or not at all
print(f"wrote {path}: {len(solution)} pieces")
