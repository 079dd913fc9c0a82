"""With NARDY_REFEREE_PRIVATE=1 reading a live match needs a token: any of the service's
(archive:read or archive:write, play, live:host); without private mode, none."""

from __future__ import annotations

from pathlib import Path

from flask import Flask

from referee.app import create_app
from tests.server import write_token


def _app_and_token(tmp_path: Path, private: bool, scope: str) -> tuple[Flask, str]:
    database = tmp_path / "private.sqlite3"
    app = create_app({"DATABASE": str(database), "PRIVATE": private})
    return app, write_token(database, "alice", scope)


def test_private_reads_need_a_token_of_the_service(tmp_path: Path) -> None:
    app, token = _app_and_token(tmp_path, True, "play")
    client = app.test_client()
    for path in ("/v1/live/1", "/v1/live/1/dice", "/v1/live/1/stream"):
        assert client.get(path).status_code == 401
        assert client.get(path, headers={"Authorization": f"Bearer {token}"}).status_code == 404


def test_public_reads_need_no_token(tmp_path: Path) -> None:
    app, _ = _app_and_token(tmp_path, False, "play")
    assert app.test_client().get("/v1/live/1").status_code == 404
