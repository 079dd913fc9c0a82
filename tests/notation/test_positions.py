"""Position strings (NOTATION.md §1): parsing, canonical formatting, validation codes."""

from __future__ import annotations

import pytest

from notation.errors import NotationError
from notation.positions import (
    CubeField,
    field_column,
    format_position,
    parse_position,
    validate_position,
)
from vocabulary import CubeOwner, Phase

BG_START = "backgammon 2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0 w 31 1c 0:0-0 -"
LN_START = "long-nardy ,,,,,,,,,,,15b,,,,,,,,,,,,15w w0b0 w0b0 w 65 - 0:0-0 -"
KH_START = "khachapuri ,,,,,11w,,,,,,4b,,,,,,11b,,,,,,4w w0b0 w0b0 b 43 - 0:0-0 -"


@pytest.mark.parametrize("text", [BG_START, LN_START, KH_START])
def test_issue_examples_parse_validate_and_round_trip(text: str) -> None:
    position = parse_position(text)
    assert validate_position(position) == []
    assert format_position(position) == text


def test_backgammon_start_cells_follow_whites_numbering() -> None:
    position = parse_position(BG_START)
    # White 24:2, 13:5, 8:3, 6:5; Black's 24, 13, 8, 6 are White's 1, 12, 17, 19.
    assert position.cells[23] == 2 and position.cells[12] == 5
    assert position.cells[7] == 3 and position.cells[5] == 5
    assert position.cells[0] == -2 and position.cells[11] == -5
    assert position.cells[16] == -3 and position.cells[18] == -5
    assert position.turn == "w" and position.phase is Phase.MOVE and position.dice == (3, 1)
    assert position.cube == CubeField(1, CubeOwner.CENTRE)


def test_optional_fields_take_the_variant_defaults() -> None:
    bg = parse_position("bg 2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0 - -")
    assert bg.variant == "backgammon" and bg.cube == CubeField(1, CubeOwner.CENTRE)
    assert format_position(bg) == (
        "backgammon 2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0 - - 1c 0:0-0 -"
    )
    ln = parse_position("LN ,,,,,,,,,,,15B,,,,,,,,,,,,15W W0B0 W0B0 - -")
    assert ln.variant == "long-nardy" and ln.cube is None and ln.phase is Phase.ROLL


def test_dice_in_either_order_are_written_larger_first() -> None:
    text = BG_START.replace(" 31 ", " 13 ")
    assert format_position(parse_position(text)) == BG_START


def test_states_and_match_fields() -> None:
    text = "backgammon 2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0 b d 2w 9:2-4 -"
    position = parse_position(text)
    assert position.phase is Phase.DOUBLED and position.cube == CubeField(2, CubeOwner.WHITE)
    assert position.match_length == 9 and position.score == (2, 4)
    resign = parse_position(text.replace(" d 2w", " r2 2w"))
    assert resign.phase is Phase.RESIGN and resign.resign == 2
    assert format_position(resign).endswith(" b r2 2w 9:2-4 -")


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("chess " + BG_START.split(" ", 1)[1], "field 1 (variant)"),
        (BG_START.replace("2b,", "2x,", 1), "field 2 (points)"),
        (BG_START.replace(",,,,,2w", ",,,,2w"), "field 2 (points)"),
        (BG_START.replace("w0b0 w0b0", "w0 w0b0"), "field 3 (bar)"),
        (BG_START.replace(" w 31 ", " x 31 "), "field 5 (turn)"),
        (BG_START.replace(" 31 ", " 71 "), "field 6 (state)"),
        (BG_START.replace(" 1c ", " 1x "), "field 7 (cube)"),
        (BG_START.replace(" 0:0-0 ", " 7-0:0 "), "field 8 (match)"),
        (BG_START[:-1] + "q", "field 9 (rules)"),
        ("backgammon 2b,,,", "6 to 9"),
    ],
)
def test_malformed_strings_name_the_field(text: str, field: str) -> None:
    with pytest.raises(NotationError) as raised:
        parse_position(text)
    assert field in raised.value.message


def test_a_cell_is_its_count_whatever_the_spelling_and_counts_stay_1_to_15() -> None:
    # "05W" and "03w" are White's 5 on its 6 point and 3 on its 8, as "5w" and "3w" are.
    spelled = parse_position(BG_START.replace(",5w,,3w", ",05W,,03w"))
    assert spelled.cells == parse_position(BG_START).cells
    for cell in ("0w", "16b", "w", "2"):
        with pytest.raises(NotationError):
            parse_position(BG_START.replace("2b,", cell + ",", 1))


def codes(text: str) -> set[str]:
    return {problem.code for problem in validate_position(parse_position(text))}


@pytest.mark.parametrize(
    ("text", "code"),
    [
        (BG_START.replace("2b,", "1b,", 1), "checker_count"),
        (BG_START.replace("w0b0 w0b0", "w0b0 w1b0"), "checker_count"),
        (LN_START.replace(" w 65 ", " w d "), "double_without_cube"),
        (BG_START.replace(" 1c ", " 3w "), "cube_value"),
        (BG_START.replace(" w 31 ", " - 31 "), "turn_state"),
        (BG_START.replace(" w 31 ", " w end "), "turn_state"),
        (BG_START.replace(" 0:0-0 ", " 7:7-0 "), "score"),
        (BG_START.replace(" 0:0-0 ", " 0:1-0 "), "score"),
        (BG_START.replace(" 0:0-0 -", " 7:2-3 c"), "crawford_flag"),
        (BG_START.replace(" 1c 0:0-0 -", " 2w 7:6-3 c"), "crawford_flag"),
        (BG_START.replace(" 0:0-0 -", " 7:2-3 p"), "crawford_flag"),
    ],
)
def test_validation_names_each_problem(text: str, code: str) -> None:
    assert code in codes(text)


def test_crawford_and_post_crawford_flags_that_fit_are_valid() -> None:
    assert codes(BG_START.replace(" 0:0-0 -", " 7:6-3 c")) == set()
    assert codes(BG_START.replace(" 0:0-0 -", " 7:6-4 p")) == set()


@pytest.mark.parametrize("cube", ["1w", "1b"])
def test_a_cube_of_one_has_no_owner(cube: str) -> None:
    # A cube of 1 is centred (RULES.md 14.5): "owned" at 1 it would stop the other side
    # from doubling.
    text = f"backgammon 2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0 w - {cube} 0:0-0 -"
    problems = validate_position(parse_position(text))
    assert [(p.code, p.field) for p in problems] == [("cube_owner", "cube")]
    # The cube field is the 7th: its column is where it starts in the text.
    assert field_column(text, "cube") == text.index(f" {cube} ") + 2
