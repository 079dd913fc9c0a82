"""The state's ``last_action``: the current game's last action as its record will write it,
through the app (Flask's test client: one action at a time, no threads needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.storage import open_storage
from tests.api.test_matches_api import Env, make_env


class Bots:
    """A host and the two bots alice (White) and bob (Black) on one app."""

    def __init__(self, env: Env) -> None:
        self.env = env
        self.host = env.token("live:host")[1]
        storage = open_storage(env.database)
        try:
            self.secrets = {
                side: storage.tokens.create(("play",), name).secret
                for side, name in (("w", "alice"), ("b", "bob"))
            }
        finally:
            storage.close()

    def started(self, variant: str = "backgammon", length: int = 0) -> dict[str, Any]:
        body = {"variant": variant, "length": length, "players": {"w": "alice", "b": "bob"}}
        created = self.env.client.post("/v1/live", json=body, headers=self._bearer(self.host))
        assert created.status_code == 201, created.get_data(as_text=True)
        live_id = created.get_json()["id"]
        for side in ("w", "b"):
            joined = self.env.client.post(
                f"/v1/live/{live_id}/join", json={}, headers=self._bearer(self.secrets[side])
            )
            assert joined.status_code == 200
        state: dict[str, Any] = self.env.client.get(f"/v1/live/{live_id}").get_json()
        return state

    def act(self, state: dict[str, Any], action: str, **details: Any) -> dict[str, Any]:
        """The side to act sends ``action``; the new state."""
        answer = self.env.client.post(
            f"/v1/live/{state['id']}/actions",
            json={"ply": state["ply"], "action": action, **details},
            headers=self._bearer(self.secrets[state["to_act"]]),
        )
        assert answer.status_code == 200, answer.get_data(as_text=True)
        new: dict[str, Any] = answer.get_json()
        return new

    @staticmethod
    def _bearer(secret: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {secret}"}


@pytest.fixture
def bots(tmp_path: Path) -> Bots:
    return Bots(make_env(tmp_path / "live.sqlite3"))


def other(side: str) -> str:
    return "b" if side == "w" else "w"


def test_each_recorded_action_becomes_the_last_and_a_roll_alone_is_none(bots: Bots) -> None:
    state = bots.started()
    assert state["last_action"] is None  # the opening roll waits for its play: no action yet
    opener, dice = state["to_act"], state["dice"]
    play = state["legal_plays"][-1]
    state = bots.act(state, "play", play=play)
    assert state["last_action"] == {
        "number": 1,
        "side": opener,
        "action": "roll",
        "dice": dice,
        "play": play,
        "value": None,
    }
    # The other side rolls: a throw is no action of the record, the last stays the play.
    assert state["expect"] == ["double", "roll", "resign"]
    state = bots.act(state, "roll")
    assert state["last_action"]["number"] == 1 and state["ply"] == 2
    rolled = state["dice"]
    state = bots.act(state, "play", play=state["legal_plays"][0])
    assert state["last_action"]["number"] == 2
    assert (state["last_action"]["side"], state["last_action"]["dice"]) == (other(opener), rolled)
    # The opener doubles to 2 and the other drops: the record notes the drop and the win of
    # the cube's value before the double (1 point), and the money game is over.
    state = bots.act(state, "double")
    assert state["last_action"] == {
        "number": 3,
        "side": opener,
        "action": "double",
        "dice": None,
        "play": None,
        "value": 2,
    }
    state = bots.act(state, "drop")
    assert state["status"] == "finished"
    assert state["last_action"] == {
        "number": 5,
        "side": opener,
        "action": "win",
        "dice": None,
        "play": None,
        "value": 1,
    }


def test_a_new_game_of_a_match_starts_without_a_last_action(bots: Bots) -> None:
    state = bots.started("long-nardy", 3)
    opener = state["to_act"]
    state = bots.act(state, "play", play=state["legal_plays"][0])
    # Long nardy has no cube: the other resigns a mars (2 points) at once.
    state = bots.act(state, "resign", value=2)
    assert state["game"] == 2 and state["score"] == ([2, 0] if opener == "w" else [0, 2])
    assert state["last_action"] is None
    assert state["status"] == "playing"
