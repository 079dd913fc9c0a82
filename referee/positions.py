"""Position strings to rules positions and back (the bridge between notation and rules)."""

from __future__ import annotations

import re
from functools import lru_cache

from notation.errors import NotationError
from notation.ids import from_gnubg_id, from_xgid, to_gnubg_id, to_xgid
from notation.positions import (
    CubeField,
    CubeOwner,
    PositionData,
    format_position,
    parse_position,
    validate_position,
)
from notation.positions import Phase as TextPhase
from referee.errors import InvalidNotationError, InvalidPositionError
from referee.rules.board import BAR, OFF, Board, Side
from referee.rules.position import Cube, Phase, Position
from referee.rules.variants import Variant, find_variant

_OWNERS = {CubeOwner.CENTRE: None, CubeOwner.WHITE: Side.WHITE, CubeOwner.BLACK: Side.BLACK}


def read_position(text: str) -> Position:
    """The position a position string describes; 422-class errors when it is malformed or
    impossible (every problem listed, like python-chess ``status()``)."""
    try:
        data = parse_position(text)
    except NotationError as error:
        raise InvalidNotationError(error.message, column=error.column) from None
    return position_from_data(validated(data))


def validated(data: PositionData) -> PositionData:
    """``data``, or InvalidPositionError listing every problem it has."""
    problems = validate_position(data)
    if problems:
        raise InvalidPositionError(
            "; ".join(problem.message for problem in problems),
            problems=[{"code": problem.code, "message": problem.message} for problem in problems],
        )
    return data


def position_from_data(data: PositionData) -> Position:
    variant = find_variant(data.variant)
    white = [0] * 26
    black = [0] * 26
    for index, count in enumerate(data.cells):
        point = index + 1
        if count > 0:
            white[point] = count
        elif count < 0:
            black[variant.opposite(point)] = -count
    white[BAR], black[BAR] = data.bar
    white[OFF], black[OFF] = data.off
    cube = None if data.cube is None else Cube(data.cube.value, _OWNERS[data.cube.owner])
    return Position(
        variant=variant,
        board=Board(tuple(white), tuple(black)),
        turn=None if data.turn is None else Side(data.turn),
        phase=Phase(str(data.phase)),
        dice=data.dice,
        resign=data.resign,
        cube=cube,
        match_length=data.match_length,
        score=data.score,
        crawford="c" in data.flags,
        post_crawford="p" in data.flags,
    )


def cells_of(variant: type[Variant], board: Board) -> tuple[int, ...]:
    """Points 1..24 in White's numbering: +n White checkers, -n Black."""
    return tuple(
        board.white[point] - board.black[variant.opposite(point)] for point in range(1, 25)
    )


@lru_cache(maxsize=4)
def write_position(position: Position) -> str:
    """The canonical position string of ``position`` (a replay writes each position twice,
    after one action and before the next: the second time comes from this small cache)."""
    board = position.board
    owner = {None: CubeOwner.CENTRE, Side.WHITE: CubeOwner.WHITE, Side.BLACK: CubeOwner.BLACK}
    cube = position.cube
    data = PositionData(
        variant=position.variant.id,
        cells=cells_of(position.variant, board),
        bar=(board.white[BAR], board.black[BAR]),
        off=(board.white[OFF], board.black[OFF]),
        turn=None if position.turn is None else str(position.turn),
        phase=TextPhase(str(position.phase)),
        dice=position.dice,
        resign=position.resign,
        cube=None if cube is None else CubeField(cube.value, owner[cube.owner]),
        match_length=position.match_length,
        score=position.score,
        flags=("c" if position.crawford else "") + ("p" if position.post_crawford else ""),
    )
    return format_position(data)


_GNUBG_ID = re.compile(r"^\s*(?:GNUbgID\s*)?[A-Za-z0-9+/]{14}:[A-Za-z0-9+/]{12}\s*$")


def read_any_position(text: str) -> PositionData:
    """A position string, a GNU Backgammon ``posid:matchid`` or an XGID, as plain data."""
    try:
        if "XGID=" in text or text.count(":") >= 9:
            data = from_xgid(text)
        elif _GNUBG_ID.match(text):
            data = from_gnubg_id(text)
        else:
            data = parse_position(text)
    except NotationError as error:
        raise InvalidNotationError(error.message, column=error.column) from None
    return validated(data)


def convert_position(text: str, to: str) -> tuple[str, str]:
    """(the position string, the position in notation ``to``) for any supported input."""
    data = read_any_position(text)
    position = format_position(data)
    try:
        if to == "gnubg":
            return position, to_gnubg_id(data)
        if to == "xgid":
            return position, to_xgid(data)
    except NotationError as error:
        raise InvalidNotationError(error.message) from None
    return position, position
