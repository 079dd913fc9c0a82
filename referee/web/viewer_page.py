"""What the viewer partial (``_viewer.html``) needs from a page: its games, the step asked
for (``?a=``), the side the board is seen from (``?o=b``), the links of the keys and of the
verdict's findings. The check page and a stored match's page both show it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from flask import request

from referee.web.closest import Ranking
from referee.web.viewer import GameReplay, Step, alternatives_words, step_board
from vocabulary import Side

StepHref = Callable[[Step, Side, Sequence[str]], str]
"""A step's plain link (it must work without JavaScript)."""


def orientation() -> Side:
    """The side the board is seen from: ``?o=b`` Black's, else White's."""
    return Side.BLACK if request.args.get("o") == "b" else Side.WHITE


def viewer_page(
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
    seen_from = orientation()
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
        links = {key: href(step, seen_from, players) for key, step in targets.items()}
        links["f"] = href(current, seen_from.other, players)

    def finding_href(game: int, line: int | None) -> str | None:
        if game not in by_number:
            return other_game(game)
        anchor = by_number[game].anchor_of_line(line)
        return None if anchor is None else f"#{anchor}"

    return {
        "games": shown,
        "current": current,
        "board": None if current is None else step_board(current, seen_from, players),
        "orientation": str(seen_from),
        "players": players,
        "href": lambda step: href(step, seen_from, players),
        "finding_href": finding_href,
        "alternatives_of": lambda issue: alternatives_words(issue, options, ranking),
        "links": links,
    }
