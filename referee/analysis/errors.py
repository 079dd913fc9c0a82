"""Why an analysis was not made (ANALYSIS.md §2), each a ``RefereeError`` with a stable
code: a failed analysis keeps one as its problem, the command line prints it."""

from __future__ import annotations

from referee.errors import RefereeError


class AnalysisError(RefereeError):
    """A match that could not be analysed."""

    code = "analysis_failed"
    title = "Analysis failed"


class NoEngineError(AnalysisError):
    """A match of a variant no installed engine analyses (the nardy variants, for now)."""

    code = "no_engine"
    title = "No engine"


class EngineMissingError(AnalysisError):
    """The engine's program is not installed where it was looked for: the server cannot
    analyse until its operator installs it (``make gnubg``), so the same request may succeed
    later, as the other 503s say."""

    code = "engine_missing"
    title = "Engine missing"
    status = 503
    retry_after = 600


class EngineFailedError(AnalysisError):
    """The engine refused the record or stopped without an analysis; the message gives the
    engine's own words."""

    code = "engine_failed"
    title = "Engine failed"


class EngineTimeoutError(AnalysisError):
    """The engine was still working when its time was up; it was stopped."""

    code = "engine_timeout"
    title = "Engine timed out"
