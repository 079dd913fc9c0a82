"""GNUbg Position ID / Match ID and XGID: every vector of FORMATS.md part 2 §1-§3."""

from __future__ import annotations

import base64
import random
from dataclasses import replace

import pytest

from notation.errors import NotationError
from notation.ids import (
    MatchIdFields,
    decode_match_id,
    decode_position_id,
    encode_match_id,
    encode_position_id,
    from_gnubg_id,
    from_xgid,
    to_gnubg_id,
    to_xgid,
)
from notation.positions import CubeField, PositionData, format_position, parse_position
from vocabulary import CubeOwner, Phase

START_CELLS = "2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w"
START = {6: 5, 8: 3, 13: 5, 24: 2}


def board(points: dict[int, int]) -> tuple[int, ...]:
    """A gnubg board array from {own point (25 = bar): count}."""
    return tuple(points.get(point, 0) for point in range(1, 26))


# FORMATS.md part 2 §1: (Position ID, not on roll, on roll, the Match ID it came with).
POSITION_IDS = [
    ("4HPwATDgc/ABMA", START, START, "MIEFAAAAAAAA"),
    (
        "sGfwGQDg28EBBg",
        {5: 2, 6: 4, 8: 2, 13: 5, 15: 2},
        {6: 5, 7: 2, 8: 3, 13: 3, 21: 2},
        "cAlvATAAIAAA",
    ),
    (
        "0HPhATDg2+ABMA",
        {5: 1, 6: 4, 8: 3, 9: 1, 13: 4, 24: 2},
        {6: 5, 7: 2, 8: 2, 13: 4, 24: 2},
        "MIHlAEAAAAAA",
    ),
    ("ADAAAQAkIAAAAA", {13: 2, 23: 1}, {15: 1, 17: 1, 24: 1}, "cAkAAAAAAAAA"),
    (
        "4OvgATDgc+QBUA",
        {6: 5, 7: 1, 8: 3, 13: 4, 24: 2},
        {6: 5, 8: 3, 11: 1, 13: 4, 24: 1, 25: 1},
        "cInpAAAAAAAA",
    ),
    ("ewMAAD4gAAAAAA", {1: 2, 2: 4, 3: 2}, {1: 5, 8: 1}, "AQGqAAAAAAAE"),
]


@pytest.mark.parametrize(("pid", "not_on_roll", "on_roll", "mid"), POSITION_IDS)
def test_position_ids_decode_and_re_encode(
    pid: str, not_on_roll: dict[int, int], on_roll: dict[int, int], mid: str
) -> None:
    assert decode_position_id(pid) == (board(not_on_roll), board(on_roll))
    position = from_gnubg_id(f"{pid}:{mid}")
    assert encode_position_id(position) == pid
    assert to_gnubg_id(position).split(":")[0] == pid


def match(
    dice_owner: int,
    dice: tuple[int, int],
    length: int = 0,
    score: tuple[int, int] = (0, 0),
    cube: tuple[int, int] = (1, 3),
    crawford: bool = False,
    jacoby: bool = True,
) -> MatchIdFields:
    """Expected fields of a game in play with nothing offered (``jacoby`` = not bit 66)."""
    return MatchIdFields(
        cube[0], cube[1], dice_owner, crawford, 1, dice_owner, False, 0, dice, length, score, jacoby
    )


# FORMATS.md part 2 §2. Bit 66 = 0 (last character A) reads as Jacoby on, as gnubg reads it.
MATCH_IDS = [
    ("QYkqASAAIAAA", match(1, (5, 2), 9, (2, 4), cube=(2, 0))),
    ("QYkqASAAIAAE", match(1, (5, 2), 9, (2, 4), cube=(2, 0), jacoby=False)),
    ("MIEFAAAAAAAA", match(0, (3, 1))),
    ("cAlvATAAIAAA", match(1, (6, 3), 11, (3, 4))),
    ("MIHlAEAAAAAA", match(0, (3, 1), 7, (4, 0))),
    ("cAkAAAAAAAAA", match(1, (0, 0))),
    ("cInpAAAAAAAA", match(1, (3, 2), 7)),
    ("AQGqAAAAAAAE", match(0, (4, 2), 5, cube=(2, 0), jacoby=False)),
    ("8AnqAGAAEAAE", match(1, (4, 2), 7, (6, 2), crawford=True, jacoby=False)),
]


@pytest.mark.parametrize(("mid", "expected"), MATCH_IDS)
def test_match_ids_decode_field_by_field(mid: str, expected: MatchIdFields) -> None:
    assert decode_match_id(mid) == expected


def test_manual_match_id_and_current_gnubg_differ_only_in_bit_66() -> None:
    manual, current = decode_match_id("QYkqASAAIAAA"), decode_match_id("QYkqASAAIAAE")
    assert replace(manual, jacoby=False) == current
    position = from_gnubg_id("4HPwATDgc/ABMA:QYkqASAAIAAA")
    assert decode_match_id(encode_match_id(position)) == current
    assert decode_match_id(encode_match_id(position, jacoby=True)) == manual


def test_gnubg_pairs_read_as_position_strings() -> None:
    # NOTATION.md §1: the manual's M1 on the start board is Black to move 52.
    assert format_position(from_gnubg_id("4HPwATDgc/ABMA:QYkqASAAIAAA")) == (
        f"backgammon {START_CELLS} w0b0 w0b0 b 52 2w 9:2-4 -"
    )
    # P3 + M4: White ("mamabear") on roll with 31; Black's 24, 13, 9, 8, 6, 5 are White's
    # 1, 12, 16, 17, 19, 20.
    assert format_position(from_gnubg_id("0HPhATDg2+ABMA:MIHlAEAAAAAA")) == (
        "backgammon 2b,,,,,5w,2w,2w,,,,4b,4w,,,1b,3b,,4b,1b,,,,2w w0b0 w0b0 w 31 1c 7:4-0 -"
    )
    # P6 + M7: a bear-off with White on roll, checkers off implied.
    assert format_position(from_gnubg_id(" GNUbgID ewMAAD4gAAAAAA:AQGqAAAAAAAE ")) == (
        "backgammon 5w,,,,,,,1w,,,,,,,,,,,,,,2b,4b,2b w0b0 w9b7 w 42 2w 5:0-0 -"
    )


# FORMATS.md part 2 §3: XGID and what gnubg 1.1.0a16 gives for it.
XGIDS = [
    (
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
        "4HPwATDgc/ABMA:cAkAAAAAAAAE",
    ),
    ("XGID=-BDB-------------a------e-:1:-1:-1:42:0:0:0:5:8", "ewMAAD4gAAAAAA:AQGqAAAAAAAE"),
    ("XGID=-aa--CCBCa--ca---a-c-bb-CA:0:0:1:52:0:1:0:5:10", "bE7oCChwtwMAXA:cImqABAAAAAE"),
    ("XGID=-----bFCB---bB---c-ccA-bA-:0:0:-1:00:2:4:0:7:10", "4HeDASLGnYMBAw:MAHgAEAAEAAE"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:42:2:6:1:7:10", "4HPwATDgc/ABMA:8AnqAGAAEAAE"),
]


@pytest.mark.parametrize(("xgid", "gnubg_id"), XGIDS)
def test_xgids_convert_as_gnubg_does(xgid: str, gnubg_id: str) -> None:
    position = from_xgid(xgid)
    assert position == from_gnubg_id(gnubg_id)
    pid, mid = to_gnubg_id(position).split(":")
    assert pid == gnubg_id.split(":")[0]
    assert decode_match_id(mid) == decode_match_id(gnubg_id.split(":")[1])


def test_xgid_orientation() -> None:
    start = from_xgid(XGIDS[0][0])
    assert start == parse_position(f"backgammon {START_CELLS} w0b0 w0b0 b - 1c 0:0-0 -")
    # X3: the bottom player (Black) is on the bar with 52; "Bar/20 8/6" in Black's numbering
    # enters on White's 5 (open) and plays from White's 17 to White's 19.
    x3 = from_xgid(XGIDS[2][0])
    assert x3.turn == "b" and x3.dice == (5, 2) and x3.bar == (0, 1)
    assert x3.cells[4] == 0 and x3.cells[16] == -3 and x3.cells[18] == -3
    assert x3.score == (1, 0) and x3.match_length == 5
    # X4: top (White) to roll, bottom 2 and top 4: White 4, Black 2.
    x4 = from_xgid(XGIDS[3][0])
    assert x4.turn == "w" and x4.phase is Phase.ROLL and x4.score == (4, 2)


def test_xgid_double_offered() -> None:
    xgid = "XGID=-b----E-C---eE---c-e----B-:1:1:1:D:0:0:0:0:10"
    position = from_xgid(xgid)
    assert position.phase is Phase.DOUBLED and position.turn == "w" and position.dice is None
    # XG stores the cube before the double (2, Black's); the position string holds the value
    # offered while a double is pending (NOTATION.md §1): Black redoubles to 4.
    assert position.cube == CubeField(4, CubeOwner.BLACK)
    assert to_xgid(position) == xgid
    # gnubg refuses this one; our Match ID says Black (on roll) doubled and White answers.
    fields = decode_match_id(to_gnubg_id(position).split(":")[1])
    assert (fields.dice_owner, fields.turn, fields.doubled) == (1, 0, True)


@pytest.mark.parametrize(("xgid", "gnubg_id"), XGIDS)
def test_xgids_are_rewritten_as_read(xgid: str, gnubg_id: str) -> None:
    # Only the max cube changes: XGIDs are written with XG's default 10.
    assert to_xgid(from_xgid(xgid)) == xgid.rsplit(":", 1)[0] + ":10"


BOTH = [
    f"backgammon {START_CELLS} w0b0 w0b0 w 31 1c 0:0-0 -",
    f"backgammon {START_CELLS} w0b0 w0b0 b - 1c 0:0-0 -",
    f"backgammon {START_CELLS} w0b0 w0b0 b 52 2w 9:2-4 -",
    f"backgammon {START_CELLS} w0b0 w0b0 b d 4w 9:2-4 -",
    f"backgammon {START_CELLS} w0b0 w0b0 w 64 1c 7:6-2 c",
    f"backgammon {START_CELLS} w0b0 w0b0 b - 2b 7:6-3 p",
    f"backgammon {START_CELLS} w0b0 w0b0 w 66 1c 1:0-0 -",
    "backgammon 1b,,,,,5w,1w,3w,,,,4b,4w,1b,,,3b,,5b,,,,,2w w0b1 w0b0 b 32 4b 0:0-0 -",
    "backgammon 5w,,,,,,,1w,,,,,,,,,,,,,,2b,4b,2b w1b0 w8b7 w 42 8w 5:0-0 -",
]
GNUBG_ONLY = [
    f"backgammon {START_CELLS} w0b0 w0b0 - - 1c 0:0-0 -",
    f"backgammon {START_CELLS} w0b0 w0b0 w r2 1c 0:0-0 -",
    "backgammon ,,,,,,,,,,,,,,,,,,,,,,,3b w0b0 w15b12 - end 2w 5:1-2 -",
]


@pytest.mark.parametrize("text", BOTH + GNUBG_ONLY)
def test_position_strings_round_trip_through_gnubg_ids(text: str) -> None:
    assert format_position(from_gnubg_id(to_gnubg_id(parse_position(text)))) == text


@pytest.mark.parametrize("text", [*BOTH, f"backgammon {START_CELLS} w0b0 w0b0 w 21 - 0:0-0 -"])
def test_position_strings_round_trip_through_xgids(text: str) -> None:
    assert format_position(from_xgid(to_xgid(parse_position(text)))) == text


def test_doubled_and_resigned_positions_put_the_offering_side_on_roll() -> None:
    # White, owning a 2-cube, offers 4 (the position string's value while a double is
    # pending); the Match ID keeps the cube as it is until the answer: 2.
    fields = decode_match_id(encode_match_id(parse_position(BOTH[3])))
    assert (fields.dice_owner, fields.turn, fields.doubled, fields.cube_value) == (0, 1, True, 2)
    fields = decode_match_id(encode_match_id(parse_position(GNUBG_ONLY[1])))
    assert (fields.dice_owner, fields.turn, fields.resign) == (1, 0, 2)


def test_what_the_ids_cannot_carry() -> None:
    cubeless = parse_position(f"backgammon {START_CELLS} w0b0 w0b0 w 21 - 0:0-0 -")
    assert from_gnubg_id(to_gnubg_id(cubeless)).cube == CubeField(1, CubeOwner.CENTRE)
    assert to_xgid(cubeless).endswith(":0:0:0:0:0")
    for text in GNUBG_ONLY:
        with pytest.raises(NotationError) as error:
            to_xgid(parse_position(text))
        assert error.value.code == "unsupported_position"
    money = parse_position(BOTH[0])
    assert to_xgid(money, jacoby=True, beavers=True).split(":")[7] == "3"
    assert decode_match_id(encode_match_id(money, jacoby=True)).jacoby


def test_other_variants_are_refused() -> None:
    nardy = parse_position("ln ,,,,,,,,,,,15b,,,,,,,,,,,,15w w0b0 w0b0 w 65 - 0:0-0 -")
    for write in (encode_position_id, encode_match_id, to_gnubg_id, to_xgid):
        with pytest.raises(NotationError) as error:
            write(nardy)
        assert error.value.code == "unsupported_variant"


def bits(key: int, length: int) -> str:
    """An id from a little-endian bit string, for malformed vectors."""
    return base64.b64encode(key.to_bytes(length, "little")).decode().rstrip("=")


@pytest.mark.parametrize(
    "text",
    [
        "4HPwATDgc/ABM",  # 13 characters
        "4HPwATDgc/ABMAA",  # 15
        "4HPwATDgc/AB!A",  # not Base64
        "4HPwATDgc/ABMB",  # bits after the 80th
        bits((1 << 16) - 1, 10),  # 16 checkers on one point
        bits((1 << 80) - 1, 10),  # no point separators at all
        bits(1 << 50, 10),  # a checker after the 50th separator
    ],
)
def test_malformed_position_ids(text: str) -> None:
    with pytest.raises(NotationError) as error:
        decode_position_id(text)
    assert error.value.code == "invalid_position_id"


@pytest.mark.parametrize(
    "text",
    [
        "cAkAAAAAAAA",  # 11 characters
        "cAkAAAAAAA=A",
        bits(2 << 4, 9),  # cube owner 2
        bits(5 << 8, 9),  # game state 5
        bits(1 << 8 | 7 << 15 | 1 << 18, 9),  # die 7
        bits(1 << 8 | 3 << 15, 9),  # one die
    ],
)
def test_malformed_match_ids(text: str) -> None:
    with pytest.raises(NotationError) as error:
        decode_match_id(text)
    assert error.value.code == "invalid_match_id"


@pytest.mark.parametrize(
    "text",
    [
        "4HPwATDgc/ABMA",  # no Match ID
        "4HPwATDgc/ABMA cAkAAAAAAAAA",
        "4HPwATDgc/ABMA:" + bits(1 << 8 | 1 << 12 | 3 << 15 | 1 << 18, 9),  # doubled after rolling
        "4HPwATDgc/ABMA:" + bits(1 << 8 | 1 << 11, 9),  # turn != player on roll, nothing offered
        bits(1 | 1 << 49, 10) + ":cAkAAAAAAAAA",  # both sides on White's 1
    ],
)
def test_malformed_gnubg_ids(text: str) -> None:
    with pytest.raises(NotationError):
        from_gnubg_id(text)


@pytest.mark.parametrize(
    "text",
    [
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0",  # 9 fields
        "XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10",  # 25 squares
        "XGID=Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",  # bottom checker on top's bar
        "XGID=-b----E-C---eE---c-e----Bx:0:0:1:00:0:0:0:0:10",  # x
        "XGID=-b----P-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",  # 16 + 10 bottom checkers
        "XGID=-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:0:10",  # turn 0
        "XGID=-b----E-C---eE---c-e----B-:0:2:1:00:0:0:0:0:10",  # cube position 2
        "XGID=-b----E-C---eE---c-e----B-:16:0:1:00:0:0:0:0:10",  # cube 2^16
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:71:0:0:0:0:10",  # die 7
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:0:0:0:0:0:10",  # one digit
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:2:7:10",  # rules 2 in a match
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:4:0:10",  # rules 4 for money
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:x:0:0:0:10",  # not a number
        "",
    ],
)
def test_malformed_xgids(text: str) -> None:
    with pytest.raises(NotationError) as error:
        from_xgid(text)
    assert error.value.code == "invalid_xgid"


def random_position(rng: random.Random) -> tuple[PositionData, tuple[list[int], list[int]]]:
    """A legal-looking board and, built separately, its two gnubg arrays (White, Black)."""
    own: tuple[list[int], list[int]] = ([0] * 25, [0] * 25)
    for side in (0, 1):
        for _ in range(rng.randint(0, 15)):
            index = rng.randrange(25)
            if index == 24 or not own[1 - side][23 - index]:
                own[side][index] += 1
    white, black = own
    position = PositionData(
        variant="backgammon",
        cells=tuple(white[i] - black[23 - i] for i in range(24)),
        bar=(white[24], black[24]),
        off=(15 - sum(white), 15 - sum(black)),
        turn=rng.choice("wb"),
        phase=Phase.ROLL,
        cube=CubeField(1, CubeOwner.CENTRE),
    )
    return position, own


def test_position_ids_agree_with_gnubg() -> None:
    gnubg = pytest.importorskip("gnubg", reason="the gnubg package (a dev dependency) is absent")
    rng = random.Random(20240611)
    for _ in range(400):
        position, (white, black) = random_position(rng)
        arrays = (black, white) if position.turn == "w" else (white, black)
        pid = encode_position_id(position)
        assert pid == gnubg.position_id((tuple(arrays[0]), tuple(arrays[1])))
        assert decode_position_id(pid) == gnubg.position_from_id(pid)
        assert from_gnubg_id(to_gnubg_id(position)) == position
