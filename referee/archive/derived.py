"""What is computed from a stored record (replays, re-checks under other options), computed
once per rules revision and kept, refusals included."""

from __future__ import annotations

import json
import math
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from dataclasses import replace
from typing import Any

from referee import RULES_REVISION
from referee.adjudication import adjudicate, check_record
from referee.adjudication.budget import WorkLimitError, WorkLimits
from referee.adjudication.game import ReplayStep
from referee.archive.stored import MAX_ID, known_variant, stored_match
from referee.errors import (
    ArchiveBusyError,
    ComputingError,
    NotFoundError,
    StorageUnavailableError,
)
from referee.rules.engine import CHOSEN, Engine
from referee.storage.model import Json
from referee.storage.stores import Storage

Admission = Callable[[], AbstractContextManager[object]]
"""What a computation must pass before it starts (the pages' rate limit and check slot:
a kept result costs none of them)."""

CLAIM_WAIT_SECONDS = 5.0
"""How long a request waits for a replay another request is computing before it is told
to ask again (503 ``computing``, with Retry-After)."""
CLAIM_LOOK_SECONDS = 0.25
REPLAY_BATCH = 200
"""Games whose replay is written out (and its actions freed) at a time."""


def replay(
    storage: Storage,
    match_id: int,
    index: int,
    limits: WorkLimits | None = None,
    engine: Engine = CHOSEN,
    admit: Admission | None = None,
) -> dict[str, Any]:
    """Every action of one game, with the positions before and after it. The game index is
    checked before any work; the replays of every game are computed once per stored record
    and rules revision, then kept, refusals too. One request computes them (a claim in
    storage, across workers and instances); others asking meanwhile wait up to
    ``CLAIM_WAIT_SECONDS`` for the result, then get 503 ``computing``. ``admit`` is passed
    before the computation (only then)."""
    games = storage.matches.games_of(match_id) if 0 < match_id <= MAX_ID else None
    if games is None:
        raise NotFoundError(f"no match with id {match_id}")
    if not 1 <= index <= games:
        raise NotFoundError(f"match {match_id} has no game {index}")
    key = f"replay/{index}"
    actions = _kept(storage, match_id, key)
    if actions is None:
        _kept(storage, match_id, REPLAY_REFUSED)  # a refusal kept for this record: again
        limits = limits or WorkLimits()
        # Writing every position costs about as much again as checking: a record that was
        # checked within the deadline is replayed within twice that, once.
        replaying = replace(limits, seconds=2 * limits.seconds)
        owner = uuid.uuid4().hex
        claim = replaying.seconds + CLAIM_MARGIN_SECONDS
        if not storage.derived.claim(match_id, REPLAYS, owner, time.time(), claim):
            return _waited(storage, match_id, index, key)
        try:
            with admit() if admit is not None else nullcontext():
                actions = _replayed(storage, match_id, key, replaying, engine)
        finally:
            with suppress(ArchiveBusyError, StorageUnavailableError):
                storage.derived.release(match_id, REPLAYS, owner)
        if actions is None:  # a variation the referee cannot check has no replays
            raise NotFoundError(f"match {match_id} has no replay of game {index}")
    return {"match_id": match_id, "game": index, "actions": actions}


REPLAYS = "replay"
"""The key of the claim on computing a stored record's replays."""
CLAIM_MARGIN_SECONDS = 30.0
"""A claim outlives its computation's deadline by this much (then another may take it:
the computing worker died)."""


def _replayed(
    storage: Storage, match_id: int, key: str, limits: WorkLimits, engine: Engine
) -> Json | None:
    """Compute and keep every game's replay (in batches, each freed once written); the
    actions kept under ``key``."""
    stored = stored_match(storage, match_id)
    with _keeping_refusal(storage, match_id, REPLAY_REFUSED):
        variant = known_variant(stored)
        adjudication = adjudicate(
            stored.original, variant, "condone", stored.options, True, limits, engine
        )
    del stored
    wanted = None
    replays = adjudication.replays
    del adjudication
    for start in range(0, len(replays), REPLAY_BATCH):
        batch = {
            f"replay/{number}": replay_actions(replays[number - 1])
            for number in range(start + 1, min(start + REPLAY_BATCH, len(replays)) + 1)
        }
        wanted = batch.get(key, wanted)
        _keep(storage, match_id, batch)
    return wanted


def _waited(storage: Storage, match_id: int, index: int, key: str) -> dict[str, Any]:
    """Another request computes the replays: wait a little for them, then tell the client
    to ask again."""
    deadline = time.monotonic() + CLAIM_WAIT_SECONDS
    while time.monotonic() < deadline:
        time.sleep(CLAIM_LOOK_SECONDS)
        _kept(storage, match_id, REPLAY_REFUSED)
        actions = _kept(storage, match_id, key)
        if actions is not None:
            return {"match_id": match_id, "game": index, "actions": actions}
    raise ComputingError(
        f"the replays of match {match_id} are being computed by another request;"
        f" try again in {ComputingError.retry_after} s",
        match_id=match_id,
    )


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
    is raised again rather than redone (a deadline's refusal until it expires)."""
    body = storage.derived.kept(match_id, key, RULES_REVISION)
    if isinstance(body, dict) and "refused" in body:
        refusal = body["refused"]
        if refusal.get("until", math.inf) < time.time():
            return None
        raise WorkLimitError(refusal["message"], **refusal["extensions"])
    return body


DEADLINE_REFUSAL_SECONDS = 600
"""A refusal at the deadline is kept this long: it depends on the machine's load, which
changes, but asking again at once would only redo the same work under the same load."""


@contextmanager
def _keeping_refusal(storage: Storage, match_id: int, key: str) -> Iterator[None]:
    """Keep a work-limit refusal under ``key``: the same record, revision and limits would
    be refused again; a refusal at the deadline for ``DEADLINE_REFUSAL_SECONDS``."""
    try:
        yield
    except WorkLimitError as error:
        refusal: dict[str, Any] = {"message": error.message, "extensions": error.extensions}
        if error.extensions.get("limit") == "seconds":
            refusal["until"] = time.time() + DEADLINE_REFUSAL_SECONDS
        _keep(storage, match_id, {key: {"refused": refusal}})
        raise


def _keep(storage: Storage, match_id: int, results: dict[str, Json]) -> None:
    """Keep derived results; a busy archive (or a full disk) only means they are computed
    again next time."""
    with suppress(ArchiveBusyError, StorageUnavailableError):
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
