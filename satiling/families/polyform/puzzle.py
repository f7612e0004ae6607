"""Polyforms on any lattice: pieces made of cells, packed into a region.

An instance is a region (a set of cells) and pieces (shapes with a multiplicity and a freedom:
``free`` may be turned over, ``one-sided`` only rotated, ``fixed`` only translated).  A placement is
one piece on one set of cells.  The model is Knuth's exact cover: one Boolean per placement, every
cell covered once (or at most once, when there is more room than pieces), every piece used its number
of times (or at most that, when there are more pieces than room).

The verifier re-derives everything from cells: it never looks at a :class:`~satiling.problem.Problem`.

**Distinct solutions.**  Two solutions are the same when a symmetry of the board maps one onto the
other.  A symmetry must map the pieces onto the pieces: a rotation or reflection that turns each
piece's set of allowed orientations into a piece's set with the same count.  With one-sided pieces
a reflection does so only when the set holds both hands of every chiral piece; it then swaps the
hands (F with f), and counts as a symmetry -- the convention of Goodger's Polyform Puzzler, under
which the 18 one-sided pentominoes fill a 3x30 box in 46 distinct ways, not 92.  On a wrapped
board (cylinder, torus) the symmetries also include the shifts along the seam.

**Pinned pieces** (``[[placed]]``, :mod:`.pins`) are in every solution: each is a unit of the
model, the placements that clash with the pins are left out, the verifier asks for every pin, and
the symmetries are only those that map the set of pins onto itself.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import chain
from typing import Any, Iterable

from ...errors import SatilingError, VerificationError
from ...geometry import Cell, Lattice, Shape, lattice as make_lattice
from ...geometry.wrap import Wrap, periods as wrap_periods
from ...options import check_known
from ...problem import ModelShape, Problem
from ...schema import check_area, check_piece_cells, check_placements, check_size
from ..base import Puzzle
from .format import check_polyform


@dataclass(frozen=True)
class Piece:
    """A shape with a name, how many copies there are, and how it may move."""

    name: str
    shape: Shape
    count: int = 1
    freedom: str = "free"


@dataclass(frozen=True, order=True)
class PolyformPlacement:
    """Piece ``piece`` on the sorted cells ``cells``."""

    piece: str
    cells: tuple[Cell, ...]

    def to_json(self) -> dict[str, Any]:
        return {"piece": self.piece, "cells": [list(c) for c in self.cells]}

    def sort_key(self) -> tuple:
        return (self.piece, self.cells)

    def __str__(self) -> str:
        return f"{self.piece} {' '.join(','.join(map(str, c)) for c in self.cells)}"


class PolyformPuzzle(Puzzle):
    """Pieces of a lattice packed into a region."""

    family = "polyform"
    placement_types = (PolyformPlacement,)

    def __init__(self, name: str, lattice: Lattice, region: Iterable[Cell], pieces: list[Piece],
                 cells_rule: str = "exact", pieces_rule: str = "exact", title: str = "",
                 source: str = "", wrap: Wrap | None = None,
                 placed: Iterable[PolyformPlacement] = ()) -> None:
        self.name, self.title, self.source = name, title, source
        self.lattice = lattice
        self.region = frozenset(tuple(c) for c in region)
        self.wrap = wrap                  # None: a plain region; else how its sides are glued
        self.pieces = pieces
        self.by_name = {p.name: p for p in pieces}
        if len(self.by_name) != len(pieces):
            raise SatilingError(f"{name}: two pieces share a name")
        if cells_rule not in ("exact", "at-most") or pieces_rule not in ("exact", "at-most"):
            raise SatilingError(f"{name}: rules must be 'exact' or 'at-most'")
        self.cells_rule, self.pieces_rule = cells_rule, pieces_rule
        self._placements: list[PolyformPlacement] | None = None
        self._unpinned: list[PolyformPlacement] | None = None
        self._coverage = None
        self._orientations: dict[str, list[Shape]] = {}
        self._symmetries: list | None = None
        #: (piece, cells) -> whether the cells have the piece's shape: the verifier meets the same
        #: placement in many solutions, and the answer depends on the geometry alone
        self._shape_ok: dict[tuple[str, tuple[Cell, ...]], bool] = {}
        #: the pieces placed by hand, part of every solution (checked: :func:`.pins.check_placed`)
        self.placed: tuple[PolyformPlacement, ...] = tuple(
            PolyformPlacement(pl.piece, tuple(sorted(tuple(c) for c in pl.cells))) for pl in placed)
        if self.placed:
            from .pins import check_placed
            check_placed(self, list(self.placed))

    # -- geometry ---------------------------------------------------------------------------
    def orientations(self, piece: Piece) -> list[Shape]:
        """The shapes a piece may take (deduplicated: the X pentomino has one)."""
        if piece.name not in self._orientations:
            if piece.freedom == "fixed":
                shapes = [self.lattice.normalize(piece.shape)]
            else:
                shapes = self.lattice.orientations(piece.shape, reflections=piece.freedom == "free")
            self._orientations[piece.name] = shapes
        return self._orientations[piece.name]

    def placements(self) -> list[PolyformPlacement]:
        """Every way to put every piece inside the region that agrees with the pins: the pins
        themselves and the placements clear of their cells, of pieces not all pinned."""
        if self._placements is None:
            every = self.unpinned_placements()
            if not self.placed:
                self._placements = every
            else:
                pins = set(self.placed)
                if not pins <= set(every):       # (check_placed has refused such a pin)
                    raise SatilingError(f"{self.name}: a pinned piece is not one of its placements")
                taken = {c for pl in self.placed for c in pl.cells}
                pinned = Counter(pl.piece for pl in self.placed)
                spent = {p.name for p in self.pieces if pinned[p.name] == p.count}
                self._placements = [pl for pl in every if pl in pins or
                                    (pl.piece not in spent and taken.isdisjoint(pl.cells))]
        return self._placements

    def unpinned_placements(self) -> list[PolyformPlacement]:
        """Every way to put every piece inside the region, the pins aside."""
        if self._unpinned is None:
            out = []
            for piece in self.pieces:
                seen: dict[Shape, None] = {}      # on a wrapped board two shapes may land alike
                for shape in self.orientations(piece):
                    fits = self.wrap.fits(shape) if self.wrap else self.lattice.fits(shape, self.region)
                    for cells in fits:
                        seen.setdefault(cells, None)
                out.extend(PolyformPlacement(piece.name, cells) for cells in seen)
            self._unpinned = out
        return self._unpinned

    def coverage(self):
        """What the placements reach (:mod:`.coverage`): pieces that fit nowhere, cells no piece
        covers, parts cut off from each other."""
        if self._coverage is None:
            from .coverage import coverage
            self._coverage = coverage(self)
        return self._coverage

    # -- model -------------------------------------------------------------------------------
    def cover_board(self, problem: Problem) -> Any:
        """The board's cells as items of ``problem``, for the exact-cover engine's pocket cut."""
        from .cover import cover_board
        return cover_board(self, problem)

    def problem(self, **options: Any) -> Problem:
        """The exact-cover model: one primary variable per placement."""
        check_known(self.family, options, {"parity"})
        prob = Problem(self.name)
        by_cell: dict[Cell, list[int]] = {c: [] for c in sorted(self.region)}
        by_piece: dict[str, list[int]] = {p.name: [] for p in self.pieces}
        for pl in self.placements():
            v = prob.new_var(pl, primary=True)
            by_piece[pl.piece].append(v)
            for c in pl.cells:
                by_cell[c].append(v)
        for piece in self.pieces:
            lo = piece.count if self.pieces_rule == "exact" else 0
            prob.cardinality(by_piece[piece.name], lo, piece.count, name=f"piece {piece.name}")
        if self.placed:
            var_of = {prob.meanings[v]: v for v in prob.primary_vars()}
            for pl in self.placed:
                prob.fix(var_of[pl])
        for cell, lits in by_cell.items():
            lo = 1 if self.cells_rule == "exact" else 0
            prob.cardinality(lits, lo, 1, name=f"cell {','.join(map(str, cell))}")
        if options.get("parity"):
            from .parity import add_parity
            add_parity(prob, self)
        return prob

    def exact_cover(self, **options: Any) -> bool:
        return True

    def model_shape(self, **options: Any) -> ModelShape | None:
        """The sizes of :meth:`problem` without building it: the groups' lengths are counts over
        the placements (None with ``parity``, whose constraints need the model itself)."""
        check_known(self.family, options, {"parity"})
        if options.get("parity"):
            return None
        placements = self.placements()
        per_piece = Counter(pl.piece for pl in placements)
        per_cell = Counter(chain.from_iterable(pl.cells for pl in placements))
        piece_lo = 1 if self.pieces_rule == "exact" else 0
        cell_lo = 1 if self.cells_rule == "exact" else 0
        groups = [(per_piece[p.name], p.count if piece_lo else 0, p.count) for p in self.pieces]
        groups += [(per_cell[c], cell_lo, 1) for c in sorted(self.region)]
        return ModelShape(len(placements), len(placements), tuple(groups), units=len(self.placed))

    # -- verification ----------------------------------------------------------------------
    def verify(self, solution: list[Any]) -> None:
        """Check cells, shapes and counts from the geometry alone."""
        used: Counter[str] = Counter()
        covered: Counter[Cell] = Counter()
        for pl in solution:
            piece = self.by_name.get(pl.piece)
            if piece is None:
                raise VerificationError(f"unknown piece {pl.piece!r}")
            try:
                cells = tuple(tuple(c) for c in pl.cells)
            except TypeError:          # a placement built in code with something else for cells
                raise VerificationError(f"piece {pl.piece}: its cells are not a list of cells") from None
            outside = [c for c in cells if c not in self.region]
            if outside:
                raise VerificationError(f"piece {pl.piece} leaves the board at {outside[0]}")
            ok = self._shape_ok.get((pl.piece, cells))
            if ok is None:
                ok = self._shape_ok[pl.piece, cells] = self._has_shape(list(cells), piece)
            if not ok:
                raise VerificationError(f"cells given for piece {pl.piece} do not have its shape")
            used[pl.piece] += 1
            covered.update(cells)
        twice = [c for c, n in covered.items() if n > 1]
        if twice:
            raise VerificationError(f"cell {twice[0]} is covered {covered[twice[0]]} times")
        if self.cells_rule == "exact" and len(covered) != len(self.region):
            missing = sorted(self.region - set(covered))[0]
            raise VerificationError(f"cell {missing} is not covered")
        for piece in self.pieces:
            n = used[piece.name]
            if n > piece.count or (self.pieces_rule == "exact" and n != piece.count):
                raise VerificationError(f"piece {piece.name} used {n} times, allowed {piece.count}")
        if self.placed:
            there = {(pl.piece, frozenset(tuple(c) for c in pl.cells)) for pl in solution}
            missing = next((pl for pl in self.placed if (pl.piece, frozenset(pl.cells)) not in there), None)
            if missing is not None:
                raise VerificationError(f"pinned piece {missing.piece} is not on its cells "
                                        f"{[list(c) for c in missing.cells]}")

    def misplaced(self, placement: Any) -> str | None:
        cells = [tuple(c) for c in placement.cells]
        outside = [c for c in cells if c not in self.region]
        if outside:
            return f"piece {placement.piece} leaves the board at {outside[0]}"
        if not self.has_shape(placement):
            return f"cells given for piece {placement.piece} do not have its shape"
        return None

    def has_shape(self, placement: PolyformPlacement) -> bool:
        """Whether the placement's cells are its piece in an orientation it may take (on a wrapped
        board, across the seams too)."""
        return self._has_shape(list(placement.cells), self.by_name[placement.piece])

    def _has_shape(self, cells: list[Cell], piece: Piece) -> bool:
        if len(cells) != len(piece.shape):          # none at all among them: no shape to normalise
            return False
        if self.wrap:
            return self.wrap.is_placement(cells, self.orientations(piece))
        return self.lattice.normalize(cells) in self.orientations(piece)

    def pins(self) -> list[PolyformPlacement]:
        return list(self.placed)

    # -- symmetry ----------------------------------------------------------------------------
    def symmetries(self) -> list:
        """Motions of the board that map the set of legal placements onto itself, each with the
        renaming of pieces it implies (hands swapped by a reflection; see the module doc)."""
        return [move for move, _ in self._motions()]

    def rotations(self) -> list:
        """The proper motions among :meth:`symmetries` (determinant +1: turns, and shifts along a
        seam), no mirror images: the 24 rotations of a cube, not its 48 motions."""
        return [move for move, proper in self._motions() if proper]

    def _motions(self) -> list[tuple[Any, bool]]:
        """(symmetry, whether it is a proper motion), identity first: those of the board and its
        pieces that map the set of pins onto itself."""
        if self._symmetries is None:
            if self.wrap:
                motions = list(self.wrap.motions())
            else:
                lat = self.lattice
                motions = [(tr, lambda c, tr=tr, t=t: lat.shift(tr.apply(c), t))
                           for tr, t in lat.region_symmetries(self.region)]
            found = []
            legal = set(self.unpinned_placements()) if self.wrap else set()
            for tr, cell_map in motions:
                names = self._piece_map(tr)
                if names is not None and (not self.wrap or _keeps(legal, _motion(cell_map, names))):
                    found.append((cell_map, names, tr.proper))
            if self.wrap and self.wrap.degenerate():
                found = _closure([(cell_map.__self__, names, proper) for cell_map, names, proper in found])
                found = [(m.__getitem__, names, proper) for m, names, proper in found]
            motions = [(_motion(_Remembered(cell_map).__getitem__, names), proper)
                       for cell_map, names, proper in found]
            pins = set(self.placed)
            self._symmetries = [(move, proper) for move, proper in motions
                                if {move(pl) for pl in pins} == pins]
        return self._symmetries

    def _piece_map(self, tr) -> dict[str, str] | None:
        """Where ``tr`` sends each piece: the piece whose orientations (and count) are the images of
        its own; None if some piece has no such partner."""
        def key(piece: Piece, shapes) -> tuple:
            return (frozenset(shapes), piece.count)
        by_key: dict[tuple, list[str]] = {}
        for piece in self.pieces:
            by_key.setdefault(key(piece, self.orientations(piece)), []).append(piece.name)
        out: dict[str, str] = {}
        for k, names in by_key.items():
            piece = self.by_name[names[0]]
            image = key(piece, (self.lattice.normalize(tr.apply(c) for c in s) for s in k[0]))
            partners = by_key.get(image)
            if partners is None or len(partners) != len(names):
                return None
            out.update(zip(names, partners))
        return out

    # -- input / output ------------------------------------------------------------------------
    def placement_from_json(self, data: Any) -> PolyformPlacement:
        if isinstance(data, dict) and set(data) - {"piece", "cells"}:
            raise SatilingError(f"unknown key {sorted(set(data) - {'piece', 'cells'})[0]!r} in a placement "
                                "(its keys: cells, piece)")
        try:
            piece, cells = data["piece"], data["cells"]
            # exact types: a cell 10.5 or "10" is not silently read as 10
            if not isinstance(piece, str) or any(type(x) is not int for c in cells for x in c):
                raise TypeError
            return PolyformPlacement(piece, tuple(sorted(tuple(c) for c in cells)))
        except (KeyError, TypeError, ValueError):
            raise SatilingError("a placement must look like {\"piece\": NAME, \"cells\": [[..], ..]} "
                                "with whole-number coordinates") from None

    def obstruction(self) -> str | None:
        """A piece that fits nowhere, a cell no piece covers, a cut-off part no pieces fill
        (:mod:`.coverage`), or the parity argument, when it rules out every tiling (areas are
        checked on loading)."""
        from .coverage import coverage_obstruction
        from .parity import parity_obstruction
        return coverage_obstruction(self) or parity_obstruction(self)

    def info(self) -> dict[str, Any]:
        from .coverage import named
        from .parity import parity_argument
        unplaced = self.coverage().unplaced
        return {
            "lattice": self.lattice.name,
            # a solid has no topology in a plane's sense (plane, cylinder, torus): no row
            **({} if self.lattice.name == "cubic" else {"topology": _topology(self.wrap)}),
            "cells": len(self.region),
            "pieces": sum(p.count for p in self.pieces),
            **({"placed": len(self.placed)} if self.placed else {}),
            "piece cells": sum(p.count * len(p.shape) for p in self.pieces),
            "placements": len(self.placements()),
            **({"fits nowhere": named(unplaced)} if unplaced else {}),
            "symmetries": len(self.symmetries()),
            "parity": parity_argument(self),
        }


class _Remembered(dict):
    """A cell map that computes each cell's image once: a count moves every placement by every
    motion, and a lattice's transform is arithmetic on each cell every time."""

    def __init__(self, cell_map) -> None:
        super().__init__()
        self.cell_map = cell_map

    def __missing__(self, cell):
        image = self[cell] = self.cell_map(cell)
        return image


def _motion(cell_map, names: dict[str, str]):
    def move(pl: PolyformPlacement) -> PolyformPlacement:
        return PolyformPlacement(names[pl.piece], tuple(sorted(cell_map(c) for c in pl.cells)))
    return move


def _closure(motions: list[tuple[dict, dict, bool]]) -> list[tuple[dict, dict, bool]]:
    """The group that motions (cell map, piece renaming, proper) generate, identity first.

    On a degenerate wrapped board (a side so short that a cell meets one neighbour across two
    seams: a 2x2 hexagon cylinder is four cells all touching) the motions found from lattice
    transforms are symmetries but not closed under composition, and classes taken as images
    under them are not classes: a count up to symmetry would depend on which member a search met
    first.  Every composition of symmetries is one, so the closure is the board's group.  A
    composition is proper when both or neither part is; a map that some proper motion gives is
    proper (on such a board a turn and a reflection may move the cells alike), so the proper
    ones stay a subgroup."""
    def key(m: tuple[dict, dict, bool]) -> tuple:
        return tuple(sorted(m[0].items())), tuple(sorted(m[1].items()))
    seen: dict[tuple, tuple[dict, dict, bool]] = {}
    for m in motions:
        seen[key(m)] = (m[0], m[1], m[2] or seen.get(key(m), m)[2])
    frontier = list(seen.values())
    while frontier:
        new = []
        for a in frontier:
            for b in motions:
                c = ({x: a[0][y] for x, y in b[0].items()}, {n: a[1][m] for n, m in b[1].items()},
                     a[2] == b[2])
                old = seen.get(key(c))
                if old is None or (c[2] and not old[2]):
                    seen[key(c)] = c
                    new.append(c)
        frontier = new
    return list(seen.values())


def _keeps(placements: set, move) -> bool:
    """Whether a motion (of a wrapped board) maps every placement to a placement."""
    return all(move(pl) in placements for pl in placements)


def _topology(wrap: Wrap | None) -> str:
    if wrap is None:
        return "plane"
    if len(wrap.axes) == 2:
        return "torus (rows and columns wrap)"
    return f"cylinder ({wrap.axes[0]} wrap)"


# -- loading -----------------------------------------------------------------------------------
def load_instance(data: dict[str, Any], name: str, base: Any = None) -> PolyformPuzzle:
    """A puzzle from a parsed instance file (see ``instances/README.md``)."""
    check_polyform(data, name)
    lat = make_lattice(data.get("lattice", "square"))
    spec = data["region"]
    region = _cells(lat, spec, f"{name}: [region]")
    pieces = _pieces(lat, data, name)
    rules = data.get("rules", {})
    cells_rule, pieces_rule = rules.get("cells", "exact"), rules.get("pieces", "exact")
    check_area(sum(p.count * len(p.shape) for p in pieces), len(region), cells_rule, pieces_rule, name)
    glue = wrap_periods(lat, spec, f"{name}: [region]")
    wrap = None
    if glue:
        axes = ("rows", "cols") if len(glue) == 2 else (spec.get("wrap", "cols"),)
        wrap = Wrap(lat, frozenset(region), glue, axes, max(len(p.shape) for p in pieces))
    from .pins import read_placed
    placed = [PolyformPlacement(piece, cells) for piece, cells in read_placed(data.get("placed", ()), name)]
    puzzle = PolyformPuzzle(name, lat, region, pieces, cells_rule, pieces_rule,
                            data.get("title", ""), data.get("source", ""), wrap, placed)
    check_placements(len(region) * sum(len(puzzle.orientations(p)) for p in pieces), name)
    return puzzle


def _pieces(lat: Lattice, data: dict[str, Any], name: str) -> list[Piece]:
    """The set's pieces (expanded to one-sided or fixed sets if asked), then the file's own."""
    pieces: list[Piece] = []
    chosen = data.get("piece_set")
    if chosen is not None:
        from .sets import piece_set
        set_name = chosen if isinstance(chosen, str) else chosen["name"]
        freedom = None if isinstance(chosen, str) else chosen.get("freedom")
        where = f"{name}: piece set {set_name}"
        try:
            entries = piece_set(set_name, lat.name)
        except SatilingError as e:
            raise SatilingError(f"{name}: {e}") from None
        pieces = [_piece(lat, e, where, freedom) for e in entries]
        pieces = expand_set(lat, pieces, freedom)
    pieces += [_piece(lat, e, f"{name}: [[piece]] {i}") for i, e in enumerate(data.get("piece", []), 1)]
    check_piece_cells(sum(len(p.shape) for p in pieces), name)
    if not pieces:
        raise SatilingError(f"{name}: no pieces (give piece_set or [[piece]] tables)")
    seen: set[str] = set()
    for p in pieces:
        if p.name in seen:
            raise SatilingError(f"{name}: two pieces are named {p.name!r}")
        seen.add(p.name)
    return pieces


def expand_set(lat: Lattice, pieces: list[Piece], freedom: str | None) -> list[Piece]:
    """A set made one-sided (each chiral piece joined by its mirror partner, named in lower case
    or with a prime, unless the set holds it already) or fixed (one piece per orientation,
    numbered); unchanged otherwise."""
    taken = {p.name for p in pieces}
    shapes = {s for p in pieces for s in lat.orientations(p.shape, reflections=False)}
    out = []
    for p in pieces:
        out.append(p)
        if freedom == "one-sided" and lat.mirror(p.shape) not in shapes:     # chiral, partner missing
            partner = p.name.lower() if p.name.lower() not in taken else p.name + "'"
            taken.add(partner)
            out.append(Piece(partner, lat.mirror(p.shape), p.count, "one-sided"))
        elif freedom == "fixed":
            shapes = lat.orientations(p.shape)
            out.pop()
            for k, shape in enumerate(shapes, 1):
                out.append(Piece(p.name if len(shapes) == 1 else f"{p.name}{k}", shape, p.count, "fixed"))
    return out


def _piece(lat: Lattice, entry: dict[str, Any], where: str, freedom: str | None = None) -> Piece:
    pname = str(entry["name"])
    cells = _cells(lat, entry, f"{where}: piece {pname}")
    freedom = freedom or entry.get("freedom", lat.default_freedom)
    if not lat.connected(cells):
        raise SatilingError(f"{where}: piece {pname} is not connected")
    return Piece(pname, lat.normalize(cells), entry.get("count", 1), freedom)


def _cells(lat: Lattice, spec: dict[str, Any], where: str) -> list[Cell]:
    """Cells from ``ascii`` art, a ``cells`` list, ``rows``/``cols`` or the lattice's own keys."""
    check_size(_planned_size(lat.name, spec), where)
    for key, art in [("ascii", spec.get("ascii"))] + [("layers", a) for a in spec.get("layers", ())]:
        if art is not None:
            _check_art(str(art), f"{where} {key}")
    if "ascii" in spec:
        cells = lat.parse_ascii(str(spec["ascii"]))
    elif "cells" in spec:
        cells = [tuple(c) for c in spec["cells"]]
        if lat.name == "drafter" and not all(0 <= c[2] < 12 for c in cells):
            raise SatilingError(f"{where}: a drafter cell is (a, b, t) with t from 0 to 11")
    elif "rows" in spec:
        cells = [(r, c) for r in range(spec["rows"]) for c in range(spec["cols"])]
    elif hasattr(lat, "parse_spec"):
        cells = lat.parse_spec(spec, where)
    else:
        raise SatilingError(f"{where}: no cells given")
    if not cells:
        raise SatilingError(f"{where}: no cells")
    check_size(len(cells), where)
    if len(set(cells)) != len(cells):
        raise SatilingError(f"{where}: a cell is listed twice")
    return cells


def _check_art(text: str, where: str) -> None:
    """ASCII art marks a cell with a visible character and an empty place with a space or '.': a
    TAB (whose width depends on the editor) or any other blank would be read as a cell."""
    for n, line in enumerate(text.strip("\n").splitlines(), 1):
        odd = next((ch for ch in line if ch != " " and (ch.isspace() or not ch.isprintable())), None)
        if odd is not None:
            what = "a TAB" if odd == "\t" else f"the blank {odd!r}"
            raise SatilingError(f"{where}: line {n} holds {what}: draw empty places with spaces or "
                                "'.', cells with a visible character")


def _planned_size(lattice: str, spec: dict[str, Any]) -> int:
    """The cells a size key asks for, known before they are built (0 for drawn shapes)."""
    hexes = lattice == "hexagon"
    if "rows" in spec and "cols" in spec:
        return spec["rows"] * spec["cols"]
    if "parallelogram" in spec:
        return (1 if hexes else 2) * spec["parallelogram"][0] * spec["parallelogram"][1]
    if "triangle" in spec:
        side = spec["triangle"]
        return side * (side + 1) // 2 if hexes else side ** 2
    if "hexagon" in spec:
        side = spec["hexagon"]
        return 3 * side * (side - 1) + 1 if hexes else 6 * side ** 2
    if "box" in spec:
        return spec["box"][0] * spec["box"][1] * spec["box"][2]
    return 0
