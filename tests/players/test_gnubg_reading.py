"""gnubg's own reading of the boards the bridge writes (its external player's debug
output: the Position ID it decoded, the score with ``*`` for the Crawford game, the cube,
its owner, whether a double is pending), against what the position string says."""

from __future__ import annotations

import re

import pytest

from notation.ids import encode_position_id
from notation.positions import parse_position
from referee.players.fibs import Seat, board_line
from referee.players.gnubg import GnubgExternal
from vocabulary import Side

START = "2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0"
WORKED = ",,,2w,2w,3w,,,,,,,1b,,,,,,,3b,,,,2b w1b0 w7b9"


def reading(gnubg: GnubgExternal, position: str, side: Side) -> dict[str, str]:
    line = board_line(parse_position("backgammon " + position), Seat(side, "gnu", "rnd"))
    text = "\n".join(gnubg.debug(line))
    found = {
        "position_id": re.search(r"Position ID: (\S+)", text),
        "score": re.search(r"Score: (\S+),", text),
        "roll": re.search(r"Roll: (\d\d)", text),
        "cube": re.search(r"CubeOwner: (-?\d), Cube: (\d+), Turn: \w, Doubled: (\d)", text),
    }
    assert all(found.values()), text
    cube = found["cube"]
    assert cube is not None
    return {
        "position_id": found["position_id"].group(1),  # type: ignore[union-attr]
        "score": found["score"].group(1),  # type: ignore[union-attr]
        "roll": found["roll"].group(1),  # type: ignore[union-attr]
        "owner": cube.group(1),
        "cube": cube.group(2),
        "doubled": cube.group(3),
        "answer": text.splitlines()[-1],
    }


@pytest.mark.parametrize(
    ("position", "side", "score", "owner", "cube"),
    [
        (START + " w 62 1c 3:0-0 -", Side.WHITE, "0-0/3", "-1", "1"),
        # gnubg's cube owner: 1 = the player on roll (the engine), 0 = the opponent.
        (WORKED + " b 41 2w 7:2-4 -", Side.BLACK, "4-2/7", "0", "2"),
        (WORKED.replace("w7b9", "w7b9") + " b 41 4b 7:2-4 -", Side.BLACK, "4-2/7", "1", "4"),
        # the Crawford game (a player 1-away, flag c) is marked *, post-Crawford is not
        (START + " w 31 1c 5:4-2 c", Side.WHITE, "4-2/5*", "-1", "1"),
        (START + " b 31 1c 5:4-3 p", Side.BLACK, "3-4/5", "-1", "1"),
    ],
)
def test_gnubg_reads_the_move_boards_as_meant(
    gnubg: GnubgExternal, position: str, side: Side, score: str, owner: str, cube: str
) -> None:
    got = reading(gnubg, position, side)
    data = parse_position("backgammon " + position)
    assert got["position_id"] == encode_position_id(data)  # both sides' checkers
    assert got["score"] == score
    assert got["roll"] == "".join(map(str, data.dice or ()))
    assert (got["owner"], got["cube"], got["doubled"]) == (owner, cube, "0")
    assert re.fullmatch(r"(\d+/\d+\*? ?)+|", got["answer"].strip()), got["answer"]


def test_gnubg_reads_a_double_to_answer(gnubg: GnubgExternal) -> None:
    # Black (the opponent) far ahead in a race doubles: gnubg sees the double pending
    # and answers for White.
    race = "15w,,,,,,,,,,,,,,,,,,,,,,,3b w0b0 w0b12 w d 2c 5:0-0 -"
    got = reading(gnubg, race, Side.WHITE)
    assert got["doubled"] == "1" and got["cube"] == "1"
    assert got["answer"] == "drop"
