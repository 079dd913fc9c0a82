"""kill -9 of the server mid-match loses no acknowledged action; after a restart the player
to act gets a fresh full time and the match goes on to a valid record (LIVE.md §4)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from tests.live.harness import Tokens, create, join_both, live_server, play_out, token_of
from tests.server import Server, stop


def _advance(server: Server, tokens: Tokens, state: dict[str, Any]) -> dict[str, Any]:
    """One acknowledged action: the first legal play, or a roll."""
    expect = state["expect"]
    action = {"action": "play", "play": state["legal_plays"][0]} if "play" in expect else {}
    action = action or {"action": "take" if "take" in expect else "roll"}
    status, _, body = server.request(
        "POST",
        f"/v1/live/{state['id']}/actions",
        {"ply": state["ply"], **action},
        token_of(tokens, state["to_act"]),
    )
    assert status == 200
    answer: dict[str, Any] = json.loads(body)
    return answer


def test_kill_nine_mid_match_then_the_match_goes_on(tmp_path: Path) -> None:
    database = tmp_path / "archive.sqlite3"
    tokens = Tokens.create(database)
    server = live_server(database)
    try:
        live_id = create(server, tokens, "backgammon", 3)["id"]
        state = join_both(server, tokens, live_id)
        for _ in range(6):
            state = _advance(server, tokens, state)
        acknowledged = state
    finally:
        stop(server, kill=True)

    time.sleep(1.1)  # the deadline has a resolution of one second
    server = live_server(database)
    try:
        after = server.json("GET", f"/v1/live/{live_id}")
        for key in ("ply", "position", "to_act", "expect", "dice", "score", "legal_plays"):
            assert after[key] == acknowledged[key]
        assert after["deadline"] > acknowledged["deadline"]  # a fresh full move_seconds
        final = play_out(server, tokens, live_id, seed=3)
        assert server.json("GET", f"/v1/matches/{final['match_id']}")["verdict"]["valid"]
        proof = server.json("GET", f"/v1/live/{live_id}/dice")
        from referee.live.dice import verify_proof

        assert verify_proof(proof, live_id) is None
    finally:
        stop(server)
