"""What any engine's analysis asks of a record: valid, with games (an engine would
otherwise analyse other games than the written ones)."""

from __future__ import annotations

from referee.adjudication.verdict import Verdict
from referee.errors import InvalidRecordError


def require_valid(verdict: Verdict) -> None:
    """InvalidRecordError for a record with errors or without games."""
    errors = [issue for game in verdict.games for issue in game.errors]
    if errors or not verdict.valid:
        first = f" (line {errors[0].line}: {errors[0].message})" if errors else ""
        raise InvalidRecordError(
            f"the record has errors{first}: only a valid record is analysed, since the engine"
            " would analyse other games than the ones written"
        )
    if not verdict.games:
        raise InvalidRecordError("the record holds no game to analyse")
