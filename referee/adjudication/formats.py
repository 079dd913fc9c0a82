"""Which reader a record text goes to: the format named or detected, the matches a text
holds, and their reading as the referee's errors (``unknown_format``, ``invalid_notation``
with the place reading stopped, 413 past a reading limit)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from notation.errors import NotationError
from notation.records.formats import (
    MAT,
    SNIFF_BYTES,
    MatchPart,
    RecordFormat,
    detect,
    find_format,
    split_matches,
    text_format,
)
from notation.records.mat_reader import read_mat
from notation.records.mat_writer import write_mat
from notation.records.model import MatchText
from referee.adjudication.budget import WorkLimits, reading_refusal
from referee.adjudication.verdict import Issue, Verdict
from referee.errors import UnknownFormatError
from referee.notation_errors import notation_errors
from vocabulary import IssueCode


@dataclass(frozen=True, slots=True)
class RecordTexts:
    """A text's format, its first matches (several only in a ``.mat``, at most the number
    asked for) and how many matches it holds."""

    format: RecordFormat
    parts: tuple[MatchPart, ...]
    count: int


def _is_binary(text: str) -> bool:
    """Whether the start of ``text`` holds control characters no record text has (NUL and
    the like: a binary file, XG's ``.xg`` say), not text of a format that failed to read."""
    head = text[:SNIFF_BYTES]
    return any(ord(char) < 32 and char not in "\t\n\r\f\v" for char in head)


def record_format(text: str, name: str | None = None) -> RecordFormat:
    """The format ``name`` names, else the one ``text`` shows, else ``.mat`` for text (its
    reader then says where reading stopped); UnknownFormatError for a name no format has
    or binary content."""
    try:
        return text_format(text, name)
    except NotationError as error:
        if name is None and not _is_binary(text):
            return MAT
        raise UnknownFormatError(error.message) from None


def record_texts(
    text: str, name: str | None = None, at_most: int | None = None, first_line: int = 1
) -> RecordTexts:
    """The format of ``text``, its first ``at_most`` matches (each to be checked on its own,
    numbered from ``first_line``) and how many it holds."""
    found = record_format(text, name)
    if found is not MAT:
        return RecordTexts(found, (MatchPart(text),), 1)
    split = split_matches(text, at_most, first_line)
    return RecordTexts(found, split.parts, split.count)


def read_as(found: RecordFormat, part: MatchPart, limits: WorkLimits) -> MatchText:
    """The first record of ``part`` read as ``found``: InvalidNotationError when it cannot
    be read, TooManyGamesError or WorkLimitError past a limit."""
    try:
        if found is MAT:
            return read_mat(part.text, limits.reading, part.line)
        return found.read(part.text, limits.reading)[0]
    except NotationError as error:
        if error.code.startswith("too_many_"):
            raise reading_refusal(error, limits) from None
        with notation_errors():
            raise


def binary_format(data: bytes, name: str | None = None) -> RecordFormat | None:
    """The binary format of a record's bytes: the one ``name`` names if it is binary, else
    (no name) the one the bytes show if it is; None for a text record."""
    try:
        found = find_format(name) if name else detect(data[:SNIFF_BYTES])
    except NotationError:
        return None
    return found if found.binary else None


def binary_text(found: RecordFormat, data: bytes, limits: WorkLimits) -> str:
    """A binary record (``.xg``) as the ``.mat`` text checked, stored and shown for it:
    read into the record model, then written by the ``.mat`` writer. InvalidNotationError
    naming where a cut or corrupt file stopped, the refusal of a limit as ``read_as``."""
    assert found.read_bytes is not None
    try:
        return write_mat(found.read_bytes(data, limits.reading)[0])
    except NotationError as error:
        if error.code.startswith("too_many_"):
            raise reading_refusal(error, limits) from None
        with notation_errors():
            raise


def with_more_matches(verdict: Verdict, count: int) -> Verdict:
    """The first match's verdict, warning that the text holds ``count`` matches."""
    if count <= 1:
        return verdict
    message = (
        f"the text holds {count} matches; this verdict is the first's (the command line"
        " checks each, POST /v1/matches/import stores each)"
    )
    warning = Issue(IssueCode.SEVERAL_MATCHES, message)
    return replace(verdict, warnings=(*verdict.warnings, warning))
