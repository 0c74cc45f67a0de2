# The two commands of the README.  Both set everything up from nothing (a fresh clone).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# What each command needs installed, a stamp each: playing needs parlour alone, serving
# the web server too, the tests every extra (a player never waits for Ray or OpenSpiel).
PLAYS := $(VENV)/.installed-play
SERVES := $(VENV)/.installed-serve
STAMP := $(VENV)/.installed

.PHONY: play serve test test-fast lint typecheck pytest clean bench-openspiel

# A fresh clone's first `make play` sets up for a minute or more: each step says what it
# does before it starts, and runs through scripts/ticking.py, which shows the step's own
# output (pip's progress) and, through its silences, a line that ticks twice a second: the
# screen is never silent for more than a second.
# The pip that venv brings (23 with Python 3.11) installs editable packages: no upgrade.
SAY := @printf 'setting up parlour: %s\n'
TICKING := $(PYTHON) scripts/ticking.py

$(BIN)/python:
	$(SAY) "making $(VENV), a Python of its own (about half a minute in all)..."
	@$(TICKING) "setting up parlour: making $(VENV)" $(PYTHON) -m venv $(VENV)

$(PLAYS): pyproject.toml | $(BIN)/python
	$(SAY) "installing parlour and what it needs (numpy, numba, click, rich) with pip..."
	@$(TICKING) "setting up parlour: pip is still at work" \
		$(BIN)/python -m pip install --progress-bar on -e .
	$(SAY) "installed."
	@touch $@

$(SERVES): pyproject.toml | $(BIN)/python
	$(SAY) "installing parlour and its web server (starlette, uvicorn) with pip..."
	@$(TICKING) "setting up parlour: pip is still at work" \
		$(BIN)/python -m pip install --progress-bar on -e '.[web]'
	$(SAY) "installed."
	@touch $@

$(STAMP): pyproject.toml | $(BIN)/python
	$(SAY) "installing parlour with every extra the tests use (a few minutes)..."
	$(BIN)/python -m pip install --quiet -e '.[dev,web,envs,openspiel,ray]'
	touch $@

# A game ended early (Ctrl-C, Ctrl-D) is no failure of make's; the shell outlives Ctrl-C
# (trap), so make has no child killed by it to report: parlour's one line is all it shows.
play: $(PLAYS)
	@trap : INT; $(BIN)/parlour play mancala --level 8 || true

# The web server on localhost (parlour serve prints the address to open).
serve: $(SERVES)
	@trap : INT; $(BIN)/parlour serve || true

test: $(STAMP) lint typecheck pytest

# The checks and the tests not marked slow (each benchmark's --quick run is slow).
test-fast: $(STAMP) lint typecheck
	$(BIN)/pytest -q -m "not slow"

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts

# Everything as pyproject.toml says; the package itself with --strict.
typecheck: $(STAMP)
	$(BIN)/mypy
	$(BIN)/mypy --strict src

pytest: $(STAMP)
	$(BIN)/pytest -q

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache

# The engine against OpenSpiel's bots (OpenSpiel is the extra parlour[openspiel]).
bench-openspiel: $(STAMP)
	$(BIN)/python benchmarks/engine_vs_openspiel.py
