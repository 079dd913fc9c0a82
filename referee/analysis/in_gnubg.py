"""Run by gnubg's own Python (``load python``) after ``analyse match``, never imported by
the referee: every record of every game with gnubg's figures for it, written as JSON to
``analysis.json`` in gnubg's working directory (``referee.analysis.gnubg`` reads them),
with the mark of the record loaded (White's rating, ``gnubg.marked``).

Plays keep the played play's and the best play's equities (EMG, gnubg's ``score``), their
count, gnubg's marks and the opponent's blots before them (for the hits of the best play);
rolls their luck; cube decisions their no-double and double-take
equities made EMG as gnubg's statistics make them: a match's winning chances are turned
into equities by gnubg's own ``mwc2eq`` at the score and cube of the moment (gnubg's state
as it steps through the game), a money game's are already equities."""

from __future__ import annotations

import json
from typing import Any

import gnubg  # type: ignore[import-untyped, import-not-found, unused-ignore]

SIDES = {"X": 0, "O": 1}
"""gnubg's names of player 0 (the record's left column, White) and player 1."""


def cube_equities(analysis: dict[str, Any], state: dict[str, Any]) -> list[float] | None:
    """No double and double-take as EMG, or None when gnubg did not analyse the cube."""
    if "nd-cubeful-eq" not in analysis:
        return None
    no_double, double_take = analysis["nd-cubeful-eq"], analysis["dt-cubeful-eq"]
    if state["matchto"]:
        return [gnubg.mwc2eq(no_double, state), gnubg.mwc2eq(double_take, state)]
    return [no_double, double_take]


def described(entry: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    """One record: who, what, and gnubg's figures for it; ``state`` is gnubg's cube
    information before it, seen from the player whose cube decision it is."""
    kind = entry["action"]
    player = SIDES.get(entry.get("player", ""))
    analysis = entry.get("analysis") or {}
    blots = opponents_blots(player, state["move"]) if kind == "move" else []
    if player is not None:
        state["move"] = 1 - player if kind in ("take", "drop") else player
    moves = analysis.get("moves") or ()
    played = analysis.get("imove", len(moves))
    return {
        "kind": kind,
        "player": player,
        "dice": entry.get("dice"),
        "move": entry.get("move"),
        "choices": len(moves),
        "played_rank": played if played < len(moves) else None,
        "best": moves[0]["move"] if moves else None,
        "best_equity": moves[0]["score"] if moves else None,
        "played_equity": moves[played]["score"] if played < len(moves) else None,
        "skill": analysis.get("skill"),
        "cube_skill": analysis.get("cube-skill"),
        "luck": analysis.get("luck-value"),
        "luck_type": analysis.get("luck"),
        "cube": cube_equities(analysis, state),
        "blots": blots,
    }


def opponents_blots(player: int | None, on_roll: int) -> list[int]:
    """The points (the mover's numbering) where the mover's opponent has one checker, on
    gnubg's board before the move: its second half is the side on roll's, as gnubg keeps
    it, the first half his opponent's, each counted from its own side (index 0 its
    1-point)."""
    board = gnubg.board()
    opponent = board[0] if on_roll == player else board[1]
    return [24 - index for index in range(24) if opponent[index] == 1]


def main() -> None:
    match = gnubg.match(analysis=1, statistics=0, boards=0, verbose=0)
    games = []
    if match is None:  # gnubg loaded no match: the referee reports what gnubg said
        match = {"games": []}
    else:
        gnubg.navigate()
    for number, game in enumerate(match["games"]):
        if number:
            gnubg.navigate(game=1)
        records = []
        for entry in game["game"]:
            records.append(described(entry, gnubg.cubeinfo()))
            gnubg.navigate(next=1)
        games.append(records)
    mark = match.get("match-info", {}).get("X", {}).get("rating")
    with open("analysis.json", "w", encoding="utf-8") as output:
        json.dump({"mark": mark, "games": games}, output)


main()
