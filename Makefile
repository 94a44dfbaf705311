# Everything runs from a project-local virtual environment (.venv).
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
# Installed when pyproject.toml or setup.py changed since (code is installed
# editable, so edits need no install): a second `make run` starts at once.
STAMP := $(VENV)/.installed

.PHONY: setup run test check bench lint package install-linux clean

$(BIN)/python:
	$(PY) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml setup.py
	$(BIN)/python -m pip install -q -e ".[test,dev]"
	touch $@

setup: $(STAMP)

run: setup
	$(BIN)/ipubench-gui

# Tests run on JOBS worker processes (pytest-xdist; JOBS=0: in this one).
JOBS ?= 2
PARALLEL := -n $(JOBS) --dist loadgroup

test: lint
	bash .ci/xvfb-pytest $(BIN)/python $(PARALLEL)
	# High-DPI pass: the tests about size, scale and layout (marked `scale`:
	# pixels, fonts, what fits, where items sit) again at 2x, headless.
	QT_SCALE_FACTOR=2 bash .ci/xvfb-pytest $(BIN)/python -q $(PARALLEL) \
		tests/charts tests/ui -m "scale and not xvfb"

# What a contributor runs often: all but the tests marked slow (packaging, the
# largest cases); property tests run at a tenth of their CI size unless CI=true.
check: lint
	bash .ci/xvfb-pytest $(BIN)/python $(PARALLEL) -m "not slow"

bench: setup
	$(BIN)/python tests/bench/run.py

# Also the first step of `make test`, so CI (.ci/run) type-checks too.
lint: setup
	$(BIN)/ruff check ipubench_gui tests
	$(BIN)/mypy  # strict on domain/, store/ and service/: [tool.mypy] in pyproject.toml

clean:
	rm -rf build dist .pytest_cache

package: setup
	$(BIN)/python -m pip install -q "pyinstaller>=6.10,<7"
	PYTHON=$(BIN)/python bash packaging/build.sh

install-linux: package
	bash packaging/install-linux.sh dist/ipubench-gui
