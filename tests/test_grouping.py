"""The parallel run's groups (tests/grouping.py): tests that share a module- or
class-scoped fixture stay together, tests of unrelated fixtures do not."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.grouping import groups, shared_fixtures

ROOT = Path(__file__).resolve().parents[1]


def test_tests_linked_by_a_fixture_in_common_are_one_group() -> None:
    uses = {
        "a.py::one": frozenset({"server"}),
        "a.py::two": frozenset({"server", "browser"}),
        "a.py::three": frozenset({"browser"}),  # linked to one through two
        "a.py::four": frozenset({"event"}),  # a fixture of its own: another group
        "a.py::five": frozenset(),  # none: no group, any worker
        "b.py::one": frozenset({"server"}),  # the same name in another module
    }
    assert groups(uses) == {
        "a.py::one": "a.py::browser",
        "a.py::two": "a.py::browser",
        "a.py::three": "a.py::browser",
        "a.py::four": "a.py::event",
        "b.py::one": "b.py::server",
    }


def test_a_chain_found_late_joins_the_groups_made_before() -> None:
    uses = {
        "m.py::x": frozenset({"c"}),
        "m.py::y": frozenset({"d"}),
        "m.py::z": frozenset({"b", "d"}),
        "m.py::w": frozenset({"a", "c"}),
        "m.py::v": frozenset({"a", "b"}),
    }
    assert set(groups(uses).values()) == {"m.py::a"}


@pytest.fixture(scope="module")
def made_once() -> int:
    return 1


@pytest.fixture
def made_each_time(made_once: int) -> int:
    return made_once + 1


def test_a_module_fixture_used_through_another_counts(
    request: pytest.FixtureRequest, made_each_time: int
) -> None:
    assert made_each_time == 2
    assert shared_fixtures(request.node) == {"made_once"}


SHARING_MODULE = """
import os
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def server() -> str:
    with Path(os.environ["MADE_LOG"]).open("a") as log:
        log.write(f"{os.environ.get('PYTEST_XDIST_WORKER', 'main')}\\n")
    return "made"


@pytest.mark.parametrize("n", range(8))
def test_uses_the_server(server: str, n: int) -> None:
    assert server == "made"


@pytest.mark.parametrize("n", range(8))
def test_uses_nothing(n: int) -> None:
    assert n >= 0
"""


def test_a_parallel_run_makes_a_module_fixture_once(tmp_path: Path) -> None:
    """A real ``--dist loadgroup`` run with this suite's hook: the sixteen tests spread over
    two workers, yet the module's server is made once. pytest-xdist keeps a group on one
    worker by putting the group into the tests' ids in a hook of its own, so this suite's
    hook must run first (``tryfirst``), and pytest below 9.2 (whose ids it can no longer
    change)."""
    (tmp_path / "test_sharing.py").write_text(SHARING_MODULE)
    (tmp_path / "conftest.py").write_text(
        "from tests.conftest import pytest_collection_modifyitems  # noqa: F401\n"
    )
    made = tmp_path / "made.log"
    environment = {**os.environ, "MADE_LOG": str(made), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2"]
    command += ["--dist", "loadgroup", "--rootdir", str(tmp_path), str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, env=environment, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "16 passed" in done.stdout
    assert made.read_text().splitlines() in (["gw0"], ["gw1"])
