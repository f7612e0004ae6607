"""Nothing in the package is reached only by the tests or the tools (``tools/unreached.py``), but
the few kept on purpose, each with its reason."""
import importlib.util
from pathlib import Path

TOOL = Path(__file__).resolve().parents[1] / "tools" / "unreached.py"


def test_every_definition_is_reached_from_the_package():
    spec = importlib.util.spec_from_file_location("unreached", TOOL)
    unreached = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(unreached)
    found = unreached.unreached()
    assert set(found) <= set(unreached.KEEP), {n: w for n, w in found.items() if n not in unreached.KEEP}
    assert "Reference" in found          # the check sees a definition only the tests reach
