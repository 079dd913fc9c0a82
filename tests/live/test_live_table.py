"""The live table with scripted dice: the opening, the cube (double, take, beaver, drop),
Crawford and automatic doubles, worked out by hand from RULES.md §14 and LIVE.md §5."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from referee.bridge import read_position
from referee.live.table import Action, GameStart, Table, Use
from referee.rules.cube import CubeState
from referee.rules.flow import GameFlow
from vocabulary import Side

W, B = Side.WHITE, Side.BLACK


class Scripted:
    """Dice from a list, remembering what each throw was for."""

    def __init__(self, throws: Iterable[tuple[int, int]]) -> None:
        self.throws = list(throws)
        self.uses: list[Use] = []

    def __call__(self, game: int, use: Use) -> tuple[int, int]:
        self.uses.append(use)
        return self.throws.pop(0)


def test_backgammon_opening_dice_are_the_starters_first_roll() -> None:
    table = Table("backgammon", 0, {})
    dice = Scripted([(2, 2), (1, 3)])  # a tie is thrown again; then Black's 3 beats White's 1
    table.start_game(dice)
    assert dice.uses == [Use.OPENING, Use.OPENING]
    assert (table.to_act(), table.dice(), table.expect()) == (B, (3, 1), ["play", "resign"])
    assert "8/5 6/5" in (table.legal or [])


def test_nardy_starter_rolls_anew_at_once() -> None:
    table = Table("long-nardy", 0, {})
    dice = Scripted([(5, 2), (6, 4)])  # White starts (5 > 2); his first roll is the next throw
    table.start_game(dice)
    assert dice.uses == [Use.OPENING, Use.ROLL]
    assert (table.to_act(), table.dice()) == (W, (6, 4))


def test_double_and_take_then_the_doubler_rolls_at_once() -> None:
    table = Table("backgammon", 0, {})
    dice = Scripted([(3, 1), (6, 5)])
    table.start_game(dice)
    table.apply(W, Action.PLAY, dice, play="8/5 6/5")
    assert table.to_act() is B and table.expect() == ["double", "roll", "resign"]
    table.apply(B, Action.DOUBLE, dice)
    assert table.to_act() is W and table.expect() == ["take", "drop"]  # beavers are off
    assert table.position.split()[5:7] == ["d", "2c"]
    table.apply(W, Action.TAKE, dice)
    # White owns the 2-cube: Black cannot double again, so the server rolls for him
    assert (table.to_act(), table.dice()) == (B, (6, 5))
    assert table.position.split()[6] == "2w"


def test_beaver_then_drop_loses_the_doubled_stake() -> None:
    table = Table("backgammon", 0, {"beavers": True})
    dice = Scripted([(3, 1)])
    table.start_game(dice)
    table.apply(W, Action.PLAY, dice, play="8/5 6/5")
    table.apply(B, Action.DOUBLE, dice)
    assert table.expect() == ["take", "drop", "beaver"]
    table.apply(W, Action.BEAVER, dice)  # White takes at 2 and redoubles to 4, keeping it
    assert table.to_act() is B and table.position.split()[5:7] == ["d", "4w"]
    table.apply(B, Action.DROP, dice)
    assert (table.winner, table.termination, table.score) == ("w", "drop", [2, 0])


def test_no_double_in_the_crawford_game_but_again_after_it() -> None:
    table = Table("backgammon", 3, {})
    table.match = replace(table.match, score=(2, 0))  # White is one point away: Crawford next
    dice = Scripted([(3, 1), (5, 2), (2, 4), (6, 1)])
    table.start_game(dice)
    assert table.position.endswith(" c")
    table.apply(W, Action.PLAY, dice, play="8/5 6/5")
    assert (table.to_act(), table.dice(), table.expect()) == (B, (5, 2), ["play", "resign"])
    table.apply(B, Action.RESIGN, dice, value=1)
    assert table.score == [3, 0] and table.winner == "w" and table.games[0].termination == "resign"

    table = Table("backgammon", 3, {})
    table.match = replace(table.match, score=(2, 0))
    dice = Scripted([(3, 1), (2, 4), (6, 1)])
    table.start_game(dice)
    table.apply(W, Action.RESIGN, dice, value=1)  # 2-1: the next game is post-Crawford
    assert table.game == 2 and table.position.endswith(" p")
    table.apply(B, Action.PLAY, dice, play="13/11 24/20")
    assert table.to_act() is W and table.expect() == ["double", "roll", "resign"]


def test_automatic_doubles_in_money_play_start_the_game_with_a_higher_cube() -> None:
    table = Table("backgammon", 0, {"auto_doubles": 2})
    dice = Scripted([(4, 4), (2, 2), (6, 6), (5, 3)])  # two automatic doubles, then a re-throw
    table.start_game(dice)
    assert table.position.split()[6] == "4c"
    (start,) = (entry.start for entry in table.noted if isinstance(entry, GameStart))
    assert start is not None and start.split()[4:7] == ["-", "-", "4c"]
    assert table.to_act() is W


def test_resigning_in_khachapuri_is_worth_what_it_says() -> None:
    table = Table("khachapuri", 0, {})
    dice = Scripted([(1, 6), (3, 2)])
    table.start_game(dice)
    table.apply(B, Action.RESIGN, dice, value=14)
    assert (table.winner, table.score) == ("w", [14, 0])


def test_draw_rule_gives_the_second_player_his_turn_and_both_off_is_a_draw() -> None:
    table = Table("long-nardy", 0, {"draw_rule": True})
    table.match = replace(table.match, game=1)
    # each side's last checker on its own point 1 (Black's is global 13); White, who
    # moved first, is to play 2-1
    position = read_position("long-nardy 1w" + "," * 12 + "1b" + "," * 11 + " w0b0 w14b14 w 21")
    table.flow = GameFlow(position, table.rules, CubeState(None), first_mover=W)
    dice = Scripted([(3, 1)])
    table.apply(W, Action.PLAY, dice, play="1/off")
    assert not table.finished and table.flow.extra_turn_for is B
    assert (table.to_act(), table.dice()) == (B, (3, 1))  # the extra turn, rolled at once
    table.apply(B, Action.PLAY, dice, play="1/off")
    assert (table.termination, table.winner, table.score) == ("draw", None, [0, 0])
