"""The replay viewer's data: each game's actions (as the replay API gives them) in words,
with the positions to draw and the errors to mark."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from referee.board_svg import Roll, board_svg, changed_points
from referee.bridge import read_position, write_position
from referee.rules.words import play_words
from referee.web.closest import Ranking
from vocabulary import Phase, Side


@dataclass(frozen=True, slots=True)
class Step:
    """One entry of the move list: ``number`` 0 is the game's start, then the actions of
    the replay API, 1-based. ``before`` holds the dice of a roll (the board draws them);
    ``alternatives``: an illegal play's legal ones, the closest first, in words."""

    game: int
    number: int
    side: str | None
    text: str
    position: str
    before: str
    line: int | None = None
    error: Mapping[str, Any] | None = None
    alternatives: tuple[str, ...] = ()

    @property
    def anchor(self) -> str:
        """The fragment that shows this step: ``g{game}-a{action}``."""
        return f"g{self.game}-a{self.number}"


@dataclass(frozen=True, slots=True)
class GameReplay:
    """A game's steps, its start first."""

    game: int
    steps: tuple[Step, ...]

    def step(self, number: int | None) -> Step:
        """Step ``number`` (clamped to the game); by default the first error, else the start."""
        if number is None:
            return next((step for step in self.steps if step.error), self.steps[0])
        return self.steps[max(0, min(number, len(self.steps) - 1))]

    def anchor_of_line(self, line: int | None) -> str | None:
        """The anchor of the action written on ``line`` (to link a finding to the board)."""
        return next((step.anchor for step in self.steps[1:] if step.line == line), None)


_CUBE_WORDS = {
    "double": "doubles to {value}",
    "beaver": "beavers to {value}",
    "raccoon": "raccoons to {value}",
    "take": "takes",
    "drop": "drops",
    "loss": "notes a loss of {value}",
    "edit": "sets up a position",
}


def action_words(action: Mapping[str, Any], players: Sequence[str]) -> str:
    """``12. Alice 52: 13/8 13/11``, ``Bob doubles to 2``, ``Alice wins 2 points``."""
    side = action["side"]
    name = players[0 if side == "w" else 1] if side in ("w", "b") else ""
    number = f"{action['move_number']}. " if action.get("move_number") else ""
    kind = action["action"]
    value = action["value"]
    if kind == "roll":
        dice = "".join(str(die) for die in action["dice"] or ())
        play = action["play"]
        if play is None:
            play = str((action.get("error") or {}).get("play") or "(unreadable)")
        return f"{number}{name} {dice}: {play_words(play)}"
    if kind == "win":
        return f"{number}{name} wins {value} point{'' if value == 1 else 's'}"
    words = _CUBE_WORDS.get(kind, kind).format(value=value)
    return f"{number}{name} {words}"


def result_words(
    action: Mapping[str, Any], players: Sequence[str], scored: Mapping[str, Any]
) -> str:
    """A game's ``Wins`` line in the referee's points, the games table's: the record's own
    number can differ (Galaxy writes the points the winner needed, ``Wins 3`` for a 4-cube
    resigned at 2-1 in a 5-point match) and is named beside them when it does."""
    recorded = action["value"]
    if not scored.get("winner"):
        return f"the record says {action_words(action, players)} (no result by the rules)"
    won = {**action, "side": scored["winner"], "value": scored["points"]}
    words = action_words(won, players)
    return words if recorded == scored["points"] else f"{words} (the record says {recorded})"


def _words(
    action: Mapping[str, Any], players: Sequence[str], scored: Mapping[str, Any] | None
) -> str:
    if action["action"] == "win" and scored is not None:
        return result_words(action, players, scored)
    return action_words(action, players)


def rolled_before(action: Mapping[str, Any]) -> str:
    """The position a roll was played from, its dice in it (the replay API writes the
    moment before the roll): the board of the step draws them."""
    before: str = action["position_before"]
    if action["action"] != "roll" or not action["dice"] or action["side"] not in ("w", "b"):
        return before
    position = read_position(before)
    if position.phase is not Phase.ROLL:
        return before
    dice = (action["dice"][0], action["dice"][1])
    return write_position(replace(position, turn=Side(action["side"]), phase=Phase.MOVE, dice=dice))


def alternatives_words(
    error: Mapping[str, Any] | None, options: Mapping[str, Any], ranking: Ranking | None = None
) -> tuple[str, ...]:
    """An illegal play's alternatives in words, the closest to the written play first while
    the page's ``ranking`` has ranks left (else, and without one, the verdict's order)."""
    if not error or not error.get("alternatives"):
        return ()
    shown = error["alternatives"]
    if ranking is not None and error.get("play") and error.get("position"):
        shown = ranking.closest(error["position"], error["play"], options, shown)
    return tuple(play_words(play) for play in shown)


def game_replay(
    game: int,
    actions: Sequence[Mapping[str, Any]],
    players: Sequence[str],
    scored: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    ranking: Ranking | None = None,
) -> GameReplay:
    """The viewer's steps of one game from the replay API's actions; none for a game
    without actions (there is no position to show). ``scored``: the verdict's game (its
    result words the ``Wins`` line); ``options``: the verdict's (to list legal plays);
    ``ranking``: the page's (which errors have their legal plays ranked, closest first)."""
    if not actions:
        return GameReplay(game, ())
    start = actions[0]["position_before"]
    steps = [Step(game, 0, None, "Start of the game", start, start)]
    for number, action in enumerate(actions, start=1):
        steps.append(
            Step(
                game,
                number,
                action["side"] or None,
                _words(action, players, scored),
                action["position_after"],
                rolled_before(action),
                action["line"],
                action.get("error"),
                alternatives_words(action.get("error"), options or {}, ranking),
            )
        )
    return GameReplay(game, tuple(steps))


def step_board(step: Step, orientation: Side, players: Sequence[str]) -> str:
    """The board after ``step``, the points its play changed marked and the dice it was
    played with drawn."""
    marked = changed_points(step.before, step.position) if step.number else frozenset()
    rolled = Roll.of(step.before) if step.number else None
    return board_svg(
        step.position,
        orientation=orientation,
        last_play=marked,
        players=(players[0], players[1]),
        rolled=rolled,
    )
