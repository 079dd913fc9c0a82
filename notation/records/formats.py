"""The record formats this project reads, found by name, media type, file suffix or their
content, each reader turning its text into the one record model (``MatchText``).

A format is a value: its name (``?format=``, ``--format``), the media types and suffixes
that name it, a test of the content (``sniff``, on the first bytes), and its reader. The
readers but the ``.mat`` one are imported when their format is first tried or read (a
check of a ``.mat`` file spends most of its time on imports).
**Decision (binary formats):** detection looks at bytes, and a format says whether it reads
bytes (``read_bytes``: XG's ``.xg``) or UTF-8 text (all the others). A reader
returns a tuple of records: a ``.mat`` file may hold several matches (BBGT writes them so).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Final

from notation.errors import NotationError, echoed
from notation.records.mat_reader import ReadLimits, read_mat
from notation.records.model import MatchText

SNIFF_BYTES: Final = 65536
"""How much of the content detection looks at."""

_MAT_HINT = re.compile(
    rb"^[ \t]*(?:\d{1,5}[ \t]+point[ \t]+match\b|Game[ \t]+\d{1,6}\s*$)", re.I | re.M
)
_SGF_HINT = re.compile(rb"^(?:\xef\xbb\xbf)?\s*\(\s*;")
XG_MAGIC: Final = b"RGMH"
"""The first bytes of an .xg file: its RichGameHeader's magic (``xg_container`` reads on
from there; it is not imported to detect the format)."""
_MATCH_LINE = re.compile(r"^[ \t]*\d{1,5}[ \t]+point[ \t]+match\b", re.IGNORECASE | re.MULTILINE)
_GAME_LINE = re.compile(r"^[ \t]*Game[ \t]+\d{1,6}[ \t]*\r?$", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class RecordFormat:
    """One format: how it is named and recognised, and its reader."""

    name: str
    title: str
    media_types: tuple[str, ...]
    suffixes: tuple[str, ...]
    sniff: Callable[[bytes], bool]
    """Whether content starting with these bytes is in this format (a cheap look)."""
    read: Callable[[str, ReadLimits | None], tuple[MatchText, ...]]
    hint: str
    """What ``sniff`` looks for, as the ``unknown_format`` error names it."""
    read_bytes: Callable[[bytes, ReadLimits | None], tuple[MatchText, ...]] | None = None
    """The reader of a binary format (``read`` then refuses text)."""

    @property
    def binary(self) -> bool:
        return self.read_bytes is not None


@dataclass(frozen=True, slots=True)
class MatchPart:
    """One match of a text: its own text and the number of its first line in the text."""

    text: str
    line: int = 1


@dataclass(frozen=True, slots=True)
class MatchParts:
    """The first matches of a text (at most the number asked for) and how many it holds."""

    parts: tuple[MatchPart, ...]
    count: int


def split_matches(text: str, at_most: int | None = None, first_line: int = 1) -> MatchParts:
    """The matches of a ``.mat`` text, each with the number of its first line (the text's
    first line being ``first_line``): a new match starts at an ``N point match`` line after
    a ``Game`` line, with the comment lines just above it (its tags). Every match is
    counted, only the first ``at_most`` are cut out; the work is linear in the text."""
    starts = [0]
    searched, game_seen = 0, False
    for found in _match_lines(text):
        game_seen = game_seen or bool(_GAME_LINE.search(text, searched, found))
        searched = found
        if game_seen:
            starts.append(_header_start(text, found))
            game_seen = False
    ends = [*starts[1:], len(text)]
    wanted = len(starts) if at_most is None else max(1, min(at_most, len(starts)))
    parts, line, counted = [], first_line, 0
    for start, end in zip(starts[:wanted], ends, strict=False):
        line += text.count("\n", counted, start)
        counted = start
        parts.append(MatchPart(text[start:end], line))
    return MatchParts(tuple(parts), len(starts))


def _match_lines(text: str) -> Iterator[int]:
    """Where each ``N point match`` line of ``text`` starts. In ASCII text (a record's,
    nearly always) only the lines holding "match" are tried (rarer than "point", which
    every game's ``Wins`` line holds): the pattern tried at every character of a long
    record costs more than reading it natively."""
    if not text.isascii():
        yield from (found.start() for found in _MATCH_LINE.finditer(text))
        return
    lowered = text.lower()
    at = lowered.find("match")
    while at >= 0:
        line = text.rfind("\n", 0, at) + 1
        if _MATCH_LINE.match(text, line):
            yield line
        end = text.find("\n", at)
        if end < 0:
            return
        at = lowered.find("match", end)


def _header_start(text: str, start: int) -> int:
    """Where the comment and blank lines right above offset ``start`` begin."""
    while start > 0:
        previous = text.rfind("\n", 0, start - 1) + 1
        line = text[previous : start - 1].strip()
        if line and line[0] not in ";#":
            break
        start = previous
    return start


def _reader_module(name: str) -> Any:
    """``notation.records.<name>``, imported the first time it is asked for."""
    return importlib.import_module(f"notation.records.{name}")


def _sniffed(module: str) -> Callable[[bytes], bool]:
    """The test of a reader module's own ``SNIFF`` pattern."""
    return lambda head: bool(_reader_module(module).SNIFF.search(head))


def _one_record(module: str, reader: str) -> Callable[[Any, ReadLimits | None], tuple[MatchText]]:
    """A reader of one record (text or bytes) from a reader module."""
    return lambda data, limits: (getattr(_reader_module(module), reader)(data, limits),)


def _read_mats(text: str, limits: ReadLimits | None) -> tuple[MatchText, ...]:
    return tuple(read_mat(part.text, limits, part.line) for part in split_matches(text).parts)


MAT: Final = RecordFormat(
    name="mat",
    title="JellyFish .mat (and gnubg's, XG's, Galaxy's, Studio's .mat/.txt)",
    media_types=("text/plain",),
    suffixes=(".mat", ".txt"),
    sniff=lambda head: bool(_MAT_HINT.search(head)),
    read=_read_mats,
    hint="an 'N point match' or 'Game N' line",
)
SGF: Final = RecordFormat(
    name="sgf",
    title="SGF for backgammon (GM[6]) as GNU Backgammon writes it",
    media_types=("application/x-go-sgf", "application/x-sgf", "text/x-sgf"),
    suffixes=(".sgf",),
    sniff=lambda head: bool(_SGF_HINT.match(head)),
    read=_one_record("sgf_reader", "read_sgf"),
    hint="a game tree starting '(;'",
)
TMG: Final = RecordFormat(
    name="tmg",
    title="TrueMoneyGames .tmg as GNU Backgammon imports it",
    media_types=("application/x-tmg",),
    suffixes=(".tmg",),
    sniff=_sniffed("tmg_reader"),
    read=_one_record("tmg_reader", "read_tmg"),
    hint="'MatchID:', 'Player1:' or 'Game N: a-b' lines",
)
OLDMOVES: Final = RecordFormat(
    name="oldmoves",
    title="FIBS oldmoves as GNU Backgammon imports it",
    media_types=("application/x-fibs-oldmoves",),
    suffixes=(".oldmoves",),
    sniff=_sniffed("oldmoves_reader"),
    read=_one_record("oldmoves_reader", "read_oldmoves"),
    hint="a 'Score is A-B' line",
)
BGROOM: Final = RecordFormat(
    name="bgroom",
    title="BGRoom .bgf (its text form) as GNU Backgammon imports it",
    media_types=("application/x-bgroom",),
    suffixes=(".bgf",),
    sniff=_sniffed("bgroom_reader"),
    read=_one_record("bgroom_reader", "read_bgroom"),
    hint="a 'BGF version' line",
)
GAM: Final = RecordFormat(
    name="gam",
    title="GammonEmpire .gam as GNU Backgammon imports it (import empire)",
    media_types=("application/x-gammonempire",),
    suffixes=(".gam",),
    sniff=_sniffed("gam_reader"),
    read=_one_record("gam_reader", "read_gam"),
    hint="a line naming two players, then row '1)'",
)
SGG: Final = RecordFormat(
    name="sgg",
    title="GamesGrid/GridGammon .sgg as GNU Backgammon imports it",
    media_types=("application/x-sgg",),
    suffixes=(".sgg",),
    sniff=_sniffed("sgg_reader"),
    read=_one_record("sgg_reader", "read_sgg"),
    hint="a 'Game N. A-B' line",
)
PARTY: Final = RecordFormat(
    name="party",
    title="PartyGammon .gam as GNU Backgammon imports it (import party)",
    media_types=("application/x-partygammon",),
    suffixes=(),  # its .gam suffix names GammonEmpire's format; the content tells them apart
    sniff=_sniffed("party_reader"),
    read=_one_record("party_reader", "read_party"),
    hint="'GAME_n_...=' or 'MATCHLENGTH=' lines",
)
SNOWIE: Final = RecordFormat(
    name="snowie",
    title="Snowie .txt position as GNU Backgammon imports it (one game from that position)",
    media_types=("application/x-snowie-position",),
    suffixes=(),  # its .txt suffix names the .mat format (gnubg's and XG's text exports)
    sniff=_sniffed("snowie_reader"),
    read=_one_record("snowie_reader", "read_snowie"),
    hint="one line of ';'-separated fields",
)


def _text_of_binary(text: str, limits: ReadLimits | None) -> tuple[MatchText, ...]:
    raise NotationError(
        "binary_format", "an .xg record is a binary file: send its bytes as they are"
    )


XG: Final = RecordFormat(
    name="xg",
    title="eXtreme Gammon .xg (binary, its published layout)",
    media_types=("application/x-xg",),
    suffixes=(".xg",),
    sniff=lambda head: head.startswith(XG_MAGIC),
    read=_text_of_binary,
    hint="the bytes 'RGMH'",
    read_bytes=_one_record("xg_reader", "read_xg"),
)
FORMATS: Final = (XG, SGF, MAT, TMG, OLDMOVES, BGROOM, GAM, SGG, PARTY, SNOWIE)
"""Every format, in the order detection tries them."""
NAMES: Final = tuple(format_.name for format_ in FORMATS)


def find_format(name: str) -> RecordFormat:
    """The format called ``name`` (any case), or NotationError ``unknown_format``."""
    for format_ in FORMATS:
        if format_.name == name.strip().lower():
            return format_
    raise NotationError(
        "unknown_format",
        f"no record format {echoed(name, 20)}: this referee reads {', '.join(NAMES)}",
    )


def format_of_media_type(media_type: str) -> RecordFormat | None:
    """The format a Content-Type names; text/plain names none (any text format is sent
    so), and neither does a type no format has."""
    wanted = media_type.lower()
    if wanted == "text/plain":
        return None
    return next((format_ for format_ in FORMATS if wanted in format_.media_types), None)


def format_of_suffix(name: str) -> RecordFormat | None:
    """The format a file name's suffix names, if any."""
    for format_ in FORMATS:
        if name.lower().endswith(format_.suffixes):
            return format_
    return None


def detect(head: bytes) -> RecordFormat:
    """The first format whose ``sniff`` takes these first bytes, or NotationError
    ``unknown_format`` naming every format tried and what it looked for."""
    for format_ in FORMATS:
        if format_.sniff(head[:SNIFF_BYTES]):
            return format_
    tried = "; ".join(f"{format_.name} ({format_.hint})" for format_ in FORMATS)
    raise NotationError("unknown_format", f"the record is in no format read here; tried: {tried}")


def text_format(text: str, name: str | None = None) -> RecordFormat:
    """The format of a record text: the one named, else the one its content shows."""
    if name:
        return find_format(name)
    return detect(text[:SNIFF_BYTES].encode("utf-8", "replace"))


def read_records(
    text: str, name: str | None = None, limits: ReadLimits | None = None
) -> tuple[MatchText, ...]:
    """Every record of ``text`` in the format named (else detected)."""
    return text_format(text, name).read(text, limits)
