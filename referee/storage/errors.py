"""The errors of storage that are no answer to a client (``referee.errors`` holds those:
``ArchiveBusyError``, ``NotReadyError``)."""

from __future__ import annotations


class LiveConflictError(Exception):
    """The live match changed since it was read: read it again."""


class StorageError(RuntimeError):
    """Storage failed in a way a retry will not mend (a broken file, a bug): the request
    fails (500, logged with the driver's error as the cause)."""
