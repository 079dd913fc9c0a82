"""eXtreme Gammon's binary ``.xg`` read into the record model, from the layout XG's authors
published (extremegammon.com/xgformat.aspx; nothing of another reader is copied).

``temp.xg`` (``xg_container``) is a run of 2,560-byte records, each a type byte at offset 8
and that type's fields, little-endian, each on its natural boundary: a match header
(players, length, rules), then per game a game header (the scores), cube records (a
double, its answer: take, drop, beaver, raccoon), move records (the player, the dice, up
to four from-to pairs in the mover's numbering from 0, 24 the bar, below 0 off) and a game
footer (winner, points, how it ended); a match footer last. Player 1 is the left (first)
player of the record, as XG's own ``.mat`` export writes him. A record the layout does not
allow stops reading with a NotationError naming the record and its byte in ``temp.xg``.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Final

from notation.errors import NotationError
from notation.plays import PlayText, format_play
from notation.records.formats import XG_MAGIC
from notation.records.mat_reader import ReadLimits
from notation.records.model import ActionKind, ActionText, GameText, MatchText
from notation.records.tally import Tally
from notation.records.xg_container import game_data
from vocabulary import BAR, OFF, Move

RECORD_BYTES: Final = 2560
SNIFF: Final = XG_MAGIC
"""What an ``.xg`` file starts with."""
UNLIMITED: Final = 99999
"""XG's match length of a money session."""
MAX_POINTS: Final = 10**9 - 1
"""The most points a game footer may say (a ``.mat`` result holds nine digits)."""
RECORDS_PER_ACTION: Final = 2
RECORDS_SLACK: Final = 16
"""Records beyond two an action a game or a file may hold (headers, footers)."""
UNICODE_VERSION: Final = 24
"""From this file version on the names are UTF-16 fields (before, 40-byte ANSI strings)."""
START: Final = (0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0)
"""The standard start as XG's PositionEngine (0 and 25 the bars, 1-24 the points)."""
_VARIATIONS: Final = {1: "Nackgammon", 2: "HyperGammon", 3: "Longgammon"}
_SIDES: Final = {1: "w", -1: "b"}
_MATCH = struct.Struct("<i i 4?")
"""At 92: match length, variation, Crawford, Jacoby, beavers, automatic doubles."""
_GAME = struct.Struct("<ii?26bxi")
"""At 12: the scores, the Crawford game, the start position, the game number."""
_CUBE = struct.Struct("<6i")
"""At 12: who acts, double, take (2 a beaver), raccoon, raccoon's answer, the cube (log 2)."""
_MOVE = struct.Struct("<i8i2i")
"""At 64: who moves, four from-to pairs (-1 ends them), the dice."""
_FOOTER = struct.Struct("<ii?3xiii")
"""At 12: the scores after, Crawford, winner, points won, termination."""


class Entry(IntEnum):
    """A record's type (its byte at offset 8)."""

    HEADER_MATCH = 0
    HEADER_GAME = 1
    CUBE = 2
    MOVE = 3
    FOOTER_GAME = 4
    FOOTER_MATCH = 5
    MISSING = 6


@dataclass(frozen=True, slots=True)
class Place:
    """A record's number (from 1) and its first byte in ``temp.xg``."""

    number: int

    @property
    def offset(self) -> int:
        return (self.number - 1) * RECORD_BYTES

    def error(self, message: str) -> NotationError:
        where = f"record {self.number} (byte {self.offset:,} of temp.xg)"
        return NotationError("invalid_xg", f"{where}: {message}")


def records(data: bytes) -> Iterator[tuple[Place, bytes]]:
    """The records of ``temp.xg``, numbered; a last record cut short is an error."""
    pending, number = b"", 0
    for piece in game_data(data):
        pending += piece
        whole = len(pending) - len(pending) % RECORD_BYTES
        for at in range(0, whole, RECORD_BYTES):
            number += 1
            yield Place(number), pending[at : at + RECORD_BYTES]
        pending = pending[whole:]
    if pending:
        raise Place(number + 1).error(f"cut after {len(pending):,} of its {RECORD_BYTES} bytes")


@dataclass
class _Game:
    number: int
    line: int
    score: tuple[int, int] | None
    actions: list[ActionText] = field(default_factory=list)
    records: int = 0


class _Reader:
    def __init__(self, limits: ReadLimits) -> None:
        self.tally = Tally(limits)
        self.players = ("Player 1", "Player 2")
        self.length: int | None = None
        self.tags: dict[str, str] = {"Site": "eXtreme Gammon"}
        self.games: list[_Game] = []
        self.ended = False
        self.readers = {
            Entry.HEADER_MATCH: self.match,
            Entry.HEADER_GAME: self.game,
            Entry.CUBE: self.cube,
            Entry.FOOTER_GAME: self.footer,
        }
        self.most_in_game = _most_records(limits.actions_per_game)
        self.most_in_file = _most_records(limits.actions)
        self.plays: dict[tuple[int, ...], tuple[str, PlayText]] = {}
        """The plays read so far by their dice and pairs: a play is read once."""

    def read(self, place: Place, record: bytes) -> None:
        self.count(place)
        kind = record[8]
        if kind == Entry.MOVE and self.games and not self.ended:
            self.move(place, record)  # most records: the checks below hold for them
            return
        if kind > Entry.MISSING:
            raise place.error(f"type {kind} is no record type of the layout")
        entry = Entry(kind)
        what = entry.name.lower().replace("_", " ")
        if self.length is None and entry is not Entry.HEADER_MATCH:
            raise place.error(f"a {what} record before the match header")
        if self.ended and entry is not Entry.MISSING:
            raise place.error(f"a {what} record after the match footer")
        if entry in (Entry.CUBE, Entry.MOVE, Entry.FOOTER_GAME) and not self.games:
            raise place.error(f"a {what} record before any game header")
        reading = self.readers.get(entry)
        if reading is not None:
            reading(place, record)
        elif entry is Entry.FOOTER_MATCH:
            self.ended = True

    def count(self, place: Place) -> None:
        """Records count as work: XG writes about two a roll (a cube record, the move), so a
        game or a file of more than ``RECORDS_PER_ACTION`` times the actions its limits
        allow (a stream of empty cube records, say) stops at that limit."""
        if self.games:
            game = self.games[-1]
            game.records += 1
            if game.records > self.most_in_game:
                raise _past(place, self.tally.limits.actions_per_game, "actions_per_game")
        if place.number > self.most_in_file:
            raise _past(place, self.tally.limits.actions, "actions")

    def match(self, place: Place, record: bytes) -> None:
        if self.length is not None:
            raise place.error("a second match header")
        length, variation, crawford, jacoby, beavers, _auto = _MATCH.unpack_from(record, 92)
        money = length <= 0 or length >= UNLIMITED
        self.length = 0 if money else length
        version = struct.unpack_from("<i", record, 552)[0]
        unicode = version >= UNICODE_VERSION
        names = (_wide(record, 880), _wide(record, 1138)) if unicode else ("", "")
        if not all(names):
            names = (_ansi(record, 9), _ansi(record, 50))
        self.players = (names[0] or "Player 1", names[1] or "Player 2")
        self.tags.update(_rule_tags(money, crawford, jacoby, beavers))
        if variation in _VARIATIONS:
            self.tags["Variation"] = _VARIATIONS[variation]
        for name, at in (("Event", 622), ("Round", 1654)):
            text = _wide(record, at) if unicode else ""
            if text:
                self.tags[name] = text

    def game(self, place: Place, record: bytes) -> None:
        first, second, _crawford, *board, number = _GAME.unpack_from(record, 12)
        if tuple(board) not in (START, (0,) * 26):
            raise place.error("the game starts from a set-up position, which is not read here")
        self.tally.game()
        score = None if self.length == 0 else (first, second)
        self.games.append(_Game(number if number > 0 else len(self.games) + 1, place.number, score))

    def cube(self, place: Place, record: bytes) -> None:
        actor, doubled, answer, raccoon, _raccoon_answer, cube = _CUBE.unpack_from(record, 12)
        if doubled != 1:
            return  # a cube decision without a double (XG writes one before most rolls)
        side, other = _side(place, actor), _side(place, -actor)
        value = 2 ** (min(abs(cube), 12) + 1)
        self.add(place, ActionKind.DOUBLE, side, f"Doubles => {value}", value)
        if answer == 0:
            self.add(place, ActionKind.DROP, other, "Drops")
        elif answer == 1:
            self.add(place, ActionKind.TAKE, other, "Takes")
        elif answer == 2:
            self.add(place, ActionKind.BEAVER, other, f"Beavers => {2 * value}", 2 * value)
            if raccoon == 2:
                self.add(place, ActionKind.RACCOON, side, f"Raccoons => {4 * value}", 4 * value)

    def move(self, place: Place, record: bytes) -> None:
        found = _MOVE.unpack_from(record, 64)
        side = _side(place, found[0])
        written = self.plays.get(found[1:])
        if written is None:
            written = self.plays[found[1:]] = _play(place, found[1:9], found[9:])
        text, play = written
        action = ActionText(ActionKind.ROLL, side, place.number, 1, None, text, play.dice, play)
        self.append(action)

    def footer(self, place: Place, record: bytes) -> None:
        _first, _second, _crawford, winner, points, _how = _FOOTER.unpack_from(record, 12)
        if winner == 0:
            return  # a game XG left unfinished
        side = _side(place, winner)
        if not 0 < points <= MAX_POINTS:
            raise place.error(f"a game won for {points} points")
        text = f"Wins {points} point{'' if points == 1 else 's'}"
        self.add(place, ActionKind.WIN, side, text, points)

    def add(
        self, place: Place, kind: ActionKind, side: str, text: str, value: int | None = None
    ) -> None:
        self.append(ActionText(kind, side, place.number, 1, None, text, value=value))

    def append(self, action: ActionText) -> None:
        game = self.games[-1]
        game.actions.append(action)
        self.tally.action(len(game.actions))

    def build(self) -> MatchText:
        games = tuple(
            GameText(index, game.number, game.line, self.players, game.score, tuple(game.actions))
            for index, game in enumerate(self.games, start=1)
        )
        return MatchText(tags=self.tags, match_length=self.length, games=games)


def _most_records(actions: int | None) -> float:
    """The most records that many actions may come in (no limit: any number)."""
    return math.inf if actions is None else RECORDS_PER_ACTION * actions + RECORDS_SLACK


def _past(place: Place, actions: int | None, limit: str) -> NotationError:
    return NotationError(
        f"too_many_{limit}",
        f"record {place.number}: more than {RECORDS_PER_ACTION} records an action"
        f" past the limit of {actions:,} {limit}",
    )


def _rule_tags(money: bool, crawford: bool, jacoby: bool, beavers: bool) -> dict[str, str]:
    """The header tags of XG's rules: Crawford in a match, Jacoby and beavers in money play."""

    def word(flag: bool) -> str:
        return "On" if flag else "Off"

    if money:
        return {"Jacoby": word(jacoby), "Beaver": word(beavers)}
    return {"Crawford": word(crawford)}


def _play(place: Place, pairs: tuple[int, ...], dice: tuple[int, ...]) -> tuple[str, PlayText]:
    """A move record's text and play: its dice, its from-to pairs up to the first -1."""
    first, second = dice
    if not (1 <= first <= 6 and 1 <= second <= 6):
        raise place.error(f"the dice {first} and {second} are no roll")
    moves = []
    for at in range(0, 8, 2):
        if pairs[at] == -1:
            break
        moves.append(Move(_from_point(place, pairs[at]), _to_point(place, pairs[at + 1])))
    played = tuple(moves)
    text = f"{first}{second}: {format_play(played)}".rstrip()
    return text, PlayText((first, second), played)


def _side(place: Place, player: int) -> str:
    if player not in _SIDES:
        raise place.error(f"player {player} is neither 1 (player 1) nor -1 (player 2)")
    return _SIDES[player]


def _from_point(place: Place, code: int) -> int:
    if not 0 <= code <= 24:
        raise place.error(f"a move from {code}: points are 0-23 and the bar 24")
    return BAR if code == 24 else code + 1


def _to_point(place: Place, code: int) -> int:
    if not -2 <= code <= 23:
        raise place.error(f"a move to {code}: points are 0-23, and off below 0")
    return OFF if code < 0 else code + 1


def _ansi(record: bytes, at: int) -> str:
    """A ``string[40]``: a length byte, then that many ANSI (Windows-1252) bytes."""
    return record[at + 1 : at + 1 + min(record[at], 40)].decode("cp1252", "replace").strip()


def _wide(record: bytes, at: int) -> str:
    """A ``TShortUnicodeString``: up to 128 UTF-16 characters, NUL-terminated."""
    text = record[at : at + 256].decode("utf-16-le", "replace")
    return text.split("\0", 1)[0].strip()


def read_xg(data: bytes, limits: ReadLimits | None = None) -> MatchText:
    """Every game of an ``.xg`` file; NotationError ``invalid_xg`` where the file stops
    being readable, ``no_match`` without a game, ``too_many_<limit>`` past ``limits``."""
    reader = _Reader(limits or ReadLimits())
    for place, record in records(data):
        reader.read(place, record)
    if not reader.games:
        raise NotationError("no_match", "the .xg file holds no game: this is not a match record")
    return reader.build()
