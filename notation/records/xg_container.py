"""eXtreme Gammon's ``.xg`` container, read from the layout XG's authors published
(extremegammon.com/xgformat.aspx; nothing of another reader is copied): an 8,232-byte
RichGameHeader (magic ``RGMH``), a thumbnail, then a ZLibArchive whose last 36 bytes say
where its files and their index are. Only ``temp.xg`` (the game records) is read.

Every count and offset the file gives is checked against the file before it is used, and
a compressed stream is inflated in steps with a cap on its output (the size the index
declares, and at most ``MAX_GAME_DATA``), so a cut, corrupt or inflating file stops with a
NotationError naming the byte where reading stopped, never an exception of its own.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from notation.errors import NotationError
from notation.records.formats import XG_MAGIC

HEADER_BYTES: Final = 8232
"""The RichGameHeader's size."""
MAX_GAME_DATA: Final = 1536 * 1024 * 1024
"""The most ``temp.xg`` may inflate to: 629,145 records of 2,560 bytes (a 25-point match
is about 6,000, a 2,000-game money session 400,000); past it the file is refused, however
small it is compressed. It is inflated as it is read, never held whole, and the reader's
limits stop a long run of records well before (``xg_reader``: records count as work)."""
STEP: Final = 65536
"""How many compressed bytes are inflated at a time."""
PIECE: Final = 1024 * 1024
"""The most one step inflates to."""
_ARCHIVE = struct.Struct("<IiiiiI12x")
"""The archive record: CRC-32 of the archive, file count, version, index size, data size,
whether the index is compressed."""
_ENTRY_BYTES: Final = 532
_ENTRY_FIELDS = struct.Struct("<iiiIBB")
"""From byte 512 of an index entry: size, stored size, start, CRC-32, 0 when compressed, level."""
MAX_FILES: Final = 64
GAME_FILE: Final = "temp.xg"


@dataclass(frozen=True, slots=True)
class ArchivedFile:
    """One file of the archive, as its index entry describes it."""

    name: str
    size: int
    stored_size: int
    start: int
    crc: int
    compressed: bool


def corrupt(message: str) -> NotationError:
    """The error of a file that is not a readable ``.xg``."""
    return NotationError("invalid_xg", f"not a readable .xg file: {message}")


def game_data(data: bytes, cap: int = MAX_GAME_DATA) -> Iterator[bytes]:
    """``temp.xg`` of an ``.xg`` file, inflated piece by piece (at most ``cap`` bytes in
    all); NotationError ``invalid_xg`` for a cut or corrupt file, one over the cap."""
    if len(data) < HEADER_BYTES:
        raise corrupt(f"it has {len(data):,} bytes, its header alone {HEADER_BYTES:,}")
    if data[:4] != XG_MAGIC:
        raise corrupt(f"it starts {data[:4]!r}, not {XG_MAGIC!r}")
    header_size, _offset, thumbnail = struct.unpack_from("<IqI", data, 8)
    payload = header_size + thumbnail
    if header_size != HEADER_BYTES or payload > len(data):
        raise corrupt(f"its header says the archive starts at byte {payload:,}, past its end")
    found = _archived(data, payload)
    start = found[0]
    entry = next((item for item in found[1] if item.name.lower() == GAME_FILE), None)
    if entry is None:
        raise corrupt(f"its archive holds no {GAME_FILE}")
    if entry.size > cap:
        raise corrupt(f"{GAME_FILE} would be {entry.size:,} bytes; at most {cap:,} are read")
    first, last = start + entry.start, start + entry.start + entry.stored_size
    if entry.start < 0 or entry.stored_size < 0 or last > len(data) - _ARCHIVE.size:
        raise corrupt(f"{GAME_FILE} lies outside the archive (bytes {first:,} to {last:,})")
    pieces = (
        _inflated(data, first, last, entry.size) if entry.compressed else _stored(data, first, last)
    )
    yield from _checked(pieces, entry)


def _archived(data: bytes, payload: int) -> tuple[int, tuple[ArchivedFile, ...]]:
    """Where the archive's data starts, and its index."""
    end = len(data) - _ARCHIVE.size
    if end < payload:
        raise corrupt(f"it ends at byte {len(data):,}, before its archive record")
    crc, count, _version, index_size, data_size, packed = _ARCHIVE.unpack_from(data, end)
    start = end - index_size - data_size
    if not 0 < count <= MAX_FILES or index_size < 0 or data_size < 0 or start < payload:
        raise corrupt(f"the archive record at byte {end:,} does not fit the file (cut or corrupt)")
    if zlib.crc32(data[start:end]) != crc:
        raise corrupt(f"the archive (bytes {start:,} to {end:,}) fails its CRC-32 check")
    wanted = count * _ENTRY_BYTES
    index_start = end - index_size
    pieces = (
        _inflated(data, index_start, end, wanted) if packed else _stored(data, index_start, end)
    )
    index = b"".join(pieces)
    if len(index) < wanted:
        raise corrupt(f"the archive's index at byte {index_start:,} is cut")
    return start, tuple(_entry(index, number * _ENTRY_BYTES) for number in range(count))


def _entry(index: bytes, at: int) -> ArchivedFile:
    name = index[at + 1 : at + 1 + min(index[at], 255)].decode("latin-1")
    size, stored, start, crc, flag, _level = _ENTRY_FIELDS.unpack_from(index, at + 512)
    return ArchivedFile(name, size, stored, start, crc, flag == 0)


def _stored(data: bytes, first: int, last: int) -> Iterator[bytes]:
    for at in range(first, last, STEP):
        yield data[at : min(at + STEP, last)]


def _inflated(data: bytes, first: int, last: int, size: int) -> Iterator[bytes]:
    """The zlib stream in ``data[first:last]`` inflated in pieces of at most ``PIECE``
    bytes, never more than ``size`` bytes in all."""
    stream = zlib.decompressobj()
    made, at, pending = 0, first, b""
    try:
        while not stream.eof and (pending or at < last):
            if not pending:
                pending, at = data[at : min(at + STEP, last)], min(at + STEP, last)
            piece = stream.decompress(pending, min(PIECE, size - made + 1))
            pending = stream.unconsumed_tail
            made += len(piece)
            if made > size:
                raise corrupt(f"its stream inflates past the {size:,} bytes its index declares")
            if piece:
                yield piece
    except zlib.error as error:
        raise corrupt(f"its compressed stream is corrupt near byte {at:,} ({error})") from None
    if not stream.eof:
        raise corrupt(f"its compressed stream is cut at byte {last:,}")


def _checked(pieces: Iterator[bytes], entry: ArchivedFile) -> Iterator[bytes]:
    """The pieces as they come, then the CRC-32 and the size the index gave checked."""
    crc, made = 0, 0
    for piece in pieces:
        crc, made = zlib.crc32(piece, crc), made + len(piece)
        yield piece
    if made != entry.size or crc != entry.crc:
        raise corrupt(f"{entry.name} has {made:,} bytes or a CRC-32 other than its index says")
