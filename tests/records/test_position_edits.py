"""Board edits inside a game: XG's ``; Set Pos=`` lines and gnubg's ``NN: Illegal play
(...)`` cells, a Snowie position in place of a play (FORMATS.md part 1 §4). The game goes on
from the edited board with a ``position_edit`` warning; Snowie cells are read exactly as
gnubg's own importer reads them (``test_snowie_edits.py`` imports records made for each case
into gnubg, the test-only peer, and compares its positions with ours)."""

from __future__ import annotations

from pathlib import Path

import pytest

from notation.errors import NotationError
from notation.positions import parse_position
from notation.records.mat_writer import write_mat
from notation.records.snowie import parse_snowie_cell
from referee.adjudication import adjudicate

# The positive side's own points: the start with one checker moved 8/5 (an odd shape, so a
# swap of sides or of numbering shows); the negative side at the start.
ODD = {24: 2, 13: 5, 8: 2, 6: 5, 5: 1}
START = {24: 2, 13: 5, 8: 3, 6: 5}


def snowie(
    positive: dict[int, int], negative: dict[int, int], field4: int, bars: str = "0;0"
) -> str:
    """A Snowie position: points 1..24 from the positive side's view, the negative side's
    checker on its own point q standing on the positive side's 25 - q."""
    negative_bar, positive_bar = bars.split(";")
    points = [positive.get(p, 0) or -negative.get(25 - p, 0) for p in range(1, 25)]
    fields = ["3", "0", "0", "0", str(field4), "Alice", "Bob", "0", "0", "0", "1", "0"]
    fields += [negative_bar, *map(str, points), positive_bar, "3", "1"]
    return ";".join(fields)


def record(mover: str, field4: int) -> str:
    """Alice (left, w) or Bob (right, b) rolls 52 and the board is edited; the other then
    plays 31: 8/5 6/5."""
    cell = f"52: Illegal play ({snowie(ODD, START, field4)})"
    if mover == "w":
        rows = f"  1) {cell}\n  2)                             31: 8/5 6/5\n"
    else:
        rows = f"  1) 31: 8/5 6/5                 {cell}\n  2) 31: 8/5 6/5\n"
    return f" 3 point match\n\n Game 1\n Alice : 0                      Bob : 0\n{rows}"


def position_after_edit(text: str) -> str:
    adjudication = adjudicate(text, replay=True)
    [game] = adjudication.verdict.games
    assert game.errors == []
    assert [w.code for w in game.warnings if w.code == "position_edit"] == ["position_edit"]
    [edit] = [step for step in adjudication.replays[0] if step.action.kind == "edit"]
    return edit.position_after


@pytest.mark.parametrize(("mover", "field4"), [("w", 0), ("w", 1), ("b", 0), ("b", 1)])
def test_field_4_says_which_player_the_points_are_written_for(mover: str, field4: int) -> None:
    # As gnubg reads it (measured in test_snowie_edits.py): field 4 = 1, the positive side is
    # the record's first player (White, left column); 0, its second (Black), whichever
    # column the cell is in.
    after = parse_position(position_after_edit(record(mover, field4)))
    other = "b" if mover == "w" else "w"
    assert after.turn == other  # the edit took the mover's turn
    positive = "w" if field4 == 1 else "b"
    # White's own point p is cell p; Black's own point q is White's 25 - q.
    expected = [0] * 24
    for side, layout in ((positive, ODD), ("b" if positive == "w" else "w", START)):
        for point, count in layout.items():
            cell = point if side == "w" else 25 - point
            expected[cell - 1] = count if side == "w" else -count
    assert list(after.cells) == expected


def test_a_game_with_edits_in_both_columns_checks_through_to_its_result() -> None:
    # Bear-off: Alice on her 2 and 1, Bob on his 2 and 1, 13 off each. Alice rolls 21 and
    # her edit leaves her one checker on her 1 (14 off), the points written for her (field
    # 4 = 1); Bob's 43 edit leaves him one on his 1 (14 off), the points written for him
    # (field 4 = 0). Alice's 61 bears her last checker off: a single, 1 point.
    start = "backgammon 1w,1w,,,,,,,,,,,,,,,,,,,,,1b,1b w0b0 w13b13 w - 1c 0:0-0 -"
    alice = snowie({1: 1}, {2: 1, 1: 1}, 1)
    bob = snowie({1: 1}, {1: 1}, 0)
    text = (
        f' 3 point match\n\n; [StartPosition "{start}"]\n'
        " Game 1\n Alice : 0                      Bob : 0\n"
        f"  1) 21: Illegal play ({alice}) 43: Illegal play ({bob})\n"
        "  2) 61: 1/off\n"
        "      Wins 1 point\n"
    )
    verdict = adjudicate(text).verdict
    [game] = verdict.games
    assert verdict.valid
    assert [w.code for w in game.warnings] == ["position_edit", "position_edit"]
    assert [w.side for w in game.warnings] == ["w", "b"]
    assert (game.result.winner, game.result.termination, game.result.points) == ("w", "bore_off", 1)
    assert game.result_mismatch is None
    # The canonical record keeps the edits, and checks to the same result.
    canonical = write_mat(adjudicate(text).canonical)
    assert canonical.count("Illegal play (") == 2
    [again] = adjudicate(canonical).verdict.games
    assert again.result == game.result
    assert [(w.code, w.side) for w in again.warnings] == [(w.code, w.side) for w in game.warnings]


def test_after_an_edit_on_the_first_roll_a_doublet_is_no_opening_roll() -> None:
    # Alice's opening 52 is the edit (field 4 = 0: the points are Bob's): Bob is left on the
    # bar against her closed board and dances with 66, the game's second roll.
    closed = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 24: 3}
    bob = {13: 6, 8: 4, 7: 4}
    cell = snowie(bob, closed, 0, bars="0;1")
    text = (
        " 3 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
        f"  1) 52: Illegal play ({cell}) 66:\n"
        "  2) 43: 24/20 24/21\n"
        "      Wins 1 point\n"
    )
    verdict = adjudicate(text).verdict
    [game] = verdict.games
    assert verdict.valid and game.errors == []
    assert [w.code for w in game.warnings] == ["position_edit"]


def test_fields_the_edit_does_not_use_may_say_anything() -> None:
    # A cube of 128 (field 10) is not read: only the board is.
    fields = snowie(ODD, START, 0).split(";")
    fields[10] = "128"
    assert parse_snowie_cell(f"52: Illegal play ({';'.join(fields)})").points[4] == 1


def test_an_edit_that_puts_checkers_on_a_nardy_bar_leaves_the_rest_unchecked() -> None:
    # Long nardy has no bar: an edit with three on a bar cannot be a long nardy position.
    cell = snowie({24: 12}, {24: 14}, 0, bars="0;3")
    text = (
        '; [Variation "Long Nardy"]\n\n 3 point match\n\n Game 1\n'
        " Alice : 0                      Bob : 0\n"
        f"  1) 21: Illegal play ({cell})\n"
        "      Wins 1 point\n"
    )
    [game] = adjudicate(text).verdict.games
    [edit] = [w for w in game.warnings if w.code == "position_edit"]
    assert edit.message.endswith("the rest is not checked")
    assert game.errors == [] and game.result.termination == "resign"


def test_a_trailing_semicolon_is_read_and_a_short_position_is_refused() -> None:
    board = parse_snowie_cell(f"52: Illegal play ({snowie(ODD, START, 0)};)")
    assert board.positive_player == 1 and board.points[4] == 1  # field 4 = 0: the second
    with pytest.raises(NotationError):
        parse_snowie_cell("52: Illegal play (3;0;0)")


def test_an_unreadable_edit_leaves_the_rest_unchecked() -> None:
    text = (
        " 3 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
        "  1) 52: Illegal play (3;0;0)\n"
        "  2)                             31: 24/1\n"
        "      Wins 1 point\n"
    )
    [game] = adjudicate(text).verdict.games
    assert game.errors == []
    assert [w.code for w in game.warnings] == ["position_edit"]
    assert (game.result.winner, game.result.termination) == ("w", "resign")


def test_set_pos_edits_survive_the_canonical_record() -> None:
    fixture = Path(__file__).parent / "fixtures" / "dialect_set_pos.mat"
    written = write_mat(adjudicate(fixture.read_text()).canonical)
    again = adjudicate(written)
    assert again.verdict.valid
    assert write_mat(again.canonical) == written
    assert "; Set Pos=" in written
