"""An event's exports: its standings as CSV and as JSON, and every pairing's record as
one zip of ``.mat`` files (the records as the archive stores them, as received)."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from typing import Any

from referee.storage.model.events import StoredEvent
from referee.storage.stores import Storage

COLUMNS = (
    "rank",
    "name",
    "seed",
    "match_points",
    "wins",
    "draws",
    "losses",
    "byes",
    "points_for",
    "points_against",
)
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")
_STAMP = (2000, 1, 1, 0, 0, 0)
"""Every file of the zip is dated alike, so the same event always gives the same bytes."""


ANALYSED_COLUMNS = ("pr", "analysed")
"""An analysed event's columns (the average PR, over how many matches), before the
tie-breaks, which then leave out ``pr``."""


def standings_csv(event: dict[str, Any]) -> str:
    """The standings of an event (its JSON), one line per entrant, the tie-breaks last
    (an analysed event's average PR before them: ``ANALYSED_COLUMNS``)."""
    lines = event["standings"]
    columns = (*COLUMNS, *ANALYSED_COLUMNS) if event["analyse"] else COLUMNS
    breaks = [name for name in (lines[0]["tiebreaks"] if lines else ()) if name not in columns]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([*columns, *breaks])
    for line in lines:
        writer.writerow(
            [*(line[name] for name in columns), *(line["tiebreaks"][b] for b in breaks)]
        )
    return out.getvalue()


def standings_document(event: dict[str, Any]) -> dict[str, Any]:
    """The standings with what they are of: the event's facts, not its rounds."""
    facts = ("id", "name", "variant", "length", "format", "kind", "status", "round", "rounds")
    return {"event": {name: event[name] for name in facts}, "standings": event["standings"]}


def file_name(number: int, table: int, white: str, black: str, index: int, pair: bool) -> str:
    names = f"{_safe(white)}-v-{_safe(black)}"
    which = f"-match-{index}" if pair else ""
    return f"round-{number:02d}-table-{table:03d}-{names}{which}.mat"


def _safe(name: str) -> str:
    return _UNSAFE.sub("_", name).strip("_")[:40] or "player"


def records_zip(storage: Storage, event: StoredEvent) -> bytes:
    """Every record of the event's finished pairings (round, table, players in the name)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for pairing in event.pairings:
            pair = len(pairing.match_ids) > 1
            for index, match_id in enumerate(pairing.match_ids, start=1):
                stored = storage.matches.get(match_id)
                if stored is None:
                    continue
                white, black = stored.players
                name = file_name(pairing.round, pairing.table, white, black, index, pair)
                info = zipfile.ZipInfo(name, _STAMP)
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, stored.original)
    return out.getvalue()
