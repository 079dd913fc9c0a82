"""``nardy-referee ratings --recompute``: the ratings made anew from the archive are the
ones the service computed as the events went (every name, variant and history step), an
unrated event and an award counting for neither."""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee.cli import main
from tests.events.records import played_record
from tests.events.support import Site


def served(site: Site) -> dict[str, Any]:
    """Every rating the API serves now, with its history."""
    found = {}
    for row in site.client.get("/v1/ratings").get_json():
        path = f"/v1/ratings/{row['name']}?variant={row['variant']}"
        found[(row["variant"], row["name"])] = site.client.get(path).get_json()
    return found


def records_event(site: Site, variant: str, award_last: bool, seed: int) -> dict[str, Any]:
    """A records round robin of three, every pairing a played record (the last one
    awarded instead when ``award_last``)."""
    body = {"format": "round-robin", "kind": "records", "entrants": ["Ann", "Bob", "Cy"]}
    event = site.start(site.create(variant=variant, length=3, **body)["id"])
    while event["status"] == "running":
        number = event["round"]
        for pairing in event["rounds_played"][-1]["pairings"]:
            seed += 1
            path = f"/v1/events/{event['id']}/rounds/{number}/pairings/{pairing['table']}"
            if award_last and number == event["rounds"]:
                answer = site.client.post(
                    f"{path}/result", json={"winner": "w", "reason": "no show"}, headers=site.auth()
                )
            else:
                record = played_record(pairing["w"], pairing["b"], 3, seed, variant)
                answer = site.client.post(
                    f"{path}/record", json={"record": record}, headers=site.auth()
                )
            assert answer.status_code == 200, answer.get_json()
        event = site.event(event["id"])
    return event


def recompute(site: Site, capsys: pytest.CaptureFixture[str], *more: str) -> tuple[str, str]:
    database = site.app.config["DATABASE"]
    assert main(["ratings", "--recompute", "--database", database, *more]) == 0
    out, err = capsys.readouterr()
    return out, err


def test_recomputed_ratings_are_the_live_ones(
    site: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    swiss = site.create(
        format="swiss", rounds=3, kind="bots", entrants=["b1", "b2", "b3", "b4", "b5"]
    )
    swiss = site.play_out(site.start(swiss["id"])["id"], seed=1)
    mirrored = site.create(format="round-robin", mirrored=True, kind="bots", length=3,
                           entrants=["b1", "b2", "b3", "b4"])  # fmt: skip
    site.play_out(site.start(mirrored["id"])["id"], seed=20)
    unrated = site.create(format="knockout", kind="bots", rated=False, entrants=["b1", "b5"])
    site.play_out(site.start(unrated["id"])["id"], seed=40)
    records_event(site, "backgammon", award_last=True, seed=60)
    records_event(site, "long-nardy", award_last=False, seed=80)
    live = served(site)
    assert {variant for variant, _ in live} == {"backgammon", "long-nardy"}
    swiss_matches = sum(
        "b1" in (p["w"], p["b"]) for r in swiss["rounds_played"] for p in r["pairings"]
    )
    assert live[("backgammon", "b1")]["matches"] == swiss_matches + 6  # not the knockout

    # Nothing to change: the ledger and the ratings are the archive's.
    out, err = recompute(site, capsys)
    assert err.splitlines()[-1].endswith(" 0 rating(s) changed")
    header, *rows = out.splitlines()
    assert header.split("\t") == ["variant", "name", "rating", "experience", "matches"]
    assert len(rows) == len(live)

    # Ratings lost (say, a restore of the archive without them): made again.
    site.storage.ratings.replace_ledger([])
    assert site.client.get("/v1/ratings").get_json() == []
    out, err = recompute(site, capsys, "--json")
    assert err.splitlines()[-1].endswith(f" {len(live)} rating(s) changed")
    assert served(site) == live
    assert json.loads(out) == [
        {key: one[key] for key in ("name", "variant", "rating", "experience", "matches")}
        for one in live.values()
    ]
