"""A Snowie position inside gnubg's ``NN: Illegal play (...)`` cell (FORMATS.md part 1 §4,
§7.20): a board edit in place of a play.

The parenthesis holds 40 ``;``-separated fields (a trailing ``;`` is allowed): 0 match
length, 1 Jacoby, 2-3 unused, 4 which player the points are written for, 5-6 names, 7
Crawford, 8-9 scores, 10 cube value, 11 cube owner, 12 the bar of the negative side, 13-36
points 1-24 from the positive side's view (``+n`` its checkers, ``-n`` the other side's), 37
the bar of the positive side, 38-39 dice.

Read as gnubg's ``import mat`` reads it (measured, ``tests/records/test_snowie_edits.py``):
field 4 names the record's players, not the cell's: 0, the positive side is the second
player (the right column); 1, the first (the left column), whichever column the cell is in.
Only the board is read: the names (in either order), Crawford, scores, cube and dice fields
may say anything; the roll is the cell's ``NN:``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from notation.errors import NotationError, echoed

FIELDS = 40
_CELL = re.compile(r"^(?:[1-6][1-6]:\s*)?illegal\s+play\s*\((?P<body>[^()]*)\)\s*$", re.IGNORECASE)
_NUMBER = re.compile(r"-?\d{1,2}")
_READ = (4, *range(12, 38))
"""The fields read: whose view, the bars and the points (the rest may say anything)."""


@dataclass(frozen=True, slots=True)
class SnowieBoard:
    """The board of a Snowie position, as written."""

    points: tuple[int, ...]
    """Points 1..24 from the positive side's view: +n its checkers, -n the other side's."""
    positive_bar: int
    negative_bar: int
    positive_player: int
    """The record's player the positive side is: 0 the first (left column), 1 the second
    (field 4 is 1 and 0)."""


def parse_snowie_cell(text: str) -> SnowieBoard:
    """The board of an ``Illegal play (...)`` cell, or NotationError saying what is wrong."""
    match = _CELL.match(text.strip())
    if match is None:
        message = f"cannot read {echoed(text, 60)} as 'Illegal play (...)'"
        raise NotationError("invalid_snowie", message)
    fields = [field.strip() for field in match["body"].split(";")]
    if len(fields) == FIELDS + 1 and not fields[-1]:
        fields.pop()
    if len(fields) != FIELDS:
        raise NotationError(
            "invalid_snowie", f"a Snowie position has {FIELDS} fields, this one {len(fields)}"
        )
    for index in _READ:
        if not _NUMBER.fullmatch(fields[index]):
            message = f"Snowie field {index} must be a number, not {echoed(fields[index])}"
            raise NotationError("invalid_snowie", message)
    if fields[4] not in ("0", "1"):
        message = f"Snowie field 4 must be 0 or 1, not {echoed(fields[4])}"
        raise NotationError("invalid_snowie", message)
    return SnowieBoard(
        points=tuple(int(field) for field in fields[13:37]),
        positive_bar=abs(int(fields[37])),
        negative_bar=abs(int(fields[12])),
        positive_player=0 if fields[4] == "1" else 1,
    )


def snowie_cell(dice: tuple[int, int], cells: tuple[int, ...], bar: tuple[int, int]) -> str:
    """gnubg's ``NN: Illegal play (...)`` cell setting ``cells`` (points 1..24 in White's
    numbering, +n White, -n Black) and ``bar`` (White's, Black's), written from White's
    view (field 4 = 1); only the fields ``parse_snowie_cell`` reads say anything."""
    fields = ["0", "0", "0", "0", "1", "White", "Black", "0", "0", "0", "1", "0"]
    fields += [str(bar[1]), *(str(count) for count in cells), str(bar[0])]
    fields += [str(dice[0]), str(dice[1])]
    return f"{dice[0]}{dice[1]}: Illegal play ({';'.join(fields)})"


def snowie_cells(board: SnowieBoard) -> tuple[tuple[int, ...], tuple[int, int]]:
    """The board of a Snowie position in White's numbering (+n White, -n Black) and the
    bars (White's, Black's), whichever side it was written for (backgammon's numbering)."""
    if board.positive_player == 0:
        return board.points, (board.positive_bar, board.negative_bar)
    cells = tuple(-count for count in reversed(board.points))
    return cells, (board.negative_bar, board.positive_bar)
