"""List the functions, classes and methods of ``satiling/`` that no code of the package reaches:
a definition counts as reached when a name it is known by is read by the package's module-level
code (its tables, its command and engine registrations, ``module:attribute`` strings, decorators,
special methods) or by a definition reached before it.  Tests and tools are not read, so what is
listed is reached only by them (or by nobody).

    python tools/unreached.py            # exit 1 when anything is listed beyond KEEP

By name, not by module: a definition whose name some reached code reads for another purpose
counts as reached (the check can miss dead code, never reports live code as dead).
"""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "satiling"

#: reached only by tests on purpose, each with why
KEEP = {
    "Reference": "the readable Python reference of the compiled edge-matching search, tested against it",
    "_repr_svg_": "Jupyter draws a puzzle or a solution with it",
    "solve_puzzle": "the library's function (satiling.solve_puzzle), in __all__",
    "to_cnf": "the library's CNF export, shown in the README",
    "unregister": "a plug-in family's registry pair of register()",
}


def loads(node: ast.AST) -> set[str]:
    """The names a piece of code reads: names, attributes, imports, 'module:attribute' strings."""
    out: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            out.add(n.id)
        elif isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load):
            out.add(n.attr)
        elif isinstance(n, ast.alias):
            out.add(n.name.split(".")[-1])
        elif isinstance(n, ast.Constant) and isinstance(n.value, str):
            out.update(re.findall(r":([A-Za-z_]\w*)\b", n.value))
    return out


def definitions(tree: ast.Module, where: str):
    """(name, body node, where) for each top-level function and class and each method."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name, node, where
            if isinstance(node, ast.ClassDef):
                for sub in node.body:
                    if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        yield sub.name, sub, f"{where}:{node.name}"


def unreached() -> dict[str, list[str]]:
    uses: dict[str, set[str]] = {}
    where: dict[str, list[str]] = {}
    roots: set[str] = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        name = str(path.relative_to(PACKAGE.parent))
        for node in tree.body:
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                roots |= loads(node)
        for d, node, at in definitions(tree, name):
            where.setdefault(d, []).append(at)
            roots |= set().union(*(loads(x) for x in getattr(node, "decorator_list", [])))
            body = loads(node) - {d}
            if d.startswith("__") or d.startswith("_repr_"):      # called by Python itself
                roots |= body
            elif isinstance(node, ast.ClassDef):                  # fields, bases, class constants
                roots |= set().union(set(), *(loads(x) for x in node.bases),
                                     *(loads(s) for s in node.body
                                       if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))))
            uses.setdefault(d, set()).update(body)
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        n = todo.pop()
        if n not in seen:
            seen.add(n)
            todo.extend(uses.get(n, ()))
    return {n: where[n] for n in sorted(set(uses) - seen) if not n.startswith("__")}


def main() -> int:
    found = unreached()
    extra = {n: w for n, w in found.items() if n not in KEEP}
    for n, w in found.items():
        print(f"{n}: {', '.join(w)}" + (f"  (kept: {KEEP[n]})" if n in KEEP else ""))
    return 1 if extra else 0


if __name__ == "__main__":
    sys.exit(main())
