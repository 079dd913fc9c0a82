"""A record's board edits read into what its game goes on from: XG's ``Set Pos=`` line (a
board and a cube) and gnubg's ``NN: Illegal play (...)`` cell (a board); None for an edit
that cannot be read."""

from __future__ import annotations

from notation.errors import NotationError
from notation.records.set_pos import parse_set_pos
from notation.records.snowie import parse_snowie_cell
from referee.bridge import board_from_snowie, position_from_data, validated
from referee.errors import RefereeError
from referee.rules.board import Board
from referee.rules.position import Position
from referee.rules.variants import Variant


def set_pos_position(text: str, variant: type[Variant]) -> Position | None:
    """XG's ``Set Pos=`` line (XG writes backgammon only: one in another variant is
    unreadable)."""
    try:
        data = parse_set_pos(text)
        if data.variant != variant.id:
            return None
        return position_from_data(validated(data))
    except (NotationError, RefereeError):
        return None


def illegal_play_board(text: str, variant: type[Variant]) -> Board | None:
    """gnubg's edit in place of a play: the board its player's turn left."""
    try:
        return board_from_snowie(variant, parse_snowie_cell(text))
    except (NotationError, RefereeError):
        return None
