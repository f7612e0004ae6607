"""DIMACS CNF out (with a map from variables to placements), solver output in.

The written file starts with ``c`` lines: ``c satiling encode PUZZLE --amo AMO [model options]``
(the command that rebuilds the same formula), then one ``c v VAR JSON`` line per primary variable
giving its placement, so any solver's model can be decoded later (``satiling decode``, which takes
the options from this line with ``--cnf FILE``).  Clauses stream to the file; the header's clause
count is computed first without producing the clauses, so memory stays bounded however large the
formula is.

Solver output is read in three forms: the SAT competition's (``s SATISFIABLE`` / ``v 1 -2 ... 0``),
a result file (``SAT`` / ``UNSAT`` / ``INDET`` on the first line, the model on the next:
:data:`satiling.engines.table.RESULT_FILE`), or a plain list of literals.  A complete model (every variable of the formula given a value) is then
checked against every clause of the formula (:func:`first_broken_clause`).
"""
from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, TextIO

from ..errors import Option, SatilingError
from ..problem import Problem
from .cnf import DEFAULT_AMO, CnfEncoder, write_text
from .rows import file_options

#: the variable map's lines are written this many at a time
_MAP_CHUNK = 20000


def write_dimacs(problem: Problem, out: TextIO, amo: str = DEFAULT_AMO,
                 describe: Callable[[object], object] | None = None,
                 options: dict[str, Any] | None = None) -> tuple[int, int]:
    """Write ``problem`` as DIMACS to ``out``; return (variables, clauses).

    ``describe`` turns a placement into JSON-able data (default: ``placement.to_json()``);
    ``options`` are the model options ``problem`` was built with, recorded in the header.
    """
    describe = describe or (lambda m: m.to_json() if hasattr(m, "to_json") else str(m))
    n_vars, n_clauses = CnfEncoder(problem, amo).size()
    out.write(f"c satiling encode {encode_command(problem.name, amo, options or {})}\n")
    out.write(f"c primary variables: {sum(problem.primary)} of {n_vars}; 'c v VAR PLACEMENT' maps them\n")
    if problem.lazy:
        out.write("c note: lazy constraints are not in this file; a model may need re-checking\n")
    compact = json.JSONEncoder(separators=(",", ":")).encode     # one encoder for every line
    primary = problem.primary_vars()
    for i in range(0, len(primary), _MAP_CHUNK):
        out.write("".join([f"c v {v} {compact(describe(problem.meanings[v]))}\n"
                           for v in primary[i:i + _MAP_CHUNK]]))
    out.write(f"p cnf {n_vars} {n_clauses}\n")
    write_text(out, CnfEncoder(problem, amo).dimacs_text())
    return n_vars, n_clauses


def encode_command(name: str, amo: str, options: dict[str, Any]) -> str:
    """The arguments of ``satiling encode`` that build this formula again."""
    args = [name, "--amo", amo]
    for key, value in sorted(options.items()):
        if value is True:
            args.append("--" + key.replace("_", "-"))
        elif value not in (None, False):
            args += ["--" + key.replace("_", "-"), str(value)]
    return shlex.join(args)


@dataclass
class EncodeHeader:
    """What a DIMACS file from ``satiling encode`` says about itself."""

    puzzle: str
    amo: str
    options: dict[str, Any]
    variables: int
    clauses: int


def read_encode_header(lines: Iterable[str], where: str) -> EncodeHeader:
    """The ``c satiling encode`` line and the ``p cnf`` line of a DIMACS file (SatilingError for a
    file without them)."""
    from ..registry import model_options
    commands: list[str] = []

    def keep(comment: str) -> None:
        if comment.startswith("c satiling encode "):
            commands.append(comment[len("c satiling encode "):].strip())

    _, variables, clauses = _p_line(enumerate(lines, 1), where, keep)
    if not commands:
        raise SatilingError("{where}: not written by 'satiling encode' (no 'c satiling encode' "
                            "line): decode without {cnf}, with the options it was encoded with",
                            where=where, cnf=Option("cnf"))
    try:
        words = shlex.split(commands[-1])
    except ValueError:
        words = []
    if len(words) < 3 or words[1] != "--amo":
        raise SatilingError(f"{where}: the 'c satiling encode' line is malformed")
    flags = {opt.flag: opt for _, opt in model_options()}
    options: dict[str, Any] = {}
    rest = iter(words[3:])
    for word in rest:
        opt = flags.get(word)
        if opt is None:
            raise SatilingError(f"{where}: unknown option {word[:30]!r} in the 'c satiling encode' line")
        if opt.kind == "flag":
            options[opt.key] = True
        else:
            value = next(rest, None)
            if value is None or (opt.kind == "int" and not value.isdigit()):
                raise SatilingError(f"{where}: option {word} has no value in the 'c satiling encode' line")
            options[opt.key] = int(value) if opt.kind == "int" else value
    return EncodeHeader(words[0], words[2], options, variables, clauses)


def read_cnf(lines: Iterable[str], where: str) -> tuple[int, Iterator[list[int]]]:
    """The variable count of a DIMACS file's ``p cnf`` line and its clauses (a clause may span
    lines), checked against that line as they are read: a literal beyond its variables, or a
    clause count other than its own, is a SatilingError naming ``where`` and the line.  Only
    comments may come before the line; a ``%`` line ends the formula (SATLIB's files)."""
    numbered = enumerate(lines, 1)
    line, variables, count = _p_line(numbered, where)
    return variables, _clauses(numbered, where, variables, (line, count))


def _p_line(numbered: Iterator[tuple[int, str]], where: str,
            comment: Callable[[str], None] = lambda line: None) -> tuple[int, int, int]:
    """(line number, variables, clauses) of the ``p cnf`` line, the comments before it handed to
    ``comment``."""
    for n, line in numbered:
        if line.startswith("p"):
            m = _P_LINE.fullmatch(line)
            if m is None:
                raise SatilingError(f"{where}: line {n}: the 'p cnf VARIABLES CLAUSES' line is malformed")
            return n, int(m.group(1)), int(m.group(2))
        if line.startswith("c"):
            comment(line)
        elif line.strip():
            raise SatilingError(f"{where}: line {n}: not DIMACS (a line before 'p cnf' is not a comment)")
    raise SatilingError(f"{where}: not DIMACS (no 'p cnf' line)")


def _clauses(numbered: Iterator[tuple[int, str]], where: str, variables: int,
             header: tuple[int, int]) -> Iterator[list[int]]:
    """The clauses after the ``p cnf`` line ``header`` = (its line number, its clause count)."""
    clause: list[int] = []
    found = 0
    for n, line in numbered:
        if line.startswith("%"):
            break               # SATLIB's end of the formula (a stray "0" follows it)
        if line.startswith("c"):
            continue
        for lit in _literals(line, variables, where, n):
            if lit:
                clause.append(lit)
                continue
            found += 1
            if found > header[1]:           # said at once: the line is where the file went wrong
                raise SatilingError(f"{where}: line {n}: clause {found}, beyond the {header[1]} the "
                                    f"'p cnf' line (line {header[0]}) says")
            yield clause
            clause = []
    if clause:      # a file cut short loses its end: the last clause's 0 first
        raise SatilingError(f"{where}: the last clause has no closing 0 (was the file cut short?)")
    if found < header[1]:
        raise SatilingError(f"{where}: line {header[0]}: the 'p cnf' line says {header[1]} clauses, "
                            f"the file holds {found}")


def _literals(line: str, variables: int, where: str, n: int) -> list[int]:
    """The DIMACS literals of line ``n`` (0 ends a clause), each at most ``variables``: the line
    is checked whole, a loop over its numbers only to name a bad one (a formula has millions).
    ``int`` reads every literal and refuses most else; what it would take that DIMACS does not
    (a sign ``+``, a ``_`` between digits, digits of other scripts) sends the line to
    :data:`_TOKEN`, word by word."""
    words = line.split()
    try:
        if "+" in line or "_" in line or not line.isascii():
            raise ValueError
        lits = list(map(int, words))
    except ValueError:
        bad = next((w for w in words if not _TOKEN.fullmatch(w)), None)
        if bad is not None:
            raise SatilingError(f"{where}: line {n}: {bad[:20]!r} is not a literal") from None
        lits = list(map(int, words))         # DIMACS words between spaces of another script
    if lits and max(max(lits), -min(lits)) > variables:     # a checker sizes its tables by the header
        bad = next(lit for lit in lits if abs(lit) > variables)
        raise SatilingError(f"{where}: line {n}: literal {bad} is beyond the {variables} variables "
                            "of the 'p cnf' line")
    return lits


@dataclass
class SolverOutput:
    """What a SAT solver said: ``status`` is SATISFIABLE, UNSATISFIABLE, UNKNOWN or None (plain
    literal list), ``true_vars`` the positive literals of the model; ``value[v]`` is 1 (true),
    2 (false) or 0 (not given) for every variable up to the formula's, when that is known."""

    status: str | None
    true_vars: frozenset[int]
    literals: int
    value: bytearray = field(default_factory=bytearray, repr=False)

    @property
    def complete(self) -> bool:
        """Every variable of the formula has a value (only then can every clause be checked)."""
        # value[0] is unused; a formula without variables: the empty model is complete
        return len(self.value) > 0 and self.value.count(0) == 1


#: a literal: at most 18 digits, so that a corrupt file never reaches int() with thousands
#: (ASCII digits: ``\d`` would let int() read other scripts' digits)
_TOKEN = re.compile(r"-?[0-9]{1,18}")
#: the ``p cnf VARIABLES CLAUSES`` line, its numbers as short as a literal's
_P_LINE = re.compile(r"p cnf ([0-9]{1,18}) ([0-9]{1,18})\s*")
_STATUS = {"SATISFIABLE": "SATISFIABLE", "UNSATISFIABLE": "UNSATISFIABLE", "UNKNOWN": "UNKNOWN",
           "SAT": "SATISFIABLE", "UNSAT": "UNSATISFIABLE", "INDET": "UNKNOWN"}


def read_solver_output(text: str, num_vars: int | None = None) -> SolverOutput:
    """Parse SAT-competition output (``s``/``v``/``c`` lines), a result file (``SAT`` then the
    model) or a plain whitespace-separated literal list.

    Raises SatilingError on anything that is none of these: a stray word, a variable beyond the
    formula's ``num_vars``, a variable that is both true and false, a model after "unsatisfiable",
    two verdicts, a model of either solver format without its closing 0.
    """
    status, lits = None, []
    lines = text.splitlines()
    first = next((ln.strip() for ln in lines if ln.strip() and not ln.startswith("c")), "")
    result_file = first in ("SAT", "UNSAT", "INDET")
    competition = not result_file and any(line.startswith(("s ", "v ")) for line in lines)
    for n, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("c"):
            continue
        said = line[2:].strip().upper() if competition and line.startswith("s ") else \
            line if result_file and line in ("SAT", "UNSAT", "INDET") else None
        if said is not None:
            if said not in _STATUS:
                raise SatilingError(f"solver output line {n}: unknown status {said[:30]!r}")
            if status is not None:
                raise SatilingError(f"solver output line {n}: a second verdict ({said})")
            status = _STATUS[said]
            continue
        if competition:
            if not line.startswith("v "):
                raise SatilingError(f"solver output line {n}: expected 's', 'v' or 'c', got {line[:30]!r}")
            line = line[2:]
        lits.extend(_ints(line, n))
    if (competition or result_file) and lits and lits[-1] != 0:
        # both formats close the model with 0: without it the output was cut short
        raise SatilingError("the solver output's model does not end with 0: the output was cut "
                            "short (a full disk, a killed solver?)")
    lits = [lit for lit in lits if lit != 0]
    if status is None and all(not line.strip() or line.startswith("c") for line in lines):
        status = "UNKNOWN"          # only comments (a solver stopped by its own time limit)
                                    # or nothing at all (killed before it said anything)
    if lits and status == "UNSATISFIABLE":
        raise SatilingError("the solver output says UNSATISFIABLE and also gives a model: which is it?")
    if not lits and status not in ("UNSATISFIABLE", "UNKNOWN") and \
            not (num_vars == 0 and status == "SATISFIABLE"):      # a formula without variables
        raise SatilingError("solver output has no model (no literals found)")
    top = max((abs(lit) for lit in lits), default=0)
    if num_vars is not None and top > num_vars:
        raise ModelMismatch(f"solver output names variable {top}, but the formula has {num_vars}", top)
    value = bytearray(num_vars + 1) if num_vars is not None else None
    seen: dict[int, int] = {}
    for lit in lits:
        v, val = abs(lit), 1 if lit > 0 else 2
        old = value[v] if value is not None else seen.get(v, 0)
        if old not in (0, val):
            raise SatilingError(f"solver output sets variable {v} both true and false")
        if value is not None:
            value[v] = val
        else:
            seen[v] = val
    true = frozenset(lit for lit in lits if lit > 0)
    return SolverOutput(status, true, len(lits), value if value is not None else bytearray())


def first_broken_clause(value: bytearray, clauses: Iterable[list[int]]) -> tuple[int, list[int]] | None:
    """(number from 1, literals) of the first clause no literal of which the complete assignment
    ``value`` makes true, or None when every clause holds."""
    for k, clause in enumerate(clauses, 1):
        if not any(value[lit] == 1 if lit > 0 else value[-lit] == 2 for lit in clause):
            return k, clause
    return None


def _ints(line: str, n: int) -> Iterator[int]:
    for tok in line.split():
        if not _TOKEN.fullmatch(tok):
            raise SatilingError(f"solver output line {n}: {tok[:20]!r} is not a literal")
        yield int(tok)


# -- decoding: the formula a model must satisfy ---------------------------------------------------
class ModelMismatch(SatilingError):
    """A model that does not belong to the formula (too many variables, a broken clause);
    ``top`` is the highest variable it names."""

    def __init__(self, message: str, top: int = 0, **parts: Any) -> None:
        super().__init__(message, **parts)
        self.top = top


def _encoded_otherwise(cnf: str, header: Any, option: Option) -> SatilingError:
    """An option given to ``decode`` that the DIMACS file's header contradicts."""
    return SatilingError("{cnf} was encoded as 'satiling encode {command}': drop {option} or "
                         "encode again", cnf=cnf, option=option,
                         command=encode_command(header.puzzle, header.amo, header.options))


@dataclass
class Formula:
    """The formula a solver's model is checked against: rebuilt from the puzzle with the options
    given (``cnf`` None), or read from the DIMACS file ``cnf`` whose header names the options."""

    puzzle: Any
    problem: Problem
    options: dict[str, Any]
    amo: str
    variables: int
    cnf: str | None = None

    @classmethod
    def from_args(cls, puzzle: Any, options: dict[str, Any], amo: str | None, cnf: str | None) -> "Formula":
        """From ``decode``'s arguments (``amo`` None: not given); with a DIMACS file, its header
        decides the options and the at-most-one encoding, and those also given must agree.  The
        options are those ``encode`` writes the file with (:func:`~.rows.file_options`)."""
        given = file_options(puzzle, options)
        if cnf is None:
            amo = amo or DEFAULT_AMO
            problem = puzzle.problem(**given)
            return cls(puzzle, problem, given, amo, CnfEncoder(problem, amo).size()[0])
        from ..fileio import iter_lines
        header = read_encode_header((ln for _, ln in iter_lines(cnf, 1 << 20, "DIMACS file")), cnf)
        if header.puzzle != puzzle.name:
            raise SatilingError(f"{cnf} encodes {header.puzzle}, not {puzzle.name}")
        if amo is not None and amo != header.amo:
            raise _encoded_otherwise(cnf, header, Option("amo"))
        written = file_options(puzzle, header.options)
        for key in options:
            if written.get(key) != given[key]:
                raise _encoded_otherwise(cnf, header, Option(key))
        problem = puzzle.problem(**written)      # a file written without a rule: not this size
        size = CnfEncoder(problem, header.amo).size()
        if size != (header.variables, header.clauses):
            raise SatilingError(f"{cnf} has {header.variables} variables and {header.clauses} "
                                f"clauses, this version builds {size[0]} and {size[1]}: encode it again")
        return cls(puzzle, problem, written, header.amo, header.variables, cnf)

    def clauses(self) -> Iterator[list[int]]:
        if self.cnf is None:
            return CnfEncoder(self.problem, self.amo).clauses()
        from ..fileio import iter_lines
        return read_cnf((ln for _, ln in iter_lines(self.cnf, 1 << 20, "DIMACS file")), self.cnf)[1]

    def read_model(self, text: str) -> SolverOutput:
        """The solver's output, a complete model checked against every clause (ModelMismatch,
        with a hint at the options that would fit, when it does not belong to this formula)."""
        try:
            out = read_solver_output(text, self.variables)
        except ModelMismatch as e:
            raise ModelMismatch("{error}{hint}", e.top, error=e, hint=self._hint(e.top)) from None
        given = len(out.value) - out.value.count(0)          # variables with a value
        top = max((v for v in range(len(out.value) - 1, 0, -1) if out.value[v]), default=0) \
            if not out.complete else self.variables
        if not out.complete and 0 < given == top and self.cnf is None:
            hint = self._hint(top, exact=True)        # a whole model of a smaller formula?
            if hint:
                raise ModelMismatch(f"the model gives values to variables 1-{top} only, the formula "
                                    f"has {self.variables}{{hint}}", top, hint=hint)
        if out.complete and out.status != "UNSATISFIABLE":    # (a formula of no variables: no model)
            broken = first_broken_clause(out.value, self.clauses())
            if broken is not None:
                k, clause = broken
                shown = " ".join(map(str, clause[:8])) + (" ..." if len(clause) > 8 else "")
                raise ModelMismatch(f"the model breaks clause {k} of the formula ({shown} 0)"
                                    "{hint}", self.variables, hint=self._hint(self.variables))
        return out

    def _hint(self, top: int, exact: bool = False) -> SatilingError | str:
        """Which encode options would give a formula of ``top`` variables, said as a question
        (with ``exact``: only such a question, else ""); an error's words, to end a message."""
        if self.cnf is not None:
            return "" if exact else f": it is not a model of {self.cnf}"
        for options, amo in self._alternatives():
            try:
                size = CnfEncoder(self.puzzle.problem(**options), amo).size()[0]
            except SatilingError:
                continue
            if size == top:
                changed = {k: v for k, v in options.items() if self.options.get(k) != v}
                flags = encode_command("", amo, changed).split(" ", 1)[1]
                if amo == self.amo:
                    flags = flags.split(" ", 2)[2] if flags.count(" ") >= 2 else ""
                return f": the model does not fit this encoding: was it encoded with {flags}?"
        if exact:
            return ""
        return SatilingError(": the model does not fit this encoding: was it encoded with other "
                             "options? Give the DIMACS file with {cnf} to take them from its "
                             "header", cnf=Option("cnf"))

    def _alternatives(self) -> Iterator[tuple[dict[str, Any], str]]:
        """The same options with one choice changed (--encoding ...), then another --amo."""
        from ..registry import model_options
        from .cnf import AMO_ENCODINGS
        for _, opt in model_options():
            for choice in opt.choices:
                if self.options.get(opt.key, opt.choices[0]) != choice:
                    other = file_options(self.puzzle, {**self.options, opt.key: choice})
                    if other != self.options:       # a choice encode overrides is no hint
                        yield other, self.amo
        for amo in AMO_ENCODINGS:
            if amo != self.amo:
                yield self.options, amo
