"""``satiling check-proof``: check a DRAT proof with the same checkers ``--proof`` uses.

For proofs written by ``solve/count --proof`` (formula in ``FILE.cnf``), or by any solver on a
formula from ``satiling encode`` (``SOLVER p.cnf p.drat``).
"""
from __future__ import annotations

import argparse
import sys

from ..exits import EXIT_FOUND, EXIT_NONE


def register(sub) -> None:
    s = sub.add_parser("check-proof", help="check a DRAT proof of a DIMACS formula (dratify; "
                       "drat-trim too when on the PATH)",
                       description="Check a DRAT proof of unsatisfiability of a DIMACS formula.")
    s.add_argument("formula", metavar="CNF", help="the formula (DIMACS), e.g. PROOF.cnf")
    s.add_argument("proof", metavar="PROOF", help="the proof (text DRAT)")
    s.set_defaults(run=cmd_check_proof)


def cmd_check_proof(args: argparse.Namespace) -> int:
    from ..search.proof import check_proof
    checks = check_proof(args.formula, args.proof)
    for c in checks:
        verdict = "verified" if c.ok else "NOT verified"
        print(f"{c.checker}: {verdict} in {c.seconds:.2f} s ({c.detail})")
    ok = all(c.ok for c in checks)
    if not ok:
        print("satiling: the proof is NOT verified", file=sys.stderr)
    return EXIT_FOUND if ok else EXIT_NONE
