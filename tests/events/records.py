"""Records of whole matches between named players, played at random on the live table
(the referee's own rules), for records events."""

from __future__ import annotations

import random
import re

from notation.records.mat_writer import write_mat
from notation.records.model import MatchText
from referee.live.record import game_texts
from referee.live.table import Action, Table, Use


def played_record(
    white: str, black: str, length: int = 1, seed: int = 0, variant: str = "backgammon"
) -> str:
    """A finished match of ``length`` points between ``white`` and ``black``, as a .mat."""
    rng = random.Random(seed)

    def dice(game: int, use: Use) -> tuple[int, int]:
        return rng.randint(1, 6), rng.randint(1, 6)

    table = Table(variant, length, {})
    table.start_game(dice)
    while not table.finished:
        side = table.to_act()
        assert side is not None
        if Action.PLAY in table.expect():
            table.apply(side, Action.PLAY, dice, play=rng.choice(table.legal or [""]))
        else:
            table.apply(side, Action.ROLL, dice)
    tags = {"Variation": table.variant_class.variation_tags[0].capitalize()}
    return write_mat(MatchText(tags, (), length, game_texts(table.noted, length, (white, black))))


def winner_of(record: str) -> str:
    """Who wins the record's match (its last ``Wins`` line's column)."""
    from referee.adjudication import adjudicate

    match = adjudicate(record).verdict.match
    assert match.winner is not None
    return match.players[0 if str(match.winner) == "w" else 1]


def spoiled(record: str) -> str:
    """The record with its first play made illegal (``24/1``): an invalid record."""
    spoilt, count = re.subn(
        r"(\n +\d+\) +\d\d: )([^\n]*?)( {2,}|\n)", r"\g<1>24/1\3", record, count=1
    )
    assert count == 1
    return spoilt


def cut(record: str) -> str:
    """The record cut after the first game's fourth move: valid, short of the match's end."""
    lines = record.splitlines()
    fifth = next(at for at, line in enumerate(lines) if line.startswith("  5)"))
    return "\n".join(lines[:fifth]) + "\n"
