"""API tokens, on every backend: the SHA-256 of the secret, the first characters to
recognise it by, the scopes (space-separated), when created and revoked."""

from __future__ import annotations

from referee.storage.model.tokens import IssuedToken, Token
from referee.storage.shared import new_secret, normal_name, secret_hash, timestamp
from referee.storage.sql import Database, Row

COLUMNS = "id, name, prefix, scopes, created_at, revoked_at"


class Tokens:
    """The token store."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def create(self, scopes: tuple[str, ...], name: str | None = None) -> IssuedToken:
        secret = new_secret()
        created = timestamp()
        name = None if name is None else normal_name(name)  # as entrants are (NFC)
        with self.database.writing() as tx:
            token_id = tx.insert(
                "INSERT INTO tokens (name, prefix, token_hash, scopes, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (name, secret[:8], secret_hash(secret), " ".join(scopes), created),
            )
        return IssuedToken(Token(token_id, name, secret[:8], scopes, created, None), secret)

    def all(self) -> list[Token]:
        return [
            token(row) for row in self.database.rows(f"SELECT {COLUMNS} FROM tokens ORDER BY id")
        ]

    def revoke(self, token_id: int) -> bool:
        with self.database.writing() as tx:
            revoked = tx.execute(
                "UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                (timestamp(), token_id),
            )
        return revoked == 1

    def holder(self, secret: str) -> Token | None:
        row = self.database.row(
            f"SELECT {COLUMNS} FROM tokens WHERE token_hash = ? AND revoked_at IS NULL",
            [secret_hash(secret)],
        )
        return None if row is None else token(row)


def token(row: Row) -> Token:
    return Token(
        id=row["id"],
        name=None if row["name"] is None else normal_name(row["name"]),  # one stored before NFC
        prefix=row["prefix"],
        scopes=tuple(row["scopes"].split()),
        created_at=row["created_at"],
        revoked_at=row["revoked_at"],
    )
