"""Matches and money sessions played at random by the live table (seeded dice, random
legal choices, the odd double, beaver, drop and resignation), and written as records: data
of all three variants that no writer of the corpus produced."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from notation.records.mat_writer import write_mat
from notation.records.model import GameText, MatchText
from referee.live.record import game_texts
from referee.live.table import Action, Table, Use

PLAYERS = ("Alice", "Bob")
RESIGN_VALUES = {"backgammon": (1, 2, 3), "long-nardy": (1, 2), "khachapuri": (1, 7, 14, 30)}


class SeededDice:
    """Throws from a seeded generator."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def __call__(self, game: int, use: Use) -> tuple[int, int]:
        return self.rng.randint(1, 6), self.rng.randint(1, 6)


def choice(table: Table, rng: random.Random, resign_rate: float = 0.0) -> tuple[Action, Any]:
    """A random allowed action and its details."""
    expect = table.expect()
    if Action.RESIGN in expect and rng.random() < resign_rate:
        return Action.RESIGN, {"value": rng.choice(RESIGN_VALUES[table.variant])}
    if Action.PLAY in expect:
        return Action.PLAY, {"play": rng.choice(table.legal or [""])}
    if Action.BEAVER in expect and rng.random() < 0.3:
        return Action.BEAVER, {}
    if Action.TAKE in expect:
        return (Action.TAKE if rng.random() < 0.7 else Action.DROP), {}
    if Action.DOUBLE in expect and rng.random() < 0.1:
        return Action.DOUBLE, {}
    return Action.ROLL, {}


def play(
    variant: str,
    length: int,
    options: dict[str, Any],
    seed: int,
    resign_rate: float = 0.0,
    each_step: Callable[[Table], None] | None = None,
) -> Table:
    """A whole match (or one money game) played at random; ``each_step`` sees the table
    before every action and at the end."""
    rng, dice = random.Random(seed), SeededDice(seed)
    table = Table(variant, length, options)
    table.start_game(dice)
    while not table.finished:
        if each_step is not None:
            each_step(table)
        side = table.to_act()
        assert side is not None
        action, details = choice(table, rng, resign_rate)
        table.apply(side, action, dice, **details)
    if each_step is not None:
        each_step(table)
    return table


def match_record(variant: str, length: int, options: dict[str, Any], seed: int) -> str:
    """A match played at random, as a record."""
    table = play(variant, length, options, seed, resign_rate=0.004)
    games = game_texts(table.noted, table.length, PLAYERS)
    return write_mat(MatchText(_tags(variant, table), (), length, games))


def money_session(variant: str, games: int, options: dict[str, Any], seed: int) -> str:
    """A money session of ``games`` games played at random, score lines carrying the
    session's running score."""
    written: list[GameText] = []
    score = (0, 0)
    table = None
    for number in range(1, games + 1):
        table = play(variant, 0, options, seed * 1000 + number, resign_rate=0.004)
        (game,) = game_texts(table.noted, table.length, PLAYERS)
        written.append(GameText(number, number, 0, PLAYERS, score, game.actions, game.start))
        points = table.games[0].points
        winner = table.games[0].winner
        score = (
            score[0] + (points if winner == "w" else 0),
            score[1] + (points if winner == "b" else 0),
        )
    assert table is not None
    return write_mat(MatchText(_tags(variant, table), (), 0, tuple(written)))


def _tags(variant: str, table: Table) -> dict[str, str]:
    rules = ",".join(f"{k}={str(v).lower()}" for k, v in table.options.items())
    return {"Variation": table.variant_class.variation_tags[0].capitalize(), "Rules": rules}


def sessions() -> Iterator[tuple[str, str]]:
    """(name, record) of generated data in every variant: money sessions and matches."""
    yield "backgammon money", money_session("backgammon", 40, {"beavers": True}, 1)
    yield "backgammon money jacoby", money_session("backgammon", 20, {"jacoby": True}, 2)
    yield "long-nardy money", money_session("long-nardy", 25, {}, 3)
    yield "khachapuri money", money_session("khachapuri", 25, {"draw_rule": True}, 4)
    yield "backgammon 7", match_record("backgammon", 7, {}, 5)
    yield "long-nardy 5", match_record("long-nardy", 5, {"draw_rule": True}, 6)
    yield "khachapuri 31", match_record("khachapuri", 31, {}, 7)
