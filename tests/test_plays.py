"""The plays service (``referee/plays.py``, behind ``/v1/plays/*`` and the CLI): legal
plays and judged plays for positions worked out by hand."""

from __future__ import annotations

from referee.plays import PlaysService

# Long nardy: White on his own 2 and 5 (13 off), Black's 15 on his head; White rolls 5-3.
# Both dice play in two ways: 5/off 2/off, or 5/2 2/off (the 3 first, then the 5 from 2).
LN_BEAR_OFF = "long-nardy ,1w,,,1w,,,,,,,15b,,,,,,,,,,,, w0b0 w13b0 w 53 - 0:0-0 -"
LN_START_66 = "long-nardy ,,,,,,,,,,,15b,,,,,,,,,,,,15w w0b0 w0b0 w 66 - 0:0-0 -"


def plays(position: str, options: dict[str, object] | None = None) -> set[str]:
    return {answer.play for answer in PlaysService(position, options).legal()}


def test_end_of_turn_keeps_the_bear_off_that_uses_both_dice() -> None:
    options = {"block_timing": "end_of_turn"}
    assert plays(LN_BEAR_OFF, options) == {"5/off 2/off", "5/2 2/off"}
    assert PlaysService(LN_BEAR_OFF, options).check("5/2 2/off").legal


def test_a_written_bear_off_that_hides_a_die_is_reported_one_part_per_die() -> None:
    # "5/off" alone reaches the board of 5/2 2/off, which uses both dice.
    assert PlaysService(LN_BEAR_OFF).check("5/off").play == "5/2 2/off"


def test_sequence_judging_honours_the_head_exception_when_needed() -> None:
    # One head checker cannot play 6-6 (the second six from 18 lands on Black's head):
    # only_if_needed allows the second, so 24/18 24/18 is the one legal play.
    options = {"judge": "sequence", "head_exception": "only_if_needed"}
    assert PlaysService(LN_START_66, options).check("24/18 24/18").legal


def test_a_position_that_already_breaks_the_block_rule_still_has_the_empty_play() -> None:
    # White holds his own 6..11 (Black's 18..23) with Black all in his 13..17, none home:
    # under block_rule=home and end_of_turn no move repairs it, so White passes.
    position = "long-nardy 3b,3b,3b,3b,3b,5w,2w,2w,2w,2w,2w,,,,,,,,,,,,, w0b0 w0b0 w 66 - 0:0-0 -"
    options = {"block_rule": "home", "block_timing": "end_of_turn"}
    assert plays(position, options) == {""}
    assert PlaysService(position, options).check("").legal


def test_a_hit_on_the_way_of_a_combined_move_is_a_warning() -> None:
    # White's 24/13 with 6-5: 19 is Black's point, so only via 18, where a Black blot is hit.
    position = "backgammon ,,,,,5w,,3w,,,,,5w,,,,,1b,2b,,,,,1w w0b0 w1b12 w 65 1c 0:0-0 -"
    answer = PlaysService(position).check("24/13")
    assert answer.legal and answer.play == "24/18* 18/13"
    assert [warning.code for warning in answer.warnings] == ["hit_not_marked"]


def test_under_sequence_judging_every_listed_play_is_legal_as_written() -> None:
    # Black has two on the bar and rolls 3-3. In display order one play reads
    # "bar/22* 22/19 bar/22 22/19*", which moves from 22 while a checker is still on the
    # bar: illegal as a sequence. Under sequence judging plays are listed in the order
    # they are played, so each listed play is legal as written.
    position = (
        "backgammon 3w,1w,1w,,1b,1w,,2w,1b,,,4b,4w,,,1b,,1w,2b,1b,1w,1b,2b,1w"
        " w0b2 w0b0 b 33 1c 0:0-0 -"
    )
    service = PlaysService(position, {"judge": "sequence"})
    for answer in service.legal():
        checked = service.check(answer.play)
        assert checked.legal and checked.position == answer.position, answer.play
    # Khachapuri bear-off with 4-4: 6/2 2/off must come after 3/off, not before it.
    position = "khachapuri 5w,1w,3w,,2w,3w,,,,,,,2b,4b,1b,,1w,1b,,,,,, w0b0 w0b7 b 44 - 0:0-0 -"
    service = PlaysService(position, {"judge": "sequence"})
    for answer in service.legal():
        assert service.check(answer.play).legal, answer.play
