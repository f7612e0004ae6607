"""IQ-Link: twelve pieces of balls, sockets and rings on a hexagonal board of 24 pegs; a solution
is one linked graph (lazy connectivity cuts).

``geometry`` the board and the pieces, ``placement`` placements and the linked graph, ``model`` the
model's constraints, ``puzzle`` the puzzle (verify, symmetries, pictures as text), ``io`` instance
files."""
from ...options import ModelOption
from ...registry import Family
from .geometry import PEGS, PIECES, Unit, peg_xy, pieces, turn
from .io import challenge, load_instance
from .placement import (IQLinkPlacement, compatible, legal_placements, link_components,
                        parse_placements, rotate_180)
from .puzzle import IQLinkPuzzle, board_text, solution_string

__all__ = ["FAMILY", "PEGS", "PIECES", "IQLinkPlacement", "IQLinkPuzzle", "Unit", "board_text",
           "challenge", "compatible", "legal_placements", "link_components", "load_instance",
           "parse_placements", "peg_xy", "pieces", "rotate_180", "solution_string", "turn"]

FAMILY = Family(
    name="iqlink",
    title="IQ-Link",
    load=load_instance,
    options=(
        ModelOption("--link-rule", "the linked-graph rule as lazy cuts (default) or eager "
                    "reachability clauses, for solving here; encode always writes the eager rule "
                    "(a file must hold every rule: no other solver runs the lazy cuts)",
                    "how the rule that the pieces link up is given to the solver: as it is broken "
                    "(lazy, the default) or all at the start (eager)", "str", ("lazy", "eager")),
    ),
    svg="satiling.render.iqlink_svg:solution_svg",
    commands=("satiling.commands.iqlink",),
)
