"""gnubg's ``NN: Illegal play (...)`` cells read as gnubg's own ``import mat`` reads them.

Each record is built here for one case: the edit in either column, field 4 = 0 or 1, the
names field in the header's order or reversed, the edit's roll still playable on the edited
board or not, and the opponent then playing or dancing. Every prefix of the record (cut after
each cell) is imported into gnubg, the test-only peer, and its position compared field by
field with ours after the same cell: each player's checkers (points, bar), the cube, the
score, who is on roll and the dice. gnubg is a dev dependency, so under ``REQUIRE_CORPUS=1``
(CI) its absence fails these tests instead of skipping them.

What gnubg does, as measured here: the board's positive side is the record's first player
(left column) when field 4 is 1 and its second player when it is 0, whichever column the
cell is in; field 12 is the negative side's bar, field 37 the positive side's; the names,
Crawford, score, cube and dice fields are not read (the roll is the cell's ``NN:``). After
the edit gnubg leaves the edit's player on roll with the cell's roll unplayed, and reads the
next cell, the opponent's, as the opponent's turn: a play, or a dance when none is possible.
Our checker passes the turn to the opponent at the edit, which checks the same records.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

from notation.ids import decode_match_id
from notation.positions import PositionData, parse_position
from referee.adjudication import adjudicate
from referee.plays import PlaysService
from tests.positions import bg

Layout = dict[int | str, int]
"""A player's checkers: his own points 1..24 and ``"bar"`` (the rest are off)."""

Cell = tuple[str, str]
"""A cell of a record: the column's side (``w`` left, ``b`` right) and its text."""

OPENING = "31: 8/5 6/5"
"""The left player's first play, before an edit in the right column."""

START: Layout = {24: 2, 13: 5, 8: 3, 6: 5}
ODD: Layout = {24: 2, 13: 5, 8: 2, 6: 5, 5: 1}
CLOSED_SPARE_24: Layout = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 24: 3}
CLOSED_ON_BAR: Layout = {"bar": 1, 1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 2}
ON_BAR: Layout = {"bar": 1, 13: 6, 8: 4, 7: 4}


@dataclass(frozen=True)
class Scenario:
    """The edit's player's board and his opponent's, and the cells after the edit (the
    opponent's first)."""

    edited: Layout
    opponent: Layout
    after: tuple[tuple[str, str], ...]
    """(``edited`` or ``opponent``, text) in the order they are played."""
    roll_playable: bool
    """The edit's own roll (52) has a play on the edited board: dice left to play."""


SCENARIOS = {
    # Both can play: the opponent moves, then the edit's player.
    "both_play": Scenario(
        START,
        ODD,
        (("opponent", "31: 8/5 6/5"), ("edited", "64: 24/18 13/9")),
        roll_playable=True,
    ),
    # The edit leaves its player on the bar against a closed board: its 52 has no play.
    "edited_stuck": Scenario(
        ON_BAR,
        {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3},
        (("opponent", "42: 13/9 13/11"), ("edited", "64:")),
        roll_playable=False,
    ),
    # The reported record: the opponent on the bar against a closed board dances with a
    # doublet, which has 4 dice to play if the edit is read for the wrong side.
    "opponent_dances": Scenario(
        CLOSED_SPARE_24,
        ON_BAR,
        (("opponent", "66:"), ("edited", "43: 24/20 24/21")),
        roll_playable=True,
    ),
    # Both on the bar against closed boards: nobody can play.
    "both_stuck": Scenario(
        CLOSED_ON_BAR,
        CLOSED_ON_BAR,
        (("opponent", "66:"), ("edited", "43:")),
        roll_playable=False,
    ),
}


def snowie(
    white: Layout,
    black: Layout,
    field4: int,
    *,
    names: tuple[str, str] = ("Alice", "Bob"),
    length: int = 3,
    cube: str = "1;0",
    scores: str = "0;0",
    crawford: str = "0",
    dice: str = "5;2",
    unused: str = "0;0;0",
) -> str:
    """A Snowie position of White's (the left player's) and Black's layouts, written from
    the side field 4 names as gnubg reads it (1: White positive, 0: Black positive)."""
    positive, negative = (white, black) if field4 == 1 else (black, white)
    assert not any(positive.get(p) and negative.get(25 - p) for p in range(1, 25))
    points = [positive.get(p, 0) or -negative.get(25 - p, 0) for p in range(1, 25)]
    fields = [str(length), unused, str(field4), *names, crawford, scores, cube]
    fields += [str(negative.get("bar", 0)), *map(str, points), str(positive.get("bar", 0)), dice]
    return ";".join(fields)


def lay_out(cells: Sequence[Cell]) -> list[str]:
    """Numbered rows, a new row for each left cell (or when the right column is taken)."""
    rows: list[list[str]] = []
    for side, text in cells:
        if side == "w" or not rows or rows[-1][1]:
            rows.append(["", ""])
        rows[-1][0 if side == "w" else 1] = text
    return [f"{n:3d}) {left:<27} {right}".rstrip() for n, (left, right) in enumerate(rows, 1)]


def record(cells: Sequence[Cell], length: int = 3, wins: str | None = None) -> str:
    lines = [f" {length} point match", "", " Game 1", f" {'Alice : 0':<31}Bob : 0"]
    lines += lay_out(cells)
    if wins is not None:
        indent = 6 if wins == "w" else 34
        lines.append(" " * indent + "Wins 1 point")
    return "\n".join(lines) + "\n"


def case_cells(column: str, field4: int, names_reversed: bool, scenario: Scenario) -> list[Cell]:
    """The cells of a game whose ``column`` player edits the board with his first 52."""
    other = "b" if column == "w" else "w"
    layouts = {column: scenario.edited, other: scenario.opponent}
    names = ("Bob", "Alice") if names_reversed else ("Alice", "Bob")
    position = snowie(layouts["w"], layouts["b"], field4, names=names)
    cells: list[Cell] = [] if column == "w" else [("w", OPENING)]
    cells.append((column, f"52: Illegal play ({position})"))
    sides = {"edited": column, "opponent": other}
    cells += [(sides[who], text) for who, text in scenario.after]
    return cells


# -- the peer -------------------------------------------------------------------------------


def peer() -> ModuleType:
    """The gnubg module, or a visible skip (a failure under REQUIRE_CORPUS=1: CI has it)."""
    try:
        return importlib.import_module("gnubg")
    except ImportError:
        message = "the gnubg package (dev extra), the peer for Snowie edits, is not installed"
        if os.environ.get("REQUIRE_CORPUS") == "1":
            pytest.fail(message + " (REQUIRE_CORPUS=1)")
        pytest.skip(message)


@dataclass(frozen=True)
class State:
    """A position as both readers can say it: each player's checkers, the cube, the score,
    the player on roll and the dice (``None``: not rolled)."""

    white: Layout
    black: Layout
    cube: tuple[int, str]
    score: tuple[int, int]
    on_roll: str
    dice: tuple[int, int] | None


def gnubg_state(
    gnubg: ModuleType, text: str, path: Path, capfd: pytest.CaptureFixture[str]
) -> State:
    """The position gnubg's ``import mat`` leaves after reading ``text``; it must not warn."""
    path.write_text(text)
    capfd.readouterr()
    gnubg.command(f'import mat "{path}"')
    output = capfd.readouterr()
    said = (output.out + output.err).lower()
    for word in ("warning", "unrecognised", "illegal snowie", "not a valid"):
        assert word not in said, (word, output.out + output.err, text)
    fields = decode_match_id(gnubg.match_id())
    opponent_side, mover_side = gnubg.board()  # gnubg: [opponent, player on roll]
    mover = "w" if fields.dice_owner == 0 else "b"
    layouts = {mover: _layout(mover_side), ("b" if mover == "w" else "w"): _layout(opponent_side)}
    owner = {0: "w", 1: "b", 3: "c"}[fields.cube_owner]
    dice = None if fields.dice == (0, 0) else fields.dice
    return State(layouts["w"], layouts["b"], (fields.cube_value, owner), fields.score, mover, dice)


def _layout(points: Sequence[int]) -> Layout:
    layout: Layout = {point: count for point, count in enumerate(points[:24], 1) if count}
    if points[24]:
        layout["bar"] = points[24]
    return layout


def our_states(text: str) -> Iterator[State]:
    """Our position after each cell of ``text`` (a game that is not over)."""
    adjudication = adjudicate(text, replay=True)
    [game] = adjudication.verdict.games
    assert game.errors == [], game.errors
    for step in adjudication.replays[0]:
        data = parse_position(step.position_after)
        yield _state(data)


def _state(data: PositionData) -> State:
    white: Layout = {p: n for p, n in enumerate(data.cells, 1) if n > 0}
    black: Layout = {25 - p: -n for p, n in enumerate(data.cells, 1) if n < 0}
    for layout, bar in ((white, data.bar[0]), (black, data.bar[1])):
        if bar:
            layout["bar"] = bar
    assert data.cube is not None and data.turn is not None
    cube = (data.cube.value, str(data.cube.owner))
    return State(white, black, cube, data.score, data.turn, data.dice)


def compare_with_gnubg(
    cells: Sequence[Cell], tmp_path: Path, capfd: pytest.CaptureFixture[str], length: int = 3
) -> list[State]:
    """Compare, after each cell, our position with gnubg's import of the record cut there.

    After an edit gnubg keeps the edit's player on roll with the cell's dice unplayed; we
    pass the turn. Everything else is equal, and gnubg must read the next cell as the
    opponent's turn (after it, the edit's player is on roll again with no dice)."""
    gnubg = peer()
    ours = list(our_states(record(cells, length)))
    theirs = []
    for count, (side, text) in enumerate(cells, 1):
        state = gnubg_state(gnubg, record(cells[:count], length), tmp_path / "cut.mat", capfd)
        mine = ours[count - 1]
        assert (state.white, state.black) == (mine.white, mine.black), (count, text)
        if not text.startswith("Doubles"):  # gnubg raises the cube at the take
            assert (state.cube, state.score) == (mine.cube, mine.score), (count, text)
        other = "b" if side == "w" else "w"
        if "Illegal play" in text:
            assert (state.on_roll, state.dice) == (side, (int(text[0]), int(text[1])))
            assert (mine.on_roll, mine.dice) == (other, None)
        elif text[2:3] == ":":  # read as a play or a dance, not a bare roll: the turn passed
            assert (state.on_roll, state.dice) == (other, None), (count, text)
            assert (mine.on_roll, mine.dice) == (other, None), (count, text)
        theirs.append(state)
    return theirs


# -- the cases ------------------------------------------------------------------------------


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
@pytest.mark.parametrize("names_reversed", [False, True], ids=["names_in_order", "names_reversed"])
@pytest.mark.parametrize("field4", [0, 1], ids=["field4_0", "field4_1"])
@pytest.mark.parametrize("column", ["w", "b"], ids=["left", "right"])
def test_every_field_of_the_edit_reads_as_gnubg_reads_it(
    column: str,
    field4: int,
    names_reversed: bool,
    scenario: str,
    tmp_path: Path,
    capfd: pytest.CaptureFixture[str],
) -> None:
    case = SCENARIOS[scenario]
    cells = case_cells(column, field4, names_reversed, case)
    # The game checks through to its end (a resignation), with the edit its only finding.
    verdict = adjudicate(record(cells, wins=column)).verdict
    [game] = verdict.games
    assert verdict.valid and game.errors == []
    assert [w.code for w in game.warnings] == ["position_edit"]
    assert (game.result.winner, game.result.termination) == (column, "resign")
    # gnubg reads every cell as we do, and put the layouts where the record meant them.
    states = compare_with_gnubg(cells, tmp_path, capfd)
    edit = states[0 if column == "w" else 1]
    other = "b" if column == "w" else "w"
    layouts = {column: case.edited, other: case.opponent}
    assert (edit.white, edit.black) == (layouts["w"], layouts["b"])


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_the_edits_own_roll_is_playable_or_not_as_the_scenario_says(scenario: str) -> None:
    # "Dice left to play": could the edit's player still play his 52 on the edited board?
    # gnubg leaves him on roll with it either way, and reads the next cell as the
    # opponent's turn (the comparison above); here the scenarios are checked to cover both.
    case = SCENARIOS[scenario]
    points = {int(p): f"{n}w" for p, n in case.edited.items() if p != "bar"}
    points |= {25 - int(p): f"{n}b" for p, n in case.opponent.items() if p != "bar"}
    bar = f"w{case.edited.get('bar', 0)}b{case.opponent.get('bar', 0)}"
    off = f"w{15 - sum(case.edited.values())}b{15 - sum(case.opponent.values())}"
    position = bg(points, "w", "52", bar=bar, off=off, tail="1c 3:0-0 -")
    playable = any(answer.play for answer in PlaysService(position).legal())
    assert playable is case.roll_playable


def test_the_reported_25_point_export_checks_as_gnubg_reads_it(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    # A 25-point gnubg export: the left player's edit, names field "Bob;Alice" (the
    # opposite of the header) and field 4 = 0, so the points are Bob's (positive); Bob is on
    # the bar against Alice's closed board and his 66 has no play. It was judged "the play
    # uses 0 of the dice but 4 can be played" when the edit was read for the other side.
    case = SCENARIOS["opponent_dances"]
    position = snowie(case.edited, case.opponent, 0, names=("Bob", "Alice"), length=25)
    cells: list[Cell] = [("w", f"52: Illegal play ({position})"), ("b", "66:")]
    cells.append(("w", "43: 24/20 24/21"))
    verdict = adjudicate(record(cells, length=25, wins="w")).verdict
    [game] = verdict.games
    assert verdict.valid and game.errors == []
    assert [w.code for w in game.warnings] == ["position_edit"]
    compare_with_gnubg(cells, tmp_path, capfd, length=25)


@pytest.mark.parametrize("dice", ["6;6", "0;0"], ids=["dice_66", "not_rolled"])
@pytest.mark.parametrize("field4", [0, 1], ids=["field4_0", "field4_1"])
@pytest.mark.parametrize("column", ["w", "b"], ids=["left", "right"])
def test_the_cube_score_crawford_and_dice_fields_are_not_read(
    column: str, field4: int, dice: str, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    # The cube was doubled to 2 and taken before the edit; the edit's fields say a cube of
    # 8 owned by the other side, a 12-3 Crawford score in a 25-point match with Jacoby, and
    # dice 6-6 or none. gnubg keeps the cube, score and roll (52) of the record; so do we.
    case = SCENARIOS["both_play"]
    other = "b" if column == "w" else "w"
    layouts = {column: case.edited, other: case.opponent}
    position = snowie(
        layouts["w"],
        layouts["b"],
        field4,
        length=25,
        unused="1;1;1",
        cube="8;-1",
        scores="12;3",
        crawford="1",
        dice=dice,
    )
    cells: list[Cell] = [("w", OPENING), ("b", "42: 8/4 6/4")]
    if column == "w":
        cells += [("w", "Doubles => 2"), ("b", "Takes")]
    else:
        cells += [("w", "64: 24/18 13/9"), ("b", "Doubles => 2"), ("w", "Takes")]
    cells.append((column, f"52: Illegal play ({position})"))
    cells.append((other, case.after[0][1]))
    *_, last = our_states(record(cells))
    assert (last.cube, last.score) == ((2, other), (0, 0))
    compare_with_gnubg(cells, tmp_path, capfd)
