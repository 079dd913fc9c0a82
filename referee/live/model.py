"""A live match as the service reads it from storage: its players, dice seeds, status,
version and table."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from referee.live.codec import table_from_json
from referee.live.table import Table
from referee.storage.sqlite import Token


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

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> LiveMatch:
        return cls(
            id=row["id"],
            players={"w": row["white"], "b": row["black"]},
            move_seconds=row["move_seconds"],
            host_token_id=row["host_token_id"],
            server_seed=row["server_seed"],
            commitment=row["commitment"],
            seeds={"w": row["seed_w"], "b": row["seed_b"]},
            status=row["status"],
            ply=row["ply"],
            version=row["version"],
            throws=row["throws"],
            deadline=row["deadline"],
            table=table_from_json(json.loads(row["state"])),
            match_id=row["match_id"],
            created_at=row["created_at"],
        )

    def sides_of(self, caller: Token) -> set[str]:
        return {side for side, name in self.players.items() if name == caller.name}

    @property
    def ended(self) -> bool:
        return self.status in self.ENDED
