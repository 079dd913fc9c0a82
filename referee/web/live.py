"""The live watch page, ``/live/{id}``: a live match's board, score, who is to act, the
last play and the current game's actions, as ``GET /v1/live/{id}`` shows them."""

from __future__ import annotations

from flask import current_app, render_template

from referee.board_svg import board_svg
from referee.errors import UnauthorizedError
from referee.http.storage import storage
from referee.live import service as live
from referee.web.site import pages
from referee.web.viewer import action_words
from referee.web.viewer_page import orientation

blueprint = pages("live_pages", __name__)


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
    seen_from = orientation()
    board = board_svg(state["position"], orientation=seen_from, players=players)
    return render_template(
        "live.html",
        state=state,
        board=board,
        orientation=seen_from,
        actions=[action_words(action, players) for action in done],
        last_roll=action_words(rolls[-1], players) if rolls else None,
    )
