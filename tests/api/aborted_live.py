"""A live match for contract runs: created and aborted, so that its state, dice and stream
have bodies to validate, and its stream ends at once (no schemathesis call can hang on it)."""

from __future__ import annotations

from pathlib import Path

from referee.live import service as live
from referee.scopes import Scope
from referee.storage import open_storage, prepare_storage


def aborted_live_match(database: Path) -> int:
    """The id of a new live match on ``database`` (prepared if new), already aborted."""
    prepare_storage(database)
    storage = open_storage(database)
    try:
        host = storage.tokens.create((Scope.LIVE_HOST,), "host").token
        for bot in ("a", "b"):
            storage.tokens.create((Scope.PLAY,), bot)
        state = live.create(storage, host, "backgammon", 3, {}, {"w": "a", "b": "b"})
        live.abort(storage, state["id"], host)
        live_id: int = state["id"]
        return live_id
    finally:
        storage.close()
