"""The check pages: ``/`` (the form: paste or upload a record in any format read here) and
``POST /check`` (its verdict with the replay of every game; stored in the archive too when
the form asks, with its token). They call ``adjudicate`` as ``POST /v1/records/check``
does, under the same rate limit, check slots and work limits."""

from __future__ import annotations

from collections.abc import Sequence

from flask import render_template, request, url_for

from notation.errors import NotationError
from notation.options import parse_rules_text
from notation.records.formats import FORMATS, format_of_suffix
from notation.records.formats import NAMES as FORMAT_NAMES
from referee.adjudication import adjudicate
from referee.archive.derived import replay_actions
from referee.errors import InvalidEncodingError, InvalidNotationError, RefereeError
from referee.http.bodies import record_of_bytes
from referee.http.engine import engine
from referee.http.limits import check_slot, rate_limited, work_limits
from referee.rules.variants import VARIANTS
from referee.web.closest import Ranking
from referee.web.site import pages
from referee.web.storing import store_checked
from referee.web.viewer import Step, game_replay
from referee.web.viewer_page import viewer_page
from vocabulary import Side

blueprint = pages("check_pages", __name__)


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
    page = viewer_page(games, players, _svg_href, lambda game: None, options, ranking)
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
