"""A live state as a FIBS ``board:`` line (CLIP "rawboard"), and an engine's answer as a
live action. Pure functions: no sockets, no processes.

The board is always written from the engine's side: the engine is "You", colour O (+1),
moving from 24 to 1 (direction -1, home 0, bar 25), so its points are its own numbering
and its checkers are positive. The 53 colon-separated fields, as the FIBS rawboard
documentation lists them (fibs.com ``rawboard.html``, also FORMATS.md part 2 §4):

====  ==========================================================================
 0    ``board``
 1-2  the engine's name, the opponent's name (``[A-Za-z0-9_]``: other characters
      become ``_``, as gnubg's lexer reads a name as ``[[:alnum:]_]+``)
 3    match length (9999 = unlimited: a money game)
 4-5  the engine's score, the opponent's
 6-31 the board: 26 numbers, index 0 the opponent's bar (negative), 1..24 the
      engine's points (positive = the engine's checkers, negative = the
      opponent's), 25 the engine's bar (positive)
 32   turn: +1 O (the engine) to act, -1 X (the opponent: he has just doubled)
 33-4 the engine's dice (0 0 before the roll); 35-6 the opponent's (always 0 0)
 37   the cube's value (before a pending double)
 38-9 may double: the engine, the opponent (both 1 in the Crawford game, as FIBS
      writes them there: gnubg reads "both 0 and not doubled" as a double)
 40   was doubled: 1 when the opponent has just doubled (or beavered)
 41   colour 1, 42 direction -1, 43 home 0, 44 bar 25
 45-6 borne off: the engine's, the opponent's; 47-8 on the bar: the same
 49   can move: how many checkers the roll moves (the parts of a legal play)
 50   forced move: 0 ("don't use this token")
 51   did Crawford: 1 once the Crawford game has been played (post-Crawford), else 0
 52   redoubles: 0 (no instant redoubles here)
====  ==========================================================================

Measured against gnubg 1.07.001 (Debian), which reads field 51 as its "non-Crawford" flag
and 52 as its "post-Crawford" flag: at a score with a player 1-away it takes the game for
the Crawford game exactly when both are 0, which is what field 51's documented meaning
gives (tests/players/test_gnubg_external.py checks it through gnubg's debug output).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from notation.positions import PositionData, parse_position
from vocabulary import CubeOwner, Phase, Side, VariantId

UNLIMITED = 9999
"""FIBS's match length for an unlimited (money) session."""

CHECKERS = 15


class NotBackgammonError(ValueError):
    """The engines here play backgammon only."""


@dataclass(frozen=True, slots=True)
class Seat:
    """Who the engine is in a live match: its side and the two names."""

    side: Side
    name: str
    opponent: str


def fibs_name(name: str) -> str:
    """A player name as a FIBS board field can carry it (never empty)."""
    cleaned = re.sub(r"[^A-Za-z0-9_]", "_", name)
    return cleaned or "_"


def own_point(side: Side, global_point: int) -> int:
    """A point of White's numbering (the position string's) in ``side``'s own numbering."""
    return global_point if side is Side.WHITE else 25 - global_point


def fibs_board(state: Mapping[str, Any], seat: Seat) -> str:
    """The FIBS board of a live state (LIVE.md §3) for the engine sitting at ``seat``;
    NotBackgammonError for a nardy match."""
    if state.get("variant") != VariantId.BACKGAMMON:
        raise NotBackgammonError(
            f"the engines play backgammon only; this match is {state.get('variant')}"
        )
    position = parse_position(state["position"])
    return board_line(position, seat, _can_move(state.get("legal_plays")))


def board_line(position: PositionData, seat: Seat, can_move: int = 0) -> str:
    """The FIBS board of a backgammon position (NOTATION.md §1) for the engine at ``seat``.

    The position must be the engine's decision: it is on turn (to roll or double, to
    move with dice, or to answer the opponent's double)."""
    if position.variant is not VariantId.BACKGAMMON:
        raise NotBackgammonError(f"the engines play backgammon only, not {position.variant}")
    me = seat.side
    mine, theirs = (0, 1) if me is Side.WHITE else (1, 0)
    board = [0] * 26
    for global_point in range(1, 25):
        cell = position.cells[global_point - 1]
        count = cell if me is Side.WHITE else -cell  # positive: the engine's checkers
        board[own_point(me, global_point)] = count
    board[0] = -position.bar[theirs]
    board[25] = position.bar[mine]
    doubled = position.phase is Phase.DOUBLED
    cube_value, owner = _cube(position)
    crawford = "c" in position.flags
    if crawford:
        may_double = (1, 1)
    else:
        may_double = (
            int(owner in (CubeOwner.CENTRE, _owner_of(me))),
            int(owner in (CubeOwner.CENTRE, _owner_of(me.other))),
        )
    dice = position.dice if position.phase is Phase.MOVE and position.dice else (0, 0)
    length = position.match_length or UNLIMITED
    score = position.score if me is Side.WHITE else position.score[::-1]
    if position.match_length == 0:
        score = (0, 0)
    fields: list[object] = [
        "board",
        fibs_name(seat.name),
        fibs_name(seat.opponent),
        length,
        score[0],
        score[1],
        *board,
        -1 if doubled else 1,
        dice[0],
        dice[1],
        0,
        0,
        cube_value,
        *may_double,
        int(doubled),
        1,
        -1,
        0,
        25,
        position.off[mine],
        position.off[theirs],
        position.bar[mine],
        position.bar[theirs],
        can_move,
        0,
        int("p" in position.flags),
        0,
    ]
    return ":".join(str(field) for field in fields)


def _owner_of(side: Side) -> CubeOwner:
    return CubeOwner.WHITE if side is Side.WHITE else CubeOwner.BLACK


def _cube(position: PositionData) -> tuple[int, CubeOwner]:
    """The cube's value and owner before any pending double (a position in state ``d``
    shows the value offered, NOTATION.md §1, and the owner before the offer)."""
    if position.cube is None:
        return 1, CubeOwner.CENTRE
    value = position.cube.value
    if position.phase is Phase.DOUBLED:
        value //= 2
    return value, position.cube.owner


def _can_move(legal_plays: Sequence[str] | None) -> int:
    """How many checkers the roll moves: the parts of the longest legal play."""
    if not legal_plays:
        return 0
    return max(len(play.split()) for play in legal_plays)


# -- the engine's answer ---------------------------------------------------------------------


class EngineAnswerError(ValueError):
    """An answer that is not an action allowed now: the bridge stops rather than guess."""


CUBE_WORDS = frozenset({"double", "roll", "take", "drop", "beaver", "accept", "reject"})

_POINT = r"(?:\d{1,2}|bar|off)"
_PAIR = re.compile(rf"^({_POINT})[/\-]({_POINT})\*?$")


def move_text(answer: str) -> str:
    """An engine's move in the referee's play notation (``from/to`` parts, ``bar`` and
    ``off`` as numbers 25 and 0): gnubg writes ``24/18 13/11`` (``*`` after a hit), UBGI
    allows ``8/5 6/5``, ``8-5 6-5`` and ``8 5 6 5``; a blank answer is no move."""
    words = answer.replace("*", " ").lower().split()
    if not words:
        return ""
    parts: list[tuple[str, str]] = []
    if all(re.fullmatch(_POINT, word) for word in words):
        if len(words) % 2:
            raise EngineAnswerError(f"an odd number of points in the move {answer!r}")
        parts = [(words[i], words[i + 1]) for i in range(0, len(words), 2)]
    else:
        for word in words:
            chain = re.split(r"[/\-]", word)
            if len(chain) < 2 or not all(re.fullmatch(_POINT, point) for point in chain):
                raise EngineAnswerError(f"not a move: {answer!r}")
            parts.extend(itertools.pairwise(chain))
    points = {"bar": "25", "off": "0"}
    return " ".join(f"{points.get(a, a)}/{points.get(b, b)}" for a, b in parts)


def action_of(answer: str, state: Mapping[str, Any]) -> dict[str, Any]:
    """The live action (LIVE.md §4) an engine's answer line means in ``state``;
    EngineAnswerError when it means nothing allowed now.

    ``beaver`` where the match allows none is a take (the engine judged the double a
    take, and beavers are a setting gnubg's external player does not take per board)."""
    expect = list(state.get("expect") or [])
    word = answer.strip().lower()
    if "play" in expect:
        if word in CUBE_WORDS:
            raise EngineAnswerError(f"{word!r} where a play was due")
        return {"action": "play", "play": move_text(answer)}
    if word == "beaver" and "beaver" not in expect and "take" in expect:
        return {"action": "take"}
    if word in CUBE_WORDS and word in expect:
        return {"action": word}
    raise EngineAnswerError(f"{answer!r} is none of {', '.join(expect) or 'nothing'}")
