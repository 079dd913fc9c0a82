"""The users' documents do not lie: every whole position string in a code block of docs/
is one the referee reads and writes back unchanged (canonical), and the plays the notation
works through give the positions it shows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from referee.app import create_app
from referee.bridge import read_position, write_position
from referee.live.dice import commitment, throw

DOCS = Path(__file__).resolve().parents[1] / "docs"
POSITION = re.compile(r"(?:backgammon|long-nardy|khachapuri)(?: \S+){8}")


def code_block_positions() -> list[tuple[str, str]]:
    """(document, position string) for every line of a fenced block that is one."""
    found = []
    for path in sorted(DOCS.glob("*.md")):
        blocks = path.read_text(encoding="utf-8").split("```")[1::2]
        for block in blocks:
            for line in block.splitlines():
                if POSITION.fullmatch(line.strip()):
                    found.append((path.name, line.strip()))
    return found


POSITIONS = code_block_positions()


def test_the_documents_show_positions() -> None:
    # the three start positions and the worked examples of docs/notation.md at least
    assert len([1 for name, _ in POSITIONS if name == "notation.md"]) >= 9


@pytest.mark.parametrize(("document", "position"), POSITIONS)
def test_a_shown_position_is_read_and_written_back_unchanged(document: str, position: str) -> None:
    assert write_position(read_position(position)) == position


# The worked examples of docs/notation.md §2.4, as worked out there: White's 24/18 18/15
# puts a checker on his 15; Black's own 24/19 19/17 ends on his own 17 = White's 5; in
# backgammon Black's 8/5 6/5 leaves White's 17 and 19 for White's 20 (25 - 5).
WORKED = [
    (
        "long-nardy ,,,,,,,,,,,15b,,,,,,,,,,,,15w w0b0 w0b0 w 63 - 0:0-0 -",
        "24/18 18/15",
        "long-nardy ,,,,,,,,,,,15b,,,1w,,,,,,,,,14w w0b0 w0b0 b - - 0:0-0 -",
    ),
    (
        "long-nardy ,,,,,,,,,,,15b,,,1w,,,,,,,,,14w w0b0 w0b0 b 52 - 0:0-0 -",
        "24/19 19/17",
        "long-nardy ,,,,1b,,,,,,,14b,,,1w,,,,,,,,,14w w0b0 w0b0 w - - 0:0-0 -",
    ),
    (
        "backgammon 2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0 b 31 1c 0:0-0 -",
        "8/5 6/5",
        "backgammon 2b,,,,,5w,,3w,,,,5b,5w,,,,2b,,4b,2b,,,,2w w0b0 w0b0 w - 1c 0:0-0 -",
    ),
]


@pytest.fixture(scope="module")
def client() -> FlaskClient:
    return create_app({"TESTING": True}).test_client()


@pytest.mark.parametrize(("before", "play", "after"), WORKED)
def test_a_worked_example_is_what_the_referee_answers(
    client: FlaskClient, before: str, play: str, after: str
) -> None:
    text = (DOCS / "notation.md").read_text(encoding="utf-8")
    assert f"`{play}`" in text and after in text  # the document shows this example
    # the document shows the position before without its dice when it follows a play
    assert before in text or before.replace(" 52 - ", " - - ") in text
    answer = client.post("/v1/plays/check", json={"position": before, "play": play})
    assert answer.status_code == 200
    assert answer.json == {**answer.json, "legal": True, "play": play, "position": after}


# docs/live.md's test vectors: (id, seed_w, seed_b, server seed, commitment, throws 1-5)
VECTORS = [
    (
        1,
        "",
        "",
        "0" * 64,
        "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
        "(5,2) (2,4) (6,3) (3,4) (2,2)",
    ),
    (
        42,
        "alpha",
        "beta-7",
        "783e28b59849da3ff7c4a64ccd204bb537ca0d2b1595ecf9339ae37b411910b7",
        "5bd8b47480989384185e2f7b751b7aae936e20f892073642a2419817dddc2570",
        "(5,2) (4,6) (5,1) (4,6) (2,2)",
    ),
]


@pytest.mark.parametrize(("live_id", "seed_w", "seed_b", "seed", "committed", "throws"), VECTORS)
def test_the_live_documents_dice_vectors_are_the_servers(
    live_id: int, seed_w: str, seed_b: str, seed: str, committed: str, throws: str
) -> None:
    text = " ".join((DOCS / "live.md").read_text(encoding="utf-8").split())
    assert committed in text and throws in text and (seed == "0" * 64 or seed in text)
    assert commitment(seed) == committed
    made = " ".join(
        f"({a},{b})" for a, b in (throw(seed, live_id, k, seed_w, seed_b) for k in range(1, 6))
    )
    assert made == throws
