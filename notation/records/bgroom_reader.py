"""BGRoom ``.bgf`` game records read into the record model, as gnubg's ``import bgroom``
reads them (its ``import.c`` is the specification; nothing of it is copied). gnubg reads
the text form: a ``BGF version`` line, then per game

    Game 1 - alice (X) vs. bob
    Single game
    1.X:(6 2) 13/7 8/6
    2.0:(4 4) can't move
    3.X:Double
    4.X:(5 3) 8/3 6/3   (the line after a double takes it, unless it is ``Beaver``)
                        (a blank line ends the game; right after a double, it is a drop)

``X`` is the record's first (left) player: the player named first when his mark is
``(X)``, the other one when it is ``(0)``. Every game is a money game (a session of length
0) with no score lines (gnubg writes 0 : 0 for each), and the record says no result: the
rules find it. ``Win the Match`` ends the record.
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

_GAME: Final = re.compile(r"^Game (\d{1,6}) - (\S+) \(([X0])\) vs\. (\S+)")
_ACTION: Final = re.compile(r"^(\d{1,5})\.([X0]):\s*(.*?)\s*$")
_ROLL: Final = re.compile(r"^\(([1-6]) ([1-6])\)\s*(.*)$")
SNIFF: Final = re.compile(rb"^BGF version", re.M)
"""What shows a BGRoom text in its first bytes."""


@dataclass
class _Game:
    number: int
    line: int
    players: tuple[str, str]
    actions: list[ActionText] = field(default_factory=list)
    findings: list[ReadingProblem] = field(default_factory=list)
    doubled: bool = False
    """The last action was a double: the next line answers it."""
    over: bool = False


class _Reader:
    def __init__(self, limits: ReadLimits) -> None:
        self.games: list[_Game] = []
        self.tally = Tally(limits)
        self.started = False
        self.finished = False

    def finding(self, code: IssueCode, message: str, line: int, column: int = 1) -> None:
        target = self.games[-1].findings if self.games else None
        self.tally.finding(target, code, message, line, column)

    def read_line(self, number: int, line: str) -> None:
        if not self.started or self.finished:
            self.started = self.started or line.startswith("BGF version")
            return
        if len(line) > MAX_LINE:
            message = f"a line of {len(line)} characters is skipped"
            self.finding(IssueCode.LINE_TOO_LONG, message, number)
            return
        game = self.games[-1] if self.games and not self.games[-1].over else None
        if "Win the Match" in line:
            self.finished = True
        elif game is None:
            self.between_games(number, line)
        elif not line.strip():
            self.end_game(game, number)
        elif game.actions or not line.startswith("Single"):
            self.action(game, number, line)

    def between_games(self, number: int, line: str) -> None:
        found = _GAME.match(line)
        if found:
            self.tally.game()
            names = (found[2], found[4]) if found[3] == "X" else (found[4], found[2])
            self.games.append(_Game(int(found[1]), number, names))
        elif line.strip():
            message = f"{echoed(line.strip(), 40)} is not a 'Game N - ...' line"
            self.finding(IssueCode.UNEXPECTED_LINE, message, number)

    def end_game(self, game: _Game, number: int) -> None:
        if game.doubled:
            doubler = game.actions[-1].side
            side = "b" if doubler == "w" else "w"
            self.add(game, ActionText(ActionKind.DROP, side, number, 1, None, "(blank: a drop)"))
        game.over = True

    def action(self, game: _Game, number: int, line: str) -> None:
        found = _ACTION.match(line)
        if found is None:
            message = f"{echoed(line.strip(), 40)} is not a 'N.X:...' line"
            self.finding(IssueCode.UNREADABLE_CELL, message, number)
            return
        side, text, column = ("w" if found[2] == "X" else "b"), found[3], found.start(3) + 1
        base = ActionText(ActionKind.ROLL, side, number, column, int(found[1]), text)
        if game.doubled:  # the double is answered: beavered, or taken by this line's acting
            game.doubled = False
            taker = "b" if game.actions[-1].side == "w" else "w"
            kind = ActionKind.BEAVER if text == "Beaver" else ActionKind.TAKE
            self.add(game, replace(base, kind=kind, side=taker))
            if kind is ActionKind.BEAVER:
                return
        roll = _ROLL.match(text)
        if text == "Double":
            game.doubled = True
            self.add(game, replace(base, kind=ActionKind.DOUBLE))
        elif roll:
            play = "" if roll[3].lower().startswith("can't move") else roll[3]
            written = f"{roll[1]}{roll[2]}: {play}".rstrip()
            action = replace(base, text=written, dice=(int(roll[1]), int(roll[2])))
            try:
                action = replace(action, play=parse_play(written))
            except NotationError as error:
                self.finding(IssueCode.UNREADABLE_PLAY, error.message, number, column)
            self.add(game, action)
        else:
            self.finding(
                IssueCode.UNREADABLE_CELL, f"cannot read {echoed(text, 40)}", number, column
            )

    def add(self, game: _Game, action: ActionText) -> None:
        game.actions.append(action)
        self.tally.action(len(game.actions))

    def build(self) -> MatchText:
        games = tuple(
            GameText(
                index + 1,
                game.number,
                game.line,
                game.players,
                None,
                tuple(game.actions),
                findings=tuple(game.findings),
            )
            for index, game in enumerate(self.games)
        )
        return MatchText(
            tags={"Site": "BGRoom"},
            match_length=0,
            games=games,
            findings=tuple(self.tally.record_findings),
        )


def read_bgroom(text: str, limits: ReadLimits | None = None) -> MatchText:
    """Every game of a BGRoom text; NotationError ``no_match`` without a ``BGF version``
    line and a game, ``too_many_<limit>`` past one of ``limits``."""
    reader = _Reader(limits or ReadLimits())
    for number, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        reader.read_line(number, line.rstrip("\r"))
    if not reader.games:
        raise NotationError(
            "no_match", "no 'BGF version' line and game: this is not a BGRoom record"
        )
    return reader.build()
