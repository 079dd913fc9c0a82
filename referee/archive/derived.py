"""What is computed from a stored record (replays, re-checks under other options), computed
once per rules revision and kept, refusals included."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import replace
from typing import Any

from referee import RULES_REVISION
from referee.adjudication import adjudicate, check_record
from referee.adjudication.budget import WorkLimitError, WorkLimits
from referee.adjudication.game import ReplayStep
from referee.archive.stored import MAX_ID, known_variant, stored_match
from referee.errors import (
    ArchiveBusyError,
    NotFoundError,
)
from referee.rules.engine import CHOSEN, Engine
from referee.storage.model import Json
from referee.storage.stores import Storage


def replay(
    storage: Storage,
    match_id: int,
    index: int,
    limits: WorkLimits | None = None,
    engine: Engine = CHOSEN,
) -> dict[str, Any]:
    """Every action of one game, with the positions before and after it. The game index is
    checked before any work; the replays of every game are computed once per stored record
    and rules revision, then kept."""
    games = storage.matches.games_of(match_id) if 0 < match_id <= MAX_ID else None
    if games is None:
        raise NotFoundError(f"no match with id {match_id}")
    if not 1 <= index <= games:
        raise NotFoundError(f"match {match_id} has no game {index}")
    key = f"replay/{index}"
    actions = _kept(storage, match_id, key)
    if actions is None:
        _kept(storage, match_id, REPLAY_REFUSED)  # a refusal kept for this record: again
        stored = stored_match(storage, match_id)
        limits = limits or WorkLimits()
        # Writing every position costs about as much again as checking: a record that was
        # checked within the deadline is replayed within twice that, once.
        replaying = replace(limits, seconds=2 * limits.seconds)
        with _keeping_refusal(storage, match_id, REPLAY_REFUSED):
            variant = known_variant(stored)
            adjudication = adjudicate(
                stored.original, variant, "condone", stored.options, True, replaying, engine
            )
        replays = {
            f"replay/{number}": replay_actions(steps)
            for number, steps in enumerate(adjudication.replays, start=1)
        }
        _keep(storage, match_id, replays)
        actions = replays.get(key)
        if actions is None:  # a variation the referee cannot check has no replays
            raise NotFoundError(f"match {match_id} has no replay of game {index}")
    return {"match_id": match_id, "game": index, "actions": actions}


def check_stored(
    storage: Storage,
    match_id: int,
    mode: str,
    options: Mapping[str, object],
    limits: WorkLimits | None = None,
    engine: Engine = CHOSEN,
) -> dict[str, Any]:
    """The verdict on a stored record under ``mode`` and other ``options`` (over the stored
    ones), computed once per stored record, request and rules revision, then kept."""
    stored = stored_match(storage, match_id)
    merged = {**stored.options, **options}
    key = "check/" + json.dumps({"mode": mode, "options": merged}, sort_keys=True)
    verdict = _kept(storage, match_id, key)
    if verdict is None:
        variant = known_variant(stored)
        with _keeping_refusal(storage, match_id, key):
            checked = check_record(stored.original, variant, mode, merged, limits, engine)
            verdict = checked.to_json()
        _keep(storage, match_id, {key: verdict})
        storage.derived.forget(match_id, "check/", MAX_KEPT_CHECKS)
    return verdict


REPLAY_REFUSED = "replay/refused"
MAX_KEPT_CHECKS = 16
"""Re-checks kept per stored match (the most recent): anonymous clients choose the options,
so what they may make the archive keep is bounded."""


def _kept(storage: Storage, match_id: int, key: str) -> Json | None:
    """What was kept under ``key`` for this rules revision (None: nothing); a kept refusal
    is raised again rather than redone."""
    body = storage.derived.kept(match_id, key, RULES_REVISION)
    if isinstance(body, dict) and "refused" in body:
        refusal = body["refused"]
        raise WorkLimitError(refusal["message"], **refusal["extensions"])
    return body


@contextmanager
def _keeping_refusal(storage: Storage, match_id: int, key: str) -> Iterator[None]:
    """Keep a work-limit refusal under ``key``: the same record, revision and limits would
    be refused again. Not a deadline: that one depends on the machine's load."""
    try:
        yield
    except WorkLimitError as error:
        if error.extensions.get("limit") != "seconds":
            refusal = {"message": error.message, "extensions": error.extensions}
            _keep(storage, match_id, {key: {"refused": refusal}})
        raise


def _keep(storage: Storage, match_id: int, results: dict[str, Json]) -> None:
    """Keep derived results; a busy archive only means they are computed again next time."""
    with suppress(ArchiveBusyError):
        storage.derived.keep(match_id, RULES_REVISION, results)


def replay_actions(steps: Sequence[ReplayStep]) -> list[dict[str, Any]]:
    """The replay of one game as the API answers it: each action with its positions."""
    actions = []
    for step in steps:
        action = step.action
        entry: dict[str, Any] = {
            "move_number": action.move_number,
            "side": action.side,
            "action": str(action.kind),
            "dice": list(action.dice) if action.dice else None,
            "play": step.play,
            "value": action.value,
            "position_before": step.position_before,
            "position_after": step.position_after,
            "line": action.line,
        }
        if step.error is not None:
            entry["error"] = step.error.to_json()
        actions.append(entry)
    return actions
