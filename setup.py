"""Build the compiled search engines: every ``satiling/engines/_*.c`` is one C extension module.

The metadata lives in pyproject.toml; this file only lists the extensions, so that ``pip install .``
compiles them with the machine's C compiler at install time (never at run time).
"""
from pathlib import Path

from setuptools import Extension, setup

ENGINES = sorted(Path("satiling/engines").glob("_*.c"))

setup(ext_modules=[
    Extension(f"satiling.engines.{src.stem}", [str(src)], extra_compile_args=["-O3", "-std=c11"])
    for src in ENGINES
])
