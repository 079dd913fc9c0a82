# Two commands for a newcomer: `make serve` and `make test`. Both set up .venv first:
# `make serve` installs what serving needs, `make test` adds the dev extra.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
DEV_STAMP := $(VENV)/.dev-stamp
NATIVE_STAMP := $(VENV)/.native-stamp
NATIVE_SOURCES := $(wildcard native/Cargo.* native/pyproject.toml native/src/*.rs native/src/*/*.rs)
HAVE_CARGO := $(shell command -v cargo 2>/dev/null)
# Run once more under the Python engine (the whole suite runs under the default, native when built).
ENGINE_TESTS := tests/rules tests/records tests/test_openspiel_corpus.py tests/test_cli.py \
	tests/test_plays.py tests/api/test_plays_api.py tests/reliability/test_hostile_input.py
HOST ?= 127.0.0.1
PORT ?= 8000
WORKERS ?= 2

.PHONY: install dev native native-check fuzz test lint serve bench openapi browser gnubg postgresql \
	haproxy nginx screenshots clean

# What serving needs: the package and its runtime dependencies (pyproject.toml's dependencies).
$(STAMP): pyproject.toml
	@echo "make: creating $(VENV) and installing nardy-referee with what serving needs"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

# What the tests and the linters need besides: the dev extra (pytest, mypy, ruff, playwright...).
$(DEV_STAMP): $(STAMP)
	@echo "make: installing the dev extra into $(VENV) (pytest, mypy, ruff, playwright, schemathesis)"
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

# The native core (Rust): built in release mode into .venv when cargo exists; without it
# everything runs on the Python engine.
$(NATIVE_STAMP): $(STAMP) $(NATIVE_SOURCES)
	@echo "make: building the native core (Rust, release mode; minutes the first time)"
	$(BIN)/python -m pip install --quiet --force-reinstall --no-deps ./native
	touch $@

ifdef HAVE_CARGO
native: $(NATIVE_STAMP)

native-check: export MAKEFLAGS =
native-check:
	cd native && cargo fmt --check && cd fuzz && cargo fmt --check
	cd native && cargo clippy --quiet --all-targets --all-features -- -D warnings
	cd native && cargo test --quiet
else
native native-check:
	@echo "cargo not found: the native core is skipped (the Python engine is used)"
endif

install: $(STAMP) native

dev: $(DEV_STAMP) native

# Bounded fuzzing runs of the native core (not in CI): cargo-fuzz needs the nightly toolchain.
# The record reader starts from the shared corpus's records (copied into native/fuzz/corpus/,
# which git ignores).
FUZZ_SECONDS ?= 60
fuzz:
	command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
	cd native && cargo +nightly fuzz run judge -- -max_total_time=$(FUZZ_SECONDS)
	mkdir -p native/fuzz/corpus/record && cp ../shared/corpus/mat/*.mat native/fuzz/corpus/record/
	cd native && cargo +nightly fuzz run record -- -max_total_time=$(FUZZ_SECONDS) -max_len=20000

lint: dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict referee notation vocabulary

# The suite runs its storage contract on both backends; the API and storage tests run once
# more with every app's archive on PostgreSQL (a temporary cluster the tests start, or the
# server NARDY_REFEREE_TEST_POSTGRESQL names; without one they skip, REQUIRE_POSTGRESQL=1 fails).
# Most tests wait (on a browser, gnubg, a server) more than they compute, so `make test`
# runs the gates, the suite (in TEST_WORKERS processes, pytest-xdist; tests sharing a
# server stay on one), the Python-engine run and the PostgreSQL run at once (each one's
# output shown as it ends), then the tests that measure the service under load (marker
# `alone`) without the rest: three at a time, as they wait more than they compute (about
# 1.2 of the 2 cores between them, each measured against its own baseline). tests/storage runs on
# both backends in the first run, so the PostgreSQL run leaves it out, and the modules
# whose tests open no archive (request loading, the plays endpoints, pairing, standings
# and ratings as pure functions) or only a gunicorn's own SQLite file (the challenges'
# bots); and gnubg's figures of the whole corpus through the API, which are gnubg's
# whatever the backend (the analyses' jobs run on PostgreSQL in the rest of tests/api and
# in tests/analysis/test_workers.py).
# schemathesis writes its cases for every operation as it reads a module that uses it (4.2 s
# of CPU for its own module, 3 s for gunicorn's answers: more than half of reading the whole
# suite), and every process of a run reads every module: so those two modules run in one
# process of their own beside the others, schemathesis's own on each backend in turn.
# The suite's processes; the engine and PostgreSQL runs, which end well before it, take
# fewer (too many at once on two cores only queue for them).
TEST_WORKERS ?= 4
SIDE_WORKERS ?= 2
PARALLEL := -n $(TEST_WORKERS) --dist loadgroup --no-loadscope-reorder
SIDE := -n $(SIDE_WORKERS) --dist loadgroup --no-loadscope-reorder
SCHEMATHESIS := tests/api/test_schemathesis.py
GUNICORN_ANSWERS := tests/reliability/test_gunicorn_answers.py
APART := --ignore=$(SCHEMATHESIS) --ignore=$(GUNICORN_ANSWERS)
# The other runs have no schemathesis test: they leave its pytest plugin unread.
NO_SCHEMATHESIS := -p no:schemathesis
POSTGRESQL_TESTS := tests/api tests/events tests/challenges --ignore=tests/api/test_loading.py \
	--ignore=tests/api/test_plays_api.py --ignore=tests/events/test_pairing.py \
	--ignore=tests/events/test_standings.py --ignore=tests/events/test_ratings.py \
	--ignore=tests/challenges/test_bots.py --ignore=$(SCHEMATHESIS) \
	--deselect tests/api/test_analyses_api.py::test_a_worker_makes_what_gnubg_prints_for_every_original_of_the_corpus
TOGETHER := lint native-check test-suite test-engine test-postgresql test-schemathesis
.PHONY: test-suite test-engine test-postgresql test-schemathesis test-alone
# A run starts hundreds of Python processes (pytest's, and the servers and commands the
# tests start): each reads the modules the first one compiled (pytest's rewritten test
# modules too) instead of compiling them again, even where the environment says not to
# write them (an empty PYTHONDONTWRITEBYTECODE is unset; git ignores __pycache__).
test $(TOGETHER) test-alone: export PYTHONDONTWRITEBYTECODE =
test: dev
	@echo "make: the gates, the suite, the Python-engine run, the PostgreSQL run and" \
		"schemathesis at once (each one's output appears as it ends), then the tests run alone"
	$(MAKE) --no-print-directory -k -j6 --output-sync=target $(TOGETHER)
	$(MAKE) --no-print-directory test-alone

test-suite: dev
	$(BIN)/python -m pytest $(PARALLEL) $(NO_SCHEMATHESIS) -m "not alone" $(APART)

test-engine: dev
	NARDY_REFEREE_ENGINE=python $(BIN)/python -m pytest -q $(SIDE) $(NO_SCHEMATHESIS) $(ENGINE_TESTS)

test-postgresql: dev
	NARDY_REFEREE_TEST_BACKEND=postgresql $(BIN)/python -m pytest -q $(SIDE) $(NO_SCHEMATHESIS) $(POSTGRESQL_TESTS)

test-schemathesis: dev
	$(BIN)/python -m pytest -q $(SCHEMATHESIS) $(GUNICORN_ANSWERS)
	NARDY_REFEREE_TEST_BACKEND=postgresql $(BIN)/python -m pytest -q $(SCHEMATHESIS)

test-alone: dev
	$(BIN)/python -m pytest -q -n 3 --dist loadgroup $(NO_SCHEMATHESIS) -m alone

serve: install
	@echo "make: starting gunicorn ($(WORKERS) workers) on http://$(HOST):$(PORT)"
	NARDY_REFEREE_BIND=$(HOST):$(PORT) NARDY_REFEREE_WORKERS=$(WORKERS) \
		$(BIN)/gunicorn --config gunicorn.conf.py wsgi:app

bench: dev
	$(BIN)/python benchmarks/rules_speed.py
	$(BIN)/python benchmarks/records_speed.py
	$(BIN)/python benchmarks/http_load.py
	$(BIN)/python benchmarks/memory.py
	$(BIN)/python benchmarks/worst_inputs.py
	$(BIN)/python benchmarks/board_speed.py
	$(BIN)/python benchmarks/live_load.py
	$(BIN)/python benchmarks/analysis_speed.py

# The builtin nardy engine's networks (docs/engine.md): TD(lambda) self-play, one variant
# after the other, each single-threaded and niced for TRAIN_MINUTES of wall-clock time
# (games and seed are written into each weights file; `nardy-referee train --games N`
# repeats a run exactly). Needs the native core (cargo).
TRAIN_SEED ?= 1
TRAIN_MINUTES ?= 60
WEIGHTS ?= referee/players/weights
.PHONY: train-nardy
train-nardy: install
	nice -n 10 $(BIN)/nardy-referee train --variant long-nardy --seed $(TRAIN_SEED) \
		--minutes $(TRAIN_MINUTES) --out $(WEIGHTS)/long-nardy.net
	nice -n 10 $(BIN)/nardy-referee train --variant khachapuri --seed $(TRAIN_SEED) \
		--minutes $(TRAIN_MINUTES) --out $(WEIGHTS)/khachapuri.net

openapi: $(DEV_STAMP)
	$(BIN)/python -m referee.openapi

# Debian's chromium for the browser tests (Playwright drives the system browser; CI is root).
browser:
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)

# Debian's gnubg for the engine tests (a separate GPL program; Debian puts it in /usr/games).
gnubg:
	command -v gnubg >/dev/null || test -x /usr/games/gnubg || (apt-get update && apt-get install -y gnubg)

# Debian's PostgreSQL server for the PostgreSQL tests (CI is root; the tests run it as the
# postgres user in a temporary cluster of their own).
postgresql:
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || (apt-get update && apt-get install -y postgresql)

# Debian's HAProxy for benchmarks/topology.py and tests/multihost (the balancer in front of
# several instances; deploy/haproxy.cfg is the setup they measure).
haproxy:
	command -v haproxy >/dev/null || test -x /usr/sbin/haproxy || (apt-get update && apt-get install -y haproxy)

# Debian's nginx for the front-proxy test (tests/reliability/test_protocol.py runs nginx with
# docs/operations.md's configuration in front of gunicorn).
nginx:
	command -v nginx >/dev/null || test -x /usr/sbin/nginx || (apt-get update && apt-get install -y nginx-light)

screenshots: $(DEV_STAMP) browser
	$(BIN)/python scripts/board_screenshots.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis native/target
