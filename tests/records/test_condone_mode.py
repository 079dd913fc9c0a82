"""Records checked in condone mode (NOTATION.md §4): a physically possible illegal play
stands as played, reported as an error."""

from __future__ import annotations

from referee.adjudication import adjudicate


def test_condone_brings_checkers_home_before_bearing_off_whatever_the_written_order() -> None:
    # White on his 8 and 6 (13 off) rolls 6-2 and writes "6/off 8/2": wrong dice (8/2 is a
    # 6, 6/off a 6 too), so illegal; physically the 8 comes home first, then the 6 bears off.
    text = (
        '; [StartPosition "backgammon ,,,,,1w,,1w,,,,,,,,,,,,,,,,2b w0b0 w13b13 w - 1c 0:0-0 -"]\n'
        " 0 point match\n\n Game 1\n A : 0    B : 0\n"
        "  1) 62: 6/off 8/2\n"
    )
    [game] = adjudicate(text, mode="condone").verdict.games
    assert [error.code for error in game.errors] == ["illegal_play"]
