"""An analysis as a frozen value and its JSON (ANALYSIS.md §3), shapes declared once: the
engine and settings, each player's figures over the match (STATS, with PR), and per game
each player's figures and the analysed actions; and the players' names (an addition).
The job that holds an analysis adds its
``id``, ``match_id`` and ``status``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.analysis.actions import ActionAnalysis
from referee.analysis.settings import EngineName, Settings
from referee.analysis.statistics import PlayerStats
from referee.shapes import Shape, dumper, fields, validate


@dataclass(frozen=True, slots=True)
class Sides:
    """A figure of each player: ``w`` the record's left column (White), ``b`` the right."""

    w: PlayerStats
    b: PlayerStats


@dataclass(frozen=True, slots=True)
class Names:
    """The players' names as the record writes them (``w`` the left column)."""

    w: str
    b: str


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    index: int
    players: Sides
    actions: tuple[ActionAnalysis, ...]


@dataclass(frozen=True, slots=True)
class Analysis:
    """gnubg's analysis of one match at one setting."""

    engine: EngineName
    settings: Settings
    players: Sides
    games: tuple[GameAnalysis, ...]
    names: Names

    def to_json(self) -> dict[str, Any]:
        return _dump_analysis(self)


def _count() -> Any:
    return fields.Integer(required=True, allow_none=True)


def _figure() -> Any:
    return fields.Float(required=True, allow_none=True)


def _words() -> Any:
    return fields.String(required=True, allow_none=True)


class ChequerStatsSchema(Shape):
    total_moves = _count()
    unforced_moves = _count()
    unmarked = _count()
    doubtful = _count()
    bad = _count()
    very_bad = _count()
    error_total_emg = _figure()
    error_rate_memg = _figure()
    rating = _words()


class LuckStatsSchema(Shape):
    very_lucky = _count()
    lucky = _count()
    unmarked = _count()
    unlucky = _count()
    very_unlucky = _count()
    luck_total_emg = _figure()
    luck_rate_memg = _figure()
    rating = _words()


class CubeStatsSchema(Shape):
    total_decisions = _count()
    close_decisions = _count()
    doubles = _count()
    takes = _count()
    passes = _count()
    missed_doubles_below_cp = _count()
    missed_doubles_above_cp = _count()
    wrong_doubles_below_dp = _count()
    wrong_doubles_above_tg = _count()
    wrong_takes = _count()
    wrong_passes = _count()
    error_total_emg = _figure()
    error_rate_memg = _figure()
    rating = _words()


class OverallStatsSchema(Shape):
    error_total_emg = _figure()
    error_rate_memg = _figure()
    snowie_error_rate = _figure()
    rating = _words()
    error_based_fibs_rating = _figure()


class PlayerStatsSchema(Shape):
    chequer = fields.Nested(ChequerStatsSchema, required=True, allow_none=True)
    luck = fields.Nested(LuckStatsSchema, required=True, allow_none=True)
    cube = fields.Nested(CubeStatsSchema, required=True, allow_none=True)
    overall = fields.Nested(OverallStatsSchema, required=True, allow_none=True)
    pr = fields.Float(
        required=True,
        allow_none=True,
        metadata={"description": "gnubg's judgement on eXtreme Gammon's PR scale, not XG's"},
    )


class SidesSchema(Shape):
    w = fields.Nested(PlayerStatsSchema, required=True)
    b = fields.Nested(PlayerStatsSchema, required=True)


class AnalysedActionSchema(Shape):
    index = fields.Integer(required=True, metadata={"description": "the replay's, 1-based"})
    side = fields.String(required=True)
    kind = fields.String(required=True)
    played = _words()
    best = _words()
    equity_loss = _figure()
    mark = _words()
    luck = _figure()
    luck_mark = _words()


class GameAnalysisSchema(Shape):
    index = fields.Integer(required=True)
    players = fields.Nested(SidesSchema, required=True)
    actions = fields.List(fields.Nested(AnalysedActionSchema), required=True)


class EngineSchema(Shape):
    name = fields.String(required=True)
    version = fields.String(required=True)


class SettingsSchema(Shape):
    chequer_plies = fields.Integer(required=True)
    cube_plies = fields.Integer(required=True)


class NamesSchema(Shape):
    w = fields.String(required=True)
    b = fields.String(required=True)


class AnalysisSchema(Shape):
    engine = fields.Nested(EngineSchema, required=True)
    settings = fields.Nested(SettingsSchema, required=True)
    players = fields.Nested(SidesSchema, required=True)
    games = fields.List(fields.Nested(GameAnalysisSchema), required=True)
    names = fields.Nested(NamesSchema, required=True)


_dump_analysis = dumper(AnalysisSchema)


class AnalysisProblemSchema(Shape):
    """Why an analysis failed: a stable code (ANALYSIS.md §2), a title, the details
    (gnubg's own words, when it said any)."""

    code = fields.String(required=True)
    title = fields.String(required=True)
    detail = fields.String(required=True)


class AnalysisJobSchema(Shape):
    """An analysis as the archive keeps it (ANALYSIS.md §3): the job (its id, its match,
    where it stands, its settings), once done the analysis (its engine, each player's
    figures, each game's, the names), once failed why."""

    id = fields.Integer(required=True)
    match_id = fields.Integer(required=True)
    status = fields.String(
        required=True, validate=validate.OneOf(["queued", "running", "done", "failed"])
    )
    settings = fields.Nested(SettingsSchema, required=True)
    engine = fields.Nested(
        EngineSchema, required=True, allow_none=True, metadata={"description": "once done"}
    )
    players = fields.Nested(
        SidesSchema,
        required=True,
        allow_none=True,
        metadata={"description": "each player's figures over the match, once done"},
    )
    games = fields.List(
        fields.Nested(GameAnalysisSchema),
        required=True,
        allow_none=True,
        metadata={"description": "each game's figures and analysed actions, once done"},
    )
    names = fields.Nested(NamesSchema, required=True, allow_none=True)
    problem = fields.Nested(
        AnalysisProblemSchema,
        required=True,
        allow_none=True,
        metadata={"description": "why it failed (engine_failed, engine_timeout, engine_missing)"},
    )
    attempts = fields.Integer(
        required=True, metadata={"description": "how many times a worker took it"}
    )
    created_at = fields.String(required=True)
    started_at = fields.String(required=True, allow_none=True)
    finished_at = fields.String(required=True, allow_none=True)


class AnalysisListSchema(Shape):
    analyses = fields.List(
        fields.Nested(AnalysisJobSchema),
        required=True,
        metadata={"description": "the match's analyses, newest first"},
    )
