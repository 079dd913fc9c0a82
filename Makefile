# Two commands for a newcomer: `make serve` and `make test`. Both set up .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000
WORKERS ?= 2

.PHONY: install test lint serve bench openapi browser screenshots clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict referee notation vocabulary

test: lint
	$(BIN)/pytest

serve: $(STAMP)
	mkdir -p var
	NARDY_REFEREE_BIND=$(HOST):$(PORT) NARDY_REFEREE_WORKERS=$(WORKERS) \
		$(BIN)/gunicorn --config gunicorn.conf.py wsgi:app

bench: $(STAMP)
	$(BIN)/python benchmarks/rules_speed.py
	$(BIN)/python benchmarks/records_speed.py
	$(BIN)/python benchmarks/http_load.py
	$(BIN)/python benchmarks/memory.py
	$(BIN)/python benchmarks/worst_inputs.py
	$(BIN)/python benchmarks/board_speed.py
	$(BIN)/python benchmarks/live_load.py

openapi: $(STAMP)
	$(BIN)/python -m referee.api.openapi

# Debian's chromium for the browser tests (Playwright drives the system browser; CI is root).
browser:
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)

screenshots: $(STAMP) browser
	$(BIN)/python scripts/board_screenshots.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
