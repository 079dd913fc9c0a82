"""The parallel run's groups (tests/grouping.py): tests that share a module- or
class-scoped fixture stay together, tests of unrelated fixtures do not."""

from __future__ import annotations

import pytest

from tests.grouping import groups, shared_fixtures


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
