"""A Snowie ``.txt`` position read as a one-game record: the fields as gnubg's ``import
snowietxt`` reads them (the player on roll's view, his score and cube), written by hand;
the game starts there; bad input refused with the field."""

from __future__ import annotations

import pytest

from notation.records.formats import SNOWIE, detect
from notation.records.snowie_reader import read_snowie
from referee.adjudication import check_record
from referee.errors import InvalidNotationError

START = [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2]
"""Points 1..24 of the starting position from the view of the player on roll."""


def snowie(on_roll: int, owner: int = 0, dice: str = "0;0", points: list[int] = START) -> str:
    fields = ["7", "0", "0", "0", str(on_roll), "Roller", "Other", "0", "2", "4", "2"]
    fields += [str(owner), "0", *(str(count) for count in points), "0", *dice.split(";")]
    return ";".join(fields) + ";\n"


def test_the_player_on_roll_is_white_or_black() -> None:
    white = read_snowie(snowie(0, owner=1))
    [game] = white.games
    assert white.match_length == 7 and game.players == ("Roller", "Other")
    assert game.score == (2, 4) and game.actions == ()
    assert (
        game.start == "backgammon 2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0 w - 2w 7:2-4 -"
    )
    black = read_snowie(snowie(1, owner=-1))
    [game] = black.games
    # the roller is the second player; his points, seen from White, turn round
    assert game.players == ("Other", "Roller") and game.score == (4, 2)
    assert (
        game.start == "backgammon 2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0 b - 2w 7:4-2 -"
    )


def test_the_game_starts_at_the_position() -> None:
    text = snowie(1, dice="5;2")
    assert detect(text.encode()) is SNOWIE
    verdict = check_record(text).to_json()
    [game] = verdict["games"]
    assert (game["termination"], game["cube"], game["score_before"]) == ("unfinished", 2, [4, 2])
    assert "dice 5-2 are not read" in read_snowie(text).games[0].findings[0].message


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("7;0;0;0;0;a;b;0;0;0;1;0;0\n", "40 fields"),
        (snowie(0).replace(";Other;0;", ";Other;x;"), "field 7"),
        (snowie(2), "field 4"),
    ],
)
def test_bad_positions_name_the_field(text: str, where: str) -> None:
    with pytest.raises(InvalidNotationError, match=where):
        check_record(text, record_format="snowie")
