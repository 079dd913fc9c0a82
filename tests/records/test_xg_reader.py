"""eXtreme Gammon's binary ``.xg`` read into the record model: files built from the
published layout (tests/records/xg_bytes.py) holding every record type (a double taken,
one dropped, a beaver and a raccoon, a resignation, a dance, the bar, bearing off, a money
game), checked against what the files say (points, winners, cube, moves); two records of
a real XG file (xgdatatools' fixtures) confirm the move encoding; the public example.xg's
container; and cut, corrupt and inflating files refused with where reading stopped."""

from __future__ import annotations

import re
import zlib
from functools import cache
from pathlib import Path

import pytest

from notation.errors import NotationError
from notation.records.formats import XG, detect, find_format
from notation.records.mat_reader import ReadLimits
from notation.records.mat_writer import write_mat
from notation.records.model import MatchText
from notation.records.xg_container import HEADER_BYTES, MAX_GAME_DATA, game_data
from notation.records.xg_reader import read_xg
from referee.adjudication import check_record
from tests.records.xg_bytes import (
    P1,
    P2,
    cube,
    game_footer,
    game_header,
    match_footer,
    match_header,
    move,
    xg_file,
)

FIXTURES = Path(__file__).parent / "fixtures" / "xg"
DROP, SINGLE, GAMMON, RESIGNED = 0, 1, 2, 101

MATCH = [
    match_header(("Alice", "Bob"), length=5),
    game_header((0, 0), 1),
    cube(P1, -2, -1),  # XG's cube record of a roll without a double: no action
    move(P1, (3, 1), [(7, 4), (5, 4)]),  # 31: 8/5 6/5
    move(P2, (6, 4), [(23, 17), (12, 8)]),  # 64: 24/18 13/9
    move(P1, (6, 2), [(12, 6), (12, 10)]),  # 62: 13/7* 13/11 (the hit on Bob's 18)
    move(P2, (6, 5), []),  # Bob dances on the bar
    cube(P1, 1, 0),  # Alice doubles, Bob drops
    game_footer((1, 0), P1, 1, DROP),
    game_header((1, 0), 2),
    move(P2, (5, 2), [(12, 7), (12, 10)]),  # 52: 13/8 13/11
    cube(P1, 1, 1),  # Alice doubles, Bob takes: cube 2 on Bob's side
    move(P1, (4, 1), [(23, 19), (23, 22)]),  # 41: 24/20 24/23
    game_footer((1, 4), P2, 4, RESIGNED),  # Alice resigns a gammon on Bob's 2-cube
    match_footer((1, 4), P2),
]


def read(records: list[bytes], limits: ReadLimits | None = None) -> MatchText:
    return read_xg(xg_file(records), limits)


def test_every_record_type_of_a_match() -> None:
    record = read(MATCH)
    assert record.match_length == 5 and record.tags["Crawford"] == "On"
    assert record.tags["Event"] == "Test event"
    first, second = record.games
    assert first.players == ("Alice", "Bob") and (first.score, second.score) == ((0, 0), (1, 0))
    assert [(str(a.kind), a.side, a.text, a.value) for a in first.actions] == [
        ("roll", "w", "31: 8/5 6/5", None),
        ("roll", "b", "64: 24/18 13/9", None),
        ("roll", "w", "62: 13/7 13/11", None),
        ("roll", "b", "65:", None),
        ("double", "w", "Doubles => 2", 2),
        ("drop", "b", "Drops", None),
        ("win", "w", "Wins 1 point", 1),
    ]
    assert [(str(a.kind), a.side, a.value) for a in second.actions][1:3] == [
        ("double", "w", 2),
        ("take", "b", None),
    ]


def test_the_match_is_checked_to_what_its_footers_say() -> None:
    verdict = check_record(write_mat(read(MATCH))).to_json()
    assert verdict["valid"], verdict
    games = [(g["winner"], g["termination"], g["cube"], g["points"]) for g in verdict["games"]]
    # game 1: the drop of a 2-cube is 1 point; game 2: a gammon resigned on a 2-cube is 4
    assert games == [("w", "drop", 1, 1), ("b", "resign", 2, 4)]
    assert verdict["match"]["players"] == ["Alice", "Bob"]


def test_the_bar_and_bearing_off_are_read_in_the_movers_numbering() -> None:
    record = read(
        [
            match_header(length=1),
            game_header((0, 0), 1),
            move(P1, (6, 5), [(24, 19), (19, 13)]),  # 65: bar/20 20/14
            move(P2, (2, 1), [(1, -1), (0, -1)]),  # 21: 2/off 1/off
        ]
    )
    enter, bear_off = record.games[0].actions
    assert enter.text == "65: bar/20 20/14" and bear_off.text == "21: 2/off 1/off"


def test_a_money_game_with_a_beaver_and_a_raccoon() -> None:
    record = read(
        [
            match_header(("Carol", "Dave"), length=99999, jacoby=True, beavers=True),
            game_header((0, 0), 1),
            move(P2, (4, 2), [(7, 3), (5, 3)]),  # 42: 8/4 6/4
            cube(P1, 1, 2, raccoon=2),  # Carol doubles, Dave beavers, Carol raccoons
            move(P1, (3, 1), [(7, 4), (5, 4)]),  # her roll: the raccoon stands (taken)
            game_footer((0, 0), P2, 8, SINGLE + 100),  # Carol resigns a single: 8 points
        ]
    )
    assert record.match_length == 0
    assert record.tags["Jacoby"] == "On" and record.tags["Beaver"] == "On"
    [game] = record.games
    assert game.score is None
    cube_actions = [(str(a.kind), a.side, a.value) for a in game.actions[1:4]]
    assert cube_actions == [("double", "w", 2), ("beaver", "b", 4), ("raccoon", "w", 8)]
    verdict = check_record(write_mat(record), options={"beavers": True}).to_json()
    [checked] = verdict["games"]
    assert (checked["winner"], checked["cube"], checked["kind"]) == ("b", 8, "single")
    assert checked["points"] == checked["recorded_points"] == 8


def test_two_records_of_a_real_xg_file_confirm_the_move_encoding() -> None:
    """xgdatatools' test/fixtures/3_Move.bin is a 63 of player 2 stored as the pairs 23-17
    and 12-9 (from the standard start): 24/18 13/10, so points count from 0 in the
    mover's numbering; 2_Cube.bin is a cube record without a double (double -2)."""
    real_move = (FIXTURES / "3_Move.bin").read_bytes()
    real_cube = (FIXTURES / "2_Cube.bin").read_bytes()
    record = read([match_header(), game_header((0, 0), 1), real_cube, real_move])
    [roll] = record.games[0].actions
    assert (roll.side, roll.dice, roll.text) == ("b", (6, 3), "63: 24/18 13/10")


def test_the_public_example_is_detected_and_its_container_read() -> None:
    """example.xg (xgdatatools) is a generated file: a valid container whose temp.xg is 578
    bytes of filler, no whole record; its CRCs and index are read, and it is refused at
    record 1."""
    data = (FIXTURES / "example.xg").read_bytes()
    assert detect(data[:4096]) is XG and find_format("XG") is XG
    assert sum(len(piece) for piece in game_data(data)) == 578
    with pytest.raises(NotationError, match=r"record 1 \(byte 0 of temp.xg\): cut after 578"):
        read_xg(data)


def _corrupt_stream() -> bytes:
    stream = bytearray(zlib.compress(b"".join(MATCH)))
    stream[len(stream) // 2] ^= 0xFF
    return xg_file(MATCH, stream=bytes(stream))


@cache
def _zeros() -> bytes:
    """256 MiB of zeros compressed (about 250 KB)."""
    compressor = zlib.compressobj(1)
    block = bytes(1 << 20)
    return b"".join(compressor.compress(block) for _ in range(256)) + compressor.flush()


def _bomb(declared: int) -> bytes:
    """temp.xg as ``_zeros``, its index declaring ``declared`` bytes."""
    return xg_file(MATCH, stream=_zeros(), declared=declared)


WHOLE = len(b"".join(MATCH))
BAD_FILES = {
    "short": (lambda: b"RGMH" + bytes(100), "its header alone 8,232"),
    "magic": (lambda: b"XXXX" + bytes(9000), "not b'RGMH'"),
    "cut end": (lambda: xg_file(MATCH)[:-10], "does not fit the file"),
    "cut": (lambda: xg_file(MATCH)[: HEADER_BYTES + 100], "does not fit the file|CRC-32"),
    "archive crc": (
        lambda: xg_file(MATCH).replace(b"XG Game", b"XG Gamf"),
        r"archive \(bytes 8,232 to [\d,]+\) fails its CRC-32",
    ),
    "stream": (_corrupt_stream, "stream is corrupt near byte|CRC-32 other than"),
    "cut stream": (
        lambda: xg_file(MATCH, stream=zlib.compress(b"".join(MATCH))[:-30]),
        "stream is cut at byte",
    ),
    "cut record": (
        lambda: xg_file([*MATCH[:3], bytes(100)]),
        r"record 4 \(byte 7,680 of temp.xg\): cut after 100",
    ),
    "order": (
        lambda: xg_file([MATCH[1], *MATCH]),
        r"record 1 \(byte 0 of temp.xg\): a header game record before the match header",
    ),
    "two headers": (lambda: xg_file([MATCH[0], MATCH[0]]), "record 2 .*a second match header"),
    "dice": (
        lambda: xg_file([*MATCH[:3], move(P1, (7, 1), [])]),
        "record 4 .*the dice 7 and 1 are no roll",
    ),
    "point": (lambda: xg_file([*MATCH[:3], move(P1, (3, 1), [(30, 2)])]), "a move from 30"),
    "player": (lambda: xg_file([*MATCH[:2], cube(5, 1, 1)]), "player 5 is neither"),
    "points": (lambda: xg_file([*MATCH[:2], game_footer((0, 0), P1, -3, 1)]), "won for -3"),
    "zip bomb": (lambda: _bomb(WHOLE), "inflates past the 38,400 bytes its index declares"),
    "declared bomb": (lambda: _bomb(MAX_GAME_DATA + 1), f"at most {MAX_GAME_DATA:,} are read"),
    # inflated as it is read: the zeros' second record stops it, 2 records of 104,858 in
    "bomb read in steps": (lambda: _bomb(MAX_GAME_DATA), "record 2 .*a second match header"),
}


@pytest.mark.parametrize("case", BAD_FILES)
def test_cut_corrupt_and_inflating_files_stop_where_reading_stopped(case: str) -> None:
    build, where = BAD_FILES[case]
    with pytest.raises(NotationError) as raised:
        read_xg(build())
    assert raised.value.code == "invalid_xg"
    assert re.search(where, raised.value.message), raised.value.message


def test_no_game_is_not_a_record_and_limits_stop_reading() -> None:
    with pytest.raises(NotationError, match="holds no game"):
        read([match_header(), match_footer((0, 0), 0)])
    with pytest.raises(NotationError, match="more than 1 games"):
        read(MATCH, ReadLimits(games=1))
    with pytest.raises(NotationError, match="more than 3 actions_per_game"):
        read(MATCH, ReadLimits(actions_per_game=3))


def test_a_long_run_of_empty_records_stops_at_the_reading_limits() -> None:
    """20,000 cube records without a double (51 MB inflated, its index honest) in one game:
    records count as work, two an action, so actions_per_game=2,000 stops it at record
    4,019 (2 headers, then 2 x 2,000 + 16 records), not at the stream's end."""
    empty = cube(P1, -2, -1)
    compressor = zlib.compressobj(1)
    stream = compressor.compress(b"".join(MATCH[:2]))
    stream += b"".join(compressor.compress(empty * 1000) for _ in range(20)) + compressor.flush()
    data = xg_file([*MATCH[:2], empty * 20_000], stream=stream)
    with pytest.raises(NotationError, match="record 4019: more than 2 records an action") as raised:
        read_xg(data, ReadLimits(actions_per_game=2000))
    assert raised.value.code == "too_many_actions_per_game"
    with pytest.raises(NotationError, match=r"record 37: .* limit of 10 actions") as raised:
        read_xg(data, ReadLimits(actions=10))
    assert raised.value.code == "too_many_actions"
