"""Play texts: the lenient reader (FORMATS.md part 1 §4) and the two writers."""

from __future__ import annotations

import pytest

from notation.errors import NotationError
from notation.plays import format_play, parse_play
from vocabulary import BAR, OFF, Move


def moves(text: str) -> list[tuple[int, int, bool]]:
    return [(m.from_point, m.to_point, m.hit) for m in parse_play(text).moves]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("13/8 13/11", [(13, 8, False), (13, 11, False)]),
        ("25/22 0", None),
        (
            "bar/22 Bar/20 b/19 25/18",
            [(BAR, 22, False), (BAR, 20, False), (BAR, 19, False), (BAR, 18, False)],
        ),
        (
            "6/0 5/off 4/Off 3/o",
            [(6, OFF, False), (5, OFF, False), (4, OFF, False), (3, OFF, False)],
        ),
        ("6/4* 18/17*", [(6, 4, True), (18, 17, True)]),
        ("24/18*/13", [(24, 18, True), (18, 13, False)]),
        ("24/18/13", [(24, 18, False), (18, 13, False)]),
        ("13/11(2)", [(13, 11, False), (13, 11, False)]),
        ("6/1*(2)", [(6, 1, True), (6, 1, True)]),
        ("6/off(4)", [(6, OFF, False)] * 4),
        ("13-8 13/10", [(13, 8, False), (13, 10, False)]),
        ("  24/13  ", [(24, 13, False)]),
        ("*8/5", [(8, 5, True)]),
    ],
)
def test_reader_accepts_what_real_records_contain(
    text: str, expected: list[tuple[int, int, bool]] | None
) -> None:
    if expected is None:
        with pytest.raises(NotationError):
            parse_play(text)
    else:
        assert moves(text) == expected


@pytest.mark.parametrize("text", ["52: 13/8 13/11", "25: 13/8 13/11", " 52:13/8 13/11"])
def test_dice_prefix_in_either_order(text: str) -> None:
    play = parse_play(text)
    assert play.dice == (5, 2)
    assert moves(text) == [(13, 8, False), (13, 11, False)]


@pytest.mark.parametrize(
    "text", ["", "Cannot Move", "cannot move", "54:", "54: Cannot Move", "54: -"]
)
def test_empty_plays(text: str) -> None:
    play = parse_play(text)
    assert play.moves == () and not play.unknown


@pytest.mark.parametrize("text", ["????", "52: ???"])
def test_unknown_plays_are_flagged(text: str) -> None:
    assert parse_play(text).unknown


@pytest.mark.parametrize("text", ["13/", "x/3", "13/8 hello", "13/8(16)", "13/8(0)", "/8"])
def test_unreadable_text_is_a_notation_error_with_a_column(text: str) -> None:
    with pytest.raises(NotationError) as raised:
        parse_play(text)
    assert raised.value.column is not None and raised.value.column >= 1


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("24/18 24/1x", "24/1x"),
        ("61: 24/18,13/x", "13/x"),
        ("x/3", "x/3"),
        ("13/8\nx 6/5", "\nx 6/5"),  # a newline is not read past: from there
        ("24/23/22/21/20/19/18/17/16x", "x"),  # too long to show whole: the rest, as read
    ],
)
def test_an_unreadable_part_is_named_whole(text: str, part: str) -> None:
    with pytest.raises(NotationError) as raised:
        parse_play(text)
    assert f"cannot read {part!r} as a move" in raised.value.message


def test_points_out_of_range_are_read_and_left_to_the_rules() -> None:
    assert moves("24/30") == [(24, 30, False)]


def test_canonical_writer() -> None:
    written = [Move(BAR, 22, True), Move(13, 8), Move(6, OFF)]
    assert format_play(written) == "bar/22* 13/8 6/off"
    assert format_play(written, (2, 5)) == "52: bar/22* 13/8 6/off"
    assert format_play([], (5, 4)) == "54:"


def test_canonical_text_reads_back_to_the_same_moves() -> None:
    written = [Move(BAR, 22, True), Move(22, 16), Move(6, OFF)]
    assert list(parse_play(format_play(written)).moves) == written
