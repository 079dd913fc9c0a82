"""A match record written as a PartyGammon ``.gam``, from the layout gnubg's ``import
party`` reads (notation/records/party_reader.py says it): test data for the reader."""

from __future__ import annotations

from notation.records.mat_reader import read_mat
from notation.records.model import ActionKind, ActionText
from referee.adjudication import check_and_write

_WORDS = {ActionKind.DOUBLE: "Double", ActionKind.TAKE: "Take", ActionKind.DROP: "Drop"}


def party_of(mat: str) -> str:
    """The ``.gam`` text of a backgammon ``.mat`` record (its canonical form), each game's
    scores after it as the referee's verdict counts them."""
    written = check_and_write(mat)
    record = read_mat(written.canonical)
    after = written.verdict.to_json()["match"]["scores_after"]
    lines = [f"MATCHLENGTH={record.match_length or 0}"]
    for number, (game, scores) in enumerate(zip(record.games, after, strict=True), start=1):
        actions = "#".join(
            _token(action) for action in game.actions if action.kind in (ActionKind.ROLL, *_WORDS)
        )
        lines += [
            f"GAME_{number}_PLAYER_1={game.players[0]}",
            f"GAME_{number}_PLAYER_2={game.players[1]}",
            f"GAME_{number}_GAMEPLAY={actions}",
            f"GAME_{number}_SCORE1={scores[0]}",
            f"GAME_{number}_SCORE2={scores[1]}",
        ]
    return "\n".join(lines) + "\n"


def _token(action: ActionText) -> str:
    player = "1" if action.side == "w" else "2"
    if action.kind is ActionKind.ROLL:
        roll, _, play = action.text.partition(":")
        return f"{player} 0 0 {roll} {play.strip()}".rstrip()
    return f"{player} {_WORDS[action.kind]}"
