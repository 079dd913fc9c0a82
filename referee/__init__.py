"""nardy-referee: a referee and record server for backgammon, long nardy and khachapuri."""

__version__ = "0.1.0"

RULES_REVISION = 4
"""Raised whenever a stored verdict could come out differently: stored verdicts of an older
revision are re-checked (``nardy-referee recheck``), cached replays are keyed by it."""
