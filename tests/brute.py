"""Brute-force answers and random small instances, for checking every engine against them.

Nothing here uses a model, an encoding or an engine of satiling:

* a polyform puzzle's solutions are the sets of its placements (the family's geometry: which cells
  each piece may cover) that obey the rules, found by plain backtracking over the cells, and its
  classes are those solutions up to the puzzle's own board motions (``puzzle.canonical``);
* an edge-matching board's solutions are found by trying every piece at every rotation on every
  square in reading order, from the pieces' colours alone, and its classes under the board's turns
  are computed here from squares and colours.

The generators build instance data (the TOML tables a user writes) from a seed.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any, Callable, Iterable, Iterator

from satiling.errors import SatilingError
from satiling.geometry import lattice as make_lattice

#: an instance whose brute force passes this many solutions is replaced by another (engines are
#: run many times per instance; a few thousand solutions keep each run in milliseconds)
MAX_SOLUTIONS = 400


class TooMany(Exception):
    pass


# -- polyforms ---------------------------------------------------------------------------------
def polyform_solutions(puzzle: Any) -> list[frozenset]:
    """Every set of placements that covers each cell once (at most once: ``cells = "at-most"``) and
    uses each piece its count of times (at most: ``pieces = "at-most"``)."""
    placements = puzzle.placements()
    cells = sorted(puzzle.region)
    on_cell: dict[Any, list[Any]] = {c: [] for c in cells}
    for pl in placements:
        on_cell[min(pl.cells)].append(pl)          # each placement tried at its smallest cell
    count = {p.name: p.count for p in puzzle.pieces}
    may_skip_cell = puzzle.cells_rule == "at-most"
    exact_pieces = puzzle.pieces_rule == "exact"
    out: list[frozenset] = []
    used: Counter = Counter()
    covered: set = set()
    chosen: list = []

    def walk(i: int) -> None:
        while i < len(cells) and cells[i] in covered:
            i += 1
        if i == len(cells):
            if not exact_pieces or all(used[n] == k for n, k in count.items()):
                out.append(frozenset(chosen))
                if len(out) > MAX_SOLUTIONS:
                    raise TooMany
            return
        cell = cells[i]
        for pl in on_cell[cell]:
            if used[pl.piece] < count[pl.piece] and not covered.intersection(pl.cells):
                used[pl.piece] += 1
                covered.update(pl.cells)
                chosen.append(pl)
                walk(i + 1)
                chosen.pop()
                covered.difference_update(pl.cells)
                used[pl.piece] -= 1
        if may_skip_cell:
            covered.add(cell)                        # left empty
            walk(i + 1)
            covered.discard(cell)

    walk(0)
    return out


def polyform_classes(puzzle: Any, solutions: list[frozenset]) -> int:
    return len({puzzle.canonical(list(s)) for s in solutions})


LATTICES = ("square", "triangle", "hexagon", "cubic", "drafter")
START = {"square": (0, 0), "triangle": (0, 0), "hexagon": (0, 0), "cubic": (0, 0, 0),
         "drafter": (0, 0, 0)}


def _grow(lat: Any, start: tuple, size: int, rng: random.Random, inside: set | None = None) -> list:
    """A random connected set of ``size`` cells from ``start`` (within ``inside`` if given)."""
    cells = [start]
    seen = {start}
    while len(cells) < size:
        frontier = [n for c in cells for n in lat.neighbors(c)
                    if n not in seen and (inside is None or n in inside)]
        if not frontier:
            break
        n = rng.choice(frontier)
        seen.add(n)
        cells.append(n)
    return cells


def _carve(lat: Any, region: list, rng: random.Random) -> list[list]:
    """The region cut into random connected pieces of 1 to 4 cells."""
    left = set(region)
    pieces = []
    while left:
        start = min(left)
        piece = _grow(lat, start, rng.randint(1, 4), rng, left)
        left.difference_update(piece)
        pieces.append(piece)
    return pieces


def polyform_data(seed: int) -> dict[str, Any]:
    """A random small polyform instance: any lattice, plane or wrapped board, holes, copies,
    every freedom and every combination of rules."""
    rng = random.Random(seed)
    name = rng.choice(LATTICES)
    lat = make_lattice(name)
    data: dict[str, Any] = {"lattice": name}
    rules = {"cells": rng.choice(["exact", "at-most"]), "pieces": rng.choice(["exact", "at-most"])}
    data["rules"] = rules
    wrapped = name in ("square", "triangle", "hexagon") and rng.random() < 0.3
    if wrapped:
        rows, cols = rng.randint(1, 3), rng.randint(1, 4)
        if name == "square":
            region = {"rows": rows, "cols": cols}
        else:
            region = {"parallelogram": [rows, cols]}
        region["topology"] = rng.choice(["cylinder", "torus"])
        if region["topology"] == "cylinder":
            region["wrap"] = rng.choice(["cols", "rows"])
        data["region"] = region
        area = rows * cols * (2 if name == "triangle" else 1)
        shapes = [_grow(lat, START[name], rng.randint(1, 3), rng) for _ in range(rng.randint(1, 4))]
    else:
        size = rng.randint(2, 9 if name != "drafter" else 7)
        cells = _grow(lat, START[name], size, rng)
        data["region"] = {"cells": [list(c) for c in cells]}
        area = len(cells)
        if rng.random() < 0.6:
            shapes = _carve(lat, cells, rng)
            rng.shuffle(shapes)
            shapes = shapes[:max(1, len(shapes) - rng.randint(0, 1))] + \
                [_grow(lat, START[name], rng.randint(1, 3), rng) for _ in range(rng.randint(0, 1))]
        else:
            shapes = [_grow(lat, START[name], rng.randint(1, 4), rng) for _ in range(rng.randint(1, 4))]
    freedoms = ["free", "one-sided", "fixed"] if name != "cubic" else ["one-sided", "fixed"]
    data["piece"] = [{"name": f"P{i}", "cells": [list(c) for c in s], "count": rng.choice([1, 1, 1, 2]),
                      "freedom": rng.choice(freedoms)} for i, s in enumerate(shapes)]
    total = sum(len(s) * p["count"] for s, p in zip(shapes, data["piece"]))
    if rules["cells"] == rules["pieces"] == "exact" and total != area:
        rules["pieces"] = "at-most" if total > area else "exact"
        rules["cells"] = "at-most" if total < area else "exact"
    return data


# -- edge matching -----------------------------------------------------------------------------
Edges = tuple[int, int, int, int]


def rotate(edges: Edges, r: int) -> Edges:
    """Turned ``r`` clockwise quarter turns: the N colour moves to E."""
    return tuple(edges[(d - r) % 4] for d in range(4))  # type: ignore[return-value]


def edge_solutions(rows: int, cols: int, pieces: list[Edges],
                   fixed: dict[tuple[int, int], tuple[int, Edges]]) -> list[tuple]:
    """Every board: per square in reading order, (piece number from 1, colours N E S W shown);
    grey (0) exactly on the rim, every join matching, ``fixed`` squares as given."""
    out: list[tuple] = []
    board: list[tuple[int, Edges]] = []
    used = [False] * (len(pieces) + 1)
    for p, _ in fixed.values():
        used[p] = True

    def ok(r: int, c: int, e: Edges) -> bool:
        rim = (r == 0, c == cols - 1, r == rows - 1, c == 0)
        if any((e[d] == 0) != rim[d] for d in range(4)):
            return False
        if c > 0 and board[-1][1][1] != e[3]:
            return False
        return not (r > 0 and board[-cols][1][2] != e[0])

    def walk(i: int) -> None:
        if i == rows * cols:
            out.append(tuple(board))
            if len(out) > MAX_SOLUTIONS:
                raise TooMany
            return
        r, c = divmod(i, cols)
        if (r, c) in fixed:
            p, e = fixed[(r, c)]
            options = [(p, e)] if ok(r, c, e) else []
        else:
            options = [(p, e) for p in range(1, len(pieces) + 1) if not used[p]
                       for e in {rotate(pieces[p - 1], k) for k in range(4)} if ok(r, c, e)]
        for p, e in options:
            used[p] = True
            board.append((p, e))
            walk(i + 1)
            board.pop()
            used[p] = (r, c) in fixed
    walk(0)
    return out


def edge_classes(rows: int, cols: int, solutions: list[tuple],
                 pinned: dict[tuple[int, int], tuple[int, Edges]]) -> int:
    """Classes under the board's turns (quarter turns on a square board, the half turn else)
    that keep every pinned piece on its square, showing the same colours."""
    def keeps(k: int) -> bool:
        for (r, c), (p, e) in pinned.items():
            rr, cc = r, c
            if rows != cols:
                rr, cc = rows - 1 - r, cols - 1 - c
            else:
                for _ in range(k):
                    rr, cc = cc, rows - 1 - rr
            if (rr, cc) != (r, c) or rotate(e, k) != e:
                return False
        return True
    ks = [k for k in ((1, 2, 3) if rows == cols else (2,)) if keeps(k)]

    def turned(board: tuple, k: int) -> tuple:
        cells = {}
        for i, (p, e) in enumerate(board):
            r, c = divmod(i, cols)
            for _ in range(k):
                r, c = c, rows - 1 - r   # one clockwise quarter turn (square boards)
            cells[(r, c)] = (p, rotate(e, k))
        return tuple(cells[divmod(i, cols)] for i in range(rows * cols))

    def half(board: tuple) -> tuple:
        return tuple((p, rotate(e, 2)) for p, e in reversed(board))

    seen = set()
    for b in solutions:
        images = [b] + [half(b) if rows != cols else turned(b, k) for k in ks]
        seen.add(min(images))
    return len(seen)


def edge_data(seed: int) -> dict[str, Any]:
    """A random small edge-matching board: joins coloured at random from a few frame and inner
    colours (so pieces may be equal, boards may have many solutions or none), sometimes with a
    fixed piece or a hint taken from one solution."""
    rng = random.Random(seed)
    rows, cols = rng.choice([(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (3, 3), (3, 4), (4, 3), (4, 4)])
    frame, inner = rng.randint(1, 3), rng.randint(1, 4)
    high = rng.random() < 0.15             # colours numbered far apart (the candidate table)
    base = 1000 if high else 0
    fc = [base + 1 + 7 * k * high + k for k in range(frame)]
    ic = [base + 200 * high + frame + 1 + k for k in range(inner)]
    e_join: dict[tuple[int, int], int] = {}
    s_join: dict[tuple[int, int], int] = {}
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                e_join[(r, c)] = rng.choice(fc if r in (0, rows - 1) else ic)
            if r + 1 < rows:
                s_join[(r, c)] = rng.choice(fc if c in (0, cols - 1) else ic)
    pieces = []
    for r in range(rows):
        for c in range(cols):
            n = s_join[(r - 1, c)] if r > 0 else 0
            e = e_join[(r, c)] if c + 1 < cols else 0
            s = s_join[(r, c)] if r + 1 < rows else 0
            w = e_join[(r, c - 1)] if c > 0 else 0
            pieces.append(rotate((n, e, s, w), rng.randrange(4)))
    rng.shuffle(pieces)
    data: dict[str, Any] = {"family": "edgematch", "rows": rows, "cols": cols,
                            "pieces": [list(p) for p in pieces]}
    kind = rng.random()
    if kind < 0.3:
        try:
            solutions = edge_solutions(rows, cols, pieces, {})
        except TooMany:
            solutions = []
        if solutions:
            i = rng.randrange(rows * cols)
            p, shown = rng.choice(solutions)[i]
            rot = next(k for k in range(4) if rotate(pieces[p - 1], k) == shown)
            r, c = divmod(i, cols)
            key = "fixed" if kind < 0.2 else "hint"
            data[key] = [{"square": f"{chr(65 + r)}{c + 1}", "piece": p, "rotation": rot}]
    return data


def edge_answer(data: dict[str, Any], hints: bool) -> tuple[int, int]:
    """(raw solutions, classes) of edge-matching instance data, by brute force."""
    rows, cols = data["rows"], data["cols"]
    pieces = [tuple(p) for p in data["pieces"]]
    pinned = list(data.get("fixed", [])) + (list(data.get("hint", [])) if hints else [])
    fixed = {}
    for t in pinned:
        r, c = ord(t["square"][0]) - 65, int(t["square"][1:]) - 1
        fixed[(r, c)] = (t["piece"], rotate(pieces[t["piece"] - 1], t.get("rotation", 0)))
    sols = edge_solutions(rows, cols, pieces, fixed)
    return len(sols), edge_classes(rows, cols, sols, fixed)


def load_or_none(data: dict[str, Any], name: str, tmp: Any) -> Any:
    """The puzzle, or None when satiling refuses the generated data (e.g. areas that cannot match)."""
    from satiling import catalog
    try:
        return catalog.load_data(data, name, tmp)
    except SatilingError:
        return None


def solved_polyforms(seeds: Iterable[int], name: str, tmp: Any,
                     accept: Callable[[dict[str, Any]], bool] = lambda data: True,
                     ) -> Iterator[tuple[dict[str, Any], Any, list[frozenset]]]:
    """``(data, puzzle, solutions)`` of each seed's generated polyform instance that ``accept``
    takes (a look at the data alone, before it is loaded), satiling loads and the brute force
    solves: the generated cases of the property tests."""
    for seed in seeds:
        data = polyform_data(seed)
        puzzle = load_or_none(data, name, tmp) if accept(data) else None
        if puzzle is None:
            continue
        try:
            yield data, puzzle, polyform_solutions(puzzle)
        except TooMany:
            continue


# -- every solution of an exact polyform puzzle, by filling the first empty cell -------------------
def exact_covers(puzzle) -> Iterator[list]:
    """Every solution of an exact polyform puzzle: always fill the first empty cell.

    Cells are ordered along the board's longer axis (the short frontier keeps the search small);
    a placement covering the first empty cell must have it as its own first cell, so placements are
    bucketed by first cell.  Cells and pieces are bits of one integer.
    """
    lat = puzzle.lattice
    middle = {c: centre(lat, c) for c in puzzle.region}
    xs, ys = [p[0] for p in middle.values()], [p[1] for p in middle.values()]
    wide = max(xs) - min(xs) >= max(ys) - min(ys)
    cells = sorted(puzzle.region, key=lambda c: (round(middle[c][0 if wide else 1], 6),
                                                 round(middle[c][1 if wide else 0], 6)))
    bit = {c: 1 << i for i, c in enumerate(cells)}
    piece_bit = {p.name: 1 << (len(cells) + i) for i, p in enumerate(puzzle.pieces)}
    by_first: list[list] = [[] for _ in cells]
    for pl in puzzle.placements():
        mask = sum(bit[c] for c in pl.cells)
        by_first[(mask & -mask).bit_length() - 1].append((mask | piece_bit[pl.piece], pl))
    full = (1 << len(cells)) - 1
    chosen: list = []

    def search(covered: int) -> Iterator[list]:
        free = ~covered & full
        if not free:
            yield list(chosen)
            return
        for mask, pl in by_first[(free & -free).bit_length() - 1]:
            if not mask & covered:
                chosen.append(pl)
                yield from search(covered | mask)
                chosen.pop()
    yield from search(0)


def centre(lat: Any, cell: Any) -> tuple[float, float]:
    poly = lat.polygon(cell)
    return (sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly))
