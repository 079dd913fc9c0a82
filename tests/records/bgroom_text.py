"""A match record written as BGRoom ``.bgf`` text, from the layout gnubg's ``import
bgroom`` reads (notation/records/bgroom_reader.py says it): test data for the reader, and
for gnubg to import and compare. Only what BGRoom can say is written: rolls and plays,
doubles and their answers; the end of a game is a blank line."""

from __future__ import annotations

import re

from notation.records.mat_reader import read_mat
from notation.records.model import ActionKind
from referee.adjudication import check_and_write


def bgroom_of(mat: str) -> str:
    """The ``.bgf`` text of a backgammon ``.mat`` record (its canonical form); the left
    player is X. Takes are left out (BGRoom implies them), drops are the blank line, and
    so is a resignation (after the last play, or the last roll, which is left out)."""
    record = read_mat(check_and_write(mat).canonical)
    players = tuple(re.sub(r"\s+", "_", name) for name in record.games[0].players)
    lines = ["BGRoom record", "BGF version 1.0", ""]
    for game in record.games:
        lines += [f"Game {game.number} - {players[0]} (X) vs. {players[1]}", "Single game"]
        number = 0
        for index, action in enumerate(game.actions):
            after = {later.kind for later in game.actions[index + 1 :]}
            mark = "X" if action.side == "w" else "0"
            if action.text.endswith(":") and after <= {ActionKind.WIN}:
                continue  # a roll before a resignation: nothing BGRoom can say
            if action.kind is ActionKind.ROLL:
                assert action.dice is not None
                play = action.text.partition(":")[2].strip() or "can't move"
                text = f"({action.dice[0]} {action.dice[1]}) {play}"
            elif action.kind is ActionKind.DOUBLE:
                text = "Double"
            else:
                continue
            number += 1
            lines.append(f"{number}.{mark}:{text}")
        lines.append("")
    return "\n".join([*lines, "Win the Match", ""])
