"""The live watch page in a real browser (tests/web/browsing.py): its history of the current
game grows with the stream, says what the last roll and play were, agrees with what the
server writes on a reload, and at the end shows the board and the list the stored match
holds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.live.harness import Tokens, create, join_both, live_setup, play_out, token_of
from tests.server import Server
from tests.web.browsing import expect_board


@pytest.fixture(scope="module")
def live_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Tokens]]:
    with live_setup(tmp_path_factory.mktemp("live-history") / "archive.sqlite3") as setup:
        yield setup


def other(side: str) -> str:
    return "b" if side == "w" else "w"


def words(action: dict[str, Any], names: dict[str, str]) -> str:
    """An action of the replay API as the page should list it, written out here."""
    name, kind, value = names[action["side"]], action["action"], action["value"]
    if kind == "roll":
        dice = "".join(str(die) for die in action["dice"])
        return f"{name} {dice}: {action['play'] or 'no move'}"
    if kind == "win":
        return f"{name} wins {value} point{'' if value == 1 else 's'}"
    return {
        "double": f"{name} doubles to {value}",
        "beaver": f"{name} beavers to {value}",
        "take": f"{name} takes",
        "drop": f"{name} drops",
    }[kind]


def test_the_watch_page_lists_the_game_and_ends_on_the_stored_match(
    page: Any, live_site: tuple[Server, Tokens]
) -> None:
    from playwright.sync_api import expect

    server, tokens = live_site
    state = join_both(server, tokens, create(server, tokens, "backgammon", 3)["id"])
    live_id, names = state["id"], state["players"]

    def act(state: dict[str, Any], action: str, **details: Any) -> dict[str, Any]:
        body = {"ply": state["ply"], "action": action, **details}
        token = token_of(tokens, state["to_act"])
        new: dict[str, Any] = server.json("POST", f"/v1/live/{live_id}/actions", body, token)
        return new

    page.goto(f"{server.base}/live/{live_id}")
    listed = page.locator('[data-field="actions"] li')
    last_roll, to_act = (
        page.locator('[data-field="last_roll"]'),
        page.locator('[data-field="to_act"]'),
    )
    expect(listed).to_have_count(0)
    expect(last_roll).to_have_text("—")
    opener, dice = state["to_act"], state["dice"]
    expect(to_act).to_have_text(f"{names[opener]}: play {dice[0]}-{dice[1]} or resign")

    # The opening play, then the other side's roll (no action of the record: the list
    # stays), its play, a double and a take: each appears as the stream delivers it.
    played = state["legal_plays"][-1]
    state = act(state, "play", play=played)
    first = f"{names[opener]} {dice[0]}{dice[1]}: {played or 'no move'}"
    expect(listed).to_have_text([first])
    expect(last_roll).to_have_text(first)
    expect(to_act).to_have_text(f"{names[other(opener)]}: double, roll or resign")
    state = act(state, "roll")
    rolled = state["dice"]
    expect(to_act).to_have_text(f"{names[other(opener)]}: play {rolled[0]}-{rolled[1]} or resign")
    expect(listed).to_have_count(1)
    expect(last_roll).to_have_text(first)  # still the last play while the roll waits
    played = state["legal_plays"][0]
    state = act(state, "play", play=played)
    second = f"{names[other(opener)]} {rolled[0]}{rolled[1]}: {played or 'no move'}"
    state = act(state, "double")
    state = act(state, "take")
    expected = [first, second, f"{names[opener]} doubles to 2", f"{names[other(opener)]} takes"]
    expect(listed).to_have_text(expected)
    expect(last_roll).to_have_text(second)
    expect(page.locator('[data-field="ply"]')).to_have_text(str(state["ply"]))
    expect(page.locator('[data-field="score"]')).to_have_text(f"{names['w']} 0 – 0 {names['b']}")

    # What the script wrote is what the server writes on a reload.
    streamed = [listed.all_inner_texts(), last_roll.inner_text(), to_act.inner_text()]
    page.reload()
    expect(listed).to_have_text(streamed[0])
    assert [last_roll.inner_text(), to_act.inner_text()] == streamed[1:]

    # Played out by the reference bots: the page ends on the board the stored record ends
    # with, the final score from the state (the board's own score line, the score before
    # the last game, is not shown), and the last game's actions as the stored replay has them.
    final = play_out(server, tokens, live_id, seed=5)
    expect(page.get_by_role("link", name="Replay the stored match")).to_have_attribute(
        "href", f"/matches/{final['match_id']}"
    )
    replay = server.json(
        "GET", f"/v1/matches/{final['match_id']}/games/{len(final['games'])}/replay"
    )["actions"]
    assert final["position"] == replay[-1]["position_after"]
    expect_board(page, final["position"])
    score = final["score"]
    expect(page.locator('[data-field="score"]')).to_have_text(
        f"{names['w']} {score[0]} – {score[1]} {names['b']}"
    )
    board_scores = page.locator(".board-frame text.score")
    assert board_scores.count() == 2 and not any(s.is_visible() for s in board_scores.all())
    expect(listed).to_have_text([words(action, names) for action in replay])
    assert final["last_action"]["number"] == len(replay)
    expect(to_act).to_have_text("nobody")
