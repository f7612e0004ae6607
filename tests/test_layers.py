"""Imports run down the data flow only (docs/code-map.md): instance -> placements -> model ->
engine -> solution -> verify -> render, with the run (satiling/run) above the search and the
applications, and its three clients (the command line, the library, the web app) on top.  Every
import statement counts, inside functions too."""
import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "satiling"
CLIENTS = {"commands", "cli", "api", "web", "launch"}
#: top-level part of satiling -> the parts it must never import
FORBIDDEN = {
    "geometry": {"families", "engines", "backends", "search", "apps", "run", "render", "catalog"} | CLIENTS,
    "engines": {"families", "search", "apps", "run", "render", "catalog", "backends"} | CLIENTS,
    "backends": {"search", "apps", "run", "render", "catalog", "families"} | CLIENTS,
    "families": {"catalog", "search", "apps", "run", "render"} | CLIENTS,
    "render": {"search", "apps", "run"} | CLIENTS,
    "search": {"apps", "run"} | CLIENTS,
    "apps": {"run"} | CLIENTS,
    "run": CLIENTS,
    "web": {"cli", "api", "launch"},
}


def _part(module: str) -> str | None:
    bits = module.split(".")
    return bits[1] if len(bits) > 1 and bits[0] == "satiling" else None


def _imports(path: Path, module: str):
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                yield ".".join(base + ([node.module] if node.module else [])), node.lineno
            else:
                yield node.module or "", node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno


def test_no_import_runs_back_up():
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        module = module.removesuffix(".__init__")
        source = _part(module if module.count(".") else module + ".x")
        for target, line in _imports(path, module):
            if _part(target) in FORBIDDEN.get(source, ()):
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}")
    assert not wrong, "\n".join(wrong)
