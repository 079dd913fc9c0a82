"""The tests' shared URL builders (tests/routing.py): a second app reuses the first's, and
every rule builds the same URLs as werkzeug's own rules do."""

from __future__ import annotations

from pathlib import Path

from werkzeug.routing import IntegerConverter, Map, Rule

from referee.app import create_app
from tests.routing import RuleWithSharedBuilders


def sample(rule: Rule) -> dict[str, object]:
    """A value for each of the rule's arguments, of its converter's kind."""
    converters = rule._converters
    return {
        name: 7 if isinstance(converters[name], IntegerConverter) else "a b/c"
        for name in rule.arguments
        if name not in (rule.defaults or {})
    }


def test_a_second_app_reuses_the_builders_and_builds_what_werkzeug_builds(
    tmp_path: Path,
) -> None:
    first = create_app({"DATABASE": str(tmp_path / "a.sqlite3"), "TESTING": True})
    second = create_app({"DATABASE": str(tmp_path / "b.sqlite3"), "TESTING": True})
    rules = list(second.url_map.iter_rules())
    assert rules and all(isinstance(rule, RuleWithSharedBuilders) for rule in rules)
    earlier = {rule.rule: rule for rule in first.url_map.iter_rules()}
    own = Map([Rule(rule.rule, endpoint=rule.endpoint, defaults=rule.defaults) for rule in rules])
    ours, theirs = second.url_map.bind("localhost"), own.bind("localhost")
    for rule in rules:
        assert rule._build.__func__ is earlier[rule.rule]._build.__func__  # type: ignore[attr-defined]
        values = sample(rule)
        assert ours.build(rule.endpoint, values) == theirs.build(rule.endpoint, values), rule
