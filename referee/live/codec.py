"""A live table as JSON values and back: the compact state the live store keeps between
two actions (its size does not grow with the match: the record's entries go to the
match's log, ``entries_json``), and the log's entries.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, replace
from typing import Any

from notation.records.model import ActionKind
from referee.bridge import read_written_position, write_position
from referee.live.table import FinishedGame, GameStart, LiveAction, LogEntry, Table, rules_of
from referee.rules.board import Board
from referee.rules.cube import CubeState, Offer
from referee.rules.engine import CHOSEN, Engine
from referee.rules.flow import GameFlow
from referee.rules.match import MatchState
from referee.rules.position import Cube, Position
from vocabulary import Side


def table_json(table: Table) -> dict[str, Any]:
    """The table as JSON values."""
    flow, match = table.flow, table.match
    finish = None
    if flow.finish_board is not None:
        finish = write_position(replace(flow.position, board=flow.finish_board))
    return {
        "variant": table.variant,
        "length": table.length,
        "options": table.options,
        "position": table.position,
        "game": match.game,
        "score": list(match.score),
        "games": [asdict(game) for game in table.games],
        "last_action": None if table.last_action is None else entry_json(table.last_action),
        "game_actions": table.game_actions,
        "legal": table.legal,
        "cube": cube_state_json(flow.cube),
        "first_mover": _side_text(flow.first_mover),
        "extra_turn_for": _side_text(flow.extra_turn_for),
        "finish_position": finish,
        "crawford_game": match.crawford_game,
        "acted": [str(side) for side in table.acted],
        "winner": table.winner,
        "termination": table.termination,
    }


def table_from_json(data: dict[str, Any], engine: Engine = CHOSEN) -> Table:
    """The table ``table_json`` wrote, playing on ``engine``."""
    finish = data["finish_position"]
    finish_board = None if finish is None else read_written_position(finish).board
    return _restored(data, read_written_position(data["position"]), finish_board, engine)


def table_as_saved(table: Table, data: dict[str, Any]) -> Table:
    """``table`` as ``table_from_json`` loads what ``table_json`` wrote of it (``data``),
    its position and finish taken as they are rather than written and read again (a
    written position reads as the same position): what the live service keeps of a
    table it has saved."""
    saved = _restored(data, table.flow.position, table.flow.finish_board, table.engine)
    saved.written = (table.flow.position, data["position"])
    return saved


def _restored(
    data: dict[str, Any], position: Position, finish: Board | None, engine: Engine
) -> Table:
    variant_class, rules = rules_of(data["variant"], data["options"])
    length, winner = data["length"], data["winner"]
    match = MatchState(
        variant_class,
        rules,
        length,
        (data["score"][0], data["score"][1]),
        data["game"],
        data["crawford_game"],
        position.post_crawford,
        Side(winner) if winner and length else None,
    )
    flow = GameFlow(
        position,
        rules,
        cube_state(data["cube"]),
        match.crawford[0],
        _side(data["first_mover"]),
        _side(data["extra_turn_for"]),
        finish,
    )
    table = Table.resumed(match, flow, engine)
    last = data["last_action"]
    table.last_action = None if last is None else _action(last)
    table.game_actions = data["game_actions"]
    table.games = [FinishedGame(**game) for game in data["games"]]
    table.legal = None if data["legal"] is None else list(data["legal"])
    table.acted = [Side(side) for side in data["acted"]]
    table.termination = data["termination"]
    return table


def cube_state_json(state: CubeState) -> dict[str, Any]:
    """The rules' cube state (``referee.rules.cube``) as JSON values."""
    offer = state.offer
    return {
        "cube": _cube_json(state.cube),
        "offer": None
        if offer is None
        else {
            "standing": _cube_json(offer.standing),
            "value": offer.value,
            "by": str(offer.by),
            "roller": str(offer.roller),
            "redouble": offer.redouble,
        },
        "doubled": state.doubled,
    }


def cube_state(data: dict[str, Any]) -> CubeState:
    offer = data["offer"]
    return CubeState(
        _cube(data["cube"]),
        None
        if offer is None
        else Offer(
            _cube(offer["standing"]) or Cube(),
            offer["value"],
            Side(offer["by"]),
            Side(offer["roller"]),
            offer["redouble"],
        ),
        data["doubled"],
    )


def entries_json(entries: Iterable[LogEntry]) -> list[dict[str, Any]]:
    """Log entries as JSON values."""
    return [entry_json(entry) for entry in entries]


def entry_json(entry: LogEntry) -> dict[str, Any]:
    """One entry: a game's start (``kind`` ``game``) or an action."""
    if isinstance(entry, GameStart):
        return {
            "kind": "game",
            "game": entry.game,
            "score": list(entry.score),
            "start": entry.start,
        }
    data: dict[str, Any] = {"side": str(entry.side), "kind": str(entry.kind)}
    if entry.dice is not None:
        data["dice"] = list(entry.dice)
    if entry.play is not None:
        data["play"] = entry.play
    if entry.value is not None:
        data["value"] = entry.value
    return data


def entries_from_json(data: Iterable[dict[str, Any]]) -> list[LogEntry]:
    """The entries ``entries_json`` wrote."""
    return [
        GameStart(entry["game"], (entry["score"][0], entry["score"][1]), entry["start"])
        if entry["kind"] == "game"
        else _action(entry)
        for entry in data
    ]


def _action(entry: dict[str, Any]) -> LiveAction:
    return LiveAction(
        Side(entry["side"]),
        ActionKind(entry["kind"]),
        None if "dice" not in entry else (entry["dice"][0], entry["dice"][1]),
        entry.get("play"),
        entry.get("value"),
    )


def _cube_json(cube: Cube | None) -> list[Any] | None:
    return None if cube is None else [cube.value, _side_text(cube.owner)]


def _cube(data: list[Any] | None) -> Cube | None:
    return None if data is None else Cube(data[0], _side(data[1]))


def _side_text(side: Side | None) -> str | None:
    return None if side is None else str(side)


def _side(text: str | None) -> Side | None:
    return None if text is None else Side(text)
