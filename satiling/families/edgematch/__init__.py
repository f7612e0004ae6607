"""Edge matching: square pieces with a colour on each side, placed so that touching sides match
(Eternity II, its clue puzzles, generated boards).

``geometry`` has the board, the sides and the turns; ``io`` reads instance files; ``model`` builds
the SAT model (Heule's direct and compact encodings and the redundant constraints); ``puzzle`` is
the puzzle itself; ``board`` writes and reads boards as text; ``score`` counts matching joins;
``generate`` makes random boards with a planted solution.
"""
from ...options import ModelOption
from ...registry import Family
from .geometry import (GREY, STEP, Board, Edges, Tile, distinct_rotations, parse_square, rotate, shape_key,
                       square_name)
from .model import rotation_pattern
from .puzzle import EdgeMatchPuzzle, load_instance

__all__ = ["FAMILY", "GREY", "STEP", "Board", "EdgeMatchPuzzle", "Edges", "Tile", "distinct_rotations",
           "load_instance", "parse_square", "rotate", "rotation_pattern", "shape_key", "square_name"]

FAMILY = Family(
    name="edgematch",
    title="edge matching",
    load=load_instance,
    options=(
        ModelOption("--encoding", "'direct' (piece, square, rotation) or Heule's 'compact' (piece, "
                    "square)", "how the SAT model says where each piece goes: direct (its square "
                    "and turn, the default) or compact (its square; the turn follows from the "
                    "colours)", "str", ("direct", "compact")),
        ModelOption("--hints", "Eternity II: also fix the four clue-puzzle hint pieces",
                    "Eternity II: also place the four pieces its clue puzzles revealed"),
        ModelOption("--colour-counts", "each colour on its exact number of joins (redundant)",
                    "add that each colour meets on exactly as many joins as it can: never changes "
                    "the answer"),
        ModelOption("--balanced-rotation", "per colour as many E- as W-facing and N- as S-facing "
                    "sides (redundant)", "add that each colour faces east as often as west, and "
                    "north as often as south: never changes the answer"),
        ModelOption("--checkerboard-parity", "the balance per checkerboard colour, the signed form "
                    "(redundant)", "add that balance on each colour of a checkerboard: never "
                    "changes the answer"),
        ModelOption("--fix-corner", "pin one corner piece against the board's rotations",
                    "fix one corner piece, so that a solution is found once, not in each of its "
                    "four turns"),
    ),
    svg="satiling.render.edgematch_svg:solution_svg",
    commands=("satiling.commands.edgematch",),
)
