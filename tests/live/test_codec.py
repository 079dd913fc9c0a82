"""A live table saved and loaded again is the same table, at every step of whole matches
of all three variants (the live store keeps nothing else between two actions)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from referee.live.codec import table_from_json, table_json
from referee.live.table import Action, Table, Use


class SeededDice:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def __call__(self, game: int, use: Use) -> tuple[int, int]:
        return self.rng.randint(1, 6), self.rng.randint(1, 6)


def reloaded(table: Table) -> Table:
    return table_from_json(json.loads(json.dumps(table_json(table))))


def facts(table: Table) -> tuple[Any, ...]:
    return (table.to_act(), table.expect(), table.dice(), table.legal, table.position)


def choose(table: Table, rng: random.Random) -> tuple[Action, dict[str, Any]]:
    expect = table.expect()
    if Action.PLAY in expect:
        return Action.PLAY, {"play": rng.choice(table.legal or [""])}
    if Action.BEAVER in expect and rng.random() < 0.3:
        return Action.BEAVER, {}
    if Action.TAKE in expect:
        return (Action.TAKE if rng.random() < 0.7 else Action.DROP), {}
    if Action.DOUBLE in expect and rng.random() < 0.1:
        return Action.DOUBLE, {}
    return Action.ROLL, {}


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
    rng, dice = random.Random(seed), SeededDice(seed)
    table = Table(variant, length, options)
    table.start_game(dice)
    steps = 0
    while not table.finished:
        again = reloaded(table)
        assert table_json(again) == table_json(table)
        assert facts(again) == facts(table)
        side = table.to_act()
        assert side is not None
        action, details = choose(table, rng)
        table.apply(side, action, dice, **details)
        steps += 1
    assert steps > 10 and table_json(reloaded(table)) == table_json(table)
