"""A match record written as FIBS ``oldmoves`` text, from the layout gnubg's ``import
oldmoves`` reads (notation/records/oldmoves_reader.py says it): test data for the reader,
and for gnubg to import and compare."""

from __future__ import annotations

import re

from notation.records.mat_reader import read_mat
from notation.records.model import ActionKind, ActionText
from referee.adjudication import check_and_write

DANCE = "can't move"
_WORDS = {
    ActionKind.DOUBLE: "doubles",
    ActionKind.TAKE: "accepts",
    ActionKind.DROP: "rejects",
    ActionKind.WIN: "wins {value} points",
}


def oldmoves_of(mat: str) -> str:
    """The oldmoves text of a backgammon ``.mat`` record (its canonical form): X is the
    left (first) player, plays in the mover's numbering with ``-``."""
    record = read_mat(check_and_write(mat).canonical)
    players = tuple(re.sub(r"\s+", "_", name) for name in record.games[0].players)
    length = record.match_length or 0
    lines = []
    for game in record.games:
        left, right = game.score or (0, 0)
        lines.append(f"Score is {left}-{right} in a {length} point match.")
        lines.append(f"{players[0]} is X - {players[1]} is O")
        lines += [
            f"{'X' if action.side == 'w' else 'O'}: {_text(action)}" for action in game.actions
        ]
        lines.append("")
    return "\n".join(lines)


def _text(action: ActionText) -> str:
    if action.kind is ActionKind.ROLL:
        assert action.dice is not None
        play = action.text.partition(":")[2].strip().replace("/", "-")
        return f"({action.dice[0]} {action.dice[1]}) {play or DANCE}"
    return _WORDS[action.kind].format(value=action.value)
