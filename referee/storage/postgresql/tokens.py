"""API tokens in PostgreSQL: SQLite's columns (the SHA-256 of the secret, the first
characters to recognise it by, the scopes, when created and revoked) and queries."""

from __future__ import annotations

from referee.storage import queries
from referee.storage.model.tokens import IssuedToken, Token
from referee.storage.postgresql.database import Database, marked
from referee.storage.rows import token
from referee.storage.shared import new_secret, normal_name, secret_hash, timestamp


class PostgresTokens:
    """The token store."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def create(self, scopes: tuple[str, ...], name: str | None = None) -> IssuedToken:
        secret = new_secret()
        created = timestamp()
        name = None if name is None else normal_name(name)  # as entrants are (NFC)
        with self.database.writing() as connection:
            row = connection.execute(
                marked(queries.TOKEN_CREATE) + " RETURNING id",
                [name, secret[:8], secret_hash(secret), " ".join(scopes), created],
            ).fetchone()
        assert row is not None
        return IssuedToken(Token(row["id"], name, secret[:8], scopes, created, None), secret)

    def all(self) -> list[Token]:
        return [token(row) for row in self.database.rows(queries.TOKENS_ALL)]

    def revoke(self, token_id: int) -> bool:
        with self.database.writing() as connection:
            revoked = connection.execute(marked(queries.TOKEN_REVOKE), [timestamp(), token_id])
            return revoked.rowcount == 1

    def holder(self, secret: str) -> Token | None:
        row = self.database.row(marked(queries.TOKEN_HOLDER), [secret_hash(secret)])
        return None if row is None else token(row)
