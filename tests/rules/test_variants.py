"""What each variant class says about itself (python-chess's ``variant.py`` as the model):
its options, its record tag, what its positions can never hold, what a resignation is
worth. Expected values from RULES.md §9-§12 and §14."""

from __future__ import annotations

import pytest

from referee.bridge import read_position
from referee.errors import InvalidOptionError, InvalidPositionError
from referee.rules.options import Options
from referee.rules.variants import (
    VARIANTS,
    Backgammon,
    Khachapuri,
    LongNardy,
    WinKind,
    find_variation,
)

LN_START = "long-nardy ,,,,,,,,,,,15b,,,,,,,,,,,,15w w0b0 w0b0 w 65 - 0:0-0 -"


def test_each_option_applies_where_rules_12_1_says() -> None:
    assert Backgammon.option_names == {
        "judge",
        "cube",
        "cube_limit",
        "beavers",
        "auto_doubles",
        "jacoby",
        "crawford",
    }
    assert Khachapuri.option_names == {
        "block_rule",
        "block_timing",
        "judge",
        "draw_rule",
        "draw_scoring",
    }
    assert LongNardy.option_names == Khachapuri.option_names | {
        "head_exception",
        "first_turn_scope",
        "koks",
    }


def test_options_outside_the_variant_are_refused_and_json_lists_only_its_own() -> None:
    with pytest.raises(InvalidOptionError):
        Khachapuri.options_with({"koks": True})
    options = LongNardy.options_with({"koks": True}, Options(cube_limit=8))
    assert (options.koks, options.cube_limit) == (True, 8)  # the base is kept
    assert set(LongNardy.options_json(options)) == LongNardy.option_names
    assert LongNardy.options_json(options)["koks"] is True


@pytest.mark.parametrize(
    ("tag", "variant"),
    [
        ("Backgammon", Backgammon),
        ("short nardy", Backgammon),
        ("Long Nardy", LongNardy),
        (" KHACHAPURI ", Khachapuri),
        ("NackGammon", None),
    ],
)
def test_a_records_variation_tag_names_its_variant(tag: str, variant: object) -> None:
    assert find_variation(tag) is variant


@pytest.mark.parametrize(
    ("position", "code"),
    [
        (LN_START.replace("15w w0b0", "14w w1b0"), "bar_in_nardy"),  # no bar without hitting
        (LN_START.replace(" - 0:0-0", " 1c 0:0-0"), "cube_in_nardy"),  # no cube in nardy
    ],
)
def test_what_a_variants_positions_can_never_hold(position: str, code: str) -> None:
    with pytest.raises(InvalidPositionError) as raised:
        read_position(position)
    assert code in {problem["code"] for problem in raised.value.extensions["problems"]}


@pytest.mark.parametrize(
    ("variant", "options", "values"),
    [
        (Backgammon, Options(), {1, 2, 3}),  # single, gammon, backgammon (14.8)
        (LongNardy, Options(), {1, 2}),  # oin and mars; koks only as an option (9.3)
        (LongNardy, Options(koks=True), {1, 2, 3}),
        (Khachapuri, Options(), {*range(1, 15), 30}),  # any difference, or a mars (11)
    ],
)
def test_what_a_player_may_resign_for(
    variant: type[Backgammon], options: Options, values: set[int]
) -> None:
    assert variant.resignation_values(options) == values


def test_every_variant_classifies_a_resignation() -> None:
    # Cube 2: 4 is twice the cube, a mars in both cube-less counts; khachapuri says 4 points.
    assert [v.resignation_win(4, 2, Options()).kind for v in VARIANTS] == [
        WinKind.MARS,
        WinKind.MARS,
        WinKind.SINGLE,
    ]
