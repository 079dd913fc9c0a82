"""The board translation against the FIBS rawboard documentation (fibs.com
``rawboard.html``; FORMATS.md part 2 §4), with cases worked out by hand, and the
translation of engine answers into live actions."""

from __future__ import annotations

import pytest

from notation.positions import parse_position
from referee.players.fibs import (
    EngineAnswerError,
    NotBackgammonError,
    Seat,
    action_of,
    board_line,
    fibs_board,
    fibs_name,
    move_text,
)
from referee.players.seat import EngineStrategy, refuse_variant, session_options
from vocabulary import Side

START = "2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0"
F1 = (
    "board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:"
    "0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0"
)
"""The FIBS protocol document's example (also bglib's first test vector): the starting
position, a 3-point match at 0-0, You (O, moving 24 -> 1) to play 62, 2 checkers to move."""


def fields(line: str) -> list[str]:
    return line.split(":")


def line_of(
    position: str, side: Side, can_move: int = 0, names: tuple[str, str] = ("a", "b")
) -> str:
    return board_line(parse_position("backgammon " + position), Seat(side, *names), can_move)


def test_the_documented_example_as_white() -> None:
    # White to play 62 from the start: White's own points are the board's points, his
    # checkers positive (O); Black's 24/13/8/6 are White's 1/12/17/19, negative.
    assert line_of(START + " w 62 1c 3:0-0 -", Side.WHITE, 2, ("You", "someplayer")) == F1


def test_the_documented_example_as_black() -> None:
    # The start is symmetric: Black to play 62 sees the same board in his own numbering.
    assert line_of(START + " b 62 1c 3:0-0 -", Side.BLACK, 2, ("You", "someplayer")) == F1


def test_a_worked_position_as_black() -> None:
    # White (global = White's points): 4:2, 5:2, 6:3, one on the bar, 7 off (2+2+3+1+7).
    # Black: global 24 (his 1-point) 2, global 20 (his 5) 3, global 13 (his 12) 1, 9 off.
    # White owns a 2-cube; 7-point match, White 2, Black 4; Black to play 41.
    position = ",,,2w,2w,3w,,,,,,,1b,,,,,,,3b,,,,2b w1b0 w7b9 b 41 2w 7:2-4 -"
    got = fields(line_of(position, Side.BLACK, 2, ("gnu", "randy")))
    assert got[:6] == ["board", "gnu", "randy", "7", "4", "2"]  # Black's score first
    board = [int(n) for n in got[6:32]]
    # index 0: the opponent's (White's) bar, negative; index 25: Black's bar.
    expected = [0] * 26
    expected[0] = -1
    expected[1], expected[5], expected[12] = 2, 3, 1  # Black's own points 1, 5, 12
    expected[21], expected[20], expected[19] = -2, -2, -3  # White's 4, 5, 6 = 25 - p
    assert board == expected
    assert got[32:37] == ["1", "4", "1", "0", "0"]  # O's turn, dice 4 1, no opponent dice
    assert got[37:41] == ["2", "0", "1", "0"]  # cube 2: only White (the opponent) may double
    assert got[41:45] == ["1", "-1", "0", "25"]  # colour O, 24 -> 1, home 0, bar 25
    assert got[45:49] == ["9", "7", "0", "1"]  # off: Black 9, White 7; bar: 0, 1
    assert got[49:] == ["2", "0", "0", "0"]  # 2 checkers to move; not post-Crawford
    assert len(got) == 53


def test_a_double_to_answer() -> None:
    # Black has doubled to 2 from a centred cube; White to answer: FIBS shows X's turn
    # (-1), no dice, the cube before the double (1), "was doubled" 1.
    got = fields(line_of(START + " w d 2c 5:1-3 -", Side.WHITE))
    assert got[3:6] == ["5", "1", "3"]
    assert got[32:41] == ["-1", "0", "0", "0", "0", "1", "1", "1", "1"]


def test_a_redouble_to_answer() -> None:
    # Black owns a 2-cube and redoubles to 4: the cube shown is 4 with its owner before
    # the offer (NOTATION.md §1); the board says cube 2, only the opponent may double.
    got = fields(line_of(START + " w d 4b 0:0-0 -", Side.WHITE))
    assert got[3:6] == ["9999", "0", "0"]  # a money game
    assert got[37:41] == ["2", "0", "1", "1"]


def test_roll_or_double() -> None:
    # White owns the cube and is to roll: no dice, turn O, only White may double.
    got = fields(line_of(START + " w - 2w 7:0-0 -", Side.WHITE))
    assert got[32:41] == ["1", "0", "0", "0", "0", "2", "1", "0", "0"]


def test_crawford_and_post_crawford() -> None:
    # The Crawford game: both may-double flags 1 (as FIBS writes them; gnubg reads 0 and
    # 0 as a double offered), "did Crawford" 0; after it, "did Crawford" 1.
    crawford = fields(line_of(START + " w 31 1c 5:4-2 c", Side.WHITE))
    assert crawford[38:41] == ["1", "1", "0"] and crawford[51] == "0"
    post = fields(line_of(START + " w 31 1c 5:4-3 p", Side.WHITE))
    assert post[38:41] == ["1", "1", "0"] and post[51] == "1"


def test_names_as_a_board_carries_them() -> None:
    assert fibs_name("gnu bot:1") == "gnu_bot_1"
    assert fibs_name("") == "_"


def test_a_nardy_match_is_refused() -> None:
    state = {
        "id": 3,
        "variant": "long-nardy",
        "position": "long-nardy ,,,,,,,,,,,15b,,,,,,,,,,,,15w w0b0 w0b0 w 31 - 0:0-0 -",
    }
    with pytest.raises(NotBackgammonError, match="backgammon only"):
        fibs_board(state, Seat(Side.WHITE, "a", "b"))
    with pytest.raises(NotBackgammonError, match="long-nardy"):
        refuse_variant(state)


def test_the_state_gives_can_move() -> None:
    state = {
        "variant": "backgammon",
        "position": "backgammon " + START + " w 66 1c 0:0-0 -",
        "legal_plays": ["24/18 24/18 13/7 13/7", "13/7 13/7 13/7 13/7"],
    }
    assert fields(fibs_board(state, Seat(Side.WHITE, "a", "b")))[49] == "4"


@pytest.mark.parametrize(
    ("answer", "play"),
    [
        ("24/18 13/11 ", "24/18 13/11"),  # gnubg's FormatMovePlain, trailing blank
        ("13/7* 8/7", "13/7 8/7"),  # a hit mark
        ("25/22 6/off", "25/22 6/0"),
        ("bar/22 6/0", "25/22 6/0"),
        ("8-5 6-5", "8/5 6/5"),  # UBGI's separators
        ("8 5 6 5", "8/5 6/5"),
        ("24/18/13", "24/18 18/13"),  # a chain: two parts
        ("", ""),  # no legal move
    ],
)
def test_moves(answer: str, play: str) -> None:
    assert move_text(answer) == play


@pytest.mark.parametrize("answer", ["8 5 6", "13/x", "(2)", "double please"])
def test_not_moves(answer: str) -> None:
    with pytest.raises(EngineAnswerError):
        move_text(answer)


def test_answers_as_actions() -> None:
    move = {"expect": ["play"]}
    assert action_of("24/18 13/11", move) == {"action": "play", "play": "24/18 13/11"}
    assert action_of("", move) == {"action": "play", "play": ""}
    cube = {"expect": ["roll", "double", "resign"]}
    assert action_of("double", cube) == {"action": "double"}
    assert action_of("roll\n", cube) == {"action": "roll"}
    answer = {"expect": ["take", "drop", "resign"]}
    assert action_of("drop", answer) == {"action": "drop"}
    # No beavers in this match: gnubg judged a take (its beaver setting is its own).
    assert action_of("beaver", answer) == {"action": "take"}
    with_beavers = {"expect": ["take", "drop", "beaver", "resign"]}
    assert action_of("beaver", with_beavers) == {"action": "beaver"}
    for word, state in [("double", move), ("take", cube), ("Error: badly formed board", answer)]:
        with pytest.raises(EngineAnswerError):
            action_of(word, state)
    with pytest.raises(EngineAnswerError):
        action_of("accept", answer)  # a resignation's answer: the live API has none to answer


def test_session_options() -> None:
    assert session_options({"crawford": True}, 5) == "crawfordrule on jacobyrule off beavers off"
    assert session_options({"crawford": False}, 5).startswith("crawfordrule off")
    money = session_options({"jacoby": True, "beavers": True}, 0)
    assert money == "crawfordrule on jacobyrule on beavers on"


class Scripted:
    """An engine that answers from a list, recording the questions."""

    name = "scripted"

    def __init__(self, answers: list[str]) -> None:
        self.answers = answers
        self.questions: list[str] = []

    def ask(self, line: str) -> str:
        self.questions.append(line)
        return self.answers.pop(0)

    def close(self) -> None:
        pass


def test_the_strategy_asks_with_the_seat_of_the_side_to_act() -> None:
    engine = Scripted(["13/11 24/18"])
    state = {
        "variant": "backgammon",
        "length": 3,
        "options": {"crawford": True},
        "players": {"w": "alice", "b": "bob"},
        "to_act": "b",
        "ply": 4,
        "expect": ["play"],
        "position": "backgammon " + START + " b 62 1c 3:0-0 -",
        "legal_plays": ["24/18 13/11"],
    }
    strategy = EngineStrategy(engine)
    assert strategy.choose(state) == {"action": "play", "play": "13/11 24/18"}
    question = engine.questions[0]
    assert question.startswith("board:bob:alice:3:0:0:")
    assert question.endswith(" crawfordrule on jacobyrule off beavers off")
    assert strategy.last is not None and strategy.last.answer == "13/11 24/18"
