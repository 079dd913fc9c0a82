"""Adjudication: from a record to a verdict that tournament directors can act on."""

from referee.adjudication.match import (
    Adjudication,
    adjudicate,
    adjudicate_record,
    check_and_write,
    check_record,
    read_record,
)
from referee.adjudication.setting import Mode
from referee.adjudication.verdict import GameVerdict, Issue, MatchSummary, Verdict

__all__ = [
    "Adjudication",
    "GameVerdict",
    "Issue",
    "MatchSummary",
    "Mode",
    "Verdict",
    "adjudicate",
    "adjudicate_record",
    "check_and_write",
    "check_record",
    "read_record",
]
