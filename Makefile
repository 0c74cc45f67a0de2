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

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(PLAYS): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(SERVES): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[web]'
	touch $@

$(STAMP): pyproject.toml | $(BIN)/python
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
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

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
