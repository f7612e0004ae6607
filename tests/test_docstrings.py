"""The examples in the package's docstrings (``>>>``) print what they say: a reader copies them."""
import doctest
import importlib
import pkgutil

import satiling


def test_the_examples_print_what_they_say():
    failing, tried = [], 0
    for info in pkgutil.walk_packages(satiling.__path__, "satiling."):
        if info.name.endswith("__main__"):
            continue
        result = doctest.testmod(importlib.import_module(info.name), optionflags=doctest.ELLIPSIS,
                                 report=False)
        tried += result.attempted
        if result.failed:
            failing.append(f"{info.name}: {result.failed} of {result.attempted}")
    assert not failing, "examples that do not print what they say: " + "; ".join(failing)
    assert tried >= 30          # the package's examples were found (34 when this was written)
