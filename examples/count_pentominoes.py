"""Count every solution: the 12 pentominoes in a 6x10 box, built from code.

    python examples/count_pentominoes.py

The same pipeline and speed as 'satiling count pentomino-6x10 --raw' (tools/bench/api.py times
the two in one run): the symmetry restriction, the compiled exact-cover search, each class of
solutions expanded to its members.
"""
import satiling

puzzle = satiling.Polyform((6, 10), "pentominoes", name="pentomino-6x10")
print(puzzle.count(raw=True))          # every solution: rotations and reflections apart
