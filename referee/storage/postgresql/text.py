"""Text that PostgreSQL cannot hold as it is: a NUL character. SQLite stores any string,
and a record sent to the archive may hold one (in a comment, a tag, a name); PostgreSQL's
text refuses it. Every string this backend sends is written with NUL as ``ESCAPE`` ``0``
(and ``ESCAPE`` itself doubled), and every text it reads is turned back, by psycopg
adapters on every pooled connection: what is stored reads back exactly, in every column,
and equal strings stay equal (a player's name, a key's prefix), since each character is
written the same way wherever it stands."""

from __future__ import annotations

import re

import psycopg
from psycopg.rows import DictRow
from psycopg.types.string import StrBinaryDumper, StrDumperUnknown, TextBinaryLoader, TextLoader

ESCAPE = "\ue000"
"""A private-use character: the escape, rare in a record."""
_ESCAPED = re.compile(f"{ESCAPE}(.)", re.DOTALL)


def escaped(text: str) -> str:
    """``text`` with no NUL in it, as stored."""
    if "\x00" not in text and ESCAPE not in text:
        return text
    return text.replace(ESCAPE, ESCAPE * 2).replace("\x00", ESCAPE + "0")


def unescaped(text: str) -> str:
    """The text that ``escaped`` wrote."""
    if ESCAPE not in text:
        return text
    return _ESCAPED.sub(lambda found: "\x00" if found[1] == "0" else found[1], text)


class _Dumper(StrDumperUnknown):
    def dump(self, obj: str) -> bytes | bytearray | memoryview | None:
        return super().dump(escaped(obj))


class _BinaryDumper(StrBinaryDumper):
    def dump(self, obj: str) -> bytes | bytearray | memoryview | None:
        return super().dump(escaped(obj))


class _Loader(TextLoader):
    def load(self, data: bytes | bytearray | memoryview) -> str | bytes:
        text = super().load(data)
        return unescaped(text) if isinstance(text, str) else text


class _BinaryLoader(TextBinaryLoader):
    def load(self, data: bytes | bytearray | memoryview) -> str | bytes:
        text = super().load(data)
        return unescaped(text) if isinstance(text, str) else text


def adapt(connection: psycopg.Connection[DictRow]) -> None:
    """Strings written and read through ``escaped`` on this connection."""
    adapters = connection.adapters
    adapters.register_dumper(str, _BinaryDumper)
    adapters.register_dumper(str, _Dumper)  # last: the one a %s takes (of unknown type)
    adapters.register_loader("text", _Loader)
    adapters.register_loader("text", _BinaryLoader)
