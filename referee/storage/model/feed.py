"""What a change feed follows (``stores.ChangeFeed``): its topics and their keys."""

from __future__ import annotations

from typing import Literal, TypeAlias

Topic: TypeAlias = Literal["live", "event", "bots"]
"""What a change feed follows: a counter per key that every change moves up (``"live"``: a
live match's version, keyed by its id; ``"event"``: an event's version, by its id;
``"bots"``: what the bot streams owe, two keys, ``ANNOUNCEMENTS`` and ``CHALLENGE_NEWS``)."""
LIVE_TOPIC: Topic = "live"
EVENT_TOPIC: Topic = "event"
BOTS_TOPIC: Topic = "bots"
ANNOUNCEMENTS = 0
"""The bots topic's key of the events' announcements: the last one's ``seq``
(``EventStore.last_announcement``)."""
CHALLENGE_NEWS = 1
"""The bots topic's key of the news of challenges: the last one's ``seq``
(``ChallengeStore.last_news``)."""
GONE = -1
"""The counter of a key that is not there (no such live match): below every counter."""
