"""The tables the live service keeps between two changes: the table kept after a save is
the table its stored JSON loads as, at every step of whole matches of all three variants
(and after a timeout), and a kept table is used only for its very text and engine."""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee.live.codec import table_as_saved, table_from_json, table_json
from referee.live.kept import KeptTables
from referee.live.table import Action, Table
from referee.rules.engine import PYTHON
from tests.played import SeededDice, play


def loaded(table: Table) -> Table:
    return table_from_json(json.loads(json.dumps(table_json(table))), table.engine)


def facts(table: Table) -> dict[str, Any]:
    """What a table is (the text of its position aside: written when first asked for)."""
    return {name: value for name, value in vars(table).items() if name != "written"}


def assert_kept_as_loaded(table: Table) -> None:
    kept = table_as_saved(table, table_json(table))
    again = loaded(table)
    assert facts(kept) == facts(again)
    assert kept.position == again.position == table.position
    copy = kept.copy()
    assert facts(copy) == facts(kept)
    assert copy.legal is not kept.legal or kept.legal is None
    assert (copy.games is not kept.games, copy.acted is not kept.acted) == (True, True)


@pytest.mark.parametrize(
    ("variant", "length", "options"),
    [
        ("backgammon", 0, {"beavers": True, "auto_doubles": 2}),
        ("backgammon", 5, {"jacoby": False}),
        ("backgammon", 0, {"jacoby": True}),
        ("long-nardy", 3, {"draw_rule": True}),
        ("long-nardy", 0, {}),
        ("khachapuri", 0, {"draw_rule": True, "draw_scoring": "at_finish"}),
        ("khachapuri", 15, {}),
    ],
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_table_kept_after_a_save_is_the_table_its_json_loads_as(
    variant: str, length: int, options: dict[str, Any], seed: int
) -> None:
    seen: list[Table] = []

    def check(table: Table) -> None:
        assert_kept_as_loaded(table)
        seen.append(table)

    finished = play(variant, length, options, seed, 0.01, check)
    assert finished.finished and len(seen) > 10


@pytest.mark.parametrize("variant", ["backgammon", "long-nardy", "khachapuri"])
@pytest.mark.parametrize("length", [0, 5])
def test_a_table_kept_after_a_timeout_is_the_table_its_json_loads_as(
    variant: str, length: int
) -> None:
    dice = SeededDice(7)
    table = Table(variant, length, {})
    table.start_game(dice)
    for _ in range(3):
        side = table.to_act()
        assert side is not None
        play_now = Action.PLAY in table.expect()
        table.apply(
            side, Action.PLAY if play_now else Action.ROLL, dice, play=(table.legal or [""])[0]
        )
    table.time_out(dice)
    assert table.finished
    assert_kept_as_loaded(table)


def kept_table() -> tuple[Table, str]:
    table = play("backgammon", 0, {}, 5)
    state = table_json(table)
    return table_as_saved(table, state), json.dumps(state)


def test_a_kept_table_is_handed_out_as_a_copy_and_stays_as_kept() -> None:
    tables = KeptTables()
    table, text = kept_table()
    tables.keep(1, text, table)
    first = tables.table(1, text, table.engine)
    assert first is not table and facts(first) == facts(table)
    first.games.clear()
    first.acted.clear()
    assert facts(tables.table(1, text, table.engine)) == facts(table)


def test_another_text_or_engine_is_read_from_the_text() -> None:
    tables = KeptTables()
    table, text = kept_table()
    other = play("long-nardy", 3, {}, 9)
    other_text = json.dumps(table_json(other))
    tables.keep(1, other_text, table)  # a stale table kept under this text would show
    found = tables.table(1, text, table.engine)
    assert facts(found) == facts(loaded(table))
    assert tables.table(1, text, PYTHON).engine == PYTHON
    assert tables.kept[1][0] == text


def test_the_least_recently_used_match_is_dropped() -> None:
    tables = KeptTables(size=2)
    table, text = kept_table()
    for live_id in (1, 2, 3):
        tables.keep(live_id, text, table)
    tables.table(2, text, table.engine)
    tables.keep(4, text, table)
    assert list(tables.kept) == [2, 4]
