"""API tokens: created with a secret shown once, found by it, listed, revoked."""

from __future__ import annotations

from referee.storage.stores import Storage


def test_a_created_token_is_found_by_its_secret(storage: Storage) -> None:
    issued = storage.tokens.create(("archive:write", "play"), "bot")
    token = issued.token
    assert (token.name, token.scopes, token.revoked_at) == ("bot", ("archive:write", "play"), None)
    assert issued.secret.startswith(token.prefix) and len(issued.secret) >= 32
    assert token.created_at
    assert storage.tokens.holder(issued.secret) == token


def test_an_unknown_secret_holds_nothing(storage: Storage) -> None:
    issued = storage.tokens.create(("play",))
    assert storage.tokens.holder(issued.secret + "x") is None
    assert storage.tokens.holder("") is None
    assert issued.token.name is None


def test_every_token_has_its_own_secret(storage: Storage) -> None:
    secrets = {storage.tokens.create(("play",), "same").secret for _ in range(5)}
    assert len(secrets) == 5


def test_all_lists_every_token_by_id_revoked_ones_too(storage: Storage) -> None:
    first = storage.tokens.create(("play",), "a").token
    second = storage.tokens.create(("live:host",), "b").token
    assert storage.tokens.revoke(first.id)
    listed = storage.tokens.all()
    assert [token.id for token in listed] == [first.id, second.id]
    assert listed[0].revoked_at is not None and listed[1] == second


def test_a_revoked_token_holds_nothing_and_is_revoked_once(storage: Storage) -> None:
    issued = storage.tokens.create(("archive:write",), "ci")
    assert storage.tokens.revoke(issued.token.id)
    assert storage.tokens.holder(issued.secret) is None
    assert not storage.tokens.revoke(issued.token.id)
    assert not storage.tokens.revoke(issued.token.id + 100)


def test_no_tokens_at_first(storage: Storage) -> None:
    assert storage.tokens.all() == []
