"""The events bot's run ends only after every match's ``on_done`` (the command prints each
match's line there and exits when the run returns: a last line was lost under load)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from referee.live.bot import EventsBot, LiveClient


def test_the_run_returns_after_the_last_matchs_on_done() -> None:
    seen: list[tuple[int, bool]] = []  # each final's id, and whether the run had ended

    def play(client: LiveClient) -> dict[str, Any]:
        live_id = int(client.url.rsplit("/", 1)[1])
        return {"id": live_id, "status": "finished", "score": [1, 0], "winner": "w"}

    def on_done(final: dict[str, Any]) -> None:
        seen.append((final["id"], bot._finished.is_set()))

    bot = EventsBot("http://127.0.0.1:9", "token", play, matches=2, on_done=on_done)

    def announcements() -> Iterator[dict[str, Any]]:
        yield from ({"live_id": live_id} for live_id in (1, 2))

    bot.announcements = announcements  # type: ignore[method-assign]
    done = bot.run()
    assert sorted(final["id"] for final in done) == [1, 2]
    assert sorted(seen) == [(1, False), (2, False)]  # each told before the run ended
