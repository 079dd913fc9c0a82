"""Plain data for a match record as written: games, actions, tags and reader findings.

Nothing here is checked against the rules: a record can be read and then adjudicated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from notation.plays import PlayText
from vocabulary import IssueCode, Move


class ActionKind(StrEnum):
    """The cells a .mat row can hold."""

    ROLL = "roll"
    DOUBLE = "double"
    BEAVER = "beaver"
    RACCOON = "raccoon"
    TAKE = "take"
    DROP = "drop"
    WIN = "win"
    LOSS = "loss"
    EDIT = "edit"
    """``Illegal play (...)``: a Snowie-style position edit."""


@dataclass(frozen=True, slots=True)
class ActionText:
    """One cell: who acted, where it was written, and what it says.

    ``dice`` keep the order the record wrote them in; ``play`` is None when the cell's play
    could not be read (a finding says why); ``value`` is the cube value of a double or
    beaver, or the points of a ``Wins``/``Losses`` line.
    """

    kind: ActionKind
    side: str
    line: int
    column: int
    move_number: int | None
    text: str
    dice: tuple[int, int] | None = None
    play: PlayText | None = None
    value: int | None = None
    and_the_match: bool = False

    def with_play(self, play_text: str, moves: tuple[Move, ...]) -> ActionText:
        """This roll with its play replaced (dice larger first), as a canonical record has it."""
        assert self.dice is not None
        dice = (max(self.dice), min(self.dice))
        text = f"{dice[0]}{dice[1]}: {play_text}".rstrip()
        return ActionText(
            self.kind,
            self.side,
            self.line,
            self.column,
            self.move_number,
            text,
            dice,
            PlayText(dice, moves),
            self.value,
            self.and_the_match,
        )


@dataclass(frozen=True, slots=True)
class ReadingProblem:
    """Something the reader could not read or found odd, with its place in the text."""

    code: IssueCode
    message: str
    line: int
    column: int = 1


@dataclass(frozen=True, slots=True)
class GameText:
    """One ``Game N`` of a record, as written."""

    index: int
    number: int
    line: int
    players: tuple[str, str]
    score: tuple[int, int] | None
    actions: tuple[ActionText, ...]
    start: str | None = None
    """A ``[StartPosition "..."]`` tag given before this game, as written."""
    findings: tuple[ReadingProblem, ...] = ()


@dataclass(frozen=True, slots=True)
class MatchText:
    """A whole record: header tags, the match length (0 = money session) and the games."""

    tags: dict[str, str] = field(default_factory=dict)
    comments: tuple[str, ...] = ()
    match_length: int | None = None
    games: tuple[GameText, ...] = ()
    findings: tuple[ReadingProblem, ...] = ()
