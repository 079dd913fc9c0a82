"""Which tests share a pytest-xdist worker under ``--dist loadgroup`` (tests/conftest.py):
within a module, the tests linked by the module- or class-scoped fixtures they use (a
server, an event played once), so that each such fixture is made once while
the tests of the module's other fixtures, and tests of none, go to whichever worker is
free. A package-scoped fixture is made once per worker whatever the grouping."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

SHARED_SCOPES = frozenset({"module", "class"})


def shared_fixtures(item: pytest.Item) -> frozenset[str]:
    """The module- or class-scoped fixtures ``item`` uses, itself or through others."""
    definitions = getattr(item, "_fixtureinfo", None)
    if definitions is None:
        return frozenset()
    return frozenset(
        name
        for name, fixtures in definitions.name2fixturedefs.items()
        if any(fixture.scope in SHARED_SCOPES for fixture in fixtures)
    )


def groups(uses: Mapping[str, frozenset[str]]) -> dict[str, str]:
    """The group of each test id that uses a shared fixture (``uses``: test id -> fixture
    names): ``module::fixture``, the first fixture of the chain that links it to the
    module's other tests (two tests are linked when they use a fixture in common)."""
    parent: dict[tuple[str, str], tuple[str, str]] = {}

    def root(key: tuple[str, str]) -> tuple[str, str]:
        while parent.setdefault(key, key) != key:
            key = parent[key]
        return key

    for nodeid, names in uses.items():
        keys = [(nodeid.split("::")[0], name) for name in sorted(names)]
        for key in keys[1:]:
            first, other = root(keys[0]), root(key)
            parent[max(first, other)] = min(first, other)
    return {
        nodeid: "::".join(root((nodeid.split("::")[0], min(names))))
        for nodeid, names in uses.items()
        if names
    }
