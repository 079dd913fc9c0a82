"""The archive's pages: ``/matches`` (a search form and a page of matches, newest first)
and ``/matches/{id}`` (a stored match's verdict, its analysis by gnubg, ``?an=``, and the
replay of one game, ``?g=``, marked by the analysis), whose form queues an analysis with a
token (``POST /matches/{id}/analyses``). They read and queue what the API does, through
the archive service."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from typing import Any
from urllib.parse import urlencode

from flask import redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from referee.analysis import InvalidSettingsError, Settings, analysable
from referee.archive.analyses import analysis_json, queue_analysis
from referee.archive.derived import replay
from referee.archive.stored import MAX_ID, stored_match
from referee.errors import NotFoundError, RefereeError
from referee.http.auth import requires, token_holder
from referee.http.engine import engine
from referee.http.limits import check_slot, costly, held_check_slot, work_limits
from referee.http.queries import match_query
from referee.http.storage import storage
from referee.rules.variants import VARIANTS
from referee.scopes import Scope
from referee.web.analysis_view import (
    JUDGES,
    chosen,
    figure_rows,
    judge_of,
    pr_note,
    step_notes,
)
from referee.web.closest import Ranking
from referee.web.site import pages
from referee.web.viewer import Step, game_replay
from referee.web.viewer_page import orientation, viewer_page
from vocabulary import Side

blueprint = pages("archive_pages", __name__)

PAGE_SIZE = 25
SEARCH_FIELDS = ("player", "event", "variant", "valid", "q")
HEAVY_PAGE_GAMES = 200
"""A stored match's page past this many games is made in one of the worker's check slots."""


@blueprint.get("/matches")
@requires(Scope.ARCHIVE_READ)
def matches() -> str:
    """The archive: a search form and a page of matches, newest first."""
    values = {name: request.args[name] for name in SEARCH_FIELDS if request.args.get(name)}
    if request.args.get("cursor"):
        values["cursor"] = request.args["cursor"]
    query = match_query({**values, "limit": str(PAGE_SIZE)})
    found = storage().matches.search(query)
    next_page = None
    if len(found) == PAGE_SIZE:
        following = urlencode({**values, "cursor": str(found[-1].id)})
        next_page = f"{url_for('archive_pages.matches')}?{following}"
    return render_template(
        "matches.html",
        matches=found,
        search=values,
        variants=VARIANTS,
        next_page=next_page,
        paged="cursor" in values,
    )


def _replay(match_id: int, game: int) -> list[dict[str, Any]]:
    """The replay API's actions of one game of a stored match: a kept replay is read; one
    to compute passes the replay endpoint's rate limit and check slot first, under the
    same work limits, computed once however many ask (``derived.replay``)."""
    answer = replay(
        storage(), match_id, game, work_limits(), engine(), admit=lambda: costly("check")
    )
    actions: list[dict[str, Any]] = answer["actions"]
    return actions


@blueprint.get("/matches/<int:match_id>")
@requires(Scope.ARCHIVE_READ)
def match(match_id: int) -> str:
    """A stored match: its verdict, its analysis and the viewer of one game (``?g=``)."""
    return _page(match_id)


@blueprint.post("/matches/<int:match_id>/analyses")
@check_slot
def queue_analysis_page(match_id: int) -> Response | tuple[str, int]:
    """The match page's form: an analysis queued with the form's token (``analysis:run``
    or ``archive:write``, as the API asks) and plies, then the page showing it; a refusal
    is said on the page, beside the form, with the API's status."""
    form = request.form
    try:
        holder = token_holder(
            Scope.ANALYSIS_RUN, Scope.ARCHIVE_WRITE, secret=form.get("token", "").strip() or None
        )
        made = queue_analysis(
            storage(), match_id, _settings(form), holder.id, work_limits(), engine()
        )
    except RefereeError as error:
        return _page(match_id, error.message), error.status
    shown = url_for("archive_pages.match", match_id=match_id, an=made.analysis.id)
    return redirect(f"{shown}#analysis", 303)


def _settings(form: Mapping[str, str]) -> Settings:
    """The form's plies (InvalidSettingsError for what is not a number)."""
    try:
        plies = int(form.get("chequer_plies", "2")), int(form.get("cube_plies", "2"))
    except ValueError:
        raise InvalidSettingsError("the plies are whole numbers from 0 to 3") from None
    return Settings(*plies)


def _page(match_id: int, refused: str | None = None) -> str:
    """The match page (``refused``: why the form's analysis was not queued). The game's
    replay comes first (computed once, or waited for, or 503 while another request
    computes it), the stored match only then: a load told to come back holds none of it."""
    count = storage().matches.games_of(match_id) if 0 < match_id <= MAX_ID else None
    if count is None:
        raise NotFoundError(f"no match with id {match_id}")
    game = request.args.get("g", default=1, type=int)
    game = max(1, min(game, count)) if count else 1
    actions = None
    if count:
        try:
            actions = _replay(match_id, game)
        except NotFoundError:  # a variation the referee cannot check has no replay
            actions = None
    # the page of a long record (its verdict, its games table) costs tens of MiB to make:
    # a worker makes at most its check slots' worth of them at once
    with held_check_slot() if count > HEAVY_PAGE_GAMES else nullcontext():
        return _match_page(match_id, game, count, actions, refused)


def _match_page(
    match_id: int,
    game: int,
    count: int,
    actions: list[dict[str, Any]] | None,
    refused: str | None,
) -> str:
    stored = stored_match(storage(), match_id)
    analyses = [analysis_json(found) for found in storage().analyses.of_match(match_id)]
    shown = chosen(analyses, request.args.get("an", type=int))
    judge = judge_of(shown, stored.variant)
    notes = step_notes(shown, game)
    verdict = stored.verdict
    players = list(stored.players)
    scored = next((scored for scored in verdict["games"] if scored["index"] == game), None)
    options = verdict["options"]
    ranking = Ranking()
    games = []
    if actions is not None:
        games = [game_replay(game, actions, players, scored, options, ranking)]
    page_of_match = url_for("archive_pages.match", match_id=match_id)

    def href(step: Step, seen_from: Side, names: Sequence[str]) -> str:
        query = {"g": str(step.game), "a": str(step.number)}
        if seen_from is Side.BLACK:
            query["o"] = "b"
        return f"{page_of_match}?{urlencode(query)}#{step.anchor}"

    flipped = "o=b&" if orientation() is Side.BLACK else ""

    def other_game(number: int) -> str:
        """Game ``number``'s page, seen from the same side."""
        return f"{page_of_match}?{flipped}g={number}"

    later_errors = [g["index"] for g in verdict["games"][game:] if g["errors"]]
    page = viewer_page(games, players, href, other_game, options, ranking)
    return render_template(
        "match.html",
        stored=stored,
        verdict=verdict,
        game=game,
        game_count=count,
        game_link=other_game,
        picker="_pick_stored.html",
        next_error_game=other_game(later_errors[0]) if later_errors else None,
        game_href=f"{page_of_match}?{flipped}g=",
        analyses=analyses,
        shown=shown,
        rows=figure_rows(shown["players"]) if shown and shown["players"] else [],
        pr_note=pr_note(judge),
        judge=JUDGES[judge],
        analysable=analysable(stored.variant),
        refused=refused,
        asked=request.form if refused else {},
        step_notes=lambda step: notes.get(step.number, ()),
        **page,
    )
