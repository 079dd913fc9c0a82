"""The replay viewer's data: each game's actions (as the replay API gives them) in words,
with the positions to draw and the errors to mark."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.board_svg import board_svg, changed_points
from vocabulary import Side


@dataclass(frozen=True, slots=True)
class Step:
    """One entry of the move list: ``number`` 0 is the game's start, then the actions of
    the replay API, 1-based."""

    game: int
    number: int
    side: str | None
    text: str
    position: str
    before: str
    line: int | None = None
    error: Mapping[str, Any] | None = None

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
        return f"{number}{name} {dice}: {play or 'no move'}"
    if kind == "win":
        return f"{number}{name} wins {value} point{'' if value == 1 else 's'}"
    words = _CUBE_WORDS.get(kind, kind).format(value=value)
    return f"{number}{name} {words}"


def game_replay(
    game: int, actions: Sequence[Mapping[str, Any]], players: Sequence[str]
) -> GameReplay:
    """The viewer's steps of one game from the replay API's actions; none for a game
    without actions (there is no position to show)."""
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
                action_words(action, players),
                action["position_after"],
                action["position_before"],
                action["line"],
                action.get("error"),
            )
        )
    return GameReplay(game, tuple(steps))


def step_board(step: Step, orientation: Side, players: Sequence[str]) -> str:
    """The board after ``step``, the points its play changed marked."""
    marked = changed_points(step.before, step.position) if step.number else frozenset()
    return board_svg(
        step.position,
        orientation=orientation,
        last_play=marked,
        players=(players[0], players[1]),
    )
