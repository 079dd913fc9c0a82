"""TrueMoneyGames ``.tmg`` records read into the record model, as gnubg's ``import tmg``
reads them (its ``import.c`` is the specification; nothing of it is copied).

A ``.tmg`` file is option lines (``MatchID:``, ``Player1: <id> <name> <rating>``,
``Length: 7``, ``Crawford: 1``, ``Jacoby: 0``, ``Cube: 1`` ...), then per game a
``Game N: a-b`` line (the scores before it, Player1's first) and one record a line:
``<n> <type> <text>``, where ``n`` is the move number, negative for Player2, and the type
says what the line holds (``1`` the roll ``52:``, ``4`` its play ``13/8 13/11`` or ``0/0``
for a dance, ``5`` a double, ``7`` a take, ``10`` a pass, ``14``-``16`` a win
``<points> <name> wins ...``). gnubg swaps the players after reading: Player2 is the left
(first) player of the record, Player1 the right, and so are they here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from enum import IntEnum
from typing import Final

from notation.errors import NotationError, echoed
from notation.plays import parse_play
from notation.records.mat_reader import MAX_LINE, ReadLimits
from notation.records.model import ActionKind, ActionText, GameText, MatchText, ReadingProblem
from notation.records.tally import Tally
from vocabulary import IssueCode


class TmgRecord(IntEnum):
    """The record types of a ``.tmg`` line, as gnubg knows them."""

    ROLL = 1
    AUTO_DOUBLE = 2
    MOVE = 4
    DOUBLE = 5
    TAKE = 7
    BEAVER = 8
    PASS = 10
    WIN_SINGLE = 14
    WIN_GAMMON = 15
    WIN_BACKGAMMON = 16
    OUT_OF_TIME = 17
    TABLE_STAKE = 19
    OUT_OF_TIME_AGAIN = 22


_IGNORED: Final = frozenset(
    {TmgRecord.OUT_OF_TIME, TmgRecord.TABLE_STAKE, TmgRecord.OUT_OF_TIME_AGAIN}
)
_WINS: Final = frozenset({TmgRecord.WIN_SINGLE, TmgRecord.WIN_GAMMON, TmgRecord.WIN_BACKGAMMON})
_CUBE: Final = {
    TmgRecord.DOUBLE: ActionKind.DOUBLE,
    TmgRecord.BEAVER: ActionKind.BEAVER,
    TmgRecord.TAKE: ActionKind.TAKE,
    TmgRecord.PASS: ActionKind.DROP,
}
_GAME: Final = re.compile(r"^\s*Game\s+(\d{1,6}):\s*(\d{1,5})-(\d{1,5})")
_RECORD: Final = re.compile(r"^\s*(-?)(\d{1,6})\s+(\d{1,3})(?:\s+|$)")
_OPTION: Final = re.compile(r"^\s*([A-Za-z]+[12]?):\s*(.*?)\s*$")
_PLAYER: Final = re.compile(r"^Player([12]):\s*\S+\s+(\S+)")
_DICE: Final = re.compile(r"^([1-6])([1-6]):?\s*$")
_POINTS: Final = re.compile(r"^(\d{1,9})\b")
_CUBE_VALUE: Final = re.compile(r"\bto\s+(\d{1,6})\b", re.IGNORECASE)
_FLAGS: Final = {"Crawford": "Crawford", "Jacoby": "Jacoby", "Beavers": "Beaver"}
SNIFF: Final = re.compile(rb"^\s*(?:MatchID|Player1):|^\s*Game\s+\d{1,6}:\s*\d{1,5}-\d", re.M)
"""What shows a ``.tmg`` text in its first bytes."""


@dataclass
class _Game:
    number: int
    line: int
    score: tuple[int, int]
    actions: list[ActionText] = field(default_factory=list)
    findings: list[ReadingProblem] = field(default_factory=list)
    roll: ActionText | None = None
    """A roll read and not yet played."""


class _Reader:
    def __init__(self, limits: ReadLimits) -> None:
        self.names = ["Player 1", "Player 2"]
        self.tags: dict[str, str] = {"Site": "TrueMoneyGames"}
        self.length: int | None = None
        self.games: list[_Game] = []
        self.tally = Tally(limits)

    def finding(self, code: IssueCode, message: str, line: int, column: int = 1) -> None:
        target = self.games[-1].findings if self.games else None
        self.tally.finding(target, code, message, line, column)

    def read_line(self, number: int, line: str) -> None:
        if not line.strip():
            return
        if len(line) > MAX_LINE:
            message = f"a line of {len(line)} characters is skipped"
            self.finding(IssueCode.LINE_TOO_LONG, message, number)
            return
        game = _GAME.match(line)
        if game:
            self.start_game(number, int(game[1]), (int(game[3]), int(game[2])))
            return
        record = _RECORD.match(line)
        if record and self.games:
            side = "w" if record[1] else "b"
            self.record(number, line, record, side)
            return
        option = _OPTION.match(line)
        if option:
            self.option(line.strip(), option[1], option[2])
            return
        message = f"{echoed(line.strip(), 40)} is neither an option nor a record"
        self.finding(IssueCode.UNEXPECTED_LINE, message, number)

    def start_game(self, number: int, game_number: int, score: tuple[int, int]) -> None:
        self.tally.game()
        self.flush_roll()
        self.games.append(_Game(game_number, number, score))

    def option(self, line: str, name: str, value: str) -> None:
        player = _PLAYER.match(line)
        if player:
            self.names[int(player[1]) - 1] = player[2]
        elif name == "Length" and value.isdigit():
            self.length = int(value)
        elif name == "MatchID":
            self.tags["Match ID"] = value
        elif name in _FLAGS and value.isdigit():
            self.tags[_FLAGS[name]] = "On" if int(value) else "Off"
        elif name == "Cube" and value == "0":
            self.tags["CubeLimit"] = "1"

    def record(self, number: int, line: str, found: re.Match[str], side: str) -> None:
        game = self.games[-1]
        move_number, text, column = int(found[2]), line[found.end() :].strip(), found.end() + 1
        try:
            kind = TmgRecord(int(found[3]))
        except ValueError:
            message = f"record type {found[3]} is not one gnubg reads"
            self.finding(IssueCode.UNREADABLE_CELL, message, number, found.start(3) + 1)
            return
        if kind is TmgRecord.ROLL:
            self.flush_roll()
            dice = _DICE.match(text)
            if dice:  # '?': no roll, the game is lost on time
                written = f"{dice[1]}{dice[2]}:"
                game.roll = ActionText(
                    ActionKind.ROLL,
                    side,
                    number,
                    column,
                    move_number,
                    written,
                    (int(dice[1]), int(dice[2])),
                    parse_play(written),
                )
            elif not text.startswith("?"):
                message = f"cannot read the roll {echoed(text, 20)}"
                self.finding(IssueCode.UNREADABLE_CELL, message, number, column)
            return
        if kind is TmgRecord.MOVE:
            self.play(game, number, column, text)
            return
        self.flush_roll()
        if kind in _CUBE:
            value = _CUBE_VALUE.search(text)
            action = ActionText(_CUBE[kind], side, number, column, move_number, text)
            if value:
                action = replace(action, value=int(value[1]))
            self.add(action)
        elif kind in _WINS:
            points = _POINTS.match(text)
            if points is None:
                message = f"a win says its points first, not {echoed(text, 20)}"
                self.finding(IssueCode.UNREADABLE_CELL, message, number, column)
                return
            win = ActionText(ActionKind.WIN, side, number, column, move_number, text)
            self.add(replace(win, value=int(points[1])))
        elif kind is TmgRecord.AUTO_DOUBLE:
            message = "automatic doubles are not read from a .tmg record"
            self.finding(IssueCode.UNREADABLE_CELL, message, number, column)

    def play(self, game: _Game, number: int, column: int, text: str) -> None:
        roll, game.roll = game.roll, None
        if roll is None:
            message = f"the play {echoed(text, 30)} follows no roll"
            self.finding(IssueCode.UNREADABLE_PLAY, message, number, column)
            return
        written = f"{roll.text} {'' if text.startswith('0/0') else text}".rstrip()
        try:
            roll = replace(roll, text=written, play=parse_play(written))
        except NotationError as error:
            roll = replace(roll, text=written, play=None)
            self.finding(IssueCode.UNREADABLE_PLAY, error.message, number, column)
        self.add(roll)

    def flush_roll(self) -> None:
        """A roll no play followed (a resignation after rolling) is the roll alone."""
        if self.games and self.games[-1].roll is not None:
            roll, self.games[-1].roll = self.games[-1].roll, None
            self.add(roll)

    def add(self, action: ActionText) -> None:
        game = self.games[-1]
        game.actions.append(action)
        self.tally.action(len(game.actions))

    def build(self) -> MatchText:
        self.flush_roll()
        players = (self.names[1], self.names[0])
        games = tuple(
            GameText(
                index + 1,
                game.number,
                game.line,
                players,
                game.score,
                tuple(game.actions),
                findings=tuple(game.findings),
            )
            for index, game in enumerate(self.games)
        )
        return MatchText(
            tags=self.tags,
            match_length=self.length,
            games=games,
            findings=tuple(self.tally.record_findings),
        )


def read_tmg(text: str, limits: ReadLimits | None = None) -> MatchText:
    """Every game of a ``.tmg`` record; NotationError ``no_match`` when it has no
    ``Game N: a-b`` line, ``too_many_<limit>`` past one of ``limits``."""
    reader = _Reader(limits or ReadLimits())
    for number, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        reader.read_line(number, line)
    if not reader.games:
        raise NotationError("no_match", "no 'Game N: a-b' line: this is not a .tmg match record")
    return reader.build()
