"""How well a match was played (ANALYSIS.md): GNU Backgammon's analysis of a backgammon
record, gnubg run as a separate program. ``analyse`` (``service``) takes a record's text
and the settings (``settings``) and gives a frozen ``Analysis`` (``result``, with its
JSON): each player's figures as gnubg prints them (``statistics``) and each action's
loss, mark, best play and luck (``actions``). It takes three steps a job system may take
apart: ``prepare`` (refuses a record before gnubg runs), ``gnubg.run_gnubg`` (the
program, one process; ``in_gnubg.py`` is run by gnubg's own Python, never imported here)
and ``read_back``. ``errors`` says why an analysis was not made. A long nardy or
khachapuri match is the project's own engine's (``nardy``: ``analyse`` hands it over;
``admitted`` refuses a record as the engine that would analyse it does)."""

from referee.analysis.errors import (
    AnalysisError,
    EngineFailedError,
    EngineMissingError,
    EngineTimeoutError,
    NoEngineError,
)
from referee.analysis.nardy import analyse_nardy, require_nardy_engine
from referee.analysis.result import Analysis, GameAnalysis, Sides
from referee.analysis.service import (
    Prepared,
    admitted,
    analysable,
    analyse,
    is_nardy,
    prepare,
    read_back,
    time_allowed,
)
from referee.analysis.settings import EngineName, InvalidSettingsError, Settings

__all__ = [
    "Analysis",
    "AnalysisError",
    "EngineFailedError",
    "EngineMissingError",
    "EngineName",
    "EngineTimeoutError",
    "GameAnalysis",
    "InvalidSettingsError",
    "NoEngineError",
    "Prepared",
    "Settings",
    "Sides",
    "admitted",
    "analysable",
    "analyse",
    "analyse_nardy",
    "is_nardy",
    "prepare",
    "read_back",
    "require_nardy_engine",
    "time_allowed",
]
