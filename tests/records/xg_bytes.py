"""eXtreme Gammon ``.xg`` files built from the published layout (XGFile_format.txt of
github.com/Insti/xgdatatools, a transcription of extremegammon.com/xgformat.aspx): each
record written field by field at the offsets the layout's alignment rules give, the
container (RichGameHeader, ZLibArchive with its index and CRCs) around them. Test data
for the reader, and ``xg_of`` writes any backgammon ``.mat`` as an ``.xg``."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable, Sequence

from notation.records.mat_reader import read_mat
from notation.records.model import ActionKind, ActionText, GameText
from referee.adjudication import check_and_write

RECORD = 2560
START = [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0]
P1, P2 = 1, -1


def _record(kind: int) -> bytearray:
    record = bytearray(RECORD)
    record[8] = kind
    return record


def _ints(record: bytearray, at: int, *values: int) -> bytearray:
    struct.pack_into(f"<{len(values)}i", record, at, *values)
    return record


def match_header(
    players: tuple[str, str] = ("Alice", "Bob"),
    length: int = 5,
    crawford: bool = True,
    jacoby: bool = False,
    beavers: bool = False,
    version: int = 30,
    variation: int = 0,
) -> bytes:
    """tsHeaderMatch: ANSI names at 9 and 50, the length at 92, the rule flags at 100,
    the file version at 552, UTF-16 Event at 622 and the names at 880 and 1138."""
    record = _record(0)
    for at, name in zip((9, 50), players, strict=True):
        ansi = name.encode("cp1252")[:40]
        record[at] = len(ansi)
        record[at + 1 : at + 1 + len(ansi)] = ansi
    _ints(record, 92, length, variation)
    record[100:104] = bytes([crawford, jacoby, beavers, 0])
    _ints(record, 552, version, 0x494C4D44)
    for at, text in ((622, "Test event"), (880, players[0]), (1138, players[1])):
        wide = text.encode("utf-16-le")[:256]
        record[at : at + len(wide)] = wide
    return bytes(record)


def game_header(score: tuple[int, int], number: int, board: Sequence[int] = START) -> bytes:
    """tsHeaderGame: the scores at 12 and 16, PosInit at 21, the game number at 48."""
    record = _ints(_record(1), 12, *score)
    struct.pack_into("<26b", record, 21, *board)
    return bytes(_ints(record, 48, number))


def cube(player: int, double: int, take: int, cube_log: int = 0, raccoon: int = 0) -> bytes:
    """tsCube: who acts at 12, double 16, take 20 (2 beaver), BeaverR 24, RaccoonR 28,
    CubeB 32 (the cube before the double as a power of 2, signed by its owner)."""
    record = _ints(_record(2), 12, player, double, take, raccoon, 0, cube_log)
    struct.pack_into("<26b", record, 36, *START)
    return bytes(record)


def move(player: int, dice: tuple[int, int], steps: Iterable[tuple[int, int]]) -> bytes:
    """tsMove: ActifP at 64, eight ints of from-to pairs at 68 (points from 0 in the
    mover's numbering, 24 the bar, -1 off; -1 ends the list), the dice at 100."""
    pairs = [value for step in steps for value in step]
    pairs += [-1] * (8 - len(pairs))
    record = _ints(_record(3), 64, player, *pairs, *dice)
    struct.pack_into("<26b", record, 9, *START)
    return bytes(record)


def game_footer(after: tuple[int, int], winner: int, points: int, termination: int) -> bytes:
    """tsFooterGame: the scores after at 12 and 16, the winner at 24, points 28, how 32."""
    return bytes(_ints(_ints(_record(4), 12, *after), 24, winner, points, termination))


def match_footer(score: tuple[int, int], winner: int) -> bytes:
    return bytes(_ints(_record(5), 12, *score, winner))


def archive_entry(name: str, size: int, stored: int, start: int, crc: int, packed: bool) -> bytes:
    """A ZLibArchive index entry: name and path as 256-byte short strings, then the sizes,
    the start, the CRC-32, a byte 0 when compressed, the level."""
    entry = bytearray(532)
    entry[0] = len(name)
    entry[1 : 1 + len(name)] = name.encode()
    struct.pack_into("<iiiIBB", entry, 512, size, stored, start, crc, 0 if packed else 1, 9)
    return bytes(entry)


def xg_file(
    records: Iterable[bytes],
    compress: bool = True,
    stream: bytes | None = None,
    declared: int | None = None,
) -> bytes:
    """The ``.xg`` file of ``records`` (``stream``, if given, stored as temp.xg's
    compressed bytes in their place; the index declaring ``declared`` bytes, if given,
    else the records' size)."""
    game = b"".join(records)
    info = b"XG Game Header\n"
    packed = stream if stream is not None else zlib.compress(game) if compress else game
    data = info + packed
    index = archive_entry("temp.xgi", len(info), len(info), 0, zlib.crc32(info), False)
    size = len(game) if declared is None else declared
    index += archive_entry("temp.xg", size, len(packed), len(info), zlib.crc32(game), compress)
    index = zlib.compress(index)
    crc = zlib.crc32(data + index)
    archive = struct.pack("<Iiiiii12x", crc, 2, 1, len(index), len(data), 1)
    header = bytearray(8232)
    header[0:4] = b"RGMH"
    struct.pack_into("<IIqI", header, 4, 1, 8232, 0, 0)
    return bytes(header) + data + index + archive


def _steps(action: ActionText) -> list[tuple[int, int]]:
    assert action.play is not None
    return [
        (24 if step.from_point == 25 else step.from_point - 1, step.to_point - 1)
        for step in action.play.moves
    ]


def _game_records(game: GameText) -> list[bytes]:
    records = [game_header(game.score or (0, 0), game.number)]
    player = {"w": P1, "b": P2}
    cube_log, actions = 0, list(game.actions)
    for index, action in enumerate(actions):
        kind, later = action.kind, actions[index + 1 : index + 3]
        if kind is ActionKind.ROLL:
            # XG writes a cube record without a double before a roll (as 2_Cube.bin is)
            records.append(cube(player[action.side], -2, -1, cube_log))
            records.append(move(player[action.side], action.dice or (0, 0), _steps(action)))
        elif kind is ActionKind.DOUBLE:
            answer = later[0].kind if later else None
            take = {ActionKind.TAKE: 1, ActionKind.DROP: 0, ActionKind.BEAVER: 2}.get(answer, -1)
            raccoon = 2 if len(later) > 1 and later[1].kind is ActionKind.RACCOON else 0
            records.append(cube(player[action.side], 1, take, cube_log, raccoon))
            cube_log += 1 + (take == 2) + (raccoon == 2)
        elif kind is ActionKind.WIN:
            records.append(game_footer((0, 0), player[action.side], action.value or 0, 1))
    return records


def xg_of(mat: str) -> bytes:
    """The ``.xg`` of a backgammon ``.mat`` record (its canonical form: one step per die)."""
    record = read_mat(check_and_write(mat).canonical)
    names = record.games[0].players if record.games else ("Player 1", "Player 2")
    crawford = record.tags.get("Crawford", "On") != "Off"
    records = [match_header(names, record.match_length or 99999, crawford, jacoby=False)]
    for game in record.games:
        records += _game_records(game)
    records.append(match_footer((0, 0), 0))
    return xg_file(records)
