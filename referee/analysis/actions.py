"""Each analysed action of a game: gnubg's records (``in_gnubg.py``) laid on the referee's
replay of the same game, the losses and best choices worked out as gnubg's statistics work
them out (so that a player's losses add up to gnubg's totals).

* A play loses the best play's equity less the played one's, when there was a choice
  (gnubg counts a forced play, and a play it cannot find among its choices, as no loss).
* A cube decision compares no double (ND), double-take (DT) and double-pass (DP, one
  cube: 1 EMG); the best action is the doubler's best of ND and min(DT, DP). A roll where
  gnubg analysed the cube is a ``no_double`` (its loss: ND below the best); a double loses
  min(DT, DP) below the best; a take loses DT above DP, a pass DP above DT. A beaver
  gnubg leaves unjudged; the doubler's take of it, which a record leaves out (gnubg's SGF
  writes it), gnubg judges as a take of the double: it stands at the beaver's index.
* The marks are gnubg's own; the luck is gnubg's of the roll. A roll with nothing played
  (left before a resignation, or an ``Illegal play`` cell's, replaced by a board edit) is
  a play with no play, no loss and gnubg's luck of it, which gnubg's statistics leave out
  of the luck totals, as they leave it out of the moves."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from notation.records.model import ActionKind, ActionText
from referee.analysis.errors import EngineFailedError
from referee.bridge import play_text
from referee.rules.board import Step
from vocabulary import Side

DOUBLE_PASS = 1.0
"""A passed double wins the cube: 1 EMG (normalised to the cube)."""
DECIMALS = 6
"""Equities are given to gnubg's own precision (its SGF's)."""


class Kind(StrEnum):
    PLAY = "play"
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    NO_DOUBLE = "no_double"


class Mark(StrEnum):
    DOUBTFUL = "doubtful"
    BAD = "bad"
    VERY_BAD = "very_bad"


class LuckMark(StrEnum):
    VERY_LUCKY = "very_lucky"
    LUCKY = "lucky"
    UNLUCKY = "unlucky"
    VERY_UNLUCKY = "very_unlucky"


MARKS = {"doubtful": Mark.DOUBTFUL, "bad": Mark.BAD, "very bad": Mark.VERY_BAD}
LUCK_MARKS = {
    "verygood": LuckMark.VERY_LUCKY,
    "good": LuckMark.LUCKY,
    "bad": LuckMark.UNLUCKY,
    "verybad": LuckMark.VERY_UNLUCKY,
}
GNUBG_KINDS = {
    ActionKind.ROLL: "move",
    ActionKind.DOUBLE: "double",
    ActionKind.BEAVER: "double",
    ActionKind.RACCOON: "double",
    ActionKind.TAKE: "take",
    ActionKind.DROP: "drop",
    ActionKind.EDIT: "set",
}
"""The record gnubg makes of each action of ours (``Wins``, ``Losses`` it makes none)."""
ACTED = frozenset(GNUBG_KINDS.values()) - {"set"}
"""gnubg's records that only an action makes."""


@dataclass(frozen=True, slots=True)
class ActionAnalysis:
    """One analysed action; ``index`` is the action's in the game's replay (1-based)."""

    index: int
    side: str
    kind: Kind
    played: str | None
    best: str | None
    equity_loss: float | None
    mark: Mark | None
    luck: float | None = None
    luck_mark: LuckMark | None = None


@dataclass(frozen=True, slots=True)
class CubeChoice:
    """A cube decision's equities (EMG) from the doubler's side."""

    no_double: float
    double_take: float

    @property
    def double_is_right(self) -> bool:
        return self.double_take >= self.no_double and self.no_double <= DOUBLE_PASS

    @property
    def best(self) -> float:
        return min(self.double_take, DOUBLE_PASS) if self.double_is_right else self.no_double

    @property
    def doubler_best(self) -> str:
        return "double" if self.double_is_right else "no double"

    @property
    def taker_best(self) -> str:
        return "take" if self.double_take <= DOUBLE_PASS else "drop"


def game_actions(
    game: int, actions: Sequence[tuple[int, ActionText]], records: Sequence[Mapping[str, Any]]
) -> tuple[ActionAnalysis, ...]:
    """The analysed actions of game ``game`` (1-based): its canonical actions, each with
    its index in the replay, and gnubg's records of them; EngineFailedError when gnubg
    read the game otherwise than the referee."""
    waiting = deque(records)
    found: list[ActionAnalysis] = []
    double: CubeChoice | None = None  # the last double's, which a take or pass answers
    offered: int | None = None  # the index of a double waiting for its answer
    for index, action in actions:
        wanted = GNUBG_KINDS.get(action.kind)
        if wanted is None:
            continue
        if offered is not None and wanted not in ("take", "drop", "double"):
            found.extend(_unwritten_take(waiting, offered, double))
            double, offered = None, None
        record = _next_record(waiting, wanted, game, index, action)
        side = action.side
        if wanted == "move":
            _check_roll(record, action, game, index)
            found.extend(
                _roll(index, action, record)
                if record["kind"] == "move"
                else _luck(index, side, [record])
            )
        elif wanted == "double":
            choice = _choice(record)
            if choice is not None and offered is None:  # gnubg judges no beaver
                found.append(_double(index, side, choice, record))
            double, offered = choice or double, index
        elif wanted in ("take", "drop"):
            if double is not None:
                found.append(_answer(index, side, Kind(wanted), double, record))
            double, offered = None, None
        else:
            found.extend(_edit(index, side, record, waiting))
    if any(record["kind"] in ACTED for record in waiting):
        raise EngineFailedError(f"gnubg read more actions in game {game} than the record has")
    return tuple(found)


def _unwritten_take(
    waiting: deque[Mapping[str, Any]], beaver: int, double: CubeChoice | None
) -> list[ActionAnalysis]:
    """The doubler's take of a beaver, which the record leaves out (the SGF writes it,
    as gnubg does): gnubg judges it as a take of the double, so it is listed at the
    beaver's index."""
    if not waiting or waiting[0]["kind"] != "take":
        return []
    record = waiting.popleft()
    if double is None:
        return []
    side = Side.WHITE if record["player"] == 0 else Side.BLACK
    return [_answer(beaver, str(side), Kind.TAKE, double, record)]


def _next_record(
    waiting: deque[Mapping[str, Any]],
    wanted: str,
    game: int,
    index: int,
    action: ActionText,
) -> Mapping[str, Any]:
    """gnubg's record of the action, past those no action of ours makes (a set-up start,
    resignations)."""
    while waiting and not _is(waiting[0], wanted) and _extra(waiting[0]):
        waiting.popleft()
    record = waiting.popleft() if waiting else None
    player = None if record is None else record["player"]
    if record is None or not _is(record, wanted) or player not in (None, _player(action)):
        what = "nothing" if record is None else f"a {record['kind']} by player {player}"
        raise EngineFailedError(
            f"gnubg read game {game} otherwise than the referee: at action {index}"
            f" ({action.text!r}) it has {what}"
        )
    return record


def _is(record: Mapping[str, Any], wanted: str) -> bool:
    """Whether ``record`` is gnubg's record of the action wanted: a roll left unplayed
    before a resignation is its dice alone (a set-up of the dice)."""
    unplayed = wanted == "move" and record["kind"] == "set" and bool(record.get("dice"))
    return record["kind"] == wanted or unplayed


def _extra(record: Mapping[str, Any]) -> bool:
    """A record no action of ours makes: a set-up of the board or cube (a set-up start),
    a resignation."""
    kind = record["kind"]
    return (kind == "set" and not record.get("dice")) or kind == "resign"


def _player(action: ActionText) -> int:
    return 0 if action.side == Side.WHITE else 1


def _check_roll(record: Mapping[str, Any], action: ActionText, game: int, index: int) -> None:
    dice = action.dice
    if dice is None or sorted(record["dice"]) != sorted(dice):
        raise EngineFailedError(
            f"gnubg read game {game} otherwise than the referee: action {index}"
            f" ({action.text!r}) has the dice {record['dice']} in gnubg"
        )


def _roll(index: int, action: ActionText, record: Mapping[str, Any]) -> list[ActionAnalysis]:
    """A roll: its cube decision when gnubg analysed one, then its play."""
    side = action.side
    found = []
    cube = _choice(record)
    if cube is not None:
        loss = min(cube.no_double - cube.best, 0.0)
        mark = MARKS.get(record.get("cube_skill") or "")
        found.append(
            _entry(index, side, Kind.NO_DOUBLE, "no double", cube.doubler_best, loss, mark)
        )
    choices, equity = record["choices"], record["played_equity"]
    loss = equity - record["best_equity"] if choices > 1 and equity is not None else 0.0
    played = action.text.partition(":")[2].strip()  # the canonical play, "" for a dance
    best = _best_play(record) if choices > 1 and record.get("played_rank") != 0 else played
    found.append(
        ActionAnalysis(
            index,
            side,
            Kind.PLAY,
            played,
            best,
            _rounded(loss),
            MARKS.get(record.get("skill") or ""),
            _rounded(record["luck"]),
            LUCK_MARKS.get(record.get("luck_type") or ""),
        )
    )
    return found


def _double(index: int, side: str, cube: CubeChoice, record: Mapping[str, Any]) -> ActionAnalysis:
    loss = min(min(cube.double_take, DOUBLE_PASS) - cube.best, 0.0)
    mark = MARKS.get(record.get("skill") or "")
    return _entry(index, side, Kind.DOUBLE, "double", cube.doubler_best, loss, mark)


def _answer(
    index: int, side: str, kind: Kind, cube: CubeChoice, record: Mapping[str, Any]
) -> ActionAnalysis:
    if kind is Kind.TAKE:
        loss = min(DOUBLE_PASS - cube.double_take, 0.0)
    else:
        loss = min(cube.double_take - DOUBLE_PASS, 0.0)
    mark = MARKS.get(record.get("skill") or "")
    return _entry(index, side, kind, str(kind), cube.taker_best, loss, mark)


def _edit(
    index: int, side: str, record: Mapping[str, Any], waiting: deque[Mapping[str, Any]]
) -> list[ActionAnalysis]:
    """A board edit: gnubg's set-up records; a roll among them (an ``Illegal play``
    cell's) has gnubg's luck, nothing played."""
    records = [record]
    while waiting and waiting[0]["kind"] == "set":
        records.append(waiting.popleft())
    return _luck(index, side, records)


def _luck(index: int, side: str, records: Sequence[Mapping[str, Any]]) -> list[ActionAnalysis]:
    """The rolls among gnubg's set-up records (their dice alone: nothing was played) with
    the luck gnubg judged: a play entry with no play and no loss."""
    return [
        ActionAnalysis(
            index,
            side,
            Kind.PLAY,
            None,
            None,
            None,
            None,
            _rounded(rolled["luck"]),
            LUCK_MARKS.get(rolled.get("luck_type") or ""),
        )
        for rolled in records
        if rolled.get("dice") and rolled.get("luck") is not None
    ]


def _choice(record: Mapping[str, Any]) -> CubeChoice | None:
    cube = record.get("cube")
    return None if cube is None else CubeChoice(float(cube[0]), float(cube[1]))


def _entry(
    index: int,
    side: str,
    kind: Kind,
    played: str | None,
    best: str | None,
    loss: float,
    mark: Mark | None,
) -> ActionAnalysis:
    return ActionAnalysis(index, side, kind, played, best, _rounded(loss), mark)


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, DECIMALS) + 0.0


def _best_play(record: Mapping[str, Any]) -> str | None:
    """gnubg's best play in the referee's words: its steps in the written order, a hit
    marked where the opponent had a blot (``blots``, gnubg's board before it). (When the
    played play was gnubg's best, the play as played is its best: the same play written
    through other points, ``6/4 4/1`` for ``6/3 3/1``, is not another.)"""
    best = record.get("best")
    if not best:
        return None
    blots = set(record.get("blots") or ())  # gnubg numbers the bar 25 and off 0, as we do
    return play_text([Step(start, end, 0, end in blots) for start, end in best])
