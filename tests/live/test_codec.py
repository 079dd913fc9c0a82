"""A live table saved and loaded again is the same table, at every step of whole matches
of all three variants (the live store keeps nothing else between two actions)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee.live.codec import table_from_json, table_json
from referee.live.table import Table
from tests.played import play


def reloaded(table: Table) -> Table:
    return table_from_json(json.loads(json.dumps(table_json(table))))


def assert_reloads(table: Table) -> None:
    again = reloaded(table)
    assert table_json(again) == table_json(table)
    facts = (table.to_act(), table.expect(), table.dice(), table.legal, table.position)
    assert (again.to_act(), again.expect(), again.dice(), again.legal, again.position) == facts


@pytest.mark.parametrize(
    ("variant", "length", "options"),
    [
        ("backgammon", 0, {"beavers": True, "auto_doubles": 2}),
        ("backgammon", 5, {}),
        ("long-nardy", 3, {"draw_rule": True}),
        ("khachapuri", 0, {"draw_rule": True, "draw_scoring": "at_finish"}),
    ],
)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_saved_table_loads_as_it_was(
    variant: str, length: int, options: dict[str, Any], seed: int
) -> None:
    seen: list[Table] = []

    def check(table: Table) -> None:
        assert_reloads(table)
        seen.append(table)

    play(variant, length, options, seed, 0.004, check)
    assert len(seen) > 10
