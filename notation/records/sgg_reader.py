"""GamesGrid/GridGammon ``.sgg`` records read into the record model, as gnubg's ``import
sgg`` reads them (its ``import.c`` is the specification; nothing of it is copied).

The header holds ``alice vs. bob`` and option lines (``Crawford: Yes``, ``Jacoby: No``,
``Doubling Cube: No`` ...); each game starts ``Game N. A-B/L`` (scores before it, alice's
first, ``*`` after a score marking the Crawford game; no ``/L``, a money game). A move line
is ``N<TAB>43:`` (the roll) then ``N<TAB>43: 13/9, 13/10`` (its play), one more tab for
bob; ``62: O-O`` is a dance, ``double``, ``beaver``, ``raccoon``, ``accept``, ``pass`` are
the cube, ``resign`` a resignation, and a line with `` wins `` (``bob wins 2 points.``)
ends the game. gnubg swaps the players after reading: bob is the left (first) player of
the record, and so is he here. Repeated lines (gnubg: "spurious duplicate moves") are
read once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Final

from notation.errors import NotationError, echoed
from notation.plays import parse_play
from notation.records.mat_reader import MAX_LINE, ReadLimits
from notation.records.model import ActionKind, ActionText, GameText, MatchText, ReadingProblem
from notation.records.tally import Tally
from vocabulary import IssueCode

_PLAYERS: Final = re.compile(r"^\s*(.*?)\s+vs\.\s+(.*?)\s*$")
_GAME: Final = re.compile(r"^Game (\d{1,6})\.\s*(\d{1,5})(\*?)-(\d{1,5})(\*?)(?:/(\d{1,5}))?")
_MOVE: Final = re.compile(r"^(\d{1,5})\t(\t?)(.*?)\s*$")
_ROLL: Final = re.compile(r"^([1-6])([1-6]):\s*(.*)$")
_WINS: Final = re.compile(r"^\s*(.*?)\s+wins\s+(\d{1,9})\b")
_OPTIONS: Final = {"Crawford": "Crawford", "Jacoby": "Jacoby", "Beavers": "Beaver"}
_CUBE: Final = {
    "double": ActionKind.DOUBLE,
    "beaver": ActionKind.BEAVER,
    "raccoon": ActionKind.RACCOON,
    "accept": ActionKind.TAKE,
    "pass": ActionKind.DROP,
}
SNIFF: Final = re.compile(rb"^Game \d{1,6}\.\s*\d{1,5}\*?-\d", re.M)
"""What shows an SGG text in its first bytes: a ``Game N. A-B`` line."""


@dataclass
class _Game:
    number: int
    line: int
    score: tuple[int, int]
    actions: list[ActionText] = field(default_factory=list)
    findings: list[ReadingProblem] = field(default_factory=list)
    roll: ActionText | None = None
    """A roll read and not yet played."""
    last: str = ""
    """The last move line, as written (a repeated one is read once)."""


class _Reader:
    def __init__(self, limits: ReadLimits) -> None:
        self.names: tuple[str, str] | None = None
        self.tags: dict[str, str] = {}
        self.length = 0
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
        game = _GAME.match(line)
        if self.names is None:
            players = _PLAYERS.match(line)
            if players:
                self.names = (players[1], players[2])
        elif game:
            self.start_game(number, game)
        elif not self.games:
            self.option(line.strip())
        elif " wins " in line:
            self.result(self.games[-1], number, line)
        elif _MOVE.match(line):
            self.move(self.games[-1], number, line)

    def option(self, line: str) -> None:
        name, colon, value = line.partition(":")
        if colon and name in _OPTIONS:
            self.tags[_OPTIONS[name]] = "On" if value.strip() == "Yes" else "Off"
        elif colon and name == "Doubling Cube" and value.strip() == "No":
            self.tags["CubeLimit"] = "1"

    def start_game(self, number: int, found: re.Match[str]) -> None:
        self.tally.game()
        self.flush_roll()
        if not self.games:
            self.length = int(found[6] or 0)
        self.games.append(_Game(int(found[1]), number, (int(found[4]), int(found[2]))))

    def move(self, game: _Game, number: int, line: str) -> None:
        if line == game.last:
            return
        game.last = line
        found = _MOVE.match(line)
        assert found is not None
        side, text, column = ("w" if found[2] else "b"), found[3], found.start(3) + 1
        base = ActionText(ActionKind.ROLL, side, number, column, int(found[1]), text)
        roll = _ROLL.match(text.replace(" -", "66", 1) if text.startswith(" -") else text)
        word = text.split(" ", 1)[0].lower()
        if roll:
            self.roll(game, base, roll)
        elif word in _CUBE:
            self.flush_roll()
            self.add(replace(base, kind=_CUBE[word]))
        elif word.startswith("resign"):
            self.flush_roll()
        else:
            self.finding(
                IssueCode.UNREADABLE_CELL, f"cannot read {echoed(text, 40)}", number, column
            )

    def roll(self, game: _Game, base: ActionText, found: re.Match[str]) -> None:
        """``43:`` (a roll), ``43: 13/9, 13/10`` (its play: the pending roll's, or a new
        one), ``43: O-O`` (a dance)."""
        dice, rest = (int(found[1]), int(found[2])), found[3]
        pending = game.roll
        if pending is None or pending.side != base.side or pending.dice != dice:
            self.flush_roll()
            pending = replace(base, text=f"{dice[0]}{dice[1]}:", dice=dice)
        if "O-O" in rest:
            game.roll = None
            self.add(replace(pending, play=parse_play(pending.text)))
        elif rest and not rest.lower().startswith("resign"):
            self.play(game, replace(pending, line=base.line, column=base.column), rest)
        else:
            game.roll = pending

    def play(self, game: _Game, roll: ActionText, text: str) -> None:
        game.roll = None
        written = f"{roll.text} {' '.join(text.replace(',', ' ').split())}"
        try:
            self.add(replace(roll, text=written, play=parse_play(written)))
        except NotationError as error:
            self.finding(IssueCode.UNREADABLE_PLAY, error.message, roll.line, roll.column)
            self.add(replace(roll, text=written, play=None))

    def result(self, game: _Game, number: int, line: str) -> None:
        self.flush_roll()
        found = _WINS.match(line)
        names = self.names or ("", "")
        if found is None or found[1] not in names:
            message = f"{echoed(line.strip(), 40)} names no player of the record"
            self.finding(IssueCode.UNREADABLE_CELL, message, number)
            return
        side = "b" if found[1] == names[0] else "w"
        self.add(
            ActionText(ActionKind.WIN, side, number, 1, None, line.strip(), value=int(found[2]))
        )

    def flush_roll(self) -> None:
        """A roll no play followed (a resignation after rolling) is the roll alone."""
        game = self.games[-1] if self.games else None
        if game is not None and game.roll is not None:
            roll, game.roll = game.roll, None
            self.add(roll if roll.play else replace(roll, play=parse_play(roll.text)))

    def add(self, action: ActionText) -> None:
        game = self.games[-1]
        game.actions.append(action)
        self.tally.action(len(game.actions))

    def build(self) -> MatchText:
        self.flush_roll()
        names = self.names or ("", "")
        games = tuple(
            GameText(
                index + 1,
                game.number,
                game.line,
                (names[1], names[0]),
                game.score,
                tuple(game.actions),
                findings=tuple(game.findings),
            )
            for index, game in enumerate(self.games)
        )
        return MatchText(
            tags={"Site": "GamesGrid", **self.tags},
            match_length=self.length,
            games=games,
            findings=tuple(self.tally.record_findings),
        )


def read_sgg(text: str, limits: ReadLimits | None = None) -> MatchText:
    """Every game of an SGG record; NotationError ``no_match`` without an ``alice vs.
    bob`` line and a ``Game N. A-B`` line, ``too_many_<limit>`` past one of ``limits``."""
    reader = _Reader(limits or ReadLimits())
    for number, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        reader.read_line(number, line.rstrip("\r"))
    if not reader.games:
        raise NotationError(
            "no_match", "no 'vs.' and 'Game N. A-B' lines: this is not an SGG record"
        )
    return reader.build()
