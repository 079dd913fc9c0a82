"""Adjudication: from a record to a verdict that tournament directors can act on."""

from referee.adjudication.game import Mode, ReplayStep
from referee.adjudication.match import (
    Adjudication,
    adjudicate,
    adjudicate_record,
    check_record,
    read_record,
)
from referee.adjudication.verdict import GameVerdict, Issue, MatchSummary, Verdict

__all__ = [
    "Adjudication",
    "GameVerdict",
    "Issue",
    "MatchSummary",
    "Mode",
    "ReplayStep",
    "Verdict",
    "adjudicate",
    "adjudicate_record",
    "check_record",
    "read_record",
]
