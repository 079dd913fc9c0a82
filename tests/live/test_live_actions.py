"""The answers of LIVE.md §4 through a real gunicorn: stale, duplicate, racing and
out-of-turn actions, illegal plays with the plays endpoint's reasons, wrong tokens,
resignations, timeouts and aborts."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest

from tests.live.harness import Tokens, create, join_both, token_of
from tests.server import Server


def act(
    server: Server, live_id: int, token: str, body: dict[str, Any]
) -> tuple[int, dict[str, Any]]:
    status, _, payload = server.request("POST", f"/v1/live/{live_id}/actions", body, token)
    answer: dict[str, Any] = json.loads(payload)
    return status, answer


def started(server: Server, tokens: Tokens, **options: Any) -> dict[str, Any]:
    """A backgammon money game just started: the opening roll waits for its play."""
    live_id = create(server, tokens, "backgammon", options=options)["id"]
    state = join_both(server, tokens, live_id)
    assert state["status"] == "playing" and state["expect"] == ["play", "resign"]
    return state


def test_the_opening_roll_is_the_first_throw_and_the_starter_plays_it(
    setup: tuple[Server, Tokens],
) -> None:
    server, tokens = setup
    state = started(server, tokens)
    opening = server.json("GET", f"/v1/live/{state['id']}/dice")["throws"]
    white, black = opening[-1]["dice"]
    assert all(throw["use"] == "opening" for throw in opening)
    assert all(t["dice"][0] == t["dice"][1] for t in opening[:-1]) and white != black
    assert state["to_act"] == ("w" if white > black else "b")
    assert state["dice"] == [max(white, black), min(white, black)]
    assert state["ply"] == 0 and state["deadline"] is not None and state["server_seed"] is None


LIVE_STATE_NAMES = {
    "id", "variant", "length", "options", "players", "status", "game", "score", "position",
    "ply", "to_act", "expect", "dice", "legal_plays", "deadline", "commitment", "algorithm",
    "client_seeds", "server_seed", "games", "winner", "termination", "match_id",
}  # fmt: skip
"""Every name of the state in LIVE.md §3."""


def test_the_state_keeps_every_name_of_the_contract(setup: tuple[Server, Tokens]) -> None:
    server, tokens = setup
    waiting = create(server, tokens, "backgammon", 5)
    assert set(waiting) >= LIVE_STATE_NAMES
    assert (waiting["status"], waiting["to_act"], waiting["expect"]) == ("waiting", None, [])
    assert waiting["algorithm"] == "hmac-sha256-v1" and len(waiting["commitment"]) == 64
    assert waiting["server_seed"] is None and waiting["players"] == {"w": "alice", "b": "bob"}
    playing = join_both(server, tokens, waiting["id"])
    assert set(playing) >= LIVE_STATE_NAMES
    assert playing["client_seeds"] == {"w": "alpha", "b": ""}
    assert playing["deadline"].endswith("Z") and playing["score"] == [0, 0]


def test_stale_duplicate_and_out_of_turn_actions(setup: tuple[Server, Tokens]) -> None:
    server, tokens = setup
    state = started(server, tokens)
    live_id, side = state["id"], state["to_act"]
    mover, other = token_of(tokens, side), token_of(tokens, "b" if side == "w" else "w")
    play = {"action": "play", "play": state["legal_plays"][0]}

    status, problem = act(server, live_id, other, {"ply": 0, **play})
    assert status == 403 and problem["code"] == "forbidden"
    status, problem = act(server, live_id, tokens.mallory, {"ply": 0, **play})
    assert status == 403
    status, problem = act(server, live_id, mover, {"ply": 1, **play})
    assert (status, problem["code"], problem["ply"]) == (409, "stale_ply", 0)

    status, after = act(server, live_id, mover, {"ply": 0, **play})
    assert status == 200 and after["ply"] == 1 and after["to_act"] != side
    status, problem = act(server, live_id, mover, {"ply": 0, **play})  # the same again
    assert (status, problem["code"], problem["ply"]) == (409, "stale_ply", 1)
    assert server.json("GET", f"/v1/live/{live_id}")["ply"] == 1


def test_two_racing_actions_on_one_ply_one_wins_the_other_gets_409(
    setup: tuple[Server, Tokens],
) -> None:
    server, tokens = setup
    state = started(server, tokens)
    token = token_of(tokens, state["to_act"])
    plays = state["legal_plays"]
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def send(play: str) -> None:
        barrier.wait()
        statuses.append(
            act(server, state["id"], token, {"ply": 0, "action": "play", "play": play})[0]
        )

    racers = [threading.Thread(target=send, args=(plays[i % len(plays)],)) for i in (0, 1)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    assert sorted(statuses) == [200, 409]
    assert server.json("GET", f"/v1/live/{state['id']}")["ply"] == 1


def test_an_illegal_play_is_refused_with_the_plays_endpoints_reason(
    setup: tuple[Server, Tokens],
) -> None:
    server, tokens = setup
    state = started(server, tokens)
    token = token_of(tokens, state["to_act"])
    written = "24/20 24/20 24/20 24/20"  # four moves of 4 with a roll that is not 4-4
    status, problem = act(server, state["id"], token, {"ply": 0, "action": "play", "play": written})
    check = server.json("POST", "/v1/plays/check", {"position": state["position"], "play": written})
    assert status == 422 and problem["code"] == "illegal_action"
    assert check["legal"] is False
    assert problem["reason"] == check["reason"]
    assert problem["alternatives"] == check["alternatives"][:5]
    assert set(problem["alternatives"]) <= set(state["legal_plays"])
    assert server.json("GET", f"/v1/live/{state['id']}")["ply"] == 0  # unchanged: try again


def test_an_action_not_expected_is_refused(setup: tuple[Server, Tokens]) -> None:
    server, tokens = setup
    state = started(server, tokens)
    token = token_of(tokens, state["to_act"])
    status, problem = act(server, state["id"], token, {"ply": 0, "action": "double"})
    assert status == 422 and problem["reason"]["code"] == "not_expected"
    assert problem["alternatives"] == ["play", "resign"]


def test_a_resignation_scores_its_value_times_the_cube(setup: tuple[Server, Tokens]) -> None:
    server, tokens = setup
    state = started(server, tokens, jacoby=False)
    side = state["to_act"]
    token = token_of(tokens, side)
    status, problem = act(server, state["id"], token, {"ply": 0, "action": "resign", "value": 4})
    assert status == 422 and problem["reason"]["code"] == "resign_value"
    status, final = act(server, state["id"], token, {"ply": 0, "action": "resign", "value": 2})
    winner = "b" if side == "w" else "w"
    assert status == 200 and final["status"] == "finished"
    assert (final["winner"], final["termination"]) == (winner, "resign")
    assert final["games"][0]["points"] == 2  # a mars (gammon) at cube 1, no Jacoby
    assert server.json("GET", f"/v1/matches/{final['match_id']}")["verdict"]["valid"] is True


def test_under_jacoby_an_undoubled_gammon_resignation_counts_single(
    setup: tuple[Server, Tokens],
) -> None:
    server, tokens = setup
    state = started(server, tokens)
    token = token_of(tokens, state["to_act"])
    status, final = act(server, state["id"], token, {"ply": 0, "action": "resign", "value": 2})
    assert status == 200 and final["games"][0]["points"] == 1
    assert_stored_as_played(server, final)


def assert_stored_as_played(server: Server, final: dict[str, Any]) -> None:
    """The stored verdict scores the match as the live match ended it, with no warning."""
    verdict = server.json("GET", f"/v1/matches/{final['match_id']}")["verdict"]
    assert verdict["valid"] is True
    assert [game["points"] for game in verdict["games"]] == [g["points"] for g in final["games"]]
    assert [game["warnings"] for game in verdict["games"]] == [[] for _ in final["games"]]
    if final["length"]:
        assert verdict["match"]["winner"] == final["winner"]
        assert verdict["match"]["scores_after"][-1] == final["score"]


def test_long_nardy_resigns_for_koks_only_with_koks(setup: tuple[Server, Tokens]) -> None:
    server, tokens = setup
    live_id = create(server, tokens, "long-nardy")["id"]
    state = join_both(server, tokens, live_id)
    assert state["expect"] == ["play", "resign"]  # no cube: the server rolled at once
    token = token_of(tokens, state["to_act"])
    status, problem = act(server, live_id, token, {"ply": 0, "action": "resign", "value": 3})
    assert status == 422 and problem["reason"]["code"] == "resign_value"


def test_wrong_tokens_are_refused(setup: tuple[Server, Tokens]) -> None:
    server, tokens = setup
    body = {"variant": "backgammon", "players": {"w": "alice", "b": "bob"}}
    assert server.request("POST", "/v1/live", body)[0] == 401
    assert server.request("POST", "/v1/live", body, "nrt_not-a-token")[0] == 401
    assert server.request("POST", "/v1/live", body, tokens.alice)[0] == 403
    assert server.request("POST", "/v1/live", body, tokens.writer)[0] == 403
    state = started(server, tokens)
    action = {"ply": 0, "action": "resign", "value": 1}
    assert act(server, state["id"], tokens.host, action)[0] == 403
    assert act(server, state["id"], tokens.writer, action)[0] == 403
    waiting = create(server, tokens)
    assert server.request("POST", f"/v1/live/{waiting['id']}/join", {}, tokens.mallory)[0] == 403
    assert server.request("POST", f"/v1/live/{waiting['id']}/join", {}, tokens.host)[0] == 403
    record = {"record": " 0 point match\n"}
    assert server.request("POST", "/v1/matches", record, tokens.alice)[0] == 403
    assert server.request("POST", "/v1/matches", record, tokens.host)[0] == 403


def test_a_bad_client_seed_is_refused(setup: tuple[Server, Tokens]) -> None:
    server, tokens = setup
    live_id = create(server, tokens)["id"]
    status, _, _ = server.request("POST", f"/v1/live/{live_id}/join", {"seed": "a b"}, tokens.alice)
    assert status == 422


def test_a_timeout_loses_the_match(setup: tuple[Server, Tokens]) -> None:
    # A 5-point match: the 5 points awarded are more than any resignation could be worth,
    # so the stored record must say the game was lost on time, not resigned.
    server, tokens = setup
    live_id = create(server, tokens, "backgammon", 5, move_seconds=1)["id"]
    state = join_both(server, tokens, live_id)
    late = state["to_act"]
    time.sleep(2.1)
    final = server.json("GET", f"/v1/live/{live_id}")
    winner = "b" if late == "w" else "w"
    assert (final["status"], final["termination"], final["winner"]) == (
        "finished",
        "timeout",
        winner,
    )
    assert final["score"]["wb".index(winner)] == 5 and final["expect"] == []
    assert_stored_as_played(server, final)
    action = {"ply": 0, "action": "resign", "value": 1}
    status, problem = act(server, live_id, token_of(tokens, late), action)
    assert (status, problem["code"]) == (409, "not_playing")


def test_a_timeout_in_a_money_game_loses_the_cube_value(setup: tuple[Server, Tokens]) -> None:
    server, tokens = setup
    live_id = create(server, tokens, "khachapuri", move_seconds=1)["id"]
    state = join_both(server, tokens, live_id)
    time.sleep(2.1)
    final = server.json("GET", f"/v1/live/{live_id}/dice")  # any read applies the deadline
    final = server.json("GET", f"/v1/live/{live_id}")
    assert final["termination"] == "timeout" and final["winner"] != state["to_act"]
    assert final["games"] == [
        {
            "index": 1,
            "winner": final["winner"],
            "points": 1,
            "termination": "timeout",
            "kind": None,
            "cube": 1,
        }
    ]
    assert_stored_as_played(server, final)


def test_aborts(setup: tuple[Server, Tokens]) -> None:
    server, tokens = setup
    waiting = create(server, tokens)["id"]
    assert server.request("POST", f"/v1/live/{waiting}/abort", None, tokens.mallory)[0] == 403
    aborted = server.json("POST", f"/v1/live/{waiting}/abort", None, tokens.alice)
    assert aborted["status"] == "aborted" and aborted["match_id"] is None
    assert server.request("POST", f"/v1/live/{waiting}/abort", None, tokens.host)[0] == 409

    state = started(server, tokens)
    mover = token_of(tokens, state["to_act"])
    # Once both joined the opening dice are thrown: neither bot may throw them away.
    for bot in (tokens.alice, tokens.bob):
        assert server.request("POST", f"/v1/live/{state['id']}/abort", None, bot)[0] == 403
    act(server, state["id"], mover, {"ply": 0, "action": "play", "play": state["legal_plays"][0]})
    assert server.request("POST", f"/v1/live/{state['id']}/abort", None, mover)[0] == 403
    aborted = server.json("POST", f"/v1/live/{state['id']}/abort", None, tokens.host)
    assert aborted["status"] == "aborted" and aborted["expect"] == []
    assert aborted["server_seed"] is not None and aborted["match_id"] is None


@pytest.mark.parametrize(
    ("path", "body", "who"),
    [
        ("/v1/live", {"variant": "backgammon", "players": {"w": "alice", "b": "alice"}}, "host"),
        ("/v1/live", {"variant": "backgammon", "players": {"w": "alice", "b": "nobody"}}, "host"),
        ("/v1/live", {"variant": "backgammon", "players": {"w": "alice\n", "b": "bob"}}, "host"),
        (
            "/v1/live",
            {"variant": "backgammon", "move_seconds": 59.5, "players": {"w": "alice", "b": "bob"}},
            "host",
        ),
    ],
)
def test_matches_nobody_can_play_fairly_are_refused(
    setup: tuple[Server, Tokens], path: str, body: dict[str, Any], who: str
) -> None:
    server, tokens = setup
    assert server.request("POST", path, body, getattr(tokens, who))[0] == 422


def test_seeds_plies_and_values_are_taken_exactly(setup: tuple[Server, Tokens]) -> None:
    server, tokens = setup
    live_id = create(server, tokens)["id"]
    join = f"/v1/live/{live_id}/join"
    assert server.request("POST", join, {"seed": "alpha\n"}, tokens.alice)[0] == 422
    state = started(server, tokens)
    token = token_of(tokens, state["to_act"])
    assert act(server, state["id"], token, {"ply": 0.5, "action": "roll"})[0] == 422
    assert act(server, state["id"], token, {"ply": 0, "action": "resign", "value": 1.5})[0] == 422
    huge = 10**20
    assert act(server, huge, token, {"ply": 0, "action": "roll"})[0] == 404
