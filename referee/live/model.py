"""A live match as the service reads it from storage: its players, dice seeds, status,
version and table."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from referee.live.codec import table_json
from referee.live.table import Table
from referee.storage.model.live import LiveProgress, StoredLive
from referee.storage.model.tokens import Token


class Status(StrEnum):
    """Where a live match stands (LIVE.md §3)."""

    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"
    ABORTED = "aborted"


@dataclass(slots=True)
class LiveMatch:
    """A live match as read from the archive."""

    ENDED: ClassVar[frozenset[str]] = frozenset({Status.FINISHED, Status.ABORTED})

    id: int
    players: dict[str, str]
    move_seconds: int
    host_token_id: int | None
    server_seed: str
    commitment: str
    seeds: dict[str, str | None]
    status: str
    ply: int
    version: int
    throws: int
    deadline: float | None
    table: Table
    match_id: int | None
    created_at: str
    dice_id: int = 0
    """Whose dice the match throws: its own id, or the first match's of its mirrored pair."""
    mirrored: bool = False
    """A match of a mirrored pair (EVENTS.md §7): no client seeds in its dice."""
    join_seconds: int | None = None
    """How long the bots have to join (None: the match waits for them)."""
    clock: tuple[int, int] | None = None
    """The backgammon clock (EVENTS.md §12): each player's reserve at the start and the
    delay per decision, in seconds (None: ``move_seconds`` per decision)."""
    reserves: dict[str, float] | None = None
    """The clock's reserves by side as the current decision began."""
    turn_seconds: float | None = None
    """The full time of what the match awaits now (None: ``move_seconds``)."""

    @classmethod
    def from_stored(cls, stored: StoredLive, table: Table) -> LiveMatch:
        """The match as stored, at ``table`` (its stored state, loaded)."""
        setup, progress = stored.setup, stored.progress
        return cls(
            id=stored.id,
            players={"w": setup.players[0], "b": setup.players[1]},
            move_seconds=setup.move_seconds,
            host_token_id=setup.host_token_id,
            server_seed=setup.server_seed,
            commitment=setup.commitment,
            seeds={"w": progress.seeds[0], "b": progress.seeds[1]},
            status=progress.status,
            ply=progress.ply,
            version=stored.version,
            throws=progress.throws,
            deadline=progress.deadline,
            table=table,
            match_id=stored.match_id,
            created_at=stored.created_at,
            dice_id=setup.dice_id or stored.id,
            mirrored=setup.mirrored,
            join_seconds=setup.join_seconds,
            clock=None if setup.reserve is None else (setup.reserve, setup.delay or 0),
            reserves=None
            if progress.reserves is None
            else {"w": progress.reserves[0], "b": progress.reserves[1]},
            turn_seconds=progress.turn_seconds,
        )

    def progress(self) -> LiveProgress:
        """Where the match stands now, as a change saves it (the table's state only when
        it changed)."""
        return LiveProgress(
            status=self.status,
            ply=self.ply,
            seeds=(self.seeds["w"], self.seeds["b"]),
            deadline=self.deadline,
            state=table_json(self.table) if self.table.changed else None,
            throws=self.throws,
            reserves=None if self.reserves is None else (self.reserves["w"], self.reserves["b"]),
            turn_seconds=self.turn_seconds,
        )

    @property
    def client_seeds(self) -> dict[str, str]:
        """The client seeds the dice use: as the bots sent them, none in a mirrored pair."""
        return {side: "" if self.mirrored else seed or "" for side, seed in self.seeds.items()}

    def sides_of(self, caller: Token) -> set[str]:
        return {side for side, name in self.players.items() if name == caller.name}

    @property
    def ended(self) -> bool:
        return self.status in self.ENDED
