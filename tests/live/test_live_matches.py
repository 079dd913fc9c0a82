"""Whole live matches between two reference bots through a real gunicorn (LIVE.md)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from referee.live.dice import verify_proof
from tests.live.harness import Tokens, create, play_out
from tests.server import Server

VARIANTS = [
    ("backgammon", 3, {}),
    ("backgammon", 0, {"beavers": True, "auto_doubles": 1}),
    ("long-nardy", 0, {"draw_rule": True, "head_exception": "only_if_needed"}),
    ("khachapuri", 0, {"block_timing": "end_of_turn"}),
]


@pytest.mark.parametrize(("variant", "length", "options"), VARIANTS)
def test_a_whole_match_is_played_stored_valid_and_provable(
    setup: tuple[Server, Tokens], variant: str, length: int, options: dict[str, object]
) -> None:
    server, tokens = setup
    live_id = create(server, tokens, variant, length, options=options)["id"]
    final = play_out(server, tokens, live_id, seed=live_id)

    assert final["server_seed"] is not None and final["expect"] == []
    if length:
        assert final["score"]["wb".index(final["winner"])] >= length
    stored = server.json("GET", f"/v1/matches/{final['match_id']}")
    assert stored["verdict"]["valid"] is True
    assert stored["variant"] == variant and stored["players"] == ["alice", "bob"]
    assert len(stored["verdict"]["games"]) == len(final["games"])
    _, _, original = server.request("GET", f"/v1/matches/{final['match_id']}", accept="text/plain")
    text = original.decode()
    assert '; [DiceAlgorithm "hmac-sha256-v1"]' in text
    assert f'; [DiceSeed "{final["server_seed"]}"]' in text
    assert '; [ClientSeeds "w=alice,b=bob"]' in text
    listed = server.json("GET", "/v1/matches?player=alice&limit=500")["matches"]
    assert final["match_id"] in [match["id"] for match in listed]
    replay = server.json("GET", f"/v1/matches/{final['match_id']}/games/1/replay")
    assert replay["actions"] and all("error" not in action for action in replay["actions"])

    proof = server.json("GET", f"/v1/live/{live_id}/dice")
    assert verify_proof(proof, live_id) is None
    assert [throw["k"] for throw in proof["throws"]] == list(range(1, len(proof["throws"]) + 1))
    assert proof["throws"][0]["use"] == "opening"


def test_the_stream_sends_every_change_and_ends_after_the_abort(
    setup: tuple[Server, Tokens],
) -> None:
    server, tokens = setup
    live_id = create(server, tokens, "long-nardy")["id"]
    lines: list[str] = []

    def follow() -> None:
        _, headers, body = server.request("GET", f"/v1/live/{live_id}/stream")
        assert headers["Content-Type"] == "application/x-ndjson"
        lines.extend(body.decode().splitlines())

    reader = threading.Thread(target=follow)
    reader.start()
    time.sleep(0.5)  # let the stream send the waiting state before anything changes
    server.json("POST", f"/v1/live/{live_id}/join", {"seed": "s1"}, tokens.alice)
    time.sleep(0.5)
    server.json("POST", f"/v1/live/{live_id}/abort", None, tokens.host)
    reader.join(timeout=30)
    states = [json.loads(line) for line in lines if line.strip()]
    assert [state["status"] for state in states] == ["waiting", "waiting", "aborted"]
    assert [state["joined"]["w"] for state in states] == [False, True, True]
    assert states[-1]["server_seed"] is not None


def test_verify_dice_command_accepts_a_url_and_refuses_a_tampered_file(
    setup: tuple[Server, Tokens], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from referee.cli import main

    server, tokens = setup
    live_id = create(server, tokens, "khachapuri")["id"]
    play_out(server, tokens, live_id, seed=11)
    url = f"{server.base}/v1/live/{live_id}/dice"
    assert main(["verify-dice", url]) == 0
    proof = server.json("GET", f"/v1/live/{live_id}/dice")
    proof["throws"][2]["dice"] = [7 - proof["throws"][2]["dice"][0], proof["throws"][2]["dice"][1]]
    tampered = tmp_path / "proof.json"
    tampered.write_text(json.dumps(proof))
    assert main(["verify-dice", str(tampered)]) == 1
    assert "throw 3" in capsys.readouterr().err


def test_the_example_bot_plays_a_whole_match(setup: tuple[Server, Tokens]) -> None:
    server, tokens = setup
    live_id = create(server, tokens, "khachapuri")["id"]
    url = f"{server.base}/v1/live/{live_id}"
    example = Path(__file__).resolve().parents[2] / "examples" / "live_bot.py"
    bots = [
        subprocess.Popen(
            [sys.executable, str(example), url, token, seed],
            stdout=subprocess.PIPE,
            text=True,
        )
        for token, seed in ((tokens.alice, "a1"), (tokens.bob, "b2"))
    ]
    outputs = [bot.communicate(timeout=120)[0] for bot in bots]
    assert [bot.returncode for bot in bots] == [0, 0]
    final = server.json("GET", f"/v1/live/{live_id}")
    assert final["status"] == "finished" and final["client_seeds"] == {"w": "a1", "b": "b2"}
    assert all(output.startswith("finished: winner ") for output in outputs)
    assert server.json("GET", f"/v1/matches/{final['match_id']}")["verdict"]["valid"]


def test_the_bot_command_plays_and_reports_the_result(
    setup: tuple[Server, Tokens], capsys: pytest.CaptureFixture[str]
) -> None:
    from referee.cli import main

    server, tokens = setup
    live_id = create(server, tokens, "long-nardy")["id"]
    url = f"{server.base}/v1/live/{live_id}"
    codes: list[int] = []
    bots = [
        threading.Thread(
            target=lambda t=token: codes.append(main(["bot", "--url", url, "--token", t]))
        )
        for token in (tokens.alice, tokens.bob)
    ]
    for bot in bots:
        bot.start()
    for bot in bots:
        bot.join(timeout=120)
    assert codes == [0, 0]
    reports = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [report["status"] for report in reports] == ["finished", "finished"]
    assert main(["bot", "--url", url, "--token", tokens.mallory]) == 2
