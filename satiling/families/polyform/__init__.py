"""Polyforms on any lattice: polyominoes, polyiamonds, polyhexes, polydrafters and polycubes.

``puzzle`` builds the exact cover (a piece in an orientation on some cells), ``format`` checks the
instance file, ``sets`` reads the bundled piece sets, ``parity`` proves boards impossible by
colourings of the lattice.
"""
from ...options import ModelOption
from ...registry import Family
from .puzzle import PolyformPlacement, PolyformPuzzle, load_instance

__all__ = ["FAMILY", "PolyformPlacement", "PolyformPuzzle", "load_instance"]

FAMILY = Family(
    name="polyform",
    title="polyforms",
    load=load_instance,
    options=(
        ModelOption("--parity", "the colourings' imbalances of the chosen placements sum to the "
                    "region's (redundant)",
                    "add the board's colouring (parity) arguments: they never change the answer, "
                    "and may speed up a SAT solver"),
    ),
    text="satiling.render.text:polyform_text",
    svg="satiling.render.svg:polyform_svg",
    commands=("satiling.commands.pack",),
)
