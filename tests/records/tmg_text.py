"""A match record written as TrueMoneyGames ``.tmg`` text, from the layout gnubg's
``import tmg`` reads (notation/records/tmg_reader.py says it): test data for the reader,
and for gnubg to import and compare."""

from __future__ import annotations

import re

from notation.records.mat_reader import read_mat
from notation.records.model import ActionKind, ActionText
from referee.adjudication import check_and_write

_RECORDS = {
    ActionKind.DOUBLE: "5 Double to {value}",
    ActionKind.TAKE: "7 Take",
    ActionKind.DROP: "10 Pass",
    ActionKind.WIN: "14 {value} {name} wins {value} points",
}


def tmg_of(mat: str) -> str:
    """The ``.tmg`` text of a backgammon ``.mat`` record (its canonical form: one part per
    die, numeric points); Player1 is the right (second) player, as gnubg reads it back."""
    record = read_mat(check_and_write(mat).canonical)
    players = tuple(re.sub(r"\s+", "_", name) for name in record.games[0].players)
    lines = ["MatchID: 1", f"Player1: 1 {players[1]} 1500", f"Player2: 2 {players[0]} 1500"]
    lines += [f"Length: {record.match_length or 0}", "Crawford: 1", "Jacoby: 0", ""]
    for game in record.games:
        left, right = game.score or (0, 0)
        lines.append(f"Game {game.number}: {right}-{left}")
        for move, action in enumerate(game.actions, start=1):
            name = players[0] if action.side == "w" else players[1]
            prefix = f"{'-' if action.side == 'w' else ''}{move} "
            lines += [prefix + text for text in _texts(action, name)]
        lines.append("")
    return "\n".join(lines)


def _texts(action: ActionText, name: str) -> list[str]:
    if action.kind is ActionKind.ROLL:
        assert action.dice is not None
        roll, _, play = action.text.partition(":")
        return [f"1 {roll}:", f"4 {play.strip() or '0/0'}"]
    return [_RECORDS[action.kind].format(value=action.value, name=name)]
