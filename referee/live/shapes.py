"""The JSON shapes of live matches (LIVE.md §3, §5), written once: openapi.yaml documents
these schemas and the service dumps its answers through them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.shapes import Shape, dumper, fields, validate

LIVE_ACTIONS = ["roll", "double", "take", "drop", "beaver", "play", "resign"]
RECORDED_ACTIONS = ["roll", "double", "beaver", "take", "drop", "win"]
"""What the record of a live game notes: a roll with its play, the cube's actions, the win."""


class LiveGame(Shape):
    index = fields.Integer(required=True)
    winner = fields.String(required=True, allow_none=True)
    points = fields.Integer(required=True)
    termination = fields.String(required=True)
    kind = fields.String(required=True, allow_none=True)
    cube = fields.Integer(required=True)


class LastAction(Shape):
    """The current game's last action as the match's record will write it."""

    number = fields.Integer(
        required=True,
        metadata={"description": "its place among the current game's actions, from 1"},
    )
    side = fields.String(
        required=True,
        validate=validate.OneOf(["w", "b"]),
        metadata={"description": "who acted; for a win, who won"},
    )
    action = fields.String(
        required=True,
        validate=validate.OneOf(RECORDED_ACTIONS),
        metadata={
            "description": "roll: the dice and the play made with them; double, beaver: the"
            " cube offered (value); take, drop; win: the game's points (value), after the"
            " last play, a drop, a resignation or a timeout"
        },
    )
    dice = fields.List(fields.Integer(), required=True, allow_none=True)
    play = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "a roll's play in canonical text (empty: no move)"},
    )
    value = fields.Integer(required=True, allow_none=True)


class LiveClock(Shape):
    reserve = fields.Integer(
        required=True, metadata={"description": "each player's reserve at the start, seconds"}
    )
    delay = fields.Integer(
        required=True, metadata={"description": "each decision's time before the reserve runs"}
    )
    reserves = fields.Dict(
        keys=fields.String(),
        values=fields.Float(),
        required=True,
        metadata={"description": "each side's reserve as the current decision began"},
    )


class LiveState(Shape):
    id = fields.Integer(required=True)
    variant = fields.String(required=True)
    length = fields.Integer(required=True)
    options = fields.Dict(required=True)
    players = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    status = fields.String(
        required=True, validate=validate.OneOf(["waiting", "playing", "finished", "aborted"])
    )
    game = fields.Integer(required=True)
    score = fields.List(fields.Integer(), required=True)
    position = fields.String(required=True)
    ply = fields.Integer(required=True)
    last_action = fields.Nested(
        LastAction,
        required=True,
        allow_none=True,
        metadata={"description": "the current game's last action; null before its first"},
    )
    to_act = fields.String(required=True, allow_none=True)
    expect = fields.List(fields.String(validate=validate.OneOf(LIVE_ACTIONS)), required=True)
    dice = fields.List(fields.Integer(), required=True, allow_none=True)
    legal_plays = fields.List(fields.String(), required=True, allow_none=True)
    deadline = fields.String(required=True, allow_none=True)
    commitment = fields.String(required=True)
    algorithm = fields.String(required=True)
    client_seeds = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    server_seed = fields.String(required=True, allow_none=True)
    games = fields.List(fields.Nested(LiveGame), required=True)
    winner = fields.String(required=True, allow_none=True)
    termination = fields.String(required=True, allow_none=True)
    match_id = fields.Integer(required=True, allow_none=True)
    move_seconds = fields.Integer(required=True)
    joined = fields.Dict(keys=fields.String(), values=fields.Boolean(), required=True)
    created_at = fields.String(required=True)
    you = fields.List(
        fields.String(), metadata={"description": "in the answer to join: the caller's sides"}
    )
    dice_id = fields.Integer(
        required=True,
        metadata={
            "description": "the id in the dice message (docs/live.md#5): the match's own, or in a"
            " mirrored pair (docs/events.md#7) its first match's, whose dice both throw"
        },
    )

    join_seconds = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "how long the bots have to join (null: the match waits)"},
    )
    join_deadline = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "while waiting: when a bot not joined loses by no_show"},
    )
    clock = fields.Nested(
        LiveClock,
        required=True,
        allow_none=True,
        metadata={"description": "the backgammon clock (docs/events.md#13-2); null: move_seconds"},
    )

    omitted_when_none = ("you",)


class LiveThrow(Shape):
    k = fields.Integer(required=True)
    dice = fields.List(fields.Integer(), required=True)
    game = fields.Integer(required=True)
    use = fields.String(required=True, validate=validate.OneOf(["opening", "roll"]))


class DiceProof(Shape):
    id = fields.Integer(required=True)
    algorithm = fields.String(required=True)
    commitment = fields.String(required=True)
    server_seed = fields.String(required=True, allow_none=True)
    client_seeds = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    throws = fields.List(fields.Nested(LiveThrow), required=True)
    dice_id = fields.Integer(
        required=True,
        metadata={"description": "the id in the dice message: id, or the mirrored pair's first"},
    )


@dataclass(slots=True)
class ActionView:
    """One action of a live game as ``LastAction`` shows it (made for every state, and
    dumped at once: not frozen, whose ``__init__`` costs twice as much)."""

    number: int
    side: str
    action: str
    dice: list[int] | None
    play: str | None
    value: int | None


@dataclass(frozen=True, slots=True)
class ClockView:
    """A live match's clock as ``LiveClock`` shows it."""

    reserve: int
    delay: int
    reserves: dict[str, float]


@dataclass(slots=True)
class StateView:
    """The state of a live match as LIVE.md §3 names its fields (made for every action's
    answer and dumped at once: not frozen, whose ``__init__`` of thirty fields costs more
    than the dump)."""

    id: int
    variant: str
    length: int
    options: dict[str, Any]
    players: dict[str, str]
    status: str
    game: int
    score: list[int]
    position: str
    ply: int
    to_act: str | None
    expect: list[str]
    dice: list[int] | None
    legal_plays: list[str] | None
    deadline: str | None
    commitment: str
    algorithm: str
    client_seeds: dict[str, str]
    server_seed: str | None
    games: list[Any]
    winner: str | None
    termination: str | None
    match_id: int | None
    move_seconds: int
    joined: dict[str, bool]
    created_at: str
    last_action: ActionView | None = None
    you: list[str] | None = None
    dice_id: int = 0
    join_seconds: int | None = None
    join_deadline: str | None = None
    clock: ClockView | None = None


@dataclass(frozen=True, slots=True)
class ProofView:
    """The dice proof of LIVE.md §5."""

    id: int
    algorithm: str
    commitment: str
    server_seed: str | None
    client_seeds: dict[str, str]
    throws: list[Any]
    dice_id: int = 0


dump_action = dumper(LastAction)
dump_state = dumper(LiveState)
dump_proof = dumper(DiceProof)
