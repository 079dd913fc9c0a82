"""An event's options as its page shows them: only those that apply to its matches (RULES.md
§12's table: Jacoby, beavers and automatic doubles are money play's; a cube's limit and the
Crawford rule need a cube, Crawford a match longer than a point; the draw's scoring the
draw rule)."""

from __future__ import annotations

from referee.rules.variants import find_variant
from referee.web.event_options import shown_options


def options(variant: str, **asked: object) -> dict[str, object]:
    found = find_variant(variant)
    return dict(found.options_json(found.options_with(asked)))


def labels(variant: str, length: int, **asked: object) -> list[str]:
    return [label for label, _ in shown_options(options(variant, **asked), length)]


def test_match_play_shows_no_money_play_option() -> None:
    shown = dict(shown_options(options("backgammon", beavers=True), 5))
    assert "jacoby" not in shown and "beavers" not in shown and "auto doubles" not in shown
    assert shown["Crawford rule"] == "yes" and shown["doubling cube"] == "yes"
    assert shown["cube limit"] == "64"
    assert shown["plays judged by"] == "the resulting position"


def test_without_a_cube_neither_its_limit_nor_crawford_show() -> None:
    assert labels("backgammon", 5, cube=False) == ["plays judged by", "doubling cube"]


def test_a_one_point_match_has_no_crawford_game() -> None:
    assert "Crawford rule" not in labels("backgammon", 1)
    assert "Crawford rule" in labels("backgammon", 2)


def test_the_draws_scoring_shows_with_the_draw_rule_only() -> None:
    assert "draw scoring" not in labels("long-nardy", 3)
    with_draws = dict(shown_options(options("long-nardy", draw_rule=True), 3))
    assert with_draws["draw rule"] == "yes"
    assert with_draws["draw scoring"] == "after extra turn"
