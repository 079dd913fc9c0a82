"""A match record written as GamesGrid ``.sgg`` text, from the layout gnubg's ``import
sgg`` reads (notation/records/sgg_reader.py says it): test data for the reader, and for
gnubg to import and compare."""

from __future__ import annotations

import re

from notation.records.mat_reader import read_mat
from notation.records.model import ActionKind, ActionText
from referee.adjudication import check_and_write

_WORDS = {ActionKind.DOUBLE: "double", ActionKind.TAKE: "accept", ActionKind.DROP: "pass"}


def sgg_of(mat: str) -> str:
    """The ``.sgg`` text of a backgammon ``.mat`` record (its canonical form); the right
    player is named first (gnubg swaps the players back); each roll written twice (the
    roll, then with its play) but a dance; a resignation as ``resign`` before the result."""
    written = check_and_write(mat)
    record = read_mat(written.canonical)
    ends = [game["termination"] for game in written.verdict.to_json()["games"]]
    left, right = (re.sub(r"\s+", "_", name) for name in record.games[0].players)
    lines = [f"{right} vs. {left}", "Crawford: Yes", "Jacoby: No"]  # gnubg reads no other line here
    for game, end in zip(record.games, ends, strict=True):
        score = game.score or (0, 0)
        lines.append(f"Game {game.number}. {score[1]}-{score[0]}/{record.match_length or 0}")
        for move, action in enumerate(game.actions, start=1):
            prefix = f"{move}\t" + ("\t" if action.side == "w" else "")
            if action.kind is ActionKind.WIN:
                if end == "resign":
                    lines.append(f"{move}\t" + ("" if action.side == "w" else "\t") + "resign")
                winner = left if action.side == "w" else right
                lines.append(f"{winner} wins {action.value} points.")
            else:
                lines += [prefix + text for text in _texts(action)]
        lines.append("")
    return "\n".join(lines)


def _texts(action: ActionText) -> list[str]:
    if action.kind is ActionKind.ROLL:
        roll, _, play = action.text.partition(":")
        if not play.strip():  # a dance, written once (gnubg drops an O-O after its roll)
            return [f"{roll}: O-O"]
        return [f"{roll}:", f"{roll}: {', '.join(play.split())}"]
    return [_WORDS[action.kind]]
