"""FIBS ``oldmoves`` records read into the record model, as gnubg's ``import oldmoves``
reads them (its ``import.c`` is the specification; nothing of it is copied).

A game starts at a line holding ``Score is A-B in a N point match.`` (no length: a money
game), followed by ``alice is X - bob is O`` (A is X's score); then one action a line,
``X: (3 1) 8-5 6-5``, ``O: (6 6) can't move``, ``X: doubles``, ``O: accepts`` /
``rejects``, ``X: wins 2 points``, until a blank line. The first game's X is the record's
first (left) player; a later game with the names the other way round swaps the sides.
A play written ascending (``1-7``, ``bar-3``) is in the other side's numbering and is
turned round, as gnubg does for writers such as fibs2html.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Final

from notation.errors import NotationError, echoed
from notation.plays import PlayText, parse_play
from notation.records.mat_reader import MAX_LINE, ReadLimits
from notation.records.model import ActionKind, ActionText, GameText, MatchText, ReadingProblem
from notation.records.tally import Tally
from vocabulary import BAR, OFF, IssueCode, Move

_SCORE: Final = re.compile(r"Score is (\d{1,5})-(\d{1,5})(?: in a (\d{1,5}) point match)?")
_PLAYERS: Final = re.compile(r"^\s*(.*?)\s+is X\s*-\s*(.*?)\s+is O\s*$")
_ACTION: Final = re.compile(r"^\s*([XO]):\s*(.*?)\s*$")
_ROLL: Final = re.compile(r"^\(([1-6]) ([1-6])\)\s*(.*)$")
_WINS: Final = re.compile(r"^wins(?:\s+(\d{1,9})\s+points?)?", re.IGNORECASE)
_CUBE: Final = {
    "doubles": ActionKind.DOUBLE,
    "accepts": ActionKind.TAKE,
    "rejects": ActionKind.DROP,
}
SNIFF: Final = re.compile(rb"Score is \d{1,5}-\d{1,5}")
"""What shows an oldmoves text in its first bytes."""


@dataclass
class _Game:
    line: int
    score: tuple[int, int]
    players: tuple[str, str] = ("", "")
    swapped: bool = False
    """X is the record's second player in this game."""
    actions: list[ActionText] = field(default_factory=list)
    findings: list[ReadingProblem] = field(default_factory=list)
    open: bool = True
    """Blank lines end a game's actions."""


class _Reader:
    def __init__(self, limits: ReadLimits) -> None:
        self.length: int | None = None
        self.players: tuple[str, str] | None = None
        self.games: list[_Game] = []
        self.tally = Tally(limits)

    def finding(self, code: IssueCode, message: str, line: int, column: int = 1) -> None:
        target = self.games[-1].findings if self.games else None
        self.tally.finding(target, code, message, line, column)

    def read_line(self, number: int, line: str) -> None:
        if len(line) > MAX_LINE:
            message = f"a line of {len(line)} characters is skipped"
            self.finding(IssueCode.LINE_TOO_LONG, message, number)
            return
        score = _SCORE.search(line)
        if score:
            self.start_game(number, score)
            return
        game = self.games[-1] if self.games else None
        if game is None:
            return  # FIBS' other output before the first game, as gnubg skips it
        if not line.strip():
            game.open = not game.actions
            return
        players = _PLAYERS.match(line)
        if players and not game.actions:
            self.name_players(game, (players[1], players[2]))
            return
        action = _ACTION.match(line)
        if action is None or not game.open:
            message = f"{echoed(line.strip(), 40)} is not an oldmoves action"
            self.finding(IssueCode.UNEXPECTED_LINE, message, number)
            return
        side = "w" if (action[1] == "X") != game.swapped else "b"
        self.action(game, number, action.start(2) + 1, side, action[2])

    def start_game(self, number: int, score: re.Match[str]) -> None:
        self.tally.game()
        if not self.games:
            self.length = int(score[3] or 0)
        self.games.append(_Game(number, (int(score[1]), int(score[2]))))

    def name_players(self, game: _Game, names: tuple[str, str]) -> None:
        if self.players is None:
            self.players = names
        game.swapped = names != self.players and names == self.players[::-1]
        game.players = self.players
        if game.swapped:
            game.score = game.score[::-1]

    def action(self, game: _Game, number: int, column: int, side: str, text: str) -> None:
        base = ActionText(ActionKind.ROLL, side, number, column, None, text)
        roll = _ROLL.match(text)
        wins = _WINS.match(text)
        if roll:
            self.add(game, self.roll(base, number, (int(roll[1]), int(roll[2])), roll[3]))
        elif text.lower().rstrip(".") in _CUBE:
            self.add(game, replace(base, kind=_CUBE[text.lower().rstrip(".")]))
        elif wins:
            self.add(game, replace(base, kind=ActionKind.WIN, value=int(wins[1] or 1)))
        elif not text.lower().startswith("wants to resign"):
            message = f"cannot read {echoed(text, 40)}"
            self.finding(IssueCode.UNREADABLE_CELL, message, number, column)

    def roll(self, base: ActionText, number: int, dice: tuple[int, int], text: str) -> ActionText:
        written = f"{dice[0]}{dice[1]}:"
        if not text.lower().startswith("can't move"):
            written += " " + text.replace("-", "/")
        action = replace(base, text=written, dice=dice)
        try:
            return replace(action, play=_own_numbering(parse_play(written)))
        except NotationError as error:
            self.finding(IssueCode.UNREADABLE_PLAY, error.message, number, base.column)
            return action

    def add(self, game: _Game, action: ActionText) -> None:
        game.actions.append(action)
        self.tally.action(len(game.actions))

    def build(self) -> MatchText:
        games = tuple(
            GameText(
                index + 1,
                index + 1,
                game.line,
                game.players,
                game.score,
                tuple(game.actions),
                findings=tuple(game.findings),
            )
            for index, game in enumerate(self.games)
        )
        tags = {"Site": "FIBS"}
        return MatchText(
            tags=tags,
            match_length=self.length,
            games=games,
            findings=tuple(self.tally.record_findings),
        )


def _own_numbering(play: PlayText) -> PlayText:
    """The play in the mover's numbering: turned round when its first move ascends."""
    if not play.moves or not _ascending(play.moves[0]):
        return play
    moves = tuple(
        Move(_turned(move.from_point), _turned(move.to_point), move.hit) for move in play.moves
    )
    return replace(play, moves=moves)


def _ascending(move: Move) -> bool:
    if move.from_point == BAR:
        return move.to_point <= 6
    if move.to_point == OFF:
        return move.from_point >= 19
    return move.from_point < move.to_point


def _turned(point: int) -> int:
    return point if point in (BAR, OFF) else 25 - point


def read_oldmoves(text: str, limits: ReadLimits | None = None) -> MatchText:
    """Every game of a FIBS oldmoves text; NotationError ``no_match`` without a ``Score
    is A-B`` line, ``too_many_<limit>`` past one of ``limits``."""
    reader = _Reader(limits or ReadLimits())
    for number, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        reader.read_line(number, line)
    if not reader.games:
        raise NotationError(
            "no_match", "no 'Score is A-B' line: this is not a FIBS oldmoves record"
        )
    return reader.build()
