"""What the live store takes and gives: a live match's setup and progress, its throws, a
change of it, the match as stored and what a stream watches of it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.storage.model.matches import NewMatch


@dataclass(frozen=True, slots=True)
class LiveSetup:
    """What a live match is from its creation on, never changed: the variant, the
    players (white, black), the clock and the committed server seed; a match of a
    mirrored pair (EVENTS.md §7) throws the dice of live match ``dice_id`` (None: its
    own) without client seeds."""

    variant: str
    length: int
    options: dict[str, Any]
    players: tuple[str, str]
    move_seconds: int
    host_token_id: int | None
    server_seed: str
    commitment: str
    dice_id: int | None = None
    mirrored: bool = False
    join_seconds: int | None = None
    """How long the bots have to join (EVENTS.md §12; None: the match waits for them)."""
    reserve: int | None = None
    """The backgammon clock's reserve of each player at the start, in seconds (None: no
    clock, each decision has ``move_seconds``), and its delay per decision."""
    delay: int | None = None


@dataclass(frozen=True, slots=True)
class LiveProgress:
    """Where a live match stands, written by every change: its status, ply, the bots'
    seeds (white, black; None until joined), deadline, throws made, and its table's
    compact state (a size that does not grow with the match; None in a change that left
    the table as it was)."""

    status: str
    ply: int
    seeds: tuple[str | None, str | None]
    deadline: float | None
    state: dict[str, Any] | None
    throws: int
    reserves: tuple[float, float] | None = None
    """The clock's reserves (white's, black's) as the current decision began (None: no
    clock)."""
    turn_seconds: float | None = None
    """The full time of what the match awaits now (a decision, or the bots' joining): what
    a restart gives again from its start (None: ``move_seconds``)."""


@dataclass(frozen=True, slots=True)
class Throw:
    """One throw of a live match's dice, as its proof lists it."""

    k: int
    dice: tuple[int, int]
    game: int
    use: str


@dataclass(frozen=True, slots=True)
class LiveChange:
    """A change of the live match ``live_id`` read at ``version``: where it stands now,
    the throws it made and, when it has finished, its record."""

    live_id: int
    version: int
    progress: LiveProgress
    new_throws: tuple[Throw, ...]
    record: NewMatch | None = None
    entries: tuple[dict[str, Any], ...] = ()
    """What the change adds to the match's log: the entries of its record, in order."""
    state_text: str | None = None
    """``progress.state`` as the JSON text to store (``json.dumps`` of it) when the caller
    has made it already (None: the store makes it): the live service finds the tables it
    keeps by the text stored (``LiveStore.get_encoded``)."""


@dataclass(frozen=True, slots=True)
class StoredLive:
    """A live match as stored: its setup, its progress (with the state as the last change
    left it), the ``version`` every change bumps, and the stored record's id once it has
    finished."""

    id: int
    setup: LiveSetup
    progress: LiveProgress
    version: int
    match_id: int | None
    created_at: str
    updated_at: str


@dataclass(frozen=True, slots=True)
class LiveVersion:
    """What a stream watches of a live match: its version and deadline."""

    version: int
    deadline: float | None
