"""The verdict on a record (NOTATION.md §4): per game and per match, errors and warnings."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from notation.records.model import ActionText
from referee import RULES_REVISION, __version__
from referee.rules.scoring import GameResult
from referee.shapes import Shape, dumper, fields
from vocabulary import IssueCode, Side


@dataclass(frozen=True, slots=True)
class Issue:
    """An error or a warning, located in the record.

    Errors carry the position string before the action, the play as written and legal
    alternatives where they apply; ``rule`` names the broken rule for illegal actions.
    """

    code: IssueCode
    message: str
    move_number: int | None = None
    side: str | None = None
    line: int | None = None
    column: int | None = None
    rule: str | None = None
    position: str | None = None
    play: str | None = None
    alternatives: tuple[str, ...] | None = None

    @classmethod
    def at(cls, action: ActionText, code: IssueCode, message: str) -> Issue:
        """An issue located where ``action`` is written."""
        side = action.side or None
        return cls(code, message, action.move_number, side, action.line, action.column)

    def to_json(self) -> dict[str, Any]:
        return _dump_issue(self)


@dataclass(slots=True)
class GameVerdict:
    """What the rules say about one game and what the record says."""

    index: int
    number: int
    score_before: tuple[int, int]
    result: GameResult
    recorded_winner: Side | None = None
    recorded_points: int | None = None
    recorded_line: int | None = None
    """The line of the record's ``Wins`` (not in the JSON: issues carry their lines)."""
    result_mismatch: str | None = None
    crawford: bool = False
    errors: list[Issue] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return _dump_game(self)


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """The match as a whole: scores after each game, the Crawford game, the winner."""

    length: int
    players: tuple[str, str]
    scores_after: tuple[tuple[int, int], ...]
    crawford_game: int | None
    winner: Side | None
    """The match's winner by the rules, given only for a valid record that reaches the end."""
    complete: bool
    """The record runs to the end of the match (for a money session: every game ends)."""
    recorded_winner: Side | None = None
    """Who the record says won the match (by its own results where checking stopped)."""

    def to_json(self) -> dict[str, Any]:
        return _dump_summary(self)


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer to ``POST /v1/records/check``."""

    variant: str
    mode: str
    options: dict[str, Any]
    match: MatchSummary
    games: tuple[GameVerdict, ...]
    warnings: tuple[Issue, ...] = ()
    """Findings outside any game (the header zone)."""

    @property
    def valid(self) -> bool:
        return not any(game.errors for game in self.games)

    @property
    def rules_revision(self) -> int:
        return RULES_REVISION

    @property
    def referee_version(self) -> str:
        return __version__

    def to_json(self) -> dict[str, Any]:
        return _dump_verdict(self)


# -- the JSON shapes, written once: these schemas dump the objects above and are what
# openapi.yaml documents (``referee.api.schemas`` nests them through ``schema_of``) --------


class IssueSchema(Shape):
    omitted_when_none = ("rule", "position", "play", "alternatives")

    code = fields.String(required=True)
    rule = fields.String()
    message = fields.String(required=True)
    move_number = fields.Integer(required=True, allow_none=True)
    side = fields.String(required=True, allow_none=True)
    line = fields.Integer(required=True, allow_none=True)
    column = fields.Integer(required=True, allow_none=True)
    position = fields.String()
    play = fields.String()
    alternatives = fields.List(fields.String())


class GameVerdictSchema(Shape):
    index = fields.Integer(required=True)
    number = fields.Integer(required=True)
    score_before = fields.List(fields.Integer(), required=True)
    winner = fields.String(required=True, allow_none=True, attribute="result.winner")
    termination = fields.String(required=True, attribute="result.termination")
    kind = fields.String(required=True, allow_none=True, attribute="result.kind")
    cube = fields.Integer(required=True, attribute="result.cube")
    cube_owner = fields.String(required=True, allow_none=True, attribute="result.cube_owner")
    jacoby_applied = fields.Boolean(required=True, attribute="result.jacoby_applied")
    points = fields.Integer(required=True, attribute="result.points")
    recorded_points = fields.Integer(required=True, allow_none=True)
    result_mismatch = fields.String(required=True, allow_none=True)
    crawford = fields.Boolean(required=True)
    errors = fields.List(fields.Nested(IssueSchema), required=True)
    warnings = fields.List(fields.Nested(IssueSchema), required=True)


class MatchSummarySchema(Shape):
    length = fields.Integer(required=True)
    players = fields.List(fields.String(), required=True)
    scores_after = fields.List(fields.List(fields.Integer()), required=True)
    crawford_game = fields.Integer(required=True, allow_none=True)
    winner = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "by the rules; null unless the record is valid and complete"},
    )
    complete = fields.Boolean(required=True)
    recorded_winner = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "the match's winner as the record tells it (its own results"
            " where checking stopped at an error)"
        },
    )


class VerdictSchema(Shape):
    valid = fields.Boolean(required=True)
    variant = fields.String(required=True)
    mode = fields.String(required=True)
    options = fields.Dict(required=True)
    match = fields.Nested(MatchSummarySchema, required=True)
    games = fields.List(fields.Nested(GameVerdictSchema), required=True)
    warnings = fields.List(fields.Nested(IssueSchema), required=True)
    rules_revision = fields.Integer(
        metadata={
            "description": "the revision of the rules the verdict was computed under; raised"
            " whenever a verdict can change (absent from verdicts stored before revision 1)"
        }
    )
    referee_version = fields.String(metadata={"description": "the referee's package version"})


_dump_issue = dumper(IssueSchema)
_dump_game = dumper(GameVerdictSchema)
_dump_summary = dumper(MatchSummarySchema)
_dump_verdict = dumper(VerdictSchema)
