"""``nardy-referee tokens``: create prints the secret once, list never shows it, revoke
works once, and the archive keeps only a hash of it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from referee.app import create_app
from referee.cli import main
from referee.storage import open_storage

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "backgammon_match.mat"


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "tokens.sqlite3"


def tokens(database: Path, *args: str) -> int:
    return main(["tokens", "--database", str(database), *args])


def create(database: Path, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Create a token; the secret is the one line on stdout."""
    capsys.readouterr()
    assert tokens(database, "create", *args) == 0
    out, err = capsys.readouterr()
    secret = out.strip()
    assert secret and "\n" not in secret and " " not in secret
    assert out.count(secret) == 1
    assert secret not in err
    return secret


def listed(database: Path, capsys: pytest.CaptureFixture[str]) -> list[list[str]]:
    """The rows of ``tokens list`` under its header line, split on tabs."""
    capsys.readouterr()
    assert tokens(database, "list") == 0
    out, _ = capsys.readouterr()
    header, *rows = [line.split("\t") for line in out.splitlines() if line.strip()]
    assert header == ["id", "prefix", "scopes", "name", "state"]
    return rows


def scopes_of(database: Path, secret: str) -> tuple[str, ...] | None:
    storage = open_storage(database)
    try:
        holder = storage.tokens.holder(secret)
    finally:
        storage.close()
    return None if holder is None else holder.scopes


def database_bytes(database: Path) -> bytes:
    """The archive file and its WAL and shared-memory files, as they are on disk."""
    return b"".join(path.read_bytes() for path in database.parent.glob(database.name + "*"))


def test_create_prints_the_secret_once(database: Path, capsys: pytest.CaptureFixture[str]) -> None:
    secret = create(database, capsys, "--scope", "archive:write", "--name", "ci")
    assert len(secret) >= 32
    assert scopes_of(database, secret) == ("archive:write",)


def test_each_token_has_its_own_secret(database: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = create(database, capsys, "--scope", "archive:write")
    second = create(database, capsys, "--scope", "archive:write")
    assert first != second


def test_list_shows_everything_but_the_secret(
    database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    writer = create(database, capsys, "--scope", "archive:write", "--name", "ci")
    reader = create(
        database, capsys, "--scope", "archive:read", "--scope", "archive:write", "--name", "bot"
    )
    capsys.readouterr()
    assert tokens(database, "list") == 0
    out, err = capsys.readouterr()
    assert writer not in out + err and reader not in out + err
    rows = listed(database, capsys)
    assert len(rows) == 2
    for row, secret, name, scopes in (
        (rows[0], writer, "ci", {"archive:write"}),
        (rows[1], reader, "bot", {"archive:read", "archive:write"}),
    ):
        text = " ".join(row)
        assert row[0].strip().isdigit()  # the id
        prefixes = [cell.strip().rstrip("…") for cell in row[1:]]
        assert any(p and secret.startswith(p) and len(p) < len(secret) for p in prefixes)
        assert scopes <= set(text.split())
        assert name in row
        assert "active" in text and "revoked" not in text


def test_revoke(database: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kept = create(database, capsys, "--scope", "archive:write", "--name", "kept")
    gone = create(database, capsys, "--scope", "archive:write", "--name", "gone")
    (gone_id,) = [row[0].strip() for row in listed(database, capsys) if "gone" in row]

    assert tokens(database, "revoke", gone_id) == 0
    assert scopes_of(database, gone) is None
    assert scopes_of(database, kept) == ("archive:write",)
    states = {row[3]: " ".join(row[4:]) for row in listed(database, capsys)}
    assert "revoked" in states["gone"]
    assert "active" in states["kept"] and "revoked" not in states["kept"]

    capsys.readouterr()
    assert tokens(database, "revoke", gone_id) == 1  # revoking again
    assert tokens(database, "revoke", "9999") == 1  # no such token
    out, _ = capsys.readouterr()
    assert gone not in out


def test_only_a_hash_is_stored(database: Path, capsys: pytest.CaptureFixture[str]) -> None:
    secret = create(database, capsys, "--scope", "archive:write", "--name", "ci")
    assert secret.encode() not in database_bytes(database)
    with sqlite3.connect(database) as connection:
        rows = connection.execute("SELECT * FROM tokens").fetchall()
        names = [column[1] for column in connection.execute("PRAGMA table_info(tokens)")]
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert len(rows) == 1
    row = dict(zip(names, rows[0], strict=True))
    for value in row.values():
        assert not (isinstance(value, str) and secret in value)
    assert row["token_hash"] != secret
    assert secret.encode() not in database_bytes(database)  # after the WAL checkpoint too


def test_an_unknown_scope_is_refused(database: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        tokens(database, "create", "--scope", "archive:owner")
    assert exit_info.value.code == 2


def test_a_created_token_authorizes_writes_until_revoked(
    database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = create(database, capsys, "--scope", "archive:write", "--name", "ci")
    client = create_app({"DATABASE": str(database)}).test_client()
    headers = {"Authorization": f"Bearer {secret}"}
    record = EXAMPLE.read_text()
    created = client.post("/v1/matches", json={"record": record}, headers=headers)
    assert created.status_code == 201
    (token_id,) = [row[0].strip() for row in listed(database, capsys)]
    assert tokens(database, "revoke", token_id) == 0
    refused = client.post("/v1/matches", json={"record": record}, headers=headers)
    assert refused.status_code == 401
    assert refused.mimetype == "application/problem+json"
    assert refused.get_json()["code"] == "unauthorized"


def test_play_and_live_host_tokens_are_created_with_their_scopes(
    database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bot = create(database, capsys, "--scope", "play", "--name", "gnubot")
    host = create(database, capsys, "--scope", "live:host", "--name", "director")
    assert scopes_of(database, bot) == ("play",)
    storage = open_storage(database)
    try:
        holder = storage.tokens.holder(host)
        assert holder is not None and (holder.name, holder.scopes) == ("director", ("live:host",))
    finally:
        storage.close()
    rows = listed(database, capsys)
    assert [row[2] for row in rows] == ["play", "live:host"]
