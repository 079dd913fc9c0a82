"""The web pages: check a record, browse the archive, replay a match on a drawn board.

Server-rendered (Jinja2) and usable as plain links; one small script adds keys and
in-place stepping. The pages call the same services as the API (``adjudicate``, the
archive service, the replay), never their own copies.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import nullcontext
from typing import Any
from urllib.parse import urlencode

from flask import (
    Blueprint,
    Response,
    current_app,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from marshmallow import ValidationError

from notation.errors import NotationError
from notation.options import parse_rules_text
from notation.records.formats import FORMATS, format_of_suffix
from notation.records.formats import NAMES as FORMAT_NAMES
from referee.adjudication import adjudicate
from referee.archive.derived import replay, replay_actions
from referee.archive.stored import MAX_ID, stored_match
from referee.board_svg import board_svg
from referee.errors import (
    InvalidEncodingError,
    InvalidNotationError,
    NotFoundError,
    RefereeError,
    UnauthorizedError,
)
from referee.http.auth import requires
from referee.http.bodies import record_of_bytes
from referee.http.engine import engine
from referee.http.limits import check_slot, costly, held_check_slot, rate_limited, work_limits
from referee.http.queries import match_query
from referee.http.storage import storage
from referee.live import service as live
from referee.rules.variants import VARIANTS
from referee.rules.words import NO_MOVE, result_words
from referee.scopes import Scope
from referee.web.closest import Ranking
from referee.web.storing import store_checked
from referee.web.viewer import (
    GameReplay,
    Step,
    action_words,
    alternatives_words,
    game_replay,
    step_board,
)
from vocabulary import Side

blueprint = Blueprint(
    "web", __name__, template_folder="templates", static_folder="static", static_url_path="/assets"
)

PAGE_SIZE = 25
SEARCH_FIELDS = ("player", "event", "variant", "valid", "q")
GAMES_OPEN = 30
"""A verdict's games table is shown open up to this many games, folded away past it."""


@blueprint.context_processor
def page_constants() -> dict[str, Any]:
    """What every template may use: a result and a play in the CLI's words among them."""
    return {"GAMES_OPEN": GAMES_OPEN, "result_words": result_words, "NO_MOVE": NO_MOVE}


@blueprint.errorhandler(RefereeError)
def referee_error(error: RefereeError) -> tuple[str, int, dict[str, str]]:
    retry = {} if error.retry_after is None else {"Retry-After": str(error.retry_after)}
    page = render_template("error.html", title=error.title, message=error.message)
    return page, error.status, retry


@blueprint.errorhandler(ValidationError)
def validation_error(error: ValidationError) -> tuple[str, int]:
    messages = error.messages
    fields = ", ".join(map(str, messages)) if isinstance(messages, dict) else "the query"
    message = f"these search fields are not valid: {fields}"
    return render_template("error.html", title="Invalid search", message=message), 422


def _orientation() -> Side:
    return Side.BLACK if request.args.get("o") == "b" else Side.WHITE


@blueprint.get("/favicon.ico")
def favicon() -> Response:
    """The site's icon where browsers look for it unasked (the pages link the SVG one)."""
    assert blueprint.static_folder is not None
    return send_from_directory(
        blueprint.static_folder, "favicon.ico", mimetype="image/vnd.microsoft.icon", max_age=86400
    )


@blueprint.get("/")
def index() -> str:
    return render_template("index.html", variants=VARIANTS, formats=FORMATS, form={})


def _submitted_record(named: str | None) -> tuple[str, str | None]:
    """The uploaded file when one was chosen (an ``.xg`` as the ``.mat`` text it holds),
    else the pasted text; and the format to read it as (``named``, or ``mat`` for a
    binary file's text)."""
    upload = request.files.get("file")
    if upload is not None and upload.filename:
        suffix = format_of_suffix(upload.filename)
        binary = suffix.name if suffix is not None and suffix.binary else named
        try:
            record = record_of_bytes(upload.read(), binary)
        except InvalidEncodingError:
            raise InvalidNotationError("the uploaded file is not UTF-8 text") from None
        return record["record"], record.get("format", named)
    return request.form.get("record", ""), named


@blueprint.post("/check")
@rate_limited("check")
@check_slot
def check() -> tuple[str, int]:
    """The verdict page of a pasted or uploaded record (in any format read here), with
    its replay; stored in the archive too when the form asks, with its token."""
    fields = ("record", "variant", "mode", "options", "format", "store", "allow_invalid")
    form = {name: request.form.get(name, "") for name in fields}
    stored = refused = None
    try:
        found = form["format"] if form["format"] in FORMAT_NAMES else None
        text, found = _submitted_record(found)
        if not text.strip():
            raise InvalidNotationError("paste a record or choose a file")
        options = parse_rules_text(form["options"]) if form["options"].strip() else {}
        mode = form["mode"] if form["mode"] in ("strict", "condone") else "strict"
        variant = form["variant"] or None
        limits = work_limits()
        adjudication = adjudicate(text, variant, mode, options, True, limits, engine(), found)
    except NotationError as error:
        return _form_error(form, f"options: {error.message}")
    except RefereeError as error:
        return _form_error(form, error.message, error.status)
    status = 200
    if form["store"]:  # the verdict shown is the one stored, or the page says why not
        try:
            stored = store_checked(text, request.form, options, adjudication)
        except RefereeError as error:
            refused, status = error.message, error.status
    verdict = adjudication.verdict.to_json()
    players = verdict["match"]["players"]
    scored = {game["index"]: game for game in verdict["games"]}
    ranking = Ranking()
    options = verdict["options"]
    games = [
        game_replay(index, replay_actions(steps), players, scored.get(index), options, ranking)
        for index, steps in enumerate(adjudication.replays, start=1)
    ]
    page = _viewer_page(games, players, _svg_href, lambda game: None, options, ranking)
    return render_template(
        "verdict.html",
        verdict=verdict,
        picker="_pick_anchors.html",
        stored=stored,
        refused=refused,
        **page,
    ), status


def _form_error(form: dict[str, str], message: str, status: int = 422) -> tuple[str, int]:
    page = render_template(
        "index.html", variants=VARIANTS, formats=FORMATS, form=form, error=message
    )
    return page, status


def _svg_href(step: Step, orientation: Side, players: Sequence[str]) -> str:
    """Without a stored match, a step's plain link is its board image."""
    return url_for(
        "boards.position_svg",
        position=step.position,
        before=step.before,
        orientation=str(orientation),
        white=players[0],
        black=players[1],
    )


StepHref = Callable[[Step, Side, Sequence[str]], str]
"""A step's plain link (it must work without JavaScript)."""


def _viewer_page(
    games: list[GameReplay],
    players: Sequence[str],
    href: StepHref,
    other_game: Callable[[int], str | None],
    options: dict[str, Any],
    ranking: Ranking,
) -> dict[str, Any]:
    """What the viewer partial needs: the games shown, the current step and its board,
    ``finding_href(game, line)``: where a finding of the verdict is shown (in this page,
    else ``other_game(game)``), and ``alternatives_of(issue)``: a finding's legal plays in
    words, the closest first for the page's first ``RANKED_PER_PAGE`` (``ranking``)."""
    orientation = _orientation()
    shown = [game for game in games if game.steps]
    current: Step | None = None
    if shown:
        with_errors = [game for game in shown if any(step.error for step in game.steps)]
        current = (with_errors or shown)[0].step(request.args.get("a", type=int))
    by_number = {game.game: game for game in shown}
    links: dict[str, str] = {}
    if current is not None:
        steps = by_number[current.game].steps
        at = current.number
        targets = {
            "Home": steps[0],
            "ArrowLeft": steps[max(at - 1, 0)],
            "ArrowRight": steps[min(at + 1, len(steps) - 1)],
            "End": steps[-1],
        }
        later_error = next((step for step in steps[at + 1 :] if step.error), None)
        if later_error is not None:
            targets["n"] = later_error
        links = {key: href(step, orientation, players) for key, step in targets.items()}
        links["f"] = href(current, orientation.other, players)

    def finding_href(game: int, line: int | None) -> str | None:
        if game not in by_number:
            return other_game(game)
        anchor = by_number[game].anchor_of_line(line)
        return None if anchor is None else f"#{anchor}"

    return {
        "games": shown,
        "current": current,
        "board": None if current is None else step_board(current, orientation, players),
        "orientation": str(orientation),
        "players": players,
        "href": lambda step: href(step, orientation, players),
        "finding_href": finding_href,
        "alternatives_of": lambda issue: alternatives_words(issue, options, ranking),
        "links": links,
    }


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
        next_page = f"{url_for('web.matches')}?{following}"
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
    """A stored match: its verdict and the viewer of one game (``?g=``). The game's replay
    comes first (computed once, or waited for, or 503 while another request computes it),
    the stored match only then: a load told to come back holds none of it."""
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
        return _match_page(match_id, game, count, actions)


HEAVY_PAGE_GAMES = 200
"""A stored match's page past this many games is made in one of the worker's check slots."""


def _match_page(match_id: int, game: int, count: int, actions: list[dict[str, Any]] | None) -> str:
    stored = stored_match(storage(), match_id)
    verdict = stored.verdict
    players = list(stored.players)
    scored = next((scored for scored in verdict["games"] if scored["index"] == game), None)
    options = verdict["options"]
    ranking = Ranking()
    games = []
    if actions is not None:
        games = [game_replay(game, actions, players, scored, options, ranking)]

    def href(step: Step, orientation: Side, names: Sequence[str]) -> str:
        query = {"g": str(step.game), "a": str(step.number)}
        if orientation is Side.BLACK:
            query["o"] = "b"
        return f"{url_for('web.match', match_id=match_id)}?{urlencode(query)}#{step.anchor}"

    page_of_match = url_for("web.match", match_id=match_id)
    flipped = "o=b&" if _orientation() is Side.BLACK else ""

    def other_game(number: int) -> str:
        """Game ``number``'s page, seen from the same side."""
        return f"{page_of_match}?{flipped}g={number}"

    later_errors = [g["index"] for g in verdict["games"][game:] if g["errors"]]
    page = _viewer_page(games, players, href, other_game, options, ranking)
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
        **page,
    )


@blueprint.get("/live/<int:live_id>")
def live_match(live_id: int) -> str:
    """Watch a live match: the board, the score, who is to act, the last play and the
    current game's actions, updated as actions arrive (the script follows the match's
    NDJSON stream and adds each state's ``last_action``; without it the page reloads)."""
    if current_app.config["PRIVATE"]:
        raise UnauthorizedError("this archive is private: the live pages need a token")
    match = live.current(storage(), live_id)
    state = live.state_json(match)
    players = (state["players"]["w"], state["players"]["b"])
    done = live.game_actions(storage(), match)
    rolls = [action for action in done if action["action"] == "roll"]
    board = board_svg(state["position"], orientation=_orientation(), players=players)
    return render_template(
        "live.html",
        state=state,
        board=board,
        orientation=_orientation(),
        actions=[action_words(action, players) for action in done],
        last_roll=action_words(rolls[-1], players) if rolls else None,
    )


from referee.web import docs as docs  # noqa: E402  (registers the documents' pages)
from referee.web import events as events  # noqa: E402  (registers the events pages)
