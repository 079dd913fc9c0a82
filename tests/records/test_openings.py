"""The first roll of a game (RULES.md 14.2 for backgammon, 3.1 for the nardy variants)."""

from __future__ import annotations

from referee.adjudication import adjudicate
from referee.adjudication.verdict import GameVerdict


def first_game(variation: str, first_row: str, start: str = "") -> GameVerdict:
    start_tag = f'; [StartPosition "{start}"]\n' if start else ""
    text = (
        f'; [Variation "{variation}"]\n\n 1 point match\n\n{start_tag}'
        f" Game 1\n Alice : 0                      Bob : 0\n{first_row}"
    )
    return adjudicate(text).verdict.games[0]


def test_a_backgammon_game_from_the_start_never_opens_with_a_doublet() -> None:
    # Each player rolls one die until they differ; the higher one plays both (14.2).
    game = first_game("Backgammon", "  1) 66: 24/18(2) 13/7(2)\n")
    [error] = game.errors
    assert (error.code, error.rule, error.line, error.column) == (
        "illegal_play",
        "opening_doublet",
        7,  # header, blank, match length, blank, Game 1, score line, then the first row
        6,
    )


def test_the_opening_is_checked_for_whoever_starts() -> None:
    # Bob (right column) starts: the same rule.
    game = first_game("Backgammon", "  1)                             33: 8/5(2) 6/3(2)\n")
    assert [error.rule for error in game.errors] == ["opening_doublet"]


def test_an_opening_of_two_different_dice_is_fine() -> None:
    assert first_game("Backgammon", "  1) 31: 8/5 6/5\n").errors == []


def test_a_doublet_is_fine_after_the_first_roll_or_from_a_set_position() -> None:
    rows = "  1) 31: 8/5 6/5                 66: 24/18(2) 13/7(2)\n"
    assert first_game("Backgammon", rows).errors == []
    # Not the standard start: the game continues a position, so no opening roll.
    start = "backgammon 1w,1w,,,,,,,,,,,,,,,,,2b,,,,, w0b0 w13b13 w - 1c 0:0-0 -"
    assert first_game("Backgammon", "  1) 11: 2/1 1/off 1/off\n", start).errors == []


def test_long_nardy_opens_with_a_fresh_roll_so_a_doublet_is_fine() -> None:
    # 3.1: the starter's first roll is a new throw; 6-6 lets two checkers leave the head.
    assert first_game("Long Nardy", "  1) 66: 24/18(2)\n").errors == []
