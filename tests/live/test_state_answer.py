"""The state's answer is written as it always was: deadlines to the second as ``datetime``
writes them (rounding to the microsecond first), however they are made."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from referee.live.service import _iso


def written(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def test_a_deadline_is_written_to_the_second_as_datetime_writes_it() -> None:
    rng = random.Random(5)
    seconds = [rng.randrange(1_600_000_000, 2_200_000_000) for _ in range(300)]
    near = [0.0, 0.4999995, 0.5, 0.999999, 0.9999994, 0.9999995, 0.9999996, 0.99999999]
    epochs = [s + rng.random() for s in seconds] + [s + f for s in seconds[:40] for f in near]
    for epoch in epochs:
        assert _iso(epoch) == written(epoch), epoch
    assert _iso(None) is None
