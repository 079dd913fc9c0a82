"""The pages of the ratings (EVENTS.md §8): ``/ratings`` (a table per variant, best first,
with each name's last change) and ``/ratings/{variant}/{name}`` (a rating's history as a
table and a chart drawn on the server), read as ``GET /v1/ratings`` reads them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask import render_template

from notation.errors import echoed
from referee.errors import NotFoundError
from referee.events import rated
from referee.http.auth import requires
from referee.http.storage import storage
from referee.scopes import Scope
from referee.storage.model.ratings import PlayerRating, RatingStep
from referee.storage.stores import Storage
from referee.web.charts import rating_chart
from referee.web.site import VARIANT_TITLES, pages

blueprint = pages("rating_pages", __name__)


def signed(value: float) -> str:
    """A rating change with its sign and two decimals (−, the minus sign, for a loss)."""
    return f"+{value:.2f}" if value >= 0 else f"−{-value:.2f}"


@blueprint.context_processor
def rating_words() -> dict[str, Any]:
    return {"signed": signed}


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
