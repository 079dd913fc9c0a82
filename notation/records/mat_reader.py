"""A lenient reader for JellyFish ``.mat`` records as real programs write them.

It never stops at the first problem (python-chess's PGN reader is the model): unreadable
cells become findings with their line and column, and reading goes on. Columns are not
fixed (34, 38, 40, 41 in the corpus, and plays overflow): a row is split where a cell
starts (``DD:``, a cube word, ``Wins``...), and a cell belongs to the right-hand player
when it starts beyond ``RIGHT_COLUMN`` (FORMATS.md part 1 §3, §7).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Final

from notation.errors import NotationError, echoed
from notation.plays import parse_play
from notation.records.model import ActionKind, ActionText, GameText, MatchText, ReadingProblem
from vocabulary import IssueCode

RIGHT_COLUMN: Final = 30
"""A cell starting beyond this 1-based column is the right-hand (second) player's."""

_TAG = re.compile(r'^[;#]\s*\[([^"\]]*)"(.*)"\s*\]\s*$')
_MATCH_LINE = re.compile(r"^\s*(\d{1,5})\s+point\s+match\b", re.IGNORECASE)
_GAME_LINE = re.compile(r"^\s*Game\s+(\d{1,6})\s*$")
_SCORE = re.compile(r"\s*(\d{1,5})(?:\s|$)")
MAX_LINE = 4096
"""Longer lines are skipped with a finding: real rows are under 200 characters, and every
pattern here then runs in time proportional to a bounded line."""
_RATING = re.compile(r",\s*[\d.]+$")
_NUMBERED = re.compile(r"^\s*(\d{1,4})\)")
_CELL_START = re.compile(
    r"(?<!\S)(?:"
    r"(?P<roll>[1-6][1-6]:)"
    r"|(?P<cube>(?:doubles|beavers|raccoons)\s*=>)"
    r"|(?P<word>takes|drops)\b"
    r"|(?P<result>(?:wins|losses)\s+\d)"
    r"|(?P<edit>illegal\s+play)"
    r"|(?P<number>\d{1,4}\))"
    r")",
    re.IGNORECASE,
)
_SET_POS = re.compile(r"^;\s*Set Pos=", re.IGNORECASE)
_ROLL = re.compile(r"[1-6][1-6]:")
_ILLEGAL_PLAY = re.compile(r"\s*illegal\s+play\b", re.IGNORECASE)
_EDIT_WORD = re.compile("illegal", re.IGNORECASE)
_CUBE_CELL = re.compile(r"(doubles|beavers|raccoons)\s*=>\s*(\d{1,6})\s*$", re.IGNORECASE)
_RESULT_CELL = re.compile(
    r"(wins|losses)\s+(\d{1,9})\s+points?(\s+and\s+the\s+match)?\s*$", re.IGNORECASE
)
_CUBE_KINDS = {
    "doubles": ActionKind.DOUBLE,
    "beavers": ActionKind.BEAVER,
    "raccoons": ActionKind.RACCOON,
}


@dataclass
class _GameBuilder:
    index: int
    number: int
    line: int
    start: str | None
    players: tuple[str, str] = ("", "")
    score: tuple[int, int] | None = None
    actions: list[ActionText] = field(default_factory=list)
    findings: list[ReadingProblem] = field(default_factory=list)
    expecting_score: bool = True

    def build(self) -> GameText:
        return GameText(
            index=self.index,
            number=self.number,
            line=self.line,
            players=self.players,
            score=self.score,
            actions=tuple(self.actions),
            start=self.start,
            findings=tuple(self.findings),
        )


@dataclass(frozen=True, slots=True)
class ReadLimits:
    """How much one record may hold, enforced while reading (NotationError at the first
    game, action or finding over a limit, named by its code ``too_many_<limit>``)."""

    games: int | None = None
    actions_per_game: int | None = None
    actions: int | None = None
    findings: int | None = None


class _Reader:
    def __init__(self, limits: ReadLimits) -> None:
        self.limits = limits
        self.earlier_actions = 0
        """Actions of the games before the current one."""
        self.finding_count = 0
        self.tags: dict[str, str] = {}
        self.comments: list[str] = []
        self.match_length: int | None = None
        self.games: list[_GameBuilder] = []
        self.findings: list[ReadingProblem] = []
        self.pending_start: str | None = None

    def finding(self, code: IssueCode, message: str, line: int, column: int = 1) -> None:
        self.finding_count += 1
        _within(self.limits.findings, self.finding_count, "findings")
        target = self.games[-1].findings if self.games else self.findings
        target.append(ReadingProblem(code, message, line, column))

    def read_line(self, number: int, line: str) -> None:
        stripped = line.strip()
        if not stripped:
            return
        if len(line) > MAX_LINE:
            self.finding(
                IssueCode.LINE_TOO_LONG, f"a line of {len(line)} characters is skipped", number
            )
            return
        if stripped[0] in ";#":
            if self.games and _SET_POS.match(stripped):
                edit = ActionText(ActionKind.EDIT, "", number, 1, None, stripped[1:].strip())
                self.games[-1].actions.append(edit)
                self.count_actions(self.games[-1])
            else:
                self.comment(stripped)
            return
        match_line = _MATCH_LINE.match(line)
        if match_line and not self.games:
            self.match_length = int(match_line[1])
            return
        game_line = _GAME_LINE.match(line)
        if game_line:
            _within(self.limits.games, len(self.games) + 1, "games")
            if self.games:
                self.earlier_actions += len(self.games[-1].actions)
            self.games.append(
                _GameBuilder(len(self.games) + 1, int(game_line[1]), number, self.pending_start)
            )
            self.pending_start = None
            return
        if not self.games:
            self.finding(
                IssueCode.UNEXPECTED_LINE, f"{echoed(stripped, 40)} before the first game", number
            )
            return
        game = self.games[-1]
        if game.expecting_score:
            game.expecting_score = False
            if self.score_line(game, line):
                return
            self.finding(
                IssueCode.MISSING_SCORE_LINE, "a game starts with 'name : score' lines", number
            )
        self.row(game, number, line)
        self.count_actions(game)

    def count_actions(self, game: _GameBuilder) -> None:
        _within(self.limits.actions_per_game, len(game.actions), "actions_per_game")
        _within(self.limits.actions, self.earlier_actions + len(game.actions), "actions")

    def comment(self, stripped: str) -> None:
        tag = _TAG.match(stripped)
        name = tag[1].strip() if tag else ""
        if tag is None or not name:
            self.comments.append(stripped[1:].strip())
        elif name == "StartPosition":
            self.pending_start = tag[2]
        else:
            self.tags[name] = tag[2]

    def score_line(self, game: _GameBuilder, line: str) -> bool:
        """``name : score    name : score``, split at the first two colons as gnubg does."""
        if _CELL_START.search(line):
            return False
        left, colon, rest = line.partition(":")
        first = _SCORE.match(rest)
        if not colon or first is None:
            return False
        right, colon, rest = rest[first.end() :].partition(":")
        second = _SCORE.fullmatch(rest.rstrip() + " ")
        if not colon or second is None:
            return False
        names = (_RATING.sub("", name.strip()).strip() for name in (left, right))
        game.players = (next(names), next(names))
        game.score = (int(first[1]), int(second[1]))
        return True

    def row(self, game: _GameBuilder, number: int, line: str) -> None:
        numbered = _NUMBERED.match(line)
        move_number = int(numbered[1]) if numbered else None
        body_start = numbered.end() if numbered else 0
        starts = _cell_starts(line, body_start)
        leading = line[body_start : starts[0].start() if starts else len(line)].strip()
        if leading:
            column = line.index(leading, body_start) + 1
            message = f"cannot read {echoed(leading, 40)}"
            self.finding(IssueCode.UNREADABLE_CELL, message, number, column)
        for index, start in enumerate(starts):
            if start["number"]:
                continue
            end = starts[index + 1].start() if index + 1 < len(starts) else len(line)
            text = line[start.start() : end].strip()
            column = start.start() + 1
            side = "w" if column <= RIGHT_COLUMN else "b"
            action = self.cell(text, side, number, column, move_number)
            if action is not None:
                game.actions.append(action)

    def cell(
        self, text: str, side: str, line: int, column: int, move_number: int | None
    ) -> ActionText | None:
        if _ROLL.match(text):
            dice = (int(text[0]), int(text[1]))
            if _ILLEGAL_PLAY.match(text, 3):
                return ActionText(ActionKind.EDIT, side, line, column, move_number, text, dice)
            try:
                play = parse_play(text)
            except NotationError as error:
                offset = (error.column or 1) - 1
                self.finding(IssueCode.UNREADABLE_PLAY, error.message, line, column + offset)
                play = None
            return ActionText(ActionKind.ROLL, side, line, column, move_number, text, dice, play)
        base = ActionText(ActionKind.ROLL, side, line, column, move_number, text)
        if text.lower() in ("takes", "drops"):
            return replace(
                base, kind=ActionKind.TAKE if text.lower() == "takes" else ActionKind.DROP
            )
        cube = _CUBE_CELL.match(text)
        if cube:
            return replace(base, kind=_CUBE_KINDS[cube[1].lower()], value=int(cube[2]))
        result = _RESULT_CELL.match(text)
        if result:
            kind = ActionKind.WIN if result[1].lower() == "wins" else ActionKind.LOSS
            return replace(base, kind=kind, value=int(result[2]), and_the_match=bool(result[3]))
        if text.lower().startswith("illegal"):
            return replace(base, kind=ActionKind.EDIT)
        self.finding(IssueCode.UNREADABLE_CELL, f"cannot read {echoed(text, 40)}", line, column)
        return None


def _cell_starts(line: str, start: int) -> list[re.Match[str]]:
    """Where the cells of a row begin. gnubg's ``52: Illegal play (...)`` is one cell: the
    roll with the edit that replaced its play; nothing inside the parenthesis starts a cell."""
    if not _EDIT_WORD.search(line, start):  # no edit cell: the common row, read at once
        return list(_CELL_START.finditer(line, start))
    starts: list[re.Match[str]] = []
    closing = -1
    for found in _CELL_START.finditer(line, start):
        if found.start() < closing:
            continue
        if found["edit"]:
            closing = line.find(")", found.start())
            closing = len(line) if closing < 0 else closing
            previous = starts[-1] if starts else None
            if previous and previous["roll"] and not line[previous.end() : found.start()].strip():
                continue
        starts.append(found)
    return starts


def _within(limit: int | None, count: int, name: str) -> None:
    if limit is not None and count > limit:
        raise past_limit(name, limit)


def past_limit(name: str, limit: int) -> NotationError:
    """The error of a record past the reading limit ``name`` (a field of ReadLimits)."""
    return NotationError(f"too_many_{name}", f"more than {limit:,} {name} in the record")


def read_comments(comments: Iterable[tuple[int, str]]) -> tuple[MatchText, dict[int, str]]:
    """The tags and comments of a record's ``;``/``#`` lines, as ``read_mat`` reads them
    (for a record whose other lines were read elsewhere), with the start positions by the
    index of the game they start. ``comments`` are (games before the line, stripped line)."""
    reader = _Reader(ReadLimits())
    starts: dict[int, str] = {}
    for games_before, line in comments:
        reader.comment(line)
        if reader.pending_start is not None:
            starts[games_before + 1] = reader.pending_start
            reader.pending_start = None
    return MatchText(tags=reader.tags, comments=tuple(reader.comments)), starts


def read_mat(text: str, limits: ReadLimits | None = None, first_line: int = 1) -> MatchText:
    """Read a whole record, its first line numbered ``first_line`` (a later match of a
    file, numbered as in the file); raises NotationError only when no match or game is
    found, or as soon as the record goes past one of ``limits``."""
    reader = _Reader(limits or ReadLimits())
    for number, line in enumerate(text.lstrip("\ufeff").splitlines(), start=first_line):
        reader.read_line(number, line)
    if not reader.games and reader.match_length is None:
        raise NotationError(
            "no_match", "no 'N point match' line and no 'Game N' line: this is not a match record"
        )
    return MatchText(
        tags=reader.tags,
        comments=tuple(reader.comments),
        match_length=reader.match_length,
        games=tuple(game.build() for game in reader.games),
        findings=tuple(reader.findings),
    )
