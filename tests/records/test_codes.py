"""One small record per error and warning code that the other record tests do not show,
each asserting where the finding is reported (NOTATION.md §4: errors vs warnings)."""

from __future__ import annotations

from typing import Any

import pytest

from referee.adjudication import adjudicate
from tests.corpus import MAT, require

HEAD = " 3 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
"""Lines 1-4; the first row is line 5. Left cells start at column 6, right ones at 34."""


def row(number: int, left: str = "", right: str = "") -> str:
    return f"{number:3d}) {left:<27} {right}\n"


def findings(text: str, kind: str, **options: Any) -> list[tuple[str, str | None, int | None]]:
    """(code, rule, line) of every error or warning of every game."""
    verdict = adjudicate(text, options=options or None).verdict
    issues = [issue for game in verdict.games for issue in getattr(game, kind)]
    return [(issue.code, issue.rule, issue.line) for issue in issues]


ERRORS = {
    # Alice rolls twice in a row: the second roll is not hers to make.
    "wrong_turn": (
        HEAD + row(1, "31: 8/5 6/5") + row(2, "42: 8/4 6/4"),
        ("impossible_action", "wrong_turn", 6),
    ),
    # An unreadable play cannot be checked: the game stops there.
    "unreadable_play": (
        HEAD + row(1, "31: 8/5 x/3"),
        ("impossible_action", None, 5),
    ),
    # Bob doubles before his roll; Alice rolls instead of answering.
    "answer_required": (
        HEAD + row(1, "31: 8/5 6/5", " Doubles => 2") + row(2, "42: 8/4 6/4"),
        ("illegal_cube_action", "answer_required", 6),
    ),
    # Alice doubles right after her own roll, not before her next one.
    "not_before_roll": (
        HEAD + row(1, "31: 8/5 6/5") + row(2, " Doubles => 2"),
        ("illegal_cube_action", "not_before_roll", 6),
    ),
    # The first double of a game offers 2, not 4.
    "wrong_cube_value": (
        HEAD + row(1, "31: 8/5 6/5", " Doubles => 4"),
        ("illegal_cube_action", "wrong_cube_value", 5),
    ),
    # Bob doubles and takes his own double.
    "not_doubled_side": (
        HEAD + row(1, "31: 8/5 6/5", " Doubles => 2") + row(2, "", " Takes"),
        ("illegal_cube_action", "not_doubled_side", 6),
    ),
    # Bob doubles, Alice takes and owns the cube; Bob cannot double again.
    "not_cube_owner": (
        HEAD
        + row(1, "31: 8/5 6/5", " Doubles => 2")
        + row(2, " Takes", "42: 8/4 6/4")
        + row(3, "21: 13/11 6/5", " Doubles => 4"),
        ("illegal_cube_action", "not_cube_owner", 7),
    ),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_each_error_code_is_located(name: str) -> None:
    text, expected = ERRORS[name]
    assert findings(text, "errors")[0] == expected


def test_long_nardy_has_no_cube() -> None:
    text = '; [Variation "Long Nardy"]\n' + HEAD + row(1, "65: 24/13", " Doubles => 2")
    assert findings(text, "errors")[0] == ("illegal_cube_action", "no_cube", 6)


WARNINGS = {
    # Game 1, then Game 3: the numbering jumps.
    "game_number": (
        HEAD
        + row(1, " Doubles => 2", " Drops")
        + "      Wins 1 point\n\n Game 3\n Alice : 1                      Bob : 0\n"
        + row(1, "31: 8/5 6/5"),
        ("game_number", None, 8),
    ),
    # A game whose score line already shows the match won.
    "game_after_match": (
        HEAD.replace("Bob : 0", "Bob : 3") + row(1, "31: 8/5 6/5"),
        ("game_after_match", None, 4),
    ),
    # A StartPosition that is not a position string.
    "invalid_start_position": (
        ' 3 point match\n\n; [StartPosition "nonsense"]\n Game 1\n'
        " Alice : 0                      Bob : 0\n" + row(1, "31: 8/5 6/5"),
        ("invalid_start_position", None, 4),
    ),
    # A row that holds no cell the format knows.
    "unreadable_cell": (HEAD + row(1, "hello"), ("unreadable_cell", None, 5)),
    # A game line followed by a row, not by the score line.
    "missing_score_line": (
        " 3 point match\n\n Game 1\n" + row(1, "31: 8/5 6/5"),
        ("missing_score_line", None, 4),
    ),
    # A line of 5,000 characters is skipped, not read.
    "line_too_long": (HEAD + row(1, "31: 8/5 6/5" + " " * 5000 + "x"), ("line_too_long", None, 5)),
}


@pytest.mark.parametrize("name", list(WARNINGS))
def test_each_warning_code_is_located(name: str) -> None:
    text, expected = WARNINGS[name]
    assert expected in findings(text, "warnings")


def test_text_before_the_first_game_is_a_record_warning() -> None:
    verdict = adjudicate(" 3 point match\nhello there\n" + HEAD[16:] + row(1, "31: 8/5 6/5"))
    assert [(w.code, w.line) for w in verdict.verdict.warnings] == [("unexpected_line", 2)]


def test_an_invalid_rules_tag_is_a_warning_and_is_ignored() -> None:
    text = '; [Variation "Long Nardy"]\n; [Rules "koks=maybe"]\n' + HEAD + row(1, "65: 24/13")
    verdict = adjudicate(text).verdict
    assert [w.code for w in verdict.warnings] == ["invalid_header"]
    assert verdict.options["koks"] is False


def corpus_warnings(name: str) -> list[tuple[int, str, int | None]]:
    verdict = adjudicate(require(MAT / name).read_text()).verdict
    return [(game.index, w.code, w.line) for game in verdict.games for w in game.warnings]


def test_corpus_losses_bare_roll_and_unwritten_forced_play() -> None:
    # galaxy 3831101 line 18: "1)  Losses 3 point" before the Wins line.
    assert (1, "losses_line", 18) in corpus_warnings(
        "galaxy_match3831101_3pt-resign-first-move.mat"
    )
    # GridGammon amirrr-nori, game 5 ends "32) 63:" then Wins 100: a roll without its play.
    text = require(MAT / "gridgammon_amirrr-nori_2009-02-15_5pt.mat").read_text()
    line = text.splitlines().index(" 32) 63:                                   Wins 100 points") + 1
    assert (5, "bare_roll", line) in corpus_warnings("gridgammon_amirrr-nori_2009-02-15_5pt.mat")
    # GridGammon hansk-nori: "15) 32:" with 25/23 the only legal play: taken as played.
    text = require(MAT / "gridgammon_hansk-nori_2009-01-25_5pt.mat").read_text()
    line = next(n for n, t in enumerate(text.splitlines(), 1) if t.startswith(" 15) 32:"))
    assert (1, "play_not_written", line) in corpus_warnings(
        "gridgammon_hansk-nori_2009-01-25_5pt.mat"
    )
