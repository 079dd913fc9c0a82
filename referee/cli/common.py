"""What the commands share: exit codes, the options argument, where the archive is (and
that a command that only reads never makes an empty one)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from notation.errors import NotationError
from notation.options import OptionValue, parse_rules_text
from referee.errors import NotFoundError

if TYPE_CHECKING:
    from referee.storage.stores import Storage

EXIT_OK, EXIT_INVALID, EXIT_BAD_INPUT = 0, 1, 2
EXIT_PIPE_CLOSED = 141
"""The reader of the output went away (``check ... | head``): the shell's code for SIGPIPE."""


class NoArchiveError(NotFoundError):
    """A command that only reads was pointed at a SQLite file that is not there."""

    code = "no_archive"


def rules_option(text: str) -> dict[str, OptionValue]:
    """``--rules k=v,k=v``: options of RULES.md §12.1."""
    try:
        return parse_rules_text(text)
    except NotationError as error:
        raise argparse.ArgumentTypeError(error.message) from None


def database_location(text: str) -> str:
    """``--database`` (or ``$NARDY_REFEREE_DATABASE``, its default): a location the storage
    can use, else a usage error (exit 2) saying why."""
    from referee.storage import StorageLocationError, sqlite_path

    try:
        sqlite_path(text)
    except StorageLocationError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def add_database(command: argparse.ArgumentParser, inherited: bool = False) -> None:
    """``--database``: the archive the command works on, by default the server's; on an
    action of a command that has it already (``inherited``), the same option again, so
    that it may come after the action too (by default, what the command was given)."""
    from referee.storage.location import archive_location, user_archive

    command.add_argument(
        "--database",
        type=database_location,
        default=argparse.SUPPRESS if inherited else archive_location(),
        help=f"the archive: a SQLite file or a postgresql:// URL (default: $NARDY_REFEREE_DATABASE,"
        f" else {user_archive()})",
    )


def storage_at(location: str, create: bool = False) -> Storage:
    """The storage at ``location``, migrated first when it must be; a SQLite file that is
    not there is made only when ``create`` (NoArchiveError otherwise: a command that only
    reads, run with the wrong archive, must say so rather than answer from an empty one)."""
    from referee.storage import backend_of, open_storage, prepare_storage  # when used

    if not create and backend_of(location) == "sqlite" and not Path(location).is_file():
        raise NoArchiveError(
            f"there is no archive at {location}: set $NARDY_REFEREE_DATABASE or --database"
            " to the server's archive (this command makes none)"
        )
    prepare_storage(location)
    return open_storage(location)
