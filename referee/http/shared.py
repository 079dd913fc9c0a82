"""Counters shared by every worker of one server: rate-limit buckets and open streams.

gunicorn forks its workers from the master after the app is built (``preload_app``), so a
table made in ``create_app`` is the same memory in every worker: an anonymous shared
mapping (no file, so a full disk cannot touch it) of fixed-size slots, guarded by a POSIX
record lock on an empty file (``lockf``: owned by the process, released by the kernel when
a worker dies, so a killed worker never leaves it held) and a thread lock within each
process. A slot is ``(key hash, owner pid, value, time)``:

* a rate bucket has owner 0, ``value`` the tokens left and ``time`` when they were counted;
* a stream count has its worker's pid as owner and ``value`` the streams that worker holds
  open under the key: counts of a worker that died are not counted (and are reused).

A key lives in a window of ``WINDOW`` slots from its hash. A full window forgets the
bucket counted longest ago (a bucket forgotten is a full one again: that client's limit is
lifted early, never tightened); stream counts are bounded by the streams a worker may hold,
so they always find room. Without the lock file (a machine without a writable temporary
folder) the table is this process's alone: the limits then count per worker, as before.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import mmap
import os
import struct
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

SLOT = struct.Struct("=QqddQ")
"""key hash, owner pid (0: a rate bucket), value, time (monotonic), 8 bytes of padding."""
SLOTS = 16_384
WINDOW = 32
SHARED_MEMORY = Path("/dev/shm")


def key_hash(*parts: str) -> int:
    """A key's 64-bit hash (never 0, which marks a free slot)."""
    digest = hashlib.blake2b("\0".join(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") or 1


class SharedCounters:
    """The table, made once in the process that forks the workers."""

    def __init__(self, slots: int = SLOTS) -> None:
        self.slots = slots
        self.memory = mmap.mmap(-1, slots * SLOT.size, flags=mmap.MAP_SHARED)
        self.lock_file: IO[bytes] | None = _lock_file()
        self.thread_lock = threading.Lock()
        self.pid = os.getpid()
        self.alive: dict[int, tuple[bool, float]] = {}
        """pid -> (alive, when looked): a dead worker's stream counts are not counted."""

    @property
    def shared(self) -> bool:
        """Whether other processes forked from this one count in the same table."""
        return self.lock_file is not None

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        if self.pid != os.getpid():  # a forked worker: a thread lock of its own
            self.pid, self.thread_lock, self.alive = os.getpid(), threading.Lock(), {}
        with self.thread_lock:
            if self.lock_file is None:
                yield
                return
            fcntl.lockf(self.lock_file, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.lockf(self.lock_file, fcntl.LOCK_UN)

    def _read(self, index: int) -> tuple[int, int, float, float]:
        key, owner, value, stamp, _ = SLOT.unpack_from(self.memory, index * SLOT.size)
        return key, owner, value, stamp

    def _write(self, index: int, key: int, owner: int, value: float, stamp: float) -> None:
        SLOT.pack_into(self.memory, index * SLOT.size, key, owner, value, stamp, 0)

    def _window(self, key: int) -> range:
        start = key % self.slots
        return range(start, start + WINDOW)

    def _index(self, position: int) -> int:
        return position % self.slots

    def _is_alive(self, pid: int, now: float) -> bool:
        if pid == os.getpid():
            return True
        seen = self.alive.get(pid)
        if seen is not None and now - seen[1] < 1.0:
            return seen[0]
        try:
            os.kill(pid, 0)
            alive = True
        except ProcessLookupError:
            alive = False
        except PermissionError:
            alive = True
        self.alive[pid] = (alive, now)
        return alive

    # -- rate buckets ---------------------------------------------------------------------

    def take(self, key: int, count: int, seconds: float) -> float:
        """Take one token of the bucket ``key`` (``count`` per ``seconds``, in bursts of up
        to ``count``); 0 when granted, else the seconds until one is there."""
        refill = count / seconds
        now = time.monotonic()
        with self.locked():
            free, oldest, oldest_stamp = None, None, float("inf")
            for position in self._window(key):
                index = self._index(position)
                slot_key, owner, tokens, stamp = self._read(index)
                if slot_key == key and owner == 0:
                    tokens = min(float(count), tokens + (now - stamp) * refill)
                    if tokens < 1:
                        self._write(index, key, 0, tokens, now)
                        return (1 - tokens) / refill
                    self._write(index, key, 0, tokens - 1, now)
                    return 0.0
                if slot_key == 0 and free is None:
                    free = index
                elif owner == 0 and slot_key != 0 and stamp < oldest_stamp:
                    oldest, oldest_stamp = index, stamp
            target = free if free is not None else oldest
            if target is not None:
                self._write(target, key, 0, float(count) - 1, now)
            return 0.0

    # -- stream counts --------------------------------------------------------------------

    def count(self, key: int) -> int:
        """Streams open under ``key`` in the live workers."""
        now = time.monotonic()
        with self.locked():
            return self._count(key, now)

    def _count(self, key: int, now: float) -> int:
        total = 0
        for position in self._window(key):
            slot_key, owner, value, _ = self._read(self._index(position))
            if slot_key == key and owner != 0 and self._is_alive(owner, now):
                total += int(value)
        return total

    def open(self, keys: list[tuple[int, int]]) -> int | None:
        """Count one more stream under each ``(key, limit)``, all or none: None when done,
        else the position in ``keys`` of the first whose limit is reached."""
        now = time.monotonic()
        with self.locked():
            for at, (key, limit) in enumerate(keys):
                if self._count(key, now) >= limit:
                    return at
            for key, _ in keys:
                self._add(key, 1, now)
            return None

    def close(self, keys: list[int]) -> None:
        """One stream fewer under each key (this worker's)."""
        now = time.monotonic()
        with self.locked():
            for key in keys:
                self._add(key, -1, now)

    def _add(self, key: int, step: int, now: float) -> None:
        pid = os.getpid()
        reusable = None
        for position in self._window(key):
            index = self._index(position)
            slot_key, owner, value, _ = self._read(index)
            if slot_key == key and owner == pid:
                self._write(index, key, pid, max(0.0, value + step), now)
                return
            if reusable is None and (
                slot_key == 0 or (owner != 0 and (value <= 0 or not self._is_alive(owner, now)))
            ):
                reusable = index
        if step <= 0:
            return
        if reusable is None:  # a window of rate buckets: the one counted longest ago goes
            reusable = min(
                (self._index(position) for position in self._window(key)),
                key=lambda index: self._read(index)[3] if self._read(index)[1] == 0 else 2e18,
            )
        self._write(reusable, key, pid, float(step), now)


def _lock_file() -> IO[bytes] | None:
    """An empty, already unlinked file to lock (in memory where /dev/shm exists)."""
    folder = SHARED_MEMORY if SHARED_MEMORY.is_dir() and os.access(SHARED_MEMORY, os.W_OK) else None
    try:
        return tempfile.TemporaryFile(prefix="nardy-referee-counters-", dir=folder)
    except OSError:
        return None
