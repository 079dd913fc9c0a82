"""Cube actions in records (RULES.md §14.5-14.7, NOTATION.md §4): every change of the cube's
value is checked for its value, owner and limit; cubeless play is cubeless. Expected values
are worked out from the rules in the comments."""

from __future__ import annotations

from referee.adjudication import adjudicate
from referee.adjudication.verdict import GameVerdict

HEADER = '; [Variation "Backgammon"]\n; [Beaver "On"]\n; [Jacoby "Off"]\n{extra}\n 0 point match\n'
# White (Alice, left) on her 2 and 1 with 13 off; Black on White's 19 (his 6) twice.
BEAR_OFF = "backgammon 1w,1w,,,,,,,,,,,,,,,,,2b,,,,, w0b0 w13b13 w - 1c 0:0-0 -"


def money_game(rows: str, extra: str = "", start: str = BEAR_OFF) -> str:
    return (
        HEADER.format(extra=extra)
        + f'\n; [StartPosition "{start}"]\n Game 1\n Alice : 0                      Bob : 0\n'
        + rows
    )


def only_game(text: str, **kwargs: object) -> GameVerdict:
    [game] = adjudicate(text, **kwargs).verdict.games  # type: ignore[arg-type]
    return game


def rules(game: GameVerdict) -> list[str | None]:
    return [error.rule for error in game.errors]


def test_a_beaver_of_the_wrong_value_is_wrong_cube_value() -> None:
    # A double to 2 can only be beavered to 4 (14.6: a beaver redoubles the offered cube).
    text = money_game(
        "  1)  Doubles => 2                Beavers => 8\n"
        "  2) 21: 2/off 1/off\n"
        "      Wins 4 points\n"
    )
    game = only_game(text)
    assert rules(game) == ["wrong_cube_value"]
    # Condoned, the beaver stands at its lawful value 4, never the 8 written.
    condoned = only_game(text, mode="condone")
    assert rules(condoned) == ["wrong_cube_value"]
    assert (condoned.result.cube, condoned.result.points) == (4, 4)


def test_a_raccoon_of_the_wrong_value_is_wrong_cube_value() -> None:
    text = money_game("  1)  Doubles => 2                Beavers => 4\n  2)  Raccoons => 16\n")
    assert rules(only_game(text)) == ["wrong_cube_value"]


def test_a_written_beaver_never_passes_the_cube_limit() -> None:
    # Limit 8: the double to 2 and a beaver to 4 are fine; "Beavers => 16" is wrong twice
    # over, and the cube never goes past 8.
    text = money_game(
        "  1)  Doubles => 2                Beavers => 16\n"
        "  2) 21: 2/off 1/off\n"
        "      Wins 4 points\n",
        extra='; [CubeLimit "8"]',
    )
    game = only_game(text, mode="condone")
    assert rules(game) == ["wrong_cube_value"]
    assert game.result.cube == 4


def test_automatic_doubles_never_start_a_game_above_the_cube_limit() -> None:
    # Seven automatic doubles make 128, past the default limit 64 (14.5, 14.7).
    text = money_game(
        "  1) 21: 2/off 1/off\n      Wins 128 points\n", start=BEAR_OFF.replace(" 1c ", " 128c ")
    )
    game = only_game(text, options={"auto_doubles": 7})
    assert rules(game) == ["cube_limit"]
    six = money_game(
        "  1) 21: 2/off 1/off\n      Wins 64 points\n", start=BEAR_OFF.replace(" 1c ", " 64c ")
    )
    assert only_game(six, options={"auto_doubles": 6}).errors == []


def test_the_doublers_roll_takes_a_raccoon_as_it_takes_a_beaver() -> None:
    # Alice doubles to 2, Bob beavers to 4, Alice raccoons to 8 and keeps the cube; Alice's
    # roll says Bob took. She bears off, Bob has 13 off: single x 8.
    raccoon = money_game(
        "  1)  Doubles => 2                Beavers => 4\n"
        "  2)  Raccoons => 8\n"
        "  3) 21: 2/off 1/off\n"
        "      Wins 8 points\n"
    )
    game = only_game(raccoon)
    assert game.errors == []
    assert (game.result.cube, game.result.cube_owner, game.result.points) == (8, "w", 8)
    beaver = money_game(
        "  1)  Doubles => 2                Beavers => 4\n"
        "  2) 21: 2/off 1/off\n"
        "      Wins 4 points\n"
    )
    game = only_game(beaver)
    assert game.errors == []
    assert (game.result.cube, game.result.cube_owner, game.result.points) == (4, "b", 4)


# -- cubeless play --------------------------------------------------------------------------

# Alice's last checker on her 1; Bob has 14 checkers on White's 19 (his 6) and one off.
SINGLE = "backgammon 1w,,,,,,,,,,,,,,,,,,14b,,,,, w0b0 w14b1 w - {cube} 0:0-0 -"
# The same with none of Bob's off: a mars (gammon), 2 at cube 1.
GAMMON = "backgammon 1w,,,,,,,,,,,,,,,,,,15b,,,,, w0b0 w14b0 w - {cube} 0:0-0 -"


def cubeless(start: str, wins: int, extra: str = '; [CubeLimit "1"]') -> str:
    return (
        f'; [Variation "Backgammon"]\n{extra}\n\n 0 point match\n\n'
        f'; [StartPosition "{start}"]\n Game 1\n Alice : 0                      Bob : 0\n'
        f"  1) 21: 1/off\n      Wins {wins} point{'s' if wins > 1 else ''}\n"
    )


def test_without_the_cube_a_start_positions_cube_field_never_counts() -> None:
    # [CubeLimit "1"] is cubeless play: the game is worth a single, 1, whatever "2c" says.
    game = only_game(cubeless(SINGLE.format(cube="2c"), 1))
    assert (game.result.cube, game.result.points, game.result_mismatch) == (1, 1, None)
    assert game.warnings == []


def test_without_the_cube_jacoby_reads_the_same_whether_the_field_is_1c_or_dash() -> None:
    # No cube can be turned, so the Jacoby rule has nothing to say: the gammon counts 2
    # with "1c" and with "-" alike.
    for field in ("1c", "-"):
        game = only_game(
            cubeless(GAMMON.format(cube=field), 2, extra='; [Jacoby "On"]'), options={"cube": False}
        )
        assert (game.result.kind, game.result.points, game.result.jacoby_applied) == (
            "mars",
            2,
            False,
        )


MONEY = '; [Beaver "On"]\n; [Jacoby "Off"]\n{limit}\n 0 point match\n\n Game 1\n A : 0    B : 0\n'


def test_a_stray_beaver_under_condone_leaves_the_cube_alone() -> None:
    text = MONEY.format(limit="") + (
        "  1) 31: 8/5 6/5                 Beavers => 4\n"
        "  2)  Drops\n"
        "                                  Wins 1 point\n"
    )
    verdict = adjudicate(text, mode="condone").verdict
    [game] = verdict.games
    assert [error.rule for error in game.errors] == ["no_double_pending", "no_double_pending"]
    assert game.result.cube == 1


def test_a_beaver_past_the_cube_limit_is_an_illegal_cube_action() -> None:
    text = MONEY.format(limit='; [CubeLimit "2"]') + (
        "  1)                             31: 8/5 6/5\n"
        "  2)  Doubles => 2                Beavers => 4\n"
    )
    [game] = adjudicate(text).verdict.games
    assert [(error.code, error.rule) for error in game.errors] == [
        ("illegal_cube_action", "cube_limit")
    ]


def test_a_pending_double_shows_the_value_offered() -> None:
    # NOTATION.md §1: "With state d the value is the one offered". Bob doubles the centred
    # cube: Alice must answer a 2 (still centred); after her take she owns the 2.
    text = (
        " 3 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
        "  2)  Takes                      42: 8/4 6/4\n"
    )
    steps = adjudicate(text, replay=True).replays[0]
    double, take = steps[1], steps[2]
    assert double.position_after.split()[4:7] == ["w", "d", "2c"]
    assert take.position_after.split()[4:7] == ["b", "-", "2w"]


def test_a_raccoon_straight_after_a_double_is_an_illegal_cube_action() -> None:
    text = money_game("  1)  Doubles => 2                Raccoons => 4\n")
    assert rules(only_game(text)) == ["no_beaver_pending"]
