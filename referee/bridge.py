"""The bridge between notation data and rules objects: position strings, gnubg ids and
XGIDs to positions and back, a play's steps to written moves and text."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from notation.ids import from_gnubg_id, from_xgid, to_gnubg_id, to_xgid
from notation.plays import format_play
from notation.positions import (
    CubeField,
    PositionData,
    field_column,
    format_position,
    parse_position,
    validate_position,
)
from notation.records.snowie import SnowieBoard
from referee.errors import InvalidNotationError, InvalidPositionError
from referee.notation_errors import notation_errors
from referee.rules.board import Board, Step
from referee.rules.engine import CHOSEN, Engine
from referee.rules.movegen import display_order
from referee.rules.position import Cube, Position
from referee.rules.variants import Variant, find_variant
from vocabulary import BAR, CHECKERS, OFF, CubeOwner, Move, Phase, Side


def read_position(text: str, engine: Engine = CHOSEN) -> Position:
    """The position a position string describes; 422-class errors when it is malformed or
    impossible (every problem listed, like python-chess ``status()``). With the native
    engine its reader reads it (the same position and errors: tests/native), but for text
    it leaves to this one (not ASCII)."""
    native = engine.native
    answer = None if native is None else native.read_position(text)
    if answer is not None:
        return _natively_read(*answer)
    with notation_errors():
        data = parse_position(text)
    position = position_from_data(data)
    _require_valid(data, position, text)
    return position


_SIDES = {"w": Side.WHITE, "b": Side.BLACK}


def _natively_read(kind: str, found: Any) -> Position:
    """The native reader's answer (``nardy_native.read_position``) as ``read_position``'s."""
    if kind == "position":
        variant, white, black, turn, phase, dice, resign, cube, length, score, c, p = found
        return Position(
            find_variant(variant),
            Board(white, black),
            _SIDES.get(turn),
            Phase(phase),
            dice,
            resign,
            None if cube is None else Cube(cube[0], _SIDES.get(cube[1])),
            length,
            score,
            c,
            p,
        )
    if kind == "notation":
        message, column = found
        raise InvalidNotationError(message, **({} if column is None else {"column": column}))
    listed = [
        {"code": code, "message": message, **({} if field is None else {"column": column})}
        for code, message, field, column in found
    ]
    raise _refusal(listed)


def read_written_position(text: str) -> Position:
    """The position of a string the referee wrote itself (a live table's stored state):
    read without checking it again, which a position from outside needs (``read_position``)."""
    with notation_errors():
        return position_from_data(parse_position(text))


def validated(data: PositionData, text: str | None = None) -> PositionData:
    """``data``, or InvalidPositionError listing every problem it has, those of any position
    and those its variant forbids (with the column of the field at fault when the
    position's ``text`` is known)."""
    _require_valid(data, position_from_data(data), text)
    return data


def _require_valid(data: PositionData, position: Position, text: str | None) -> None:
    """InvalidPositionError unless ``data`` (read into ``position``) is a valid position."""
    forbidden = position.variant.position_problems(position.board, data.cube is not None)
    problems = validate_position(data) + forbidden
    if not problems:
        return
    listed: list[dict[str, object]] = []
    for problem in problems:
        entry: dict[str, object] = {"code": problem.code, "message": problem.message}
        if text is not None and problem.field is not None:
            entry["column"] = field_column(text, problem.field)
        listed.append(entry)
    raise _refusal(listed)


def _refusal(listed: list[dict[str, object]]) -> InvalidPositionError:
    """The error listing a position's problems (each a code, a message and maybe a column)."""
    return InvalidPositionError(
        "; ".join(str(entry["message"]) for entry in listed), problems=listed
    )


def position_from_data(data: PositionData) -> Position:
    variant = find_variant(data.variant)
    opposite = variant.opposite_table()
    white = [0] * 26
    black = [0] * 26
    for point, count in enumerate(data.cells, start=1):
        if count > 0:
            white[point] = count
        elif count < 0:
            black[opposite[point]] = -count
    white[BAR], black[BAR] = data.bar
    white[OFF], black[OFF] = data.off
    cube = None if data.cube is None else Cube(data.cube.value, data.cube.owner.side)
    return Position(
        variant=variant,
        board=Board(tuple(white), tuple(black)),
        turn=None if data.turn is None else Side(data.turn),
        phase=data.phase,
        dice=data.dice,
        resign=data.resign,
        cube=cube,
        match_length=data.match_length,
        score=data.score,
        crawford="c" in data.flags,
        post_crawford="p" in data.flags,
    )


def board_from_snowie(variant: type[Variant], snowie: SnowieBoard) -> Board:
    """The board a gnubg ``Illegal play (...)`` edit sets: the positive side is the
    record's first player (White, the left column) or its second (Black), as the cell says,
    whichever column the cell is in (as gnubg reads it). It is read into position data and
    validated like any position string (InvalidPositionError: too many checkers, a bar in a
    nardy variant...)."""
    white_view = snowie.positive_player == 0
    cells = [0] * 24
    for index, count in enumerate(snowie.points):
        point = index + 1 if white_view else variant.opposite(index + 1)
        cells[point - 1] = count if white_view else -count
    bars = (snowie.positive_bar, snowie.negative_bar)
    bar = bars if white_view else bars[::-1]
    on_board = (sum(c for c in cells if c > 0), -sum(c for c in cells if c < 0))
    off = tuple(max(0, CHECKERS - on_board[i] - bar[i]) for i in (0, 1))
    data = PositionData(variant.id, tuple(cells), bar, (off[0], off[1]), None, Phase.ROLL)
    return position_from_data(validated(data)).board


def cells_of(variant: type[Variant], board: Board) -> tuple[int, ...]:
    """Points 1..24 in White's numbering: +n White checkers, -n Black."""
    white, black, opposite = board.white, board.black, variant.opposite_table()
    return tuple(white[point] - black[opposite[point]] for point in range(1, 25))


@lru_cache(maxsize=4)
def write_position(position: Position) -> str:
    """The canonical position string of ``position`` (a replay writes each position twice,
    after one action and before the next: the second time comes from this small cache)."""
    board = position.board
    cube = position.cube
    data = PositionData(
        variant=position.variant.id,
        cells=cells_of(position.variant, board),
        bar=(board.white[BAR], board.black[BAR]),
        off=(board.white[OFF], board.black[OFF]),
        turn=None if position.turn is None else str(position.turn),
        phase=position.phase,
        dice=position.dice,
        resign=position.resign,
        cube=None if cube is None else CubeField(cube.value, CubeOwner.of(cube.owner)),
        match_length=position.match_length,
        score=position.score,
        flags=("c" if position.crawford else "") + ("p" if position.post_crawford else ""),
    )
    return format_position(data)


_GNUBG_ID = re.compile(r"^\s*(?:GNUbgID\s*)?[A-Za-z0-9+/]{14}:[A-Za-z0-9+/]{12}\s*$")


def read_any_position(text: str) -> PositionData:
    """A position string, a GNU Backgammon ``posid:matchid`` or an XGID, as plain data."""
    with notation_errors():
        if "XGID=" in text or text.count(":") >= 9:
            data = from_xgid(text)
        elif _GNUBG_ID.match(text):
            data = from_gnubg_id(text)
        else:
            data = parse_position(text)
    return validated(data)


def convert_position(text: str, to: str) -> tuple[str, str]:
    """(the position string, the position in notation ``to``) for any supported input."""
    data = read_any_position(text)
    position = format_position(data)
    with notation_errors():
        if to == "gnubg":
            return position, to_gnubg_id(data)
        if to == "xgid":
            return position, to_xgid(data)
    return position, position


def play_moves(steps: Sequence[Step], literal: bool = False) -> tuple[Move, ...]:
    """A play's steps as written moves: in canonical order, or, with ``literal`` (plays
    judged by sequence), in the order they were played, which is a legal order."""
    ordered = steps if literal else display_order(steps)
    return tuple(Move(s.from_point, s.to_point, s.hit) for s in ordered)


def play_text(steps: Sequence[Step], literal: bool = False) -> str:
    """The canonical text of a play's steps (no dice prefix)."""
    return format_play(play_moves(steps, literal))
