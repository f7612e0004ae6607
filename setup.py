"""Build the compiled search engines and ship the bundled instances inside the package.

The metadata lives in pyproject.toml; this file only says what is built and where files go:
* every ``satiling/engines/_*.c`` is one C extension module, compiled by ``pip install .`` with the
  machine's C compiler at install time (never at run time);
* the top-level ``instances/`` folder becomes ``satiling/instances`` inside the wheel, so that
  ``satiling list`` finds the bundled puzzles wherever the package is installed.
"""
import os
from pathlib import Path

from setuptools import Extension, find_packages, setup

ENGINES = sorted(Path("satiling/engines").glob("_*.c"))
HEADERS = [str(h) for h in sorted(Path("satiling/engines").glob("_*.h"))]   # shared by the engines

setup(
    options={"build_ext": {"parallel": os.cpu_count() or 1}},     # the engines side by side
    packages=find_packages(include=["satiling", "satiling.*"]) + ["satiling.instances"],
    package_dir={"satiling.instances": "instances"},
    package_data={"satiling.instances": ["*.toml", "*.md", "**/*"],
                  "satiling.web": ["static/*", "API.md"],
                  "satiling.render": ["fonts/*"]},              # the PNG pictures' letters     # the web app's page, script, style
    ext_modules=[
        Extension(f"satiling.engines.{src.stem}", [str(src)], depends=HEADERS,
                  extra_compile_args=["-O3", "-std=c11"])
        for src in ENGINES
    ],
)
