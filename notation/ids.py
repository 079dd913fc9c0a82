"""GNU Backgammon Position ID / Match ID and eXtreme Gammon XGID (FORMATS.md part 2 §1-§3).

These identifiers exist for backgammon only; they convert to and from ``PositionData``.

Orientation. White = gnubg player 0 = the XGID's *top* player; Black = gnubg player 1 = the
XGID's *bottom* player (X1, the start position with the bottom player to roll, is gnubg's
``...:cAkAAAAAAAAE``, player 1 on roll). gnubg's board arrays are relative to the player on
roll (``fMove``, Match ID bit 6): the side in ``turn``, except that while a double or a
resignation is pending ``turn`` is the side that must answer and the player on roll is the
other one (gnubg: ``fTurn = !fMove``). With ``turn`` = None White counts as on roll.

What the identifiers cannot carry, and what this module does about it:

* gnubg Match ID: ``turn`` None is game state 0 (before the opening roll, phase ROLL) or 2
  (game over, phase END); states 3 and 4 (resigned, dropped) also read as END, and a pending
  resignation's dice are dropped (``PositionData`` has dice only to move). A missing
  cube (``-``) is written as a centred 1-cube. The Jacoby bit (bit 66) is only in
  ``MatchIdFields``: ``PositionData`` has no place for it.
* XGID: no resignation, no "before the opening roll" or "game over" (NotationError
  ``unsupported_position``). Jacoby, beavers and the max cube are dropped when read, except
  that max cube 0 (cubeless) is cube None; written, max cube is 10 (XG's default), 0 without
  a cube.
* Both: post-Crawford (``p``) is not stored; like gnubg it is inferred when a score is
  length - 1 and the game is not the Crawford game (not in a 1-point match).

Reading checks syntax and field ranges only; ``validate_position`` judges the result (scores
against the match length, a double without a cube, ...), as for a position string.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass, replace
from typing import Final

from notation.errors import NotationError, echoed
from notation.positions import CubeField, PositionData
from vocabulary import CHECKERS, CubeOwner, Phase, VariantId

Board = tuple[tuple[int, ...], tuple[int, ...]]
"""gnubg's ``TanBoard``: (player not on roll, player on roll), 25 counts each; index 0..23 =
that player's own points 1..24, index 24 = his bar."""

_SIDES: Final = "wb"
_OWNER_CODES: Final = {CubeOwner.WHITE: 0, CubeOwner.BLACK: 1, CubeOwner.CENTRE: 3}
_CODE_OWNERS: Final = {code: owner for owner, code in _OWNER_CODES.items()}
_XG_OWNERS: Final = {CubeOwner.WHITE: -1, CubeOwner.CENTRE: 0, CubeOwner.BLACK: 1}
_XG_OWNER_OF: Final = {code: owner for owner, code in _XG_OWNERS.items()}
_MATCH_FIELDS: Final = (
    ("log2 of the cube", 4),
    ("cube owner", 2),
    ("player on roll", 1),
    ("Crawford", 1),
    ("game state", 3),
    ("turn", 1),
    ("double offered", 1),
    ("resignation", 2),
    ("die 1", 3),
    ("die 2", 3),
    ("match length", 15),
    ("score of player 0", 15),
    ("score of player 1", 15),
    ("not Jacoby", 1),
)
"""The Match ID's bit fields, least significant first (FORMATS.md part 2 §2)."""
_BASE64: Final = re.compile(r"[A-Za-z0-9+/]*")
_XG_POSITION: Final = re.compile(r"[-a-p][-A-Pa-p]{24}[-A-P]")
_XG_INT: Final = re.compile(r"-?\d{1,5}")


@dataclass(frozen=True, slots=True)
class MatchIdFields:
    """A decoded Match ID, field by field; players are 0 (White) and 1 (Black).

    ``cube_owner`` 3 = centred. ``dice_owner`` is the player on roll (gnubg ``fMove``),
    ``turn`` the player who must act now (``fTurn``). ``dice`` (0, 0) = not rolled.
    ``jacoby`` is gnubg's reading of bit 66 (``!bit``), so IDs written before that bit
    existed, such as the manual's, read as Jacoby on.
    """

    cube_value: int
    cube_owner: int
    dice_owner: int
    crawford: bool
    game_state: int
    turn: int
    doubled: bool
    resign: int
    dice: tuple[int, int]
    match_length: int
    score: tuple[int, int]
    jacoby: bool


def encode_position_id(data: PositionData) -> str:
    """The 14-character Position ID of the board, from the player on roll's side."""
    white, black = _own_points(data)
    mover = _on_roll(data)
    board = (black, white) if mover == 0 else (white, black)
    key, bit = 0, 0
    for count in board[0] + board[1]:
        key |= ((1 << count) - 1) << bit
        bit += count + 1
    return base64.b64encode(key.to_bytes(10, "little")).decode()[:14]


def decode_position_id(text: str) -> Board:
    """The two board arrays of a Position ID; at most 15 checkers a side."""
    key = int.from_bytes(_unbase64(text, 14, "Position ID", "invalid_position_id"), "little")
    arrays = [[0] * 25, [0] * 25]
    point = 0
    for bit in range(80):
        if not key >> bit & 1:
            point += 1
        elif point >= 50:
            message = f"{echoed(text)} has checkers after point 50"
            raise NotationError("invalid_position_id", message)
        else:
            arrays[point // 25][point % 25] += 1
    if point < 50 or max(sum(arrays[0]), sum(arrays[1])) > CHECKERS:
        message = f"{echoed(text)} has more than 15 checkers a side"
        raise NotationError("invalid_position_id", message)
    return tuple(arrays[0]), tuple(arrays[1])


def encode_match_id(data: PositionData, jacoby: bool = False) -> str:
    """The 12-character Match ID; bit 66 = not ``jacoby``, as current gnubg writes."""
    _own_points(data)
    cube = data.cube or CubeField(1, CubeOwner.CENTRE)
    dice = data.dice or (0, 0)
    values = (
        _cube_log(cube, data.phase),
        _OWNER_CODES[cube.owner],
        _on_roll(data),
        "c" in data.flags,
        2 if data.phase is Phase.END else 0 if data.turn is None else 1,
        _on_roll(data) if data.turn is None else _SIDES.index(data.turn),
        data.phase is Phase.DOUBLED,
        data.resign if data.phase is Phase.RESIGN else 0,
        max(dice),
        min(dice),
        data.match_length,
        *data.score,
        not jacoby,
    )
    key, bit = 0, 0
    for value, (name, width) in zip(values, _MATCH_FIELDS, strict=True):
        if not 0 <= value < 1 << width:
            raise NotationError("invalid_position", f"{name} {value} does not fit a Match ID")
        key |= int(value) << bit
        bit += width
    return base64.b64encode(key.to_bytes(9, "little")).decode()


def decode_match_id(text: str) -> MatchIdFields:
    """The fields of a Match ID; impossible values (cube owner 2, die 7, ...) are errors."""
    key = int.from_bytes(_unbase64(text, 12, "Match ID", "invalid_match_id"), "little")
    values = []
    for _name, width in _MATCH_FIELDS:
        values.append(key & ((1 << width) - 1))
        key >>= width
    (cube, owner, mover, crawford, state, turn, doubled, resign, die1, die2, length, *rest) = values
    score0, score1, not_jacoby = rest
    if owner == 2 or state > 4 or max(die1, die2) > 6 or (die1 == 0) != (die2 == 0):
        raise NotationError(
            "invalid_match_id",
            f"Match ID {echoed(text)} has an impossible field (cube owner {owner}, game state"
            f" {state}, dice {die1} and {die2})",
        )
    return MatchIdFields(
        1 << cube,
        owner,
        mover,
        bool(crawford),
        state,
        turn,
        bool(doubled),
        resign,
        (die1, die2),
        length,
        (score0, score1),
        not not_jacoby,
    )


def to_gnubg_id(data: PositionData, jacoby: bool = False) -> str:
    """``<Position ID>:<Match ID>``, as gnubg's ``set gnubgid`` reads it."""
    return f"{encode_position_id(data)}:{encode_match_id(data, jacoby)}"


def from_gnubg_id(text: str) -> PositionData:
    """Read ``[GNUbgID] <Position ID>:<Match ID>``; the Jacoby bit is dropped."""
    body = text.strip()
    if body[:7].lower() == "gnubgid":
        body = body[7:].lstrip(" :=")
    position_id, colon, match_id = body.partition(":")
    if not colon:
        raise NotationError("invalid_gnubg_id", f"{echoed(text)} is not <Position ID>:<Match ID>")
    board = decode_position_id(position_id.strip())
    fields = decode_match_id(match_id.strip())
    white, black = (board[1], board[0]) if fields.dice_owner == 0 else board
    cells = []
    for index in range(24):
        if white[index] and black[23 - index]:
            raise NotationError(
                "invalid_gnubg_id", f"both sides have checkers on White's point {index + 1}"
            )
        cells.append(white[index] - black[23 - index])
    turn, phase, dice = _gnubg_state(fields)
    position = PositionData(
        variant=VariantId.BACKGAMMON,
        cells=tuple(cells),
        bar=(white[24], black[24]),
        off=(0, 0),
        turn=turn,
        phase=phase,
        dice=dice,
        resign=fields.resign if phase is Phase.RESIGN else 0,
        cube=_cube_read(fields.cube_value.bit_length() - 1, _CODE_OWNERS[fields.cube_owner], phase),
        match_length=fields.match_length,
        score=fields.score,
        flags="c" if fields.crawford else "",
    )
    return _completed(position, "invalid_gnubg_id")


def to_xgid(data: PositionData, *, jacoby: bool = False, beavers: bool = False) -> str:
    """The XGID; ``jacoby`` and ``beavers`` fill the rules field of a money game."""
    _own_points(data)
    if data.turn is None or data.phase in (Phase.RESIGN, Phase.END):
        raise NotationError(
            "unsupported_position",
            "an XGID needs a side to act and has no resignation, game over or opening state",
        )
    doubled = data.phase is Phase.DOUBLED
    mover = _other(data.turn) if doubled else data.turn
    dice = "D" if doubled else "".join(str(die) for die in sorted(data.dice or (0, 0))[::-1])
    cells = "".join(
        _xg_letter(abs(count), "a" if count > 0 else "A") for count in reversed(data.cells)
    )
    cube = data.cube
    rules = int("c" in data.flags) if data.match_length else int(jacoby) + 2 * int(beavers)
    fields = (
        _xg_letter(data.bar[0], "a") + cells + _xg_letter(data.bar[1], "A"),
        0 if cube is None else _cube_log(cube, data.phase),
        0 if cube is None else _XG_OWNERS[cube.owner],
        1 if mover == "b" else -1,
        dice,
        data.score[1],
        data.score[0],
        rules,
        data.match_length,
        0 if cube is None else 10,
    )
    return "XGID=" + ":".join(str(field) for field in fields)


def from_xgid(text: str) -> PositionData:
    """Read an XGID (the ``XGID=`` prefix is optional); see the module note on what is lost."""
    body = text.strip()
    if body[:5].upper() == "XGID=":
        body = body[5:]
    fields = body.split(":")
    if len(fields) != 10:
        message = f"an XGID has 10 ':'-separated fields, not {echoed(text)}"
        raise NotationError("invalid_xgid", message)
    squares, cube_text, owner_text, turn_text, dice_text, *numbers = fields
    if not _XG_POSITION.fullmatch(squares):
        raise NotationError(
            "invalid_xgid",
            f"XGID position {echoed(squares)} must be 26 of - A-P a-p (bar 0 top, bar 25 bottom)",
        )
    cube = _xg_int(cube_text, "cube", range(16))
    owner = _xg_int(owner_text, "cube position", range(-1, 2))
    turn = "b" if _xg_int(turn_text, "turn", (-1, 1)) == 1 else "w"
    bottom = _xg_int(numbers[0], "bottom score", range(1 << 15))
    top = _xg_int(numbers[1], "top score", range(1 << 15))
    length = _xg_int(numbers[3], "match length", range(1 << 15))
    max_cube = _xg_int(numbers[4], "max cube", range(1 << 15))
    rules = _xg_int(numbers[2], "rules", range(2) if length else range(4))
    if not re.fullmatch(r"D|00|[1-6][1-6]", dice_text):
        message = f"XGID dice must be 00, D or 11..66, not {echoed(dice_text)}"
        raise NotationError("invalid_xgid", message)
    phase = {"D": Phase.DOUBLED, "00": Phase.ROLL}.get(dice_text, Phase.MOVE)
    counts = [0 if letter == "-" else ord(letter.lower()) - ord("a") + 1 for letter in squares]
    signed = [
        -count if letter.isupper() else count for count, letter in zip(counts, squares, strict=True)
    ]
    position = PositionData(
        variant=VariantId.BACKGAMMON,
        cells=tuple(signed[24 - index] for index in range(24)),
        bar=(counts[0], counts[25]),
        off=(0, 0),
        turn=_other(turn) if phase is Phase.DOUBLED else turn,
        phase=phase,
        dice=(int(max(dice_text)), int(min(dice_text))) if phase is Phase.MOVE else None,
        cube=None if max_cube == 0 else _cube_read(cube, _XG_OWNER_OF[owner], phase),
        match_length=length,
        score=(top, bottom),
        flags="c" if length and rules == 1 else "",
    )
    return _completed(position, "invalid_xgid")


def _own_points(data: PositionData) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """White's and Black's checkers on their own points 1..24, then the bar (gnubg arrays).

    Black's own point p is White's 25 - p. Raises for another variant or > 15 a side.
    """
    if data.variant != VariantId.BACKGAMMON:
        raise NotationError(
            "unsupported_variant", f"GNUbg IDs and XGIDs exist for backgammon, not {data.variant}"
        )
    white = (*(max(count, 0) for count in data.cells), data.bar[0])
    black = (*(max(-count, 0) for count in reversed(data.cells)), data.bar[1])
    for name, points in (("White", white), ("Black", black)):
        if sum(points) > CHECKERS:
            raise NotationError("invalid_position", f"{name} has {sum(points)} checkers")
    return white, black


def _on_roll(data: PositionData) -> int:
    """gnubg's ``fMove``: 0 White, 1 Black (see the module note)."""
    if data.turn is None:
        return 0
    pending = data.phase in (Phase.DOUBLED, Phase.RESIGN)
    return _SIDES.index(_other(data.turn) if pending else data.turn)


def _gnubg_state(fields: MatchIdFields) -> tuple[str | None, Phase, tuple[int, int] | None]:
    """``turn``, phase and dice of a decoded Match ID; rejects contradictory fields."""
    if fields.game_state != 1:
        return None, (Phase.ROLL if fields.game_state == 0 else Phase.END), None
    turn = _SIDES[fields.turn]
    if fields.doubled:
        if any(fields.dice) or fields.turn == fields.dice_owner:
            raise NotationError(
                "invalid_match_id",
                "a Match ID's double is offered before rolling, to the other player",
            )
        return turn, Phase.DOUBLED, None
    if fields.resign:
        return turn, Phase.RESIGN, None
    if fields.turn != fields.dice_owner:
        raise NotationError("invalid_match_id", "a Match ID's turn passes only for an offer")
    if any(fields.dice):
        return turn, Phase.MOVE, (max(fields.dice), min(fields.dice))
    return turn, Phase.ROLL, None


def _completed(position: PositionData, code: str) -> PositionData:
    """Fill in off = 15 - board - bar (more is an error ``code``) and infer ``p`` as gnubg does."""
    off = []
    for index, (name, sign) in enumerate((("White", 1), ("Black", -1))):
        on_board = sum(count * sign for count in position.cells if count * sign > 0)
        left = CHECKERS - on_board - position.bar[index]
        if left < 0:
            raise NotationError(code, f"{name} has {CHECKERS - left} checkers; a side has 15")
        off.append(left)
    length, score = position.match_length, position.score
    post = not position.flags and length > 1 and length - 1 in score
    return replace(position, off=(off[0], off[1]), flags="p" if post else position.flags)


def _unbase64(text: str, length: int, what: str, code: str) -> bytes:
    """The bytes of an unpadded Base64 id; rejects other characters and stray low bits."""
    if len(text) != length or not _BASE64.fullmatch(text):
        raise NotationError(code, f"a {what} is {length} Base64 characters, not {echoed(text)}")
    raw = base64.b64decode(text + "=" * (-length % 4))
    if base64.b64encode(raw).decode().rstrip("=") != text:
        raise NotationError(code, f"{what} {echoed(text)} has bits set after its last byte")
    return raw


def _cube_log(cube: CubeField, phase: Phase) -> int:
    """log2 of the cube as both formats store it (1 to 2^15): the value before a pending
    double, where the position string holds the value offered (NOTATION.md §1)."""
    value = cube.value // 2 if phase is Phase.DOUBLED else cube.value
    log = value.bit_length() - 1
    if value != 1 << max(log, 0) or log > 15 or value < 1:
        raise NotationError("invalid_position", f"cube value {cube.value} does not fit the id")
    return log


def _cube_read(log: int, owner: CubeOwner, phase: Phase) -> CubeField:
    """The cube field for a stored exponent: the value offered while a double is pending."""
    return CubeField((1 << log) * (2 if phase is Phase.DOUBLED else 1), owner)


def _xg_int(text: str, name: str, allowed: range | tuple[int, ...]) -> int:
    """An integer XGID field, which must be one of ``allowed``."""
    if not _XG_INT.fullmatch(text) or int(text) not in allowed:
        raise NotationError("invalid_xgid", f"XGID {name} field {echoed(text)} is out of range")
    return int(text)


def _xg_letter(count: int, one: str) -> str:
    """An XGID square: ``-`` or ``one`` (``a`` top, ``A`` bottom) advanced to ``count``."""
    return "-" if count == 0 else chr(ord(one) + count - 1)


def _other(side: str) -> str:
    """The opponent of ``w`` or ``b``."""
    return "b" if side == "w" else "w"
