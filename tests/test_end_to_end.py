"""End to end through real gunicorn (2 workers): import → search → replay → export →
re-check, and the export is the record that was imported."""

from __future__ import annotations

import hashlib
import itertools
import json
from pathlib import Path

from tests.corpus import MAT, require
from tests.server import running, write_token

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_import_search_replay_export_recheck(tmp_path: Path) -> None:
    database = tmp_path / "archive.sqlite3"
    record = require(MAT / "galaxy_match11696104_7pt.mat").read_text()
    nardy = (EXAMPLES / "long_nardy_match.mat").read_text()
    with running(database, workers=2) as server:  # on a new file: the server creates it
        token = write_token(database, "e2e")
        imported = server.json(
            "POST", "/v1/matches/import", [record, {"record": nardy}], token=token
        )
        results = imported["results"]
        assert [result["status"] for result in results] == ["created", "created"]
        match_id = results[0]["id"]

        found = server.json("GET", "/v1/matches?player=lasse")
        assert [match["id"] for match in found["matches"]] == [match_id]
        assert (
            server.json("GET", "/v1/matches?variant=long-nardy")["matches"][0]["id"]
            == (results[1]["id"])
        )

        replay = server.json("GET", f"/v1/matches/{match_id}/games/1/replay")
        actions = replay["actions"]
        assert actions[0]["position_before"].startswith("backgammon 2b,,,,,5w,,3w")
        for before, after in itertools.pairwise(actions):
            assert after["position_before"] == before["position_after"]

        status, headers, original = server.request(
            "GET", f"/v1/matches/{match_id}", accept="text/plain"
        )
        assert status == 200 and headers["Content-Type"].startswith("text/plain")
        assert original.decode() == record
        status, _, canonical = server.request("GET", f"/v1/matches/{match_id}?format=canonical")
        assert hashlib.sha256(canonical).hexdigest() == results[0]["sha256"]

        again = server.json("POST", "/v1/matches", {"record": canonical.decode()}, token=token)
        assert again["duplicate"] is True and again["id"] == match_id

        stored = server.json("GET", f"/v1/matches/{match_id}")
        rechecked = server.json("POST", f"/v1/matches/{match_id}/check", {"mode": "condone"})
        assert rechecked["valid"] is True and rechecked["mode"] == "condone"
        assert [g["points"] for g in rechecked["games"]] == [
            g["points"] for g in stored["verdict"]["games"]
        ]
        assert json.loads(json.dumps(stored["verdict"]))["mode"] == "strict"
    assert token not in server.log.read_text()
