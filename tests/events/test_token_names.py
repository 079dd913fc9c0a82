"""Token names in one Unicode spelling (NFC), as entrants are: a bot whose token was
created with its name decomposed (NFD) is entered, announced and plays under it, and
ratings are kept under the composed name ``GET /v1/ratings/{name}`` reads."""

from __future__ import annotations

import random
import unicodedata
from dataclasses import replace
from urllib.parse import quote

from referee.events import service
from referee.live import service as live
from referee.storage.tokens import token
from tests.events.records import played_record
from tests.events.support import Site

COMPOSED, DECOMPOSED = "Zo\u00eb", "Zoe\u0308"  # one name, two spellings


def test_a_token_name_is_stored_composed(site: Site) -> None:
    issued = site.storage.tokens.create(("play",), DECOMPOSED)
    assert issued.token.name == COMPOSED
    holder = site.storage.tokens.holder(issued.secret)
    assert holder is not None and holder.name == COMPOSED
    assert COMPOSED in [t.name for t in site.storage.tokens.all()]


def test_a_token_stored_decomposed_before_reads_composed() -> None:
    row = {"id": 1, "name": DECOMPOSED, "prefix": "nrt_abcd", "scopes": "play"}
    found = token({**row, "created_at": "2026-12-01T00:00:00+00:00", "revoked_at": None})
    assert found.name == COMPOSED


def test_a_bot_named_decomposed_is_entered_announced_and_plays(site: Site) -> None:
    issued = site.storage.tokens.create(("play",), DECOMPOSED)
    bots = {**site.bots, COMPOSED: issued.token}
    for spelling in (DECOMPOSED, COMPOSED):
        body = {"format": "round-robin", "kind": "bots", "entrants": [spelling, "b1"]}
        answer = site.client.post(
            "/v1/events", json={"name": "n", "variant": "backgammon", "length": 1, **body},
            headers=site.auth(),
        )  # fmt: skip
        assert answer.status_code == 201, answer.get_json()
    event = site.start(answer.get_json()["id"])
    holder = site.storage.tokens.holder(issued.secret)
    assert holder is not None
    [announced] = site.storage.events.announced(holder.name or "")
    [live_id] = event["rounds_played"][0]["pairings"][0]["live_ids"]
    assert announced.live_id == live_id
    rng = random.Random(3)
    state = live.state(site.storage, live_id)
    players = state["players"]
    live.join(site.storage, live_id, bots[players["w"]], "w-seed")
    state = live.join(site.storage, live_id, bots[players["b"]], "")
    while state["status"] == "playing":
        bot = bots[players[state["to_act"]]]
        action = "play" if "play" in state["expect"] else "roll"
        details = {"play": rng.choice(state["legal_plays"])} if action == "play" else {}
        state = live.act(site.storage, live_id, bot, state["ply"], action, details)
    assert site.event(event["id"])["status"] == "finished"
    for spelling in (COMPOSED, DECOMPOSED):
        rating = site.client.get(f"/v1/ratings/{quote(spelling)}?variant=backgammon")
        assert rating.status_code == 200, rating.get_json()
        assert rating.get_json()["name"] == COMPOSED


def test_ratings_are_kept_under_the_composed_name(site: Site) -> None:
    """An event stored with an entrant decomposed (before entrants were normalised): the
    rating is kept under the composed name, which either spelling of the path finds."""
    body = {"format": "round-robin", "kind": "records", "entrants": [COMPOSED, "Bob"]}
    made = site.create(**body)
    stored = service.load(site.storage, made["id"])
    old = site.storage.events.create(replace(stored.setup, entrants=(DECOMPOSED, "Bob")))
    event = site.start(old)
    pairing = event["rounds_played"][0]["pairings"][0]
    assert not unicodedata.is_normalized("NFC", pairing["w"] + pairing["b"])
    path = f"/v1/events/{old}/rounds/1/pairings/1/record"
    record = played_record(pairing["w"], pairing["b"], 1, seed=5)
    answer = site.client.post(path, json={"record": record}, headers=site.auth())
    assert answer.get_json()["pairing"]["status"] == "finished", answer.get_json()
    for spelling in (COMPOSED, DECOMPOSED):
        rating = site.client.get(f"/v1/ratings/{quote(spelling)}?variant=backgammon")
        assert rating.status_code == 200, rating.get_json()
        assert len(rating.get_json()["history"]) == 1
