"""Automatic doubles (RULES.md 14.7): a game may start with a centred cube above 1 only in
money play, at most ``auto_doubles`` times."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.adjudication import adjudicate

RECORD = (Path(__file__).parent / "fixtures" / "bg_auto_doubles.mat").read_text()


def cube_errors(text: str, options: dict[str, object]) -> list[tuple[str | None, int | None]]:
    verdict = adjudicate(text, options=options).verdict
    return [(e.rule, e.line) for g in verdict.games for e in g.errors]


def test_a_doubled_start_needs_automatic_doubles() -> None:
    # The game starts at cube 2 (one automatic double); with auto_doubles 0 that cannot be.
    assert cube_errors(RECORD, {}) == [("auto_doubles", 7)]


def test_one_automatic_double_allowed_scores_at_the_doubled_cube() -> None:
    verdict = adjudicate(RECORD, options={"auto_doubles": 1}).verdict
    assert verdict.valid
    # Alice bears off her last checker; Bob has 14 off: single x cube 2 = 2 points.
    [game] = verdict.games
    assert (game.result.winner, game.result.points, game.result.cube) == ("w", 2, 2)


@pytest.mark.parametrize(
    ("cube", "allowed", "length"),
    [("4c", 1, 0), ("4c", 2, 0), ("2w", 5, 0), ("2c", 1, 5)],
)
def test_more_doubles_than_allowed_an_owned_cube_or_match_play_are_refused(
    cube: str, allowed: int, length: int
) -> None:
    # 4c needs two doubles; an automatic double leaves the cube centred; matches have none.
    text = RECORD.replace(" 2c 0:0-0 ", f" {cube} {length}:0-0 ").replace(
        " 0 point match", f" {length} point match"
    )
    expected = [] if (cube, allowed, length) == ("4c", 2, 0) else [("auto_doubles", 7)]
    if length:
        options: dict[str, object] = {}
    else:
        options = {"auto_doubles": allowed}
    assert cube_errors(text, options) == expected
