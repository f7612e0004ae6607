"""IQ-Link as a model: one Boolean per placement, the occupancy rule through one variable per
kind of unit on a peg, the counting argument as a redundant constraint, and the linked-graph rule
(lazy cuts or eager reachability clauses)."""
from __future__ import annotations

from ...problem import Problem
from .geometry import CENTRE, PEGS, PIECES
from .placement import IQLinkPlacement, compatible, link_components


def add_units(prob: Problem) -> dict[tuple[str, frozenset[str]], int]:
    """Occupancy through *unit* variables, one per (peg, slots taken): ``u[g,S]`` is true iff some
    placement puts a unit taking slots S on peg g.  Two units on a peg clash iff their slot sets
    meet, so the rule becomes "at most one placement per unit variable" plus one binary clause per
    clashing pair of unit variables on a peg.

    The direct form -- at most one placement per peg slot -- is the same constraint but needs
    1.8 million pairwise clauses on the empty board (a third of all placement pairs clash); this
    one needs about 75 thousand and propagates the same.  Returns the unit variables.
    """
    groups: dict[tuple[str, frozenset[str]], list[int]] = {}
    for v in prob.primary_vars():
        for peg, slots in prob.meanings[v].occupancy().items():
            groups.setdefault((peg, slots), []).append(v)
    unit: dict[tuple[str, frozenset[str]], int] = {}
    for (peg, slots), lits in sorted(groups.items(), key=lambda kv: (kv[0][0], sorted(kv[0][1]))):
        u = unit[peg, slots] = prob.new_var(("unit", peg, "".join(sorted(slots))))
        prob.add_clause([-u] + lits)
        for v in lits:
            prob.add_clause([-v, u])
        if len(lits) > 1:
            prob.at_most_one(lits, name=f"peg {peg} unit {''.join(sorted(slots))}")
    keys = list(unit)
    for i, (peg, slots) in enumerate(keys):
        for other, slots2 in keys[i + 1:]:
            if other == peg and slots & slots2:
                prob.add_clause([-unit[peg, slots], -unit[peg, slots2]])
    return unit


def add_room(prob: Problem, unit: dict[tuple[str, frozenset[str]], int]) -> None:
    """The counting argument, as two redundant cardinality constraints.

    The 12 pieces have 36 units: 16 balls, 6 full rings and 14 sockets (rings with openings).  A
    peg holds at most one ring and one ball, and a ball can only sit in a socket.  With p balls in
    sockets the units stand on 36 - p of the 24 pegs, so p >= 12, and in every solution

    * (empty pegs) + (sockets without a ball) = 24 - (36 - p) + (14 - p) = 2;
    * (empty pegs) + (balls outside a ring)   = 24 - (36 - p) + (16 - p) = 4.

    A solver cannot derive these counts by itself (they are pigeonhole arguments); stated as
    "at most 2" and "at most 4", they let the search see early that the pieces left cannot fill
    the holes left (measurements: docs/decisions/2026-11-27-models-and-encodings.md).
    """
    empty_pegs, unfilled, lone = [], [], []
    for peg in PEGS:
        here = {slots: u for (g, slots), u in unit.items() if g == peg}
        empty = prob.new_var(("empty", peg))
        prob.add_clause([empty] + list(here.values()))
        empty_pegs.append(empty)
        balls = {slots: u for slots, u in here.items() if CENTRE in slots}
        sockets = {slots: u for slots, u in here.items() if CENTRE not in slots and len(slots) < 6}
        for slots, u in sockets.items():          # a socket is filled by a ball its openings let in
            x = prob.new_var(("unfilled", peg, "".join(sorted(slots))))
            prob.add_clause([-u, x] + [b for bs, b in balls.items() if not bs & slots])
            unfilled.append(x)
        for slots, u in balls.items():            # a ball is held by a socket whose openings fit it
            x = prob.new_var(("lone ball", peg, "".join(sorted(slots))))
            prob.add_clause([-u, x] + [r for rs, r in sockets.items() if not rs & slots])
            lone.append(x)
    prob.cardinality(empty_pegs + unfilled, 0, 2, name="empty pegs + unfilled sockets")
    prob.cardinality(empty_pegs + lone, 0, 4, name="empty pegs + lone balls")
    prob.assume("the counting argument on empty pegs")


# -- the linked-graph rule ------------------------------------------------------------------------
def _piece_vars(prob: Problem) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {p: [] for p in PIECES}
    for v in prob.primary_vars():
        out[prob.meanings[v].piece].append(v)
    return out


def add_lazy_links(prob: Problem) -> None:
    """The linked rule as a lazy check: a candidate whose pieces fall into several components gets
    one cut per component C -- "not all of C's placements, or some other piece touches C".

    The cut holds in every linked solution: if all of C is placed, C is not all 12 pieces, so some
    other piece must share a peg with C; the literals listed are exactly those placements (of the
    pieces outside C, fitting beside all of C).
    """
    var_of = {prob.meanings[v]: v for v in prob.primary_vars()}
    by_peg: dict[str, list[IQLinkPlacement]] = {}
    for pl in var_of:
        for peg in pl.occupancy():
            by_peg.setdefault(peg, []).append(pl)

    def check(true_vars: frozenset[int]) -> list[list[int]]:
        chosen = [prob.meanings[v] for v in true_vars]
        parts = link_components(chosen)
        if len(parts) < 2:
            return []
        cuts = []
        for part in parts:
            inside = {pl.piece for pl in part}
            near = {q for pl in part for peg in pl.occupancy() for q in by_peg[peg]
                    if q.piece not in inside and all(compatible(q, r) for r in part)}
            cuts.append([-var_of[pl] for pl in part] + sorted(var_of[q] for q in near))
        return cuts

    prob.add_lazy(check)


def add_eager_links(prob: Problem) -> None:
    """The linked rule as clauses: a layered reachability encoding over the 12 pieces.

    Auxiliary variables (none primary):

    * ``at[q,g]``: piece q has a unit on peg g  (at -> some placement of q covering g);
    * ``link[p,q]``: pieces p and q share a peg (link -> some ``both[p,q,g]``; both -> at[p,g], at[q,g]);
    * ``reach[q,i]``: q is joined to the root piece by a path of at most i links
      (reach[q,i] -> reach[q,i-1] or some ``via[p,q,i]``; via -> reach[p,i-1], via -> link[p,q]).

    The root is piece A (every piece is on the board, so any would do); every piece must be reached
    within 11 links.  Only the "needs a reason" direction is encoded: a true auxiliary variable is
    always backed by true placements, so the clauses admit exactly the linked solutions.
    """
    by_piece = _piece_vars(prob)
    at: dict[tuple[str, str], int] = {}
    for q, vs in by_piece.items():
        cover: dict[str, list[int]] = {}
        for v in vs:
            for peg in prob.meanings[v].occupancy():
                cover.setdefault(peg, []).append(v)
        for peg, lits in cover.items():
            at[q, peg] = a = prob.new_var(("at", q, peg))
            prob.add_clause([-a] + lits)
    link: dict[tuple[str, str], int] = {}
    for i, p in enumerate(PIECES):
        for q in PIECES[i + 1:]:
            both = []
            for peg in PEGS:
                if (p, peg) in at and (q, peg) in at:
                    b = prob.new_var(("both", p, q, peg))
                    prob.add_clause([-b, at[p, peg]])
                    prob.add_clause([-b, at[q, peg]])
                    both.append(b)
            if both:
                link[p, q] = link[q, p] = lk = prob.new_var(("link", p, q))
                prob.add_clause([-lk] + both)
    root, TRUE = PIECES[0], 0                  # TRUE: a constant, not a variable
    reach: dict[str, int] = {root: TRUE}       # layer 0: only the root; absent = unreachable
    for layer in range(1, len(PIECES)):
        nxt = {root: TRUE}
        for q in PIECES:
            if q == root:
                continue
            reasons = [reach[q]] if q in reach else []
            for p, rp in reach.items():
                if p == q or (p, q) not in link:
                    continue
                if rp == TRUE:
                    reasons.append(link[p, q])
                    continue
                via = prob.new_var(("via", p, q, layer))
                prob.add_clause([-via, link[p, q]])
                prob.add_clause([-via, rp])
                reasons.append(via)
            if reasons:
                nxt[q] = r = prob.new_var(("reach", q, layer))
                prob.add_clause([-r] + reasons)
        reach = nxt
    for q in PIECES:
        if q not in reach:
            prob.add_clause([])                # q can never be linked: no solution
        elif reach[q] != TRUE:
            prob.fix(reach[q])
