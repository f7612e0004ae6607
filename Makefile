# make demo  -- create .venv, install satiling, solve and draw the 6x10 pentomino puzzle
# make test  -- create .venv, install satiling with its test tools, run the test suite
VENV ?= .venv
PYTHON ?= python3
BIN = $(VENV)/bin

.PHONY: demo test bench clean

# the demo needs satiling alone; the test tools (pytest, hypothesis, ...) come with 'make test'
$(BIN)/satiling: pyproject.toml setup.py $(wildcard satiling/engines/*.c satiling/engines/*.h)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --no-compile -e .
	touch $@

# one install with the test tools (not the package, then again with them: one build of the engines);
# then every module the suite may import compiled once, on every core (not the packages' own tests,
# nor pip's): where PYTHONDONTWRITEBYTECODE is set Python never keeps what it compiles, and the
# suite's hundreds of processes would each compile what they import
$(VENV)/.test-tools: pyproject.toml setup.py $(wildcard satiling/engines/*.c satiling/engines/*.h)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --no-compile -e '.[test]'
	$(BIN)/python -m compileall -q -j 0 -x '/(tests|pip|setuptools)/' $(VENV)/lib > /dev/null
	touch $(BIN)/satiling $@

demo: $(BIN)/satiling
	$(BIN)/satiling solve pentomino-6x10 --svg pentomino-6x10.svg

# satiling's own modules compiled again where they changed (a quick look where none did)
test: $(VENV)/.test-tools
	$(BIN)/python -m compileall -q -j 0 satiling > /dev/null
	$(BIN)/pytest

bench: $(BIN)/satiling
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/python tools/bench/count.py

clean:
	rm -rf $(VENV) *.egg-info pentomino-6x10.svg
