"""A MiniZinc model and its data, as the MiniZinc Challenge ships problems: ``NAME.mzn`` says the
model once for every puzzle, ``NAME.dzn`` holds one puzzle's numbers.  ``minizinc --solver gecode
NAME.mzn NAME.dzn`` solves it; written to one stream, the data follows the model in the same file
(MiniZinc takes assignments in a model too).

The problem's Boolean variables are ``x[1..n]``; ``% v VAR PLACEMENT`` comments in the data map the
placements.  The writer finds the problem's finite-domain structure, whatever the family, and says
it with global constraints instead of clauses:

* **choices**: exactly-one groups of positive literals, disjoint (taken in the problem's order),
  each become an int variable ``y[g]`` whose value ``k`` says that its ``k``-th member is true
  (``x[v] <-> y[g] = k``); the group's constraint is then the variable's domain.  An edge-matching
  square is one (its value: the piece and rotation placed), a join's colour another, a polyform
  piece a third (its value: the placement).
* **owners**: a second partition of the members of some choices into exactly-one groups, as many
  as those choices (the pieces of an edge-matching board), is an ``all_different`` over one more
  int variable per choice: the owner of its value.
* **tables**: a choice whose members are each defined by one other choice (the clauses
  ``v -> h`` for every ``v`` in ``D`` and ``h -> OR(D)``, ``D`` inside that other choice: a
  side's colour is the colour the square's placement shows there) is a column of that choice's
  ``table``, beside the owner: the piece, rotation and colours relation, one row per placement.
  The defining clauses are left out.
* everything else (units, clauses, the other groups, linear rows): ``bool_clause`` and linear
  constraints over ``x``, read from the data.

With an objective the model maximises the number of true soft variables, and searches them true
first: clue1's score problem (every join a soft variable) is then a search for a perfect board,
which Gecode proves optimal at once, where its default search on the former flat Boolean
model found no board at all (docs/decisions/2026-11-29-figures-from-the-code.md).  The output item prints the whole assignment as ``x =
[...]``, which ``satiling decode --format mzn`` reads (so does ``--output-mode json``'s ``{"x":
[...]}``).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterable, Sequence, TextIO

from ..problem import Problem
from .rows import Export, Row, literal_row

MODEL = """\
include "all_different.mzn";
include "table.mzn";

% the problem's Boolean variables; choices and owners are int variables y, choices first
int: n;
int: nc;                                    % choices: exactly-one groups
array[1..nc] of int: size;                  % the members of each
int: no;                                    % owners: one per choice of the all_different
array[1..n] of 0..nc: choice;               % the choice a variable is a member of (0: none)
array[1..n] of int: value;                  % the value of that choice that makes it true
array[1..nc + no] of var 1..max([1, no] ++ size): y;
constraint forall(g in 1..nc)(y[g] <= size[g]);
constraint forall(o in 1..no)(y[nc + o] <= no);
constraint all_different([y[nc + o] | o in 1..no]);
array[1..n] of var bool: x;
constraint forall(v in 1..n where choice[v] > 0)(x[v] <-> y[choice[v]] = value[v]);

% tables: column[t, j] is the y of column j of table t (0: a constant 0), rows first[t]..last[t]
int: nt;
int: w;
array[1..nt, 1..w] of 0..nc + no: column;
array[1..nt] of int: first;
array[1..nt] of int: last;
array[int, 1..w] of int: row;
constraint forall(t in 1..nt)(
  table([if column[t, j] > 0 then y[column[t, j]] else 0 endif | j in 1..w],
        array2d(first[t]..last[t], 1..w, [row[r, j] | r in first[t]..last[t], j in 1..w])));

% clauses: one of x[pos[k]] true or one of x[neg[k]] false
int: ncl;
array[1..ncl] of set of int: pos;
array[1..ncl] of set of int: neg;
constraint forall(k in 1..ncl)(bool_clause([x[v] | v in pos[k]], [x[v] | v in neg[k]]));

% linear rows: lo[r] <= sum of coef[i] * x[term[i]] over i in start[r]..start[r + 1] - 1 <= hi[r]
int: nr;
array[1..nr] of int: lo;
array[1..nr] of int: hi;
array[1..nr + 1] of int: start;
array[int] of int: coef;
array[int] of int: term;
constraint forall(r in 1..nr)(
  let { var int: s = sum(i in start[r]..start[r + 1] - 1)(coef[i] * bool2int(x[term[i]])) }
  in lo[r] <= s /\\ s <= hi[r]);

set of int: soft;                           % the variables whose true ones are counted
"""

#: choices by domain over weighted degree: of first fail (polyforms' pieces), input order (edge
#: matching's row-major squares) and this, the one that solved each of pentomino-6x10, -3x20,
#: clue1, clue2 and clue1's compact encoding in seconds
_SEARCH = ("int_search(y, dom_w_deg, indomain_min),\n"
           "  bool_search(x, input_order, indomain_max)")
OUTPUT = 'output ["x = \\(x);\\n"];\n'


@dataclass
class Structure:
    """The finite-domain view of a problem (see the module doc)."""

    choices: list[tuple[int, ...]] = field(default_factory=list)
    #: the groups' names, for the data's comments: each choice's, each owner value's
    names: list[str] = field(default_factory=list)
    owner_names: list[str] = field(default_factory=list)
    #: the choices of the all_different, and the owner group of each member of theirs
    owned: list[int] = field(default_factory=list)
    owner: dict[int, int] = field(default_factory=dict)
    #: key choice -> the choices it defines, and per choice the member index each variable gives
    defines: dict[int, list[int]] = field(default_factory=dict)
    gives: dict[tuple[int, int], int] = field(default_factory=dict)     # (column, variable) -> value
    groups_left: list[int] = field(default_factory=list)
    clauses_left: list[int] = field(default_factory=list)


def write_mzn(export: Export, out: TextIO, data: TextIO | None = None) -> tuple[int, int]:
    """Write the model to ``out`` and its data to ``data`` (after the model in ``out`` when None);
    return (variables, constraints) of the data: choices, tables, clauses and linear rows."""
    p = export.problem
    if data is None:
        export.header(out, "%")
    else:
        out.write(f"% satiling encode {export.command}\n")
    out.write(MODEL)
    out.write(_solve(export))
    out.write(OUTPUT)
    if data is None:
        out.write("\n% the data\n")
        data = out
    else:
        export.header(data, "%")
    return p.num_vars, write_data(p, export.soft, structure(p), data)


def _solve(export: Export) -> str:
    if not export.soft:
        return f"solve :: seq_search([\n  {_SEARCH}])\n  satisfy;\n"
    # the soft variables true first: a board that keeps them all is found (and proved best) by
    # the search for one, instead of by raising the bound one match at a time
    return ("solve :: seq_search([\n  bool_search([x[v] | v in soft], input_order, indomain_max),\n"
            f"  {_SEARCH}])\n  maximize sum(v in soft)(bool2int(x[v]));\n")


# -- the structure ------------------------------------------------------------------------------
def structure(p: Problem) -> Structure:
    s = Structure()
    member: dict[int, tuple[int, int]] = {}           # variable -> (choice, value)
    unused = []
    for gi, g in enumerate(p.groups):
        if _positive_exactly_one(g.lits, g.lo, g.hi) and not any(v in member for v in g.lits):
            for k, v in enumerate(g.lits, 1):
                member[v] = (len(s.choices), k)
            s.choices.append(g.lits)
            s.names.append(g.name)
        else:
            unused.append(gi)
    s.groups_left = _owners(p, s, member, unused)
    s.clauses_left = _definitions(p, s, member)
    return s


def _positive_exactly_one(lits: Sequence[int], lo: int, hi: int) -> bool:
    return lo == hi == 1 and bool(lits) and all(v > 0 for v in lits) and len(set(lits)) == len(lits)


def _owners(p: Problem, s: Structure, member: dict[int, tuple[int, int]], unused: list[int]) -> list[int]:
    """Find the owner groups; return the groups left as constraints."""
    owner: dict[int, int] = {}
    picked = []
    for gi in unused:
        g = p.groups[gi]
        if (_positive_exactly_one(g.lits, g.lo, g.hi) and all(v in member for v in g.lits)
                and not any(v in owner for v in g.lits)):
            for v in g.lits:
                owner[v] = len(picked)
            picked.append(gi)
    owned = sorted({member[v][0] for v in owner})
    # the all_different says the owner groups only when their members fill the choices they
    # touch, and there are as many of those choices as groups (each owner then taken once)
    if not picked or len(owned) != len(picked) or any(v not in owner for c in owned for v in s.choices[c]):
        return unused
    s.owned, s.owner = owned, owner
    s.owner_names = [p.groups[gi].name for gi in picked]
    taken = set(picked)
    return [gi for gi in unused if gi not in taken]


def _definitions(p: Problem, s: Structure, member: dict[int, tuple[int, int]]) -> list[int]:
    """Find the choices defined by another; return the clauses left as constraints."""
    implies: dict[tuple[int, int], int] = {}              # (v, h): the clause 'v -> h'
    covers: dict[int, list[tuple[int, tuple[int, ...]]]] = defaultdict(list)   # h -> (clause, D)
    for ci, c in enumerate(p.clauses):
        neg = [lit for lit in c if lit < 0]
        if len(neg) != 1:
            continue
        body = tuple(lit for lit in c if lit > 0)
        if len(body) == 1:
            implies[-neg[0], body[0]] = ci
        if body:
            covers[-neg[0]].append((ci, body))
    used: set[int] = set()
    for col, members in enumerate(s.choices):
        for key in _keys(members, covers, member):
            if key == col:
                continue
            got = _defined_by(key, members, covers, implies, member)
            if got is not None:
                s.defines.setdefault(key, []).append(col)
                for v, h_value in got[0].items():
                    s.gives[col, v] = h_value
                used |= got[1]
    return [ci for ci in range(len(p.clauses)) if ci not in used]


def _keys(members: tuple[int, ...], covers, member) -> list[int]:
    """The choices that might define ``members``: those of the first member's covering clauses."""
    keys = []
    for _, body in covers.get(members[0], ()):
        key = member.get(body[0], (None,))[0]
        if key is not None and key not in keys:
            keys.append(key)
    return keys


def _defined_by(key: int, members: tuple[int, ...], covers, implies, member):
    """``({variable of key: the value it gives}, clauses used)`` when every member ``h`` is
    ``OR(D)`` for some ``D`` inside choice ``key``, else None.  A variable of ``key`` in no ``D``
    or in two gives no value: its row is left out of the table, as the clauses forbid it."""
    gives: dict[int, int] = {}
    twice: set[int] = set()
    used: set[int] = set()
    for k, h in enumerate(members, 1):
        found = next(((ci, body) for ci, body in covers.get(h, ())
                      if all(member.get(v, (None,))[0] == key for v in body)
                      and all((v, h) in implies for v in body)), None)
        if found is None:
            return None
        ci, body = found
        used.add(ci)
        for v in body:
            used.add(implies[v, h])
            if v in gives:
                twice.add(v)
            gives[v] = k
    return {v: k for v, k in gives.items() if v not in twice}, used


# -- the data -------------------------------------------------------------------------------------
def write_data(p: Problem, soft: Iterable[int], s: Structure, out: TextIO) -> int:
    """Write the assignments of the model's parameters; return the number of constraints."""
    n = p.num_vars
    choice, value = [0] * (n + 1), [0] * (n + 1)
    for g, members in enumerate(s.choices, 1):
        for k, v in enumerate(members, 1):
            choice[v], value[v] = g, k
    out.write(f"n = {n};\nnc = {len(s.choices)};\nno = {len(s.owned)};\n")
    out.write(f"size = {_ints(len(m) for m in s.choices)};\n")
    _write_names(s, out)
    out.write(f"choice = {_ints(choice[1:])};\nvalue = {_ints(value[1:])};\n")
    tables = _write_tables(s, out)
    clauses = [list(p.clauses[ci]) for ci in s.clauses_left] + [[u] for u in p.units]
    out.write(f"ncl = {len(clauses)};\n")
    out.write(f"pos = [{', '.join(_set(lit for lit in c if lit > 0) for c in clauses)}];\n")
    out.write(f"neg = [{', '.join(_set(-lit for lit in c if lit < 0) for c in clauses)}];\n")
    rows = _linear_rows(p, s)
    _write_rows(rows, out)
    out.write(f"soft = {_set(soft)};\n")
    return len(s.choices) + bool(s.owned) + tables + len(clauses) + len(rows)


def _write_names(s: Structure, out: TextIO) -> None:
    """What each int variable stands for, as comments (the groups' names in the problem)."""
    nc = len(s.choices)
    for g, name in enumerate(s.names, 1):
        out.write(f"% y[{g}]: {name or 'group'}\n")
    for o, g in enumerate(s.owned, 1):
        out.write(f"% y[{nc + o}]: the owner of y[{g + 1}]'s value\n")
    for o, name in enumerate(s.owner_names, 1):
        out.write(f"% owner {o}: {name or 'group'}\n")


def _write_tables(s: Structure, out: TextIO) -> int:
    tables = []
    owner_of = {g: len(s.choices) + 1 + o for o, g in enumerate(s.owned)}     # its y
    for key, members in enumerate(s.choices):
        cols = [owner_of[key]] if key in owner_of else []
        defined = s.defines.get(key, [])
        cols += [c + 1 for c in defined]
        if not cols:
            continue
        rows = []
        for k, v in enumerate(members, 1):
            vals = ([s.owner[v] + 1] if key in owner_of else []) + [s.gives.get((c, v), 0) for c in defined]
            if all(vals):
                rows.append([k] + vals)
        tables.append(([key + 1] + cols, rows))
    w = max((len(cols) for cols, _ in tables), default=1)
    columns, flat, first, last = [], [], [], []
    for cols, rows in tables:
        columns.append(cols + [0] * (w - len(cols)))
        first.append(len(flat) + 1)
        flat.extend(r + [0] * (w - len(r)) for r in rows)
        last.append(len(flat))
    out.write(f"nt = {len(tables)};\nw = {w};\n")
    out.write(f"column = {_matrix(columns, w)};\n")
    out.write(f"first = {_ints(first)};\nlast = {_ints(last)};\n")
    out.write(f"row = {_matrix(flat, w)};\n")
    return len(tables)


def _linear_rows(p: Problem, s: Structure) -> list[Row]:
    rows = []
    for gi in s.groups_left:
        g = p.groups[gi]
        lo = g.lo if g.lo > 0 else None
        hi = g.hi if g.hi < len(g.lits) else None
        if lo is not None or hi is not None:
            rows.append(literal_row("g", gi + 1, g.lits, lo, hi))
    rows += [Row("l", k, tuple(lin.terms), lin.lo, lin.hi) for k, lin in enumerate(p.linears, 1)]
    return rows


def _write_rows(rows: list[Row], out: TextIO) -> None:
    lo, hi, start, coef, term = [], [], [1], [], []
    for r in rows:
        low = sum(a for a, _ in r.terms if a < 0)              # the sum's own bounds stand for
        high = sum(a for a, _ in r.terms if a > 0)             # a missing bound
        lo.append(low if r.lo is None else r.lo)
        hi.append(high if r.hi is None else r.hi)
        coef.extend(a for a, _ in r.terms)
        term.extend(v for _, v in r.terms)
        start.append(len(coef) + 1)
    out.write(f"nr = {len(rows)};\nlo = {_ints(lo)};\nhi = {_ints(hi)};\nstart = {_ints(start)};\n")
    out.write(f"coef = {_ints(coef)};\nterm = {_ints(term)};\n")


def _ints(xs: Iterable[int]) -> str:
    return "[" + ", ".join(map(str, xs)) + "]"


def _set(xs: Iterable[int]) -> str:
    return "{" + ", ".join(map(str, sorted(set(xs)))) + "}"


def _matrix(rows: list[list[int]], w: int) -> str:
    if not rows:
        return f"array2d(1..0, 1..{w}, [])"
    return "[|" + " |".join(" " + ", ".join(map(str, r)) for r in rows) + " |]"
