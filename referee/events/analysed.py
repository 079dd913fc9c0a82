"""An event's matches analysed by gnubg (EVENTS.md §13, ANALYSIS.md §5): with ``analyse``,
every finished match is queued for an analysis at the default settings, as the event's
(no token's queue bounds it), each time a change of the event decides a pairing (those
a change before could not queue are queued then too); and each entrant's average PR over
its analysed matches, for the standings."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable

from referee.analysis import Settings
from referee.archive.analyses import queue_analysis
from referee.errors import RefereeError
from referee.events.results import name_key
from referee.events.standings import AveragePr
from referee.events.state import PairingStatus, Working
from referee.storage.errors import StorageError
from referee.storage.model.events import StoredEvent, StoredPairing
from referee.storage.stores import Storage

log = logging.getLogger(__name__)

SETTINGS = Settings()
"""The settings of an event's analyses: gnubg's "world class", 2 and 2 plies."""
SETTINGS_PLIES = (SETTINGS.chequer_plies, SETTINGS.cube_plies)


def finished_matches(pairings: Iterable[StoredPairing]) -> dict[int, StoredPairing]:
    """Each stored match of the finished pairings, with its pairing."""
    return {
        match_id: pairing
        for pairing in pairings
        if pairing.status == PairingStatus.FINISHED
        for match_id in pairing.match_ids
    }


def queue_finished(storage: Storage, saved: Working) -> None:
    """After a change of an event that analyses its matches and that decided a pairing
    with matches: every finished match without an analysis is queued. What cannot be
    queued now (a busy archive) is logged, and queued after the next pairing decided."""
    if not saved.setup.analyse or not finished_matches(saved.changed.values()):
        return
    matches = finished_matches(saved.pairings.values())
    try:
        asked = storage.analyses.of_matches(list(matches), *SETTINGS_PLIES)
        there = {found.match_id for found in asked}
        for match_id in sorted(set(matches) - there):
            queue_analysis(storage, match_id, SETTINGS, None, event_id=saved.id)
    except (RefereeError, StorageError) as error:
        log.warning("event %s: its matches' analyses were not all queued: %s", saved.id, error)


def average_prs(storage: Storage, event: StoredEvent) -> dict[str, AveragePr]:
    """Each entrant's average PR over its finished matches analysed at the event's
    settings (an entrant found in a match by its name, in either column)."""
    if not event.setup.analyse:
        return {}
    matches = finished_matches(event.pairings)
    found = storage.analyses.of_matches(list(matches), *SETTINGS_PLIES)
    prs: dict[str, list[float]] = defaultdict(list)
    for analysis in found:
        if analysis.status != "done":
            continue
        pairing = matches[analysis.match_id]
        entrants = {name_key(name): name for name in (pairing.white, pairing.black)}
        for player, pr in zip((analysis.white, analysis.black), analysis.pr, strict=True):
            entrant = entrants.get(name_key(player))
            if entrant is not None and pr is not None:
                prs[entrant].append(pr)
    return {
        name: AveragePr(round(sum(values) / len(values), 2) + 0.0, len(values))
        for name, values in prs.items()
    }
