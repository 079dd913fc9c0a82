"""Records judged by position accept single moves in any legal order (RULES.md A6)."""

from __future__ import annotations

from referee.adjudication import adjudicate

RECORD = (
    " 1 point match\n\n Game 1\n Alice : 0                      Bob : 0\n  1) 65: 18/13 24/18\n"
)


def test_a_record_play_out_of_travel_order_is_legal_and_written_canonically() -> None:
    adjudication = adjudicate(RECORD)
    [game] = adjudication.verdict.games
    assert game.errors == []
    [action] = adjudication.canonical.games[0].actions
    assert action.text == "65: 24/18 18/13"


def test_by_sequence_the_record_play_is_illegal() -> None:
    [game] = adjudicate(RECORD, options={"judge": "sequence"}).verdict.games
    assert [(e.code, e.rule) for e in game.errors] == [("illegal_play", "no_checker")]
