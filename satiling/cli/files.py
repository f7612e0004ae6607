"""The commands around files: ``list``, ``info``, ``encode`` (the model for another solver),
``decode`` (its answer read back and verified), ``verify`` and ``render`` (solution files).
"""
from __future__ import annotations

import argparse
import os
import sys
from contextlib import nullcontext
from typing import Any

from .. import catalog
from ..errors import SatilingError, VerificationError
from ..fileio import check_not_input, check_writable, output_file, read_text
from ..commands.common import (EXIT_FOUND, EXIT_NONE, EXIT_TIMEOUT, read_solutions, show,
                               write_pictures)
from .args import model_options
from .progress import progress_lines, stages


def cmd_list(args: argparse.Namespace) -> int:
    for name, title in catalog.available():
        print(f"{name:28} {title}")
    return EXIT_FOUND


def cmd_info(args: argparse.Namespace) -> int:
    from ..backends.cnf import CnfEncoder
    from ..backends.rows import file_options
    with stages(("placements", "model", "clause count")) as step:
        puzzle = catalog.load(args.name)
        facts = puzzle.info()
        step()
        # the sizes alone where the family can count them (half the time and memory of building
        # Eternity's model only to measure it; docs/decisions/2026-11-27-models-and-encodings.md)
        options = model_options(args)
        shape = puzzle.model_shape(**options)
        problem = puzzle.problem(**options) if shape is None else shape
        step()
        written = file_options(puzzle, options)     # the CNF line: the file 'encode' writes
        if written != options:
            n_vars, n_clauses = CnfEncoder(puzzle.problem(**written), args.amo).size()
        elif shape is None:
            n_vars, n_clauses = CnfEncoder(problem, args.amo).size()
        else:
            n_vars, n_clauses = CnfEncoder.shape_size(shape, args.amo)
    print(f"name          {puzzle.name}")
    if puzzle.title:
        print(f"title         {puzzle.title}")
    print(f"family        {puzzle.family}")
    for key, value in facts.items():
        print(f"{key:13} {value}")
    for key, value in problem.stats().items():
        print(f"{key:13} {value}")
    print(f"cnf ({args.amo})".ljust(13), f"{n_vars} variables, {n_clauses} clauses")
    return EXIT_FOUND


def cmd_encode(args: argparse.Namespace) -> int:
    from ..backends.formats import file_names
    check_amo(args)
    args.amo = args.amo or "pairwise"
    data_path, note = file_names(args.format, args.output)
    if data_path:                          # -o NAME.mzn: the data beside it, checked as -o is
        check_writable(data_path)
        check_not_input(data_path, "-o", [args.name])
    with stages(("model",)):
        puzzle = catalog.load(args.name)
        export = model_export(args, puzzle)
    problem = export.problem
    if note:
        print(f"satiling: note: {note}", file=sys.stderr)
    with output_file(args.output) as out:
        if args.format == "dimacs":
            from ..backends.cnf import CnfEncoder
            from ..backends.dimacs import write_dimacs
            lines = 3 + len(problem.primary_vars()) + CnfEncoder(problem, args.amo).size()[1]
            with progress_lines(out, lines, "clauses") as counted:
                n_vars, n_clauses = write_dimacs(problem, counted, args.amo, options=export.options)
            print(f"satiling: {puzzle.name}: {n_vars} variables, {n_clauses} clauses", file=sys.stderr)
        else:
            from ..backends.formats import write_model
            with output_file(data_path) if data_path else nullcontext() as data:
                sizes = write_model(args.format, export, out, args.amo or "pairwise", data)
            also = f" (data in {data_path})" if data_path else ""
            print(f"satiling: {puzzle.name}: {args.format}: {sizes}{also}", file=sys.stderr)
    return EXIT_FOUND


def model_export(args: argparse.Namespace, puzzle):
    """The model ``encode --format`` writes (and ``decode --format`` reads answers to), with its
    objective: the matching joins for ``--maximize-matches``, the placed pieces of a polyform
    board whose rules are ``at-most`` (dropped, as before, for formats without objectives).
    The model holds every rule, whatever the options ask for solving here (IQ-Link: the eager
    link rule), since the solver reading the file runs no lazy check of satiling's."""
    from ..backends.dimacs import encode_command
    from ..backends.formats import NO_OBJECTIVE
    from ..backends.rows import Export, file_options
    options = file_options(puzzle, model_options(args))
    if args.maximize_matches:
        if not hasattr(puzzle, "match_problem"):
            raise SatilingError("--maximize-matches applies to edge-matching puzzles only")
        other = sorted(set(options) - {"hints"})
        if other:
            raise SatilingError(f"--maximize-matches does not take --{other[0].replace('_', '-')}")
        if args.format in NO_OBJECTIVE:
            raise SatilingError(f"--format {args.format} has no objective: --maximize-matches needs "
                                "wcnf, opb, cpsat, lp, lpsolve, mps, mzn or xcsp3")
        problem, soft = puzzle.match_problem(hints=bool(options.get("hints")))
        meaning, options = "joins that match", {**options, "maximize_matches": True}
    else:
        problem = puzzle.problem(**options)
        at_most = getattr(puzzle, "pieces_rule", "exact") == "at-most"
        soft = problem.primary_vars() if at_most and args.format not in NO_OBJECTIVE else []
        meaning = "pieces placed"
    if problem.lazy:
        raise SatilingError(f"{puzzle.name}: the model leaves rules to lazy checks, which a file "
                            "for another solver cannot hold")
    command = f"{encode_command(puzzle.name, args.amo or 'pairwise', options)} --format {args.format}"
    return Export(problem, soft, command, meaning, options=options)


def cmd_decode(args: argparse.Namespace) -> int:
    """A solver's model: 0 and a picture for a solution; 1 for the solver's "unsatisfiable" (its
    word: :func:`solver_says_none`) or a consistent partial model of a solver that claims no
    model (the board so far, for edge matching); 2 for a contradictory one, a partial model the
    solver calls satisfiable, or a complete model that breaks a clause of the formula; 3 when
    the solver gave up.  Other formats: :func:`decode_answer`."""
    from ..backends.dimacs import Formula
    puzzle = catalog.load(args.name)
    check_proof_option(args)
    if args.format != "dimacs" or args.maximize_matches:
        return decode_answer(args, puzzle)
    text = read_text(args.output, DECODE_LIMIT, what="solver output")
    if not args.cnf and not args.proof:   # a verdict without a model needs no formula: at once
        verdict = _bare_verdict(text)
        if verdict is not None:
            return solver_says_none(puzzle.name) if verdict == EXIT_NONE else verdict
    formula = Formula.from_args(puzzle, model_options(args), args.amo, args.cnf)
    if args.proof and not args.cnf:       # the formula is known now: a bare verdict settles it
        verdict = _bare_verdict(text)
        if verdict is not None:
            return proved_none(puzzle.name, formula, args.proof, args.time_limit) if verdict == EXIT_NONE else verdict
    problem = formula.problem
    if len(text) > 64 + 16 * formula.variables + (1 << 20):
        raise SatilingError(f"{args.output}: too large for the solver output of a formula of "
                            f"{formula.variables} variables")
    try:
        out = formula.read_model(text)
    except SatilingError as e:            # name the file the message is about
        raise SatilingError("{where}: {error}", where="stdin" if args.output == "-" else args.output,
                            error=e) from None
    if out.status == "UNSATISFIABLE":
        return proved_none(puzzle.name, formula, args.proof, args.time_limit) if args.proof else solver_says_none(puzzle.name)
    if args.proof:                        # a model is checked without it
        print(f"satiling: the solver gave a model: {args.proof} is not read", file=sys.stderr)
    true = frozenset(v for v in out.true_vars if v <= problem.num_vars and problem.primary[v])
    if not true and out.status == "UNKNOWN":      # interrupted with nothing placed: no answer
        print("satiling: the solver gave no answer", file=sys.stderr)
        return EXIT_TIMEOUT
    if not true and not out.complete:     # complete, it kept every clause: the empty packing
        raise SatilingError(f"the solver output sets none of the {len(problem.primary_vars())} "
                            f"placement variables of {puzzle.name} true")
    solution = problem.decode(true)
    try:
        puzzle.verify(solution)
    except VerificationError as e:
        if out.complete:      # every clause held (checked above): the formula is not this model
            where = f"{args.cnf} is not" if args.cnf else "the formula is not"
            raise SatilingError(f"a complete model of the formula, whose placements are no solution "
                                f"of {puzzle.name} ({e}): {where} satiling's model of it") from None
        puzzle.check_partial(problem, true)       # contradictory: SatilingError, exit 2
        if out.status == "SATISFIABLE":           # a model cut short, or of another formula
            raise SatilingError(f"the solver says SATISFIABLE, but its model is no solution of "
                                f"{puzzle.name} ({e})") from None
        if puzzle.family == "edgematch":
            from ..commands.edgematch import show_partial
            show_partial(puzzle, solution, str(e), args.svg)
        else:
            n = len(solution)
            print(f"satiling: partial model: {n} placement{'s' * (n != 1)} set true; not a "
                  f"complete solution ({e})", file=sys.stderr)
        return EXIT_NONE
    show(puzzle, solution, args.svg)
    return EXIT_FOUND


def solver_says_none(name: str, fmt: str = "dimacs") -> int:
    """A solver's "no solution", printed as ``solve`` prints one, and said on stderr to be the
    solver's word: nothing in its output ties it to this puzzle's formula, nor proves it (a DRAT
    proof of a CNF's can be checked: ``decode --proof``, which the line names where it applies)."""
    print("no solution")
    how = ("decode --proof FILE checks the solver's DRAT proof of it" if fmt == "dimacs" else
           "a SAT solver's DRAT proof of the CNF, --format dimacs, can be checked by decode --proof")
    print(f"satiling: {name}: no solution, in the solver's word; not checked here ({how})",
          file=sys.stderr)
    return EXIT_NONE


def proved_none(name: str, formula: Any, proof: str, seconds: float | None = None) -> int:
    """A solver's "no solution" with its DRAT proof: 1 and "no solution" when the proof refutes
    satiling's own CNF of the puzzle (:func:`~satiling.search.proof.check_solvers_proof`), as
    ``solve --proof`` says one; 2 when it does not (the solver's word is then not taken); 3
    when the check takes longer than ``seconds`` (``--time-limit``)."""
    from ..limits import Deadline, clock
    from ..search.proof import check_solvers_proof
    try:
        report = check_solvers_proof(formula.problem, formula.amo, formula.options, proof,
                                     Deadline.after(seconds, clock()))
    except TimeoutError:
        print(f"satiling: {name}: the solver says there is no solution; its proof {proof} was not "
              f"checked within the time limit ({seconds:g} s)", file=sys.stderr)
        return EXIT_TIMEOUT
    if not report.verified:
        raise SatilingError(f"the solver says {name} has no solution, but its {report.summary()}")
    print("no solution")
    print(f"satiling: {name}: no solution, proved: {report.summary()}", file=sys.stderr)
    return EXIT_NONE


def check_proof_option(args: argparse.Namespace) -> None:
    """``decode --proof`` reads a DRAT proof, which refutes a CNF: ``--format dimacs`` alone."""
    if args.proof and (args.format != "dimacs" or args.maximize_matches):
        raise SatilingError("--proof is a DRAT proof of the CNF: it goes with --format dimacs, "
                            "without --maximize-matches")
    if args.time_limit is not None and not args.proof:
        raise SatilingError("--time-limit bounds the check of a --proof: give one, or drop it")
    if args.proof == "-" and args.output == "-":
        raise SatilingError("the solver output and --proof cannot both be read from stdin: "
                            "give one of them as a file")


#: the largest solver output ``decode`` reads before it knows the formula (then: 16 bytes a variable)
DECODE_LIMIT = 1 << 30


def _bare_verdict(text: str) -> int | None:
    """The exit code of an output that gives no literal at all: "no solution" (1) or no answer
    (3), by the one table of :mod:`satiling.backends.answers`; None when there is a model to
    check, or the output is malformed (the full check says)."""
    from ..backends.answers import verdict_exit
    from ..backends.dimacs import read_solver_output
    try:
        out = read_solver_output(text, None)
    except SatilingError:
        return None
    code = verdict_exit(out.status, out.literals)
    if code == EXIT_TIMEOUT:
        print("satiling: the solver gave no answer", file=sys.stderr)
    return code


#: the formats whose clauses an at-most-one encoding writes
AMO_FORMATS = ("dimacs", "wcnf")


def check_amo(args: argparse.Namespace) -> None:
    """``--amo`` names how a CNF writes at-most-one: another format has no use for it."""
    if args.amo and args.format not in AMO_FORMATS:
        raise SatilingError(f"--amo is for the CNF formats ({', '.join(AMO_FORMATS)}), not --format {args.format}")


def decode_answer(args: argparse.Namespace, puzzle) -> int:
    """``decode --format F``: the answer read in its solver family's words, complete and keeping
    every constraint of the model, else refused in one line (exit 2); 0 and the picture for a
    solution (for ``--maximize-matches``, the full board and its score); 1 when the solver says
    there is none; 3 when it gave no answer (the table of :mod:`satiling.backends.answers`)."""
    from ..backends.answers import checked, read_answer, verdict_exit
    if args.cnf:
        raise SatilingError("--cnf is for --format dimacs")
    check_amo(args)
    export = model_export(args, puzzle)
    problem = export.problem
    key, clauses = answer_key(args.format, export, args.amo or "pairwise")
    where = "stdin" if args.output == "-" else args.output
    text = read_text(args.output, 4096 + 64 * key.variables + (1 << 20), what="solver output")
    try:
        answer = read_answer(args.format, text, key)
        code = verdict_exit(answer.status, len(answer.values), key.variables)
        if code == EXIT_NONE:
            return solver_says_none(puzzle.name, args.format)
        if code == EXIT_TIMEOUT:
            print("satiling: the solver gave no answer", file=sys.stderr)
        if code is not None:
            return code
        true = checked(problem, answer, key.variables, clauses)
    except SatilingError as e:            # name the file the message is about
        raise SatilingError("{where}: {error}", where=where, error=e) from None
    solution = problem.decode(v for v in true if problem.primary[v])
    if args.maximize_matches:
        from ..commands.edgematch import print_board
        s = print_board(puzzle, puzzle.board_from(solution), args.svg)
        print(f"satiling: {puzzle.name}: a full board, score {s.matched}/{s.joins} (counted from "
              "the pieces)", file=sys.stderr)
        return EXIT_FOUND
    try:
        puzzle.verify(solution)
    except VerificationError as e:        # the model's constraints hold, the puzzle's do not
        raise SatilingError(f"{where}: not a solution of {puzzle.name}: {e}") from None
    if export.soft:
        print(f"satiling: {puzzle.name}: {len(solution)} pieces placed", file=sys.stderr)
    show(puzzle, solution, args.svg)
    return EXIT_FOUND


def answer_key(fmt: str, export, amo: str):
    """What the reader of ``fmt`` needs to know of the model, and the clauses an answer is held
    to (WCNF: the hard clauses, auxiliary variables and all; else None: the model's own)."""
    from ..backends.answers import AnswerKey
    problem = export.problem
    if fmt == "wcnf":
        from ..backends.cnf import CnfEncoder
        return (AnswerKey(CnfEncoder(problem, amo).size()[0]),
                lambda: CnfEncoder(problem, amo).clauses())
    if fmt in ("lp", "lpsolve", "mps"):
        from ..backends.lp import var_name
        names = {var_name(problem, v, strict): v for strict in (False, True)
                 for v in range(1, problem.num_vars + 1)}
        return AnswerKey(problem.num_vars, names=names), None
    if fmt == "xcc":
        from ..backends.xcc import xcc_matrix
        return AnswerKey(problem.num_vars, options=xcc_matrix(problem).lookup()), None
    return AnswerKey(problem.num_vars), None


def cmd_verify(args: argparse.Namespace) -> int:
    """Every solution of the file verified: 0, or 1 with the first wrong one; the whole file is
    read either way, so a bad line after a wrong solution is still refused (exit 2)."""
    puzzle = catalog.load(args.name)
    check = _checker(puzzle, args.hints)
    n, wrong = 0, ""
    seen: set[frozenset[Any]] = set()
    for n, solution in enumerate(read_solutions(puzzle, args.solutions), 1):
        if not wrong:
            wrong = _wrong(check, solution, n)
        seen.add(frozenset(solution))
    if wrong:
        print(f"satiling: {wrong}", file=sys.stderr)
        return EXIT_NONE
    # a run file with no solutions (an enumerate that found none) is not an error: 0 verified
    again = n - len(seen)
    repeats = f" ({again} repeat{'s' if again == 1 else ''} an earlier one: {len(seen)} different)" if again else ""
    print(f"{n} solution{'s' if n != 1 else ''} verified{repeats}")
    return EXIT_FOUND


def _checker(puzzle: Any, hints: bool) -> Any:
    """The puzzle's verifier; with ``hints``, the one that also wants its hint pieces in place."""
    if not hints:
        return puzzle.verify
    if not hasattr(puzzle, "verify_hints"):
        raise SatilingError(f"--hints: {puzzle.name} has no hint pieces")
    puzzle.check_hints(True)
    return puzzle.verify_hints


def _wrong(check: Any, solution: list[Any], n: int) -> str:
    """What is wrong with solution ``n`` of a file ("" if nothing), by the verifier ``check``."""
    try:
        check(solution)
    except VerificationError as e:
        return f"solution {n} is wrong: {e}"
    return ""


def cmd_render(args: argparse.Namespace) -> int:
    """Draw solution ``--index N`` of the file (default the first; every one with ``--all``).  An
    edge-matching board that breaks joins (``--maximize-matches``) is drawn with its score, exit 1."""
    puzzle = catalog.load(args.name)
    if args.index is not None and args.index < 1:
        raise SatilingError("--index counts from 1")
    if args.index is not None and args.all:
        raise SatilingError("--index draws one solution, --all every one: choose one")
    index = args.index or 1
    if args.all and (args.svg or args.png):
        return _render_all_svg(puzzle, args)
    if puzzle.family == "edgematch" and _is_text_board(args.solution):
        return _render_board(puzzle, args)
    n, chosen = _solutions_to_draw(puzzle, args.solution, None if args.all else index)
    if not args.all:
        if not chosen:
            raise SatilingError(f"{args.solution}: --index {index}, but the file holds {n} solution"
                                f"{'s' * (n != 1)}")
        return _render_one(puzzle, chosen[0], args.svg, index, args.png)
    wrong = 0
    for n, solution in enumerate(chosen, 1):
        if n > 1:
            print()                       # one blank line between two pictures
        wrong += _render_one(puzzle, solution, args.svg, n, args.png) == EXIT_NONE
    print(f"satiling: drew {n} solution{'s' * (n != 1)}"
          + (f"; {wrong} of them wrong" if wrong else ""), file=sys.stderr)
    return EXIT_NONE if wrong else EXIT_FOUND


def _solutions_to_draw(puzzle, path: str, index: int | None) -> tuple[int, list[list[Any]]]:
    """How many solutions the file holds, and the one at ``index`` (None: every one).  The whole
    file is read before anything is drawn, so a bad line anywhere is refused with nothing written."""
    n, chosen = 0, []
    for n, solution in enumerate(read_solutions(puzzle, path), 1):
        if index is None or n == index:
            chosen.append(solution)
    if n == 0:
        raise SatilingError(f"{path}: no solution in the file")
    return n, chosen


def _svg_folder(path: str) -> bool:
    return path.endswith("/") or os.path.isdir(path)


def _render_all_svg(puzzle, args: argparse.Namespace) -> int:
    """Every solution of the file, verified, as SVG: one page, or one file each in a folder."""
    from ..fileio import write_files
    from ..render import gallery, pictures
    svgs = []
    for n, solution in enumerate(_solutions_to_draw(puzzle, args.solution, None)[1], 1):
        wrong = _wrong(puzzle.verify, solution, n)
        if wrong:                         # nothing drawn: a page of solutions holds solutions only
            print(f"satiling: {wrong}", file=sys.stderr)
            return EXIT_NONE
        svgs.append(pictures.solution_svg(puzzle, solution))
    if args.png:
        if _svg_folder(args.png):
            raise SatilingError(f"--all --png {args.png}: the PNG is one page of every solution: "
                                "give a file name (a folder of pictures: --svg FOLDER/)")
        write_pictures(gallery.page(svgs), png=args.png)
        if not args.svg:
            return EXIT_FOUND
    if _svg_folder(args.svg):
        os.makedirs(args.svg, exist_ok=True)
        write_files(gallery.folder_files(svgs, args.svg))
        where = f"{len(svgs)} files in {args.svg}"
    else:
        from ..fileio import write_file
        write_file(args.svg, gallery.page(svgs))
        where = args.svg
    print(f"satiling: drew {len(svgs)} solution{'s' * (len(svgs) != 1)} to {where}", file=sys.stderr)
    return EXIT_FOUND


def _is_text_board(path: str) -> bool:
    """A board as ``solve --maximize-matches`` prints it and ``score`` reads it (not JSON)."""
    if path == "-":
        return False
    try:
        with open(path, "rb") as f:
            head = f.read(256).lstrip()
    except OSError:
        return False                       # read_solutions says what is wrong with the file
    return bool(head) and not head.startswith((b"{", b"["))


def _render_board(puzzle, args: argparse.Namespace) -> int:
    """A text board drawn as ``score`` draws it: 0 when it solves the puzzle, else 1 (its score
    says how far it goes)."""
    from ..commands.edgematch import print_board
    from ..families.edgematch.score import parse_board
    if (args.index or 1) != 1 or args.all:
        raise SatilingError(f"{args.solution} is one board: --index and --all are for JSON lines")
    board = parse_board(puzzle, read_text(args.solution, 4 << 20, what="board"))
    s = print_board(puzzle, board, args.svg, args.png)
    if args.svg:
        print(f"satiling: wrote {args.svg}", file=sys.stderr)
    if s.matched != s.joins or s.placed != s.squares:
        return EXIT_NONE
    try:                                  # every join matches: a solution only if the verifier says so
        puzzle.verify(puzzle.tiles(board))
    except VerificationError as e:
        print(f"satiling: not a solution: {e}", file=sys.stderr)
        return EXIT_NONE
    return EXIT_FOUND


def _render_one(puzzle, solution: list[Any], svg: str | None, n: int, png: str | None = None) -> int:
    """Draw solution ``n``; one that is wrong is not drawn, as ``verify`` says (exit 1), but an
    edge-matching board, drawn with its score."""
    try:
        puzzle.verify(solution)
    except VerificationError as e:
        if puzzle.family != "edgematch":
            print(f"satiling: solution {n} is wrong: {e}", file=sys.stderr)
            return EXIT_NONE
        from ..commands.edgematch import show_board
        show_board(puzzle, solution, str(e), svg, png)
        return EXIT_NONE
    show(puzzle, solution, svg, png=png)
    return EXIT_FOUND
