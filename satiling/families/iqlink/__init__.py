"""IQ-Link: twelve pieces of balls, sockets and rings on a hexagonal board of 24 pegs; a solution
is one linked graph (lazy connectivity cuts)."""
from ...options import ModelOption
from ...registry import Family
from .puzzle import (PEGS, PIECES, IQLinkPlacement, IQLinkPuzzle, Unit, board_text, challenge,
                     compatible, legal_placements, link_components, load_instance, parse_placements,
                     peg_xy, pieces, rotate_180, solution_string, turn)

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
                    "(a file must hold every rule: no other solver runs the lazy cuts)", "str",
                    ("lazy", "eager")),
    ),
    svg="satiling.render.iqlink_svg:solution_svg",
    commands=("satiling.commands.iqlink",),
)
