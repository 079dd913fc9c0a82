"""Play texts: a lenient reader for what real records contain, and the two writers.

Points are in the mover's own numbering; ``BAR`` (25) and ``OFF`` (0) stand for the bar and
borne off. The reader returns moves as written (a move may span several dice); matching
them to the dice and the board is the referee's job, not the notation's.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from notation.errors import NotationError, echoed
from vocabulary import BAR, OFF, Move, point_text

MAX_POINT_DIGITS: Final = 6
EMPTY_PLAY_WORDS: Final = frozenset({"cannot move", "-", ""})
UNKNOWN_PLAY_WORDS: Final = frozenset({"???", "????"})


@dataclass(frozen=True, slots=True)
class PlayText:
    """A parsed play: the dice prefix if written, and the moves (empty for a dance)."""

    dice: tuple[int, int] | None
    moves: tuple[Move, ...]
    unknown: bool = False
    """``????``: the record does not say what was played."""


_DICE_PREFIX = re.compile(r"\s*([1-6])([1-6])\s*:")
_POINT = r"(?:\d+|bar|b|off|o)"
_TOKEN = re.compile(
    rf"(?P<chain>\*?{_POINT}\**(?:(?:\s*/\s*|(?<=\d)-(?=\d)){_POINT}\**)+)"
    r"(?:\((?P<count>\d+)\))?",
    re.IGNORECASE,
)
_POINT_MARK = re.compile(rf"({_POINT})(\**)", re.IGNORECASE)
_SIMPLE_PART = re.compile(r"(\d{1,2}|bar)/(\d{1,2}|off)(\*?)", re.IGNORECASE)
_SEPARATOR = re.compile(r"[\s,]")
"""What parts of a play stand between."""
SHOWN = 20
"""The most of an unreadable play an error shows."""
_SIMPLE_PLAY = re.compile(r"\s*(?:(?:\d{1,2}|bar)/(?:\d{1,2}|off)\*?(?:\s+|$))+", re.IGNORECASE)
"""The common shape (``13/8 24/18* bar/22 6/off``), read without the general tokenizer."""


def parse_play(text: str) -> PlayText:
    """Read ``52: 13/8 13/11``, ``24/18*/13``, ``6/off(2)``, ``bar/22``, ``Cannot Move`` ..."""
    dice = None
    body = text
    prefix = _DICE_PREFIX.match(text)
    if prefix:
        first, second = int(prefix[1]), int(prefix[2])
        dice = (max(first, second), min(first, second))
        body = text[prefix.end() :]
    if _SIMPLE_PLAY.fullmatch(body):
        return PlayText(
            dice,
            tuple(
                Move(_point_value(origin), _point_value(target), bool(mark))
                for origin, target, mark in _SIMPLE_PART.findall(body)
            ),
        )
    stripped = " ".join(body.split()).lower()
    if stripped in EMPTY_PLAY_WORDS:
        return PlayText(dice, ())
    if stripped in UNKNOWN_PLAY_WORDS:
        return PlayText(dice, (), unknown=True)
    moves: list[Move] = []
    position = 0
    offset = len(text) - len(body)
    while position < len(body):
        if body[position] in " \t,":
            position += 1
            continue
        token = _TOKEN.match(body, position)
        if token is None:
            raise NotationError(
                "invalid_play",
                f"cannot read {echoed(_unreadable(body, position), SHOWN)} as a move like"
                " 13/8 or bar/22*",
                offset + position + 1,
            )
        moves.extend(_chain_moves(token["chain"], _count(token["count"], offset + position + 1)))
        position = token.end()
    return PlayText(dice, tuple(moves))


def _unreadable(body: str, position: int) -> str:
    """What to show of ``body`` that cannot be read at ``position``: the whole part that
    holds it (between spaces or commas) when that is short enough to show whole, else the
    rest from ``position``."""
    start = max((found.end() for found in _SEPARATOR.finditer(body, 0, position)), default=0)
    after = _SEPARATOR.search(body, position)
    part = body[start : len(body) if after is None else after.start()]
    if len(part) > SHOWN or (after is not None and after.start() == position):
        return body[position:]  # too long, or a separator read cannot pass (a newline)
    return part


def _count(text: str | None, column: int) -> int:
    if text is None:
        return 1
    count = int(text[:MAX_POINT_DIGITS])
    if not 1 <= count <= 15:
        raise NotationError("invalid_play", f"a repeat count ({count}) is 1 to 15", column)
    return count


def _chain_moves(chain: str, count: int) -> list[Move]:
    """``24/18*/13`` → 24/18*, 18/13 (a mark on the first point marks the first move);
    repeated ``count`` times."""
    points = [(_point_value(match[1]), bool(match[2])) for match in _POINT_MARK.finditer(chain)]
    first_marked = chain.startswith("*") or points[0][1]
    moves = [
        Move(origin, target, hit or (first_marked and index == 0))
        for index, ((origin, _), (target, hit)) in enumerate(itertools.pairwise(points))
    ]
    return moves * count


def _point_value(text: str) -> int:
    word = text.lower()
    if word in ("bar", "b"):
        return BAR
    if word in ("off", "o"):
        return OFF
    return int(word) if len(word) <= MAX_POINT_DIGITS else 10**MAX_POINT_DIGITS


def format_play(moves: Sequence[Move], dice: tuple[int, int] | None = None) -> str:
    """The canonical long form: one part per die as given, ``bar``/``off`` words, ``*``.

    With ``dice`` the prefix ``52:`` is added (a dance is then ``52:`` alone).
    """
    parts = " ".join(
        f"{point_text(move.from_point)}/{point_text(move.to_point)}{'*' if move.hit else ''}"
        for move in moves
    )
    if dice is None:
        return parts
    prefix = f"{max(dice)}{min(dice)}:"
    return f"{prefix} {parts}" if parts else prefix
