"""The pages of events (EVENTS.md): ``/events`` (open, running, finished),
``/events/{id}`` (the settings, standings with their tie-breaks, a knockout's bracket,
every round's pairings linked to the live watch page and the replay of each stored
record).

They read what the API reads, through the events service and its views: an event is
shown as ``GET /v1/events/{id}`` answers it, its finished live matches taken first."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import render_template, request, url_for

from referee.events import rated, service, views
from referee.events.pairing import knockout_rounds
from referee.events.state import EventStatus, Format
from referee.http.auth import requires
from referee.http.engine import engine
from referee.http.storage import storage
from referee.scopes import Scope
from referee.storage.model.events import EventQuery, EventSummary
from referee.storage.stores import Storage
from referee.web.bracket_views import TITLES, drawn_brackets
from referee.web.event_options import shown_options
from referee.web.pairings import PairingView, bracket, most_points, pairing_view, round_title
from referee.web.site import pages

blueprint = pages("event_pages", __name__)

PAGE_SIZE = 25
SECTIONS = {
    EventStatus.OPEN: "Open",
    EventStatus.RUNNING: "Running",
    EventStatus.FINISHED: "Finished",
}
FORMATS = {
    Format.ROUND_ROBIN: "Round robin",
    Format.SWISS: "Swiss",
    Format.KNOCKOUT: "Knockout",
    Format.DOUBLE_ELIMINATION: "Double elimination",
}
TIEBREAKS = {
    "head_to_head": "Head to head",
    "buchholz": "Buchholz",
    "buchholz_cut1": "Buchholz cut 1",
    "median_buchholz": "Median Buchholz",
    "progressive": "Progressive",
    "sonneborn_berger": "Sonneborn-Berger",
    "points_difference": "Points difference",
    "round_reached": "Round reached",
    "pr": "PR (lower first)",
}
REFRESH_SECONDS = {EventStatus.OPEN: 30, EventStatus.RUNNING: 5}
"""How often an event's page reloads itself without JavaScript (with it, the page follows
the event's stream instead); a finished event's page stays."""


def half(value: float) -> str:
    """Match points as a director writes them: 1, 1½, ½."""
    sign, size = ("−", -value) if value < 0 else ("", value)
    whole = int(size)
    if size == whole:
        return f"{sign}{whole}"
    return f"{sign}{whole or ''}½" if size - whole == 0.5 else f"{sign}{size:g}"


@blueprint.context_processor
def event_words() -> dict[str, Any]:
    return {"FORMATS": FORMATS, "half": half}


@dataclass(frozen=True, slots=True)
class EventSection:
    """The events of one status, newest first, and the link to the older ones."""

    status: str
    title: str
    events: list[EventSummary]
    older: str | None


@blueprint.get("/events")
@requires(Scope.ARCHIVE_READ)
def events() -> str:
    """Open, running and finished events, each newest first; ``?status=`` one of them,
    paged by ``cursor``."""
    asked = request.args.get("status")
    shown = [EventStatus(asked)] if asked in SECTIONS else list(SECTIONS)
    cursor = request.args.get("cursor", type=int) if len(shown) == 1 else None
    sections = []
    for status in shown:
        found = storage().events.search(EventQuery(str(status), PAGE_SIZE, cursor))
        older = None
        if len(found) == PAGE_SIZE:
            older = url_for("event_pages.events", status=str(status), cursor=found[-1].id)
        sections.append(EventSection(str(status), SECTIONS[status], found, older))
    return render_template(
        "events.html", sections=sections, one=len(shown) == 1, paged=cursor is not None
    )


@dataclass(frozen=True, slots=True)
class RoundView:
    number: int
    title: str
    pairings: list[PairingView]
    byes: list[str]


def _href(kind: str, item: int) -> str:
    if kind == "live":
        return url_for("live_pages.live_match", live_id=item)
    return url_for("archive_pages.match", match_id=item)


def event_now(opened: Storage, event_id: int) -> dict[str, Any]:
    """The event as the API shows it: its live matches that have ended are taken first."""
    return views.event_json(opened, service.now(opened, event_id, engine()))


@blueprint.get("/events/<int:event_id>")
@requires(Scope.ARCHIVE_READ)
def event(event_id: int) -> str:
    opened = storage()
    shown = event_now(opened, event_id)
    drawn = drawn_brackets(shown, _href)
    knockout = shown["format"] == Format.KNOCKOUT and not drawn
    titled = knockout and shown["rounds"] > 1
    rounds = [
        RoundView(
            played["number"],
            round_title(played["number"], shown["rounds"]) if titled else "",
            [pairing_view(pairing, _href, most_points(shown)) for pairing in played["pairings"]],
            played["byes"],
        )
        for played in shown["rounds_played"]
    ]
    standings = shown["standings"]
    breaks = list(standings[0]["tiebreaks"]) if standings else []
    rated_names = {player.name for player in rated.current(opened, shown["variant"]).players}
    return render_template(
        "event.html",
        event=shown,
        rounds=rounds,
        bracket=bracket(shown, _href) if knockout else None,
        brackets=drawn,
        BRACKET_TITLES=TITLES,
        tiebreaks=[(key, TIEBREAKS.get(key, key.replace("_", " ").capitalize())) for key in breaks],
        reached=_reached_words_of(shown),
        rated_names=rated_names,
        options=shown_options(shown["options"], shown["length"]),
        refresh=REFRESH_SECONDS.get(shown["status"]),
    )


def _reached_words_of(event: dict[str, Any]) -> Callable[[int], str]:
    """A standing's ``round_reached`` in words: a knockout's in its main bracket (its
    consolation's rounds come after); a double elimination's the last round played in,
    the champion's one past it."""
    if event["format"] != Format.DOUBLE_ELIMINATION:
        main = knockout_rounds(len(event["entrants"]))
        return lambda number: reached_words(number, main)
    lines = event["standings"]
    top = lines[0]["tiebreaks"].get("round_reached") if lines else None
    done = event["status"] == EventStatus.FINISHED

    def words(number: int) -> str:
        if done and number == top:
            return "Champion"
        return f"Round {number}" if number else "—"

    return words


def reached_words(number: int, rounds: int) -> str:
    """A knockout's round reached: the champion went past the last."""
    if number > rounds:
        return "Champion"
    return round_title(number, rounds) if number else "—"
