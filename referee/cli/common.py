"""What the commands share: exit codes, the options argument, where the archive is."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from notation.errors import NotationError
from notation.options import OptionValue, parse_rules_text

if TYPE_CHECKING:
    from referee.storage.stores import Storage

EXIT_OK, EXIT_INVALID, EXIT_BAD_INPUT = 0, 1, 2
EXIT_PIPE_CLOSED = 141
"""The reader of the output went away (``check ... | head``): the shell's code for SIGPIPE."""
DEFAULT_DATABASE = "var/referee.sqlite3"


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


def add_database(command: argparse.ArgumentParser) -> None:
    """``--database``: the archive the command works on."""
    command.add_argument(
        "--database",
        type=database_location,
        default=os.environ.get("NARDY_REFEREE_DATABASE", DEFAULT_DATABASE),
        help="the archive file (default: $NARDY_REFEREE_DATABASE or var/referee.sqlite3)",
    )


def storage_at(location: str) -> Storage:
    """The storage at ``location``, created and migrated first when it must be."""
    from referee.storage import open_storage, prepare_storage  # for the commands that use it

    prepare_storage(location)
    return open_storage(location)
