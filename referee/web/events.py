"""The pages of events and ratings (EVENTS.md): ``/events`` (open, running, finished),
``/events/{id}`` (the settings, standings with their tie-breaks, a knockout's bracket,
every round's pairings linked to the live watch page and the replay of each stored
record), ``/ratings`` (a table per variant) and ``/ratings/{variant}/{name}`` (a rating's
history as a table and a chart drawn on the server).

They read what the API reads, through the events service and its views: an event is
shown as ``GET /v1/events/{id}`` answers it, its finished live matches taken first.
Registered on the pages' blueprint (``referee.web`` imports this module)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask import render_template, request, url_for

from notation.errors import echoed
from referee.errors import NotFoundError
from referee.events import rated, service, views
from referee.events.pairing import knockout_rounds
from referee.events.state import EventStatus, Format
from referee.http.auth import requires
from referee.http.engine import engine
from referee.http.storage import storage
from referee.rules.variants import VARIANTS
from referee.scopes import Scope
from referee.storage.model.events import EventQuery, EventSummary
from referee.storage.model.ratings import PlayerRating, RatingStep
from referee.storage.stores import Storage
from referee.web import blueprint
from referee.web.bracket_views import TITLES, drawn_brackets
from referee.web.charts import rating_chart
from referee.web.event_options import shown_options
from referee.web.pairings import PairingView, bracket, most_points, pairing_view, round_title

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
}
VARIANT_TITLES = {str(variant.id): variant.title for variant in VARIANTS}
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


def signed(value: float) -> str:
    """A rating change with its sign and two decimals (−, the minus sign, for a loss)."""
    return f"+{value:.2f}" if value >= 0 else f"−{-value:.2f}"


@blueprint.context_processor
def event_words() -> dict[str, Any]:
    return {
        "FORMATS": FORMATS,
        "VARIANT_TITLES": VARIANT_TITLES,
        "half": half,
        "signed": signed,
    }


# -- the events --------------------------------------------------------------------------


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
            older = url_for("web.events", status=str(status), cursor=found[-1].id)
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
        return url_for("web.live_match", live_id=item)
    return url_for("web.match", match_id=item)


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


# -- the ratings -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RatingLine:
    rank: int
    player: PlayerRating
    last_change: float | None


def _variant_order(found: Sequence[str]) -> list[str]:
    known = list(VARIANT_TITLES)
    return sorted(found, key=lambda v: (known.index(v) if v in known else len(known), v))


@blueprint.get("/ratings")
@requires(Scope.ARCHIVE_READ)
def ratings() -> str:
    """Every variant's ratings, best first, with each name's last change."""
    opened = storage()
    tables: dict[str, list[RatingLine]] = {}
    for variant in _variant_order(opened.ratings.variants()):
        lines = []
        for rank, player in enumerate(rated.current(opened, variant).players, start=1):
            history = opened.ratings.history(variant, player.name)
            change = history[-1].after - history[-1].before if history else None
            lines.append(RatingLine(rank, player, change))
        tables[variant] = lines
    return render_template("ratings.html", tables=tables)


def chart_of(name: str, variant: str, history: Sequence[RatingStep]) -> str:
    """The rating's history as a chart: the rating before the first match, then after
    each, described in words for those who do not see it."""
    values = [history[0].before, *(step.after for step in history)]
    labels = [f"Before the first rated match: {values[0]:.2f}"] + [
        f"After rated match {index} (match {step.match_id}): {step.after:.2f}"
        for index, step in enumerate(history, start=1)
    ]
    title = f"{name}'s {VARIANT_TITLES.get(variant, variant)} rating"
    description = (
        f"The rating over {len(history)} rated match{'' if len(history) == 1 else 'es'}:"
        f" from {values[0]:.2f} to {values[-1]:.2f}, lowest {min(values):.2f},"
        f" highest {max(values):.2f}."
    )
    return rating_chart(values, labels, title=title, description=description)


def _event_names(opened: Storage, ids: set[int]) -> Mapping[int, str]:
    names = {}
    for event_id in ids:
        found = opened.events.get(event_id)
        if found is not None:
            names[event_id] = found.setup.name
    return names


@blueprint.get("/ratings/<variant>/<path:name>")
@requires(Scope.ARCHIVE_READ)
def rating(variant: str, name: str) -> str:
    """One name's rating in one variant: its history as a table and as a chart."""
    opened = storage()
    players = rated.current(opened, variant).players
    found = next((player for player in players if player.name == name), None)
    if found is None:
        title = VARIANT_TITLES.get(variant, variant)
        raise NotFoundError(f"{echoed(name, 100)} has no {title} rating")
    history = opened.ratings.history(variant, name)
    return render_template(
        "rating.html",
        player=found,
        variant=variant,
        rank=players.index(found) + 1,
        history=history,
        event_names=_event_names(opened, {step.event_id for step in history}),
        chart=chart_of(name, variant, history) if history else None,
    )
