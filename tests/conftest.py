"""Test-wide set-up: every app the tests create uses a throwaway archive file."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import flask
import pytest

from referee.http.serving import stop_clocks
from tests.archives import copy_new_archives
from tests.grouping import groups, shared_fixtures
from tests.routing import RuleWithSharedBuilders

# Most tests make an app of their own on a new archive: its URL rules' code is compiled
# once per process, and the archive is a copy of one migrated once per process.
flask.Flask.url_rule_class = RuleWithSharedBuilders
copy_new_archives()

# Rate limits would throttle the suite (one client, many requests): tests of the limits
# set them in the app's config. Set before test modules import (some build apps then).
os.environ.setdefault("NARDY_REFEREE_RATE_LIMITS", "off")


@pytest.fixture(autouse=True, scope="session")
def throwaway_database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Point ``NARDY_REFEREE_DATABASE`` at a temporary file, never at ./var."""
    saved = os.environ.get("NARDY_REFEREE_DATABASE")
    os.environ["NARDY_REFEREE_DATABASE"] = str(tmp_path_factory.mktemp("db") / "referee.sqlite3")
    yield
    if saved is None:
        del os.environ["NARDY_REFEREE_DATABASE"]
    else:
        os.environ["NARDY_REFEREE_DATABASE"] = saved


@pytest.fixture(autouse=True)
def clocks_stopped_after_the_test() -> Iterator[None]:
    """After each test, the clock threads of the apps it served are stopped (an app used
    again starts its own at its next request): none beats the process-wide clock in a
    later test's way, or looks at an archive that is gone."""
    yield
    stop_clocks()


ALONE = (
    "tests/multihost/test_archive_across_instances.py",
    "tests/multihost/test_balancer_errors.py",
    "tests/multihost/test_live_across_instances.py",
    "tests/multihost/test_postgresql_bad_days.py",
    "tests/reliability/test_streams.py",
    "tests/reliability/test_one_client.py",
)
"""Tests that measure the service under load (how many probes it answers, bots at pace,
deadlines of a second across instances, outages under load): ``make test`` runs them
without the rest after the parallel run (marker ``alone``), so that other tests' work does
not pass for theirs; three at a time, since they wait more than they compute (80 s of CPU
in 62 to 67 s of wall time three at a time, against 78 to 81 s two at a time: five runs
and two, all passing, 2026-12-07) and each compares with a baseline of its own run. The other
multihost tests (events and bot streams across instances) only wait for what must happen:
they run in the parallel run."""


FIRST = (
    "tests/events/test_acceptance.py",
    "tests/api/test_analyses_api.py",
    "tests/multihost/test_events_across_instances.py",
    "tests/players/test_gnubg_live.py",
    "tests/events/test_events_bot.py",
    "tests/events/test_analysed.py",
    "tests/analysis/test_corpus.py",
    "tests/reliability/test_gunicorn_answers.py",
    "tests/native/test_judging.py",
    "tests/web/test_browser_replay.py",
    "tests/test_openspiel_corpus.py",
    "tests/web/test_docs_browser.py",
    "tests/web/test_event_live_browser.py",
    "tests/challenges/test_bots.py",
)
"""The modules that take longest on one worker (``python -m tests.timeline``, a profile of
``make test``), longest first: handed out first (``make test`` keeps the collection's
order, ``--no-loadscope-reorder``), so that none starts near the end and runs alone."""


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Under ``-m alone`` (``make test``'s last run) only the ``ALONE`` modules are read:
    no other module has such a test, and reading them all (the schemathesis cases, every
    module's assertions rewritten) cost each of that run's processes about 12 s of CPU
    before its first test."""
    if config.option.markexpr != "alone" or collection_path.suffix != ".py":
        return None
    if not collection_path.is_relative_to(config.rootpath):
        return None
    where = collection_path.relative_to(config.rootpath).as_posix()
    return (where.startswith("tests/") and where not in ALONE) or None


def first_key(item: pytest.Item) -> int:
    """Where ``item`` comes in the run: a ``FIRST`` module's place, else after them all."""
    module = item.nodeid.split("::")[0]
    return FIRST.index(module) if module in FIRST else len(FIRST)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put the ``FIRST`` modules first; mark the ``ALONE`` tests; and under pytest-xdist
    (``make test`` runs ``--dist loadgroup``) keep the tests that share a module- or
    class-scoped fixture on one worker (tests/grouping.py), so that it is made once: every
    other test goes to whichever worker is free. First of the hooks: pytest-xdist's own,
    which reads the groups to put them into the tests' ids, must see them."""
    items.sort(key=first_key)  # stable: each module's own order kept
    for item in items:
        if item.nodeid.startswith(ALONE):
            item.add_marker(pytest.mark.alone)
    grouped = groups({item.nodeid: shared_fixtures(item) for item in items})
    for item in items:
        if item.nodeid in grouped:
            item.add_marker(pytest.mark.xdist_group(grouped[item.nodeid]))
